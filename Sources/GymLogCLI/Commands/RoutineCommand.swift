import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore

struct RoutineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routine",
        abstract: "Write routines in plain text and see today's plan: add, list, show, edit, rm, export.",
        discussion: """
        A routine is a name and one planned exercise a line, in the entry language plus an \
        optional progression rule:

            # Push A
            bench 3x5 @8 linear +2.5           +2.5 when every planned rep was done
            incline db press 3x8-12 double +2  reps up within 8-12, then +2, back to 8
            dip bw 3x8-12                      no rule: last time's weight and reps
            ohp 5/3/1 tm 60                    Wendler's wave from a training max of 60
            ohp 5x10 50%                       half that training max (BBB)
            row 5x10 30% of ohp                a share of a named lift's training max
            plank 3x60s                        times and distances too
            squat 3x5 100 rest 3:00 warmup     a start weight, a rest target, a ramp

        After three missed sessions in a row `linear` takes 10% off. Weights are rounded to \
        what your plates make ([plates] in the config). `gymlog start "Push A"` (or a prefix) \
        starts a workout from it; then `next`, `ok`, `skip`.

          gymlog routine add "Push A" --file push-a.txt
              (no --file: opens $EDITOR; - reads stdin)
          gymlog routine list
          gymlog routine show push
              today's sets, why, and last time (--json)
          gymlog routine edit "Push A"
              in $EDITOR
          gymlog routine rm "Push A"
              (`undo` brings it back)
          gymlog routine export "Push A"
              the text back
        """,
        subcommands: [ListRoutines.self, AddRoutine.self, ShowRoutine.self, EditRoutine.self, RemoveRoutine.self, ExportRoutine.self],
        defaultSubcommand: ListRoutines.self
    )
}

/// A routine name given as words.
struct RoutineName: ParsableArguments {
    @Argument(help: "The routine's name (or an unambiguous start of it).") var name: [String] = []
    var text: String { name.joined(separator: " ") }
}

struct ListRoutines: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List routines with their exercises.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: JSONFlag

    func run(in context: CLIContext) async throws {
        let list = try context.db().routines()
        if output.json {
            context.printJSON(.object([("routines", .array(list.map { r in
                .object([("id", .string(r.id.key)), ("name", .string(r.name)), ("text", .string(r.text)),
                         ("unit", .string(r.unit?.rawValue))])
            }))]))
            return
        }
        if list.isEmpty { context.print("No routines yet; write one with `gymlog routine add NAME` (see `gymlog routine --help`)."); return }
        let width = TerminalText.columns(list.map(\.name))
        for r in list {
            let names = (try? RoutineParser.parse(r.text, name: r.name).get())?.lines.map(\.exerciseName) ?? []
            context.print(TerminalText.pad(r.name, to: width) + "  " + names.joined(separator: ", "))
        }
    }
}

struct AddRoutine: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a routine (or replace the one of that name) from a file, stdin (-) or $EDITOR.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var routine: RoutineName
    @Option(help: ArgumentHelp("Read the routine's text from this file (- for stdin).", valueName: "file")) var file: String?

    func run(in context: CLIContext) async throws {
        let initial = "# \(routine.text.isEmpty ? "Push A" : routine.text)\n# one planned exercise a line, e.g.:\n# bench 3x5 @8 linear +2.5\n"
        let (text, draft) = try file.map { (try RoutineText.read($0), nil) } ?? RoutineText.edit(initial, context: context)
        try RoutineText.save(text, name: routine.text.isEmpty ? nil : routine.text, typed: context.typedLine ?? "routine add \(routine.text)",
                             draft: draft, context: context)
    }
}

struct EditRoutine: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Edit a routine's text in $EDITOR.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var routine: RoutineName

    func run(in context: CLIContext) async throws {
        let stored = try context.db().routine(named: routine.text)
        let (text, draft) = try RoutineText.edit(RoutineText.withHeader(stored.text, stored.name), context: context)
        try RoutineText.save(text, name: stored.name, typed: context.typedLine ?? "routine edit \(stored.name)", draft: draft, context: context)
    }
}

