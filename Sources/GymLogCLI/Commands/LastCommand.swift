import ArgumentParser
import GymLogCore
import GymLogStore

struct Last: ExerciseArgumentCommand {
    static let configuration = CommandConfiguration(
        commandName: "last",
        abstract: "Show what you did for an exercise last time (the REPL shows it under its first set).",
        discussion: """
        The most recent workout with a working set of the exercise, other than the one open \
        now: its date and its sets as typed (warm-ups left out of the line, drop and failure \
        sets marked). Examples: `gymlog last bench`, `gymlog last squat --json`.
        """
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: "An exercise name, alias or unambiguous prefix.", completion: .custom(exerciseCompletions))
    var exercise: [String]
    @OptionGroup var output: JSONFlag

    func validate() throws {
        if exercise.isEmpty { throw ValidationError("Name the exercise, e.g. `gymlog last bench`.") }
    }

    func run(in context: CLIContext) async throws {
        let db = try context.db()
        let e = try db.existingExercise(exercise.joined(separator: " "))
        let now = context.environment.now()
        let session = try db.lastSession(of: e.id, before: now + 1, excluding: db.openWorkout()?.workout.id)
        if output.json {
            context.printJSON(.object([
                ("exercise_id", .string(e.id.key)),
                ("exercise", .string(e.name)),
                ("last", session.map { s in .object([
                    ("workout_id", .string(s.workout.id.key)),
                    ("workout", .string(s.workout.name)),
                    ("started_at", .time(s.workout.startedAt, s.workout.utcOffsetSeconds)),
                    ("summary", .string(Render.compactSets(s.sets.map(\.values)))),
                    ("sets", .array(s.sets.map { JSONShapes.set($0, exercise: e) })),
                ]) } ?? .null),
            ]))
            return
        }
        guard let session else {
            context.print("No earlier workout with \(e.name) yet.")
            return
        }
        context.print("\(e.name): " + Render.lastTime(session, now: now, utcOffsetSeconds: context.environment.utcOffset(now)))
        let width = String(session.sets.count).count
        for (i, s) in session.sets.enumerated() {
            let n = String(i + 1)
            context.print("  " + String(repeating: " ", count: width - n.count) + n + "  " + s.values.summary)
        }
    }
}
