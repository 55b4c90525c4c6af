import ArgumentParser
import GymLogCore
import GymLogStore

struct Exercises: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exercises",
        abstract: "List exercises, add, alias, rename, merge or delete one, change its kind, or link it to the catalog.",
        discussion: """
          Every exercise has one kind, set by its first set or by `add --kind`:
          weighted (`100x5`), bodyweight (`bw x8`, `bw+10x5`, `bw-20x8`),
          timed (`60s`), distance (`2000m 7:41`) or carry (`40kg 50m`).
          A set of another shape is refused. Names match ignoring case,
          accents and punctuation (`pull-up` finds `Pullup`).

          gymlog exercises
              kind, aliases, sets, last date
          gymlog exercises --json
              the same for scripts
          gymlog exercises add "Front Squat"
              create (even if close to another)
          gymlog exercises add Sled --kind carry
          gymlog exercises alias bp "Bench Press"
          gymlog exercises rename Pullup Pull-up
              the old name stays an alias
          gymlog exercises kind plank timed
              converts sets that have a reading (asks)
          gymlog exercises rest squat 3:00
              the rest the prompt counts to (off clears)
          gymlog exercises merge Benchpress "Bench Press"
                                                move the sets; keep the name
          gymlog exercises delete Benchpress
              only one with no sets
          gymlog exercises search press --muscle shoulders
              the built-in catalog and your own, for routines
          gymlog exercises info squat
              muscles, equipment, link, your numbers
          gymlog exercises link "Frog Pump" Barbell Glute Bridge
              choose the catalog entry by hand
          gymlog exercises unlink "Around The World"
              never link it from its name
          gymlog exercises muscles Landmine --primary shoulders --secondary triceps
              describe one the catalog lacks

          An exercise links by itself to the catalog entry its name
          matches well (`bench`, `Bench Press (Barbell)`, `Barbell Bench
          Press`); a name that matches none well stays unlinked.
        """,
        subcommands: [ListExercises.self, AddExercise.self, AliasExercise.self, RenameExercise.self, KindExercise.self,
                      RestExercise.self, MergeExercises.self, DeleteExercise.self, SearchExercises.self, InfoExercise.self,
                      LinkExercise.self, UnlinkExercise.self, MusclesExercise.self],
        defaultSubcommand: ListExercises.self
    )
}

struct ListExercises: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List exercises with their kind, aliases, set counts and last date.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: JSONFlag

    func run(in context: CLIContext) async throws {
        let list = try context.db().exerciseSummaries()
        if output.json {
            context.printJSON(.object([("exercises", .array(list.map(JSONShapes.exercise)))]))
            return
        }
        if list.isEmpty { context.print("No exercises yet. Log a set, e.g. `gymlog log \"bench 100x5\"`, or `gymlog exercises add NAME`."); return }
        // Display columns, not characters: `深蹲` takes four, `Développé` nine.
        let width = TerminalText.columns(list.map(\.exercise.name))
        let kindWidth = TerminalText.columns(ExerciseKind.allCases.map(\.rawValue))
        for s in list {
            var line = TerminalText.pad(s.exercise.name, to: width) + "  " + TerminalText.pad(s.exercise.kind.rawValue, to: kindWidth)
                + "  \(plural(s.setCount, "set"))"
            if let last = s.lastPerformedAt { line += ", last \(localDate(millis: last, utcOffsetSeconds: s.lastPerformedOffset))" }
            if !s.aliases.isEmpty { line += "  aliases: " + s.aliases.joined(separator: ", ") }
            context.print(line)
        }
    }
}

/// `--kind KIND` or a kind argument read as an `ExerciseKind`.
private func exerciseKind(_ typed: String, option: String) throws -> ExerciseKind {
    guard let kind = ExerciseKind(typed: typed) else {
        throw ValidationError("\(option)'\(typed)' is not a kind; use \(ExerciseKind.typedNames).")
    }
    return kind
}

struct AddExercise: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Create an exercise of one kind.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The exercise name, kept as typed (`RDL` stays `RDL`).") var name: [String]
    @Option(help: "\(ExerciseKind.typedNames); left out, the first set sets it.") var kind: String?

    func validate() throws { _ = try kind.map { try exerciseKind($0, option: "--kind ") } }

    func run(in context: CLIContext) async throws {
        let k = try kind.map { try exerciseKind($0, option: "--kind ") }
        let e = try context.db().addExercise(name: name.joined(separator: " "), kind: k)
        context.print("Added exercise '\(e.name)'" + (k == nil ? "; its first set sets its kind." : " (\(e.kind.rawValue))."))
    }
}

