import Foundation
import GRDB
import GymLogCore
import GymLogStore
import GymLogSyncClient
import GymLogTestSupport
import GymLogWire
import Testing

/// `gymlog-server backup` and `restore` through the real binary, against a real server process.
@Suite("Server backup and restore") struct BackupRestoreTests {
    /// Every row of every server table, as text, in a stable order.
    private func dump(_ path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            var lines: [String] = []
            for table in ["meta", "users", "devices", "applied_keys", "records"] {
                lines += try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map { "\(table) \($0.description)" }.sorted()
            }
            return lines
        }
    }

    private func push(_ transport: HTTPSyncTransport, _ device: Device, seq: Int64, rows: Range<Int>) async throws {
        let events = rows.enumerated().map { offset, i in
            PushEvent(seq: seq + Int64(offset), idempotencyKey: UUID().uuidString, entity: .sets, entityID: "s\(i)", op: .create,
                      changes: [FieldChange("reps", .int(Int64(i)), device.clock(testNow + Int64(i)))])
        }
        let response = try await transport.push(PushRequest(deviceID: device.id, events: events))
        #expect(response.lastAppliedSeq == seq + Int64(rows.count) - 1)
    }

    private func gymlogServer(_ args: [String]) throws -> ProcessResult {
        try ProcessRunner.runProduct("gymlog-server", args, timeout: 120)
    }

    @Test func backupWhileServingThenRestoreGivesBackExactlyTheBackedUpRows() async throws {
        let dir = try temporaryDirectory("gymlog-backup")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dbPath = "\(dir)/server.sqlite", backupPath = "\(dir)/backup.sqlite"
        let server = try ServerInstance(database: "sqlite:\(dbPath)")
        let token = try server.addUser("alice")
        let transport = HTTPSyncTransport(baseURL: URL(string: server.url)!, token: token)
        let device = Device()

        // Given a serving server holding 30 rows
        try await push(transport, device, seq: 1, rows: 0..<30)
        let atBackup = try dump(dbPath)
        // When it is backed up while it keeps serving
        let backup = try gymlogServer(["backup", "--db", "sqlite:\(dbPath)", backupPath])
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(backup.stdout.contains("integrity ok"), "\(backup.stdout)")
        #expect(try dump(backupPath) == atBackup)
        let mode = try FileManager.default.attributesOfItem(atPath: backupPath)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the backup holds token hashes: owner-only, like the database")
        // ...and more is written afterwards (rows and an account)
        try await push(transport, device, seq: 31, rows: 30..<50)
        _ = try server.addUser("bob")
        let afterMore = try dump(dbPath)
        #expect(afterMore != atBackup)
        // Then restore refuses while the server has the database open
        let refused = try gymlogServer(["restore", "--db", "sqlite:\(dbPath)", backupPath])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("stop the server"), "\(refused.stderr)")
        #expect(try dump(dbPath) == afterMore, "a refused restore changes nothing")
        // ...and once it is stopped, the restored store holds exactly the backed-up rows
        server.stop()
        let restore = try gymlogServer(["restore", "--db", "sqlite:\(dbPath)", backupPath])
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dbPath + "-wal"), "the old WAL must not be replayed onto the restored file")
        // (with a new epoch: the history after the backup is gone, and devices must see it)
        let restored = try dump(dbPath)
        #expect(restored.filter { !$0.hasPrefix("meta ") } == atBackup.filter { !$0.hasPrefix("meta ") })
        let epoch = { (rows: [String]) -> String? in
            rows.first { $0.hasPrefix("meta ") }.flatMap { row in row.range(of: "epoch:\"[0-9a-f]+\"", options: .regularExpression).map { String(row[$0]) } }
        }
        #expect(epoch(restored) != nil && epoch(restored) != epoch(atBackup), "\(restored.filter { $0.hasPrefix("meta ") })")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")

        // And a server on the restored file serves the backed-up history to a new device
        let again = try ServerInstance(database: "sqlite:\(dbPath)")
        let page = try await HTTPSyncTransport(baseURL: URL(string: again.url)!, token: token)
            .pull(cursor: .start, limit: 1000, deviceID: Device().id, ackedSeq: nil)
        #expect(page.changes.count == 30)
        again.stop()
    }

    @Test func backupRefusesToOverwriteAndExplainsPostgres() throws {
        let dir = try temporaryDirectory("gymlog-backup")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dbPath = "\(dir)/server.sqlite", backupPath = "\(dir)/backup.sqlite"
        let server = try ServerInstance(database: "sqlite:\(dbPath)")
        _ = try server.addUser("alice")
        defer { server.stop() }
        // Given an existing file where the backup should go
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: backupPath))
        // When backing up without --force, then it is refused and the file is untouched
        let refused = try gymlogServer(["backup", "--db", "sqlite:\(dbPath)", backupPath])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains(backupPath) && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: backupPath, encoding: .utf8) == "keep me")
        // ...with --force it is replaced by a checked backup
        let forced = try gymlogServer(["backup", "--db", "sqlite:\(dbPath)", backupPath, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try dump(backupPath).contains { $0.hasPrefix("users ") && $0.contains("alice") })
        // A missing folder is named
        let noFolder = try gymlogServer(["backup", "--db", "sqlite:\(dbPath)", "\(dir)/missing/backup.sqlite"])
        #expect(noFolder.status != 0)
        #expect(noFolder.stderr.contains("the folder \(dir)/missing of the backup file") && noFolder.stderr.contains("does not exist"), "\(noFolder.stderr)")
        // A PostgreSQL URL gets the pg_dump recipe instead
        let postgres = try gymlogServer(["backup", "--db", "postgres://gymlog@127.0.0.1:5432/gymlog", "\(dir)/pg.dump"])
        #expect(postgres.status != 0)
        #expect(postgres.stderr.contains("pg_dump"), "\(postgres.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/pg.dump"))
    }

    @Test func restoreRefusesAFileThatIsNotAServerBackup() throws {
        let dir = try temporaryDirectory("gymlog-backup")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dbPath = "\(dir)/server.sqlite"
        let server = try ServerInstance(database: "sqlite:\(dbPath)")
        _ = try server.addUser("alice")
        server.stop()
        let before = try dump(dbPath)
        // Given an SQLite file of some other program, and a file that is not SQLite at all
        let other = "\(dir)/other.sqlite", junk = "\(dir)/junk.sqlite"
        try DatabaseQueue(path: other).write { try $0.execute(sql: "CREATE TABLE notes (body TEXT)") }
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: junk))
        for (file, expected) in [(other, "not a gymlog server database"), (junk, junk), ("\(dir)/missing.sqlite", "no backup file")] {
            // When restoring from it, then it is refused, naming the file, and the database is untouched
            let result = try gymlogServer(["restore", "--db", "sqlite:\(dbPath)", file])
            #expect(result.status != 0, "\(file)")
            #expect(result.stderr.contains(expected), "\(file): \(result.stderr)")
            #expect(try dump(dbPath) == before)
        }
    }

    /// Found by the history model (issue 44): after a restore, other devices' pushes can move
    /// the server's head past a device's old cursor before that device syncs; with the backup's
    /// epoch kept, it saw no regression (head not behind its cursor, its own acks intact) and
    /// pulled from its old cursor, skipping the changes the new history numbered below it, and
    /// never sent again what the restore lost (a device whose acknowledged changes are gone
    /// proves the rollback, but that phone may never sync again). A restore gives the server a
    /// new epoch, so every device re-sends what it holds and pulls from the start.
    @Test func aDeviceThatSyncsLateAfterARestoreGetsWhatOthersSentFirst() async throws {
        let dir = try temporaryDirectory("gymlog-restore-late")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dbPath = "\(dir)/server.sqlite", backupPath = "\(dir)/backup.sqlite"
        var server = try ServerInstance(database: "sqlite:\(dbPath)")
        let token = try server.addUser("alice")
        let clock = FakeClock(millis: Int64(Date().timeIntervalSince1970 * 1000) - 3_600_000)
        func device(_ name: String) throws -> GymLogDatabase {
            try GymLogDatabase(path: "\(dir)/\(name).sqlite", environment: Environment(now: { clock.now() }, utcOffset: { _ in 0 }, newID: { UUID() }))
        }
        func sync(_ db: GymLogDatabase) async throws {
            _ = try await SyncEngine(replica: db, transport: HTTPSyncTransport(baseURL: URL(string: server.url)!, token: token)).run()
        }
        func log(_ db: GymLogDatabase, _ reps: Int) throws {
            clock.advance(60_000)
            _ = try db.logSets(exercise: ExerciseMention(name: "squat", span: Span(0, 5)),
                               specs: [SetSpec(load: .weight(Fixed(100), .kg), reps: reps)], typed: "squat 100x\(reps)")
        }
        func live(_ db: GymLogDatabase) throws -> Set<String> {
            Set(try db.read { try String.fetchAll($0, sql: "SELECT id FROM sets WHERE deleted_at IS NULL") })
        }
        // Given a phone and a laptop in step, and a backup taken then
        let phone = try device("phone"), laptop = try device("laptop"), tablet = try device("tablet")
        try log(phone, 1)
        try await sync(phone)
        try await sync(laptop)
        let backup = try ProcessRunner.runProduct("gymlog-server", ["backup", "--db", "sqlite:\(dbPath)", backupPath], timeout: 120)
        try #require(backup.status == 0, "\(backup.stderr)")
        // And more synced after it, which the laptop pulled (its cursor is past the backup's head)
        for reps in 2...4 { try log(phone, reps) }
        try await sync(phone)
        try await sync(laptop)
        // When the server is restored from the backup, the phone is never seen again (the one
        // device whose acknowledged changes the restore lost, so nobody proves the rollback),
        // and a tablet that never synced sends enough sets first to move the head past the
        // laptop's cursor
        server.stop()
        let restore = try ProcessRunner.runProduct("gymlog-server", ["restore", "--db", "sqlite:\(dbPath)", backupPath], timeout: 120)
        try #require(restore.status == 0, "\(restore.stderr)")
        server = try ServerInstance(database: "sqlite:\(dbPath)")
        for reps in 5...12 { try log(tablet, reps) }
        try await sync(tablet)
        try await sync(laptop)
        try await sync(tablet)
        // Then the laptop holds the tablet's sets, and the tablet the phone's (which only the
        // laptop still had to send)
        let all = try live(phone).union(live(tablet))
        #expect(all.count == 12)
        for (name, db) in [("laptop", laptop), ("tablet", tablet)] {
            let missing = all.subtracting(try live(db))
            #expect(missing.isEmpty, "\(name) lacks \(missing.count) of the 12 sets")
        }
        server.stop()
    }
}
