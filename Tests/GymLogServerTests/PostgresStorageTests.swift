import Foundation
import GymLogCore
@testable import GymLogServer
@testable import GymLogServerCore
@testable import GymLogServerPostgres
import GymLogWire
import GymLogTestSupport
import HummingbirdTesting
import PostgresNIO
import Testing

/// What only the PostgreSQL store has: its URL, its errors, its migrations, its schema
/// constraints and several pools on one database. The protocol rules themselves are the
/// conformance suite's (ProtocolTests, EndpointTests), run on every backend.
@Suite("PostgreSQL URL")
struct PostgresURLTests {
    @Test func partsArePercentDecodedAndDefaulted() throws {
        let full = try PostgresURL(parsing: "postgres://gym%20user:p%40ss:w@db.example:6543/gym?sslmode=require", environment: [:])
        #expect(full == PostgresURL(user: "gym user", password: "p@ss:w", host: "db.example", port: 6543, database: "gym", tls: .require))
        #expect(!full.redacted.contains("p@ss") && full.redacted.contains(":***@"))

        let short = try PostgresURL(parsing: "postgresql://gymlog@[::1]/gymlog", environment: [:])
        #expect(short == PostgresURL(user: "gymlog", host: "::1", port: 5432, database: "gymlog"))
        #expect(short.endpoint == "[::1]:5432")

        // A password left out of the URL comes from PGPASSWORD, as with psql.
        let fromEnvironment = try PostgresURL(parsing: "postgres://gymlog@127.0.0.1/gymlog", environment: ["PGPASSWORD": "s3cret"])
        #expect(fromEnvironment.password == "s3cret")
        #expect(try StorageLocation.parse("postgresql://u@h/db", environment: [:]) == .postgres(url: "postgresql://u@h/db"))
    }

    @Test(arguments: [
        ("postgres:gymlog@h/db", "lacks the //"),
        ("postgres://h:5432/db", "has no user name"),
        ("postgres://@h:5432/db", "has no user name"),
        ("postgres://u@:5432/db", "has no host"),
        ("postgres://u@h:99999/db", "the port \"99999\""),
        ("postgres://u@h:54x/db", "the port \"54x\""),
        ("postgres://u@h:5432", "has no database name"),
        ("postgres://u@h:5432/", "has no database name"),
        ("postgres://u@[::1/db", "closing ]"),
        ("postgres://u@h/db?sslmode=maybe", "sslmode=maybe"),
        ("postgres://u@h/db?search_path=x", "\"search_path\""),
    ])
    func eachBadPartIsNamed(url: String, says: String) throws {
        do {
            _ = try openSyncStorage(url, environment: [:])
            Issue.record("\(url) must be refused")
        } catch let error as ServerSetupError {
            #expect(error.message.contains(says), "\(error.message)")
            #expect(error.message.contains("postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"))
        }
    }

    @Test func aPasswordNeverAppearsInAnError() throws {
        do {
            _ = try openSyncStorage("postgres://u:hunter2@h:bad/db", environment: [:])
            Issue.record("must be refused")
        } catch let error as ServerSetupError {
            #expect(!error.message.contains("hunter2") && error.message.contains("u:***@h"))
        }
        do {
            _ = try StorageLocation.parse("mysql://u:hunter2@h/db", environment: [:])
            Issue.record("must be refused")
        } catch let error as ServerSetupError {
            #expect(!error.message.contains("hunter2") && error.message.contains("postgres://"))
        }
    }

    @Test func anUnreachableDatabaseSaysWhereAndWhatToCheck() async throws {
        // Port 1 on loopback: nothing listens, the connection is refused at once.
        let storage = try PostgresSyncStorage(url: "postgres://gymlog@127.0.0.1:1/gymlog", environment: [:], logger: PostgresAdmin.logger)
        do {
            _ = try await storage.epoch()
            Issue.record("must not reach a closed port")
        } catch let error as ServerSetupError {
            #expect(error.message.hasPrefix("cannot connect to PostgreSQL at 127.0.0.1:1"), "\(error.message)")
            #expect(error.message.contains("pg_isready -h 127.0.0.1 -p 1") && error.message.contains("listen_addresses"))
        }
        await storage.shutdown()
    }
}

