import Foundation
import Testing
@testable import GymLogCore
import SplitMix

// MARK: - The fixture table

/// One row of fixtures/entry-grammar.tsv.
struct GrammarRow: Sendable, CustomTestStringConvertible {
    var lineNumber: Int
    var input: String
    var expected: String

    var testDescription: String { "entry-grammar.tsv:\(lineNumber) \(input.debugDescription)" }
}

enum GrammarFixture {
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // GymLogCoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("fixtures/entry-grammar.tsv")

    /// The rows, or a single row that fails loudly when the file is missing or malformed.
    static let rows: [GrammarRow] = {
        guard let data = FileManager.default.contents(atPath: url.path),
              let text = String(data: data, encoding: .utf8) else {
            return [GrammarRow(lineNumber: 0, input: "<missing>", expected: "cannot read \(url.path)")]
        }
        var rows: [GrammarRow] = []
        // Split on "\n" only: inputs may hold characters that Swift's line splitting would treat as breaks.
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.hasPrefix("#") || line.allSatisfy({ $0 == " " }) { continue }
            // The input is everything before the last tab, so inputs may contain tabs.
            guard let tab = line.lastIndex(of: "\t") else {
                rows.append(GrammarRow(lineNumber: index + 1, input: String(line), expected: "<no tab in row>"))
                continue
            }
            rows.append(GrammarRow(lineNumber: index + 1, input: String(line[..<tab]),
                                   expected: String(line[line.index(after: tab)...])))
        }
        return rows
    }()
}

/// The fixture form of a parse result: the canonical rendering, or `error@start-end: message`.
func rendered(_ result: Result<EntryLine, EntryError>) -> String {
    switch result {
    case .success(let line): line.canonical
    case .failure(let error): "error@\(error.span.start)-\(error.span.end): \(error.message)"
    }
}

@Suite("Entry grammar fixture")
struct EntryGrammarFixtureTests {
    @Test("fixture table is present and substantial")
    func tableIsSubstantial() {
        #expect(GrammarFixture.rows.count >= 120)
        #expect(GrammarFixture.rows.allSatisfy { $0.lineNumber > 0 && $0.expected != "<no tab in row>" })
    }

    @Test("every fixture row parses as expected", arguments: GrammarFixture.rows)
    func row(_ row: GrammarRow) {
        // Given a row of the table
        // When its input is parsed
        let result = EntryParser.parse(row.input)
        let actual = rendered(result)

        // Then the result matches the expectation
        if row.expected.hasPrefix("error@") {
            guard let colon = row.expected.range(of: ": ") else {
                Issue.record("line \(row.lineNumber): malformed error expectation \(row.expected.debugDescription)")
                return
            }
            let expectedSpan = String(row.expected[..<colon.lowerBound])
            let expectedMessage = String(row.expected[colon.upperBound...])
            guard case .failure(let error) = result else {
                Issue.record("line \(row.lineNumber): \(row.input.debugDescription) parsed as \(actual), expected \(row.expected)")
                return
            }
            #expect("error@\(error.span.start)-\(error.span.end)" == expectedSpan,
                    "line \(row.lineNumber): \(row.input.debugDescription) -> \(actual)")
            #expect(error.message.contains(expectedMessage),
                    "line \(row.lineNumber): \(row.input.debugDescription) -> \(actual)")
        } else {
            #expect(actual == row.expected, "line \(row.lineNumber): \(row.input.debugDescription)")
        }
    }
}

// MARK: - Properties

enum Fuzz {
    static let grammarTokens: [String] = [
        "bench", "incline db press", "Überkopfdrücken", "pullup", "row", "+", "-", "x", "X", "×", "@", "#", ",",
        ".", ":", "100", "102.5", "0", "5", "999", "1000", "2000", "2000.001", "0.0001", "99999999999999999999",
        "kg", "lbs", "KG", "pounds", "bw", "bwx", "w", "d", "f", "warmup", "drop", "failure", "s", "sec", "min",
        "m", "km", "mi", "yd", "h", "7:41", "1:02:03", "1:3", "24:00:01", "undo", "rpe", "rir", "rir2", "@8.5", "x5", "x5x3",
        "5,5,4", "100x5", "w60x10", "bw+20kg", "bw-20", "2m30s", "60s", "# note", " ", " ", "\t", "  ",
    ]

