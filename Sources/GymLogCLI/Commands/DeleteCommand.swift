import ArgumentParser
import GymLogCore
import GymLogStore

struct Delete: TextCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete set N of `show`, e.g. `delete 3`, or a whole workout with `--workout REF`.",
        discussion: """
          gymlog show
              the current workout, sets numbered
          gymlog delete 3
              deletes its third set (`undo` brings it back)
          gymlog delete 2 --workout -2
              the second set of the workout before the latest
          gymlog delete --workout 2026-11-20
              the whole workout of that day, with its sets, after asking; `--yes` from
              a script

        A workout reference is \(WorkoutReference.forms); `history` and `show` print each \
        workout's. A whole workout deleted is one action: one `undo` brings it all back. \
        In the REPL, type `delete 3` or `delete --workout 2026-11-20`.
        """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var which: WorkoutOption
    @Flag(name: .long, help: "Delete a whole workout without asking (what a script must pass).") var yes = false
    @Argument(help: ArgumentHelp("The set's number in `show`.", valueName: "number")) var number: [String] = []

    static func replArguments(_ rest: String) -> [String]? {
        ReplTextOptions(flags: ["--yes"], trailing: true).arguments(rest)
    }

    func run(in context: CLIContext) async throws {
        let text = number.joined(separator: " ")
        let target = try which.target(in: context)
        if text.isEmpty, which.workout != nil { return try deleteWorkout(target, in: context) }
        guard let n = Int(text), n >= 1 else {
            throw UserError("`delete` needs the set's number from `show`, e.g. `delete 3`; `delete --workout REF` deletes a whole workout.")
        }
        let set = try context.db().deleteSet(.number(n), in: target, typed: context.typedLine ?? "delete \(n)")
        context.print("Deleted set \(n): \(set.summary)")
    }

    /// The whole workout, once the person at the terminal said yes (or `--yes` said it for a script).
    private func deleteWorkout(_ target: WorkoutTarget, in context: CLIContext) throws {
        let db = try context.db()
        guard let detail = try db.workoutDetail(target) else { throw UserError("There is no workout yet; nothing was deleted.") }
        let what = "the workout of \(UndoStep.workoutName(detail.workout)) (\(detail.reference), \(plural(detail.sets.count, "set")))"
        let typed = context.typedLine ?? "delete --workout \(which.workout ?? detail.reference)"
        if !yes {
            guard let yes = context.confirm("Delete \(what)? `undo` brings it back.") else {
                throw UserError("Deleting \(what) needs a yes, and there is no terminal to ask on: "
                    + "run `gymlog delete --workout \(detail.reference) --yes` to delete it. Nothing was deleted.")
            }
            guard yes else {
                context.print("Nothing was deleted.")
                return
            }
        }
        let deleted = try db.deleteWorkout(.id(detail.workout.id), typed: typed)
        if context.pastWorkout?.id == deleted.workout.id { context.repl?.pastWorkout = nil }
        context.print("Deleted \(what). `undo` brings it back.")
    }
}
