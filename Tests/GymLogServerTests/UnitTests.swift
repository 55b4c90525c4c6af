import Foundation
import GymLogCore
@testable import GymLogServer
import GymLogWire
import GymLogTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Pure pieces: cursors, URLs, tokens, durations")
struct UnitTests {
    @Test func cursorParsing() {
        #expect(SyncCursor("0") == .start)
        #expect(SyncCursor("ab12:7") == SyncCursor(epoch: "ab12", position: 7))
        #expect(SyncCursor("ab12:7")?.description == "ab12:7")
        #expect(SyncCursor.start.description == "0")
        for bad in ["", "7", "ab:", ":7", "ab:-1", "ab:+1", "a b:1", "ab:1.0"] { #expect(SyncCursor(bad) == nil, "\(bad)") }
    }

    @Test func storageLocations() throws {
        let env = ["HOME": "/home/u", "XDG_DATA_HOME": "/data"]
        #expect(try StorageLocation.parse(nil, environment: env) == .sqlite(path: "/data/gymlog-server/server.sqlite"))
        #expect(try StorageLocation.parse(nil, environment: ["HOME": "/home/u"]) == .sqlite(path: "/home/u/.local/share/gymlog-server/server.sqlite"))
        #expect(try StorageLocation.parse("sqlite:/tmp/x.sqlite", environment: env) == .sqlite(path: "/tmp/x.sqlite"))
        #expect(try StorageLocation.parse("sqlite:///tmp/x.sqlite", environment: env) == .sqlite(path: "/tmp/x.sqlite"))
        #expect(try StorageLocation.parse("rel/x.sqlite", environment: env) == .sqlite(path: "rel/x.sqlite"))
        #expect(try StorageLocation.parse("~/x.sqlite", environment: env) == .sqlite(path: "/home/u/x.sqlite"))
        #expect(try StorageLocation.parse("postgres://u@h/db", environment: env) == .postgres(url: "postgres://u@h/db"))
        // postgres:// opens the PostgreSQL store; its URL is checked part by part (PostgresURLTests).
        #expect(throws: ServerSetupError.self) { try openSyncStorage("postgresql://h/db", environment: env) }
        do {
            _ = try StorageLocation.parse("mysql://h/db", environment: env)
            Issue.record("mysql must be refused")
        } catch let error as ServerSetupError {
            #expect(error.message.contains("\"mysql:\"") && error.message.contains("sqlite:PATH") && error.message.contains("postgres://"))
        }
    }

    @Test func tokens() {
        let a = Tokens.generate(), b = Tokens.generate()
        #expect(a != b && a.hasPrefix("glt_") && a.count == 47)
        #expect(!a.contains("+") && !a.contains("/") && !a.contains("="))
        #expect(Tokens.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func registrationBucketsAllowABurstThenOneAtTheRefillRate() {
        var buckets = RegistrationBuckets(perHour: 6, maxAddresses: 2)
        // A burst of six, then the seventh waits ten minutes (3600 s / 6).
        for _ in 0..<6 { #expect(buckets.take("a", now: 0) == nil) }
        #expect(buckets.take("a", now: 0) == 600_000)
        #expect(buckets.take("a", now: 599_999) != nil)
        #expect(buckets.take("a", now: 600_000) == nil)
        // Another address has its own bucket.
        #expect(buckets.take("b", now: 600_000) == nil)
        // Past maxAddresses, a full bucket is forgotten to make room; with none full, wait.
        #expect(buckets.take("c", now: 600_000) != nil)
        #expect(buckets.take("c", now: 600_000 + 3_600_000) == nil)
    }

    @Test func userNamesStartWithALetterOrDigit() {
        for good in ["alice", "A", "0", "9lives", "a.b-c_d", String(repeating: "x", count: 64)] {
            #expect(PushValidation.userNameProblem(good) == nil, "\(good)")
        }
        for bad in [".", "..", "-h", "--help", "_", ".a", "-", "", "a b", String(repeating: "x", count: 65), "é"] {
            #expect(PushValidation.userNameProblem(bad)?.contains("\"\(bad.prefix(80))\"") == true, "\(bad)")
        }
    }

    @Test func durations() {
        #expect(describeDuration(ms: 0) == "0 seconds")
        #expect(describeDuration(ms: 61_000) == "1 minute 1 second")
        #expect(describeDuration(ms: 2 * 3_600_000 + 5 * 60_000 + 7_000) == "2 hours 5 minutes")
        #expect(describeDuration(ms: 3 * 86_400_000 + 5_000) == "3 days")
    }

    @Test func pullEncodingIsValidJSONMatchingTheWireTypes() throws {
        let page = PullPage(rows: [PulledRow(entity: "sets", entityID: "id\"1", fields: [
            PulledField(name: "a", value: .real(2.5), clock: "000000000000001-00000-n"),
            PulledField(name: "b", value: .text("x\u{1}\ny"), clock: "000000000000001-00000-n"),
            PulledField(name: "c", value: .null, clock: "000000000000001-00000-n"),
            PulledField(name: "d", value: .int(-3), clock: "000000000000001-00000-n"),
        ])], cursor: 4, hasMore: true, lastAppliedSeq: 9, fieldCount: 4)
        let decoded = try JSONDecoder().decode(PullResponse.self, from: Data(encodePullResponse(page, epoch: "ep").utf8))
        #expect(decoded.epoch == "ep" && decoded.cursor == "ep:4" && decoded.hasMore && decoded.lastAppliedSeq == 9 && !decoded.epochChanged)
        #expect(decoded.changes[0].entityID == "id\"1")
        #expect(decoded.changes[0].fields["a"]?.v == .real(2.5))
        #expect(decoded.changes[0].fields["b"]?.v == .text("x\u{1}\ny"))
        #expect(decoded.changes[0].fields["c"]?.v == .null)
        #expect(decoded.changes[0].fields["d"]?.v == .int(-3))
    }

    @Test func reopeningKeepsTheEpoch() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gymlog-epoch-\(UUID().uuidString).sqlite").path
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        let first = try await SQLiteSyncStorage(path: path).epoch()
        let second = try await SQLiteSyncStorage(path: path).epoch()
        #expect(first == second && first.count == 32)
        let other = FileManager.default.temporaryDirectory.appendingPathComponent("gymlog-epoch-\(UUID().uuidString).sqlite").path
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: other + s) } }
        #expect(try await SQLiteSyncStorage(path: other).epoch() != first)
    }
}

