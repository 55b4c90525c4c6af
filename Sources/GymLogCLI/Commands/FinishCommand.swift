import ArgumentParser
import GymLogCore
import GymLogStore

struct Finish: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "finish",
        abstract: "Finish the current workout, or print the summary of any with `--workout REF`.",
        discussion: """
          gymlog finish
              ends the open workout and prints its summary: duration, sets, working
              volume and the PRs set in it
          gymlog finish --workout 2026-11-20
              that day's workout: ended if it was not, and summed up

        With no workout open, `finish` ends the newest one never finished (a session logged \
        with --at, or one that went idle). The open workout ends now; any other ends at its \
        last set. A workout with no sets is not kept. The next set logged starts a new \
        workout; `undo` right after `finish` reopens it. In the REPL, type `finish`.
        """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var which: WorkoutOption

    func run(in context: CLIContext) async throws {
        // What the plan left undone is read before the workout closes.
        let undone = which.workout == nil ? try TodayPlan.current(context)?.plan.undoneLines("  left undone: ") : nil
        let target = try which.target(in: context)
        // Plain `finish` leaves the REPL's past workout, even one that is gone meanwhile.
        if which.workout == nil { context.repl?.pastWorkout = nil }
        let result = try context.db().finishWorkout(target, typed: context.typedLine ?? (["finish"] + (which.workout.map { ["--workout", $0] } ?? [])).joined(separator: " "))
        // The REPL's past workout, once finished, no longer takes the lines typed.
        switch result {
        case .finished(let summary) where summary.workout.id == context.pastWorkout?.id: context.repl?.pastWorkout = nil
        case .discarded(let workout) where workout.id == context.pastWorkout?.id: context.repl?.pastWorkout = nil
        default: break
        }
        switch result {
        case .finished(let summary):
            Render.workoutSummary(summary, settings: context.settings, now: context.environment.now()).forEach(context.print)
            undone?.forEach(context.print)
        case .discarded:
            context.print("Nothing logged; the empty workout was discarded.")
        case .nothingOpen:
            context.print("No workout is open; log a set to start one, e.g. `bench 100x5`.")
        }
    }
}
