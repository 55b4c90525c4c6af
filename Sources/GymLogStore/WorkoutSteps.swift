import Foundation
import GRDB
import GymLogCore

/// The steps on workouts that write, inside the caller's transaction: the workout a line
/// goes into, start one, close one. (What a workout holds is read by `Workouts`.)
enum WorkoutSteps {
    static func createWorkout(name: String?, startedAt: Int64? = nil, routine: UUID? = nil, in w: inout ChangeWriter) throws -> Workout {
        let id = w.newRowID()
        let start = startedAt ?? w.now
        let offset = w.environment.utcOffset(start)
        try w.write(.workouts, id: id, op: .create, fields: [
            ("name", name.map { .text($0) } ?? .null), ("started_at", .int(start)), ("ended_at", .null),
            ("utc_offset", .int(Int64(offset))), ("note", .null), (tombstoneField, .null),
        ] + (routine.map { [("routine_id", .text($0.key))] } ?? []))
        return Workout(id: id, name: name, startedAt: start, utcOffsetSeconds: offset)
    }

    /// The open workout, or a new one; an idle unfinished workout is closed first.
    static func currentWorkout(in w: inout ChangeWriter) throws -> (Workout, started: Bool) {
        if let open = try Workouts(w).openWorkout() { return (open.workout, false) }
        try closeIdleWorkout(in: &w)
        return (try createWorkout(name: nil, in: &w), true)
    }

    /// Closes the newest unfinished workout that the idle gap has ended, at its last set.
    static func closeIdleWorkout(in w: inout ChangeWriter) throws {
        if let idle = try Workouts(w).newestUnfinishedWorkout(), try Workouts(w).openWorkout() == nil {
            // Nobody prints this summary, and it reads the whole workout: skip it on the
            // logging path, where the idle gap closes the previous workout.
            _ = try close(idle.workout, at: idle.lastActivity, summarise: false, in: &w)
        }
    }

    /// Ends `workout` at `end` and returns its summary (when `summarise`); a workout without
    /// live sets is not kept (tombstoned; `undo` brings it back) and gives nil.
    static func close(_ workout: Workout, at end: Int64, summarise: Bool = true, in w: inout ChangeWriter) throws -> WorkoutSummary? {
        guard try Workouts(w).setCount(workoutID: workout.id) > 0 else {
            try w.write(.workouts, id: workout.id, op: .delete, fields: [(tombstoneField, .int(w.now))])
            return nil
        }
        try w.write(.workouts, id: workout.id, op: .update, fields: [("ended_at", .int(end))])
        var ended = workout
        ended.endedAt = end
        return summarise ? try Workouts(w).summary(of: ended) : nil
    }

}
