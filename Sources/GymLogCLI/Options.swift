import ArgumentParser
import GymLogCore
import GymLogStore

/// Options every command takes.
public struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The database file.", valueName: "path"))
    public var db: String?

    public init() {}

    /// `--db PATH` or `--db=PATH` at `index` of `words`: the path and how many words it took,
    /// or nil when no `--db` with a value starts there. The one reading of `--db` outside
    /// ArgumentParser: the `log` fast path, `gymlog --db PATH COMMAND` and shell completion.
    static func database(at index: Int, in words: [String]) -> (path: String, length: Int)? {
        guard index < words.count else { return nil }
        let word = words[index]
        if word.hasPrefix("--db=") { return (String(word.dropFirst(5)), 1) }
        if word == "--db", index + 1 < words.count { return (words[index + 1], 2) }
        return nil
    }
}

/// `--at TIME`: log a forgotten session at the time it happened (`log`, `start`).
struct PastTime: ParsableArguments {
    @Option(help: ArgumentHelp("Log it at this past local time: \(timePhraseForms).", valueName: "time"))
    var at: String?

    /// The moment `--at` names, or nil without it; a time that is no time, or is in the
    /// future, is refused with what to type.
    func moment(in context: CLIContext) throws -> Int64? {
        guard let at else { return nil }
        let now = context.environment.now()
        let today = LineChart.day(millis: now, utcOffsetSeconds: context.environment.utcOffset(now))
        guard let phrase = parseTimePhrase(at, today: today) else {
            throw UserError("--at \(at) is not a time; use \(timePhraseForms), e.g. --at \"yesterday 18:00\".")
        }
        let moment = instant(day: phrase.day, minute: phrase.minute, utcOffset: context.environment.utcOffset)
        guard moment <= now else {
            throw UserError("--at \(at) is in the future (it is \(Render.clock(now, context.environment.utcOffset(now))) now); "
                + "log what you did without --at, or give the earlier time it happened.")
        }
        return moment
    }

    /// REPL words with `--at`'s value typed unquoted anywhere (`bw 82.5 --at yesterday 07:00`):
    /// the longest run of up to three words after it that reads as a time becomes one word.
    static func joiningTime(_ words: [String]) -> [String] {
        guard let at = words.firstIndex(of: "--at"), at + 1 < words.count else { return words }
        for count in stride(from: min(3, words.count - at - 1), through: 2, by: -1) {
            let phrase = words[(at + 1)...(at + count)].joined(separator: " ")
            if parseTimePhrase(phrase, today: 0) != nil {
                return Array(words[...at]) + [phrase] + Array(words[(at + count + 1)...])
            }
        }
        return words
    }

    /// `--at yesterday 18:00 bench 100x5` typed in the REPL without quotes: `--at`, its time
    /// (as `joiningTime` reads it), then the rest as the command's text.
    static func replArguments(_ rest: String) -> [String]? {
        guard let words = try? shellWords(rest), words.first == "--at", words.count >= 2 else { return nil }
        let joined = joiningTime(words)
        let text = joined.dropFirst(2).joined(separator: " ")
        return ["--at", joined[1]] + (text.isEmpty ? [] : ["--", text])
    }
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
    for i in words.indices { if let flag = GlobalOptions.database(at: i, in: words) { db = flag.path } }
    let path = Paths.resolve(db: db).database
    guard let database = try? GymLogDatabase(path: path, create: false), let names = try? database.exerciseNames() else { return [] }
    let typed = prefix.lowercased()
    return names.filter { $0.lowercased().hasPrefix(typed) }.sorted()
}
