import ArgumentParser
import GymLogCore
import GymLogStore

/// Options every command takes.
public struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The database file.", valueName: "path"))
    public var db: String?

    public init() {}
}

/// `--json`: the flag every read command takes.
struct JSONFlag: ParsableArguments {
    @Flag(help: "Print JSON for scripts instead of text (keys documented in the README).")
    var json = false
}

/// `[exercise …]`: the exercise a read command narrows to, all of them when left out.
struct ExerciseFilter: ParsableArguments {
    @Argument(help: "An exercise name, alias or unambiguous prefix.") var exercise: [String] = []

    /// The exercise named, or nil when none was.
    func resolve(in db: GymLogDatabase) throws -> Exercise? {
        exercise.isEmpty ? nil : try db.existingExercise(exercise.joined(separator: " "))
    }
}
