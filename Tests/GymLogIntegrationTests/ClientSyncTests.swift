import Foundation
import GymLogCore
import GymLogStore
import GymLogWire
import GymLogSyncClient
import GymLogTestSupport
import Testing

/// The real `gymlog` client against the real `gymlog-server` on a loopback port.
@Suite(.serialized) struct ClientSyncTests {
    @Test func twoDevicesConvergeThroughCreateEditDeleteAndUndo() throws {
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let a = try ClientDevice(server: server, token: token), b = try ClientDevice(server: server, token: token)

        // Given sets logged on A and synced to B
        try a.run(["log", "bench 100x5x3"])
        try a.sync(); try b.sync()
        #expect(try b.liveSets() == a.liveSets())
        #expect(try b.liveSets().count == 3)

        // When A fixes a weight and B adds a note to the same set (different fields)
        try a.run(["repl"], stdin: "edit 1 102.5\n")
        try b.run(["repl"], stdin: "edit 1 # paused\n")
        // and B deletes the last set while A edits it (an older-or-concurrent write)
        try b.run(["delete", "3"])
        try a.run(["repl"], stdin: "edit 3 x4\n")
        try b.sync(); try a.sync(); try b.sync(); try a.sync()

        // Then both edits survive, the deleted set stays deleted, and both hold the same rows
        let sets = try a.allSets()
        #expect(sets == (try b.allSets()))
        #expect(sets.filter { $0.deleted }.count == 1)
        let first = try #require(sets.first)
        #expect(first.weight == "102.5" && first.note == "paused")

        // When B undoes its delete (an explicit, newer restore), it comes back everywhere
        try b.run(["repl"], stdin: "undo\n")
        try b.sync(); try a.sync()
        #expect(try a.allSets().filter { $0.deleted }.isEmpty)
        #expect(try a.allSets() == (try b.allSets()))
        #expect(try a.outboxDepth() == 0 && (try b.outboxDepth()) == 0)
    }

