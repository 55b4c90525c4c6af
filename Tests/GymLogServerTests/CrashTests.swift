import Foundation
import GRDB
import GymLogCore
@testable import GymLogCLI
@testable import GymLogStore
import GymLogWire
import GymLogSyncClient
import Testing

// Crash tests: the real `gymlog` binary killed with SIGKILL at random moments while it logs
// (piped REPL) and while it syncs with the real `gymlog-server`; after every kill the SQLite
// file is opened directly and checked against the write pipeline's invariant (below), what
// the process confirmed on stdout, and the binary must open it again.

/// `GYMLOG_RELIABILITY_SCALE` (a multiplier, default 1) and `GYMLOG_RELIABILITY_SEED`
/// (random when unset; printed so a failing run can be replayed).
struct CrashKnobs {
    let scale: Int
    let seed: UInt64

    init() {
        let env = ProcessInfo.processInfo.environment
        scale = max(1, Int(env["GYMLOG_RELIABILITY_SCALE"] ?? "") ?? 1)
        seed = UInt64(env["GYMLOG_RELIABILITY_SEED"] ?? "") ?? UInt64.random(in: 1...999_999_999)
        // A write to the stdin of a process the test just killed must fail, not kill the runner.
        signal(SIGPIPE, SIG_IGN)
    }
}

/// Both suites start many processes; they run one after the other, not side by side.
@Suite(.serialized) struct CrashTests {}

// MARK: - Crash while logging

extension CrashTests {
@Suite struct WhileLogging {
    @Test func sigkillAtRandomMomentsWhileLoggingKeepsEveryConfirmedLineAndHalfWritesNothing() throws {
        let knobs = CrashKnobs()
        var rng = SeededRandom(seed: knobs.seed)
        let kills = 40 * knobs.scale
        let context = "seed=\(knobs.seed) scale=\(knobs.scale) (rerun with GYMLOG_RELIABILITY_SEED=\(knobs.seed))"
        var counts = (chainKills: 0, freshKills: 0, midStream: 0, linesFed: 0, linesConfirmed: 0, setsConfirmed: 0, chains: 1)
        var chain = try ClientDevice()
        var base = try StoreSnapshot.read(chain.database, rows: .none)
        var failures = 0

        for k in 0..<kills {
            // Every fifth kill hits a brand-new file early (creation, migration, first write);
            // the others keep killing the same file, whose history grows. A long run starts a
            // new chain now and then so each check stays quick.
            let fresh = k % 5 == 4
            if !fresh, counts.chainKills > 0, counts.chainKills % 60 == 0 {
                try? FileManager.default.removeItem(atPath: chain.root)
                chain = try ClientDevice(); base = nil; counts.chains += 1
            }
            let device = fresh ? try ClientDevice() : chain
            let before = fresh ? nil : base
            let session = LoggingSession.random(&rng, serial: k, lines: fresh ? Int.random(in: 1...12, using: &rng) : Int.random(in: 20...150, using: &rng))
            let early = fresh || Int.random(in: 0..<6, using: &rng) == 0
            // The debug binary starts in ~35 ms and then handles a line in ~2 ms.
            let delay = early ? Double.random(in: 0...0.06, using: &rng) : Double.random(in: 0...(0.04 + Double(session.lines.count) * 0.0025), using: &rng)

            let output = try killedRun(device, [], input: session.text, after: delay)
            let confirmations = Confirmation.parse(output.stdout)
            let where_ = "kill \(k) (\(fresh ? "fresh file" : "chain"), \(Int(delay * 1000)) ms, \(session.lines.count) lines), \(context)"
            #expect(output.killed, "gymlog was not killed but exited on its own: \(where_); stderr: \(output.stderr)")
            counts.linesFed += session.lines.count
            counts.setsConfirmed += confirmations.filter { if case .set = $0 { true } else { false } }.count
            let confirmedTags = Set(confirmations.compactMap(\.tag))
            counts.linesConfirmed += Confirmation.byLine(confirmations).count
            if fresh { counts.freshKills += 1 } else { counts.chainKills += 1 }
            if session.lines.contains(where: { $0.tag.map { !confirmedTags.contains($0) } ?? false }) { counts.midStream += 1 }

            // Then the file is intact, its outbox matches its rows, and every confirmed line is in it.
            let after = try StoreSnapshot.read(device.database)
            var problems = after?.integrityProblems ?? []
            if let after {
                problems += pipelineViolations(after, acknowledgedThrough: nil, synced: false)
                problems += durabilityViolations(after, since: before?.lastSeq ?? 0, confirmations: confirmations, session: session)
            }
            // And the real binary opens it again and logs another set.
            let tag = "a\(k)"
            let again = try device.run(["log", "bench 100x5 # \(tag)"])
            if !again.stdout.contains("# \(tag)") { problems.append("`gymlog log` after the kill printed no confirmation: \(again.stdout) \(again.stderr)") }
            let reopened = try StoreSnapshot.read(device.database)
            problems += reopened.map { $0.integrityProblems + pipelineViolations($0, acknowledgedThrough: nil, synced: false) } ?? ["no database after `gymlog log`"]
            if reopened?.sets(withNote: tag) != 1 { problems.append("the set logged after the kill is not stored once") }

            if !problems.isEmpty {
                failures += 1
                let message = "\(where_):\n" + problems.prefix(12).joined(separator: "\n") + "\nstdout tail: \(output.stdout.suffix(600))"
                Issue.record("\(message)")
                if failures >= 3 { break }
            }
            if fresh { try? FileManager.default.removeItem(atPath: device.root) } else { base = reopened }
        }
        try? FileManager.default.removeItem(atPath: chain.root)
        print("reliability: crash-while-logging seed=\(knobs.seed) scale=\(knobs.scale) kills=\(counts.chainKills + counts.freshKills) "
              + "kills_on_growing_file=\(counts.chainKills) kills_on_fresh_file=\(counts.freshKills) kills_mid_stream=\(counts.midStream) "
              + "chains=\(counts.chains) lines_fed=\(counts.linesFed) lines_confirmed=\(counts.linesConfirmed) "
              + "sets_confirmed=\(counts.setsConfirmed) outcome=\(failures == 0 ? "ok" : "failed")")
    }
}
}

