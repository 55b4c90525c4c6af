import Foundation
import GRDB
import GymLogCore

/// A record a set just set. `value` is in kg for loads, a count for reps, seconds or metres.
public struct RecordBreak: Equatable, Sendable {
    public var metric: RecordMetric
    public var reps: Int
    public var value: Double
    /// The record it beat; nil when this is the first value for the metric.
    public var previous: Double?
}

/// One set as it was stored, with the records it set.
public struct StoredSet: Equatable, Sendable {
    public var set: LoggedSet
    /// 1-based position among this exercise's sets in the workout.
    public var order: Int
    public var records: [RecordBreak]
}

/// What logging a line did.
public struct LogResult: Equatable, Sendable {
    public var exercise: Exercise
    public var createdExercise: Bool
    public var workout: Workout
    public var startedWorkout: Bool
    public var sets: [StoredSet]
}

/// Which set of a workout an `edit` or `delete` means.
public enum SetTarget: Equatable, Sendable {
    /// The workout's last set.
    case last
    /// The workout's Nth set, as numbered by `show`.
    case number(Int)
}

extension GymLogDatabase {
    // MARK: Logging

    /// Logs the sets of one `bench 100x5x3`-style line: resolves the exercise (creating it
    /// when new), finds or starts the workout, writes each set and reports the PRs it set.
    /// `typed` is the line as typed: it names the action for `undo`. `at` logs the line at
    /// that earlier moment instead of now (see `logValues`).
    public func logSets(exercise mention: ExerciseMention, specs: [SetSpec], typed: String? = nil, at: Int64? = nil) throws -> LogResult {
        try commit(action: typed ?? mention.name) { w in
            try w.logLine(mention, values: specs.map { SetResolver.values(of: $0, defaultUnit: w.settings.defaultUnit) }, at: at)
        }
    }

    /// Logs sets whose values are already resolved (planned sets done with `ok`), each part
    /// under an exercise named as typed, exactly as the line that says them would log: one part
    /// as `logSets`, more as a superset round (`logSuperset`), in `superset` when given (the
    /// planned superset's earlier rounds) or a new one.
    public func logResolved(_ parts: [(exercise: ExerciseMention, values: [SetValues])], superset: UUID? = nil,
                            typed: String, at: Int64? = nil) throws -> [LogResult] {
        try commit(action: typed) { w in try w.logRound(parts, superset: superset, at: at) }
    }

    /// Logs the last set again with `patch` applied (`+`, `+ 102.5`, `+ x6`).
    public func repeatLast(_ patch: SetPatch, typed: String? = nil, at: Int64? = nil) throws -> LogResult {
        try repeatLastRound(patch, typed: typed, at: at)[0]
    }

    /// `+`: the last set of the workout the line goes into (the open one, or with `at` the one
    /// going on then), else the last set before the line, again with `patch` applied; after a
    /// superset, its whole last round (each exercise's set, in order, the patch applied to
    /// each), in the same superset.
    public func repeatLastRound(_ patch: SetPatch, typed: String? = nil, at: Int64? = nil) throws -> [LogResult] {
        try commit(action: typed ?? "+") { w in
            guard let last = try w.setToRepeat(at: at) else {
                throw UserError(at == nil ? "There is no set to repeat yet: log one first, e.g. `bench 100x5`."
                    : "There is no set to repeat at that time: log one first, e.g. `bench 100x5`.")
            }
            let round = try last.supersetID.map { try w.lastRound(of: $0, workoutID: last.workoutID) } ?? [last]
            var results: [LogResult] = []
            for set in round {
                guard let exercise = try w.exercise(id: set.exerciseID) else {
                    throw UserError("The last set's exercise is missing; log the exercise by name instead.")
                }
                let v = SetResolver.values(repeating: set.values, with: patch, defaultUnit: w.settings.defaultUnit)
                try w.requireFit([v], exercise: exercise)
                results.append(try w.logValues(Array(repeating: v, count: max(1, patch.count)), exercise: exercise, createdExercise: false,
                                               at: at, superset: last.supersetID))
            }
            if results.count > 1 { w.describeAction(Self.describeRound(results), workout: results[0].workout.id) }
            return results
        }
    }