    /// Issue 48: offline, the same set was edited on both machines; the later edit won, and
    /// the other machine's value vanished without a word. Now the machine whose edit lost is
    /// told once (the set, both values, which device); the one whose edit won is told nothing.
    @Test func aLocalEditALaterOneFromAnotherDeviceReplacesIsSaidOnce() throws {
        let server = try ServerInstance()
        let token = try server.addUser("dana")
        let a = try ClientDevice(server: server, token: token, autoSync: false), b = try ClientDevice(server: server, token: token, autoSync: false)
        // Given a set on both machines
        try a.run(["log", "bench 265lb x 8"])
        try a.sync(); try b.sync()
        // When each edits it offline, B after A
        try a.run(["repl"], stdin: "edit 1 275lb\n")
        usleep(20_000)
        try b.run(["repl"], stdin: "edit 1 280lb\n")
        let bSync = try b.run(["sync"]).stdout
        let aSync = try a.run(["sync"]).stdout
        // Then A keeps the later value, and its sync says what its own edit was and who replaced it
        #expect(try a.liveSets().map(\.weight) == ["280"])
        let status = try JSONSerialization.jsonObject(with: Data(b.run(["status", "--json"]).stdout.utf8)) as? [String: Any]
        let bDevice = try #require(status?["device_id"] as? String).prefix(8)
        #expect(aSync.lowercased().contains("bench") && aSync.contains("your edit 275lb x 8 was replaced by 280lb x 8")
                && aSync.contains("device \(bDevice)"), "\(aSync)")
        // And B, whose edit won, is told nothing
        try b.sync()
        let bStatus = try b.run(["status"]).stdout
        #expect(!bSync.contains("replaced") && !bStatus.contains("Replaced"), "\(bSync)\n\(bStatus)")
        // And it is said once: `status` after the sync that said it has nothing to add
        let aStatus = try a.run(["status"]).stdout
        #expect(!aStatus.contains("Replaced"), "\(aStatus)")
        // And an edit from the other device of a set this one only logged is no replaced edit
        try b.run(["repl"], stdin: "edit 1 x6\n")
        try b.sync()
        let again = try a.run(["sync"]).stdout
        #expect(!again.contains("replaced"), "\(again)")
    }

    /// A new device just logged in has no database until its first sync: a read command
    /// says to sync (the history waits on the server), not to start by logging a set.
    @Test func aLoggedInDeviceWithNoDatabaseYetIsToldToSync() throws {
        let server = try ServerInstance()
        let token = try server.addUser("erin")
        let a = try ClientDevice(server: server, token: token, autoSync: false)
        try a.run(["log", "bench 100x5"]); try a.sync()
        let b = try ClientDevice(server: server, token: token, autoSync: false)
        let show = try b.run(["show"], expect: 1)
        #expect(show.stderr.contains("logged in to \(server.url): `gymlog sync` makes it"), "\(show.stderr)")
        try b.sync()
        #expect(try b.run(["show"]).stdout.contains("100kg x 5"))
    }

    @Test func aSetDeletedOnOneDeviceIsNeverBroughtBackByTheOthersUndoOrRedo() throws {
        let server = try ServerInstance()
        let token = try server.addUser("dave")
        let a = try ClientDevice(server: server, token: token), b = try ClientDevice(server: server, token: token)
        // Given sets logged on A and synced to B, where B edits set 2 and also logs a set
        try a.run(["log", "Bench 100x5x3"])
        try a.sync(); try b.sync()
        try b.run(["edit", "2", "x6"])
        try b.run(["log", "Bench 90x8"])
        // When A deletes set 2 and B pulls that delete
        try a.run(["delete", "2"])
        try a.sync(); try b.sync()
        #expect(try b.liveSets().count == 3)
        // Then B's undo of its own line works, but the undo of its edit refuses and says why
        try b.run(["undo"])
        let refused = try b.run(["undo"], expect: 1)
        #expect(refused.stderr.contains("was deleted on another device since") && refused.stderr.contains("Nothing was undone"), "\(refused.stderr)")
        // And no redo or undo that follows brings set 2 back
        try b.run(["redo"])
        try b.run(["undo"])
        try b.run(["redo", "--yes"])
        try b.run(["redo"], expect: 1)
        try b.sync(); try a.sync()
        #expect(try b.liveSets().count == 3 && (try a.liveSets().count) == 3)
        #expect(try a.allSets() == (try b.allSets()))
        #expect(try a.allSets().filter { $0.deleted }.count == 1)
    }

    @Test func aThirdDeviceGetsTheWholeHistoryAndNoSyncDuplicatesAnything() throws {
        let server = try ServerInstance()
        let token = try server.addUser("carol")
        let a = try ClientDevice(server: server, token: token), b = try ClientDevice(server: server, token: token)
        try a.run(["log", "squat 140x5x3"]); try b.run(["log", "squat 150x3"])
        try a.sync(); try b.sync(); try a.sync()
        let c = try ClientDevice(server: server, token: token)
        try c.sync(); try c.sync()
        #expect(try c.allSets().count == 4)
        #expect(try c.allSets() == (try a.allSets()))
        #expect(try c.allSets() == (try b.allSets()))
        #expect(try c.exerciseCount() == 1, "the same exercise created on two devices is one exercise")
    }

    @Test func aRoutineAndABodyweightWrittenOnOneDeviceReachAnotherAndTheDeleteFollows() throws {
        let server = try ServerInstance()
        let token = try server.addUser("dana")
        let a = try ClientDevice(server: server, token: token), b = try ClientDevice(server: server, token: token)
        // Given a routine written on A (from stdin) and a bench session there
        try a.run(["routine", "add", "--file", "-"], stdin: "# Push A\nbench 3x5 linear +2.5\n# a comment kept\ndip bw 3x8-12\n")
        try a.run(["log", "bench 100x5x3"])
        try a.run(["bw", "82.5"])
        try a.run(["log", "curl 20x10 & pushdown 30x12"])
        try a.sync(); try b.sync()
        // And the superset, one group on both devices
        let shown = try JSONSerialization.jsonObject(with: Data(try b.run(["show", "--json"]).stdout.utf8)) as? [String: Any]
        let groups = (((shown?["workout"] as? [String: Any])?["sets"] as? [[String: Any]]) ?? []).compactMap { $0["superset_id"] as? String }
        #expect(groups.count == 2 && Set(groups).count == 1, "\(groups)")
        // Then B has the bodyweight, and the same routine text, and plans today from the synced history
        let exported = try b.run(["routine", "export", "push"]).stdout
        #expect(exported == "# Push A\nbench 3x5 linear +2.5\n# a comment kept\ndip bw 3x8-12\n", "\(exported)")
        #expect(try b.run(["bw"]).stdout.hasSuffix("  82.5kg\n"))
        let plan = try b.run(["routine", "show", "Push A"]).stdout
        #expect(plan.contains("102.5kg x 5 x3"), "\(plan)")
        // When B deletes it, A loses it too after syncing
        try b.run(["routine", "rm", "push"])
        try b.sync(); try a.sync()
        #expect(try a.run(["routine", "list"]).stdout.contains("No routines yet"))
        #expect(try a.outboxDepth() == 0 && (try b.outboxDepth()) == 0)
    }

    @Test func aSetsRIRReachesTheOtherDeviceAsTypedAndAnRPEEditReplacesItThere() throws {
        let server = try ServerInstance()
        let token = try server.addUser("rhea")
        let a = try ClientDevice(server: server, token: token), b = try ClientDevice(server: server, token: token)
        /// The RPE and RIR of each set of `device`'s open workout, as `show --json` gives them.
        func efforts(_ device: ClientDevice) throws -> [String] {
            let shown = try JSONSerialization.jsonObject(with: Data(try device.run(["show", "--json"]).stdout.utf8)) as? [String: Any]
            let sets = ((shown?["workout"] as? [String: Any])?["sets"] as? [[String: Any]]) ?? []
            return sets.map { "rpe \($0["rpe"].map { "\($0)" } ?? "-") rir \($0["rir"].map { "\($0)" } ?? "-")" }
        }
        // Given squats logged on A with an RIR, one of them a half step
        try a.run(["log", "squat 140x3x2 rir2"])
        try a.run(["log", "+ rir1.5"])
        // When A syncs and B pulls
        try a.sync(); try b.sync()
        // Then B holds and shows each RIR as typed
        let pulled = try efforts(b)
        #expect(pulled == ["rpe <null> rir 2", "rpe <null> rir 2", "rpe <null> rir 1.5"], "\(pulled)")
        let shown = try b.run(["show"]).stdout
        #expect(shown.contains("140kg x 3 rir2") && shown.contains("140kg x 3 rir1.5"), "\(shown)")
        // When B gives the first set an RPE instead, and the devices sync again
        try b.run(["edit", "1", "@8"])
        try b.sync(); try a.sync()
        // Then A has the RPE in its place, and both agree on every set
        let edited = try efforts(a)
        #expect(edited == ["rpe 8 rir <null>", "rpe <null> rir 2", "rpe <null> rir 1.5"], "\(edited)")
        #expect(try efforts(b) == edited)
        #expect(try a.outboxDepth() == 0 && (try b.outboxDepth()) == 0)
    }

    @Test func twoSyncProcessesAtOnceNeverSayDatabaseIsLocked() throws {
        let server = try ServerInstance()
        let token = try server.addUser("dave")
        // Two manual syncs race here, not the background ones the logs would start.
        let a = try ClientDevice(server: server, token: token, autoSync: false)
        for i in 0..<20 { try a.run(["log", "row \(50 + i)x10x5"]) }
        let runs = try a.runConcurrently(["sync"], count: 2)
        for r in runs {
            #expect(!r.stderr.contains("locked"), "\(r.stderr)")
            #expect(r.status == 0 || r.stderr.contains("already running"))
        }
        #expect(runs.contains { $0.status == 0 })
        try a.sync()
        #expect(try a.outboxDepth() == 0)
        let b = try ClientDevice(server: server, token: token)
        try b.sync()
        #expect(try b.allSets().count == 100)
    }

    @Test func anotherUsersTokenSeesAndChangesNothing() throws {
        let server = try ServerInstance()
        let alice = try ClientDevice(server: server, token: try server.addUser("alice2"))
        let mallory = try ClientDevice(server: server, token: try server.addUser("mallory"))
        try alice.run(["log", "deadlift 200x5"])
        try alice.sync()
        try mallory.sync()
        #expect(try mallory.allSets().isEmpty)
        // Mallory writes rows with the same exercise id (derived from the name): Alice's stay hers.
        try mallory.run(["log", "deadlift 20x5"])
        try mallory.sync(); try alice.sync()
        #expect(try alice.allSets().map(\.weight) == ["200"])
    }

    @Test func offlineSyncFailsWithOneLineAndKeepsTheOutbox() throws {
        let server = try ServerInstance()
        // The set must still be waiting when the server stops.
        let a = try ClientDevice(server: server, token: try server.addUser("erin"), autoSync: false)
        try a.run(["log", "bench 100x5"])
        server.stop()
        let run = try a.run(["sync"], expect: 1)
        #expect(run.stderr.contains("cannot reach the sync server"))
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(try a.outboxDepth() == 3)
    }

    @Test func aPushSendsEachOutboxPayloadAsStoredAndTheServerReadsTheSameFields() async throws {
        let server = try ServerInstance()
        let token = try server.addUser("grace")
        // A's outbox is read below before it syncs.
        let a = try ClientDevice(server: server, token: token, autoSync: false), b = try ClientDevice(server: server, token: token)
        try a.run(["log", "bench 102.5x5x2"])
        try a.run(["repl"], stdin: "edit 1 # said \"go\" \\ é 😀 then / rest\n")
        let db = try GymLogDatabase(path: a.database)
        let stored = try db.pendingEvents(after: 0, limit: 100)
        let request = PushRequest(deviceID: db.deviceID, events: try db.pending(after: 0, limit: 100), epoch: "e1")
        let body = String(decoding: request.jsonBody(), as: UTF8.self)
        // The body carries every payload byte for byte, and reads back as the fields the payload holds.
        for event in stored { #expect(body.contains("\"fields\":" + event.fields.json + "}")) }
        let read = try JSONDecoder().decode(PushRequest.self, from: Data(body.utf8))
        #expect(read.deviceID == db.deviceID && read.epoch == "e1" && read.events.map(\.seq) == stored.map(\.seq))
        for (sent, event) in zip(read.events, stored) {
            #expect(try sent.fields.decoded() == Dictionary(uniqueKeysWithValues: try event.fields.changes.map { ($0.name, WireField(v: $0.value, c: $0.clock)) }))
        }
        #expect(read == (try JSONDecoder().decode(PushRequest.self, from: JSONEncoder().encode(request))))
        // And the server keeps exactly those values.
        try a.sync(); try b.sync()
        #expect(try b.allSets() == a.allSets())
        #expect(try b.allSets().first?.note == "said \"go\" \\ é 😀 then / rest")
    }

    @Test func aCycleWithNothingNewOnTheServerPushesWithoutPullingItsOwnWritesBack() async throws {
        let server = try ServerInstance()
        let token = try server.addUser("hana")
        let a = try ClientDevice(server: server, token: token, autoSync: false), b = try ClientDevice(server: server, token: token, autoSync: false)
        try a.run(["log", "squat 100x5"])
        try a.sync(); try b.sync()
        let db = try GymLogDatabase(path: a.database)
        let seal = ValueSeal(key: try AccountKey(phrase: try #require(try a.home.accountKeyPhrase())), account: "hana")
        var transport = HTTPSyncTransport(baseURL: URL(string: server.url)!, token: token)
        transport.keyVerifier = seal.key.verifier
        var engine = SyncEngine(replica: db, transport: transport)
        engine.seal = seal
        // Given A pulled everything, when it logs a set and syncs with nothing new on the server
        try a.run(["log", "squat 105x5"])
        let alone = try await engine.run()
        // Then one round trip: the push's answer shows its writes started at A's cursor
        #expect(alone.roundTrips == 1 && alone.pushed >= 1 && alone.pulledChanges == 0, "\(alone)")
        #expect(try a.outboxDepth() == 0)
        // And A's cursor is the head, where B's full pull ends
        try b.sync()
        #expect(try db.syncPosition().cursor == GymLogDatabase(path: b.database).syncPosition().cursor)
        #expect(try db.syncPosition().cursor > 0)
        // When B logged meanwhile, A's next push is followed by the pull that brings B's set
        try b.run(["log", "bench 80x8"])
        try b.sync()
        try a.run(["log", "squat 110x3"])
        let shared = try await engine.run()
        #expect(shared.roundTrips == 2 && shared.pulledChanges >= 1, "\(shared)")
        try b.sync()
        #expect(try a.allSets() == b.allSets() && a.allSets().count == 4)
    }

    @Test func aDeviceThatPulledEverythingGetsOnlyTheEditedFieldsOfARecord() async throws {
        let server = try ServerInstance()
        let token = try server.addUser("ines")
        let a = try ClientDevice(server: server, token: token, autoSync: false), b = try ClientDevice(server: server, token: token, autoSync: false)
        try a.run(["log", "squat 100x5 @8 # easy"])
        try a.sync(); try b.sync()
        // When A edits the set's reps only
        try a.run(["repl"], stdin: "edit 1 x6\n")
        try a.sync()
        // Then B's pull carries that change alone, not the set's other fields
        let db = try GymLogDatabase(path: b.database)
        let seal = ValueSeal(key: try AccountKey(phrase: try #require(try b.home.accountKeyPhrase())), account: "ines")
        var real = HTTPSyncTransport(baseURL: URL(string: server.url)!, token: token)
        real.keyVerifier = seal.key.verifier
        let recording = RecordingPulls(inner: real)
        var engine = SyncEngine(replica: db, transport: recording)
        engine.seal = seal
        let report = try await engine.run()
        let pulled = recording.changes.get
        #expect(pulled.count == 1 && pulled.first?.entity == "sets", "\(pulled)")
        #expect(pulled.first.map { Set($0.fields.keys) }?.isSubset(of: ["reps", "kind", "updated_at"]) == true, "\(pulled)")
        #expect(report.pulledChanges == 1 && report.mergedFields >= 1, "\(report)")
        #expect(try b.allSets() == a.allSets() && b.allSets().first?.reps == 6)
    }

    @Test func aPushWhoseAnswerIsLostIsAppliedOnce() async throws {
        let server = try ServerInstance()
        let token = try server.addUser("frank")
        // The push below is the first: nothing may send the set before it.
        let a = try ClientDevice(server: server, token: token, autoSync: false)
        try a.run(["log", "press 60x5x2"])
        let db = try GymLogDatabase(path: a.database)
        // (sealing with the account's key, as the device does)
        let seal = ValueSeal(key: try AccountKey(phrase: try #require(try a.home.accountKeyPhrase())), account: "frank")
        var real = HTTPSyncTransport(baseURL: URL(string: server.url)!, token: token)
        real.keyVerifier = seal.key.verifier
        func engine(_ transport: any SyncTransport) -> SyncEngine {
            var engine = SyncEngine(replica: db, transport: transport)
            engine.seal = seal
            return engine
        }
        // When the server commits the push but the answer never arrives
        let lossy = FaultyTransport(inner: real, fault: .answerLost)
        await #expect(throws: (any Error).self) { try await engine(lossy).run() }
        #expect(try a.outboxDepth() == 4, "nothing acknowledged yet")
        // Then the next cycle sends them again, the server answers that it has them, and the
        // device deletes them: nothing applied twice
        let report = try await engine(real).run()
        #expect(report.pushed == 0 && report.duplicates == 4)
        #expect(try a.outboxDepth() == 0)
        let b = try ClientDevice(server: server, token: token)
        try b.sync()
        #expect(try b.allSets().count == 2)
    }
}

/// A transport that keeps every pulled change (with `since`, as the engine asks).
final class RecordingPulls: SyncTransport, @unchecked Sendable {
    // @unchecked: `changes` is a lock-protected box; `inner` is a value never mutated.
    let inner: HTTPSyncTransport
    let changes = Sim.Box<[PullChange]>([])
    init(inner: HTTPSyncTransport) { self.inner = inner }
    func push(_ request: PushRequest) async throws -> PushResponse { try await inner.push(request) }
    func pull(cursor: SyncCursor, limit: Int?, deviceID: String, ackedSeq: Int64?) async throws -> PullResponse {
        try await pull(cursor: cursor, limit: limit, deviceID: deviceID, ackedSeq: ackedSeq, since: nil)
    }
    func pull(cursor: SyncCursor, limit: Int?, deviceID: String, ackedSeq: Int64?, since: Int64?) async throws -> PullResponse {
        let page = try await inner.pull(cursor: cursor, limit: limit, deviceID: deviceID, ackedSeq: ackedSeq, since: since)
        changes.with { $0 += page.changes }
        return page
    }
    func capabilities() async throws -> Capabilities { try await inner.capabilities() }
}