/// Piped REPL input: set lines carry a unique note (`# k3l17`) so each can be found in the
/// database; the other lines exercise undo/redo, edits and workouts.
struct LoggingSession {
    struct Line { var text: String; var tag: String?; var sets: Int }
    var lines: [Line]
    var text: String { lines.map { $0.text + "\n" }.joined() }
    /// Set lines by tag, to check that a line is stored whole or not at all.
    var setsByTag: [String: Int] { Dictionary(uniqueKeysWithValues: lines.compactMap { l in l.tag.map { ($0, l.sets) } }) }

    /// `count` lines (at most 150) of session number `serial`.
    static func random(_ rng: inout SeededRandom, serial: Int, lines count: Int) -> LoggingSession {
        let tag = "k\(serial)"
        let exercises = ["bench", "squat", "deadlift", "ohp", "row"]
        func weight() -> String { let w = Double(Int.random(in: 8...80, using: &rng)) * 2.5; return w == w.rounded() ? String(Int(w)) : String(w) }
        var lines: [Line] = []
        for i in 0..<count {
            let t = "\(tag)l\(i)"
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<30: lines.append(Line(text: "\(exercises.randomElement(using: &rng)!) \(weight())x\(Int.random(in: 1...12, using: &rng)) # \(t)", tag: t, sets: 1))
            case 30..<42:
                let n = Int.random(in: 2...4, using: &rng)
                lines.append(Line(text: "\(exercises.randomElement(using: &rng)!) \(weight())x\(Int.random(in: 1...12, using: &rng))x\(n) # \(t)", tag: t, sets: n))
            case 42..<47: lines.append(Line(text: "\(exercises.randomElement(using: &rng)!) \(weight())x5,5,4 # \(t)", tag: t, sets: 3))
            case 47..<60: lines.append(Line(text: ["+", "+ \(weight())", "+ x\(Int.random(in: 1...12, using: &rng))"].randomElement(using: &rng)! + " # \(t)", tag: t, sets: 1))
            case 60..<72: lines.append(Line(text: "undo", tag: nil, sets: 0))
            case 72..<79: lines.append(Line(text: "redo", tag: nil, sets: 0))
            case 79..<87:
                // A weight no set has yet, so the edit always writes (an edit that changes
                // nothing prints `Edited:` but rightly writes no event).
                let unique = String(format: "%.3f", 1000 + Double(serial * 150 + i) / 1000)
                lines.append(Line(text: ["edit \(unique)", "edit \(unique) x\(Int.random(in: 1...12, using: &rng))", "edit \(unique) @8"].randomElement(using: &rng)!, tag: nil, sets: 0))
            case 87..<91: lines.append(Line(text: "start S\(t)", tag: nil, sets: 0))
            case 91..<94: lines.append(Line(text: "finish", tag: nil, sets: 0))
            case 94..<97: lines.append(Line(text: "note n\(t)", tag: nil, sets: 0))
            default: lines.append(Line(text: ["bnech 100x", "// a comment", "", "squat 140x0x"].randomElement(using: &rng)!, tag: nil, sets: 0))
            }
        }
        return LoggingSession(lines: lines)
    }
}

/// What the REPL printed after a commit, parsed back from its stdout.
enum Confirmation: Equatable {
    case set(tag: String), undo(tag: String), restore(tag: String), edit(tag: String)
    case workoutStarted, workoutNamed(String), exerciseCreated(String), finished, noted

    var tag: String? {
        switch self {
        case .set(let t): t
        default: nil
        }
    }

