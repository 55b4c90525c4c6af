import ArgumentParser
import GymLogCore
import GymLogStore

struct Exercises: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exercises",
        abstract: "List exercises, add, alias, rename, merge or delete one, or change its kind.",
        discussion: """
          Every exercise has one kind, set by its first set or by `add --kind`:
          weighted (`100x5`), bodyweight (`bw x8`, `bw+10x5`, `bw-20x8`),
          timed (`60s`), distance (`2000m 7:41`) or carry (`40kg 50m`).
          A set of another shape is refused. Names match ignoring case,
          accents and punctuation (`pull-up` finds `Pullup`).

          gymlog exercises                      kind, aliases, sets, last date
          gymlog exercises --json               the same for scripts
          gymlog exercises add "Front Squat"    create (even if close to another)
          gymlog exercises add Sled --kind carry
          gymlog exercises alias bp "Bench Press"
          gymlog exercises rename Pullup Pull-up   the old name stays an alias
          gymlog exercises kind plank timed     while its sets fit the new kind
          gymlog exercises rest squat 3:00      the rest the prompt counts to (off clears)
          gymlog exercises merge Benchpress "Bench Press"
                                                move the sets; keep the name
          gymlog exercises delete Benchpress    only one with no sets
        """,
        subcommands: [ListExercises.self, AddExercise.self, AliasExercise.self, RenameExercise.self, KindExercise.self,
                      RestExercise.self, MergeExercises.self, DeleteExercise.self],
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
                + "  \(s.setCount) set\(s.setCount == 1 ? "" : "s")"
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
        commandName: "kind", abstract: "Change an exercise's kind, while all its sets fit the new kind.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The exercise.") var name: String
    @Argument(help: "The new kind: \(ExerciseKind.typedNames).") var kind: String

    func validate() throws { _ = try exerciseKind(kind, option: "") }

    func run(in context: CLIContext) async throws {
        let e = try context.db().setExerciseKind(name, to: try exerciseKind(kind, option: ""))
        context.print("'\(e.name)' is \(e.kind.phrase) (\(e.kind.rawValue)).")
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
        discussion: "Both exercises must have the same kind. Example: `gymlog exercises merge Benchpress \"Bench Press\"`."
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The exercise to merge away (its whole name or an alias).") var from: String
    @Argument(help: "The exercise that keeps the sets.") var into: [String]

    func run(in context: CLIContext) async throws {
        let m = try context.db().mergeExercises(from, into: into.joined(separator: " "))
        let names = m.newAliases.map { "'\($0)'" }.joined(separator: ", ")
        context.print("Moved \(m.movedSets) set\(m.movedSets == 1 ? "" : "s") from '\(m.from.name)' to '\(m.into.name)'"
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
