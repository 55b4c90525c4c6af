import Foundation
import GRDB
import GymLogCore

/// What `finish` (and `start` closing a workout) reports: how long, how much, which PRs.
public struct WorkoutSummary: Sendable {
    /// The workout, with its end.
    public var workout: Workout
    public var setCount: Int
    /// The working volume (weight x reps of working sets), in kg.
    public var workingVolume: Double
    /// The records its sets hold that beat an earlier workout's, by exercise.
    public var records: [(exercise: Exercise, records: [RecordEntry])]
}

/// What `start` did.
public struct StartResult: Sendable {
    /// The workout now open.
    public var workout: Workout
    /// The open workout with sets that `start` finished first.
    public var finished: WorkoutSummary?
}

/// What `finish` did.
public enum FinishResult: Sendable {
    /// The open workout ended.
    case finished(WorkoutSummary)
    /// The open workout had no sets, so it was not kept.
    case discarded(Workout)
    /// No workout was open.
    case nothingOpen
}

extension ChangeWriter {
    /// The summary of `workout` from its live sets and the records they hold.
    func summary(of workout: Workout) throws -> WorkoutSummary {
        var decode = SetDecoder()
        let sets = try Row.fetchAll(db, sql: "SELECT \(Rows.setColumns) FROM sets s WHERE s.workout_id = ? AND s.deleted_at IS NULL",
                                    arguments: [workout.id.key]).map { decode($0) }
        // A record counts as a PR when the exercise was done before this workout: a first
        // time holds every record and beats none.
        let rows = try Row.fetchAll(db, sql: """
            SELECT e.id AS e_id, e.name AS e_name, e.kind AS e_kind, r.metric AS r_metric, r.reps AS r_reps,
                   r.value AS r_value, \(Rows.setColumns)
            FROM records r JOIN exercises e ON e.id = r.exercise_id JOIN sets s ON s.id = r.set_id
            WHERE r.workout_id = ? AND EXISTS (SELECT 1 FROM sets p WHERE p.exercise_id = r.exercise_id
                AND p.deleted_at IS NULL AND p.workout_id <> r.workout_id AND p.performed_at < s.performed_at)
            ORDER BY e.name COLLATE NOCASE, r.metric, r.reps
            """, arguments: [workout.id.key])
        return WorkoutSummary(workout: workout, setCount: sets.count, workingVolume: sets.reduce(0) { $0 + workingVolume(of: $1) },
                              records: RecordEntry.grouped(rows))
    }
}

extension RecordEntry {
    /// Records by exercise from rows selecting `e_id, e_name, e_kind, r_metric, r_reps, r_value`
    /// and a set's columns, ordered by exercise.
    static func grouped(_ rows: [Row]) -> [(exercise: Exercise, records: [RecordEntry])] {
        var result: [(exercise: Exercise, records: [RecordEntry])] = []
        var decode = SetDecoder()
        for row in rows {
            let e = Rows.exercise(row, prefix: "e_")
            guard let metric = RecordMetric(rawValue: row["r_metric"]) else { continue }
            let entry = RecordEntry(metric: metric, reps: row["r_reps"], value: row["r_value"], set: decode(row))
            if result.last?.exercise.id == e.id { result[result.count - 1].records.append(entry) } else { result.append((e, [entry])) }
        }
        return result
    }
}
