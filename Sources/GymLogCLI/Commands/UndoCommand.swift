import ArgumentParser
import GymLogCore
import GymLogStore

struct Undo: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Revert this device's last action: a logged line, `+`, an edit, a delete, a start, a finish, a note or an exercises change.",
        discussion: """
          gymlog undo
              reverts the last action as a whole (all sets of `bench 100x5x3`, and the
              exercise the line created)
          gymlog redo
              re-applies what `undo` reverted; any new action clears it
          gymlog undo --yes
              also when the action belongs to another workout than the open one

        Only this device's own actions are undone, newest first; a change that came from \
        another device through sync is never reverted here. When the action's workout is not \
        the open one, `undo` names that workout and does nothing until you confirm. In the \
        REPL, type `undo`, or `undo!` to confirm.
        """
    )
    @OptionGroup var global: GlobalOptions
    @Flag(name: .long, help: "Undo even when the action belongs to another workout than the open one.") var yes = false

    func run(in context: CLIContext) async throws {
        try UndoStep(.undo, context: context).run(confirmed: yes)
    }
}

/// One step of `undo` or `redo` and what it prints: shared by the commands, `undo!` in the
/// REPL and the `undo` entry line.
struct UndoStep {
    let direction: UndoDirection
    let context: CLIContext

    init(_ direction: UndoDirection, context: CLIContext) { self.direction = direction; self.context = context }

    private var verb: String { direction == .undo ? "undo" : "redo" }

    func run(confirmed: Bool) throws {
        let db = try context.db()
        let outcome = try direction == .undo ? db.undo(confirmed: confirmed) : db.redo(confirmed: confirmed)
        switch outcome {
        case .done(let action):
            let did = direction == .undo ? "Undid" : "Redid"
            // An action of a workout other than the open one says which, as it is now, so a
            // step in an old session is never mistaken for one in today's.
            if action.inOtherWorkout, let workout = action.workout {
                context.print("\(did) `\(action.label)` in the workout of \(Self.workoutName(workout)): \(action.summary)")
            } else {
                context.print("\(did) \(action.label): \(action.summary)")
            }
        case .needsConfirmation(let action):
            let workout = action.workout.map(Self.workoutName) ?? "a workout that is gone"
            var open = "and no workout is open"
            if let current = try db.openWorkout() { open = "not the open one (\(Self.workoutName(current.workout)))" }
            // Inside the REPL the hint is REPL syntax; from the shell it is the flag.
            let confirm = context.typedLine != nil ? "`\(verb)!`" : "`gymlog \(verb) --yes`"
            throw UserError("The last action to \(verb), `\(action.label)` (\(action.summary)), belongs to the workout of \(workout), "
                + "\(open). Nothing was \(verb == "undo" ? "undone" : "redone"); type \(confirm) to \(verb) it anyway.")
        case .refused(let action, let reason):
            throw UserError("Cannot \(verb) `\(action.label)` (\(action.summary)): \(reason). Nothing was \(verb == "undo" ? "undone" : "redone"); "
                + "it is dropped from the list, so `\(verb)` now goes to the action before it.")
        }
    }

    /// `Mon 2026-11-23 18:02 'Push day'`.
    static func workoutName(_ w: Workout) -> String {
        Render.day(w.startedAt, w.utcOffsetSeconds) + (w.name.map { " '\($0)'" } ?? "")
    }
}