    /// Logs one round of a superset (`bench 100x5 & row 70x8`): each exercise's sets in turn,
    /// all in one new superset, as one action for `undo`.
    public func logSuperset(_ parts: [EntryPart], typed: String? = nil, at: Int64? = nil) throws -> [LogResult] {
        try commit(action: typed ?? "superset") { w in
            try w.logRound(parts.map { part in
                (part.exercise, part.sets.map { SetResolver.values(of: $0, defaultUnit: w.settings.defaultUnit) })
            }, at: at)
        }
    }

    /// `bench 100kg x 5 & row 70kg x 8`: what `undo` names a superset round.
    static func describeRound(_ results: [LogResult]) -> String {
        let round = results.map { ChangeWriter.describe($0.sets.map(\.set.values), of: $0.exercise, created: false) }.joined(separator: " & ")
        let created = results.filter(\.createdExercise).map { "'\($0.exercise.name)'" }
        guard !created.isEmpty else { return round }
        return round + ", and the new exercise\(created.count == 1 ? "" : "s") " + created.joined(separator: ", ")
    }

    /// Changes fields of one set of a workout (`edit 102.5x5`, `edit 3 @9`; the current
    /// workout unless `workout` names another) and recomputes its records.
    public func editSet(_ target: SetTarget, in workout: WorkoutTarget = .current, patch: SetPatch, typed: String? = nil) throws -> StoredSet {
        try commit(action: typed ?? "edit") { w in
            let set = try w.targetSet(target, in: workout)
            let new = SetResolver.values(editing: set.values, with: patch, defaultUnit: w.settings.defaultUnit)
            try w.requireFit([new], exerciseID: set.exerciseID, was: set.values)
            let oldFields = SetColumns.fields(of: set.values), newFields = SetColumns.fields(of: new)
            let changed = zip(oldFields, newFields).filter { $0.0.1 != $0.1.1 }.map { $0.1 }
            if !changed.isEmpty {
                try w.write(.sets, id: set.id, op: .update, fields: changed)
                try w.rebuildRecords(exerciseID: set.exerciseID)
                let name = try w.exerciseName(set.exerciseID)
                w.describeAction("\(name) \(set.summary) -> \(new.summary)", workout: set.workoutID)
            }
            var updated = set
            updated.values = new
            return StoredSet(set: updated, order: try w.order(of: updated), records: [])
        }
    }

    /// Tombstones one set of a workout (the current one unless `workout` names another).
    public func deleteSet(_ target: SetTarget, in workout: WorkoutTarget = .current, typed: String? = nil) throws -> LoggedSet {
        try commit(action: typed ?? "delete") { w in
            let set = try w.targetSet(target, in: workout)
            try w.write(.sets, id: set.id, op: .delete, fields: [(tombstoneField, .int(w.now))])
            try w.rebuildRecords(exerciseID: set.exerciseID)
            let name = try w.exerciseName(set.exerciseID)
            w.describeAction("\(name) \(set.summary)", workout: set.workoutID)
            return set
        }
    }

    // MARK: Workouts

    /// Starts a new workout now. An open workout with sets is finished first (its summary is
    /// returned); one with no sets yet is reused (renamed) rather than left empty; an idle one
    /// is closed at its last set, or discarded when empty. `at` starts a past workout at that
    /// moment instead and leaves the open one alone.
    public func startWorkout(name: String?, typed: String? = nil, at: Int64? = nil, routine: UUID? = nil) throws -> StartResult {
        try commit(action: typed ?? "start") { w in
            if let at {
                try w.requirePast(at)
                let workout = try w.createWorkout(name: name, startedAt: at, routine: routine)
                w.describeAction(name.map { "workout '\($0)'" } ?? "a past workout", workout: workout.id)
                return StartResult(workout: workout, finished: nil)
            }
            var finished: WorkoutSummary?
            if let open = try w.openWorkout() {
                if try w.setCount(workoutID: open.workout.id) == 0 {
                    var workout = open.workout
                    var fields: [(String, FieldValue)] = []
                    if let name, name != workout.name { fields.append(("name", .text(name))) }
                    if try w.routineID(of: workout.id) != routine { fields += [("routine_id", routine.map { .text($0.key) } ?? .null), ("skipped", .null)] }
                    if !fields.isEmpty {
                        try w.write(.workouts, id: workout.id, op: .update, fields: fields)
                        workout.name = name ?? workout.name
                        w.describeAction("workout '\(workout.name ?? "")'", workout: workout.id)
                    }
                    return StartResult(workout: workout, finished: nil)
                }
                finished = try w.close(open.workout, at: w.now)
            } else {
                try w.closeIdleWorkout()
            }
            let workout = try w.createWorkout(name: name, routine: routine)
            w.describeAction(name.map { "workout '\($0)'" } ?? "a new workout", workout: workout.id)
            return StartResult(workout: workout, finished: finished)
        }
    }

