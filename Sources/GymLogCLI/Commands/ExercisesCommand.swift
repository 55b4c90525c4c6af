import ArgumentParser
import GymLogCore
import GymLogStore

struct Exercises: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exercises",
        abstract: "List exercises, add one, give one an alias, or rename one.",
        discussion: """
          gymlog exercises                          list with aliases and set counts
          gymlog exercises add "Front Squat"        create (even if close to another name)
          gymlog exercises alias bp "Bench Press"   `bp 100x5` now logs Bench Press
          gymlog exercises rename bench "Bench Press"
        """,
        subcommands: [ListExercises.self, AddExercise.self, AliasExercise.self, RenameExercise.self],
        defaultSubcommand: ListExercises.self
    )
}

struct ListExercises: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List exercises with their aliases and set counts.")
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        let list = try context.db().exerciseSummaries()
        if list.isEmpty { context.print("No exercises yet. Log a set, e.g. `gymlog log \"bench 100x5\"`, or `gymlog exercises add NAME`."); return }
        let width = TerminalText.columns(list.map(\.exercise.name))
        for s in list {
            var line = TerminalText.pad(s.exercise.name, to: width)
                + "  \(TerminalText.pad(s.exercise.kind.rawValue, to: 10))  \(s.setCount) set\(s.setCount == 1 ? "" : "s")"
            if !s.aliases.isEmpty { line += "  aliases: " + s.aliases.joined(separator: ", ") }
            context.print(line)
        }
    }
}

struct AddExercise: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Create an exercise.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The exercise name.") var name: [String]
    @Option(help: "weighted, bodyweight, timed or distance.") var kind: String = "weighted"

    func run(in context: CLIContext) async throws {
        guard let k = ExerciseKind(rawValue: kind.lowercased()) else {
            throw ValidationError("--kind \(kind) is not a kind; use weighted, bodyweight, timed or distance.")
        }
        let e = try context.db().addExercise(name: name.joined(separator: " "), kind: k)
        context.print("Added exercise '\(e.name)' (\(e.kind.rawValue)).")
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
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename an exercise; its history and records stay.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The exercise's current name.") var name: String
    @Argument(help: "The new name.") var newName: [String]

    func run(in context: CLIContext) async throws {
        let e = try context.db().renameExercise(name, to: newName.joined(separator: " "))
        context.print("Renamed to '\(e.name)'.")
    }
}
