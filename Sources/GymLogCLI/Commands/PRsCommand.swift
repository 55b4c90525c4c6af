import Foundation
import ArgumentParser
import GymLogCore
import GymLogStore

struct PRs: ExerciseArgumentCommand {
    static let configuration = CommandConfiguration(
        commandName: "prs",
        abstract: "Show personal records: heaviest weight, e1RM, rep maxes, volume, fastest times, pace.",
        discussion: """
        Warm-ups never count. Loads, e1RM and volume are in your default unit, \
        whatever unit each set was typed in; the set holding a record shows as \
        typed. A session-volume record belongs to its workout (its day and set \
        count are shown). Distance exercises keep the fastest time for every \
        distance logged and the best pace; timed ones the longest time; \
        bodyweight ones the most reps and the heaviest added weight. \
        Examples: `gymlog prs`, `gymlog prs bench`, `gymlog prs --json`.
        """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var filter: ExerciseFilter
    @OptionGroup var output: JSONFlag

    func run(in context: CLIContext) async throws {
        let db = try context.db()
        let e = try filter.resolve(in: db)
        let list = try db.records(exercise: e)
        // Session volume belongs to a workout, not to the set that last grew it; each
        // exercise has one such record, so the sessions are keyed by exercise.
        var sessions: [UUID: SessionSize] = [:]
        for (exercise, records) in list {
            for r in records where r.metric == .sessionVolume {
                sessions[exercise.id] = try db.sessionSize(workoutID: r.set.workoutID, exerciseID: exercise.id)
            }
        }
        if output.json {
            func record(_ r: RecordEntry, _ exercise: Exercise) -> JSON {
                let json = JSONShapes.record(r, exercise: exercise, settings: context.settings)
                guard r.metric == .sessionVolume, let s = sessions[exercise.id], case .object(let fields) = json else { return json }
                return .object(fields + [("workout", .object([
                    ("id", .string(r.set.workoutID.key)), ("started_at", .time(s.startedAt, s.utcOffsetSeconds)), ("sets", .int(s.sets)),
                ]))])
            }
            context.printJSON(.object([
                ("unit", .string(context.settings.defaultUnit.rawValue)),
                ("e1rm_formula", .string(context.settings.e1rmFormula.rawValue)),
                ("exercises", .array(list.map { item in
                    .object([
                        ("exercise_id", .string(item.exercise.id.key)),
                        ("exercise", .string(item.exercise.name)),
                        ("records", .array(item.records.map { record($0, item.exercise) })),
                    ])
                })),
            ]))
            return
        }
        if list.isEmpty {
            context.print(e.map { "No records for \($0.name) yet." } ?? "No records yet. Log a set, e.g. `gymlog log \"bench 100x5\"`.")
            return
        }
        let origins = sessions.mapValues { Render.SessionOrigin(day: localDate(millis: $0.startedAt, utcOffsetSeconds: $0.utcOffsetSeconds), sets: $0.sets) }
        Render.records(list, sessions: origins, settings: context.settings,
                       bodyweight: { set in set.values.bodyweight ? (try? db.bodyweight(at: set.performedAt))??.weight : nil },
                       style: .stdout, width: Render.wrapColumns).forEach(context.print)
    }
}
