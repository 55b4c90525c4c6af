import Foundation
import GRDB
import GymLogCore

/// The workouts service: which workout is open, which one a command or a reference means,
/// and what a workout holds, read inside the caller's transaction. Reads only; the steps
/// that start and close workouts are `WorkoutSteps`.
struct Workouts {
    let db: Database
    let now: Int64
    let settings: Settings
    let environment: Environment

    init(_ w: ChangeWriter) {
        db = w.db; now = w.now; settings = w.settings; environment = w.environment
    }

    /// The newest live workout if it is still open, by the one rule of `WorkoutStatus`.
    func openWorkout() throws -> (workout: Workout, lastActivity: Int64)? {
        guard let newest = try newestUnfinishedWorkout() else { return nil }
        return status.isOpen(newest.workout, lastActivity: newest.lastActivity) ? newest : nil
    }

    private var status: WorkoutStatus { WorkoutStatus(now: now, idleGapMinutes: settings.idleGapMinutes) }

    /// The newest live workout that could be the current one (`WorkoutStatus.latestCurrentStart`)
    /// when it was never finished, with the time of its last set.
    func newestUnfinishedWorkout() throws -> (workout: Workout, lastActivity: Int64)? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(Rows.workoutColumns),
                   (SELECT MAX(performed_at) FROM sets WHERE workout_id = w.id AND deleted_at IS NULL) AS last_activity
            FROM workouts w WHERE w.deleted_at IS NULL AND w.started_at <= ? ORDER BY w.started_at DESC, w.id DESC LIMIT 1
            """), arguments: [status.latestCurrentStart]) else { return nil }
        let workout = Rows.workout(row)
        guard workout.endedAt == nil else { return nil }
        var lastActivity = ColumnPositions(["last_activity"])
        return (workout, max(workout.startedAt, row[lastActivity(row)[0]] as Int64? ?? 0))
    }

    /// The newest live workout with no end, whether or not a newer one exists: a past session
    /// logged with `--at` after a finished workout is one.
    func newestNeverFinished() throws -> Workout? {
        try Row.fetchOne(db, sql: """
            SELECT \(Rows.workoutColumns) FROM workouts w WHERE w.deleted_at IS NULL AND w.ended_at IS NULL AND w.started_at <= ?
            ORDER BY w.started_at DESC, w.id DESC LIMIT 1
            """, arguments: [status.latestCurrentStart]).map { Rows.workout($0) }
    }

    /// The live, never finished workout that started at `at` under `name`: the past session
    /// a `start --at` with the same time and name goes back into.
    func neverFinished(startedAt at: Int64, name: String?) throws -> Workout? {
        try Row.fetchAll(db, sql: """
            SELECT \(Rows.workoutColumns) FROM workouts w
            WHERE w.deleted_at IS NULL AND w.ended_at IS NULL AND w.started_at = ?
            ORDER BY w.id DESC
            """, arguments: [at]).map { Rows.workout($0) }.first { $0.name == name }
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
        // Cached: the REPL's prompt asks it after every line.
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(performed_at) FROM sets WHERE workout_id = ? AND deleted_at IS NULL"),
                           arguments: [workoutID.key])
    }

    func workout(id: UUID) throws -> Workout? {
        try Row.fetchOne(db, sql: "SELECT \(Rows.workoutColumns) FROM workouts w WHERE w.id = ?", arguments: [id.key]).map { Rows.workout($0) }
    }

    /// The workout `show` shows and `edit N` means with none open: the newest that could be
    /// current, by the same rule as `newestUnfinishedWorkout`, so the two never disagree.
    func latestWorkout() throws -> Workout? {
        try Row.fetchOne(db, sql: """
            SELECT \(Rows.workoutColumns) FROM workouts w WHERE w.deleted_at IS NULL AND w.started_at <= ?
            ORDER BY w.started_at DESC, w.id DESC LIMIT 1
            """, arguments: [status.latestCurrentStart]).map { Rows.workout($0) }
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
                throw UserError("There is no set #\(n): \(which) has \(plural(sets.count, "set")); \(show) numbers them.")
            }
            return sets[n - 1]
        }
    }
}