@Suite("PostgreSQL store", .enabled(if: PostgresTestDatabase.isRequested, "needs GYMLOG_TEST_POSTGRES_URL (./scripts/test starts a server)"))
struct PostgresStorageTests {
    @Test func migrationsAreRecordedAndRunOnce() async throws {
        try await PostgresTestDatabase.with { url in
            let location = try PostgresURL(parsing: url)
            let first = try PostgresSyncStorage(url: url, poolSize: 2, logger: PostgresAdmin.logger)
            let epoch = try await first.epoch()
            await first.shutdown()
            // Given a migrated database, when a second server starts on it, then it keeps the epoch
            // and applies nothing again.
            let second = try PostgresSyncStorage(url: url, poolSize: 2, logger: PostgresAdmin.logger)
            #expect(try await second.epoch() == epoch && epoch.count == 32)
            await second.shutdown()
            #expect(try await PostgresAdmin.strings(location, "SELECT version || ' ' || name FROM gymlog_schema_migrations ORDER BY version")
                    == PostgresSchema.migrations.map { "\($0.version) \($0.name)" })
        }
    }

    /// A new server's first big sync is planned on statistics: `fields` is analyzed after the
    /// bulk writes (not when autovacuum gets round to it), so a pull page reads through the
    /// index instead of scanning and sorting the user's rows (issue 15, item 2).
    @Test func aBigFirstSyncLeavesStatisticsForIndexDrivenPlans() async throws {
        try await PostgresTestDatabase.with { url in
            let location = try PostgresURL(parsing: url)
            let storage = try PostgresSyncStorage(url: url, poolSize: 2, logger: PostgresAdmin.logger)
            let record = try await storage.createUser(name: "alice", tokenHash: "h", now: testNow)
            let user = AuthenticatedUser(id: record.id, name: record.name, tokenHash: "h")
            // Given a fresh database, when a device pushes 12,000 rows in batches of 2,000
            for batch in 0..<6 {
                let items = (1...2000).map { i -> PushItem in
                    let seq = Int64(batch * 2000 + i)
                    return Script.item(seq, "set-\(seq)", "reps", .int(seq % 20), millis: seq)
                }
                _ = try await storage.push(user: user, deviceID: "dev", items: items, now: testNow)
            }
            // Then the planner knows roughly how many rows there are (unanalyzed, it guesses from pages)
            let estimate = try await PostgresAdmin.int64(location, "SELECT reltuples::int8 FROM pg_class WHERE relname = 'records'") ?? -1
            #expect(estimate >= 6000, "records estimated at \(estimate) rows of 12000")
            // And a late pull page is read through the index, without a sort of the user's rows
            let plan = try await PostgresAdmin.strings(location, """
                EXPLAIN SELECT * FROM records WHERE user_id = \(record.id) AND change_seq > 11000
                ORDER BY change_seq LIMIT 1000
                """).joined(separator: "\n")
            #expect(plan.contains("Index") && !plan.contains("Seq Scan"), "\(plan)")
            await storage.shutdown()
        }
    }

    @Test func instancesStartingAtOnceMigrateOnce() async throws {
        try await PostgresTestDatabase.with { url in
            // Given an empty database, when four servers start at the same moment...
            let storages = try (0..<4).map { _ in try PostgresSyncStorage(url: url, poolSize: 1, logger: PostgresAdmin.logger) }
            let epochs = try await withThrowingTaskGroup(of: String.self) { group in
                for storage in storages { group.addTask { try await storage.epoch() } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            for storage in storages { await storage.shutdown() }
            // ...then all of them work, on one epoch: the advisory lock let one migrate.
            #expect(epochs.count == 1)
            let location = try PostgresURL(parsing: url)
            #expect(try await PostgresAdmin.int64(location, "SELECT count(*) FROM meta") == 1)
        }
    }

    @Test func aFailedMigrationNamesItsStepAndLeavesNothing() async throws {
        try await PostgresTestDatabase.with { url in
            let location = try PostgresURL(parsing: url)
            let broken = PostgresSchema.migrations + [PostgresMigration(version: 2, name: "broken-example", steps: [
                "CREATE TABLE half_done (x INTEGER)",
                "CREATE TABLE users (id INTEGER)",
            ])]
            do {
                try await PostgresAdmin.migrate(location, migrations: broken)
                Issue.record("the second step must fail: users exists")
            } catch let error as ServerSetupError {
                #expect(error.message.contains("migration 2 (broken-example), step 2 of 2"), "\(error.message)")
                #expect(error.message.contains("\"users\" already exists") && error.message.contains("Nothing of it was applied"))
            }
            // The whole run was one transaction: not even migration 1 is there.
            #expect(try await PostgresAdmin.int64(location, "SELECT count(*) FROM pg_tables WHERE tablename IN ('half_done', 'users', 'gymlog_schema_migrations')") == 0)

            // A database migrated by a newer server is refused with what to do.
            try await PostgresAdmin.migrate(location, migrations: PostgresSchema.migrations)
            try await PostgresAdmin.execute(location, ["INSERT INTO gymlog_schema_migrations (version, name) VALUES (99, 'from-the-future')"])
            let storage = try PostgresSyncStorage(url: url, poolSize: 1, logger: PostgresAdmin.logger)
            await #expect { try await storage.prepare() } throws: { error in
                (error as? ServerSetupError)?.message.contains("schema version 99, newer than this gymlog-server knows") ?? false
            }
            await storage.shutdown()
        }
    }

    @Test func aMissingDatabaseOrRoleSaysHowToFixIt() async throws {
        let admin = try PostgresTestDatabase.adminLocation()
        var noDatabase = admin
        noDatabase.database = "gymlog_missing_\(UInt32.random(in: 0...UInt32.max))"
        let storage = try PostgresSyncStorage(url: PostgresTestDatabase.url(for: noDatabase), poolSize: 1, logger: PostgresAdmin.logger)
        await #expect { try await storage.prepare() } throws: { error in
            let message = (error as? ServerSetupError)?.message ?? ""
            return message.contains("has no database \"\(noDatabase.database)\"") && message.contains("createdb --owner")
        }
        await storage.shutdown()

        var noRole = admin
        noRole.user = "gymlog_nobody"
        let stranger = try PostgresSyncStorage(url: PostgresTestDatabase.url(for: noRole), poolSize: 1, logger: PostgresAdmin.logger)
        await #expect { try await stranger.prepare() } throws: { error in
            let message = (error as? ServerSetupError)?.message ?? ""
            return message.contains("refused user \"gymlog_nobody\"") && message.contains("pg_hba.conf")
        }
        await stranger.shutdown()
    }

    @Test func idempotencyKeysAreUniquePerUserInTheSchema() async throws {
        try await PostgresTestDatabase.with { url in
            let storage = try PostgresSyncStorage(url: url, poolSize: 1, logger: PostgresAdmin.logger)
            let alice = try await storage.createUser(name: "alice", tokenHash: "a", now: testNow)
            let bob = try await storage.createUser(name: "bob", tokenHash: "b", now: testNow)
            await storage.shutdown()
            let location = try PostgresURL(parsing: url)
            try await PostgresAdmin.execute(location, ["INSERT INTO applied_keys VALUES (\(alice.id), 'k1')"])
            // The same key for another user is another key...
            try await PostgresAdmin.execute(location, ["INSERT INTO applied_keys VALUES (\(bob.id), 'k1')"])
            // ...but twice for one user is refused by the database itself, whatever the code does.
            await #expect { try await PostgresAdmin.execute(location, ["INSERT INTO applied_keys VALUES (\(alice.id), 'k1')"]) } throws: {
                PostgresAdmin.sqlState(of: $0) == "23505"
            }
        }
    }

    @Test func thePoolRunsAsAServiceOfTheApplication() async throws {
        try await PostgresTestDatabase.with { url in
            // Given a store nobody started, handed to an application...
            let storage = try PostgresSyncStorage(url: url, poolSize: 2, logger: PostgresAdmin.logger)
            var config = ServerConfig(database: url)
            config.now = { testNow }
            config.logLevel = .warning
            let app = try await buildApplication(config, storage: storage)
            // ...when the application runs, its ServiceGroup starts the pool and the routes reach the database...
            let status = try await app.test(.router) { client in
                try await client.execute(uri: "/v1/capabilities", method: .get).status
            }
            #expect(status == .ok)
            let epoch = try await PostgresAdmin.strings(try PostgresURL(parsing: url), "SELECT epoch FROM meta")
            #expect(epoch.count == 1)
            // ...and once it stopped gracefully, the store refuses calls instead of waiting forever.
            await storage.shutdown()
            await #expect(throws: (any Error).self) { _ = try await storage.listUsers() }
        }
    }

    @Test func aStoreShutDownBeforeItsFirstCallRefusesCalls() async throws {
        let storage = try PostgresSyncStorage(url: "postgres://gymlog@127.0.0.1:1/gymlog", environment: [:], logger: PostgresAdmin.logger)
        await storage.shutdown()
        await #expect { _ = try await storage.epoch() } throws: { error in
            (error as? ServerSetupError)?.message.contains("shut down") ?? false
        }
    }

    @Test func twoPoolsPushingForOneUserNeverShareACursorValue() async throws {
        try await PostgresTestDatabase.with { url in
            // Given two storages on one database, as two server instances have...
            // (A long wait for a connection: eight pushes of one user queue on its row, and on a loaded
            // machine the 2 s default answers "busy", the overload answer this test is not about.)
            let one = try PostgresSyncStorage(url: url, poolSize: 4, connectionWait: .seconds(60), logger: PostgresAdmin.logger)
            let two = try PostgresSyncStorage(url: url, poolSize: 4, connectionWait: .seconds(60), logger: PostgresAdmin.logger)
            let user = try await one.createUser(name: "alice", tokenHash: "h", now: testNow)
            let auth = AuthenticatedUser(id: user.id, name: user.name, tokenHash: "h")
            // ...when 8 devices push 15 events each, one at a time, alternating between them...
            let heads = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for d in 0..<8 {
                    group.addTask {
                        var heads: [Int64] = []
                        for seq in Int64(1)...15 {
                            let clock = HLC(millis: testNow - 1000 + seq, counter: 0, node: "dev\(d)")
                            let event = ValidEvent(seq: seq, idempotencyKey: "d\(d)-\(seq)", entity: "sets", entityID: "d\(d)-\(seq)",
                                                   fields: [ValidField(name: "reps", value: .int(seq), clock: clock, clockText: clock.description)])
                            let storage = (d + Int(seq)) % 2 == 0 ? one : two
                            guard case .completed(let last, let head, _, _) = try await storage.push(user: auth, deviceID: "dev\(d)", items: [.valid(event)], now: testNow) else {
                                Issue.record("unexpected gap"); return heads
                            }
                            #expect(last == seq)
                            heads.append(head)
                        }
                        return heads
                    }
                }
                return try await group.reduce(into: [Int64]()) { $0 += $1 }
            }
            // ...then every push got its own change counter value.
            #expect(heads.sorted() == Array(1...120))
            let page = try await two.pull(user: auth, deviceID: "dev0", after: 0, limit: .fieldRows(1000), maxBytes: 1 << 22)
            #expect(page.fieldCount == 120 && page.cursor == 120 && page.lastAppliedSeq == 15)
            await one.shutdown(); await two.shutdown()
        }
    }

    /// Issue 15, item 2: a push is two round trips (one read, one write) however big, and a
    /// sequence gap one (the read); before, nine.
    @Test func aPushIsAtMostTwoRoundTrips() async throws {
        try await PostgresTestDatabase.with { url in
            let storage = try PostgresSyncStorage(url: url, poolSize: 2, logger: PostgresAdmin.logger)
            let record = try await storage.createUser(name: "alice", tokenHash: "h", now: testNow)
            let user = AuthenticatedUser(id: record.id, name: record.name, tokenHash: "h")
            func statements(_ push: () async throws -> PushOutcome) async throws -> (Int, PushOutcome) {
                let before = storage.pushStatements.total
                let outcome = try await push()
                return (storage.pushStatements.total - before, outcome)
            }
            // Given a first push of 200 new rows
            let first = (1...200).map { Script.item(Int64($0), "s\($0)", "reps", .int(1), millis: Int64($0)) }
            let (fresh, _) = try await statements { try await storage.push(user: user, deviceID: "a", items: first, now: testNow) }
            // When a second one replays 100 of them (as sent), edits 100 stored rows, and reuses a key with other content
            let second = Array(first[100..<200])
                + (201...300).map { Script.item(Int64($0), "s\($0 - 100)", "reps", .int(2), millis: 1000 + Int64($0)) }
                + [Script.item(301, "x", "reps", .int(9), millis: 5000, key: "dev-1-s1")]
            let (mixed, outcome) = try await statements { try await storage.push(user: user, deviceID: "a", items: second, now: testNow) }
            // And a third skips a seq
            let (gap, gapOutcome) = try await statements { try await storage.push(user: user, deviceID: "a", items: [Script.item(400, "y", "reps", .int(1), millis: 1)], now: testNow) }
            // Then the first two took two statements each, the gap one, and the rules still held
            #expect(fresh == 2 && mixed == 2 && gap == 1, "\(fresh), \(mixed), \(gap) statements")
            guard case .completed(let last, let head, let results, _) = outcome else { Issue.record("\(outcome)"); return }
            #expect(last == 301 && head == 300)
            #expect(results.prefix(100).allSatisfy { $0.status == .duplicate } && results[100..<200].allSatisfy { $0.status == .applied })
            #expect(results.last?.error?.code == "key_reused")
            #expect(gapOutcome == .sequenceGap(lastAppliedSeq: 301, got: 400))
            #expect(storage.pushConflicts.total == 0)
            await storage.shutdown()
        }
    }

    /// Two instances (two pools) pushing for one user at the same moment: the compare-and-swap
    /// lets one write at a time, the loser reads again, and every event ends applied once with
    /// a gapless counter; a field every device writes at once ends with the newest clock.
    @Test func concurrentPushesOfOneUserOnTwoInstancesAllApplyWithAGaplessCounter() async throws {
        try await PostgresTestDatabase.with { url in
            let one = try PostgresSyncStorage(url: url, poolSize: 3, logger: PostgresAdmin.logger)
            let two = try PostgresSyncStorage(url: url, poolSize: 3, logger: PostgresAdmin.logger)
            let record = try await one.createUser(name: "alice", tokenHash: "h", now: testNow)
            let user = AuthenticatedUser(id: record.id, name: record.name, tokenHash: "h")
            _ = try await two.epoch()
            // Given 6 devices, each pushing 10 batches of 5 new rows through both instances at once,
            // then one event each writing the same field of one row, device 5's clock the newest
            let devices = 6, batches = 10, perBatch = 5
            // (the second phase starts when the first is over, so the first one's counter values stay in its rows)
            func everyDevice(rounds: Range<Int>) async throws -> [PushResult] {
                try await withThrowingTaskGroup(of: [PushResult].self) { group in
                    for d in 0..<devices {
                        group.addTask {
                            var all: [PushResult] = []
                            for b in rounds {
                                let items = b == batches
                                    ? [Script.item(Int64(b * perBatch + 1), "shared", "last", .text("dev\(d)"), millis: Int64(d), node: "dev\(d)")]
                                    : (1...perBatch).map { i -> PushItem in
                                        let seq = Int64(b * perBatch + i)
                                        return Script.item(seq, "d\(d)-\(seq)", "reps", .int(seq), millis: seq, node: "dev\(d)")
                                    }
                                let storage = (d + b) % 2 == 0 ? one : two
                                let outcome = try await storage.push(user: user, deviceID: "dev\(d)", items: items, now: testNow)
                                guard case .completed(let last, _, let results, _) = outcome else { Issue.record("\(outcome)"); return all }
                                #expect(last == items.last?.seq)
                                all += results
                            }
                            return all
                        }
                    }
                    return try await group.reduce(into: [PushResult]()) { $0 += $1 }
                }
            }
            let results = try await everyDevice(rounds: 0..<batches) + everyDevice(rounds: batches..<batches + 1)
            // Then every event applied, each new row took its own counter value: 1...300, no gap
            let events = devices * batches * perBatch
            #expect(results.count == events + devices && results.allSatisfy { $0.status == .applied })
            let snapshot = try await one.changes(user: user.id, device: "dev0", after: 0, recordLimit: 10_000)
            let own = snapshot.records.filter { $0.entityID != "shared" }
            #expect(own.map(\.changeSeq).sorted() == Array(1...Int64(events)))
            // And the shared field holds the newest clock's value, under a later counter value
            let shared = snapshot.records.filter { $0.entityID == "shared" }
            #expect(try shared.flatMap { try RecordText.decode($0.text).map(\.value) } == [.text("dev5")] && (shared.first?.changeSeq ?? 0) > Int64(events))
            #expect(snapshot.head == shared.first?.changeSeq && snapshot.head <= Int64(events + devices))
            #expect(one.userLocks.count == 0 && two.userLocks.count == 0)
            await one.shutdown(); await two.shutdown()
        }
    }

    /// A push waiting for its user's lock (held here by another session, as another instance's
    /// fallback or `user delete` does) holds no pooled connection: with a pool of ONE, another
    /// user's push still goes through.
    @Test func aPushWaitingForItsUsersLockHoldsNoConnection() async throws {
        try await PostgresTestDatabase.with { url in
            let location = try PostgresURL(parsing: url)
            let storage = try PostgresSyncStorage(url: url, poolSize: 1, logger: PostgresAdmin.logger)
            let alice = try await storage.createUser(name: "alice", tokenHash: "a", now: testNow)
            let bob = try await storage.createUser(name: "bob", tokenHash: "b", now: testNow)
            let connection = try await PostgresConnection.connect(configuration: try location.connectionConfiguration(), id: 9, logger: PostgresAdmin.logger)
            // Given another session holding alice's row lock
            try await connection.query("BEGIN", logger: PostgresAdmin.logger)
            try await connection.query("SELECT 1 FROM users WHERE id = \(alice.id) FOR UPDATE", logger: PostgresAdmin.logger)
            // When alice pushes (and waits), then bob pushes
            let waiting = Task {
                try await storage.push(user: AuthenticatedUser(id: alice.id, name: "alice", tokenHash: "a"), deviceID: "a",
                                       items: [Script.item(1, "s1", "reps", .int(1), millis: 1)], now: testNow)
            }
            while storage.pushConflicts.total == 0 { try await Task.sleep(for: .milliseconds(5)) }
            let bobPush = Task {
                try await storage.push(user: AuthenticatedUser(id: bob.id, name: "bob", tokenHash: "b"), deviceID: "b",
                                       items: [Script.item(1, "s1", "reps", .int(1), millis: 1)], now: testNow)
            }
            let deadline = Task { try await Task.sleep(for: .seconds(10)); bobPush.cancel() }
            let bobOutcome = try? await bobPush.value
            deadline.cancel()
            // Then bob's push completed while alice's lock was held
            guard case .completed(1, 1, _, _)? = bobOutcome else { Issue.record("bob's push did not complete: \(String(describing: bobOutcome))"); return }
            // And alice's completes once the lock is released
            try await connection.query("ROLLBACK", logger: PostgresAdmin.logger)
            try await connection.close()
            let aliceOutcome = try await waiting.value
            guard case .completed(1, 1, _, _) = aliceOutcome else { Issue.record("\(aliceOutcome)"); return }
            await storage.shutdown()
        }
    }
}
