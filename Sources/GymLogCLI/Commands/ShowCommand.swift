import ArgumentParser
import GymLogCore
import GymLogStore

struct Show: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the current (or latest) workout, or any with `--workout REF`, its sets numbered for edit and delete.",
        discussion: """
        Examples: `gymlog show`, `gymlog show --workout 2026-11-20`, `gymlog show --workout -2` \
        (the workout before the latest), `gymlog show --json | jq '.workout.sets[].summary'`. \
        The header ends with the workout's reference (`ref 2026-11-20#2`) for --workout.
        """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var which: WorkoutOption
    @OptionGroup var output: JSONFlag

    func run(in context: CLIContext) async throws {
        let detail = try context.db().workoutDetail(which.target(in: context))
        if output.json {
            context.printJSON(.object([("workout", detail.map { JSONShapes.workout($0, status: context.workoutStatus, numbered: true) } ?? .null)]))
            return
        }
        guard let detail else {
            context.print("No workouts yet. Log a set to start one, e.g. `bench 100x5`.")
            return
        }
        Render.numberedWorkout(detail, status: context.workoutStatus, style: .stdout).forEach(context.print)
        if let (plan, workout) = try TodayPlan.current(context), workout.id == detail.workout.id {
            (plan.undoneLines("  to do: ") ?? ["  Every planned set of \(plan.routine.name) is done."]).forEach(context.print)
        }
    }
}