    /// Complete lines only: a line cut by the kill confirms nothing.
    static func parse(_ stdout: String) -> [Confirmation] {
        var lines = stdout.components(separatedBy: "\n")
        lines.removeLast()
        func note(_ line: String) -> String {
            guard let r = line.range(of: "  # ") else { return "" }
            return String(line[r.upperBound...].prefix { !$0.isWhitespace })
        }
        func quoted(_ line: String) -> String { line.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false).dropFirst().first.map(String.init) ?? "" }
        return lines.compactMap { line in
            // `  Bench Press #2  100kg x 5  # k3l17  e1RM 116.7kg` (not a workout's `  note: ...`)
            if line.hasPrefix("  "), line.range(of: #"^  \S.* #[0-9]+  "#, options: .regularExpression) != nil { return .set(tag: note(line)) }
            if line.hasPrefix("Undid ") { return .undo(tag: note(line)) }
            if line.hasPrefix("Restored ") { return .restore(tag: note(line)) }
            if line.hasPrefix("Edited: ") { return .edit(tag: note(line)) }
            if line.hasPrefix("Started a workout at ") { return .workoutStarted }
            if line.hasPrefix("Started '") { return .workoutNamed(quoted(line)) }
            if line.hasPrefix("New exercise '") { return .exerciseCreated(quoted(line)) }
            if line.hasPrefix("Finished: ") { return .finished }
            if line == "Noted." { return .noted }
            return nil
        }
    }

    /// Confirmations grouped by the line that printed them. Lines commit in order, but within
    /// one line's commit the order differs from the printed one: `Started a workout` and
    /// `New exercise` are printed before the sets, while the exercise is written first.
    static func byLine(_ confirmations: [Confirmation]) -> [[Confirmation]] {
        var groups: [[Confirmation]] = []
        for c in confirmations {
            let current = groups.last ?? []
            let headersOnly = !current.isEmpty && current.allSatisfy { $0 == .workoutStarted || { if case .exerciseCreated = $0 { true } else { false } }($0) }
            switch c {
            case .exerciseCreated where current == [.workoutStarted]:
                groups[groups.count - 1].append(c)
            case .set(let tag) where headersOnly || current.last == .set(tag: tag):
                groups[groups.count - 1].append(c)
            default:
                groups.append([c])
            }
        }
        return groups
    }

    /// Whether `event` is the write this confirmation reports.
    func matches(_ e: OutboxEvent, in s: StoreSnapshot) -> Bool {
        let note = { s.rows["sets"]?[e.entityID]?.values["note"]?.text }
        switch self {
        case .set(let tag): return e.entity == "sets" && e.op == "create" && e.field("note") == .text(tag)
        case .undo(let tag): return e.entity == "sets" && e.op == "delete" && note() == tag
        case .restore(let tag): return e.entity == "sets" && e.op == "restore" && note() == tag
        case .edit(let tag): return e.entity == "sets" && e.op == "update" && note() == tag
        case .workoutStarted: return e.entity == "workouts" && e.op == "create"
        case .workoutNamed(let name): return e.entity == "workouts" && e.field("name") == .text(name)
        case .exerciseCreated(let name): return e.entity == "exercises" && e.op == "create" && e.field("name") == .text(name)
        case .finished: return e.entity == "workouts" && e.field("ended_at").map { !$0.isNull } == true
        case .noted: return e.entity == "workouts" && e.field("note") != nil
        }
    }
}

/// Durability and atomicity of one killed session, from its outbox (nothing is synced, so the
/// outbox still holds every event of the session, in commit order):
/// - every confirmation the REPL printed is matched, in order, by an event of the session
///   (the REPL prints only after its transaction committed, and synchronous=FULL makes a
///   commit durable), so no confirmed line is lost;
/// - the events after the last confirmed one share one `created_at`: at most the one line in
///   flight at the kill committed without being confirmed;
/// - each set line is stored whole or not at all (`squat 140x5x3` is 0 or 3 sets).
func durabilityViolations(_ s: StoreSnapshot, since seq: Int64, confirmations: [Confirmation], session: LoggingSession) -> [String] {
    var problems: [String] = []
    let events = s.outbox.filter { $0.seq > seq }.sorted { $0.seq < $1.seq }
    var next = 0, lastMatched = -1
    var used = Set<Int>()
    for group in Confirmation.byLine(confirmations) {
        var end = next - 1
        for c in group {
            guard let i = events.indices[next...].first(where: { !used.contains($0) && c.matches(events[$0], in: s) }) else {
                problems.append("confirmed on stdout but not in the database: \(c)")
                continue
            }
            used.insert(i); end = max(end, i)
        }
        next = end + 1; lastMatched = max(lastMatched, end)
    }
    let tail = events[(lastMatched + 1)...]
    if Set(tail.map(\.createdAt)).count > 1 {
        problems.append("\(tail.count) unconfirmed events from more than one commit after the last confirmed line: seqs \(tail.map(\.seq))")
    }
    for (tag, expected) in session.setsByTag {
        let stored = s.sets(withNote: tag)
        if stored != 0 && stored != expected { problems.append("line \(tag) stored \(stored) of its \(expected) sets") }
    }
    return problems
}

// MARK: - Crash while syncing

