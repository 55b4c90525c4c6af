import ArgumentParser
import GymLogCore
import GymLogStore

struct Undo: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Delete the last logged set (kept as a tombstone so every device deletes it too).",
        discussion: """
          gymlog undo        deletes the set logged last, whichever workout it is in
          gymlog redo        brings it back

        In the REPL, type `undo`.
        """
    )
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        let (set, exercise) = try context.db().undoLastSet()
        context.print("Undid \(exercise.name): \(set.summary)")
    }
}
