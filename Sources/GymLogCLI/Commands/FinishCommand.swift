import ArgumentParser
import GymLogCore
import GymLogStore

struct Finish: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "finish",
        abstract: "Finish the current workout.",
        discussion: """
          gymlog finish      ends the open workout and prints its summary

        The next set logged starts a new workout. In the REPL, type `finish`.
        """
    )
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        if let w = try context.db().finishWorkout() {
            let count = try context.db().workoutDetail(w.id)?.sets.count ?? 0
            context.print("Finished: " + Render.workoutHeader(w, setCount: count))
        } else {
            context.print("No workout is open.")
        }
    }
}
