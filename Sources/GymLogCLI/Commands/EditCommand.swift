import ArgumentParser
import GymLogCore
import GymLogStore

struct Edit: TextCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change set N of `show` (default: the last), e.g. `edit 2 x6 @9`, or rename or move a workout.",
        discussion: """
        The changes use the language of `+`:

          gymlog edit 102.5x5
              the last set: 102.5 for 5
          gymlog edit 2 x6 @9
              set 2 of `show`: 6 reps, RPE 9
          gymlog edit 2 rir1
              set 2: 1 rep in reserve instead of its RPE
          gymlog edit 3 # paused
              set 3's note

        Any workout, not only the current one, with --workout REF (\(WorkoutReference.forms); \
        `history` and `show` print each workout's):

          gymlog edit --workout 2026-11-20 2 x6
              set 2 of that day's workout
          gymlog edit --workout -2 --name "Push A"
              rename the workout before the latest
          gymlog edit --workout 2026-11-20 --start "2026-11-19 18:00"
              move it: its sets keep their times relative to its start

        In the REPL, type `edit 2 x6 @9` or `edit --workout -2 --name Push A`.
        """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var which: WorkoutOption
    @Option(help: ArgumentHelp("Rename the workout (\"\" clears its name).", valueName: "name")) var name: String?
    @Option(help: ArgumentHelp("Move the workout's start to this local time (\(timePhraseForms)); its sets move with it.", valueName: "time"))
    var start: String?
    @Argument(help: ArgumentHelp("An optional set number from `show`, then the changes.", valueName: "changes"))
    var changes: [String] = []

    /// `--name` runs to the end of the line or the next option, so `edit --name Push A` needs no quotes.
    static func replArguments(_ rest: String) -> [String]? {
        ReplTextOptions(times: ["--start"], runs: ["--name"], trailing: true).arguments(rest)
    }

    func validate() throws {
        if (name != nil || start != nil) && !changes.isEmpty {
            throw ValidationError("Rename or move a workout (--name, --start) in one command and change a set in another; got both '\(changes.joined(separator: " "))' and "
                + (name != nil ? "--name" : "--start") + ".")
        }
    }

    func run(in context: CLIContext) async throws {
        let target = try which.target(in: context)
        if name != nil || start != nil { return try editWorkout(target, in: context) }
        let rest = changes.joined(separator: " ")
        var setTarget = SetTarget.last
        var patchText = rest
        let parts = rest.split(separator: " ", maxSplits: 1)
        if parts.count == 2, let n = Int(parts[0]) { setTarget = .number(n); patchText = String(parts[1]) }
        guard !patchText.isEmpty else {
            throw UserError("`edit` needs changes, e.g. `edit 102.5x5`, `edit 2 @9` or `edit # note`; `edit --workout REF --name NAME` renames a workout.")
        }
        switch EntryParser.parse("+ " + patchText) {
        case .failure(let e):
            // Point into the line as typed: the REPL's line (when the changes end it), or the
            // shell's words after `edit`.
            let line = context.typedLine.flatMap { $0.hasSuffix(patchText) ? $0 : nil } ?? "edit " + rest
            let shift = line.count - patchText.count - 2
            context.printEntryError(e.message, at: Span(max(0, e.span.start + shift), max(0, e.span.end + shift)), in: line)
            throw ExitCode.failure
        case .success(.repeatLast(let patch)):
            let s = try context.db().editSet(setTarget, in: target, patch: patch, typed: context.typedLine ?? "edit " + rest)
            context.print("Edited: \(s.set.summary)")
        case .success:
            throw UserError("`edit` takes changes like `x6`, `102.5`, `@9` or `# note`.")
        }
    }

    /// `--name` and `--start`: the workout renamed or moved, as one action.
    private func editWorkout(_ target: WorkoutTarget, in context: CLIContext) throws {
        let moment = try start.map { try PastTime.moment($0, option: "--start", in: context) }
        let db = try context.db()
        let typed = context.typedLine ?? (["edit"] + (which.workout.map { ["--workout", $0] } ?? [])
            + (name.map { ["--name", $0] } ?? []) + (start.map { ["--start", $0] } ?? [])).joined(separator: " ")
        let before = try db.workoutDetail(target)
        let workout = try db.editWorkout(target, name: name, start: moment, typed: typed)
        guard let before, before.workout != workout else {
            context.print("Nothing changed: the workout of \(UndoStep.workoutName(workout)) already has that name and start.")
            return
        }
        if context.pastWorkout?.id == workout.id { context.repl?.pastWorkout = workout }
        context.print("Edited the workout of \(UndoStep.workoutName(before.workout)): now \(UndoStep.workoutName(workout)) (\(try db.reference(of: workout))).")
    }
}
