import Foundation
import GRDB
import GymLogCore
import GymLogTestSupport
import GymLogWire
import Testing
@testable import GymLogServer
@testable import GymLogServerCore
@testable import GymLogServerPostgres
@testable import GymLogServerSQLite

/// A server upgraded from the version that kept one row per field (`server-v6-account-key`,
/// the schema up to 2026-11-28) to one row per record: its devices see the same history and
/// converge on it.
@Suite("Upgrading to one row per record") struct RecordRowsUpgradeTests {
    /// The field rows a previous version's pushes left: (entity, id, field, value, clock, change_seq).
    /// Set s1 was logged by the phone (seq 1) and its reps edited by the laptop (seq 3); s2 was
    /// logged (seq 2) and deleted (seq 4); a note with a quote, a newline and an accent; a
    /// real weight, an integral real and one no 64-bit integer holds; a null.
    static let previousRows: [(String, String, String, FieldValue, String, Int64)] = [
        ("sets", "s1", "exercise_id", .text("e-bench"), clock(10, "phone"), 1),
        ("sets", "s1", "reps", .int(6), clock(30, "laptop"), 3),
        ("sets", "s1", "weight", .real(62.5), clock(10, "phone"), 1),
        ("sets", "s1", "rpe", .null, clock(10, "phone"), 1),
        ("sets", "s1", "bodyweight", .real(80), clock(10, "phone"), 1),
        ("sets", "s2", "exercise_id", .text("e-bench"), clock(20, "phone"), 2),
        ("sets", "s2", "note", .text("said \"easy\"\nnext time: 65 é"), clock(20, "phone"), 2),
        ("sets", "s2", "distance", .real(1e20), clock(20, "phone"), 2),
        ("sets", "s2", "deleted_at", .int(1_764_000_000_000), clock(40, "laptop"), 4),
    ]

    static func clock(_ millis: Int64, _ device: String) -> String {
        // As `Script.item` makes them, so the pushes below compare with these clocks.
        HLC(millis: testNow - 100_000 + millis, counter: 0, node: device).description
    }

