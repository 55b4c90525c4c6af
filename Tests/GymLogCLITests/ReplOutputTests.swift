import Foundation
import GymLogCore
@testable import GymLogCLI
import GymLogTestSupport
import Testing

/// What the REPL prints: errors once, hints in the REPL's own syntax, a mistyped command,
/// `history`'s grouping, and columns that line up whatever the names are written in.
@Suite struct ReplOutputTests {
    @Test func aParseErrorIsPrintedOnceWithTheCaretUnderIt() async throws {
        let s = try ReplTestSession()
        // When a line with a mistake is typed
        #expect(await s.repl.handle("bench 100x") == .failed)
        // Then the message appears once, over the echoed line and a bare caret
        let err = s.output.take().err
        #expect(err.count == 3 && err[1] == "  bench 100x", "\(err)")
        #expect(err.filter { $0.contains("expected reps") }.count == 1, "\(err)")
        #expect(err.last?.trimmingCharacters(in: .whitespaces).allSatisfy { $0 == "^" } == true, "\(err)")
    }

    @Test func theCaretLinesUpUnderWideCharacters() async throws {
        let s = try ReplTestSession()
        // When a line holding CJK and an emoji has a mistake after them
        #expect(await s.repl.handle("ベンチ💪 100x5 @11") == .failed)
        let err = s.output.take().err
        // Then the caret sits under `@11` on the screen: each wide character takes two columns
        let echo = try #require(err.dropFirst().first), caret = try #require(err.dropFirst(2).first)
        let at = echo.range(of: "@11")!
        #expect(TerminalText.width(String(echo[..<at.lowerBound])) == caret.prefix { $0 == " " }.count, "\(err)")
    }

    @Test func hintsInsideTheReplUseTheReplsSyntax() async throws {
        // Given an exercise, and a near-miss of it typed in the REPL
        let s = try ReplTestSession()
        #expect(await s.repl.handle("bench 100x5") == .ok)
        _ = s.output.take()
        #expect(await s.repl.handle("bnech 100x5") == .failed)
        let err = s.output.take().err.joined(separator: "\n")
        // Then the hint is what to type here, not a shell command
        #expect(err.contains("`exercises add \"bnech\"`"), "\(err)")
        #expect(!err.contains("`gymlog "), "\(err)")
        // And the one formatter leaves the shell's hints alone and rewrites `gymlog log "LINE"`
        #expect(Surface.shell.hints("run `gymlog exercises add \"X\"`") == "run `gymlog exercises add \"X\"`")
        #expect(Surface.repl.hints("e.g. `gymlog log \"bench 100x5\"`, or `gymlog exercises add NAME`.")
                == "e.g. `bench 100x5`, or `exercises add NAME`.")
    }

    @Test func aMistypedCommandInTheReplNamesTheNearestButSetLinesStillLog() async throws {
        let s = try ReplTestSession()
        // When a command is mistyped
        #expect(await s.repl.handle("hisotry") == .failed)
        #expect(s.output.take().err == ["error: Unknown command 'hisotry'. Did you mean `history`? (`help` lists every command.)"])
        // Then a set line whose exercise looks like a command still logs (`press` is close to `prs`)
        #expect(await s.repl.handle("press 60x5") == .ok)
        #expect(s.output.take().out.contains { $0.lowercased().contains("press #1") })
        // And a set line with a bad value is pointed at, not taken for a command (`squat` is close to `quit`)
        #expect(await s.repl.handle("squat 140x5x0") == .failed)
        #expect(!s.output.take().err.joined().contains("Unknown command"))
        // And an existing exercise's name alone is not taken for a command
        #expect(await s.repl.handle("press") == .failed)
        #expect(!s.output.take().err.joined().contains("Unknown command"))
    }

    @Test func historyCollapsesRepeatsAndKeepsNotesApart() async throws {
        let s = try ReplTestSession()
        for line in ["bench w60x10x3", "bench 100x5 # felt fast", "bench 100x5", "bench 100x5", "bench 90x8"] {
            #expect(await s.repl.handle(line) == .ok)
        }
        _ = s.output.take()
        // When history is shown
        #expect(await s.repl.handle("history") == .ok)
        let out = s.output.take().out
        // Then equal sets in a row are one entry with a count, and the note has a line of its own
        #expect(out.contains("  bench: warm-up 60kg x 10 x3, 100kg x 5 x3, 90kg x 8"), "\(out)")
        #expect(out.contains("      # felt fast  (set 4)"), "\(out)")
    }

    @Test func showAndHelpAlignColumnsOfWideNames() async throws {
        let s = try ReplTestSession()
        for line in ["ベンチプレス 100x5", "Développé couche\u{301} 60x8", "squat 140x5"] {
            #expect(await s.repl.handle(line) == .ok, "\(s.output.take())")
        }
        _ = s.output.take()
        #expect(await s.repl.handle("show") == .ok)
        // Then every set's summary starts in the same terminal column
        let rows = s.output.take().out.filter { $0.contains(" x ") }
        let columns = rows.map { row in TerminalText.width(String(row[..<row.range(of: #"\d+(kg|lb) x"#, options: .regularExpression)!.lowerBound])) }
        #expect(rows.count == 3 && Set(columns).count == 1, "\(rows)")
    }
}