extension CrashTests {
@Suite struct WhileSyncing {
    @Test func sigkillAtRandomMomentsWhileSyncingThenSyncResumesAndConverges() async throws {
        let knobs = CrashKnobs()
        var rng = SeededRandom(seed: knobs.seed)
        let context = "seed=\(knobs.seed) scale=\(knobs.scale) (rerun with GYMLOG_RELIABILITY_SEED=\(knobs.seed))"
        let server = try ServerInstance()
        let token = try server.addUser("crash")
        let a = try ClientDevice(server: server, token: token), b = try ClientDevice(server: server, token: token)
        defer { for d in [a, b] { try? FileManager.default.removeItem(atPath: d.root) } }
        let transport = HTTPSyncTransport(baseURL: URL(string: server.url)!, token: token)
        var registryA = EventRegistry(), registryB = EventRegistry()
        let wantedKills = 20 * knobs.scale
        var counts = (kills: 0, completed: 0, attempts: 0, chunks: 0, importedSets: 0, bRounds: 0, maxOutbox: 0, killsAfterPartialPush: 0, importKills: 0)
        var failures = 0
        var lastAcked: Int64 = 0

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
                let before = counts.chunks == 0 ? 0 : try a.setCount()
                if counts.chunks > 0 && Bool.random(using: &rng) {
                    // An import killed at a random moment leaves whole batches (here: all or
                    // nothing, one batch of 1000) and a consistent outbox; running it again
                    // finishes the job.
                    let delay = Double.random(in: 0...0.35, using: &rng)
                    let run = try killedRun(a, ["import", file], input: "", after: delay)
                    if run.killed { counts.importKills += 1 }
                    var list: [String] = []
                    if let s = try StoreSnapshot.read(a.database, rows: .checkedAgainst(watermark: registryA.clock(ofSeq: lastAcked))) {
                        list = s.integrityProblems + pipelineViolations(s, acknowledgedThrough: registryA.clock(ofSeq: s.ackedSeq), synced: true)
                    }
                    let added = try a.setCount() - before
                    if added != 0 && added != sets { list.append("the killed import stored \(added) of \(sets) sets") }
                    problems(list, "import killed after \(Int(delay * 1000)) ms")
                }
                let imported = try a.run(["import", file])
                #expect(imported.stdout.contains("Imported"), "\(imported.stdout) \(imported.stderr)")
                if try a.setCount() - before != sets { problems(["the import stored \(try a.setCount() - before) of \(sets) sets"], "import of chunk \(counts.chunks)") }
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
        if let s = try StoreSnapshot.read(a.database) {
            problems(s.integrityProblems + pipelineViolations(s, acknowledgedThrough: nil, synced: false), "before any sync")
        }
        // How long an uninterrupted sync took lately: kills are spread over that span.
        var syncSeconds = 1.0
        var pending = try a.outboxDepth()
        while counts.kills < wantedKills && counts.attempts < wantedKills * 3 && failures < 3 {
            counts.attempts += 1
            if pending < 300 { try writeOnA(); pending = try a.outboxDepth() }
            if counts.attempts % 6 == 0 { try writeOnB() }
            counts.maxOutbox = max(counts.maxOutbox, pending)

            // When a sync is killed at a random moment (a quarter of them while starting up)
            let delay = Int.random(in: 0..<4, using: &rng) == 0 ? Double.random(in: 0...0.1, using: &rng) : Double.random(in: 0.05...max(0.1, syncSeconds * 0.6), using: &rng)
            let started = Date()
            let run = try killedRun(a, ["sync"], input: "", after: delay)
            let where_ = "sync attempt \(counts.attempts) (\(Int(delay * 1000)) ms, \(run.killed ? "killed" : "finished first"))"
            if run.killed {
                counts.kills += 1
                syncSeconds = min(4, syncSeconds * 1.2)
            } else {
                counts.completed += 1
                syncSeconds = max(0.3, (syncSeconds + Date().timeIntervalSince(started)) / 2)
                if run.status != 0 { problems(["exit \(run.status): \(run.stderr)"], where_) }
            }

            // Then the file is intact, the sync lock is free, what is still pending is exactly
            // A's unacknowledged events, and the server never acknowledged less than A deleted.
            // (acked_seq only grows, so the last one seen bounds the rows the check needs from below)
            guard let s = try StoreSnapshot.read(a.database, rows: .checkedAgainst(watermark: registryA.clock(ofSeq: lastAcked))) else {
                problems(["the database is gone"], where_); break
            }
            pending = s.outbox.count
            var list = s.integrityProblems
            list += pipelineViolations(s, acknowledgedThrough: registryA.clock(ofSeq: s.ackedSeq), synced: true)
            list += registryA.pendingViolations(s)
            if s.ackedSeq < lastAcked { list.append("acked_seq went back from \(lastAcked) to \(s.ackedSeq)") }
            if run.killed && s.ackedSeq > lastAcked && s.ackedSeq < s.lastSeq { counts.killsAfterPartialPush += 1 }
            lastAcked = s.ackedSeq
            let serverAck = try await transport.pull(cursor: SyncCursor(epoch: nil, position: 0), limit: 1, deviceID: s.deviceID!).lastAppliedSeq
            if serverAck < s.ackedSeq || serverAck > s.lastSeq {
                list.append("the server's last_applied_seq \(serverAck) is outside A's acked \(s.ackedSeq) ... last \(s.lastSeq)")
            }
            if !syncLockIsFree(a) { list.append("the sync lock is still held after the process died") }
            problems(list, where_)
        }

        // When every device syncs twice with no new writes
        var outcome = "converged"
        let finals = try [a, b, a, b].map { try $0.run(["sync"]) }
        if finals.contains(where: { $0.status != 0 }) { outcome = "sync-failed" }

        // Then A, B and the server hold the same rows, field for field, each set once (a fresh
        // device pulling everything is ClientSyncTests' business; here the server's full pull
        // is compared with A directly)
        var list: [String] = []
        let sa = try #require(try StoreSnapshot.read(a.database)), sb = try #require(try StoreSnapshot.read(b.database))
        for (name, s, registry) in [("A", sa, registryA), ("B", sb, registryB)] {
            list += s.integrityProblems.map { "\(name): \($0)" }
            list += pipelineViolations(s, acknowledgedThrough: registry.clock(ofSeq: s.ackedSeq), synced: true).map { "\(name): \($0)" }
            if !s.outbox.isEmpty { list.append("\(name) still has \(s.outbox.count) events in its outbox") }
            if s.ackedSeq != s.lastSeq { list.append("\(name): acked_seq \(s.ackedSeq) != last_seq \(s.lastSeq)") }
            if s.rowsWithoutClocks > 0 { list.append("\(name) holds \(s.rowsWithoutClocks) placeholder rows no sync filled") }
        }
        list += rowDifferences(sa, sb, "A", "B")
        let pulled = try await pullEverything(transport, deviceID: sa.deviceID!)
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
              + "kills_after_partial_push=\(counts.killsAfterPartialPush) import_kills=\(counts.importKills) syncs_finished_before_kill=\(counts.completed) imported_sets=\(counts.importedSets) max_outbox=\(counts.maxOutbox) "
              + "second_device_rounds=\(counts.bRounds) sets_everywhere=\(expectedSets) final_sync=\(outcome) "
              + "outcome=\(failures == 0 && outcome == "converged" ? "ok" : "failed")")
    }
}
}