struct AliasExercise: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "alias", abstract: "Give an exercise another name, e.g. `alias bp \"Bench Press\"`.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The alias.") var alias: String
    @Argument(help: "The exercise it stands for.") var exercise: [String]

    func run(in context: CLIContext) async throws {
        let e = try context.db().addAlias(alias, for: exercise.joined(separator: " "))
        context.print("'\(nameKey(alias))' now means '\(e.name)'.")
    }
}

struct RenameExercise: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Rename an exercise; its history and records stay, and the old name becomes an alias.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The exercise's current name.") var name: String
    @Argument(help: "The new name, kept as typed.") var newName: [String]

    func run(in context: CLIContext) async throws {
        let e = try context.db().renameExercise(name, to: newName.joined(separator: " "))
        context.print("Renamed to '\(e.name)'; '\(name)' still finds it.")
    }
}

struct KindExercise: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "kind", abstract: "Change an exercise's kind, converting its sets when each has a reading in the new kind.",
        discussion: """
          A set changes only where its load means something else:
          `bw+70x5` becomes `70x5` on a weighted exercise and back;
          `bw x12` becomes `0x12` (a set at 0 load) and back. An
          assisted set (`bw-20x8`), or a time or distance the new kind
          has no place for, has no reading: then those sets are named
          and nothing changes. The command shows what changes and asks
          first (`--yes` from a script); one `undo` reverts it all.

          gymlog exercises kind plank timed
          gymlog exercises kind "Squat (Barbell)" weighted
          gymlog exercises kind "Squat (Barbell)" weighted --yes
        """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The exercise.") var name: String
    @Argument(help: "The new kind: \(ExerciseKind.typedNames).") var kind: String
    @Flag(name: .long, help: "Convert the sets without asking (for scripts).") var yes = false

    func validate() throws { _ = try exerciseKind(kind, option: "") }

    func run(in context: CLIContext) async throws {
        let kind = try exerciseKind(kind, option: "")
        let db = try context.db()
        let preview = try db.exerciseKindChange(name, to: kind)
        if !preview.conversions.isEmpty {
            let n = preview.conversions.count
            context.print("'\(preview.exercise.name)' becomes \(kind.phrase) (\(kind.rawValue)); \(n) of its sets \(n == 1 ? "changes" : "change"):")
            conversionLines(preview.conversions).forEach(context.print)
            let command = "gymlog exercises kind \(quotedName(preview.exercise.name)) \(kind.rawValue) --yes"
            try confirm(yes, "Convert \(n == 1 ? "it" : "them")?", command: command, context: context)
        }
        let change = try db.setExerciseKind(name, to: kind, confirming: preview)
        let n = change.conversions.count
        context.print("'\(change.exercise.name)' is \(kind.phrase) (\(kind.rawValue))"
            + (n == 0 ? "." : "; \(plural(n, "set")) converted. `gymlog undo` reverts it."))
    }
}

/// Lines describing conversions: for each way a set changes, how many and the first of them
/// (`218 like `bw+70kg x 5` -> `70kg x 5``), most first.
func conversionLines(_ conversions: [SetConversion]) -> [String] {
    // The way a set changes: whether it had a load, and whether it has one after.
    var groups: [(key: [Bool], first: SetConversion, count: Int)] = []
    for c in conversions {
        let key = [c.set.values.weight == nil, c.converted.weight == nil, c.set.values.bodyweight]
        if let i = groups.firstIndex(where: { $0.key == key }) { groups[i].count += 1 } else { groups.append((key, c, 1)) }
    }
    func shown(_ v: SetValues) -> String {
        var v = v
        v.note = nil
        return "`\(v.summary)`"
    }
    return groups.sorted { $0.count > $1.count }.map { g in
        let made = g.first.set.values.weight == nil && g.first.converted.weight != nil ? " (no load becomes a set at 0 load)" : ""
        return "  \(g.count) like \(shown(g.first.set.values)) -> \(shown(g.first.converted))\(made)"
    }
}