struct ShowRoutine: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a routine as planned today: each exercise's sets, why, and last time.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var routine: RoutineName
    @OptionGroup var output: JSONFlag

    func run(in context: CLIContext) async throws {
        let db = try context.db()
        let stored = try db.routine(named: routine.text)
        let now = context.environment.now()
        let plan = try TodayPlan.build(db, settings: context.settings, routine: stored, workout: nil, now: now)
        if output.json { context.printJSON(JSONShapes.plan(plan)); return }
        Render.wrapped(plan.lines(settings: context.settings, now: now, utcOffset: context.environment.utcOffset(now), columns: Render.wrapColumns),
                       width: Render.wrapColumns)
            .forEach(context.print)
    }
}

struct RemoveRoutine: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a routine (workouts done from it keep their sets).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var routine: RoutineName

    func run(in context: CLIContext) async throws {
        let removed = try context.db().deleteRoutine(named: routine.text, typed: context.typedLine ?? "routine rm \(routine.text)")
        context.print("Deleted the routine '\(removed.name)'. `undo` brings it back.")
    }
}

struct ExportRoutine: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Print a routine's text, as `routine add --file` reads it.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var routine: RoutineName

    func run(in context: CLIContext) async throws {
        let stored = try context.db().routine(named: routine.text)
        context.print(RoutineText.withHeader(stored.text, stored.name).trimmingCharacters(in: .newlines))
    }
}

extension ListRoutines: ExistingDatabaseCommand {}
extension ShowRoutine: ExistingDatabaseCommand {}
extension EditRoutine: ExistingDatabaseCommand {}
extension RemoveRoutine: ExistingDatabaseCommand {}
extension ExportRoutine: ExistingDatabaseCommand {}

