import ArgumentParser
import GymLogCore
import GymLogStore

struct Edit: TextCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change set N of `show` (default: the last), e.g. `edit 2 x6 @9`.",
        discussion: """
        The changes use the language of `+`:

          gymlog edit 102.5x5      the last set: 102.5 for 5
          gymlog edit 2 x6 @9      set 2 of `show`: 6 reps, RPE 9
          gymlog edit 3 # paused   set 3's note

        In the REPL, type `edit 2 x6 @9`.
        """
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("An optional set number from `show`, then the changes.", valueName: "changes"))
    var changes: [String] = []

    func run(in context: CLIContext) async throws {
        let rest = changes.joined(separator: " ")
        var target = SetTarget.last
        var patchText = rest
        let parts = rest.split(separator: " ", maxSplits: 1)
        if parts.count == 2, let n = Int(parts[0]) { target = .number(n); patchText = String(parts[1]) }
        guard !patchText.isEmpty else { throw UserError("`edit` needs changes, e.g. `edit 102.5x5`, `edit 2 @9` or `edit # note`.") }
        switch EntryParser.parse("+ " + patchText) {
        case .failure(let e):
            // Point into the line as typed: the REPL's line, or the shell's words after `edit`.
            let line = context.typedLine ?? "edit " + rest
            let shift = line.count - patchText.count - 2
            context.printEntryError(e.message, at: Span(max(0, e.span.start + shift), max(0, e.span.end + shift)), in: line)
            throw ExitCode.failure
        case .success(.repeatLast(let patch)):
            let s = try context.db().editSet(target, patch: patch, typed: context.typedLine ?? "edit " + rest)
            context.print("Edited: \(s.set.summary)")
        case .success:
            throw UserError("`edit` takes changes like `x6`, `102.5`, `@9` or `# note`.")
        }
    }
}