    /// Ends a workout and sums it up: the open one, else the newest one never finished (a
    /// past session logged with `--at`, or one that idled out), or the one `workout` names.
    /// Only the open workout, being done now, ends now; any other ends at its last set (its
    /// start when it has none). One with no live sets is not kept: it is discarded. A workout
    /// that has its end already is only summed up.
    public func finishWorkout(_ workout: WorkoutTarget = .current, typed: String? = nil) throws -> FinishResult {
        try commit(action: typed ?? "finish") { w in
            let open = try w.openWorkout()?.workout
            let chosen: Workout
            if workout == .current {
                guard let unfinished = try open ?? w.newestNeverFinished() else { return .nothingOpen }
                chosen = unfinished
            } else {
                chosen = try w.requireWorkout(workout)
            }
            if chosen.endedAt != nil, try w.setCount(workoutID: chosen.id) > 0 { return .finished(try w.summary(of: chosen)) }
            let live: Bool
            if case .past = workout { live = false } else { live = chosen.id == open?.id }
            let end = live ? w.now : try w.lastSetTime(workoutID: chosen.id) ?? chosen.startedAt
            let name = chosen.name.map { "workout '\($0)'" } ?? "the workout"
            guard let summary = try w.close(chosen, at: end) else {
                w.describeAction("the empty workout (discarded)", workout: chosen.id)
                return .discarded(chosen)
            }
            w.describeAction("\(name) (\(summary.setCount) set\(summary.setCount == 1 ? "" : "s"))", workout: chosen.id)
            return .finished(summary)
        }
    }

    /// Sets the note of a workout: the open one (starting one if none is open), or the one
    /// `workout` names.
    public func noteWorkout(_ text: String, in target: WorkoutTarget = .current, typed: String? = nil) throws -> Workout {
        try commit(action: typed ?? "note") { w in
            var workout = try target == .current ? w.openWorkout()?.workout ?? w.currentWorkout().0 : w.requireWorkout(target)
            try w.write(.workouts, id: workout.id, op: .update, fields: [("note", .text(text))])
            workout.note = text
            w.describeAction("note '\(text)'", workout: workout.id)
            return workout
        }
    }
}

// MARK: - Steps used inside a write transaction

extension ChangeWriter {
    /// The newest live workout if it is still open, by the one rule of `WorkoutStatus`.
    func openWorkout() throws -> (workout: Workout, lastActivity: Int64)? {
        guard let newest = try newestUnfinishedWorkout() else { return nil }
        return WorkoutStatus(now: now, idleGapMinutes: settings.idleGapMinutes).isOpen(newest.workout, lastActivity: newest.lastActivity)
            ? newest : nil
    }

