import Foundation
import GRDB
import GymLogCore

/// Which workout a command (`show`, `edit`, `delete`, `note`, `finish`) acts on. Every such
/// command resolves it through `Workouts.resolveWorkout`, the one place that decides.
public enum WorkoutTarget: Equatable, Sendable {
    /// The current workout: the open one, else the latest.
    case current
    /// The past workout a REPL session is filling in since `start --at`: the current one for
    /// that session's commands, and never live (`finish` ends it at its last set).
    case past(UUID)
    /// One workout by id, already chosen (asked about before a delete).
    case id(UUID)
    /// The workout a user named: `--workout 2026-11-20`, `2026-11-20#2`, `-2`.
    case reference(WorkoutReference)
}

/// A workout as `delete --workout` is about to delete it.
public struct WorkoutDeletion: Equatable, Sendable {
    /// The workout, as it was before the delete.
    public var workout: Workout
    /// Its live sets, which go with it.
    public var setCount: Int
}

extension GymLogDatabase {
    /// Tombstones a whole workout and its live sets, as ONE action for `undo`, and
    /// recomputes the records of their exercises.
    public func deleteWorkout(_ target: WorkoutTarget, typed: String? = nil) throws -> WorkoutDeletion {
        try commit(action: typed ?? "delete --workout") { w in try WorkoutSteps.deleteWorkout(target, in: &w) }
    }

    /// Renames a workout (`name`: nil leaves it, "" clears it) and moves its start to `start`,
    /// its end and its live sets with it (they keep their times relative to the start), as ONE
    /// action; the records of its exercises are recomputed, since what came first may change.
    public func editWorkout(_ target: WorkoutTarget, name: String?, start: Int64?, typed: String? = nil) throws -> Workout {
        try commit(action: typed ?? "edit --workout") { w in try WorkoutSteps.editWorkout(target, name: name, start: start, in: &w) }
    }

    /// The short reference of a workout (`2026-11-20`, `2026-11-20#2`), as `history` and `show` print it.
    public func reference(of workout: Workout) throws -> String {
        try read { db in try inReadOnlyWriter(db) { try Workouts($0).reference(of: workout) } }
    }
}

extension Workouts {
    /// THE answer to "which workout does this command act on"; nil only when `.current` finds
    /// no workout at all. A reference that names none, or several, is an error saying so.
    func resolveWorkout(_ target: WorkoutTarget) throws -> Workout? {
        switch target {
        case .current:
            // The open workout is always the latest one; with none open, the latest is what
            // `show` shows and `edit N` means.
            return try latestWorkout()
        case .past(let id), .id(let id):
            guard let workout = try workout(id: id), try isLive(id) else {
                throw UserError("That workout is gone (deleted here or on another device); `gymlog history` lists workouts with their references.")
            }
            return workout
        case .reference(let reference):
            return try workout(referredTo: reference)
        }
    }

    /// `resolveWorkout`, for commands that need a workout: with none yet, says to log a set.
    func requireWorkout(_ target: WorkoutTarget) throws -> Workout {
        guard let workout = try resolveWorkout(target) else {
            throw UserError("There is no workout yet; log a set first, e.g. `bench 100x5`.")
        }
        return workout
    }