    @Test func anSQLiteServerKeepsItsHistoryAndItsDevicesConverge() async throws {
        let dir = try temporaryDirectory("gymlog-record-rows")
        let path = dir + "/server.sqlite"
        // Given a database at the previous schema holding a user's field rows, two devices and their keys
        do {
            let queue = try DatabaseQueue(path: path)
            try SQLiteSyncStorage.migrator.migrate(queue, upTo: "server-v6-account-key")
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO users (name, token_hash, created_at, change_seq) VALUES ('alice', 'a', 1, 4)")
                try db.execute(sql: "INSERT INTO devices (user_id, device_id, last_applied_seq) VALUES (1, 'phone', 2), (1, 'laptop', 2)")
                try db.execute(sql: "INSERT INTO applied_keys (user_id, idempotency_key) VALUES (1, 'phone-1'), (1, 'phone-2'), (1, 'laptop-1'), (1, 'laptop-2')")
                for (entity, id, field, value, clock, seq) in Self.previousRows {
                    try db.execute(sql: "INSERT INTO fields (user_id, entity, entity_id, field, value, clock, change_seq) VALUES (1, ?, ?, ?, ?, ?, ?)",
                                   arguments: [entity, id, field, Self.databaseValue(value), clock, seq])
                }
            }
        }
        // When the server opens it (and migrates)
        let storage = try SQLiteSyncStorage(path: path)
        try await expectConvergence(storage, user: AuthenticatedUser(id: 1, name: "alice", tokenHash: "a"))
        // And the field rows are gone: one home for the state
        let queue = try DatabaseQueue(path: path)
        #expect(try await queue.read { try $0.tableExists("fields") } == false)
    }

    @Test(.enabled(if: PostgresTestDatabase.isRequested, "needs GYMLOG_TEST_POSTGRES_URL (./scripts/test starts a server)"))
    func aPostgresServerKeepsItsHistoryAndItsDevicesConverge() async throws {
        try await PostgresTestDatabase.with { url in
            let location = try PostgresURL(parsing: url, environment: [:])
            // Given a database at the previous schema (migrations 1 to 6) holding the same rows
            try await PostgresAdmin.migrate(location, migrations: PostgresSchema.migrations.filter { $0.version <= 6 })
            var statements = [
                "INSERT INTO users (name, token_hash, created_at, change_seq) VALUES ('alice', 'a', 1, 4)",
                "INSERT INTO devices (user_id, device_id, last_applied_seq) VALUES (1, 'phone', 2), (1, 'laptop', 2)",
                "INSERT INTO applied_keys (user_id, idempotency_key) VALUES (1, 'phone-1'), (1, 'phone-2'), (1, 'laptop-1'), (1, 'laptop-2')",
            ]
            for (entity, id, field, value, clock, seq) in Self.previousRows {
                let (int, real, text): (String, String, String)
                switch value {
                case .null: (int, real, text) = ("NULL", "NULL", "NULL")
                case .int(let i): (int, real, text) = ("\(i)", "NULL", "NULL")
                case .real(let d): (int, real, text) = ("NULL", "'\(d)'::float8", "NULL")
                case .text(let s): (int, real, text) = ("NULL", "NULL", "'" + s.replacingOccurrences(of: "'", with: "''") + "'")
                }
                statements.append("""
                    INSERT INTO fields (user_id, entity, entity_id, field, value_int, value_real, value_text, clock, change_seq)
                    VALUES (1, '\(entity)', '\(id)', '\(field)', \(int), \(real), \(text), '\(clock)', \(seq))
                    """)
            }
            try await PostgresAdmin.execute(location, statements)
            // When the server opens it (and migrates)
            let storage = try PostgresSyncStorage(url: url, poolSize: 2, logger: PostgresAdmin.logger)
            try await expectConvergence(storage, user: AuthenticatedUser(id: 1, name: "alice", tokenHash: "a"))
            #expect(try await PostgresAdmin.int64(location, "SELECT count(*) FROM pg_tables WHERE tablename = 'fields'") == 0)
            await storage.shutdown()
        }
    }

    /// What both stores must show after the upgrade.
    private func expectConvergence(_ storage: any SyncStorage, user: AuthenticatedUser) async throws {
        // Then a new device pulls every field, with its value and clock, and the counter where it was
        let full = try await storage.pull(user: user, deviceID: "tablet", after: 0, limit: .changes(1000), maxBytes: 1 << 20)
        #expect(Self.fields(full) == Self.previousRows.map { "\($0.1) \($0.2) \($0.3) \($0.4)" }.sorted())
        #expect(full.cursor == 4 && !full.hasMore && full.rows.count == 2)
        // And a device that had pulled up to 2 gets the two records written after it, whole
        let later = try await storage.pull(user: user, deviceID: "phone", after: 2, limit: .changes(1000), maxBytes: 1 << 20)
        #expect(later.rows.map(\.entityID) == ["s1", "s2"] && later.fieldCount == 9 && later.lastAppliedSeq == 2)
        #expect(try await storage.pull(user: user, deviceID: "phone", after: 4, limit: .changes(1000), maxBytes: 1 << 20).rows.isEmpty)
        // When the phone pushes a newer weight and an older reps for s1 (the laptop's edit stays)
        let outcome = try await storage.push(user: user, deviceID: "phone", items: [
            Script.item(3, "s1", "weight", .real(65), millis: 50, node: "phone"),
            Script.item(4, "s1", "reps", .int(5), millis: 15, node: "phone"),
        ], now: testNow)
        guard case .completed(let last, let head, let results, _) = outcome else { Issue.record("\(outcome)"); return }
        #expect(last == 4 && head == 5 && results.map(\.status) == [.applied, .applied])
        // Then every device converges on one state: the newer weight, the laptop's reps, the rest as it was
        let after = try await storage.pull(user: user, deviceID: "laptop", after: 0, limit: .changes(1000), maxBytes: 1 << 20)
        let expected = Self.previousRows.map { row -> String in
            row.1 == "s1" && row.2 == "weight" ? "s1 weight \(FieldValue.real(65)) \(Self.clock(50, "phone"))" : "\(row.1) \(row.2) \(row.3) \(row.4)"
        }.sorted()
        #expect(Self.fields(after) == expected)
        #expect(after.rows.map(\.entityID) == ["s2", "s1"] && after.cursor == 5)
        let users = try await storage.listUsers()
        #expect(users.first?.usage.records == 2)
    }

    private static func databaseValue(_ value: FieldValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .int(let i): i.databaseValue
        case .real(let d): d.databaseValue
        case .text(let t): t.databaseValue
        }
    }

    private static func fields(_ page: PullPage) -> [String] {
        page.rows.flatMap { row in row.fields.map { "\(row.entityID) \($0.name) \($0.value) \($0.clock)" } }.sorted()
    }
}
