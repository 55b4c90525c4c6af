import ArgumentParser
import GymLogCore
import GymLogStore

struct Redo: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract: "Bring back the set the last `undo` deleted.",
        discussion: """
          gymlog undo        deletes the last set
          gymlog redo        restores it, with its values and note

        In the REPL, type `redo`.
        """
    )
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        let (set, exercise) = try context.db().redoLastUndo()
        context.print("Restored \(exercise.name): \(set.summary)")
    }
}
