import Foundation
import GymLogCore
@testable import GymLogServer
@testable import GymLogServerCore
@testable import GymLogServerPostgres
@testable import GymLogServerSQLite
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

    /// Issue 49, item 13: many addresses, each under its own limit, meet the server's total.
    @Test func registrationsFromManyAddressesMeetTheServersTotal() {
        let throttle = RegistrationThrottle(perHour: 2, totalPerHour: 5)
        // Five addresses register once each: the total's burst
        for i in 0..<5 { #expect(throttle.take("10.0.0.\(i)", now: 0) == nil) }
        // The sixth address, under its own limit, meets the total (12 minutes: 3600 s / 5)
        #expect(throttle.take("10.0.0.9", now: 0) == .server(720_000))
        // And that refusal cost the address nothing: its two come once the total refills
        #expect(throttle.take("10.0.0.9", now: 720_000) == nil)
        #expect(throttle.take("10.0.0.9", now: 1_440_000) == nil)
        #expect(throttle.take("10.0.0.9", now: 2_160_000) == .address(360_000), "its third waits for its own bucket (one per 30 minutes)")
        // 0 turns either limit off
        let open = RegistrationThrottle(perHour: 0, totalPerHour: 0)
        for i in 0..<50 { #expect(open.take("10.0.1.\(i % 3)", now: 0) == nil) }
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
        let page = PullPage(records: [pulledRecord("sets", "id\"1", [
            ("a", .real(2.5), "000000000000001-00000-n"),
            ("b", .text("x\u{1}\ny"), "000000000000001-00000-n"),
            ("c", .null, clock: "000000000000001-00000-n"),
            ("d", .int(-3), "000000000000001-00000-n"),
        ])], cursor: 4, hasMore: true, lastAppliedSeq: 9, fieldCount: 4)
        let decoded = try JSONDecoder().decode(PullResponse.self, from: Data(page.json(epoch: "ep", version: .v1).utf8))
        #expect(decoded.epoch == "ep" && decoded.cursor == "ep:4" && decoded.hasMore && decoded.lastAppliedSeq == 9 && !decoded.epochChanged)
        #expect(decoded.changes[0].entityID == "id\"1")
        #expect(decoded.changes[0].fields["a"]?.v == .real(2.5))
        #expect(decoded.changes[0].fields["b"]?.v == .text("x\u{1}\ny"))
        #expect(decoded.changes[0].fields["c"]?.v == .null)
        #expect(decoded.changes[0].fields["d"]?.v == .int(-3))
    }

    @Test func compactPullSaysTheSameAsV1InFewerBytes() throws {
        let a = "0f6c1e8e-3b3a-4f0e-9d55-6a3f0c1d2e3f", b = "b-device"
        let page = PullPage(records: [
            pulledRecord("sets", "s1", [
                ("reps", .int(5), "001763719000000-00000-\(a)"),
                ("weight", .real(100), "001763719000000-00000-\(a)"),
            ]),
            // A row re-sent whole after a rebase keeps each field's clock: two changes, interleaved clocks.
            pulledRecord("sets", "s2", [
                ("a", .text("x\"y"), "001763719000000-00001-\(b)"),
                ("b", .null, clock: "001763719000005-00000-\(a)"),
                ("c", .int(-3), "001763719000000-00001-\(b)"),
            ]),
        ], cursor: 7, hasMore: true, lastAppliedSeq: 3, fieldCount: 5)
        let v1Text = page.json(epoch: "ep", version: .v1), v2Text = page.json(epoch: "ep", version: .v2)
        let v1 = try JSONDecoder().decode(PullResponse.self, from: Data(v1Text.utf8))
        let v2 = try JSONDecoder().decode(CompactPullResponse.self, from: Data(v2Text.utf8))
        #expect(v2.devices == [a, b])
        #expect(v2.changes.map(\.clock) == ["001763719000000-00000", "001763719000000-00001", "001763719000005-00000"])
        #expect(v2.changes.map(\.device) == [0, 1, 0])
        #expect(v2.changes[1].fields == ["a": .text("x\"y"), "c": .int(-3)])
        #expect(v2.expanded() == v1)
        #expect(v2Text.utf8.count < v1Text.utf8.count)
        // The epoch_changed page of each version.
        let empty = PullPage(records: [], cursor: 0, hasMore: false, lastAppliedSeq: 2, fieldCount: 0)
        let restart = try JSONDecoder().decode(CompactPullResponse.self, from: Data(empty.json(epoch: "e2", epochChanged: true, version: .v2).utf8))
        #expect(restart.epochChanged && restart.changes.isEmpty && restart.devices.isEmpty && restart.cursor == "e2:0")
        #expect(try JSONDecoder().decode(PullResponse.self, from: Data(empty.json(epoch: "e2", epochChanged: true, version: .v1).utf8)).epochChanged)
    }

    @Test func aCompactChangeNamingAnUnlistedDeviceOrABadClockIsUnreadableAlone() throws {
        let good = CompactPullChange(entity: "sets", entityID: "t", clock: "001763719000000-00000", device: 0, fields: ["reps": .int(5)])
        let page = CompactPullResponse(epoch: "e", changes: [CompactPullChange(entity: "sets", entityID: "s", clock: "001763719000000-00000", device: 1, fields: [:]), good],
                                       devices: ["d"], cursor: "e:1", hasMore: false, lastAppliedSeq: 0)
        #expect(page.expanded().unreadable.map(\.entityID) == ["s"] && page.expanded().changes.map(\.entityID) == ["t"])
        var badClock = page
        badClock.changes[0].device = 0
        badClock.changes[0].clock = "1763719000000-0"
        #expect(badClock.expanded().unreadable.first?.reason.contains("not <15-digit ms>") == true)
        badClock.changes[0].clock = "001763719000000-00000"
        #expect(badClock.expanded().changes[0].fields.isEmpty && badClock.expanded().unreadable.isEmpty)
    }

    @Test func aRecordsTextKeepsEveryValueTypeAndClockAndGroupsItsChanges() throws {
        let c1 = HLC(millis: 1, counter: 0, node: "a").description, c2 = HLC(millis: 2, counter: 1, node: "b").description
        let fields = [
            StoredField(name: "a", value: .real(2), clock: c1, changeSeq: 3), StoredField(name: "b", value: .int(-7), clock: c2, changeSeq: 5),
            StoredField(name: "c", value: .text("q\"\\\n é 💪\u{7f}"), clock: c1, changeSeq: 3), StoredField(name: "d", value: .null, clock: c2, changeSeq: 5),
            StoredField(name: "e", value: .real(1e20), clock: c1, changeSeq: 3), StoredField(name: "f", value: .int(Int64.min), clock: c1, changeSeq: 4),
        ]
        let text = RecordText.encode(fields)
        // One change per clock and counter value, in the order of their first field; values bare
        #expect(text.hasPrefix("[{\"c\":\"\(c1)\",\"s\":3,\"f\":{\"a\":2.0,\"c\":\"q\\\"\\\\\\n"), "\(text)")
        #expect(try RecordText.counts(text) == (changes: 3, fields: 6))
        #expect(try RecordText.decode(text) == fields)
        // What no store writes is refused, naming where
        for bad in ["", "{}", "[{\"c\":\"x\",\"s\":1}]", "[{\"c\":\"x\",\"s\":1,\"f\":{\"a\":1}}", "[{\"c\":\"x\",\"s\":1,\"f\":{\"a\":\"\u{1}\"}}]",
                    "[{\"c\":\"x\",\"s\":1,\"f\":{\"a\":99999999999999999999}}]", "[{\"c\":\"x\",\"s\":1,\"f\":{\"a\":1}}] "] {
            #expect(throws: RecordText.Unreadable.self, "\(bad)") { _ = try RecordText.decode(bad) }
        }
    }

    @Test func aChangeCountedPageStopsAtWholeRecords() throws {
        // Record a: fields written by seq 1 and seq 2 (two changes, two clocks); b by seq 3; c by seq 4.
        func field(_ name: String, _ seq: Int64) -> StoredField {
            StoredField(name: name, value: .int(seq), clock: "00000000000000\(seq)-00000-d", changeSeq: seq)
        }
        let a = RecordRow(entity: "sets", entityID: "a", changeSeq: 2, fields: [field("f0", 1), field("f1", 2), field("f2", 1)])
        let b = RecordRow(entity: "sets", entityID: "b", changeSeq: 3, fields: [field("f0", 3)])
        let c = RecordRow(entity: "sets", entityID: "c", changeSeq: 4, fields: [field("f0", 4), field("f1", 4)])
        let snapshot = ChangeSnapshot(head: 4, lastAppliedSeq: 0, records: [a, b, c].map(\.pulled))
        // Limit 2 changes: record a is two and fills the page.
        let two = try SyncRules.page(snapshot, after: 0, limit: .changes(2), maxBytes: 1 << 20)
        #expect(two.rows.map(\.entityID) == ["a"] && two.cursor == 2 && two.hasMore && two.fieldCount == 3)
        // Limit 2 field rows: a's three do not fit but fill an empty page whole.
        #expect(try SyncRules.page(snapshot, after: 0, limit: .fieldRows(2), maxBytes: 1 << 20).cursor == 2)
        #expect(try SyncRules.page(snapshot, after: 0, limit: .changes(3), maxBytes: 1 << 20).cursor == 3)
        let all = try SyncRules.page(snapshot, after: 0, limit: .changes(10), maxBytes: 1 << 20)
        #expect(all.cursor == 4 && !all.hasMore && all.fieldCount == 6)
        // After cursor 1, record a is still sent whole: its fields of seq 1 were on no page
        // while it sat at seq 2.
        let later = try SyncRules.page(snapshot, after: 1, limit: .changes(10), maxBytes: 1 << 20)
        #expect(later.rows.first?.fields.map(\.name) == ["f0", "f1", "f2"] && later.fieldCount == 6 && later.cursor == 4)
    }

    @Test func aPushWritesOnlyWhileItsTokenAndKeyStillHold() throws {
        let user = AuthenticatedUser(id: 1, name: "ana", tokenHash: "t1", keyVerifier: "k1")
        let now = AccountSnapshot(tokenHash: "t1", revoked: false, keyVerifier: "k1")
        try SyncRules.checkAuthentication(user, against: now)
        var rotated = now, revoked = now, keyChanged = now, keyRemoved = now
        rotated.tokenHash = "t2"; revoked.revoked = true; keyChanged.keyVerifier = "k2"; keyRemoved.keyVerifier = nil
        for (account, refusal) in [(nil, StorageError.tokenWithdrawn), (rotated, .tokenWithdrawn), (revoked, .tokenWithdrawn),
                                   (keyChanged, .keyChanged), (keyRemoved, .keyChanged)] as [(AccountSnapshot?, StorageError)] {
            #expect(throws: refusal, "\(String(describing: account))") { try SyncRules.checkAuthentication(user, against: account) }
        }
        // A plaintext account's push, checked against no key, is refused once a key was set.
        var plain = user
        plain.keyVerifier = nil
        #expect(throws: StorageError.keyChanged) { try SyncRules.checkAuthentication(plain, against: now) }
        try SyncRules.checkAuthentication(plain, against: keyRemoved)
    }

    @Test func reopeningKeepsTheEpoch() async throws {
        let path = temporaryFile("gymlog-epoch", extension: "sqlite")
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        let first = try await SQLiteSyncStorage(path: path).epoch()
        let second = try await SQLiteSyncStorage(path: path).epoch()
        #expect(first == second && first.count == 32)
        let other = temporaryFile("gymlog-epoch", extension: "sqlite")
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: other + s) } }
        #expect(try await SQLiteSyncStorage(path: other).epoch() != first)
    }
}

@Suite struct ServerDurabilityTests {
    @Test func theServerStoreCommitsWithSynchronousFull() throws {
        let path = temporaryFile("gymlog-sync", extension: "sqlite")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let storage = try SQLiteSyncStorage(path: path)
        #expect(try storage.writerSynchronousMode() == 2)
    }

    /// Regression (issue 16, item 10): the database, its WAL and its shared-memory file were
    /// created 0644, so every local user could read the token hashes and everyone's data.
    @Test func aFreshServerStoreIsReadableByItsOwnerOnly() async throws {
        let directory = try temporaryDirectory("gymlog-mode")
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

/// A record as a store hands it to a pull page, every field written under counter value 1.
private func pulledRecord(_ entity: String, _ id: String, _ fields: [(name: String, value: FieldValue, clock: String)]) -> PulledRecord {
    RecordRow(entity: entity, entityID: id, changeSeq: 1, fields: fields.map { StoredField(name: $0.name, value: $0.value, clock: $0.clock, changeSeq: 1) }
        .sorted(by: StoredField.nameOrder)).pulled
}
