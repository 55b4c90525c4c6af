import Foundation
import GymLogCore
import GymLogStore

extension Render {
    /// What `finish` (and `start` closing a workout) prints:
    /// `Finished 'Push day': 52 min, 17 sets, 8450kg working volume.` and a line per exercise
    /// with PRs. Volumes are in the configured unit. An unnamed workout is named by its start:
    /// its time when it began on the day of `now` (or `now` is not given), else its day too.
    static func workoutSummary(_ s: WorkoutSummary, settings: Settings, now: Int64? = nil, style: Style = .stdout) -> [String] {
        let w = s.workout
        let sameDay = now.map { localDate(millis: $0, utcOffsetSeconds: w.utcOffsetSeconds) == localDate(millis: w.startedAt, utcOffsetSeconds: w.utcOffsetSeconds) } ?? true
        let name = w.name.map { "'\($0)'" } ?? (sameDay ? "the workout started at \(clock(w.startedAt, w.utcOffsetSeconds))"
            : "the workout of \(day(w.startedAt, w.utcOffsetSeconds))")
        var line = "Finished \(name): \(WorkoutLength.text(s.length)), \(s.sets)"
        if s.workingVolume > 0 { line += ", \(load(kilograms: s.workingVolume, settings)) working volume" }
        var lines = [line + "."]
        if let p = s.previous {
            // Against the last time the same routine (or workout name) was done, working sets
            // against working sets.
            let sets = s.sets.working - p.sets.working
            var compare = "  vs \(p.workout.name.map { "'\($0)'" } ?? "last time") on \(shortDate(p.workout.startedAt, p.workout.utcOffsetSeconds, showYear: false)): "
                + plural(p.sets.working, s.sets.warmups + p.sets.warmups > 0 ? "working set" : "set") + " (\(sets >= 0 ? "+" : "")\(sets))"
            if p.workingVolume > 0 || s.workingVolume > 0 {
                let delta = s.workingVolume - p.workingVolume
                compare += ", \(load(kilograms: p.workingVolume, settings)) (\(delta >= 0 ? "+" : "-")\(load(kilograms: abs(delta), settings)))"
            }
            lines.append(style.dim(compare))
        }
        for (exercise, records) in s.records {
            let list = records.map { "\(recordLabel($0.metric, reps: $0.reps, set: $0.set.values, settings: settings)) \(recordValue(metric: $0.metric, value: $0.value, set: $0.set.values, settings: settings))" }
            lines.append("  " + style.record("PR") + " \(exercise.name): " + list.joined(separator: ", "))
        }
        return lines
    }
}

extension CLIContext {
    /// The open-workout rule at this moment, with the configured idle gap.
    var workoutStatus: WorkoutStatus {
        WorkoutStatus(now: environment.now(), idleGapMinutes: settings.idleGapMinutes)
    }
}
