import ArgumentParser
import GymLogCore
import GymLogStore

struct Note: TextCommand {
    static let configuration = CommandConfiguration(
        commandName: "note",
        abstract: "Set the current workout's note, e.g. `note felt strong today`.",
        discussion: """
          gymlog note "felt strong today"
          gymlog note shoulder a bit sore

        A set's own note goes after `#` in its line: `bench 100x5 # paused`. In the REPL,
        type `note felt strong today`.
        """
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The note.", valueName: "text")) var text: [String] = []

    func run(in context: CLIContext) async throws {
        let note = text.joined(separator: " ")
        guard !note.isEmpty else { throw UserError("`note` needs text, e.g. `note felt strong today`.") }
        _ = try context.db().noteWorkout(note, typed: context.typedLine ?? "note " + note)
        context.print("Noted.")
    }
}