/// Reading, editing, checking and saving a routine's text.
enum RoutineText {
    /// The text with its first line `# NAME` (the header replaced, or added).
    static func withHeader(_ text: String, _ name: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let first = lines.firstIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }),
           lines[first].trimmingCharacters(in: .whitespaces).hasPrefix("#") {
            lines[first] = "# \(name)"
        } else {
            lines.insert("# \(name)", at: 0)
        }
        return lines.joined(separator: "\n")
    }

    static func read(_ path: String) throws -> String {
        if path == "-" { return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UserError("Cannot read \(path); check the path, or leave out --file to write the routine in $EDITOR.")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Opens `initial` in $VISUAL or $EDITOR (else vi) and returns what was saved, and the
    /// file it is in (kept until it is saved, so a refused edit is not lost).
    static func edit(_ initial: String, context: CLIContext) throws -> (String, String) {
        let env = ProcessInfo.processInfo.environment
        let chosen = [env["VISUAL"], env["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty }
        // vi without a terminal (a piped session, a script) would wait for keys that never come.
        guard chosen != nil || isatty(STDIN_FILENO) == 1 else {
            throw UserError("There is no terminal to write the routine in; pass it with --file FILE (or --file - for standard input), "
                + "or set $EDITOR.")
        }
        let editor = chosen ?? "vi"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gymlog-routine-\(UUID().uuidString).txt").path
        try initial.write(toFile: path, atomically: true, encoding: .utf8)
        // The editor may be a command with arguments (`code --wait`), as git reads it; it owns
        // the terminal until it ends (vim stops outside the terminal's foreground group).
        let status = try ForegroundProcess.run("/bin/sh", ["-c", "\(editor) \"$1\"", "sh", path])
        guard status == 0 else {
            throw UserError("The editor (\(editor)) exited with status \(status); nothing was saved. Your text is in \(path).")
        }
        return (try read(path), path)
    }

    /// Parses the text, checks its exercise names as a set line would log them, and saves it,
    /// or refuses it whole with the line and a caret.
    static func save(_ text: String, name: String?, typed: String, draft: String? = nil, context: CLIContext) throws {
        func refuse(_ e: RoutineParseError) throws -> Never {
            context.printError(Style.stderr.errorLine(e.description + (e.description.hasSuffix(".") ? " Nothing was saved." : "; nothing was saved.")))
            context.printPointer(e.pointing(message: false, columns: TerminalText.width(of:)))
            if let draft {
                let quoted = (name ?? "NAME").contains(" ") ? "\"\(name!)\"" : (name ?? "NAME")
                context.printError("Your text is kept in \(draft): fix it there and run `gymlog routine add \(quoted) --file \(draft)`.")
            }
            throw ExitCode.failure
        }
        let routine: GymLogCore.Routine
        switch RoutineParser.parse(text, name: name) {
        case .failure(let e): try refuse(e)
        case .success(let parsed): routine = parsed
        }
        let db = try context.db()
        // A name logging would refuse (`ohpp`, a near-miss of `ohp`) is refused now, not at `ok`.
        var found: [String] = [], new: [String] = []
        for (planned, origin) in zip(routine.lines, routine.origins) {
            let typed = planned.exerciseName
            let resolution = try db.resolution(ofExercise: typed)
            if let refusal = resolution.refusal(typed: typed) { try refuse(origin.refusing(refusal)) }
            switch resolution {
            case .found(let e) where matchKey(e.name) != matchKey(typed): found.append("\(typed) = \(e.name)")
            case .create(let name) where !new.contains(name): new.append(name)
            default: break
            }
        }
        let (saved, created) = try db.saveRoutine(name: routine.name, text: withHeader(text, routine.name),
                                                  lines: routine.lines.map(\.text), typed: typed)
        if let draft { try? FileManager.default.removeItem(atPath: draft) }
        let sets = routine.lines.reduce(0) { $0 + $1.sets }
        context.print("\(created ? "Added" : "Saved") the routine '\(saved.name)': \(routine.lines.count) exercise\(routine.lines.count == 1 ? "" : "s"), \(sets) set\(sets == 1 ? "" : "s"). "
            + "`start \(saved.name)` starts a workout from it.")
        if !found.isEmpty { context.print("From your exercises: \(found.joined(separator: ", ")).") }
        if !new.isEmpty {
            context.print("New exercise\(new.count == 1 ? "" : "s"), created at the first set: \(new.map { "'\($0)'" }.joined(separator: ", ")). "
                + "To log under one you have, write its name (`gymlog exercises` lists them) and save again.")
        }
    }
}

extension JSONShapes {
    /// A suggested set's fields, as `routine show --json` and `next --json` give them: reps, or
    /// (null reps) a time or a distance.
    static func suggestedSet(_ s: SuggestedSet) -> [(String, JSON)] {
        [("weight", .fixed(s.weight?.value)), ("weight_unit", .string(s.weight?.unit.rawValue)), ("bodyweight", .bool(s.bodyweight)),
         ("reps", s.isMeasured ? .null : .int(s.reps)), ("duration_s", s.durationSeconds.map { .int($0) } ?? .null),
         ("distance", .fixed(s.distance?.value)), ("distance_unit", .string(s.distance?.unit.rawValue)),
         ("amrap", .bool(s.amrap)), ("rpe", .fixed(s.targetRPE)), ("summary", .string(s.summary))]
    }

    /// A routine as planned: each line with today's suggested sets, the reason and the progress.
    static func plan(_ plan: TodayPlan) -> JSON {
        .object([
            ("routine_id", .string(plan.routine.id.key)),
            ("routine", .string(plan.routine.name)),
            ("text", .string(plan.routine.text)),
            ("exercises", .array(plan.lines.enumerated().map { i, line in
                .object([
                    ("line", .int(i + 1)),
                    ("exercise", .string(line.name)),
                    ("planned", .string(line.planned.text)),
                    ("reason", .string(line.suggestion.reason)),
                    ("done", .int(plan.progress.done[i])),
                    ("skipped", .bool(plan.progress.skipped.contains(i))),
                    ("sets", .array(line.suggestion.sets.map { .object(suggestedSet($0)) })),
                    ("last_time", line.last.map { .string(Render.compactSets($0.sets.map(\.values))) } ?? .null),
                ])
            })),
        ])
    }
}
