import Foundation
import GRDB
import GymLogCore

/// The steps of logging sets, inside the caller's transaction: a line or a superset round
/// resolved, placed in its workout, written and checked for records; and `+`, `edit` and
/// `delete` of a logged set (each documented on its `GymLogDatabase` method).
enum LoggingSteps {
    /// The parts of one line: one exercise's sets, or a superset round (more than one part) in
    /// `superset` or a new superset, named for `undo` as the round it was.
    static func logRound(_ parts: [(exercise: ExerciseMention, values: [SetValues])], superset: UUID? = nil,
                         at: Int64?, in w: inout ChangeWriter) throws -> [LogResult] {
        guard parts.count > 1 else { return try parts.map { try logLine($0.exercise, values: $0.values, at: at, in: &w) } }
        let group = try superset ?? continuedSuperset(parts.map(\.exercise), at: at, in: w) ?? w.environment.newID()
        let results = try parts.map { try logLine($0.exercise, values: $0.values, at: at, superset: group, in: &w) }
        w.describeAction(describeRound(results), workout: results.first?.workout.id)
        return results
    }

    /// The superset a round typed by hand goes on: the one whose last round is the last thing
    /// done in the workout the round goes into, when the round names the same exercises in the
    /// same order (a new round of it, as `+` and `ok` log one); nil for a new superset.
    static func continuedSuperset(_ mentions: [ExerciseMention], at: Int64?, in w: ChangeWriter) throws -> UUID? {
        let workouts = Workouts(w)
        guard let into = try at.map({ try workouts.workout(containing: $0) }) ?? workouts.openWorkout()?.workout,
              let last = try workouts.setToRepeat(at: at), last.workoutID == into.id, let superset = last.supersetID
        else { return nil }
        let round = try workouts.lastRound(of: superset, workoutID: into.id)
        guard round.last?.id == last.id, round.count == mentions.count else { return nil }
        let resolver = try Exercises.resolver(in: w)
        for (set, mention) in zip(round, mentions) {
            guard case .found(let exercise) = resolver.resolve(mention.name), exercise.id == set.exerciseID else { return nil }
        }
        return superset
    }

    /// The sets of one exercise as a line names them: resolves the exercise (creating it when
    /// new), checks they fit its kind, and writes them. Set lines, `ok` and each part of a
    /// superset all log through it.
    static func logLine(_ mention: ExerciseMention, values: [SetValues], at: Int64?, superset: UUID? = nil,
                        in w: inout ChangeWriter) throws -> LogResult {
        let (exercise, created) = try Exercises.resolveOrCreate(mention, firstSet: values.first, in: &w)
        try Exercises.requireFit(values, exercise: exercise, in: &w)
        return try logValues(values, exercise: exercise, createdExercise: created, at: at, superset: superset, in: &w)
    }

    /// Writes the sets of one line. `at` (a moment in the past) puts them in the workout that
    /// was going on then, or a new one starting then, a second apart from `at` on (after any
    /// set already there), with their records recomputed from the whole history.
    static func logValues(_ values: [SetValues], exercise: Exercise, createdExercise: Bool, at past: Int64? = nil,
                          superset: UUID? = nil, in w: inout ChangeWriter) throws -> LogResult {
        if let past { return try logPastValues(values, exercise: exercise, createdExercise: createdExercise, at: past, superset: superset, in: &w) }
        let (workout, started) = try WorkoutSteps.currentWorkout(in: &w)
        let offset = w.environment.utcOffset(w.now)
        var stored: [StoredSet] = []
        // The new sets' numbers and the session volume follow on from the tally, updated
        // here as the triggers update the stored one.
        let placed = try Workouts(w).placement(workoutID: workout.id, exerciseID: exercise.id)
        var order = placed.liveSets, session = placed.volume
        // Every set gets a distinct, increasing time (even within one millisecond) so all
        // devices order sets alike without relying on local row ids.
        let first = max(w.now, placed.latest + 1)
        for (i, v) in values.enumerated() {
            let id = w.newRowID()
            let at = first + Int64(i)
            try w.write(.sets, id: id, op: .create, fields: SetColumns.createFields(
                workoutID: workout.id, exerciseID: exercise.id, values: v, performedAt: at, utcOffsetSeconds: offset, superset: superset))
            let set = LoggedSet(id: id, workoutID: workout.id, exerciseID: exercise.id, values: v, performedAt: at,
                                utcOffsetSeconds: offset, supersetID: superset)
            order += 1
            session.add(v)
            stored.append(StoredSet(set: set, order: order, records: try RecordBook(w).checkRecords(set, session: session)))
        }
        w.describeAction(describe(values, of: exercise, created: createdExercise), workout: workout.id)
        return LogResult(exercise: exercise, createdExercise: createdExercise, workout: workout, startedWorkout: started, sets: stored)
    }

