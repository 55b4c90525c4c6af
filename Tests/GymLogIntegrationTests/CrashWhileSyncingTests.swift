import Foundation
import GymLogCore
import GymLogSyncClient
import GymLogTestSupport
import GymLogWire
import Testing
import SplitMix

// Crash tests of client and server together: the real `gymlog` binary killed with SIGKILL at
// random moments while it syncs with the real `gymlog-server` (and while it imports); after
// every kill the client's SQLite file is checked against the write pipeline's invariant
// (GymLogTestSupport), the events it still holds and what the server acknowledged, and in the
// end every device and the server must converge.

// MARK: - Crash while syncing

@Suite("Crash while syncing", .serialized) struct CrashWhileSyncingTests {
    /// Encrypted end to end (every new account is), and in the clear: an account an older
    /// client made before encryption, which keeps syncing in the clear (half the kills).
    @Test(arguments: [true, false]) func sigkillAtRandomMomentsWhileSyncingThenSyncResumesAndConverges(encrypted: Bool) async throws {
        let knobs = CrashKnobs()
        var rng = SplitMix64(seed: knobs.seed)
        let context = knobs.replay + (encrypted ? "" : " (an account in the clear)")
        let server = try ServerInstance()
        let token = try server.addUser("crash")
        if !encrypted {
            // An older client's history makes the account one kept in the clear: devices logging
            // in do not make a key for it.
            let clock = HLC(millis: 1_500_000_000_000, counter: 0, node: "old-device")
            _ = try await HTTPSyncTransport(baseURL: URL(string: server.url)!, token: token).push(PushRequest(deviceID: "old-device", events: [
                PushEvent(seq: 1, idempotencyKey: "old-1", entity: "exercises", entityID: "0193a1b2-0000-7000-8000-000000000002", op: "create",
                          fields: ["name": WireField(v: .text("Plain Pendlay Row"), c: clock), "kind": WireField(v: .text("weighted"), c: clock)]),
            ]))
        }
        // The syncs killed here are the manual ones, each checked right after it dies: a
        // background sync started by A's writes would run between them and the checks.
        let a = try ClientDevice(server: server, token: token, autoSync: false), b = try ClientDevice(server: server, token: token, autoSync: false)
        defer { for d in [a, b] { try? FileManager.default.removeItem(atPath: d.root) } }
        #expect(try (a.home.valueSeal() != nil) == encrypted && (try b.home.valueSeal() != nil) == encrypted)
        let transport = try a.serverTransport(server, token: token)
        var registryA = EventRegistry(), registryB = EventRegistry()
        let wantedKills = (encrypted ? 20 : 10) * knobs.scale
        var counts = (kills: 0, completed: 0, attempts: 0, chunks: 0, importedSets: 0, bRounds: 0, maxOutbox: 0, importKills: 0)
        var failures = 0
        var afterKill = KilledSyncCheck()

        // A's writes: a generated Strong export (3000 sets, then 1000 a time), then a few REPL
        // lines (edits and an undo, so updates and tombstones are pending too); two refills in
        // three are a piped session of 400 lines (workout notes and some repeated sets: cheap,
        // unlike edits, which recompute an exercise's records, and the history grows slowly).
        // B's: a pull, lines that may edit one of A's sets, and a push, so A's cycles pull
        // remote writes as well.
        func writeOnA() throws {
            if counts.chunks % 3 == 0 {
                let sets = counts.chunks == 0 ? 3000 : 1000
                let file = a.root + "/chunk\(counts.chunks).csv"
                try strongCSV(chunk: counts.chunks, sets: sets, rng: &rng).write(toFile: file, atomically: true, encoding: .utf8)
                // Counted by the chunk's workouts: a logged-in import pulls first, which may bring
                // B's sets too.
                let chunkName = "C\(counts.chunks) D"
                func chunkSets() throws -> Int { try a.setCount(inWorkoutsNamed: chunkName) }
                if counts.chunks > 0 && Bool.random(using: &rng) {
                    // An import killed at a random moment leaves all or nothing (it is one
                    // transaction) and a consistent outbox; running it again does the job.
                    let delay = Double.random(in: 0...0.35, using: &rng)
                    let run = try killedRun(a, ["import", file], input: "", after: delay)
                    if run.killed { counts.importKills += 1 }
                    var list: [String] = []
                    if let s = try ClientDatabaseDump.read(a.database, rows: .checkedAgainst(watermark: registryA.clock(ofSeq: afterKill.lastAcked))) {
                        list = s.integrityProblems + WritePipelineInvariant.violations(s, acknowledgedThrough: registryA.clock(ofSeq: s.ackedSeq), synced: true)
                    }
                    let added = try chunkSets()
                    if added != 0 && added != sets { list.append("the killed import stored \(added) of \(sets) sets") }
                    problems(list, "import killed after \(Int(delay * 1000)) ms")
                }
                let imported = try a.run(["import", file])
                #expect(imported.stdout.contains("Imported"), "\(imported.stdout) \(imported.stderr)")
                if try chunkSets() != sets { problems(["the import stored \(try chunkSets()) of \(sets) sets"], "import of chunk \(counts.chunks)") }
                counts.importedSets += sets
                try a.run(["repl"], stdin: "bench 100x5 # c\(counts.chunks)\n+ x4\nedit 102.5\nsquat 140x5x3\nundo\n")
            } else {
                var lines = "start R\(counts.chunks)\nbench 60x5 # r\(counts.chunks)\n"
                for i in 0..<400 {
                    lines += Int.random(in: 0..<5, using: &rng) < 4 ? "note n\(counts.chunks)-\(i)\n" : "+ x\(Int.random(in: 1...12, using: &rng))\n"
                }
                try a.run(["repl"], stdin: lines)
            }
            counts.chunks += 1
            problems(try registryA.record(a.database), "recording A's outbox")
        }
        func writeOnB() throws {
            try b.sync()
            // B's set joins the newest open workout, which after the pull may be A's; `edit 1`
            // then changes that workout's first set, possibly one of A's.
            try b.run(["repl"], stdin: "row 60x10 # br\(counts.bRounds)\nedit 1 x7\n+\nundo\n")
            problems(try registryB.record(b.database), "recording B's outbox")
            try b.sync()
            counts.bRounds += 1
        }
        func problems(_ list: [String], _ what: String) {
            guard !list.isEmpty else { return }
            failures += 1
            let message = "\(what), \(context):\n" + list.prefix(12).joined(separator: "\n")
            Issue.record("\(message)")
        }

        try writeOnA()
        if let s = try ClientDatabaseDump.read(a.database) {
            // A logged-in database's first import pulls the account first: in the clear, that
            // brings the older client's exercise (another device's clocks).
            problems(s.integrityProblems + WritePipelineInvariant.violations(s, acknowledgedThrough: nil, synced: !encrypted), "before any push")
        }
        var timing = KillTiming()
        var pending = try a.outboxDepth()
        while counts.kills < wantedKills && counts.attempts < wantedKills * 3 && failures < 3 {
            counts.attempts += 1
            if pending < 300 { try writeOnA(); pending = try a.outboxDepth() }
            if counts.attempts % 6 == 0 { try writeOnB() }
            counts.maxOutbox = max(counts.maxOutbox, pending)

            // When a sync is killed at a random moment (a quarter of them while starting up)
            let (run, delay) = try timing.run(a, ["sync"], using: &rng)
            let where_ = "sync attempt \(counts.attempts) (\(Int(delay * 1000)) ms, \(run.killed ? "killed" : "finished first"))"
            if run.killed {
                counts.kills += 1
            } else {
                counts.completed += 1
                if run.status != 0 { problems(["exit \(run.status): \(run.stderr)"], where_) }
            }

            // Then the file is intact, the sync lock is free, what is still pending is exactly
            // A's unacknowledged events, and the server never acknowledged less than A deleted.
            guard let checked = try await afterKill.check(a, registry: registryA, transport: transport, killed: run.killed) else {
                problems(["the database is gone"], where_); break
            }
            pending = checked.pending
            problems(checked.problems, where_)
        }

        // When every device syncs twice with no new writes
        var outcome = "converged"
        let finals = try [a, b, a, b].map { try $0.run(["sync"]) }
        if finals.contains(where: { $0.status != 0 }) { outcome = "sync-failed" }

        // Then A, B and the server hold the same rows, field for field, each set once (a fresh
        // device pulling everything is ClientSyncTests' business; here the server's full pull
        // is compared with A directly)
        var list: [String] = []
        let sa = try #require(try ClientDatabaseDump.read(a.database)), sb = try #require(try ClientDatabaseDump.read(b.database))
        for (name, s, registry) in [("A", sa, registryA), ("B", sb, registryB)] {
            list += s.integrityProblems.map { "\(name): \($0)" }
            list += WritePipelineInvariant.violations(s, acknowledgedThrough: registry.clock(ofSeq: s.ackedSeq), synced: true).map { "\(name): \($0)" }
            if !s.outbox.isEmpty { list.append("\(name) still has \(s.outbox.count) events in its outbox") }
            if s.ackedSeq != s.lastSeq { list.append("\(name): acked_seq \(s.ackedSeq) != last_seq \(s.lastSeq)") }
            if s.rowsWithoutClocks > 0 { list.append("\(name) holds \(s.rowsWithoutClocks) placeholder rows no sync filled") }
        }
        list += rowDifferences(sa, sb, "A", "B")
        let pulled = try await pullEverything(transport, deviceID: sa.deviceID!, seal: try a.home.valueSeal())
        list += serverDifferences(server: pulled.pages, client: sa)
        for (name, s) in [("A", sa), ("B", sb)] {
            let ack = try await transport.pull(cursor: SyncCursor(epoch: nil, position: 0), limit: 1, deviceID: s.deviceID!).lastAppliedSeq
            if ack != s.lastSeq { list.append("the server's last_applied_seq for \(name) is \(ack), its last seq \(s.lastSeq)") }
        }
        // A pull lists a row once per group of fields changed together, so ids repeat there.
        let serverSetIDs = pulled.pages.flatMap(\.changes).filter { $0.entity == "sets" }.map(\.entityID)
        let expectedSets = registryA.createdIDs(of: "sets").union(registryB.createdIDs(of: "sets")).count
        let setCounts = [sa, sb].map { $0.rows["sets"]?.count ?? 0 } + [Set(serverSetIDs).count]
        if Set(setCounts) != [expectedSets] { list.append("set counts A, B, server: \(setCounts); sets ever created: \(expectedSets)") }
        if !list.isEmpty { outcome = "diverged" }
        problems(list, "after the final syncs")

        #expect(counts.kills >= wantedKills, "only \(counts.kills) of \(counts.attempts) syncs were still running when killed, \(context)")
        print("reliability: crash-while-syncing seed=\(knobs.seed) scale=\(knobs.scale) kills=\(counts.kills) "
              + "kills_after_partial_push=\(afterKill.killsAfterPartialPush) kills_between_push_and_ack=\(afterKill.killsBetweenPushAndAck) import_kills=\(counts.importKills) syncs_finished_before_kill=\(counts.completed) imported_sets=\(counts.importedSets) max_outbox=\(counts.maxOutbox) "
              + "second_device_rounds=\(counts.bRounds) sets_everywhere=\(expectedSets) final_sync=\(outcome) "
              + "outcome=\(failures == 0 && outcome == "converged" ? "ok" : "failed")")
    }
}

