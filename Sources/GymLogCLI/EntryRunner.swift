import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore

/// Runs entry lines (`bench 100x5`, `+`, `undo`) and prints the result or a pointed error.
struct EntryRunner {
    let context: CLIContext

    /// What became of a line: logged, or not (nothing was written then) because it could not
    /// be read or because what it asks cannot be done. `at` logs it at that past moment (`log
    /// --at`); in the REPL after `start --at`, lines go to that workout.
    func run(_ line: String, at: Int64? = nil) throws -> EntryOutcome {
        let at = at ?? context.pastWorkout?.startedAt
        switch EntryParser.parse(line) {
        case .failure(let error):
            context.printEntryError(error.message, at: error.span, in: line)
            return .unreadable
        case .success(let entry):
            do {
                let db = try context.db()
                if entry == .undo {
                    try UndoStep(.undo, context: context).run(confirmed: false)
                } else {
                    for result in try db.logEntry(entry, typed: line, at: at) {
                        try printLogged(result, db, past: at != nil)
                        if case .repeatLast(let patch) = entry { printCarriedEffort(patch, result) }
                    }
                }
                return .done
            } catch let error as UserError {
                context.printEntryError(error.message, at: error.span, in: line)
                return .refused
            }
        }
    }

    /// `+ x4` after `100x8 @8` repeats the effort with the rest of the set (the README says
    /// so); with other reps or another load that is a guess, so it is said, with how to fix it.
    private func printCarriedEffort(_ patch: SetPatch, _ result: LogResult) {
        guard patch.rpe == nil, patch.rir == nil, patch.reps != nil || patch.load != nil || patch.durationSeconds != nil || patch.distance != nil,
              let effort = result.sets.last?.set.values.effort else { return }
        context.print("  \(effort) carried from the set it repeats; `edit @N` or `edit rirN` says how this one felt.")
    }

    /// Logs resolved values (planned sets, `ok`) as a typed line would be, with the same output:
    /// one exercise's sets, or a superset round in `superset` (or a new one).
    func log(_ parts: [(exercise: String, values: [SetValues])], superset: UUID?, typed: String) throws {
        let db = try context.db()
        let at = context.pastWorkout?.startedAt
        let mentions = parts.map { (exercise: ExerciseMention(name: $0.exercise, span: Span(0, $0.exercise.count)), values: $0.values) }
        for result in try db.logResolved(mentions, superset: superset, typed: typed, at: at) { try printLogged(result, db, past: at != nil) }
    }

    /// The logged sets, and under the first set of an exercise in a workout what was done
    /// for it last time; in a routine's workout, under the first set of each of its lines,
    /// that line's last time (Boring But Big's 5x10 shows its own sets, not the 5/3/1 line's).
    /// Those reads run after the write has committed, off the write path.
    private func printLogged(_ result: LogResult, _ db: GymLogDatabase, past: Bool) throws {
        // A bodyweight set's e1RM is on the total it moved: that day's bodyweight, read after the write.
        let bodyweight = try result.sets.contains(where: { $0.set.values.bodyweight })
            ? result.sets.first.flatMap { try db.bodyweight(at: $0.set.performedAt)?.weight } : nil
        Render.logResult(result, settings: context.settings, past: past, bodyweight: bodyweight).forEach(context.print)
        guard let first = result.sets.first else { return }
        let last: LastSession?
        if let (plan, workout) = try TodayPlan.current(context, suggestions: .none), workout.id == result.workout.id,
           plan.lines.contains(where: { $0.exercise?.id == result.exercise.id }) {
            // Only a set that opened one of the exercise's lines shows it.
            guard let line = plan.lines.firstIndex(where: { $0.firstDone == first.set.id }) else { return }
            last = try TodayPlan.current(context, suggestions: .line(line))?.plan.lines[line].last
        } else {
            guard first.order == 1 else { return }
            last = try db.lastSession(of: result.exercise.id, before: first.set.performedAt, excluding: result.workout.id)
        }
        guard let last else { return }
        let now = context.environment.now()
        context.print("  " + Style.stdout.dim(Render.lastTime(last, now: now, utcOffsetSeconds: context.environment.utcOffset(now))))
    }
}

/// What `EntryRunner.run` made of a line, and the shell's exit status for it: the one rule for
/// every command is 64 (EX_USAGE) for input gymlog cannot read, as ArgumentParser answers a
/// bad option, and 1 for a command it read but cannot do.
enum EntryOutcome {
    case done, unreadable, refused

    var exitCode: ExitCode {
        switch self {
        case .done: .success
        case .unreadable: .validationFailure
        case .refused: .failure
        }
    }
}
