import Foundation
import GRDB
import GymLogCore

/// What `finish` (and `start` closing a workout) reports: how long, how much, which PRs.
public struct WorkoutSummary: Sendable {
    /// The workout, with its end.
    public var workout: Workout
    public var sets: SetCount
    /// How long it lasted in milliseconds (`WorkoutLength`), nil when unknown.
    public var length: Int64?
    /// The working volume (weight x reps of working sets, a bodyweight set's on that day's
    /// total), in kg.
    public var workingVolume: Double
    /// The records its sets hold that beat an earlier workout's, by exercise.
    public var records: [(exercise: Exercise, records: [RecordEntry])]
    /// The last earlier workout of the same routine (else of the same name), to compare with.
    public var previous: PreviousWorkout?
}

/// The workout a summary compares with.
public struct PreviousWorkout: Sendable {
    public var workout: Workout
    public var sets: SetCount
    /// Working volume in kg.
    public var workingVolume: Double
}

/// What `start` did.
public struct StartResult: Sendable {
    /// The workout now open.
    public var workout: Workout
    /// The open workout with sets that `start` finished first.
    public var finished: WorkoutSummary?
    /// True when `start --at` found the past session it names unfinished and went back into it.
    public var resumed = false
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

extension Workouts {
    /// The summary of `workout` from its live sets and the records they hold.
    func summary(of workout: Workout) throws -> WorkoutSummary {
        var decode = SetDecoder()
        let sets = try Row.fetchAll(db, sql: "SELECT \(Rows.setColumns) FROM sets s WHERE s.workout_id = ? AND s.deleted_at IS NULL",
                                    arguments: [workout.id.key]).map { decode($0) }
        // A record of this workout is a PR when it beat a value an earlier set held, as the
        // line that logged it said (`PR! ... (was ...)`): a first value beats nothing.
        let rows = try Row.fetchAll(db, sql: """
            SELECT e.id AS e_id, e.name AS e_name, e.kind AS e_kind, r.metric AS r_metric, r.reps AS r_reps,
                   r.value AS r_value, \(Rows.setColumns)
            FROM records r JOIN exercises e ON e.id = r.exercise_id JOIN sets s ON s.id = r.set_id
            WHERE r.workout_id = ? ORDER BY e.name COLLATE NOCASE, r.metric, r.reps
            """, arguments: [workout.id.key])
        let records = try RecordEntry.grouped(rows).compactMap { exercise, entries -> (exercise: Exercise, records: [RecordEntry])? in
            // In the order a logged line names them (heaviest weight, e1RM, rep maxes, ...).
            let order = Dictionary(uniqueKeysWithValues: RecordMetric.allCases.enumerated().map { ($1, $0) })
            let beaten = try entries.filter { try hadEarlierValue($0, exercise: exercise.id, workout: workout) }
                .sorted { (order[$0.metric]!, $0.reps) < (order[$1.metric]!, $1.reps) }
            return beaten.isEmpty ? nil : (exercise, beaten)
        }
        let length = WorkoutLength.millis(start: workout.startedAt, end: workout.endedAt ?? workout.startedAt,
                                          setSeconds: sets.map(\.values.durationSeconds))
        return WorkoutSummary(workout: workout, sets: SetCount(sets.map(\.values)), length: length,
                              workingVolume: try GymLogDatabase.bodyweightTimeline(db, for: sets).workingVolume(of: sets),
                              records: records, previous: try previous(of: workout))
    }

    /// The newest earlier live workout with sets, started from the same routine, or (with no
    /// routine) of the same name.
    private func previous(of workout: Workout) throws -> PreviousWorkout? {
        let routine = try routineID(of: workout.id)
        guard routine != nil || workout.name != nil else { return nil }
        guard let row = try Row.fetchOne(db, sql: """
            SELECT \(Rows.workoutColumns) FROM workouts w
            WHERE w.deleted_at IS NULL AND w.id <> ? AND w.started_at < ?
              AND (CASE WHEN ? IS NOT NULL THEN w.routine_id = ? ELSE w.name = ? COLLATE NOCASE END)
              AND EXISTS (SELECT 1 FROM sets s WHERE s.workout_id = w.id AND s.deleted_at IS NULL)
            ORDER BY w.started_at DESC LIMIT 1
            """, arguments: [workout.id.key, workout.startedAt, routine?.key, routine?.key, workout.name]) else { return nil }
        let earlier = Rows.workout(row)
        var decode = SetDecoder()
        let sets = try Row.fetchAll(db, sql: "SELECT \(Rows.setColumns) FROM sets s WHERE s.workout_id = ? AND s.deleted_at IS NULL",
                                    arguments: [earlier.id.key]).map { decode($0) }
        return PreviousWorkout(workout: earlier, sets: SetCount(sets.map(\.values)),
                               workingVolume: try GymLogDatabase.bodyweightTimeline(db, for: sets).workingVolume(of: sets))
    }

    /// Whether a set of the exercise before the record's set achieved a value on the same
    /// record (the same rep max, the same distance); for session volume, whether an earlier
    /// workout had working volume in it.
    private func hadEarlierValue(_ record: RecordEntry, exercise: UUID, workout: Workout) throws -> Bool {
        var decode = SetDecoder()
        let earlier = try Row.fetchCursor(db, sql: """
            SELECT \(Rows.setColumns) FROM sets s WHERE s.exercise_id = ? AND s.deleted_at IS NULL AND s.kind <> 'warmup'
              AND s.id <> ? AND (s.performed_at < ? OR (s.performed_at = ? AND s.id < ?))
            """, arguments: [exercise.key, record.set.id.key, record.set.performedAt, record.set.performedAt, record.set.id.key])
        while let row = try earlier.next() {
            let set = decode(row)
            if record.metric == .sessionVolume {
                if set.workoutID != workout.id && workingVolume(of: set) > 0 { return true }
            } else if recordValues(of: set, formula: settings.e1rmFormula).contains(where: { $0.metric == record.metric && $0.reps == record.reps }) {
                return true
            }
        }
        return false
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