/// A Strong export with `sets` sets in workouts of 3 exercises x 5 sets, dated by `chunk` so
/// chunks never overlap (Strong rows get ids derived from their content).
func strongCSV(chunk: Int, sets: Int, rng: inout SeededRandom) -> String {
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

/// Every page the server has for the user, from the start.
func pullEverything(_ transport: HTTPSyncTransport, deviceID: String) async throws -> (pages: [PullResponse], cursor: String) {
    var pages: [PullResponse] = []
    var cursor = SyncCursor(epoch: nil, position: 0)
    for _ in 0..<10_000 {
        let page = try await transport.pull(cursor: cursor, limit: 1000, deviceID: deviceID)
        pages.append(page)
        cursor = SyncCursor(page.cursor) ?? cursor
        if !page.hasMore { break }
    }
    return (pages, cursor.description)
}

/// Differences between the server's merged rows and a client's: every field the client has a
/// clock for is on the server with that clock and value, and the server has nothing more.
func serverDifferences(server pages: [PullResponse], client s: StoreSnapshot) -> [String] {
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
func rowDifferences(_ x: StoreSnapshot, _ y: StoreSnapshot, _ xName: String, _ yName: String) -> [String] {
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

// MARK: - Running and killing the binary

/// Starts `gymlog args` on `device`, writes `input` to its stdin (kept open, as a terminal
/// would; closed when there is none), SIGKILLs it after `delay` seconds unless it exited
/// first, and returns what it printed.
func killedRun(_ device: ClientDevice, _ args: [String], input: String, after delay: TimeInterval) throws -> (stdout: String, stderr: String, killed: Bool, status: Int32) {
    let launched = try device.launch(args)
    let out = Drained(launched.output), err = Drained(launched.error)
    // Small enough for the pipe buffer: the write never blocks, even on a process about to die.
    precondition(input.utf8.count < 60_000)
    if input.isEmpty { try? launched.input.close() } else { try? launched.input.write(contentsOf: Data(input.utf8)) }
    if delay > 0 { usleep(UInt32(delay * 1_000_000)) }
    var killed = false
    if launched.process.isRunning {
        kill(launched.process.processIdentifier, SIGKILL)
        killed = true
    }
    launched.process.waitUntilExit()
    // A process that was already exiting when the signal came is not a kill.
    if killed && launched.process.terminationReason != .uncaughtSignal { killed = false }
    try? launched.input.close()
    return (out.wait(), err.wait(), killed, launched.process.terminationStatus)
}

/// Reads a pipe to its end on another thread, so the child never blocks on a full pipe.
final class Drained: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)
    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }
    func wait() -> String { done.wait(); return String(decoding: data, as: UTF8.self) }
}

/// Whether the cross-process sync lock (an flock next to the database) can be taken now.
func syncLockIsFree(_ device: ClientDevice) -> Bool {
    let fd = open(device.database + ".sync-lock", O_RDWR | O_CREAT, 0o600)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }
    flock(fd, LOCK_UN)
    return true
}

// MARK: - Reading a client database directly

/// One outbox row, decoded.
struct OutboxEvent: Equatable {
    var seq: Int64, key: String, entity: String, entityID: String, op: String, payload: String, createdAt: Int64
    var fields: [FieldChange]
    func field(_ name: String) -> FieldValue? { fields.first { $0.name == name }?.value }
    /// The one clock a write stamps on all its fields.
    var clock: HLC? { fields.first?.clock }
}