/// A Strong export with `sets` sets in workouts of 3 exercises x 5 sets, dated by `chunk` so
/// chunks never overlap (Strong rows get ids derived from their content).
func strongCSV(chunk: Int, sets: Int, rng: inout SplitMix64) -> String {
    let exercises = ["Bench Press", "Squat", "Deadlift", "Overhead Press", "Barbell Row", "Pull Up"]
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX"); formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    var out = "Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes\n"
    var written = 0, day = 0
    while written < sets {
        let date = formatter.string(from: Date(timeIntervalSince1970: 1_500_000_000 + Double(chunk * 1000 + day) * 86_400))
        for exercise in exercises.shuffled(using: &rng).prefix(3) {
            for order in 1...5 where written < sets {
                out += "\(date),C\(chunk) D\(day),\(exercise),\(order),\(Int.random(in: 20...200, using: &rng)),\(Int.random(in: 1...12, using: &rng)),0,0,\n"
                written += 1
            }
        }
        day += 1
    }
    return out
}

/// Every page the server has for the user, from the start; with `seal`, its values opened (a
/// value that does not open stays sealed, so a comparison shows it).
func pullEverything(_ transport: HTTPSyncTransport, deviceID: String, seal: ValueSeal? = nil) async throws -> (pages: [PullResponse], cursor: String) {
    var pages: [PullResponse] = []
    var cursor = SyncCursor(epoch: nil, position: 0)
    for _ in 0..<10_000 {
        var page = try await transport.pull(cursor: cursor, limit: 1000, deviceID: deviceID)
        if let seal { page.changes = page.changes.map { (try? seal.opened($0).get()) ?? $0 } }
        pages.append(page)
        cursor = SyncCursor(page.cursor) ?? cursor
        if !page.hasMore { break }
    }
    return (pages, cursor.description)
}