@Suite struct ServerDurabilityTests {
    @Test func theServerStoreCommitsWithSynchronousFull() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gymlog-sync-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let storage = try SQLiteSyncStorage(path: path)
        #expect(try storage.writerSynchronousMode() == 2)
    }

    /// Regression (issue 16, item 10): the database, its WAL and its shared-memory file were
    /// created 0644, so every local user could read the token hashes and everyone's data.
    @Test func aFreshServerStoreIsReadableByItsOwnerOnly() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gymlog-mode-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/server.sqlite"
        // Given the usual umask (022: SQLite alone made 0644 files; the process-wide umask is
        // left alone, other suites run in parallel), when a fresh store is created and written
        // to (so the WAL exists)
        let storage = try SQLiteSyncStorage(path: path)
        _ = try await storage.createUser(name: "alice", tokenHash: "secret-hash", now: testNow)
        // Then the database, the WAL and the shared-memory file are all 0600
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            #expect(stat(file, &info) == 0, "\(file) does not exist")
            #expect(info.st_mode & 0o777 == 0o600, "\(file) has mode \(String(info.st_mode & 0o777, radix: 8))")
        }
        // And an existing file keeps the mode its operator gave it.
        let kept = directory + "/kept.sqlite"
        #expect(FileManager.default.createFile(atPath: kept, contents: nil, attributes: [.posixPermissions: 0o640]))
        _ = try SQLiteSyncStorage(path: kept)
        var info = stat()
        #expect(stat(kept, &info) == 0 && info.st_mode & 0o777 == 0o640)
    }
}