/// One synced row: its columns, the fields kept in `extra`, and each field's clock.
struct StoredRow {
    var values: [String: FieldValue]
    var extra: [String: FieldValue]
    var clocks: [String: HLC]
    func value(_ field: String) -> FieldValue? { values[field] ?? extra[field] }
}

/// Which synced rows a snapshot materialises (the outbox is always read whole).
enum RowScope {
    /// Every row (final comparisons, and the logging checks, which match lines to rows).
    case all
    /// The rows the invariant looks at: those named by an outbox event, and those holding a
    /// clock of this device newer than the given one (nil: any clock of this device). Whole
    /// table scans then run inside SQLite, so checks stay quick on a large history.
    case checkedAgainst(watermark: HLC?)
    /// No row: only the outbox and the bookkeeping.
    case none
}

/// A client database as read with a plain read-only GRDB connection (not through the app),
/// after the process that wrote it was killed.
struct StoreSnapshot {
    var integrity: [String] = []
    var foreignKeyViolations = 0
    var hasSchema = false
    var deviceID: String?
    var lastSeq: Int64 = 0, lastClock = HLC.zero, ackedSeq: Int64 = 0
    /// entity -> id -> row, for the rows of the scope read.
    var rows: [String: [String: StoredRow]] = [:]
    var allRows = false
    var outbox: [OutboxEvent] = []
    var undecodable: [String] = []
    /// Over every row of every synced table, computed by SQLite whatever the scope.
    var rowCounts: [String: Int] = [:]
    var newestRowClock: HLC?
    var rowsWithoutClocks = 0
    var fieldsWithForeignClocks = 0

    var integrityProblems: [String] {
        var out: [String] = []
        if integrity != ["ok"] { out.append("PRAGMA integrity_check: \(integrity.prefix(5))") }
        if foreignKeyViolations > 0 { out.append("PRAGMA foreign_key_check: \(foreignKeyViolations) rows") }
        return out + undecodable
    }

    func sets(withNote note: String) -> Int {
        precondition(allRows)
        return rows["sets"]?.values.filter { $0.values["note"]?.text == note }.count ?? 0
    }

    /// nil when the file does not exist (the kill came before gymlog created it).
    static func read(_ path: String, rows scope: RowScope = .all) throws -> StoreSnapshot? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var config = Configuration()
        config.readonly = true
        return try DatabaseQueue(path: path, configuration: config).read { db in
            var s = StoreSnapshot()
            if case .all = scope { s.allRows = true }
            s.integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            s.foreignKeyViolations = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count
            guard try db.tableExists("device") else { return s }
            s.hasSchema = true
            if let row = try Row.fetchOne(db, sql: "SELECT device_id, last_clock, last_seq FROM device") {
                s.deviceID = row[0]; s.lastClock = HLC(row[1] as String) ?? .zero; s.lastSeq = row[2]
            }
            s.ackedSeq = try Int64.fetchOne(db, sql: "SELECT acked_seq FROM sync_state") ?? 0
            for row in try Row.fetchAll(db, sql: "SELECT seq, idempotency_key, entity, entity_id, op, payload, created_at FROM outbox ORDER BY seq") {
                let payload: String = row[5]
                let fields: [FieldChange]
                do { fields = try PayloadCache.shared.decode(payload) } catch {
                    s.undecodable.append("outbox \(row[0] as Int64): \(error)"); fields = []
                }
                s.outbox.append(OutboxEvent(seq: row[0], key: row[1], entity: row[2], entityID: row[3], op: row[4], payload: payload,
                                            createdAt: row[6], fields: fields))
            }
            // A clock's text is `<15 digits>-<5 digits>-<node>` and sorts like the clock.
            let device = s.deviceID ?? ""
            for (entity, columns) in RowWriter.columns {
                let table = entity.rawValue
                s.rowCounts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
                for id in try String.fetchAll(db, sql: "SELECT id FROM \(table) WHERE json_type(clocks) IS NOT 'object'") {
                    s.undecodable.append("\(table)/\(id): clocks is not a JSON object")
                }
                let fields = "\(table) t, json_each(t.clocks) j WHERE json_type(t.clocks) = 'object'"
                if let text = try String.fetchOne(db, sql: "SELECT max(j.value) FROM \(fields)") {
                    if let clock = HLC(text) { s.newestRowClock = max(s.newestRowClock ?? clock, clock) } else {
                        s.undecodable.append("\(table): clock \(text) does not parse")
                    }
                }
                s.rowsWithoutClocks += try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE clocks = '{}'") ?? 0
                s.fieldsWithForeignClocks += try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(fields) AND substr(j.value, 23) != ?", arguments: [device]) ?? 0

                let names = columns.sorted()
                let select = "SELECT id, extra, clocks, \(names.joined(separator: ", ")) FROM \(table)"
                let rows: [Row]
                switch scope {
                case .none: continue
                case .all: rows = try Row.fetchAll(db, sql: select)
                case .checkedAgainst(let watermark):
                    var ids = Set(s.outbox.filter { $0.entity == table }.map(\.entityID))
                    ids.formUnion(try String.fetchAll(db, sql: "SELECT DISTINCT t.id FROM \(fields) AND substr(j.value, 23) = ? AND j.value > ?",
                                                      arguments: [device, watermark?.description ?? ""]))
                    let json = "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]"
                    rows = try Row.fetchAll(db, sql: select + " WHERE id IN (SELECT value FROM json_each(?))", arguments: [json])
                }
                var loaded: [String: StoredRow] = [:]
                for row in rows {
                    let id: String = row[0]
                    var values: [String: FieldValue] = [:]
                    for (i, name) in names.enumerated() { values[name] = FieldValue(row[3 + i] as DatabaseValue) }
                    let clockText: String = row[2]
                    var clocks: [String: HLC] = [:]
                    if let parsed = parseClocks(clockText) { clocks = parsed } else {
                        s.undecodable.append("\(table)/\(id): clocks \(clockText) is not a JSON object of clocks")
                    }
                    var extra: [String: FieldValue] = [:]
                    if let text = row[1] as String? {
                        if let object = try? JSONDecoder().decode([String: FieldValue].self, from: Data(text.utf8)) { extra = object } else {
                            s.undecodable.append("\(table)/\(id): extra \(text) is not a JSON object")
                        }
                    }
                    loaded[id] = StoredRow(values: values, extra: extra, clocks: clocks)
                }
                s.rows[table] = loaded
            }
            return s
        }
    }
}

