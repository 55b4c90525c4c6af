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
    @Argument(help: "An exercise name, alias or unambiguous prefix.", completion: .custom(exerciseCompletions))
    var exercise: [String] = []

    /// The exercise named, or nil when none was.
    func resolve(in db: GymLogDatabase) throws -> Exercise? {
        exercise.isEmpty ? nil : try db.existingExercise(exercise.joined(separator: " "))
    }
}

/// Shell completion of exercise names and aliases: the completion script calls `gymlog` back
/// with the words typed so far. Offline and read-only: the database named by `--db` (else
/// $GYMLOG_DB, else the default) is read when it exists and never created.
@Sendable func exerciseCompletions(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    var db: String?
    for (i, word) in words.enumerated() {
        if word == "--db", i + 1 < words.count { db = words[i + 1] }
        if word.hasPrefix("--db=") { db = String(word.dropFirst(5)) }
    }
    let path = Paths.resolve(db: db).database
    guard let database = try? GymLogDatabase(path: path, create: false), let names = try? database.exerciseNames() else { return [] }
    let typed = prefix.lowercased()
    return names.filter { $0.lowercased().hasPrefix(typed) }.sorted()
}
