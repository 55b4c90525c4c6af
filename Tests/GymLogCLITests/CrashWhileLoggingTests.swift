import Foundation
import GymLogCore
import GymLogTestSupport
import Testing
import SplitMix

// Crash tests of the client alone: the real `gymlog` binary killed with SIGKILL at random
// moments while it logs (piped REPL); after every kill the SQLite file is opened directly and
// checked against the write pipeline's invariant (GymLogTestSupport) and what the process
// confirmed on stdout, and the binary must open it again. Crashes while syncing are in
// GymLogIntegrationTests (CrashWhileSyncingTests).

// MARK: - Crash while logging

@Suite("Crash while logging", .serialized) struct CrashWhileLoggingTests {
    @Test func sigkillAtRandomMomentsWhileLoggingKeepsEveryConfirmedLineAndHalfWritesNothing() throws {
        let knobs = CrashKnobs()
        var rng = SplitMix64(seed: knobs.seed)
        let kills = 40 * knobs.scale
        let context = knobs.replay
        var counts = (chainKills: 0, freshKills: 0, midStream: 0, linesFed: 0, linesConfirmed: 0, setsConfirmed: 0, chains: 1)
        var chain = try ClientDevice()
        var base = try ClientDatabaseDump.read(chain.database, rows: .none)
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
            let after = try ClientDatabaseDump.read(device.database)
            var problems = after?.integrityProblems ?? []
            if let after {
                problems += WritePipelineInvariant.violations(after, acknowledgedThrough: nil, synced: false)
                problems += durabilityViolations(after, since: before?.lastSeq ?? 0, confirmations: confirmations, session: session)
            }
            // And the real binary opens it again and logs another set.
            let tag = "a\(k)"
            let again = try device.run(["log", "bench 100x5 # \(tag)"])
            if !again.stdout.contains("# \(tag)") { problems.append("`gymlog log` after the kill printed no confirmation: \(again.stdout) \(again.stderr)") }
            let reopened = try ClientDatabaseDump.read(device.database)
            problems += reopened.map { $0.integrityProblems + WritePipelineInvariant.violations($0, acknowledgedThrough: nil, synced: false) } ?? ["no database after `gymlog log`"]
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

/// Piped REPL input: set lines carry a unique note (`# k3l17`) so each can be found in the
/// database; the other lines exercise undo/redo, edits and workouts.
struct LoggingSession {
    struct Line { var text: String; var tag: String?; var sets: Int }
    var lines: [Line]
    var text: String { lines.map { $0.text + "\n" }.joined() }
    /// Set lines by tag, to check that a line is stored whole or not at all.
    var setsByTag: [String: Int] { Dictionary(uniqueKeysWithValues: lines.compactMap { l in l.tag.map { ($0, l.sets) } }) }

    /// `count` lines (at most 150) of session number `serial`.
    static func random(_ rng: inout SplitMix64, serial: Int, lines count: Int) -> LoggingSession {
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
    case set(tag: String), edit(tag: String)
    /// `Undid ...` / `Redid ...`: one action reverted or re-applied, whatever it wrote.
    case undone, redone
    case workoutStarted, workoutNamed(String), exerciseCreated(String), finished, discarded, noted

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
            if line.hasPrefix("Undid ") { return .undone }
            if line.hasPrefix("Redid ") { return .redone }
            if line.hasPrefix("Edited: ") { return .edit(tag: note(line)) }
            if line.hasPrefix("Started a workout at ") { return .workoutStarted }
            if line.hasPrefix("Started '") { return .workoutNamed(quoted(line)) }
            if line.hasPrefix("New exercise '") { return .exerciseCreated(quoted(line)) }
            if line.hasPrefix("Finished ") { return .finished }
            if line == "Nothing logged; the empty workout was discarded." { return .discarded }
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
    func matches(_ e: OutboxEvent, in s: ClientDatabaseDump) -> Bool {
        let note = { s.rows["sets"]?[e.entityID]?.values["note"]?.text }
        switch self {
        case .set(let tag): return e.entity == "sets" && e.op == "create" && e.field("note") == .text(tag)
        case .undone, .redone: return true
        case .edit(let tag): return e.entity == "sets" && e.op == "update" && note() == tag
        case .workoutStarted: return e.entity == "workouts" && e.op == "create"
        case .workoutNamed(let name): return e.entity == "workouts" && e.field("name") == .text(name)
        case .exerciseCreated(let name): return e.entity == "exercises" && e.op == "create" && e.field("name") == .text(name)
        case .finished: return e.entity == "workouts" && e.field("ended_at").map { !$0.isNull } == true
        case .discarded: return e.entity == "workouts" && e.op == "delete"
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
func durabilityViolations(_ s: ClientDatabaseDump, since seq: Int64, confirmations: [Confirmation], session: LoggingSession) -> [String] {
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
        // An undo or redo writes as many events as its action did, all in its one commit (one
        // `created_at`); the confirmation names the action, so it stands for all of them.
        if group.contains(where: { $0 == .undone || $0 == .redone }), end >= 0 {
            while end + 1 < events.count, events[end + 1].createdAt == events[end].createdAt { end += 1 }
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
