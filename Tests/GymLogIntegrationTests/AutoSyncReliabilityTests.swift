import Foundation
import GRDB
import GymLogCore
import GymLogSyncClient
import GymLogTestSupport
import GymLogWire
import SplitMix
import Testing

// The reliability suites with the sync that runs by itself (issue 28, item 6): real `gymlog`
// processes whose writing commands start `gymlog sync --background` on their own, the real
// `gymlog-server` on loopback, and the manual sync's guarantees kept: every change reaches the
// server once, one cycle at a time, nothing lost or duplicated when a background cycle dies at
// any point, no ghost when another device deletes meanwhile. No timing is asserted: every wait
// polls for a condition with a generous deadline.

@Suite("Auto sync reliability", .serialized) struct AutoSyncReliabilityTests {
    @Test func oneShotCommandsInARowAndFromTwoShellsAtOnceReachTheServerOnce() async throws {
        // Given a device logged in, sync by itself on (the default)
        let server = try ServerInstance()
        let token = try server.addUser("shells")
        let a = try ClientDevice(server: server, token: token)
        defer { a.home.remove() }

        // When sets are logged one right after another, then from two shells at once, each
        // command starting its background sync as it ends
        var weights: [Double] = []
        for i in 0..<6 {
            try a.run(["log", "bench \(60 + i)x5"])
            weights.append(Double(60 + i))
        }
        let lanes = (0..<2).map { shell in (0..<10).map { i in ["log", "squat \(100 + 20 * shell + i)x3"] } }
        weights += (0..<2).flatMap { shell in (0..<10).map { Double(100 + 20 * shell + $0) } }
        for run in try runLanes(a, lanes) { #expect(run.status == 0, "\(run.stderr)") }

        // Then the background syncs end by themselves, having sent everything: the outbox is
        // empty, the server holds exactly A's rows, and a new device pulls every set once
        #expect(try backgroundSyncsEnded(a.database), "a background sync is still running")
        let problems = try await convergence(a, server: server, token: token)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        let b = try ClientDevice(server: server, token: token)
        defer { b.home.remove() }
        try b.sync()
        #expect(try liveWeights(b) == weights.sorted())
        // And each event was applied by the server once, by one cycle or another
        let log = syncLog(a)
        #expect(!log.contains("failed"), "\(log)")
        let pushed = log.split(separator: "\n").compactMap { $0.split(separator: "pushed ").last.flatMap { Int($0.prefix { $0.isNumber }) } }
        #expect(pushed.reduce(0, +) == Int(try #require(try ClientDatabaseDump.read(a.database, rows: .none)).lastSeq), "\(log)")
        #expect(try backgroundSyncsEnded(b.database))
    }

    @Test func commandsFromSeveralShellsAtOnceOnANewDatabaseAllSucceed() throws {
        // Given a device logged in whose database does not exist yet (a new laptop)
        let server = try ServerInstance()
        let token = try server.addUser("first")
        for attempt in 0..<3 {
            let a = try ClientDevice(server: server, token: token)
            defer { a.home.remove() }

            // When its first commands come from three shells at the same moment, so each
            // process finds the schema missing and makes it
            let runs = try runLanes(a, (0..<3).map { shell in [["log", "bench \(100 + shell)x5"]] })

            // Then each of them succeeds and logs its set
            for run in runs { #expect(run.status == 0, "attempt \(attempt): \(run.stderr)") }
            #expect(try a.allSets().count == 3, "attempt \(attempt)")
            #expect(try backgroundSyncsEnded(a.database))
        }
    }

    @Test func aBackgroundCycleKilledAtAnyPointLosesAndDuplicatesNothing() async throws {
        let knobs = CrashKnobs()
        var rng = SplitMix64(seed: knobs.seed)
        // Given a device with sync by itself on, and a second device that edits A's sets
        let server = try ServerInstance()
        let token = try server.addUser("killed")
        let a = try ClientDevice(server: server, token: token), b = try ClientDevice(server: server, token: token, autoSync: false)
        defer { for d in [a, b] { d.home.remove() } }
        let transport = try a.serverTransport(server, token: token)
        var registry = EventRegistry()
        var problems: [String] = []
        try FileManager.default.createDirectory(atPath: (a.database as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // A has pulled the account once: a logged-in database that never has pulls before it
        // imports, and A's imports below run with the sync lock held.
        try a.sync()

        // A's writes run with the sync lock held, so the background sync each command starts
        // leaves at once and every event is recorded before a cycle can send it.
        func writeOnA(_ args: [String], stdin: String = "") throws {
            let lock = open(a.database + ".sync-lock", O_RDWR | O_CREAT, 0o600)
            defer { close(lock) }
            #expect(lock >= 0 && flock(lock, LOCK_EX) == 0)
            try a.run(args, stdin: stdin)
            #expect(try backgroundSyncsEnded(a.database), "a background sync waits for the lock")
            flock(lock, LOCK_UN)
            problems += try registry.record(a.database).map { "recording A's outbox: \($0)" }
        }

        let wantedKills = 12 * knobs.scale
        var counts = (rounds: 0, kills: 0, finished: 0)
        var afterKill = KilledSyncCheck()
        var timing = KillTiming()
        while counts.kills < wantedKills && counts.rounds < wantedKills * 3 && problems.isEmpty {
            counts.rounds += 1
            // A imports a few hundred sets now and then, and logs lines with an edit and an undo
            // every round (updates and tombstones pending too); B logs two sets, edits and deletes
            // (its current workout may be its own or A's), so A's cycles pull remote writes as well.
            if counts.rounds % 3 == 1 {
                let file = a.root + "/chunk\(counts.rounds).csv"
                try strongCSV(chunk: counts.rounds, sets: 600, rng: &rng).write(toFile: file, atomically: true, encoding: .utf8)
                try writeOnA(["import", file])
            }
            try writeOnA(["repl"], stdin: "bench 100x5 # k\(counts.rounds)\n+ x4\nedit 102.5\nsquat 140x5x3\nundo\n")
            if counts.rounds % 4 == 0 {
                try b.sync()
                try b.run(["repl"], stdin: "row 60x10 # b\(counts.rounds)\n+\nedit 1 x7\ndelete 2\n")
                try b.sync()
            }

            // When the background cycle (the process a writing command starts) is killed at a
            // random moment: a quarter of them while it starts, the others across a cycle's span
            let (run, delay) = try timing.run(a, ["sync", "--background", "--db", a.database], using: &rng)
            let where_ = "round \(counts.rounds), killed after \(Int(delay * 1000)) ms (\(run.killed ? "killed" : "finished first")), \(knobs.replay)"
            if run.killed { counts.kills += 1 } else { counts.finished += 1 }

            // Then the file is intact, what is still pending is exactly A's unacknowledged
            // events, acked_seq never goes back, the server acknowledged no less than A deleted
            // and nothing A did not write, and the lock is free
            let checked = try #require(try await afterKill.check(a, registry: registry, transport: transport, killed: run.killed))
            problems += checked.problems.map { "\(where_): \($0)" }
        }

        // When A's next writing command runs with nothing held back, and B syncs
        try a.run(["log", "row 60x10"])
        #expect(try backgroundSyncsEnded(a.database), "a background sync is still running")
        try b.sync()

        // Then A's background cycle sent everything, and A, B and the server hold the same rows
        problems += try await convergence(a, server: server, token: token)
        let sa = try #require(try ClientDatabaseDump.read(a.database)), sb = try #require(try ClientDatabaseDump.read(b.database))
        problems += rowDifferences(sa, sb, "A", "B")
        let expectedSets = registry.createdIDs(of: "sets").count + 1 + 2 * (counts.rounds / 4)  // A's, the last line, B's
        if sa.rows["sets"]?.count != expectedSets { problems.append("A holds \(sa.rows["sets"]?.count ?? 0) sets; \(expectedSets) were created") }
        #expect(problems.isEmpty, "\(knobs.replay):\n\(problems.prefix(12).joined(separator: "\n"))")
        #expect(counts.kills >= wantedKills, "only \(counts.kills) of \(counts.rounds) background cycles were still running when killed, \(knobs.replay)")
        print("reliability: auto-sync-killed seed=\(knobs.seed) scale=\(knobs.scale) kills=\(counts.kills) "
              + "kills_after_partial_push=\(afterKill.killsAfterPartialPush) kills_between_push_and_ack=\(afterKill.killsBetweenPushAndAck) cycles_finished_before_kill=\(counts.finished) "
              + "sets=\(expectedSets) outcome=\(problems.isEmpty ? "ok" : "failed")")
    }

    @Test func aServerGoingDownAndUpWhileCommandsWriteIsCaughtUpWithoutDuplicates() async throws {
        // Given a device with sync by itself on, whose sets reached the server
        var server = try ServerInstance()
        let token = try server.addUser("outage")
        let a = try ClientDevice(server: server, token: token)
        defer { a.home.remove() }
        for line in ["bench 100x5", "bench 102.5x5"] { try a.run(["log", line]) }
        #expect(try backgroundSyncsEnded(a.database))
        #expect(try a.outboxDepth() == 0)

        // When the server goes down while commands write (the first stop may catch a cycle
        // midway)
        try a.run(["log", "squat 140x3"])
        server.stop()
        for line in ["squat 142.5x3", "squat 145x3", "row 60x10"] {
            try a.run(["log", line])
            #expect(try backgroundSyncsEnded(a.database), "a background sync is still running")
        }

        // Then the commands succeeded, the changes wait, and status shows the error and the backoff
        let down = try a.run(["status"])
        #expect(down.stdout.contains("Last error: cannot reach the sync server") && down.stdout.contains("Next try:   after"), "\(down.stdout)")
        #expect(try a.outboxDepth() > 0)
        #expect(syncLog(a).contains("failed: cannot reach"), "\(syncLog(a))")

        // When the server is back and the backoff has passed, the next writing command's
        // background cycle drains the outbox
        server = try server.restarted()
        let nextTry = try #require(try nextTryAt(a))
        #expect(eventually(within: 300) { Int64(Date().timeIntervalSince1970 * 1000) > nextTry })
        try a.run(["log", "row 62.5x10"])
        #expect(try backgroundSyncsEnded(a.database), "a background sync is still running")

        // Then everything is on the server once, and status shows no error
        let problems = try await convergence(a, server: server, token: token)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        let up = try a.run(["status"])
        #expect(up.stdout.contains("0 unsynced changes") && !up.stdout.contains("Last error"), "\(up.stdout)")
        let b = try ClientDevice(server: server, token: token)
        defer { b.home.remove() }
        try b.sync()
        #expect(try liveWeights(b) == [60, 62.5, 100, 102.5, 140, 142.5, 145])
    }

    @Test func noGhostWhenAnotherDeviceDeletesWhileABackgroundSyncRuns() async throws {
        let knobs = CrashKnobs()
        var rng = SplitMix64(seed: knobs.seed)
        // Given two devices with sync by itself on, sharing A's sets
        let server = try ServerInstance()
        let token = try server.addUser("ghost")
        let a = try ClientDevice(server: server, token: token), b = try ClientDevice(server: server, token: token)
        defer { for d in [a, b] { d.home.remove() } }
        try a.run(["log", "bench 100x5x6"])
        #expect(try backgroundSyncsEnded(a.database))
        var deleted: Set<String> = []
        for round in 0..<4 {
            try b.sync()
            // When A writes (its background sync starts) and that sync is frozen at a random
            // moment of its cycle, while B deletes one of the shared sets and its own background
            // sync sends the delete; then A's sync goes on
            let file = a.root + "/chunk\(round).csv"
            try strongCSV(chunk: round, sets: 300, rng: &rng).write(toFile: file, atomically: true, encoding: .utf8)
            try a.run(["import", file])
            let pids = try backgroundSyncs(of: a.database)
            usleep(UInt32.random(in: 0...300_000, using: &rng))
            for pid in pids { kill(pid, SIGSTOP) }
            let before = Set(try b.liveSets().map(\.id))
            try b.run(["delete", "1"])
            deleted.formUnion(before.subtracting(try b.liveSets().map(\.id)))
            #expect(try backgroundSyncsEnded(b.database), "B's background sync is still running")
            for pid in pids { kill(pid, SIGCONT) }
            #expect(try backgroundSyncsEnded(a.database), "A's background sync is still running")
        }
        #expect(deleted.count == 4, "B deleted \(deleted.count) sets")

        // Then after both sync, neither shows a deleted set, and both hold the same rows
        try a.sync()
        try b.sync()
        for (name, device) in [("A", a), ("B", b)] {
            let ghosts = deleted.intersection(try device.liveSets().map(\.id))
            #expect(ghosts.isEmpty, "\(name) shows deleted sets \(ghosts) (seed \(knobs.seed))")
        }
        let sa = try #require(try ClientDatabaseDump.read(a.database)), sb = try #require(try ClientDatabaseDump.read(b.database))
        let differences = rowDifferences(sa, sb, "A", "B")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n")) (seed \(knobs.seed))")
    }

    @Test func aManualSyncWaitsForTheCycleHoldingTheLockAndEndsWithEverythingSent() throws {
        // Given a device whose sync lock a long background cycle holds (the test holds it)
        let server = try ServerInstance()
        let token = try server.addUser("manual")
        let a = try ClientDevice(server: server, token: token, autoSync: false)
        defer { a.home.remove() }
        try a.run(["log", "bench 100x5"])
        let lock = open(a.database + ".sync-lock", O_RDWR | O_CREAT, 0o600)
        #expect(lock >= 0 && flock(lock, LOCK_EX) == 0)

        // When `gymlog sync` is typed meanwhile, and the cycle ends some seconds later
        let manual = try a.launch(["sync"])
        manual.feed(Data(), close: true)
        let stillWaiting = manual.isRunning(after: 8)
        flock(lock, LOCK_UN)
        close(lock)
        let run = manual.wait(timeout: 300)

        // Then it waited, said so, and synced
        #expect(stillWaiting, "gymlog sync gave up while the lock was held: \(run.stderr)")
        #expect(run.status == 0 && run.stdout.contains("pushed 3"), "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("Waiting for the sync"), "\(run.stderr)")
        #expect(try a.outboxDepth() == 0)

        // And with sync by itself on, a manual sync typed right after a large write, while its
        // background cycle runs, ends with everything sent
        let b = try ClientDevice(server: server, token: token)
        defer { b.home.remove() }
        var rng = SplitMix64(seed: 5)
        let file = b.root + "/big.csv"
        try strongCSV(chunk: 1, sets: 2000, rng: &rng).write(toFile: file, atomically: true, encoding: .utf8)
        try b.run(["import", file])
        let sync = try b.run(["sync"])
        #expect(sync.stdout.contains("Synced"), "\(sync.stdout) \(sync.stderr)")
        #expect(try b.outboxDepth() == 0)
        #expect(try backgroundSyncsEnded(b.database))
    }
}

/// Runs each lane's commands one after another and the lanes at the same time, as two shells
/// typing into one database would; returns every result.
private func runLanes(_ device: ClientDevice, _ lanes: [[[String]]]) throws -> [ProcessResult] {
    var next = lanes.map { _ in 0 }
    var running: [RunningProcess?] = lanes.map { _ in nil }
    var results: [ProcessResult] = []
    while true {
        var busy = false
        for i in lanes.indices {
            if let process = running[i] {
                if process.isRunning(after: 0.005) { busy = true; continue }
                results.append(process.wait())
                running[i] = nil
            }
            if next[i] < lanes[i].count {
                let process = try device.launch(lanes[i][next[i]])
                process.feed(Data(), close: true)
                running[i] = process
                next[i] += 1
                busy = true
            }
        }
        if !busy { return results }
    }
}

/// What keeps `device` from being caught up with the server: its file or write pipeline
/// broken, events still pending, the server's acknowledgement short of its last event, or a
/// field the server holds otherwise.
private func convergence(_ device: ClientDevice, server: ServerInstance, token: String) async throws -> [String] {
    guard let s = try ClientDatabaseDump.read(device.database) else { return ["no database at \(device.database)"] }
    var list = s.integrityProblems
    // Nothing pending: every local clock up to the last one was acknowledged.
    list += WritePipelineInvariant.violations(s, acknowledgedThrough: s.lastClock, synced: true)
    if !s.outbox.isEmpty { list.append("\(s.outbox.count) events still in the outbox") }
    if s.ackedSeq != s.lastSeq { list.append("acked_seq \(s.ackedSeq) != last_seq \(s.lastSeq)") }
    let transport = try device.serverTransport(server, token: token)
    let pulled = try await pullEverything(transport, deviceID: s.deviceID!, seal: try device.home.valueSeal())
    list += serverDifferences(server: pulled.pages, client: s)
    let ack = try await transport.pull(cursor: SyncCursor(epoch: nil, position: 0), limit: 1, deviceID: s.deviceID!).lastAppliedSeq
    if ack != s.lastSeq { list.append("the server's last_applied_seq is \(ack), the device's last seq \(s.lastSeq)") }
    return list
}

/// The weights of the device's live sets, in order.
private func liveWeights(_ device: ClientDevice) throws -> [Double] {
    try device.liveSets().compactMap { $0.weight.flatMap(Double.init) }.sorted()
}

/// What the device's background syncs wrote to their log.
private func syncLog(_ device: ClientDevice) -> String {
    (try? String(contentsOfFile: device.root + "/state/gymlog/sync.log", encoding: .utf8)) ?? ""
}

/// When the device's failed sync may be tried again by itself (Unix ms), nil when not backing off.
private func nextTryAt(_ device: ClientDevice) throws -> Int64? {
    try DatabaseQueue(path: device.database).read { try Int64.fetchOne($0, sql: "SELECT next_try_at FROM sync_state") }
}
