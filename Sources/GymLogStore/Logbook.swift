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
            let values = specs.map { SetResolver.values(of: $0, defaultUnit: w.settings.defaultUnit) }
            return try LoggingSteps.logLine(mention, values: values, at: at, in: &w)
        }
    }

    /// Logs sets whose values are already resolved (planned sets done with `ok`), each part
    /// under an exercise named as typed, exactly as the line that says them would log: one part
    /// as `logSets`, more as a superset round (`logSuperset`), in `superset` when given (the
    /// planned superset's earlier rounds) or a new one.
    public func logResolved(_ parts: [(exercise: ExerciseMention, values: [SetValues])], superset: UUID? = nil,
                            typed: String, at: Int64? = nil) throws -> [LogResult] {
        try commit(action: typed) { w in try LoggingSteps.logRound(parts, superset: superset, at: at, in: &w) }
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
                results.append(try LoggingSteps.logValues(Array(repeating: v, count: max(1, patch.count)), exercise: exercise, createdExercise: false,
                                               at: at, superset: last.supersetID, in: &w))
            }
            if results.count > 1 { w.describeAction(LoggingSteps.describeRound(results), workout: results[0].workout.id) }
            return results
        }
    }

    /// Logs one round of a superset (`bench 100x5 & row 70x8`): each exercise's sets in turn,
    /// all in one new superset, as one action for `undo`.
    public func logSuperset(_ parts: [EntryPart], typed: String? = nil, at: Int64? = nil) throws -> [LogResult] {
        try commit(action: typed ?? "superset") { w in
            let round = parts.map { part in
                (exercise: part.exercise, values: part.sets.map { SetResolver.values(of: $0, defaultUnit: w.settings.defaultUnit) })
            }
            return try LoggingSteps.logRound(round, at: at, in: &w)
        }
    }

    /// Logs a parsed set line: one exercise's sets (`logSets`), `+` (`repeatLastRound`) or a
    /// superset round (`logSuperset`). The REPL, `gymlog log` and the tests log lines through
    /// this one dispatch. `undo` is no set line: its caller runs `undo()` instead.
    public func logEntry(_ entry: EntryLine, typed: String? = nil, at: Int64? = nil) throws -> [LogResult] {
        switch entry {
        case .log(let mention, let specs): [try logSets(exercise: mention, specs: specs, typed: typed, at: at)]
        case .repeatLast(let patch): try repeatLastRound(patch, typed: typed, at: at)
        case .superset(let parts): try logSuperset(parts, typed: typed, at: at)
        case .undo: preconditionFailure("`undo` is not logged: the caller runs GymLogDatabase.undo()")
        }
    }

    /// Changes fields of one set of a workout (`edit 102.5x5`, `edit 3 @9`; the current
    /// workout unless `workout` names another) and recomputes its records.
    public func editSet(_ target: SetTarget, in workout: WorkoutTarget = .current, patch: SetPatch, typed: String? = nil) throws -> StoredSet {
        try commit(action: typed ?? "edit") { w in
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
    }

    /// Tombstones one set of a workout (the current one unless `workout` names another).
    public func deleteSet(_ target: SetTarget, in workout: WorkoutTarget = .current, typed: String? = nil) throws -> LoggedSet {
        try commit(action: typed ?? "delete") { w in
            let set = try Workouts(w).targetSet(target, in: workout)
            try w.write(.sets, id: set.id, op: .delete, fields: [(tombstoneField, .int(w.now))])
            try RecordBook(w).rebuildRecords(exerciseID: set.exerciseID)
            let name = try Exercises.name(of: set.exerciseID, in: w)
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
                try Workouts(w).requirePast(at)
                let workout = try WorkoutSteps.createWorkout(name: name, startedAt: at, routine: routine, in: &w)
                w.describeAction(name.map { "workout '\($0)'" } ?? "a past workout", workout: workout.id)
                return StartResult(workout: workout, finished: nil)
            }
            var finished: WorkoutSummary?
            if let open = try Workouts(w).openWorkout() {
                if try Workouts(w).setCount(workoutID: open.workout.id) == 0 {
                    var workout = open.workout
                    var fields: [(String, FieldValue)] = []
                    if let name, name != workout.name { fields.append(("name", .text(name))) }
                    if try Workouts(w).routineID(of: workout.id) != routine { fields += [("routine_id", routine.map { .text($0.key) } ?? .null), ("skipped", .null)] }
                    if !fields.isEmpty {
                        try w.write(.workouts, id: workout.id, op: .update, fields: fields)
                        workout.name = name ?? workout.name
                        w.describeAction("workout '\(workout.name ?? "")'", workout: workout.id)
                    }
                    return StartResult(workout: workout, finished: nil)
                }
                finished = try WorkoutSteps.close(open.workout, at: w.now, in: &w)
            } else {
                try WorkoutSteps.closeIdleWorkout(in: &w)
            }
            let workout = try WorkoutSteps.createWorkout(name: name, routine: routine, in: &w)
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
            let open = try Workouts(w).openWorkout()?.workout
            let chosen: Workout
            if workout == .current {
                guard let unfinished = try open ?? Workouts(w).newestNeverFinished() else { return .nothingOpen }
                chosen = unfinished
            } else {
                chosen = try Workouts(w).requireWorkout(workout)
            }
            if chosen.endedAt != nil, try Workouts(w).setCount(workoutID: chosen.id) > 0 { return .finished(try Workouts(w).summary(of: chosen)) }
            let live: Bool
            if case .past = workout { live = false } else { live = chosen.id == open?.id }
            let end = live ? w.now : try Workouts(w).lastSetTime(workoutID: chosen.id) ?? chosen.startedAt
            let name = chosen.name.map { "workout '\($0)'" } ?? "the workout"
            guard let summary = try WorkoutSteps.close(chosen, at: end, in: &w) else {
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
            var workout: Workout
            if target != .current {
                workout = try Workouts(w).requireWorkout(target)
            } else if let open = try Workouts(w).openWorkout()?.workout {
                workout = open
            } else {
                workout = try WorkoutSteps.currentWorkout(in: &w).0
            }
            try w.write(.workouts, id: workout.id, op: .update, fields: [("note", .text(text))])
            workout.note = text
            w.describeAction("note '\(text)'", workout: workout.id)
            return workout
        }
    }
}
