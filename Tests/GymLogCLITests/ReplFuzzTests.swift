import Foundation
import GRDB
import GymLogCore
import GymLogStore
@testable import GymLogCLI
import GymLogTestSupport
import Testing
import SplitMix

// Hostile input for the entry language and the REPL (the sync brief `../shared/SYNC.md`, "Hostile input": fuzzed entry
// lines -> clear errors, no crash, nothing written).
//
// Lines come from two generators: random lines (raw bytes including invalid UTF-8, control
// characters, NUL, unicode digits and letters, emoji, huge numbers, very long lines, many
// tokens) and mutated lines (the inputs of fixtures/entry-grammar.tsv and REPL commands with
// seeded character edits, extreme numbers and splices). Each line goes through
// `ReplSession.handle`, the code path the REPL runs for a line, against a real SQLite file;
// a few hundred more are piped into the real `gymlog` binary.
//
// GYMLOG_RELIABILITY_SCALE multiplies the line counts; GYMLOG_RELIABILITY_SEED replays a run.

// MARK: - Knobs and randomness

private enum ReplFuzzKnobs {
    static let scale = Sim.scale
    static let seed = Sim.seed()
    static func replay(_ suite: String) -> String {
        "seed=\(seed) scale=\(scale) (replay: GYMLOG_RELIABILITY_SEED=\(seed) GYMLOG_RELIABILITY_SCALE=\(scale) swift test --filter \(suite))"
    }
}

extension SplitMix64 {
    /// `chance(30)`: true 30 times in 100.
    fileprivate mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
}

// MARK: - Line generators

/// One fuzzed line: the bytes a pipe carries (never a newline) and where it came from.
private struct FuzzLine {
    /// `corpus`: a fixture line or REPL command as it is, so sessions build up sets to work on.
    enum Origin: String { case random, mutated, corpus }
    var bytes: [UInt8]
    var origin: Origin

    /// What `readLine` hands the REPL for these bytes: invalid UTF-8 repaired to U+FFFD and a
    /// trailing "\r" dropped with the newline.
    var text: String {
        var b = bytes
        if b.last == 13 { b.removeLast() }
        return String(decoding: b, as: UTF8.self)
    }

    init(_ bytes: [UInt8], _ origin: Origin) {
        self.bytes = bytes.filter { $0 != 10 }
        self.origin = origin
    }

    init(_ text: String, _ origin: Origin) { self.init(Array(text.utf8), origin) }

    /// The line for failure messages: escaped, and cut when it is long.
    var shown: String {
        let t = text
        if t.count <= 240 { return t.debugDescription }
        return String(t.prefix(200)).debugDescription + "… (\(t.count) characters, \(bytes.count) bytes)"
    }
}

private enum FuzzCorpus {
    /// REPL commands beside sets, as a user types them (`quit` is added only in-process).
    static let commands: [String] = [
        "+", "+ 102.5", "+ x6", "+ @9", "+ x6x3", "+ bw+10 d", "+ # again", "undo", "redo", "UNDO",
        "start", "start Push day", "finish", "note felt strong today", "note",
        "show", "show --json", "edit 102.5x5", "edit 2 x6 @9", "edit # felt easy", "edit", "edit 1 bw x8", "edit 3 60s",
        "delete 1", "delete 2", "delete", "delete x",
        "prs", "prs bench", "prs --json", "history", "history bench", "history --limit 3", "history squat --json",
        "exercises", "exercises list", "exercises add Front Squat", "exercises add \"Romanian Deadlift\"",
        "exercises add plank hold --kind timed", "exercises add row --kind rowing", "exercises alias bp bench",
        "exercises alias sq squat", "exercises rename bench \"Bench Press\"", "exercises rename bp Flat Bench",
        "exercises rename squat", "export", "export --format strong", "export --out fuzz.csv --exercise bench",
        "export --since 2026-01-01 --until 2026-12-31", "export --since 2026-02-30",
        "chart bench", "chart bench --metric weight --width 60 --height 10", "chart squat --json", "chart",
        "stats", "stats --weeks 12 --by muscle", "stats --json", "stats --weeks 0",
        "sync", "status", "status --json", "help", "?", "log bench 100x5", "log squat 140x5x3 @8", "log",
        "import \(fixture("import/strong-quoted-kg.csv").path) --dry-run",
        "import \(fixture("import/hevy-kg-km.csv").path)",
        "import \(badRowsCopy)",
        "import nothing-here.csv", "show --help", "exercises --help", "// a comment", "",
    ]

    /// A copy of the fixture with bad rows: importing it writes its rejects file beside it,
    /// which must never land among the fixtures (other suites read every file there).
    static let badRowsCopy: String = {
        let folder = (try? temporaryDirectory("gymlog-fuzz-import")) ?? NSTemporaryDirectory()
        let path = folder + "/strong-bad-rows.csv"
        try? FileManager.default.copyItem(at: fixture("import/strong-bad-rows.csv"), to: URL(fileURLWithPath: path))
        return path
    }()

