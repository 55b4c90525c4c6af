import ArgumentParser
import GymLogCore
import GymLogStore

struct Finish: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "finish",
        abstract: "Finish the current workout.",
        discussion: """
          gymlog finish      ends the open workout and prints its summary:
                             duration, sets, working volume and the PRs set in it

        A workout with no sets is not kept. The next set logged starts a new workout; `undo`
        right after `finish` reopens it. In the REPL, type `finish`.
        """
    )
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        // What the plan left undone is read before the workout closes.
        let undone = try TodayPlan.current(context)?.plan.undoneText
        let past = context.pastWorkout?.id
        context.pastWorkout = nil
        switch try context.db().finishWorkout(typed: context.typedLine ?? "finish", past: past) {
        case .finished(let summary):
            Render.workoutSummary(summary, settings: context.settings).forEach(context.print)
            if let undone { context.print("  left undone: " + undone) }
        case .discarded:
            context.print("Nothing logged; the empty workout was discarded.")
        case .nothingOpen:
            context.print("No workout is open; log a set to start one, e.g. `bench 100x5`.")
        }
    }
}
