import ArgumentParser
import GymLogCore
import GymLogStore

struct Log: TextCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Log one line of sets, e.g. `log bench 100x5 @8` (in the REPL, just type the line).",
        discussion: """
        The line uses the same language as the REPL:

          gymlog log "bench 100x5"          one set of 5 at 100 (default unit)
          gymlog log "squat 140kg x5x3 @8"  three sets, RPE 8
          gymlog log "bench 100x5,5,4"      three sets with 5, 5 and 4 reps
          gymlog log "pullup bw x8"         bodyweight; "dip +20x6" adds weight
          gymlog log "plank 60s"            timed; "row 2000m 7:41" distance
          gymlog log "+ x6"                 the last set again with 6 reps
        """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The line to log; quote it or pass its words.") var words: [String]

    /// As `gymlog log`'s fast path does: words without flags are a set line, so `log dip -20x8`
    /// reaches the entry parser rather than ArgumentParser's options. Quotes are removed as a
    /// shell removes them.
    static func replArguments(_ rest: String) -> [String]? {
        let words = (try? shellWords(rest)) ?? []
        guard !words.isEmpty, !words.contains(where: looksLikeFlag) else { return nil }
        return ["--", words.joined(separator: " ")]
    }

    func run(in context: CLIContext) async throws {
        let line = words.joined(separator: " ")
        if try !EntryRunner(context: context).run(line) { throw ExitCode.failure }
    }
}