    /// The inputs of the grammar fixture: accepted and rejected entry lines.
    static let grammarLines: [String] = {
        guard let text = try? String(contentsOf: fixture("entry-grammar.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { raw in
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            guard !line.hasPrefix("#"), let tab = line.lastIndex(of: "\t") else { return nil }
            return String(line[..<tab])
        }
    }()

    static let extremes = [
        "0", "-1", "-0", "1e308", "-1e308", "1.7976931348623157e308", "99999999999999999999", "NaN", "nan", "inf",
        "-inf", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "4294967296", "0.0001",
        "000000000000000000005", "5.000000000000000001", "2001", "1000", "51", "86401", "1_000", "0x10", "٣", "５", "½",
    ]

    static let tokens = [
        "bench", "squat", "Bench Press", "bp", "+", "-", "x", "×", "@", "#", ",", ".", ":", "100", "102.5", "5", "x5",
        "x5x3", "5,5,4", "kg", "lb", "lbs", "bw", "w", "d", "f", "s", "min", "m", "km", "7:41", "1:02:03", "@8.5",
        "undo", "redo", "edit", "delete", "start", "finish", "note", "show", "prs", "history", "exercises", "alias",
        "rename", "add", "export", "sync", "status", "chart", "stats", "help", "--json", "--help", "--limit", "--weeks",
        "--width", "--height", "--metric", "--kind", "--format", "--since", "--until", "--exercise", "--", "-h",
        "\"", "'", "\"\"", "''", "\\", "//", " ", "\t",
    ]

    /// Scalars that have broken parsers before: controls, NUL, whitespace that is not a space,
    /// digits and letters outside ASCII, combining marks, emoji and bidi controls.
    static let oddScalars: [Unicode.Scalar] = [
        "\u{0}", "\u{1}", "\u{7}", "\u{8}", "\u{B}", "\u{C}", "\u{D}", "\u{1B}", "\u{1F}", "\u{7F}", "\u{80}",
        "\u{85}", "\u{9B}", "\u{A0}", "\u{AD}", "\u{200B}", "\u{200D}", "\u{200E}", "\u{202E}", "\u{2028}",
        "\u{2029}", "\u{3000}", "\u{FEFF}", "\u{FFFD}", "\u{FFFF}", "\u{E000}", "\u{10FFFF}",
        "\u{301}", "\u{308}", "\u{20DD}", "\u{FE0F}", "٣", "۵", "५", "５", "𝟓", "½", "Ⅻ", "²", "µ", "ß", "ǅ", "İ", "ﬃ",
        "Ж", "ж", "λ", "漢", "한", "ע", "ع", "🏋", "💪", "🇩", "🇪", "👩", "🏻", "×", "−", "–", "＋", "＠", "＃", "，", "．",
    ]
}

private enum FuzzGenerator {
    static func line(_ rng: inout SplitMix64) -> FuzzLine {
        rng.chance(30) ? random(&rng) : mutated(&rng)
    }

    // MARK: Random lines

    static func random(_ rng: inout SplitMix64) -> FuzzLine {
        switch rng.int(0...9) {
        case 0, 1:
            // Raw bytes: invalid UTF-8, NUL, every control.
            return FuzzLine((0..<rng.int(0...60)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }, .random)
        case 2, 3:
            // Odd scalars mixed with ASCII.
            var s = String.UnicodeScalarView()
            for _ in 0..<rng.int(0...40) {
                if rng.chance(50) {
                    s.append(rng.pick(FuzzCorpus.oddScalars))
                } else if rng.chance(30), let any = Unicode.Scalar(UInt32(rng.int(0...0x2FFFF))) {
                    s.append(any)
                } else {
                    s.append(Unicode.Scalar(UInt8(rng.int(32...126))))
                }
            }
            return FuzzLine(String(s), .random)
        case 4, 5:
            // Token soup: grammar, commands and flags, glued or spaced.
            var line = ""
            for _ in 0..<rng.int(0...16) {
                line += rng.chance(15) ? rng.pick(FuzzCorpus.extremes) : rng.pick(FuzzCorpus.tokens)
                if rng.chance(60) { line += " " }
            }
            return FuzzLine(line, .random)
        case 6:
            // Huge numbers where numbers go.
            let digits = String((0..<rng.int(19...400)).map { _ in Character(String(rng.int(0...9))) })
            let shapes = ["bench \(digits)x5", "bench 100x\(digits)", "bench 100x5x\(digits)", "bench 100x5 @\(digits)",
                          "plank \(digits)s", "row \(digits)m", "plank \(digits):00", "plank 1:\(digits)", "+ \(digits)",
                          "edit \(digits) x5", "delete \(digits)", "history --limit \(digits)", "stats --weeks \(digits)",
                          "chart bench --width \(digits)", "bench \(digits).\(digits)x5", "dip bw+\(digits)x5"]
            return FuzzLine(rng.pick(shapes), .random)
        case 7:
            // A very long line of one repeated unit.
            let unit = rng.pick(["long ", "100x5 ", "1x1x50 ", "x", "@", "#", "é", "🏋️", "a,", "5,", " ", "\u{301}", "\u{0}"])
            let prefix = rng.pick(["", "bench ", "bench 100x5 # ", "note ", "start ", "+ ", "edit ", "exercises add "])
            let repeats = rng.chance(10) ? rng.int(2_000...12_000) : rng.int(100...2_000)
            return FuzzLine(prefix + String(repeating: unit, count: repeats), .random)
        default:
            // Many valid-looking groups on one line.
            var line = rng.pick(["bench", "squat", "row", "plank", "+", "pullup"])
            for _ in 0..<rng.int(20...400) {
                line += " " + rng.pick(["100x5", "w60x10", "bw x8", "60s", "2000m 7:41", "100x5,5,4", "80x12 d", "@8",
                                        "x3", "102.5kg x5", "+20x6", "5"])
            }
            return FuzzLine(line, .random)
        }
    }

