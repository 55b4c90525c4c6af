import ArgumentParser
import GymLogCore
import GymLogStore

struct PRs: ExerciseArgumentCommand {
    static let configuration = CommandConfiguration(
        commandName: "prs",
        abstract: "Show personal records: heaviest weight, best e1RM, rep maxes 1-12, set and session volume.",
        discussion: "Warm-ups never count. Examples: `gymlog prs`, `gymlog prs bench`, `gymlog prs --json`."
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var filter: ExerciseFilter
    @OptionGroup var output: JSONFlag

    func run(in context: CLIContext) async throws {
        let db = try context.db()
        let e = try filter.resolve(in: db)
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
