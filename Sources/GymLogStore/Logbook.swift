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
    /// that earlier moment instead of now (see `LoggingSteps.logValues`).
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
        try commit(action: typed ?? "+") { w in try LoggingSteps.repeatLastRound(patch, at: at, in: &w) }
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
        try commit(action: typed ?? "edit") { w in try LoggingSteps.editSet(target, of: workout, patch: patch, in: &w) }
    }

    /// Tombstones one set of a workout (the current one unless `workout` names another).
    public func deleteSet(_ target: SetTarget, in workout: WorkoutTarget = .current, typed: String? = nil) throws -> LoggedSet {
        try commit(action: typed ?? "delete") { w in try LoggingSteps.deleteSet(target, of: workout, in: &w) }
    }

    // MARK: Workouts

    /// Starts a new workout now. An open workout with sets is finished first (its summary is
    /// returned); one with no sets yet is reused (renamed) rather than left empty; an idle one
    /// is closed at its last set, or discarded when empty. `at` starts a past workout at that
    /// moment instead and leaves the open one alone.
    public func startWorkout(name: String?, typed: String? = nil, at: Int64? = nil, routine: UUID? = nil) throws -> StartResult {
        try commit(action: typed ?? "start") { w in try WorkoutSteps.startWorkout(name: name, at: at, routine: routine, in: &w) }
    }

    /// Ends a workout and sums it up: the open one, else the newest one never finished (a
    /// past session logged with `--at`, or one that idled out), or the one `workout` names.
    /// Only the open workout, being done now, ends now; any other ends at its last set (its
    /// start when it has none). One with no live sets is not kept: it is discarded. A workout
    /// that has its end already is only summed up.
    public func finishWorkout(_ workout: WorkoutTarget = .current, typed: String? = nil) throws -> FinishResult {
        try commit(action: typed ?? "finish") { w in try WorkoutSteps.finishWorkout(workout, in: &w) }
    }

    /// Sets the note of a workout: the open one (starting one if none is open), or the one
    /// `workout` names.
    public func noteWorkout(_ text: String, in target: WorkoutTarget = .current, typed: String? = nil) throws -> Workout {
        try commit(action: typed ?? "note") { w in try WorkoutSteps.noteWorkout(text, of: target, in: &w) }
    }
}
