import ArgumentParser
import GymLogCore
import GymLogStore

struct History: ExerciseArgumentCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List recent workouts, or the recent sets of one exercise.",
        discussion: """
        Examples: `gymlog history`, `gymlog history bench --limit 20`, `gymlog history --json`. \
        Each workout's header ends with its reference (`ref 2026-11-20`, or `ref 2026-11-20#2` \
        on a day with more than one), which `show`, `edit`, `delete`, `note` and `finish` take \
        with --workout.
        """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var filter: ExerciseFilter
    @Option(help: "How many workouts to show.") var limit: Int = 10
    @OptionGroup var output: JSONFlag

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1 (got \(limit)).") }
    }

    func run(in context: CLIContext) async throws {
        let db = try context.db()
        let e = try filter.resolve(in: db)
        let workouts = try db.history(exercise: e, limit: limit)
        if output.json {
            context.printJSON(.object([
                ("exercise", .string(e?.name)),
                ("workouts", .array(workouts.map { JSONShapes.workout($0, status: context.workoutStatus) })),
            ]))
            return
        }
        if workouts.isEmpty {
            context.print(e.map { "No sets of \($0.name) yet." } ?? "No workouts yet. Log a set to start one, e.g. `bench 100x5`.")
            return
        }
        for (i, w) in workouts.enumerated() {
            if i > 0 { context.print("") }
            Render.groupedWorkout(w, status: context.workoutStatus, style: .stdout, width: Render.wrapColumns).forEach(context.print)
        }
    }
}