    private func isLive(_ id: UUID) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT deleted_at IS NULL FROM workouts WHERE id = ?", arguments: [id.key]) ?? false
    }

    /// The workout a reference names, or an error naming the reference and what to do.
    func workout(referredTo reference: WorkoutReference) throws -> Workout {
        let hint = "`gymlog history` lists workouts with their references."
        switch reference {
        case .recent(let n):
            if let row = try Row.fetchOne(db, sql: """
                SELECT \(Rows.workoutColumns) FROM workouts w WHERE w.deleted_at IS NULL
                ORDER BY w.started_at DESC, w.id DESC LIMIT 1 OFFSET ?
                """, arguments: [n - 1]) { return Rows.workout(row) }
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workouts WHERE deleted_at IS NULL") ?? 0
            throw UserError(count == 0 ? "There is no workout yet, so there is no workout -\(n); log a set first, e.g. `bench 100x5`."
                : "There \(count == 1 ? "is 1 workout" : "are \(count) workouts"), so there is no workout -\(n) (-1 is the latest). \(hint)")
        case .day(let day, let index):
            let text = WorkoutReference.dayText(day)
            let workouts = try self.workouts(onDay: day)
            guard !workouts.isEmpty else { throw UserError("No workout on \(text). \(hint)") }
            if let index {
                guard index <= workouts.count else {
                    throw UserError("\(text) has \(workouts.count == 1 ? "one workout" : "\(workouts.count) workouts"), so there is no \(text)#\(index). \(hint)")
                }
                return workouts[index - 1]
            }
            guard workouts.count == 1 else {
                let listed = try workouts.enumerated().map { i, w in
                    let sets = try setCount(workoutID: w.id)
                    return "\(WorkoutReference.label(day: day, index: i + 1, of: workouts.count)) (\(Self.clock(w))\(w.name.map { " '\($0)'" } ?? ""), "
                        + "\(sets) set\(sets == 1 ? "" : "s"))"
                }
                throw UserError("\(text) has \(workouts.count) workouts: \(listed.joined(separator: ", ")). Give one of these references, e.g. --workout \(text)#1.")
            }
            return workouts[0]
        }
    }

    /// The live workouts that started on a local day (each in its own offset), in the order
    /// they started: the order `#N` counts in.
    func workouts(onDay day: Int64) throws -> [Workout] {
        // Offsets reach at most a day either way, so the day's workouts are in this window.
        let from = (day - 1) * 86_400_000, to = (day + 2) * 86_400_000
        var decode = WorkoutDecoder()
        return try Row.fetchAll(db, sql: """
            SELECT \(Rows.workoutColumns) FROM workouts w WHERE w.deleted_at IS NULL AND w.started_at >= ? AND w.started_at < ?
            ORDER BY w.started_at, w.id
            """, arguments: [from, to]).map { decode($0) }
            .filter { WorkoutReference.day(startedAt: $0.startedAt, utcOffsetSeconds: $0.utcOffsetSeconds) == day }
    }

    /// `2026-11-20`, or `2026-11-20#2` when the day has more than one workout.
    func reference(of workout: Workout) throws -> String {
        let day = WorkoutReference.day(startedAt: workout.startedAt, utcOffsetSeconds: workout.utcOffsetSeconds)
        let siblings = try workouts(onDay: day)
        let index = (siblings.firstIndex { $0.id == workout.id } ?? siblings.count) + 1
        return WorkoutReference.label(day: day, index: index, of: max(siblings.count, index))
    }

    /// The live sets of a workout in the order they were done: the order `show` numbers them in.
    func liveSets(workoutID: UUID) throws -> [LoggedSet] {
        var decode = SetDecoder()
        return try Row.fetchAll(db, sql: """
            SELECT \(Rows.setColumns) FROM sets s WHERE s.workout_id = ? AND s.deleted_at IS NULL
            ORDER BY s.performed_at, s.id
            """, arguments: [workoutID.key]).map { decode($0) }
    }

    /// `18:00`.
    static func clock(_ w: Workout) -> String {
        String(localDateTime(millis: w.startedAt, utcOffsetSeconds: w.utcOffsetSeconds).dropFirst(11).prefix(5))
    }

    /// `the workout 'Arms' of 2026-11-23 12:00`, as messages and `undo` name it.
    static func describe(_ w: Workout) -> String {
        "the workout \(w.name.map { "'\($0)' " } ?? "")of \(localDateTime(millis: w.startedAt, utcOffsetSeconds: w.utcOffsetSeconds).prefix(16))"
    }
}