    static let junkScalars: [Unicode.Scalar] = [
        "\u{0}", "\u{7}", "\u{1B}", "\u{7F}", "\u{85}", "\u{A0}", "\u{200B}", "\u{2028}", "\u{301}", "\u{308}",
        "\u{FE0F}", "\u{FEFF}", "\u{1F3CB}", "\u{1F4AA}", "\u{1F1E9}", "\u{1F1EA}", "\u{D55C}", "ß", "ü", "\"",
        "\\", "'", "`", "!", "?", "%", "=", "/", "*", "(", ")", "[", "]", "\r", "\n", "٣", "½", "−",
    ]

    static func randomScalar(_ rng: inout SplitMix64) -> Unicode.Scalar {
        if Bool.random(using: &rng) { return junkScalars.randomElement(using: &rng)! }
        while true {
            if let scalar = Unicode.Scalar(UInt32.random(in: 0...0x2FFFF, using: &rng)) { return scalar }
        }
    }

    static func line(_ rng: inout SplitMix64, seeds: [String]) -> String {
        var line = ""
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            // Grammar tokens, glued or spaced, with an occasional junk character.
            for _ in 0..<Int.random(in: 0...12, using: &rng) {
                if Int.random(in: 0..<6, using: &rng) == 0 {
                    line.unicodeScalars.append(randomScalar(&rng))
                } else {
                    line += grammarTokens.randomElement(using: &rng)!
                }
                if Bool.random(using: &rng) { line += " " }
            }
        case 1:
            // A fixture input, mutated a few times.
            line = seeds.randomElement(using: &rng) ?? "bench 100x5"
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                var scalars = Array(line.unicodeScalars)
                let at = Int.random(in: 0...scalars.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0 where !scalars.isEmpty: scalars.remove(at: min(at, scalars.count - 1))
                case 1: scalars.insert(randomScalar(&rng), at: at)
                case 2: scalars.insert(contentsOf: grammarTokens.randomElement(using: &rng)!.unicodeScalars, at: at)
                default: scalars.insert(contentsOf: scalars[at...].prefix(3), at: at)
                }
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                line = String(view)
            }
        default:
            // Pure junk.
            for _ in 0..<Int.random(in: 0...40, using: &rng) {
                line.unicodeScalars.append(randomScalar(&rng))
            }
        }
        return line
    }
}

@Suite("Entry parser properties")
struct EntryParserPropertyTests {
    @Test("never crashes; errors point inside the line with a message")
    func fuzz() {
        // Given 5,000 seeded lines mixing grammar tokens, fixture inputs and junk
        var rng = SplitMix64(seed: 0x6779_6D6C_6F67)
        let seeds = GrammarFixture.rows.map(\.input)
        var successes = 0, failures = 0
        for n in 0..<5_000 {
            let line = Fuzz.line(&rng, seeds: seeds)
            let count = line.count

            // When each is parsed
            let result = EntryParser.parse(line)

            // Then it is a well-formed success or a well-formed error, and parsing is deterministic
            switch result {
            case .success(let entry):
                successes += 1
                if case .log(let exercise, let sets) = entry {
                    #expect(!exercise.name.isEmpty && !sets.isEmpty, "case \(n): \(line.debugDescription)")
                    #expect(sets.count <= EntryParser.maxSetsPerLine, "case \(n): \(line.debugDescription)")
                    // Accepted text is storable: no NUL or other control character.
                    let text = exercise.name + sets.compactMap(\.note).joined()
                    #expect(!text.contains(where: isControl), "case \(n): \(line.debugDescription)")
                    #expect(exercise.span.start >= 0 && exercise.span.start < exercise.span.end
                                && exercise.span.end <= count, "case \(n): \(line.debugDescription)")
                    for set in sets {
                        #expect(set.reps.map { SetLimits.performedReps.contains($0) } ?? true)
                        #expect(set.durationSeconds.map { (1...86_400).contains($0) } ?? true)
                        #expect(set.reps != nil || set.durationSeconds != nil || set.distance != nil)
                    }
                }
                _ = entry.canonical
            case .failure(let error):
                failures += 1
                #expect(error.span.start >= 0 && error.span.start <= error.span.end && error.span.end <= count,
                        "case \(n): \(line.debugDescription) -> \(error.span) \(error.message)")
                #expect(!error.message.isEmpty, "case \(n): \(line.debugDescription)")
                _ = error.pointing(into: line)
            }
            #expect(EntryParser.parse(line) == result, "case \(n): \(line.debugDescription)")
        }
        // The generator is meant to exercise both paths.
        #expect(successes > 100 && failures > 100)
    }

    @Test("very long lines parse")
    func longLines() {
        // Given a line with 2,000 name words and 50 groups
        let name = Array(repeating: "long", count: 2_000).joined(separator: " ")
        let groups = (1...50).map { "\($0)x\($0)" }.joined(separator: " ")

        // When it is parsed
        let result = EntryParser.parse(name + " " + groups + " # ok")

        // Then every group becomes a set with the note
        guard case .success(.log(let exercise, let sets)) = result else {
            Issue.record("expected a log line, got \(rendered(result))")
            return
        }
        #expect(exercise.name == name)
        #expect(exercise.span == Span(0, name.count))
        #expect(sets.count == 50)
        #expect(sets.last == SetSpec(load: .weight(Fixed(50), nil), reps: 50, note: "ok"))
    }
}

