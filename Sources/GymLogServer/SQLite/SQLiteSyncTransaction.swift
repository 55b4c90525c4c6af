import Foundation
import GRDB
import GRDBSQLite
import GymLogCore

/// The push primitives on SQLite, inside the BEGIN IMMEDIATE that `SQLiteSyncStorage.withTransaction`
/// opened on the writer connection. SQLite's single writer serialises pushes, so the change
/// counter read here can never be handed out out of commit order; `lockCounters` only reads.
///
/// The per-field statements bind raw on GRDB's cached statements: they run once per pushed
/// field, and StatementArguments' boxing would cost more than SQLite itself.
public struct SQLiteSyncTransaction: SyncStorageTransaction {
    let pool: DatabasePool
    let user: Int64

    public func lockCounters(device: String) async throws -> (lastAppliedSeq: Int64, changeCounter: Int64) {
        let user = self.user
        return try await pool.writeWithoutTransaction { db in
            let lastApplied = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT last_applied_seq FROM devices WHERE user_id = ? AND device_id = ?"),
                arguments: [user, device]) ?? 0
            let head = try Int64.fetchOne(db.cachedStatement(sql: "SELECT change_seq FROM users WHERE id = ?"), arguments: [user]) ?? 0
            return (lastApplied, head)
        }
    }

    public func recordIdempotencyKeys(_ keys: [IdempotencyKey]) async throws -> RecordedKeys {
        let user = self.user
        return try await pool.writeWithoutTransaction { db in
            let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO applied_keys (user_id, idempotency_key, digest) VALUES (?, ?, ?)")
            defer { insert.clearBindings() }
            insert.bind(1, user)
            var recorded = RecordedKeys()
            for key in keys {
                insert.bind(2, key.key); insert.bind(3, key.digest)
                try insert.stepDone(db)
                if sqlite3_changes(db.sqliteConnection) > 0 {
                    recorded.new.insert(key.key)
                } else if let earlier = try String.fetchOne(
                    db.cachedStatement(sql: "SELECT digest FROM applied_keys WHERE user_id = ? AND idempotency_key = ?"), arguments: [user, key.key]) {
                    recorded.digests[key.key] = earlier
                }
            }
            return recorded
        }
    }

    public func storedClocks(_ rows: [RowKey]) async throws -> [RowKey: [String: String]] {
        let user = self.user
        return try await pool.writeWithoutTransaction { db in
            // One statement per entity and chunk of ids rather than one per row: a push of 1,000
            // new sets would otherwise run 1,000 lookups that find nothing, each paying the
            // statement's own overhead (10 % of push throughput).
            var stored: [RowKey: [String: String]] = [:]
            for (entity, keys) in Dictionary(grouping: rows, by: \.entity) {
                for start in stride(from: 0, to: keys.count, by: Self.idsPerLookup) {
                    let chunk = keys[start..<min(start + Self.idsPerLookup, keys.count)]
                    let sql = "SELECT entity_id, field, clock FROM fields WHERE user_id = ? AND entity = ? AND entity_id IN ("
                        + repeatElement("?", count: chunk.count).joined(separator: ",") + ")"
                    // Full chunks share one cached statement; a last, shorter one is prepared once.
                    let select = chunk.count == Self.idsPerLookup ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
                    defer { select.clearBindings() }
                    select.bind(1, user); select.bind(2, entity)
                    for (offset, key) in chunk.enumerated() { select.bind(Int32(offset + 3), key.entityID) }
                    try select.eachRow(db) { statement in
                        stored[RowKey(entity: entity, entityID: columnText(statement, 0)), default: [:]][columnText(statement, 1)] = columnText(statement, 2)
                    }
                }
            }
            return stored
        }
    }

    /// Ids per clock lookup: well under SQLite's 32,766 bound parameters.
    static let idsPerLookup = 500

    public func writeFields(_ writes: [ChangeRow]) async throws {
        let user = self.user
        try await pool.writeWithoutTransaction { db in
            let write = try db.cachedStatement(sql: """
                INSERT INTO fields (user_id, entity, entity_id, field, value, clock, change_seq)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (user_id, entity, entity_id, field) DO UPDATE
                SET value = excluded.value, clock = excluded.clock, change_seq = excluded.change_seq
                """)
            defer { write.clearBindings() }
            write.bind(1, user)
            for field in writes {
                write.bind(2, field.row.entity); write.bind(3, field.row.entityID); write.bind(4, field.field)
                write.bind(5, field.value); write.bind(6, field.clock); write.bind(7, field.changeSeq)
                try write.stepDone(db)
            }
        }
    }

    public func setLastAppliedSeq(_ seq: Int64, device: String, now: Int64) async throws {
        let user = self.user
        try await pool.writeWithoutTransaction { db in
            try db.cachedStatement(sql: """
                INSERT INTO devices (user_id, device_id, last_applied_seq, last_seen_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id, device_id) DO UPDATE SET last_applied_seq = excluded.last_applied_seq, last_seen_at = excluded.last_seen_at
                """).execute(arguments: [user, device, seq, now])
        }
    }

    public func setChangeCounter(_ value: Int64) async throws {
        let user = self.user
        try await pool.writeWithoutTransaction { db in
            try db.cachedStatement(sql: "UPDATE users SET change_seq = ? WHERE id = ?").execute(arguments: [value, user])
        }
    }
}