/// A name as typed on a command line: quoted when it has a space or a quote.
private func quotedName(_ name: String) -> String {
    name.contains(where: { $0 == " " || $0 == "'" || $0 == "(" || $0 == ")" }) ? "\"\(name)\"" : name
}

/// Goes on with a change just described when `yes` was given or the user answers yes in a
/// terminal. Without a terminal it refuses, naming `command` (with `--yes`); a no ends the
/// command with status 1. Either way nothing is written.
private func confirm(_ yes: Bool, _ question: String, command: String, context: CLIContext) throws {
    if yes { return }
    guard let answer = context.confirm(question) else {
        throw UserError("Nothing was changed: there is no terminal to ask in. To go ahead, run `\(command)`.")
    }
    if !answer {
        context.print("Nothing was changed.")
        throw ExitCode.failure
    }
}

struct RestExercise: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "rest", abstract: "Set an exercise's target rest between sets (`off` clears it); the prompt counts to it.",
        discussion: "Examples: `gymlog exercises rest squat 3:00`, `gymlog exercises rest curl 90s`, `gymlog exercises rest squat off`.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The exercise, then the rest (3:00, 90s, 2min) or `off`.") var words: [String]

    func run(in context: CLIContext) async throws {
        guard words.count >= 2, let last = words.last else {
            throw UserError("Name the exercise and the rest, e.g. `gymlog exercises rest squat 3:00` (or `off`).")
        }
        let name = words.dropLast().joined(separator: " ")
        var seconds: Int?
        if last.lowercased() != "off" {
            switch RoutineParser.restSeconds(last) {
            case .success(let s): seconds = s
            case .failure(let e): throw UserError("`\(last)`: \(e.message), or `off` to clear it.")
            }
        }
        let e = try context.db().setExerciseRest(name, seconds: seconds, typed: context.typedLine ?? "exercises rest \(words.joined(separator: " "))")
        context.print(seconds.map { "Rest between sets of '\(e.name)': \(RestTimer.clock($0))." } ?? "'\(e.name)' has no rest of its own now.")
    }
}

struct MergeExercises: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Move every set of one exercise to another; the old name becomes an alias.",
        discussion: """
          Sets of another kind are converted as `exercises kind`
          converts them (`bw+70x5` becomes `70x5` in a weighted
          exercise), after showing what changes and asking (`--yes`
          from a script); a set with no reading in the other kind is
          named, and nothing changes.

          gymlog exercises merge Benchpress "Bench Press"
        """
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The exercise to merge away (its whole name or an alias).") var from: String
    @Argument(help: "The exercise that keeps the sets.") var into: [String]
    @Flag(name: .long, help: "Convert sets of another kind without asking (for scripts).") var yes = false

    func run(in context: CLIContext) async throws {
        let db = try context.db()
        let intoName = into.joined(separator: " ")
        let preview = try db.exerciseMergePreview(from, into: intoName)
        if !preview.conversions.isEmpty {
            let n = preview.conversions.count
            context.print("Merging '\(preview.from.name)' into '\(preview.into.name)' moves \(plural(preview.movedSets, "set")); "
                + "\(n) of them \(n == 1 ? "changes" : "change") to fit \(preview.kind.phrase):")
            conversionLines(preview.conversions).forEach(context.print)
            let command = "gymlog exercises merge \(quotedName(preview.from.name)) \(quotedName(preview.into.name)) --yes"
            try confirm(yes, "Merge and convert \(n == 1 ? "it" : "them")?", command: command, context: context)
        }
        let m = try db.mergeExercises(from, into: intoName, confirming: preview)
        let names = m.newAliases.map { "'\($0)'" }.joined(separator: ", ")
        let converted = m.conversions.isEmpty ? "" : " (\(m.conversions.count) converted)"
        context.print("Moved \(plural(m.movedSets, "set"))\(converted) from '\(m.from.name)' to '\(m.into.name)'"
            + (names.isEmpty ? "." : "; \(names) now \(m.newAliases.count == 1 ? "means" : "mean") '\(m.into.name)'."))
    }
}

struct DeleteExercise: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete an exercise that has no sets, with its aliases.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The exercise (its whole name or an alias).") var name: [String]

    func run(in context: CLIContext) async throws {
        let e = try context.db().deleteExercise(name.joined(separator: " "))
        context.print("Deleted exercise '\(e.name)'.")
    }
}
