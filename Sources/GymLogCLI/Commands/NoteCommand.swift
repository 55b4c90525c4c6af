import ArgumentParser
import GymLogCore
import GymLogStore

struct Note: TextCommand {
    static let configuration = CommandConfiguration(
        commandName: "note",
        abstract: "Set the current workout's note, e.g. `note felt strong today`, or another's with `--workout REF`.",
        discussion: """
          gymlog note "felt strong today"
          gymlog note shoulder a bit sore
          gymlog note --workout 2026-11-20 "gym was packed"

        A set's own note goes after `#` in its line: `bench 100x5 # paused`. A workout \
        reference is \(WorkoutReference.forms); `history` and `show` print each workout's. \
        In the REPL, type `note felt strong today` (options, such as --workout, before the text).
        """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var which: WorkoutOption
    @Argument(help: ArgumentHelp("The note.", valueName: "text")) var text: [String] = []

    static func replArguments(_ rest: String) -> [String]? {
        ReplTextOptions().arguments(rest)
    }

    func run(in context: CLIContext) async throws {
        let note = text.joined(separator: " ")
        guard !note.isEmpty else { throw UserError("`note` needs text, e.g. `note felt strong today`.") }
        let workout = try context.db().noteWorkout(note, in: which.target(in: context), typed: context.typedLine ?? "note " + note)
        context.print(which.workout == nil ? "Noted." : "Noted on the workout of \(UndoStep.workoutName(workout)).")
    }
}
