import Foundation
import GRDB
import GymLogCore

/// The steps on workouts that run inside a write transaction: which workout is open, start
/// one, close one.
extension ChangeWriter {
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

    /// The open workout, or a new one; an idle unfinished workout is closed first.
    mutating func currentWorkout() throws -> (Workout, started: Bool) {
        if let open = try Workouts(self).openWorkout() { return (open.workout, false) }
        try closeIdleWorkout()
        return (try createWorkout(name: nil), true)
    }

    /// Closes the newest unfinished workout that the idle gap has ended, at its last set.
    mutating func closeIdleWorkout() throws {
        if let idle = try Workouts(self).newestUnfinishedWorkout(), try Workouts(self).openWorkout() == nil {
            // Nobody prints this summary, and it reads the whole workout: skip it on the
            // logging path, where the idle gap closes the previous workout.
            _ = try close(idle.workout, at: idle.lastActivity, summarise: false)
        }
    }

    /// Ends `workout` at `end` and returns its summary (when `summarise`); a workout without
    /// live sets is not kept (tombstoned; `undo` brings it back) and gives nil.
    mutating func close(_ workout: Workout, at end: Int64, summarise: Bool = true) throws -> WorkoutSummary? {
        guard try Workouts(self).setCount(workoutID: workout.id) > 0 else {
            try write(.workouts, id: workout.id, op: .delete, fields: [(tombstoneField, .int(now))])
            return nil
        }
        try write(.workouts, id: workout.id, op: .update, fields: [("ended_at", .int(end))])
        var ended = workout
        ended.endedAt = end
        return summarise ? try Workouts(self).summary(of: ended) : nil
    }

}