    // MARK: Mutated lines

    static func mutated(_ rng: inout SplitMix64) -> FuzzLine {
        let seeds = rng.chance(55) ? FuzzCorpus.grammarLines : FuzzCorpus.commands
        var line = Array((seeds.isEmpty ? FuzzCorpus.commands : seeds).randomElement(using: &rng)!.unicodeScalars)
        // Some corpus lines run as they are, so sessions build up sets to undo, edit and repeat.
        let edits = rng.chance(15) ? 0 : rng.int(1...3)
        for _ in 0..<edits { mutate(&line, &rng) }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: line)
        return FuzzLine(String(view), edits == 0 ? .corpus : .mutated)
    }

    static func mutate(_ s: inout [Unicode.Scalar], _ rng: inout SplitMix64) {
        let at = rng.int(0...s.count)
        switch rng.int(0...9) {
        case 0 where !s.isEmpty:
            s.remove(at: min(at, s.count - 1))
        case 1:
            s.insert(rng.chance(50) ? rng.pick(FuzzCorpus.oddScalars) : Unicode.Scalar(UInt8(rng.int(32...126))), at: at)
        case 2 where s.count >= 2:
            let i = min(at, s.count - 2)
            s.swapAt(i, i + 1)
        case 3 where !s.isEmpty:
            let from = min(at, s.count - 1), length = rng.int(1...8)
            s.insert(contentsOf: Array(s[from..<min(s.count, from + length)]), at: from)
        case 4, 5:
            // Replace a run of digits (or insert a number) with an extreme.
            let extreme = Array(rng.pick(FuzzCorpus.extremes).unicodeScalars)
            if let start = s.indices.filter({ s[$0].properties.numericType != nil }).randomElement(using: &rng) {
                var end = start
                while end < s.count, s[end].properties.numericType != nil || s[end] == "." { end += 1 }
                s.replaceSubrange(start..<end, with: extreme)
            } else {
                s.insert(contentsOf: extreme, at: at)
            }
        case 6:
            // Splice: this line's head with another line's tail.
            let other = Array(rng.pick(rng.chance(50) ? FuzzCorpus.grammarLines : FuzzCorpus.commands).unicodeScalars)
            let cut = rng.int(0...other.count)
            s = Array(s[..<at]) + Array(other[cut...])
        case 7:
            s.insert(contentsOf: Array((" " + rng.pick(FuzzCorpus.tokens) + (rng.chance(50) ? " " : "")).unicodeScalars), at: at)
        case 8 where !s.isEmpty:
            // Flip the case of a letter.
            let i = min(at, s.count - 1)
            let flipped = String(s[i]).uppercased() == String(s[i]) ? String(s[i]).lowercased() : String(s[i]).uppercased()
            s.replaceSubrange(i...i, with: Array(flipped.unicodeScalars))
        default:
            s.insert(rng.pick(["\t", "\u{A0}", "\u{3000}", " ", "\u{2028}"] as [Unicode.Scalar]), at: at)
        }
    }
}

// MARK: - Running lines in-process

private struct UncheckedSendable<T>: @unchecked Sendable { let value: T }

/// Runs each line in a task of its own so a hang fails the test instead of stalling it.
private enum Watchdog {
    static func run(timeout seconds: Double, _ body: @escaping () async -> ReplSession.Outcome) async -> ReplSession.Outcome? {
        let job = UncheckedSendable(value: body)
        return await withCheckedContinuation { continuation in
            let answer = FirstAnswer(continuation)
            let timer = Task {
                try? await Task.sleep(for: .seconds(seconds))
                if !Task.isCancelled { answer.give(nil) }
            }
            Task {
                answer.give(await job.value())
                timer.cancel()
            }
        }
    }
}

/// Resumes a continuation with whichever answer comes first: the line's outcome or the timeout.
private final class FirstAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<ReplSession.Outcome?, Never>?
    init(_ continuation: CheckedContinuation<ReplSession.Outcome?, Never>) { self.continuation = continuation }
    func give(_ outcome: ReplSession.Outcome?) {
        let waiting = lock.withLock { () -> CheckedContinuation<ReplSession.Outcome?, Never>? in
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: outcome)
    }
}

/// A REPL session in-process: a fresh database, a deterministic clock, captured output.
private struct FuzzSession {
    let env: FakeClock
    let output = CapturedOutput()
    let context: CLIContext
    let repl: ReplSession
    let db: GymLogDatabase

    init(dir: String, start: Int64 = 1_767_225_600_000, utcOffset: Int = 0, settings: Settings = Settings()) throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let env = FakeClock(millis: start, idVersion: 7)
        let output = self.output
        self.env = env
        context = CLIContext(paths: Paths(database: dir + "/gymlog.sqlite", config: dir + "/config.toml", history: dir + "/history"),
                             settings: settings,
                             environment: env.environment(utcOffset: utcOffset),
                             out: { output.out($0) }, err: { output.err($0) })
        repl = ReplSession(context: context)
        db = try context.db()
    }

    /// Every table cell by cell and every synced row, through the session's connection.
    func dump() throws -> ClientDatabaseDump { try db.read { try ClientDatabaseDump.read($0, tables: true) } }
}

