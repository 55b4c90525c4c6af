import ArgumentParser
import GymLogCore
import GymLogStore

struct Show: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the current (or latest) workout with its sets numbered for edit and delete."
    )
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) throws {
        guard let detail = try context.db().workoutDetail() else {
            context.print("No workouts yet. Log a set to start one, e.g. `bench 100x5`.")
            return
        }
        Render.numberedWorkout(detail).forEach(context.print)
    }
}

struct History: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List recent workouts, or the recent sets of one exercise.",
        discussion: "Examples: `gymlog history`, `gymlog history bench --limit 20`."
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: "An exercise name, alias or unambiguous prefix.") var exercise: [String] = []
    @Option(help: "How many workouts to show.") var limit: Int = 10

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1 (got \(limit)).") }
    }

    func run(in context: CLIContext) throws {
        let db = try context.db()
        let e = exercise.isEmpty ? nil : try db.existingExercise(exercise.joined(separator: " "))
        let workouts = try db.history(exercise: e, limit: limit)
        if workouts.isEmpty {
            context.print(e.map { "No sets of \($0.name) yet." } ?? "No workouts yet. Log a set to start one, e.g. `bench 100x5`.")
            return
        }
        for (i, w) in workouts.enumerated() {
            if i > 0 { context.print("") }
            Render.groupedWorkout(w).forEach(context.print)
        }
    }
}

struct PRs: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "prs",
        abstract: "Show personal records: heaviest weight, best e1RM, rep maxes 1-12, set and session volume.",
        discussion: "Warm-ups never count. Examples: `gymlog prs`, `gymlog prs bench`."
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: "An exercise name, alias or unambiguous prefix.") var exercise: [String] = []

    func run(in context: CLIContext) throws {
        let db = try context.db()
        let e = exercise.isEmpty ? nil : try db.existingExercise(exercise.joined(separator: " "))
        let list = try db.records(exercise: e)
        if list.isEmpty {
            context.print(e.map { "No records for \($0.name) yet." } ?? "No records yet. Log a set, e.g. `gymlog log \"bench 100x5\"`.")
            return
        }
        Render.records(list, settings: context.settings).forEach(context.print)
    }
}
