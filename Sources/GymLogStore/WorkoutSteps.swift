import Foundation
import GRDB
import GymLogCore

/// The steps on workouts that write, inside the caller's transaction: the workout a line
/// goes into; start, finish, note, edit and delete one. (What a workout holds is read by
/// `Workouts`; each public step is documented on its `GymLogDatabase` method.)
enum WorkoutSteps {
    static func createWorkout(name: String?, startedAt: Int64? = nil, routine: UUID? = nil, in w: inout ChangeWriter) throws -> Workout {
        let id = w.newRowID()
        let start = startedAt ?? w.now
        let workout = Workout(id: id, name: name, startedAt: start, utcOffsetSeconds: w.environment.utcOffset(start))
        try create(workout, routine: routine, in: &w)
        return workout
    }

    /// Writes a new workout row: every field, so the row is whole on every device. The one
    /// shape of a created workout, for `createWorkout` and the importer.
    static func create(_ workout: Workout, routine: UUID? = nil, in w: inout ChangeWriter) throws {
        try w.write(.workouts, id: workout.id, op: .create, fields: [
            ("name", workout.name.map { .text($0) } ?? .null), ("started_at", .int(workout.startedAt)),
            ("ended_at", workout.endedAt.map { .int($0) } ?? .null), ("utc_offset", .int(Int64(workout.utcOffsetSeconds))),
            ("note", workout.note.map { .text($0) } ?? .null), (tombstoneField, .null),
        ] + (routine.map { [("routine_id", .text($0.key))] } ?? []))
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

    /// See `GymLogDatabase.startWorkout`.
    static func startWorkout(name: String?, at: Int64?, routine: UUID?, in w: inout ChangeWriter) throws -> StartResult {
        if let at {
            try Workouts(w).requirePast(at)
            // The same past session started again (the REPL closed before `finish`) is gone back into.
            if let unfinished = try Workouts(w).neverFinished(startedAt: at, name: name) {
                return StartResult(workout: unfinished, finished: nil, resumed: true)
            }
            let workout = try createWorkout(name: name, startedAt: at, routine: routine, in: &w)
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
            finished = try close(open.workout, at: w.now, in: &w)
        } else {
            try closeIdleWorkout(in: &w)
        }
        let workout = try createWorkout(name: name, routine: routine, in: &w)
        w.describeAction(name.map { "workout '\($0)'" } ?? "a new workout", workout: workout.id)
        return StartResult(workout: workout, finished: finished)
    }

    /// See `GymLogDatabase.finishWorkout`.
    static func finishWorkout(_ workout: WorkoutTarget, in w: inout ChangeWriter) throws -> FinishResult {
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
        guard let summary = try close(chosen, at: end, in: &w) else {
            w.describeAction("the empty workout (discarded)", workout: chosen.id)
            return .discarded(chosen)
        }
        w.describeAction("\(name) (\(summary.sets))", workout: chosen.id)
        return .finished(summary)
    }

    /// See `GymLogDatabase.noteWorkout`.
    static func noteWorkout(_ text: String, of target: WorkoutTarget, in w: inout ChangeWriter) throws -> Workout {
        var workout: Workout
        if target != .current {
            workout = try Workouts(w).requireWorkout(target)
        } else if let open = try Workouts(w).openWorkout()?.workout {
            workout = open
        } else {
            workout = try currentWorkout(in: &w).0
        }
        try w.write(.workouts, id: workout.id, op: .update, fields: [("note", .text(text))])
        workout.note = text
        w.describeAction("note '\(text)'", workout: workout.id)
        return workout
    }

    /// See `GymLogDatabase.deleteWorkout`.
    static func deleteWorkout(_ target: WorkoutTarget, in w: inout ChangeWriter) throws -> WorkoutDeletion {
        let workout = try Workouts(w).requireWorkout(target)
        let sets = try Workouts(w).liveSets(workoutID: workout.id)
        for set in sets { try w.write(.sets, id: set.id, op: .delete, fields: [(tombstoneField, .int(w.now))]) }
        try w.write(.workouts, id: workout.id, op: .delete, fields: [(tombstoneField, .int(w.now))])
        for exercise in Set(sets.map(\.exerciseID)) { try RecordBook(w).rebuildRecords(exerciseID: exercise) }
        // The workout itself is named by whoever shows the summary (`undo` names it as it is then).
        w.describeAction("the whole workout (\(plural(sets.count, "set")))", workout: workout.id)
        return WorkoutDeletion(workout: workout, setCount: sets.count)
    }

    /// See `GymLogDatabase.editWorkout`.
    static func editWorkout(_ target: WorkoutTarget, name: String?, start: Int64?, in w: inout ChangeWriter) throws -> Workout {
        var workout = try Workouts(w).requireWorkout(target)
        let original = workout
        var said: [String] = []
        var fields: [(String, FieldValue)] = []
        if let name {
            let new = name.isEmpty ? nil : name
            if new != workout.name {
                fields.append(("name", new.map { .text($0) } ?? .null))
                said.append(new.map { "renamed to '\($0)'" } ?? "with its name cleared")
                workout.name = new
            }
        }
        if let start, start != workout.startedAt {
            let delta = start - workout.startedAt
            let sets = try Workouts(w).liveSets(workoutID: workout.id)
            let offset = w.environment.utcOffset(start)
            let startText = localDateTime(millis: start, utcOffsetSeconds: offset).prefix(16)
            let lastSet = sets.last?.performedAt ?? workout.startedAt
            guard lastSet + delta <= w.now else {
                throw UserError(start > w.now ? "--start \(startText) is in the future; give the time the workout began. Nothing was changed."
                    : "Starting at \(startText), the workout's last set (\((lastSet - workout.startedAt) / 60_000) min after its start) "
                    + "would be in the future; give an earlier start. Nothing was changed.")
            }
            fields.append(("started_at", .int(start)))
            if offset != workout.utcOffsetSeconds { fields.append(("utc_offset", .int(Int64(offset)))) }
            if let end = workout.endedAt { fields.append(("ended_at", .int(end + delta))) }
            for set in sets {
                var moved: [(String, FieldValue)] = [("performed_at", .int(set.performedAt + delta))]
                let setOffset = w.environment.utcOffset(set.performedAt + delta)
                if setOffset != set.utcOffsetSeconds { moved.append(("utc_offset", .int(Int64(setOffset)))) }
                try w.write(.sets, id: set.id, op: .update, fields: moved)
            }
            workout.startedAt = start
            workout.endedAt = workout.endedAt.map { $0 + delta }
            workout.utcOffsetSeconds = offset
            said.append("moved to \(startText)")
            // Which set reached a value first, and so holds the record, may have changed.
            for exercise in Set(sets.map(\.exerciseID)) { try RecordBook(w).rebuildRecords(exerciseID: exercise) }
        }
        if !fields.isEmpty {
            try w.write(.workouts, id: workout.id, op: .update, fields: fields)
            w.describeAction(Workouts.describe(original) + " " + said.joined(separator: ", "), workout: workout.id)
        }
        return workout
    }
}