    /// The newest live workout when it was never finished, with the time of its last set.
    func newestUnfinishedWorkout() throws -> (workout: Workout, lastActivity: Int64)? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(Rows.workoutColumns),
                   (SELECT MAX(performed_at) FROM sets WHERE workout_id = w.id AND deleted_at IS NULL) AS last_activity
            FROM workouts w WHERE w.deleted_at IS NULL ORDER BY w.started_at DESC LIMIT 1
            """)) else { return nil }
        let workout = Rows.workout(row)
        guard workout.endedAt == nil else { return nil }
        var lastActivity = ColumnPositions(["last_activity"])
        return (workout, max(workout.startedAt, row[lastActivity(row)[0]] as Int64? ?? 0))
    }

    /// The newest live workout with no end, whether or not a newer one exists: a past session
    /// logged with `--at` after a finished workout is one.
    func newestNeverFinished() throws -> Workout? {
        try Row.fetchOne(db, sql: """
            SELECT \(Rows.workoutColumns) FROM workouts w WHERE w.deleted_at IS NULL AND w.ended_at IS NULL
            ORDER BY w.started_at DESC, w.id DESC LIMIT 1
            """).map { Rows.workout($0) }
    }

    mutating func createWorkout(name: String?, startedAt: Int64? = nil, routine: UUID? = nil) throws -> Workout {
        let id = newRowID()
        let start = startedAt ?? now
        let offset = environment.utcOffset(start)
        try write(.workouts, id: id, op: .create, fields: [
            ("name", name.map { .text($0) } ?? .null), ("started_at", .int(start)), ("ended_at", .null),
            ("utc_offset", .int(Int64(offset))), ("note", .null), (tombstoneField, .null),
        ] + (routine.map { [("routine_id", .text($0.key))] } ?? []))
        return Workout(id: id, name: name, startedAt: start, utcOffsetSeconds: offset)
    }

    /// Refuses a moment after now: a past session is logged at its real time, a future one not at all.
    func requirePast(_ at: Int64) throws {
        guard at <= now else {
            throw UserError("That time is in the future (it is \(localDateTime(millis: now, utcOffsetSeconds: environment.utcOffset(now))) now); "
                + "log what you did without --at, or give the earlier time it happened.")
        }
    }

    /// The live workout that was going on at `at`: started by then, and not ended before it
    /// (an unfinished one ends at its last set plus the idle gap, the rule `WorkoutStatus` has).
    func workout(containing at: Int64) throws -> Workout? {
        let gap = Int64(settings.idleGapMinutes) * 60_000
        return try Row.fetchOne(db, sql: """
            SELECT \(Rows.workoutColumns) FROM workouts w
            WHERE w.deleted_at IS NULL AND w.started_at <= ?1
              AND COALESCE(w.ended_at, MAX(w.started_at, COALESCE((SELECT MAX(performed_at) FROM sets
                  WHERE workout_id = w.id AND deleted_at IS NULL), 0)) + ?2) >= ?1
            ORDER BY w.started_at DESC LIMIT 1
            """, arguments: [at, gap]).map { Rows.workout($0) }
    }

    func routineID(of workoutID: UUID) throws -> UUID? {
        try String.fetchOne(db, sql: "SELECT routine_id FROM workouts WHERE id = ?", arguments: [workoutID.key]).flatMap(parseUUID)
    }

    func lastSetTime(workoutID: UUID) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT MAX(performed_at) FROM sets WHERE workout_id = ? AND deleted_at IS NULL", arguments: [workoutID.key])
    }

    /// The open workout, or a new one; an idle unfinished workout is closed first.
    mutating func currentWorkout() throws -> (Workout, started: Bool) {
        if let open = try openWorkout() { return (open.workout, false) }
        try closeIdleWorkout()
        return (try createWorkout(name: nil), true)
    }

    /// Closes the newest unfinished workout that the idle gap has ended, at its last set.
    mutating func closeIdleWorkout() throws {
        if let idle = try newestUnfinishedWorkout(), try openWorkout() == nil {
            // Nobody prints this summary, and it reads the whole workout: skip it on the
            // logging path, where the idle gap closes the previous workout.
            _ = try close(idle.workout, at: idle.lastActivity, summarise: false)
        }
    }

    /// Ends `workout` at `end` and returns its summary (when `summarise`); a workout without
    /// live sets is not kept (tombstoned; `undo` brings it back) and gives nil.
    mutating func close(_ workout: Workout, at end: Int64, summarise: Bool = true) throws -> WorkoutSummary? {
        guard try setCount(workoutID: workout.id) > 0 else {
            try write(.workouts, id: workout.id, op: .delete, fields: [(tombstoneField, .int(now))])
            return nil
        }
        try write(.workouts, id: workout.id, op: .update, fields: [("ended_at", .int(end))])
        var ended = workout
        ended.endedAt = end
        return summarise ? try summary(of: ended) : nil
    }

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
        let (exercise, created) = try resolveOrCreateExercise(mention, firstSet: values.first)
        try requireFit(values, exercise: exercise)
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
            stored.append(StoredSet(set: set, order: order, records: try checkRecords(set, session: session)))
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
        let before = try storedRecordValues(exerciseID: exercise.id)
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
        try rebuildRecords(exerciseID: exercise.id)
        let held = try recordsHeld(by: written.map(\.id))
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
        try exercise(id: id)?.name ?? "?"
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

    func latestWorkout() throws -> Workout? {
        try Row.fetchOne(db, sql: "SELECT \(Rows.workoutColumns) FROM workouts w WHERE w.deleted_at IS NULL ORDER BY w.started_at DESC LIMIT 1")
            .map { Rows.workout($0) }
    }
}