/// Differences between the server's merged rows and a client's: every field the client has a
/// clock for is on the server with that clock and value, and the server has nothing more.
func serverDifferences(server pages: [PullResponse], client s: ClientDatabaseDump) -> [String] {
    let remote = merged(pages)
    var local: [String: WireField] = [:]
    for (entity, rows) in s.rows {
        for (id, row) in rows { for (name, clock) in row.clocks { local["\(entity)/\(id)/\(name)"] = WireField(v: row.value(name) ?? .null, c: clock) } }
    }
    var out: [String] = []
    for (key, field) in local where !sameField(remote[key], field) { out.append("server \(key) = \(remote[key].map { "\($0.v) @\($0.c)" } ?? "missing"), client \(field.v) @\(field.c)") }
    for key in remote.keys where local[key] == nil { out.append("server has \(key), the client does not") }
    return Array(out.sorted().prefix(10)) + (out.count > 10 ? ["... \(out.count) differences"] : [])
}

private func sameField(_ a: WireField?, _ b: WireField) -> Bool {
    guard let a else { return false }
    return a.c == b.c && sameValue(a.v, b.v)
}

/// Row-by-row, field-by-field differences (values and clocks) between two client databases.
func rowDifferences(_ x: ClientDatabaseDump, _ y: ClientDatabaseDump, _ xName: String, _ yName: String) -> [String] {
    var out: [String] = []
    for entity in EntityKind.allCases.map(\.rawValue) {
        let xs = x.rows[entity] ?? [:], ys = y.rows[entity] ?? [:]
        for id in Set(xs.keys).union(ys.keys) {
            guard let r = xs[id], let q = ys[id] else { out.append("\(entity)/\(id) only on \(xs[id] == nil ? yName : xName)"); continue }
            if r.clocks != q.clocks { out.append("\(entity)/\(id) clocks differ: \(xName) \(r.clocks) \(yName) \(q.clocks)") }
            for name in Set(r.values.keys).union(q.values.keys).union(r.extra.keys).union(q.extra.keys) where !sameValue(r.value(name) ?? .null, q.value(name) ?? .null) {
                out.append("\(entity)/\(id).\(name): \(xName) \(r.value(name) ?? .null), \(yName) \(q.value(name) ?? .null)")
            }
        }
    }
    return Array(out.sorted().prefix(10)) + (out.count > 10 ? ["... \(out.count) differences"] : [])
}

