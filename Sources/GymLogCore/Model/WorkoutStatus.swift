import Foundation

/// Whether a workout is still going: the one rule that the REPL prompt, `show`, `history`
/// and logging share, so they never disagree after the idle gap.
///
/// A workout is open until `finish` ends it, or until `idleGapMinutes` pass after its last
/// set (its start when it has none); then it counts as ended at that last activity.
public struct WorkoutStatus: Equatable, Sendable {
    /// The time the rule is applied at (milliseconds since 1970, UTC).
    public var now: Int64
    /// How long a workout may sit without a set before it counts as ended.
    public var idleGapMinutes: Int

    /// The rule as applied at `now` with the configured idle gap.
    public init(now: Int64, idleGapMinutes: Int) {
        self.now = now; self.idleGapMinutes = idleGapMinutes
    }

    /// When the workout ended: its recorded end, or its last activity when the idle gap has
    /// passed since; nil while it is open.
    public func end(of workout: Workout, lastActivity: Int64?) -> Int64? {
        if let ended = workout.endedAt { return ended }
        let last = max(workout.startedAt, lastActivity ?? workout.startedAt)
        return now - last <= Int64(idleGapMinutes) * 60_000 ? nil : last
    }

    /// How far after now a workout may start and still be the current one: another device's
    /// clock a little ahead (the server accepts clocks up to 15 minutes ahead). A workout that
    /// starts later than that (an import dated years on, a clock set wrong) is history, never
    /// the workout a line goes into or `edit N` means; otherwise it would take that place from
    /// the workout the lifter sees, and each line would start a workout of its own.
    public static let currentStartAheadMs: Int64 = 15 * 60_000

    /// The latest start a workout may have to be the current one at `now`.
    public var latestCurrentStart: Int64 { now &+ Self.currentStartAheadMs }

    /// True while the workout is open (not finished, and within the idle gap of its last set).
    public func isOpen(_ workout: Workout, lastActivity: Int64?) -> Bool {
        end(of: workout, lastActivity: lastActivity) == nil
    }

    /// Whether `undo` may revert an action of `workout` without asking: it is the open
    /// workout; or it is today's (started on today's date, or ended within the idle gap) and
    /// the action was done (or last undone or redone) within the idle gap and after the open
    /// workout's last set, if one is open: the thing just done, as right after `finish` or
    /// when redoing the line that started the workout. An action of an earlier day's workout
    /// always asks, however recent (a rename or a delete in last week's session, a past
    /// session logged with `--at`): it changes history the lifter is not looking at.
    public func actionIsCurrent(_ workout: Workout, lastActivity: Int64?, openWorkout: (id: UUID, lastActivity: Int64)?, actionAt: Int64) -> Bool {
        if let openWorkout {
            if openWorkout.id == workout.id { return true }
            if actionAt < openWorkout.lastActivity { return false }
        }
        guard isToday(workout, lastActivity: lastActivity) else { return false }
        return now - actionAt <= Int64(idleGapMinutes) * 60_000
    }

    /// Whether the workout is today's: it started on the date it is now where it was done,
    /// or it went on until within the idle gap (a session past midnight).
    public func isToday(_ workout: Workout, lastActivity: Int64?) -> Bool {
        let day = { (millis: Int64) in localDate(millis: millis, utcOffsetSeconds: workout.utcOffsetSeconds) }
        if day(workout.startedAt) == day(now) { return true }
        let last = workout.endedAt ?? max(workout.startedAt, lastActivity ?? workout.startedAt)
        return now - last <= Int64(idleGapMinutes) * 60_000
    }
}
