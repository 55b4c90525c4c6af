import ArgumentParser
import GymLogCore
import GymLogStore

/// `--json`: the flag every read command takes.
struct JSONFlag: ParsableArguments {
    @Flag(help: "Print JSON for scripts instead of text (keys documented in the README).")
    var json = false
}

struct Show: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the current (or latest) workout with its sets numbered for edit and delete.",
        discussion: "Examples: `gymlog show`, `gymlog show --json | jq '.workout.sets[].summary'`."
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: JSONFlag

    func run(in context: CLIContext) throws {
        let detail = try context.db().workoutDetail()
        if output.json {
            context.printJSON(.object([("workout", detail.map { JSONShapes.workout($0, numbered: true) } ?? .null)]))
            return
        }
        guard let detail else {
            context.print("No workouts yet. Log a set to start one, e.g. `bench 100x5`.")
            return
        }
        Render.numberedWorkout(detail, style: .stdout).forEach(context.print)
    }
}

struct History: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List recent workouts, or the recent sets of one exercise.",
        discussion: "Examples: `gymlog history`, `gymlog history bench --limit 20`, `gymlog history --json`."
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: "An exercise name, alias or unambiguous prefix.") var exercise: [String] = []
    @Option(help: "How many workouts to show.") var limit: Int = 10
    @OptionGroup var output: JSONFlag

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1 (got \(limit)).") }
    }

    func run(in context: CLIContext) throws {
        let db = try context.db()
        let e = exercise.isEmpty ? nil : try db.existingExercise(exercise.joined(separator: " "))
        let workouts = try db.history(exercise: e, limit: limit)
        if output.json {
            context.printJSON(.object([
                ("exercise", .string(e?.name)),
                ("workouts", .array(workouts.map { JSONShapes.workout($0) })),
            ]))
            return
        }
        if workouts.isEmpty {
            context.print(e.map { "No sets of \($0.name) yet." } ?? "No workouts yet. Log a set to start one, e.g. `bench 100x5`.")
            return
        }
        for (i, w) in workouts.enumerated() {
            if i > 0 { context.print("") }
            Render.groupedWorkout(w, style: .stdout).forEach(context.print)
        }
    }
}

struct PRs: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "prs",
        abstract: "Show personal records: heaviest weight, best e1RM, rep maxes 1-12, set and session volume.",
        discussion: "Warm-ups never count. Examples: `gymlog prs`, `gymlog prs bench`, `gymlog prs --json`."
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: "An exercise name, alias or unambiguous prefix.") var exercise: [String] = []
    @OptionGroup var output: JSONFlag

    func run(in context: CLIContext) throws {
        let db = try context.db()
        let e = exercise.isEmpty ? nil : try db.existingExercise(exercise.joined(separator: " "))
        let list = try db.records(exercise: e)
        if output.json {
            context.printJSON(.object([
                ("unit", .string(context.settings.defaultUnit.rawValue)),
                ("e1rm_formula", .string(context.settings.e1rmFormula.rawValue)),
                ("exercises", .array(list.map { item in
                    .object([
                        ("exercise_id", .string(item.exercise.id.key)),
                        ("exercise", .string(item.exercise.name)),
                        ("records", .array(item.records.map { JSONShapes.record($0, exercise: item.exercise, settings: context.settings) })),
                    ])
                })),
            ]))
            return
        }
        if list.isEmpty {
            context.print(e.map { "No records for \($0.name) yet." } ?? "No records yet. Log a set, e.g. `gymlog log \"bench 100x5\"`.")
            return
        }
        Render.records(list, settings: context.settings, style: .stdout).forEach(context.print)
    }
}
