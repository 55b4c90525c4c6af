import ArgumentParser
import GymLogCore
import GymLogStore

struct Log: TextCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Log one line of sets, e.g. `log bench 100x5 @8` (in the REPL, just type the line).",
        discussion: """
        The line uses the same language as the REPL (where you type it without `gymlog log`):

        \(EntryLanguage.helpText)

        Exercise names match exactly, by alias or by an unambiguous prefix; a new \
        name is created with a notice, and a near-miss of an existing one is refused \
        with the name it resembles. Quote the line, or pass its words: \
        `gymlog log "squat 140x5x3 @8"`, `gymlog log bench 100x5`.

        A forgotten session is logged at its real time with --at (\(timePhraseForms)): \
        `gymlog log --at "2026-11-20 18:00" "bench 100x5x3"`. The sets go into the workout \
        that was going on then (or a new one starting then), a second apart; records, last \
        time and charts treat them like any other. A time in the future is refused.
        """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var past: PastTime
    // `.allUnrecognized`: a word with a leading minus (`dip -20x8`, an assisted dip) is part
    // of the line, not an unknown option, wherever it stands beside --at.
    @Argument(parsing: .allUnrecognized, help: "The line to log; quote it or pass its words.") var words: [String]

    /// As `gymlog log`'s fast path does: words without flags are a set line, so `log dip -20x8`
    /// reaches the entry parser rather than ArgumentParser's options. Quotes are removed as a
    /// shell removes them.
    static func replArguments(_ rest: String) -> [String]? {
        if let withTime = PastTime.replArguments(rest) { return withTime }
        let words = (try? shellWords(rest)) ?? []
        guard !words.isEmpty, !words.contains(where: looksLikeFlag) else { return nil }
        return ["--", words.joined(separator: " ")]
    }

    /// The line's words: `.allUnrecognized` keeps the `--` that ends the options (`log -- dip
    /// -20x8`, and the REPL's own call) among them.
    var lineWords: [String] { words.first == "--" ? Array(words.dropFirst()) : words }

    func validate() throws {
        // No set line has a word starting `--`: a mistyped option (`--att`) must not become
        // part of an exercise's name.
        if let option = lineWords.first(where: { $0.hasPrefix("--") }) {
            throw ValidationError("Unknown option '\(option)'; `gymlog log` takes --at and --db. Quote the line when it has to hold a word like that.")
        }
    }

    func run(in context: CLIContext) async throws {
        let line = lineWords.joined(separator: " ")
        let outcome = try EntryRunner(context: context).run(line, at: past.moment(in: context))
        if outcome != .done { throw outcome.exitCode }
    }
}