/// How `ReplSession.handle` reads a line: its first word decides the command.
private func replWord(_ raw: String) -> (line: String, word: String)? {
    let line = raw.trimmingCharacters(in: .whitespaces)
    if line.isEmpty || line.hasPrefix("//") { return nil }
    return (line, line.split(separator: " ", maxSplits: 1).first.map { $0.lowercased() } ?? "")
}

/// The first words the REPL runs as commands (the tree's, plus `help` and `quit`); any other
/// line is an entry line.
private let replCommandWords: Set<String> = ReplSession.commandWords

/// The message oracle for a rejected line: one `error:` line that says what was wrong, in words
/// of the line or with an example of what to type, and never an internal error's text.
private func errorProblems(line raw: String, err: [String]) -> [String] {
    guard let (line, word) = replWord(raw) else { return ["a blank or comment line failed"] }
    guard let first = err.first else { return ["rejected without any message on stderr"] }
    var problems: [String] = []
    // Compared as bytes: `hasPrefix` compares characters, and a name that begins with a
    // combining mark (a fuzzed U+FE0F) joins the space before it into one character.
    let prefix = ["error: ", "Error: "].first { first.utf8.starts(with: $0.utf8) }
    guard let prefix else { return ["the first stderr line does not start with `error:`: \(first.prefix(200).debugDescription)"] }
    let message = String(decoding: first.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
    if message.trimmingCharacters(in: .whitespaces).isEmpty { problems.append("empty error message") }
    for noise in ["Optional(", "SQLite error", "GRDB", "Swift.", "Error Domain", "couldn’t be completed", "could not be completed", "(null)"]
    where message.contains(noise) {
        problems.append("the error shows internals (\(noise)): \(message.prefix(200).debugDescription)")
    }
    // Entry lines and `edit` changes: the parser's message, the line echoed and a caret under
    // the offending part.
    var parseError: EntryError?
    var echoed = line
    // A failing line whose first word is a near-miss of a command is answered with that command
    // (`expotr` -> `export`) unless an exercise has that name; the oracle takes either answer.
    let typedWord = line.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
    let near = Gymlog.nearestCommand(to: typedWord, rest: line.split(separator: " ").dropFirst().map(String.init),
                                     among: ReplSession.suggestedWords)
    if let near, message == "Unknown command '\(typedWord)'. Did you mean `\(near)`? (`help` lists every command.)" {
        if err.count != 1 { problems.append("a mistyped command printed more than its one line: \(err)") }
    } else if !replCommandWords.contains(word), case .failure(let e) = EntryParser.parse(line) {
        parseError = e
    } else if word == "log", let words = try? shellWords(line.dropFirst(word.count).trimmingCharacters(in: .whitespaces)),
              !words.isEmpty, !words.contains(where: looksLikeFlag),
              case .failure(let e) = EntryParser.parse(words.joined(separator: " ")) {
        // `log WORDS`: the words joined, as `gymlog log` takes them.
        parseError = e
        echoed = words.joined(separator: " ")
    } else if word == "edit" {
        let rest = line.dropFirst(word.count).trimmingCharacters(in: .whitespaces)
        let parts = rest.split(separator: " ", maxSplits: 1)
        let patch = parts.count == 2 && Int(parts[0]) != nil ? String(parts[1]) : rest
        if !patch.isEmpty, case .failure(let e) = EntryParser.parse("+ " + patch) {
            let shift = line.count - patch.count - 2
            parseError = EntryError(e.message, at: Span(max(0, e.span.start + shift), max(0, e.span.end + shift)))
        }
    }
    if let e = parseError {
        // As printed: a control character the lexer took for a space (NEL, CR, VT) shows as U+FFFD;
        // the message once, the caret alone under it, wide characters two columns.
        let expected = (["error: " + e.message] + e.pointing(into: echoed, message: false, columns: TerminalText.width(of:)).split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            .map(TerminalText.safe)
        if err != expected {
            problems.append("a parse error printed \(err.map { String($0.prefix(200)) }) instead of \(expected.map { String($0.prefix(200)) })")
        }
        let chars = Array(echoed)
        if e.span.start < 0 || e.span.end > chars.count || e.span.start > e.span.end {
            problems.append("the error span \(e.span) is outside the line (\(chars.count) characters)")
        } else {
            let offending = String(chars[e.span.start..<e.span.end]).trimmingCharacters(in: .whitespaces)
            // A control character is named by its code point rather than printed.
            let codePoint = offending.unicodeScalars.first.map { "U+" + String(format: "%04X", $0.value) } ?? "-"
            if !(offending.isEmpty || e.message.contains(offending) || e.message.contains("`") || e.message.contains(codePoint)) {
                problems.append("the message neither quotes \(offending.prefix(80).debugDescription) nor gives an example: \(e.message.debugDescription)")
            }
        }
        return problems
    }
    // Other rejections name a word of the line or show what to type; ArgumentParser's usage
    // errors print the usage.
    // Words as printed: control characters show as U+FFFD.
    let allWords = Set(TerminalText.safe(line).split(whereSeparator: { $0.isWhitespace || $0 == "\"" || $0 == "'" }).map(String.init))
    let words = allWords.filter { $0.count >= 2 || $0.allSatisfy(\.isNumber) }
    let mentions = words.contains { message.localizedCaseInsensitiveContains($0) } || message.contains(word)
        || allWords.contains { message.contains("'\($0)'") }
    // A value that cannot be stored is named by its offending character or its size.
    let namesValue = message.contains("U+") || message.contains(" bytes long")
    let suggests = message.contains("`") || message.contains("e.g.") || err.contains { $0.hasPrefix("Usage: ") }
    if !(mentions || namesValue || suggests) {
        problems.append("the message names nothing from the line and suggests nothing: \(message.prefix(200).debugDescription)")
    }
    return problems
}

/// Counts for the summary line.
private struct FuzzCounts {
    var random = 0, mutated = 0, corpus = 0, rejected = 0, accepted = 0, wrote = 0
    mutating func count(_ line: FuzzLine) {
        switch line.origin {
        case .random: random += 1
        case .mutated: mutated += 1
        case .corpus: corpus += 1
        }
    }
    var lines: String { "lines=\(random + mutated + corpus) random=\(random) mutated=\(mutated) corpus=\(corpus)" }
    var line: String { lines + " rejected=\(rejected) accepted=\(accepted) wrote=\(wrote)" }
}

@Suite struct ReplFuzzTests {
    /// Lines per in-process session: a fresh database keeps the per-line dumps cheap.
    static let linesPerSession = 250

    @Test func fuzzedLinesNeverCrashHangOrHalfWrite() async throws {
        let seed = ReplFuzzKnobs.seed
        var rng = SplitMix64(seed: seed ^ 0x5245_504C)
        let total = 4_000 * ReplFuzzKnobs.scale
        let root = try temporaryDirectory("gymlog-repl-fuzz")
        var counts = FuzzCounts()
        var failures = 0
        let started = Date()

        func fail(_ what: String, session: Int, index: Int, line: FuzzLine) {
            failures += 1
            guard failures <= 25 else { return }
            Issue.record("ReplFuzzTests \(ReplFuzzKnobs.replay("ReplFuzzTests")) session \(session) line \(index) \(line.origin.rawValue) \(line.shown): \(what)")
        }

        var done = 0
        sessions: for session in 0..<((total + Self.linesPerSession - 1) / Self.linesPerSession) {
            let dir = root + "/s\(session)"
            // Given a fresh database, a deterministic clock and, half the time, a server that is down
            let fixture = try FuzzSession(dir: dir, start: 1_767_225_600_000 + Int64(rng.int(0...30_000_000)) * 1000,
                                          utcOffset: rng.pick([0, 3600, -18_000, 19_800]),
                                          settings: Settings(defaultUnit: rng.chance(70) ? .kg : .lb,
                                                             server: rng.chance(50) ? "http://127.0.0.1:9" : nil, token: "glt_fuzz"))
            let (env, output, repl, db) = (fixture.env, fixture.output, fixture.repl, fixture.db)
            var before = try fixture.dump()

            for index in 0..<min(Self.linesPerSession, total - done) {
                let fuzzed = FuzzGenerator.line(&rng)
                counts.count(fuzzed)
                env.advance(rng.chance(3) ? Int64(rng.int(2...30)) * 3_600_000 : Int64(rng.int(0...180_000)))
                var text = fuzzed.text
                // `export` writes CSV to standard output or to --out: keep both inside the test's folder.
                if replWord(text)?.word == "export" {
                    text = text.replacingOccurrences(of: "/", with: "") + " --out \(dir)/export.csv"
                }

                // When the line is handled as the REPL handles it
                guard let outcome = await Watchdog.run(timeout: 30, { await repl.handle(text) }) else {
                    fail("no answer within 30 s (hang)", session: session, index: index, line: fuzzed)
                    break sessions
                }
                let (_, err) = output.take(plain: true)
                let after = try fixture.dump()
                let word = replWord(text)?.word ?? ""

                // Then a rejected line wrote nothing and said why; an accepted one kept the outbox whole
                var problems: [String] = []
                switch outcome {
                case .failed:
                    counts.rejected += 1
                    problems += errorProblems(line: text, err: err)
                    var expected = before, actual = after
                    if word == "sync" {
                        // A failed sync records the server and its error for `status`, and when
                        // the sync that runs by itself tries again; nothing else.
                        for name in ["server", "last_error", "next_try_at", "backoff_ms", "retry_stopped", "stop_shown"] {
                            expected.mask(column: name, of: "sync_state"); actual.mask(column: name, of: "sync_state")
                        }
                    }
                    if expected.tables != actual.tables {
                        problems.append("a rejected line changed the database: \(ClientDatabaseDump.difference(before, after))")
                    }
                case .ok, .quit:
                    counts.accepted += 1
                    if let bad = err.first(where: { $0.hasPrefix("error:") || $0.hasPrefix("Error:") }) {
                        problems.append("an accepted line printed an error: \(bad.prefix(200).debugDescription)")
                    }
                    if !replCommandWords.contains(word), replWord(text) != nil, case .failure(let e) = EntryParser.parse(replWord(text)!.line) {
                        problems.append("the parser rejects the line (\(e.message)) but the REPL accepted it")
                    }
                    if before.tables != after.tables {
                        counts.wrote += 1
                        problems += WritePipelineInvariant.violations(from: before, to: after)
                        problems += WritePipelineInvariant.violations(after, acknowledgedThrough: nil, synced: false)
                    }
                }
                for p in problems { fail(p, session: session, index: index, line: fuzzed) }
                before = after
                done += 1
            }
            // And the whole file is sound and every row agrees with its outbox events
            let integrity = try db.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
            #expect(integrity == ["ok"], "\(ReplFuzzKnobs.replay("ReplFuzzTests")) session \(session)")
            for p in WritePipelineInvariant.violations(before, acknowledgedThrough: nil, synced: false).prefix(5) {
                Issue.record("ReplFuzzTests \(ReplFuzzKnobs.replay("ReplFuzzTests")) session \(session) at the end: \(p)")
            }
        }
        if failures == 0 { try? FileManager.default.removeItem(atPath: root) }
        let seconds = Int(Date().timeIntervalSince(started))
        print("reliability: repl-fuzz-in-process seed=\(seed) scale=\(ReplFuzzKnobs.scale) \(counts.line) seconds=\(seconds) outcome=\(failures == 0 ? "ok" : "failed")")
    }
}

// MARK: - The real binary

@Suite struct ReplFuzzBinaryTests {
    @Test func aFuzzedSessionPipedIntoGymlogExitsCleanlyAndLeavesASoundDatabase() throws {
        // Given a few hundred fuzzed lines (no `quit`, which would end the session early) and,
        // half the time, a configured sync server that is down
        let seed = ReplFuzzKnobs.seed
        var rng = SplitMix64(seed: seed ^ 0x4249_4E41)
        let temporaryHome = try TemporaryHome(prefix: "gymlog-repl-fuzz-bin")
        let home = temporaryHome.root
        let serverDown = rng.chance(50)
        if serverDown {
            try "[sync]\nserver = \"http://127.0.0.1:9\"\ntoken = \"glt_fuzz\"\n".write(toFile: temporaryHome.config, atomically: true, encoding: .utf8)
        }
        var counts = FuzzCounts()
        var input: [UInt8] = []
        var lines = 0
        while lines < 300 * ReplFuzzKnobs.scale {
            var fuzzed = FuzzGenerator.line(&rng)
            let word = replWord(fuzzed.text)?.word
            if ["quit", "exit", "q"].contains(word) { continue }
            // `export --out` stays in the session's folder (the process runs there).
            if word == "export" { fuzzed.bytes.removeAll { $0 == UInt8(ascii: "/") } }
            counts.count(fuzzed)
            input += fuzzed.bytes + [10]
            lines += 1
        }
        _ = FileManager.default.createFile(atPath: home + "/input.txt", contents: Data(input))

        // When they are piped into `gymlog` in one process
        let started = Date()
        let limit = 120.0 * Double(ReplFuzzKnobs.scale)
        let run = try ProcessRunner.run(builtProducts.appendingPathComponent("gymlog"), [], stdin: Data(input),
                                        environment: temporaryHome.environment, currentDirectory: home, timeout: limit)
        try run.stdout.write(toFile: home + "/stdout.txt", atomically: true, encoding: .utf8)
        try run.stderr.write(toFile: home + "/stderr.txt", atomically: true, encoding: .utf8)
        let where_ = "ReplFuzzBinaryTests \(ReplFuzzKnobs.replay("ReplFuzzBinaryTests")); input, output and database kept in \(home)"
        if run.timedOut {
            Issue.record("gymlog did not finish \(lines) lines within \(Int(limit)) s (hang); last output: \(run.stdout.suffix(300).debugDescription). \(where_)")
            return
        }
        let seconds = Date().timeIntervalSince(started)

        // Then it exited by itself (0, or 1 because some lines failed), never by a signal
        let stderr = run.stderr
        var ok = true
        if run.signalled || ![0, 1].contains(run.status) {
            ok = false
            Issue.record("gymlog ended by \(run.signalled ? "signal" : "exit") \(run.status); stderr ends \(stderr.suffix(500).debugDescription). \(where_)")
        }
        for crash in ["Fatal error", "fatal error", "Illegal instruction", "Segmentation fault", "SQLite error", "database is locked"]
        where stderr.contains(crash) {
            ok = false
            Issue.record("stderr shows \(crash.debugDescription). \(where_)")
        }
        // And the file passes SQLite's integrity check, and every row has its outbox events
        let dump = try #require(try ClientDatabaseDump.read(temporaryHome.database, rows: .all))
        for p in dump.integrityProblems { ok = false; Issue.record("\(p). \(where_)") }
        for p in WritePipelineInvariant.violations(dump, acknowledgedThrough: nil, synced: false).prefix(5) { ok = false; Issue.record("\(p). \(where_)") }
        let errors = stderr.split(separator: "\n").filter { $0.hasPrefix("error:") || $0.hasPrefix("Error:") }.count
        let sets = dump.rowCounts["sets"] ?? 0
        if ok { try? FileManager.default.removeItem(atPath: home) } else { TemporaryFiles.keep(home) }
        print("reliability: repl-fuzz-binary seed=\(seed) scale=\(ReplFuzzKnobs.scale) \(counts.lines) error_lines=\(errors) sets=\(sets) events=\(dump.outbox.count) server=\(serverDown ? "down" : "none") exit=\(run.status) seconds=\(Int(seconds)) outcome=\(ok ? "ok" : "failed")")
    }
}

// MARK: - Regressions found by the fuzzer

@Suite final class ReplFuzzRegressionTests {
    private let dir: String
    init() throws { dir = try temporaryDirectory("gymlog-repl-regress") }
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    private func session() throws -> FuzzSession { try FuzzSession(dir: dir) }

    /// Runs `line`, expecting it to be refused with a message containing `says` and no change at all.
    private func expectRefused(_ s: FuzzSession, _ line: String, says: String,
                               sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let before = try s.dump()
        let outcome = await s.repl.handle(line)
        let (_, err) = s.output.take(plain: true)
        let after = try s.dump()
        #expect(outcome == .failed, "\(line.prefix(80).debugDescription)", sourceLocation: sourceLocation)
        #expect(err.first?.hasPrefix("error: ") == true && err.first?.contains(says) == true,
                "\(line.prefix(80).debugDescription): \(err.map { $0.prefix(200) })", sourceLocation: sourceLocation)
        #expect(before.tables == after.tables, "\(line.prefix(80).debugDescription) changed \(ClientDatabaseDump.difference(before, after))",
                sourceLocation: sourceLocation)
    }

    @Test func controlCharactersAreRefusedWhereverTextIsTyped() async throws {
        // Given a session with one set (SQLite used to keep "a" of "a\0b" while the outbox sent
        // "a\0b", which the server refuses: the row and its event disagreed and never synced)
        let s = try session()
        #expect(await s.repl.handle("bench 100x5") == .ok)
        _ = s.output.take(plain: true)
        // When text with a NUL is typed anywhere, then it is refused and nothing is written
        try await expectRefused(s, "bench 100x5 # a\u{0}b", says: "unexpected control character U+0000")
        try await expectRefused(s, "sq\u{0}uat 100x5", says: "unexpected control character U+0000")
        try await expectRefused(s, "edit # a\u{0}b", says: "unexpected control character U+0000")
        try await expectRefused(s, "note felt\u{0}strong", says: "The note contains the control character U+0000 (NUL) at character 5")
        try await expectRefused(s, "start push\u{0}day", says: "The workout name contains the control character U+0000 (NUL) at character 5")
        try await expectRefused(s, "exercises add front\u{0}squat", says: "The exercise name contains the control character U+0000 (NUL)")
        try await expectRefused(s, "exercises rename bench be\u{0}nch", says: "The exercise name contains the control character U+0000 (NUL)")
        try await expectRefused(s, "exercises alias b\u{0}p bench", says: "The alias contains the control character U+0000 (NUL)")
        // And other control characters are refused in set lines, named by code point
        try await expectRefused(s, "bench\u{1B}[A 100x5", says: "unexpected control character U+001B")
        // And in names and notes, where they used to be kept and later printed raw: an escape
        // sequence that sets the window title or writes the clipboard, a one-byte CSI, a
        // carriage return that overprints the line, a bell, a delete
        try await expectRefused(s, "note felt \u{1B}]52;c;cm0gLXJmIH4=\u{7}strong",
                          says: "The note contains the control character U+001B (Escape) at character 6, which gymlog does not store (printed, it could drive your terminal)")
        try await expectRefused(s, "start push\u{9B}2Jday", says: "The workout name contains the control character U+009B (CSI) at character 5")
        try await expectRefused(s, "exercises add front\rsquat", says: "The exercise name contains the control character U+000D (carriage return)")
        try await expectRefused(s, "exercises rename bench be\u{7}nch", says: "U+0007 (bell)")
        try await expectRefused(s, "exercises alias bp\u{7F} bench", says: "The alias contains the control character U+007F (delete)")
        try await expectRefused(s, "note two\u{85}lines", says: "U+0085")
        // And a tab is fine in a note (it is text), while ordinary non-ASCII text is untouched
        #expect(await s.repl.handle("note felt\tstrong, «ça va» 💪") == .ok)
        let note = try s.db.read { try String.fetchOne($0, sql: "SELECT note FROM workouts") }
        #expect(note == "felt\tstrong, «ça va» 💪")
    }

    @Test func controlCharactersFromElsewhereArePrintedHarmless() async throws {
        // Given a workout whose name and notes hold escape sequences, as another device, an old
        // version or a hand-edited database could have stored them (typing them is refused)
        let s = try session()
        #expect(await s.repl.handle("bench 100x5 # first") == .ok)
        try await s.db.queue.write { db in
            try db.execute(sql: "UPDATE workouts SET name = ?, note = ?", arguments: ["Push\u{1B}]0;pwned\u{7}", "felt \u{1B}[2Jgood\r"])
            try db.execute(sql: "UPDATE sets SET note = ?", arguments: ["\u{1B}]52;c;cm0gLXJm\u{1B}\\ \u{9B}8m"])
        }
        _ = s.output.take(plain: true)
        // When they are shown, then no control character reaches the terminal, only the text
        for command in ["show", "history", "history bench", "prs"] {
            #expect(await s.repl.handle(command) == .ok, "\(command)")
            let (out, err) = s.output.take(plain: true)
            let printed = (out + err).joined(separator: "\n")
            #expect(!printed.unicodeScalars.contains { ControlCharacters.isForbidden($0, lineBreaks: true) },
                    "\(command) printed \(printed.debugDescription)")
            if command != "prs" { #expect(printed.contains("52;c;cm0gLXJm"), "\(command): \(printed.debugDescription)") }
        }
        // And the prompt, which shows the workout's name, is clean too
        #expect(s.repl.prompt() == "[Push\u{FFFD}]0;pwned\u{FFFD} · 1 set · rest 0:00] > ")
    }

    @Test func textTooLongToSyncIsRefusedAndTheLimitItselfIsKept() async throws {
        // Given the server's limit of 16 KiB per text value (a longer note used to be saved and
        // then refused by every sync, forever)
        let s = try session()
        #expect(await s.repl.handle("bench 100x5") == .ok)
        _ = s.output.take(plain: true)
        // When longer text is typed, then it is refused with its size and nothing is written
        try await expectRefused(s, "note " + String(repeating: "x", count: maxTextFieldBytes + 1), says: "The note is 16385 bytes long")
        try await expectRefused(s, "bench 100x5 # " + String(repeating: "é", count: 9_000), says: "The note is 18000 bytes long")
        try await expectRefused(s, "exercises add " + String(repeating: "long", count: 4_300), says: "The exercise name is 17200 bytes long")
        try await expectRefused(s, "edit # " + String(repeating: "y", count: 20_000), says: "The note is 20000 bytes long")
        // And text of exactly the limit is saved, in the row and in its outbox event alike
        #expect(await s.repl.handle("note " + String(repeating: "z", count: maxTextFieldBytes)) == .ok)
        #expect(WritePipelineInvariant.violations(try s.dump(), acknowledgedThrough: nil, synced: false) == [])
    }

    @Test func oneLineLogsAtMostAHundredSets() async throws {
        // Given a pasted line of 9,800 groups of 50 sets (it used to log 490,000 sets, for hours)
        let s = try session()
        let huge = "bench " + String(repeating: "1x1x50 ", count: 9_800)
        // When it is typed, then it is refused at the group that goes past 100 sets
        try await expectRefused(s, huge, says: "'1x1x50' goes past 100 sets, the most one line logs")
        // And 100 sets in one line still log
        #expect(await s.repl.handle("bench 100x5x50 100x5x50") == .ok)
        #expect(try s.db.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sets") } == 100)
    }

    @Test func commandWordsInCapitalsRunTheCommand() async throws {
        // Given a set logged with caps lock on (`LOG bench 100x5` used to answer with the usage
        // of `gymlog repl`)
        let s = try session()
        #expect(await s.repl.handle("LOG Bench 100x5") == .ok)
        #expect(s.output.take(plain: true).out.contains { $0.contains("Bench #1") })
        // When `SHOW` and `History` are typed, then they run
        #expect(await s.repl.handle("SHOW") == .ok)
        #expect(s.output.take(plain: true).out.contains { $0.contains("Bench  100kg x 5") })
        #expect(await s.repl.handle("History bench") == .ok)
        #expect(s.output.take(plain: true).err == [])
    }

    @Test func logInTheReplReadsItsWordsAsASetLineLikeGymlogLog() async throws {
        // Given `log` with a negative load (ArgumentParser used to take `-20x8` for an option:
        // "Unknown option '-20x8'. Did you mean '--db'?")
        let s = try session()
        // When it is typed, then the entry parser explains it, as `gymlog log dip -20x8` does
        try await expectRefused(s, "log dip -20x8", says: "write assisted bodyweight as `bw-20`")
        #expect(await s.repl.handle("log dip bw-20x8") == .ok)
        #expect(s.output.take(plain: true).out.contains { $0.contains("bw-20kg x 8") })
        // And flags still reach ArgumentParser
        #expect(await s.repl.handle("log --help") == .ok)
        #expect(s.output.take(plain: true).err.contains { $0.contains("USAGE") || $0.contains("Usage") })
    }

    @Test func aCommandOfThousandsOfWordsIsRefusedAtOnce() async throws {
        // Given a pasted line of 13,800 words after a command word (ArgumentParser took a
        // minute over it, quadratic in the word count)
        let s = try session()
        // When it is typed, then it is refused before parsing, naming the command
        try await expectRefused(s, "exercises add " + String(repeating: "100x5 ", count: 13_800),
                          says: "`exercises` got 13802 words; a command takes at most 200")
        try await expectRefused(s, "history " + String(repeating: "x ", count: 500), says: "`history` got 501 words")
    }

    @Test func editWithNothingLoggedSaysWhatToDo() async throws {
        let s = try session()
        try await expectRefused(s, "edit # felt easy", says: "There is no set to edit: none is logged yet; log one first, e.g. `bench 100x5`.")
        try await expectRefused(s, "edit -0 bw x8", says: "There is no workout yet, so there is no set #0; log a set first, e.g. `bench 100x5`.")
        try await expectRefused(s, "delete 3", says: "There is no workout yet, so there is no set #3; log a set first")
    }
}
