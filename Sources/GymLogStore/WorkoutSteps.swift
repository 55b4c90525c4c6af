import Foundation
import GRDB
import GymLogCore

/// The steps on workouts that run inside a write transaction: which workout is open, start
/// one, close one.
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

    func workout(id: UUID) throws -> Workout? {
        try Row.fetchOne(db, sql: "SELECT \(Rows.workoutColumns) FROM workouts w WHERE w.id = ?", arguments: [id.key]).map { Rows.workout($0) }
    }

    func latestWorkout() throws -> Workout? {
        try Row.fetchOne(db, sql: "SELECT \(Rows.workoutColumns) FROM workouts w WHERE w.deleted_at IS NULL ORDER BY w.started_at DESC LIMIT 1")
            .map { Rows.workout($0) }
    }
}
