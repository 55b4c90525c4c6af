import ArgumentParser
import GymLogCore
import GymLogStore

struct Show: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the current (or latest) workout with its sets numbered for edit and delete.",
        discussion: "Examples: `gymlog show`, `gymlog show --json | jq '.workout.sets[].summary'`."
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: JSONFlag

    func run(in context: CLIContext) async throws {
        let detail = try context.db().workoutDetail()
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
            context.print(plan.undoneText.map { "  to do: " + $0 } ?? "  Every planned set of \(plan.routine.name) is done.")
        }
    }
}