    private static func logPastValues(_ values: [SetValues], exercise: Exercise, createdExercise: Bool, at past: Int64,
                                      superset: UUID?, in w: inout ChangeWriter) throws -> LogResult {
        try Workouts(w).requirePast(past)
        let existing = try Workouts(w).workout(containing: past)
        let workout = try existing ?? WorkoutSteps.createWorkout(name: nil, startedAt: past, in: &w)
        // Each line after the sets already logged from `past` on, so repeated `--at` lines
        // of one session keep the order they were typed in.
        let taken = try Int64.fetchOne(w.db, sql: """
            SELECT MAX(performed_at) FROM sets WHERE workout_id = ? AND deleted_at IS NULL AND performed_at >= ?
            """, arguments: [workout.id.key, past])
        let first = taken.map { max(past, $0 + 1000) } ?? past
        let offset = w.environment.utcOffset(first)
        // As on a live line, growing this workout's own session-volume record is not news.
        let sessionHeldHere = try String.fetchOne(w.db, sql: "SELECT workout_id FROM records WHERE exercise_id = ? AND metric = ?",
                                                  arguments: [exercise.id.key, RecordMetric.sessionVolume.rawValue]) == workout.id.key
        var written: [LoggedSet] = []
        for (i, v) in values.enumerated() {
            let id = w.newRowID()
            let at = first + Int64(i) * 1000
            try w.write(.sets, id: id, op: .create, fields: SetColumns.createFields(
                workoutID: workout.id, exerciseID: exercise.id, values: v, performedAt: at, utcOffsetSeconds: offset, superset: superset))
            written.append(LoggedSet(id: id, workoutID: workout.id, exerciseID: exercise.id, values: v, performedAt: at,
                                     utcOffsetSeconds: offset, supersetID: superset))
        }
        // Later sets may hold records these beat or tie: recompute from the whole history.
        try RecordBook(w).rebuildRecords(exerciseID: exercise.id)
        let held = try RecordBook(w).recordsHeld(by: written.map(\.id))
        let stored = try written.map { set in
            // A set's records are as of its date (issue 48): it is announced against the sets
            // done before it, never against one done after it (`--at yesterday` beats no set of today).
            let asOf = try RecordBook(w).recordsAsOf(exerciseID: exercise.id, before: set.performedAt, workout: workout.id)
            var records = recordValues(of: set, formula: w.settings.e1rmFormula).compactMap { record -> RecordBreak? in
                guard let previous = asOf[RecordKey(metric: record.metric, reps: record.reps)],
                      record.metric.improves(record.value, on: previous) else { return nil }
                return RecordBreak(metric: record.metric, reps: record.reps, value: record.value, previous: previous)
            }
            // The session volume is the workout's, held by its last set: announced when it holds
            // it now, against the earlier workouts' best, unless this workout already held it.
            if let volume = (held[set.id] ?? []).first(where: { $0.metric == .sessionVolume }), !sessionHeldHere,
               let previous = asOf[RecordKey(metric: .sessionVolume, reps: 0)], volume.metric.improves(volume.value, on: previous) {
                records.append(RecordBreak(metric: .sessionVolume, reps: 0, value: volume.value, previous: previous))
            }
            return StoredSet(set: set, order: try Workouts(w).order(of: set), records: records)
        }
        w.describeAction(describe(values, of: exercise, created: createdExercise), workout: workout.id)
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

    /// `bench 100kg x 5 & row 70kg x 8`: what `undo` names a superset round.
    static func describeRound(_ results: [LogResult]) -> String {
        let round = results.map { describe($0.sets.map(\.set.values), of: $0.exercise, created: false) }.joined(separator: " & ")
        let created = results.filter(\.createdExercise).map { "'\($0.exercise.name)'" }
        guard !created.isEmpty else { return round }
        return round + ", and the new exercise\(created.count == 1 ? "" : "s") " + created.joined(separator: ", ")
    }

    /// See `GymLogDatabase.repeatLastRound`.
    static func repeatLastRound(_ patch: SetPatch, at: Int64?, in w: inout ChangeWriter) throws -> [LogResult] {
        guard let last = try Workouts(w).setToRepeat(at: at) else {
            throw UserError(at == nil ? "There is no set to repeat yet: log one first, e.g. `bench 100x5`."
                : "There is no set to repeat at that time: log one first, e.g. `bench 100x5`.")
        }
        let round = try last.supersetID.map { try Workouts(w).lastRound(of: $0, workoutID: last.workoutID) } ?? [last]
        var results: [LogResult] = []
        for set in round {
            guard let exercise = try Exercises.exercise(id: set.exerciseID, in: w) else {
                throw UserError("The last set's exercise is missing; log the exercise by name instead.")
            }
            let v = SetResolver.values(repeating: set.values, with: patch, defaultUnit: w.settings.defaultUnit)
            try Exercises.requireFit([v], exercise: exercise, in: &w)
            results.append(try logValues(Array(repeating: v, count: max(1, patch.count)), exercise: exercise, createdExercise: false,
                                         at: at, superset: last.supersetID, in: &w))
        }
        if results.count > 1 { w.describeAction(describeRound(results), workout: results[0].workout.id) }
        return results
    }

    /// See `GymLogDatabase.editSet`.
    static func editSet(_ target: SetTarget, of workout: WorkoutTarget, patch: SetPatch, in w: inout ChangeWriter) throws -> StoredSet {
        let set = try Workouts(w).targetSet(target, in: workout)
        let new = SetResolver.values(editing: set.values, with: patch, defaultUnit: w.settings.defaultUnit)
        try Exercises.requireFit([new], exerciseID: set.exerciseID, was: set.values, in: &w)
        let oldFields = SetColumns.fields(of: set.values), newFields = SetColumns.fields(of: new)
        let changed = zip(oldFields, newFields).filter { $0.0.1 != $0.1.1 }.map { $0.1 }
        if !changed.isEmpty {
            try w.write(.sets, id: set.id, op: .update, fields: changed)
            try RecordBook(w).rebuildRecords(exerciseID: set.exerciseID)
            let name = try Exercises.name(of: set.exerciseID, in: w)
            w.describeAction("\(name) \(set.summary) -> \(new.summary)", workout: set.workoutID)
        }
        var updated = set
        updated.values = new
        return StoredSet(set: updated, order: try Workouts(w).order(of: updated), records: [])
    }

    /// See `GymLogDatabase.deleteSet`.
    static func deleteSet(_ target: SetTarget, of workout: WorkoutTarget, in w: inout ChangeWriter) throws -> LoggedSet {
        let set = try Workouts(w).targetSet(target, in: workout)
        try w.write(.sets, id: set.id, op: .delete, fields: [(tombstoneField, .int(w.now))])
        try RecordBook(w).rebuildRecords(exerciseID: set.exerciseID)
        let name = try Exercises.name(of: set.exerciseID, in: w)
        w.describeAction("\(name) \(set.summary)", workout: set.workoutID)
        return set
    }
}