/// Decoded outbox payloads by their text: the same events are read after every kill.
final class PayloadCache: @unchecked Sendable {
    static let shared = PayloadCache()
    private let lock = NSLock()
    private var decoded: [String: [FieldChange]] = [:]

    func decode(_ payload: String) throws -> [FieldChange] {
        if let hit = lock.withLock({ decoded[payload] }) { return hit }
        let fields = try decodePayload(payload)
        lock.withLock { decoded[payload] = fields }
        return fields
    }
}

/// A row's `clocks` column, `{"field":"clock",...}`: a quick scan for the form gymlog and
/// SQLite's json_patch write, JSONDecoder for anything else; nil when it is not that object.
func parseClocks(_ text: String) -> [String: HLC]? {
    var out: [String: HLC] = [:]
    var parsedClocks: [Substring: HLC] = [:]
    if !text.contains("\\"), text.hasPrefix("{"), text.hasSuffix("}") {
        let body = text.dropFirst().dropLast()
        if body.isEmpty { return [:] }
        var ok = true
        for pair in body.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count >= 2, parts[1].count >= 2, parts[0].first == "\"", parts[0].last == "\"",
                  parts[1].first == "\"", parts[1].last == "\"" else { ok = false; break }
            let value = parts[1].dropFirst().dropLast()
            if parsedClocks[value] == nil { guard let c = HLC(String(value)) else { return nil }; parsedClocks[value] = c }
            out[String(parts[0].dropFirst().dropLast())] = parsedClocks[value]
        }
        if ok { return out }
    }
    guard let object = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) else { return nil }
    out = [:]
    for (k, v) in object { guard let c = HLC(v) else { return nil }; out[k] = c }
    return out
}

func sameValue(_ a: FieldValue, _ b: FieldValue) -> Bool {
    switch (a, b) {
    case (.int(let x), .real(let y)), (.real(let y), .int(let x)): return Double(x) == y
    default: return a == b
    }
}

// MARK: - The write pipeline's invariant

