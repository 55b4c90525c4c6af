import Foundation
import GymLogCore
import GymLogStore

extension CLIContext {
    /// The rest since the last set of the open workout, with its target: this break's `rest
    /// M:SS`, else the routine line of the exercise just done, else that exercise's own rest
    /// (`exercises rest`), else `rest_seconds`. Nil with no open workout or set, while filling
    /// in a past workout, or after an hour.
    func restTimer() throws -> (timer: RestTimer, lastSet: Int64)? {
        guard pastWorkout == nil, let open = try db().openWorkout(), let lastSet = open.lastSet else { return nil }
        var target = repl?.restTarget.flatMap { $0.afterSet == lastSet ? $0.seconds : nil }
        if target == nil, let last = try db().workoutDetail(open.workout.id)?.sets.last {
            if let (plan, _) = try TodayPlan.current(self, suggestions: .none) {
                target = plan.lines.first { $0.exercise?.id == last.exercise.id && $0.planned.restSeconds != nil }?.planned.restSeconds
            }
            if target == nil { target = try db().exerciseRest(last.exercise.id) }
        }
        guard let timer = RestTimer(lastSetAt: lastSet, now: environment.now(), target: target ?? settings.restSeconds) else { return nil }
        return (timer, lastSet)
    }
}

/// The REPL's live prompt: readline calls `liveRestPrompt` every second while it waits for a
/// line (C function pointers cannot capture, hence the globals). It returns the prompt when
/// it changed, and rings the bell once when a break reaches its target.
nonisolated(unsafe) var livePromptSource: (() -> String)?
nonisolated(unsafe) var livePromptShown = ""

func liveRestPrompt() -> String? {
    guard let prompt = livePromptSource?(), prompt != livePromptShown else { return nil }
    livePromptShown = prompt
    return prompt
}
