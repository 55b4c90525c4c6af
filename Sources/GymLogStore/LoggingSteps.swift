import Foundation
import GRDB
import GymLogCore

/// The steps of logging sets that run inside a write transaction: a line or a superset
/// round resolved, placed in its workout, written and checked for records.
extension ChangeWriter {
    /// The parts of one line: one exercise's sets, or a superset round (more than one part) in
    /// `superset` or a new superset, named for `undo` as the round it was.
    mutating func logRound(_ parts: [(exercise: ExerciseMention, values: [SetValues])], superset: UUID? = nil,
                           at: Int64?) throws -> [LogResult] {
        guard parts.count > 1 else { return try parts.map { try logLine($0.exercise, values: $0.values, at: at) } }
        let group = superset ?? environment.newID()
        let results = try parts.map { try logLine($0.exercise, values: $0.values, at: at, superset: group) }
        describeAction(GymLogDatabase.describeRound(results), workout: results.first?.workout.id)
        return results
    }

    /// The sets of one exercise as a line names them: resolves the exercise (creating it when
    /// new), checks they fit its kind, and writes them. Set lines, `ok` and each part of a
    /// superset all log through it.
    mutating func logLine(_ mention: ExerciseMention, values: [SetValues], at: Int64?, superset: UUID? = nil) throws -> LogResult {
        let (exercise, created) = try Exercises.resolveOrCreate(mention, firstSet: values.first, in: &self)
        try Exercises.requireFit(values, exercise: exercise, in: &self)
        return try logValues(values, exercise: exercise, createdExercise: created, at: at, superset: superset)
    }

    /// Writes the sets of one line. `at` (a moment in the past) puts them in the workout that
    /// was going on then, or a new one starting then, a second apart from `at` on (after any
    /// set already there), with their records recomputed from the whole history.
    mutating func logValues(_ values: [SetValues], exercise: Exercise, createdExercise: Bool, at past: Int64? = nil,
                            superset: UUID? = nil) throws -> LogResult {
        if let past { return try logPastValues(values, exercise: exercise, createdExercise: createdExercise, at: past, superset: superset) }
        let (workout, started) = try currentWorkout()
        let offset = environment.utcOffset(now)
        var stored: [StoredSet] = []
        // The new sets' numbers and the session volume follow on from the tally, updated
        // here as the triggers update the stored one.
        let placed = try placement(workoutID: workout.id, exerciseID: exercise.id)
        var order = placed.liveSets, session = placed.volume
        // Every set gets a distinct, increasing time (even within one millisecond) so all
        // devices order sets alike without relying on local row ids.
        let first = max(now, placed.latest + 1)
        for (i, v) in values.enumerated() {
            let id = newRowID()
            let at = first + Int64(i)
            try write(.sets, id: id, op: .create, fields: SetColumns.createFields(
                workoutID: workout.id, exerciseID: exercise.id, values: v, performedAt: at, utcOffsetSeconds: offset, superset: superset))
            let set = LoggedSet(id: id, workoutID: workout.id, exerciseID: exercise.id, values: v, performedAt: at,
                                utcOffsetSeconds: offset, supersetID: superset)
            order += 1
            session.add(v)
            stored.append(StoredSet(set: set, order: order, records: try RecordBook(self).checkRecords(set, session: session)))
        }
        describeAction(Self.describe(values, of: exercise, created: createdExercise), workout: workout.id)
        return LogResult(exercise: exercise, createdExercise: createdExercise, workout: workout, startedWorkout: started, sets: stored)
    }

    private mutating func logPastValues(_ values: [SetValues], exercise: Exercise, createdExercise: Bool, at past: Int64,
                                        superset: UUID?) throws -> LogResult {
        try requirePast(past)
        let existing = try workout(containing: past)
        let workout = try existing ?? createWorkout(name: nil, startedAt: past)
        // Each line after the sets already logged from `past` on, so repeated `--at` lines
        // of one session keep the order they were typed in.
        let taken = try Int64.fetchOne(db, sql: """
            SELECT MAX(performed_at) FROM sets WHERE workout_id = ? AND deleted_at IS NULL AND performed_at >= ?
            """, arguments: [workout.id.key, past])
        let first = taken.map { max(past, $0 + 1000) } ?? past
        let offset = environment.utcOffset(first)
        let before = try RecordBook(self).storedRecordValues(exerciseID: exercise.id)
        // As on a live line, growing this workout's own session-volume record is not news.
        let sessionHeldHere = try String.fetchOne(db, sql: "SELECT workout_id FROM records WHERE exercise_id = ? AND metric = ?",
                                                  arguments: [exercise.id.key, RecordMetric.sessionVolume.rawValue]) == workout.id.key
        var written: [LoggedSet] = []
        for (i, v) in values.enumerated() {
            let id = newRowID()
            let at = first + Int64(i) * 1000
            try write(.sets, id: id, op: .create, fields: SetColumns.createFields(
                workoutID: workout.id, exerciseID: exercise.id, values: v, performedAt: at, utcOffsetSeconds: offset, superset: superset))
            written.append(LoggedSet(id: id, workoutID: workout.id, exerciseID: exercise.id, values: v, performedAt: at,
                                     utcOffsetSeconds: offset, supersetID: superset))
        }
        // Later sets may hold records these beat or tie: recompute from the whole history,
        // then report the records these sets hold now, against what was held before.
        try RecordBook(self).rebuildRecords(exerciseID: exercise.id)
        let held = try RecordBook(self).recordsHeld(by: written.map(\.id))
        let stored = try written.map { set in
            StoredSet(set: set, order: try order(of: set), records: (held[set.id] ?? []).filter { !($0.metric == .sessionVolume && sessionHeldHere) }.map {
                RecordBreak(metric: $0.metric, reps: $0.reps, value: $0.value, previous: before[RecordKey(metric: $0.metric, reps: $0.reps)])
            })
        }
        describeAction(Self.describe(values, of: exercise, created: createdExercise), workout: workout.id)
        return LogResult(exercise: exercise, createdExercise: createdExercise, workout: workout, startedWorkout: existing == nil, sets: stored)
    }