/// Checks a client database against the invariant that `ChangeWriter.write` (row + outbox
/// event in one transaction), `RowWriter.upsert` (per-field clocks in `clocks`) and the sync
/// bookkeeping in Replica.swift (`acknowledge`, `applyPulled`, `unparkDueEvents`) maintain.
/// With d = device.device_id, L = device.last_seq, K = device.last_clock, A = sync_state.acked_seq:
///
/// 1. Outbox numbering: the events with a positive seq are exactly A+1 ... L, gapless (events
///    up to A were acknowledged and deleted in the transaction that raised A); negative seqs
///    are parked (rejected) events. Before any sync A = 0 and nothing is parked, so the outbox
///    is 1 ... L.
/// 2. Clocks: every event stamps all its fields with one clock from this device (node d);
///    pending events' clocks strictly increase with seq; none is beyond K.
/// 3. Every event names an existing row of its entity, and each of its fields is a field of
///    that row whose clock is at least the event's.
/// 4. Per (entity, id, field), the latest event (by clock) matches the row: the row's clock
///    equals it and the row's value equals the event's; or the row holds a newer clock from
///    ANOTHER device (a pulled write that won). A newer clock of d without an event is a
///    local write that lost its event.
/// 5. Every row field whose clock is from d and newer than `watermark` (the clock of event A,
///    the last acknowledged one; nil = nothing acknowledged yet) has a pending event with
///    exactly that clock: no local change waits without its event.
/// 6. Every clock stored in a row is at most K, so the next local write outranks all of them.
/// 7. Before any sync (`synced == false`): every row has clocks (empty-clock placeholder
///    parents come only from pulls) and every clock is d's.
func pipelineViolations(_ s: StoreSnapshot, acknowledgedThrough watermark: HLC?, synced: Bool) -> [String] {
    var out: [String] = []
    guard s.hasSchema else { return [] }
    guard let d = s.deviceID else {
        if !s.outbox.isEmpty || s.rows.values.contains(where: { !$0.isEmpty }) { out.append("rows or events but no device row") }
        return out
    }
    let pending = s.outbox.filter { $0.seq > 0 }, parked = s.outbox.filter { $0.seq < 0 }
    // 1
    let expected: [Int64] = s.ackedSeq < s.lastSeq ? Array((s.ackedSeq + 1)...s.lastSeq) : []
    if pending.map(\.seq) != expected {
        let seqs = pending.map(\.seq)
        out.append("outbox seqs \(seqs.first.map(String.init) ?? "-")...\(seqs.last.map(String.init) ?? "-") (\(seqs.count)) are not exactly acked_seq+1 ... last_seq = \(s.ackedSeq + 1)...\(s.lastSeq)")
    }
    if !synced && !parked.isEmpty { out.append("\(parked.count) parked events before any sync") }
    if !synced && s.ackedSeq != 0 { out.append("acked_seq \(s.ackedSeq) before any sync") }
    // 2
    var previous: HLC?
    for e in pending {
        guard let clock = e.clock else { out.append("event \(e.seq) has no fields"); continue }
        if Set(e.fields.map(\.clock)).count != 1 { out.append("event \(e.seq) carries more than one clock") }
        if clock.node != d { out.append("event \(e.seq) has clock \(clock) from another device") }
        if let p = previous, !(p < clock) { out.append("event \(e.seq) clock \(clock) is not after the previous event's \(p)") }
        if clock > s.lastClock { out.append("event \(e.seq) clock \(clock) is beyond device.last_clock \(s.lastClock)") }
        previous = clock
    }
    // 3, collecting the latest event per field for 4
    var latest: [String: (clock: HLC, value: FieldValue, seq: Int64)] = [:]
    for e in s.outbox {
        guard let row = s.rows[e.entity]?[e.entityID] else { out.append("event \(e.seq) names \(e.entity)/\(e.entityID), which is not stored"); continue }
        for f in e.fields {
            let key = "\(e.entity)/\(e.entityID)/\(f.name)"
            guard let rowClock = row.clocks[f.name] else { out.append("event \(e.seq) sets \(key), which the row has no clock for"); continue }
            if rowClock < f.clock { out.append("event \(e.seq) sets \(key) at \(f.clock), newer than the row's \(rowClock)") }
            if latest[key].map({ $0.clock < f.clock }) ?? true { latest[key] = (f.clock, f.value, e.seq) }
        }
    }
    // 4
    for (key, event) in latest {
        let parts = key.split(separator: "/", maxSplits: 2).map(String.init)
        guard let row = s.rows[parts[0]]?[parts[1]], let rowClock = row.clocks[parts[2]] else { continue }
        if rowClock == event.clock {
            if !sameValue(row.value(parts[2]) ?? .null, event.value) { out.append("\(key) is \(row.value(parts[2]) ?? .null) but its latest event \(event.seq) says \(event.value)") }
        } else if rowClock.node == d {
            out.append("\(key) has the local clock \(rowClock), newer than its latest event \(event.seq) (\(event.clock))")
        }
    }
    // 5 (the snapshot holds at least every row with such a clock, see `RowScope`)
    for (entity, rows) in s.rows {
        for (id, row) in rows {
            for (name, clock) in row.clocks where clock.node == d && watermark.map({ clock > $0 }) ?? true {
                let key = "\(entity)/\(id)/\(name)"
                if latest[key]?.clock != clock { out.append("\(key) was changed at \(clock) but no pending event carries that change") }
            }
        }
    }
    // 6, 7 (over every row, computed by SQLite)
    if let newest = s.newestRowClock, newest > s.lastClock { out.append("a row holds the clock \(newest), beyond device.last_clock \(s.lastClock)") }
    if !synced && s.rowsWithoutClocks > 0 { out.append("\(s.rowsWithoutClocks) rows have no clocks before any sync") }
    if !synced && s.fieldsWithForeignClocks > 0 { out.append("\(s.fieldsWithForeignClocks) fields hold another device's clock before any sync") }
    return Array(out.prefix(20)) + (out.count > 20 ? ["... \(out.count) violations"] : [])
}

/// Every outbox event a device ever wrote, recorded before its syncs, so what is pending after
/// a kill can be compared with what was written.
struct EventRegistry {
    private(set) var events: [Int64: OutboxEvent] = [:]

    /// Adds the device's current outbox; an event already recorded must be unchanged.
    mutating func record(_ path: String) throws -> [String] {
        guard let s = try StoreSnapshot.read(path, rows: .none) else { return ["no database at \(path)"] }
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
    func pendingViolations(_ s: StoreSnapshot) -> [String] {
        let expected = events.values.filter { $0.seq > s.ackedSeq }.sorted { $0.seq < $1.seq }
        let actual = s.outbox.filter { $0.seq > 0 }
        guard expected != actual else { return [] }
        let firstDiff = zip(expected, actual).first { $0 != $1 }
        return ["pending outbox (\(actual.count) events) is not the recorded events after acked_seq \(s.ackedSeq) (\(expected.count))"
                + (firstDiff.map { ": recorded \($0.0.seq) \($0.0.key), stored \($0.1.seq) \($0.1.key)" } ?? "")]
    }
}