/// Every outbox event a device ever wrote, recorded before its syncs, so what is pending after
/// a kill can be compared with what was written.
struct EventRegistry {
    private(set) var events: [Int64: OutboxEvent] = [:]

    /// Adds the device's current outbox; an event already recorded must be unchanged.
    mutating func record(_ path: String) throws -> [String] {
        guard let s = try ClientDatabaseDump.read(path, rows: .none) else { return ["no database at \(path)"] }
        var out: [String] = []
        for e in s.outbox where e.seq > 0 {
            if let known = events[e.seq], known != e { out.append("event \(e.seq) changed while pending: \(known.payload) -> \(e.payload)") }
            events[e.seq] = e
        }
        return out
    }

    func clock(ofSeq seq: Int64) -> HLC? { seq > 0 ? events[seq]?.clock : nil }

    func createdIDs(of entity: String) -> Set<String> { Set(events.values.filter { $0.entity == entity && $0.op == "create" }.map(\.entityID)) }

    /// A killed sync deletes only acknowledged events and changes no pending one: the outbox
    /// is exactly the recorded events after acked_seq, byte for byte (same idempotency keys,
    /// so a resend is recognised as the same event).
    func pendingViolations(_ s: ClientDatabaseDump) -> [String] {
        let expected = events.values.filter { $0.seq > s.ackedSeq }.sorted { $0.seq < $1.seq }
        let actual = s.outbox.filter { $0.seq > 0 }
        guard expected != actual else { return [] }
        let firstDiff = zip(expected, actual).first { $0 != $1 }
        return ["pending outbox (\(actual.count) events) is not the recorded events after acked_seq \(s.ackedSeq) (\(expected.count))"
                + (firstDiff.map { ": recorded \($0.0.seq) \($0.0.key), stored \($0.1.seq) \($0.1.key)" } ?? "")]
    }
}