    /// `Bench Press 100kg x 5 (3 sets)`, `Bench Press 100kg x 5, 100kg x 4`, and the exercise
    /// when the line created it: what `undo` names.
    static func describe(_ values: [SetValues], of exercise: Exercise, created: Bool) -> String {
        var text = exercise.name + " "
        if values.count > 1, Set(values.map(\.summary)).count == 1 {
            text += "\(values[0].summary) (\(values.count) sets)"
        } else {
            text += values.map(\.summary).joined(separator: ", ")
        }
        return created ? text + ", and the new exercise '\(exercise.name)'" : text
    }

    func exerciseName(_ id: UUID) throws -> String {
        try Exercises.exercise(id: id, in: self)?.name ?? "?"
    }

    /// The last round of a superset in a workout: going back from its newest set until an
    /// exercise comes again, in the order they were done.
    func lastRound(of superset: UUID, workoutID: UUID) throws -> [LoggedSet] {
        var decode = SetDecoder()
        let sets = try Row.fetchAll(db, sql: """
            SELECT \(Rows.setColumns) FROM sets s WHERE s.workout_id = ? AND s.superset_id = ? AND s.deleted_at IS NULL
            ORDER BY s.performed_at DESC, s.id DESC
            """, arguments: [workoutID.key, superset.key]).map { decode($0) }
        var seen = Set<UUID>(), round: [LoggedSet] = []
        for set in sets {
            if seen.contains(set.exerciseID) { break }
            seen.insert(set.exerciseID)
            round.append(set)
        }
        return round.reversed()
    }

    /// What `+` repeats: the last set of the workout the line goes into (the open one, or
    /// with `at` the one going on then), else (a workout with no sets yet, or none) the last
    /// set done before the line.
    func setToRepeat(at: Int64?) throws -> LoggedSet? {
        let into = try at.map { try self.workout(containing: $0) } ?? openWorkout()?.workout
        if let into, let last = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(Rows.setColumns) FROM sets s WHERE s.workout_id = ? AND s.deleted_at IS NULL
            ORDER BY s.performed_at DESC, s.rowid DESC LIMIT 1
            """), arguments: [into.id.key]).map({ Rows.set($0) }) { return last }
        return try Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(Rows.setColumns) FROM sets s WHERE s.deleted_at IS NULL AND s.performed_at <= ?
            ORDER BY s.performed_at DESC, s.rowid DESC LIMIT 1
            """), arguments: [at ?? Int64.max]).map { Rows.set($0) }
    }

    func setCount(workoutID: UUID) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT SUM(live_sets) FROM session_tallies WHERE workout_id = ?"),
                         arguments: [workoutID.key]) ?? 0
    }

    /// What logging asks before it writes, in one statement (each costs on the hot path): the
    /// time of the newest set anywhere, and the live sets of one exercise in one workout with
    /// their volume, as `session_tallies` keeps them.
    func placement(workoutID: UUID, exerciseID: UUID) throws -> (latest: Int64, liveSets: Int, volume: VolumeTally) {
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT (SELECT MAX(performed_at) FROM sets) AS latest, t.live_sets, t.kg_volume, t.lb_volume
            FROM (SELECT 1) LEFT JOIN session_tallies t ON t.workout_id = ? AND t.exercise_id = ?
            """), arguments: [workoutID.key, exerciseID.key])!
        var columns = ColumnPositions(["latest", "live_sets", "kg_volume", "lb_volume"])
        let p = columns(row)
        let latest: Int64? = row[p[0]], liveSets: Int? = row[p[1]], kg: Int64? = row[p[2]], lb: Int64? = row[p[3]]
        return (latest ?? 0, liveSets ?? 0, VolumeTally(kilogramThousandths: kg ?? 0, poundThousandths: lb ?? 0))
    }

    func order(of set: LoggedSet) throws -> Int {
        try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM sets WHERE workout_id = ? AND exercise_id = ? AND deleted_at IS NULL
            AND (performed_at < ? OR (performed_at = ? AND id <= ?))
            """, arguments: [set.workoutID.key, set.exerciseID.key, set.performedAt, set.performedAt, set.id.key]) ?? 1
    }

    /// The set an `edit` or `delete` means, in the workout `workout` resolves to.
    func targetSet(_ target: SetTarget, in workout: WorkoutTarget) throws -> LoggedSet {
        guard let chosen = try resolveWorkout(workout) else {
            switch target {
            case .last: throw UserError("There is no set to edit: none is logged yet; log one first, e.g. `bench 100x5`.")
            case .number(let n): throw UserError("There is no workout yet, so there is no set #\(n); log a set first, e.g. `bench 100x5`.")
            }
        }
        let sets = try liveSets(workoutID: chosen.id)
        // The current workout is "the current workout" in messages; another is named.
        let which = workout == .current ? "the current workout" : Self.describe(chosen)
        switch target {
        case .last:
            guard let last = sets.last else {
                throw UserError("There is no set in \(which) yet; log one first, e.g. `bench 100x5`.")
            }
            return last
        case .number(let n):
            guard n >= 1, n <= sets.count else {
                let show = workout == .current ? "`show`" : "`show --workout \(try reference(of: chosen))`"
                throw UserError("There is no set #\(n): \(which) has \(sets.count) set\(sets.count == 1 ? "" : "s"); \(show) numbers them.")
            }
            return sets[n - 1]
        }
    }
}