// MARK: - Direct checks

@Suite("Entry parser values and columns")
struct EntryParserDirectTests {
    @Test("groups, modifiers and the note land on the right sets")
    func groupsAndModifiers() {
        let result = EntryParser.parse("bench w60x10 100kg x3x2 @8.5 f # heavy")
        let warmup = SetSpec(kind: .warmup, load: .weight(Fixed(60), nil), reps: 10, note: "heavy")
        let top = SetSpec(kind: .failure, load: .weight(Fixed(100), .kg), reps: 3,
                          rpe: Fixed(thousandths: 8_500), note: "heavy")
        #expect(result == .success(.log(exercise: ExerciseMention(name: "bench", span: Span(0, 5)),
                                        sets: [warmup, top, top])))
    }

    @Test("timed, distance and bodyweight sets carry exact values")
    func measures() {
        #expect(EntryParser.parse("row 2000m 7:41") == .success(.log(
            exercise: ExerciseMention(name: "row", span: Span(0, 3)),
            sets: [SetSpec(durationSeconds: 461, distance: Distance(Fixed(2000), .m))])))
        #expect(EntryParser.parse("pullup bw-12.5kg x8") == .success(.log(
            exercise: ExerciseMention(name: "pullup", span: Span(0, 6)),
            sets: [SetSpec(load: .bodyweightPlus(Fixed(thousandths: -12_500), .kg), reps: 8)])))
    }

    @Test("repeat lines become patches", arguments: [
        ("+", SetPatch()),
        ("+ 102.5", SetPatch(load: .weight(Fixed(thousandths: 102_500), nil))),
        ("+ x6", SetPatch(reps: 6)),
        ("+102.5x6x2 @9", SetPatch(load: .weight(Fixed(thousandths: 102_500), nil), reps: 6,
                                   rpe: Fixed(9), count: 2)),
        ("+ bw+10 d # last", SetPatch(kind: .drop, load: .bodyweightPlus(Fixed(10), nil), note: "last")),
        ("+ x4 rir1.5", SetPatch(reps: 4, rir: Fixed(thousandths: 1500))),
        ("+ #", SetPatch()),
    ])
    func patches(_ line: String, _ patch: SetPatch) {
        #expect(EntryParser.parse(line) == .success(.repeatLast(patch)))
    }

    @Test("undo in any case, nothing else")
    func undo() {
        #expect(EntryParser.parse("  UnDo\t") == .success(.undo))
        #expect(EntryParser.parse("undo 3") == .failure(EntryError("undo takes no arguments; type `undo` alone",
                                                                   at: Span(5, 6))))
    }

    @Test("error columns count characters as seen, not bytes or scalars", arguments: [
        // (line, start of the offending token)
        ("bench 100x5 @11", 12),
        ("\t  bench 100x5 @11", 15),
        ("Überkopfdrücken 0x5", 16),
        ("U\u{308}berkopfdru\u{308}cken 0x5", 16),   // decomposed umlauts: still one column each
        ("🏋️‍♀️ press 50x5 foo", 13),                  // one emoji grapheme is one column
        ("bench 100x5,5,4x2", 15),
        ("bench 102,5x5", 6),
        ("plank 24:00:01", 6),
    ])
    func columns(_ line: String, _ start: Int) {
        guard case .failure(let error) = EntryParser.parse(line) else {
            Issue.record("\(line.debugDescription) should be an error")
            return
        }
        #expect(error.span.start == start, "\(line.debugDescription): \(error.message)")
        // The caret line puts the caret under the token.
        let caretLine = error.pointing(into: line, indent: "").split(separator: "\n", omittingEmptySubsequences: false)[1]
        #expect(caretLine.prefix(while: { $0 == " " }).count == start)
    }

    @Test("control characters are refused and named by code point", arguments: [
        // (line, column of the control character, code point)
        ("bench 100x5 # a\u{0}b", 15, "U+0000"),
        ("sq\u{0}uat 100x5", 2, "U+0000"),
        ("bench\u{1B}[A 100x5", 5, "U+001B"),
        ("bench 100x5\u{8}", 11, "U+0008"),
        ("\u{7F}", 0, "U+007F"),
        ("+ x5\u{9B}", 4, "U+009B"),
    ])
    func controlCharacters(_ line: String, _ column: Int, _ code: String) {
        // SQLite cuts text at a NUL, the sync server refuses it, and an echoed escape garbles the terminal.
        #expect(EntryParser.parse(line) == .failure(EntryError("unexpected control character \(code); remove it (type plain text)",
                                                               at: Span(column, column + 1))))
    }

    @Test("whitespace control characters are still spaces")
    func whitespaceControls() {
        for line in ["bench\t100x5", "bench\u{B}100x5", "bench\u{C}100x5", "bench\r100x5", "bench\u{85}100x5"] {
            #expect(EntryParser.parse(line) == .success(.log(exercise: ExerciseMention(name: "bench", span: Span(0, 5)),
                                                              sets: [SetSpec(load: .weight(Fixed(100), nil), reps: 5)])),
                    "\(line.debugDescription)")
        }
    }

    @Test("the echoed line keeps one column per character so the caret lines up")
    func echo() {
        // Given a line with a tab, a carriage return and a NUL before the offending token
        let line = "a\tb\r\u{0}c 100x5 @11"
        let error = EntryError("bad", at: Span(12, 15))
        // When it is echoed, then whitespace shows as a space and a control character as U+FFFD
        #expect(error.pointing(into: line, indent: "") == "a b \u{FFFD}c 100x5 @11\n" + String(repeating: " ", count: 12) + "^^^ bad")
    }

    @Test("the empty line and a lone note are errors")
    func emptyLines() {
        #expect(EntryParser.parse("") == .failure(EntryError("empty line; type a set, e.g. `bench 100x5`",
                                                             at: Span(0, 0))))
        guard case .failure(let error) = EntryParser.parse("   # hi") else {
            Issue.record("a lone note should be an error")
            return
        }
        #expect(error.span == Span(3, 4))
    }
}

@Suite struct UUIDParsingTests {
    @Test func parsesWhatFoundationParsesAndRejectsTheRest() {
        for _ in 0..<2_000 {
            let id = UUID()
            #expect(parseUUID(id.uuidString) == id)
            #expect(parseUUID(id.uuidString.lowercased()) == id)
        }
        for bad in ["", "not-a-uuid", "00000000-0000-4000-8000-00000000000g", "00000000x0000-4000-8000-000000000001",
                    "00000000-0000-4000-8000-0000000000001"] {
            #expect(parseUUID(bad) == nil, "\(bad)")
        }
    }
}
