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
        try at.map { try Self.moment($0, option: "--at", in: context) }
    }

    /// The past moment a time option (`--at`, `edit --start`) names; a time that is no time,
    /// or is in the future, is refused with what to type.
    static func moment(_ text: String, option: String, in context: CLIContext) throws -> Int64 {
        let now = context.environment.now()
        let today = LineChart.day(millis: now, utcOffsetSeconds: context.environment.utcOffset(now))
        guard let phrase = parseTimePhrase(text, today: today) else {
            throw UserError("\(option) \(text) is not a time; use \(timePhraseForms), e.g. \(option) \"yesterday 18:00\".")
        }
        let moment = instant(day: phrase.day, minute: phrase.minute, utcOffset: context.environment.utcOffset)
        guard moment <= now else {
            throw UserError("\(option) \(text) is in the future (it is \(Render.clock(now, context.environment.utcOffset(now))) now); "
                + (option == "--at" ? "log what you did without --at, or give the earlier time it happened." : "give the earlier time it happened."))
        }
        return moment
    }

    /// REPL words with `--at`'s value typed unquoted anywhere (`bw 82.5 --at yesterday 07:00`):
    /// the longest run of up to four words after it (`2 days ago 18:00`) that reads as a time becomes one word.
    static func joiningTime(_ words: [String]) -> [String] {
        guard let at = words.firstIndex(of: "--at"), at + 1 < words.count else { return words }
        for count in stride(from: min(4, words.count - at - 1), through: 2, by: -1) {
            let phrase = words[(at + 1)...(at + count)].joined(separator: " ")
            if parseTimePhrase(phrase, today: 0) != nil {
                return Array(words[...at]) + [phrase] + Array(words[(at + count + 1)...])
            }
        }
        return words
    }

    /// `--at yesterday 18:00 bench 100x5` typed in the REPL without quotes, or with `--at` last
    /// as in a shell (`start Legs --at "2 days ago 18:00"`): `--at`, its time (as `joiningTime`
    /// reads it), then the other words as the command's text.
    static func replArguments(_ rest: String) -> [String]? {
        guard let words = try? shellWords(rest), let at = words.firstIndex(of: "--at"), at + 1 < words.count else { return nil }
        let joined = joiningTime(words)
        let text = (joined[..<at] + joined[(at + 2)...]).joined(separator: " ")
        return ["--at", joined[at + 1]] + (text.isEmpty ? [] : ["--", text])
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

/// Shell completion of exercise names and aliases, matched case-insensitively (`squ` offers
/// `Squat (Barbell)`): the completion script calls `gymlog` back with the words typed so far,
/// the current one as the shell has it (`Bench\ Press\ \(`, `"Bench Pr`), read unquoted. Offline and read-only: the database named by `--db` (else
/// $GYMLOG_DB, else the default) is read when it exists and never created.
@Sendable func exerciseCompletions(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    var db: String?
    for i in words.indices { if let flag = GlobalOptions.database(at: i, in: words) { db = flag.path } }
    let path = Paths.resolve(db: db).database
    guard let database = try? GymLogDatabase(path: path, create: false), let names = try? database.exerciseNames() else { return [] }
    let typed = shellUnquoted(prefix).lowercased()
    return names.filter { $0.lowercased().hasPrefix(typed) }.sorted()
}

/// `--workout REF`: the workout a command acts on instead of the current one (`show`, `edit`,
/// `delete`, `note`, `finish`).
struct WorkoutOption: ParsableArguments {
    // Unconditional, so `--workout -2` reads `-2` as the reference rather than as an option.
    @Option(name: .long, parsing: .unconditional,
            help: ArgumentHelp("The workout to act on instead of the current one: \(WorkoutReference.forms). "
                + "`history` and `show` print each workout's reference.", valueName: "ref"))
    var workout: String?

    /// The one answer, in the CLI, to which workout a command acts on: the one `--workout`
    /// names, else the past workout this REPL session is filling in (`start --at`), else the
    /// current one. A reference that is no reference is refused with the forms it may take.
    func target(in context: CLIContext) throws -> WorkoutTarget {
        guard let workout else { return context.pastWorkout.map { .past($0.id) } ?? .current }
        let now = context.environment.now()
        let today = LineChart.day(millis: now, utcOffsetSeconds: context.environment.utcOffset(now))
        guard let reference = WorkoutReference.parse(workout, today: today) else {
            throw UserError("--workout \(workout) is not a workout reference; use \(WorkoutReference.forms). "
                + "`gymlog history` lists workouts with their references.")
        }
        return .reference(reference)
    }
}

/// The options of a text command (`edit`, `delete`, `note`) typed in the REPL around its
/// text, where the rest of the line is otherwise one argument: `edit --workout -2 3 x6`,
/// `delete 3 --workout 2026-11-20`. Only the options named here are taken out, so a note
/// or a set's changes are never read as options.
struct ReplTextOptions {
    /// Options that take one word (quoted when it has spaces): `--workout -2`, `--name "Push A"`.
    var values: Set<String> = ["--workout"]
    /// Options that take a time, typed unquoted as `--at` is: `--start 2026-11-20 18:00`.
    var times: Set<String> = []
    /// Options that take nothing: `--yes`.
    var flags: Set<String> = []
    /// Options whose value is every word up to the next option, so a name needs no quotes:
    /// `--name Push A`.
    var runs: Set<String> = []
    /// Whether options may follow the text too (not for free prose such as a note); never
    /// after a `#`, which starts a set's note.
    var trailing = false

    /// The arguments after the command name, or nil when the line is only `--help`.
    func arguments(_ rest: String) -> [String]? {
        if rest == "--help" || rest == "-h" { return nil }
        let words = Self.words(rest)
        var options: [String] = [], text: [Substring] = []
        var i = 0, inText = false, inNote = false
        while i < words.count {
            let word = words[i]
            if word.text.hasPrefix("#") { inNote = true }
            if !inNote, !(inText && !trailing), let taken = option(at: i, in: words) {
                options += taken.arguments
                i += taken.count
                continue
            }
            inText = true
            text.append(word.raw)
            i += 1
        }
        // The text exactly as typed (quotes, apostrophes and spacing kept) when the options
        // were all before or after it.
        guard let first = text.first, let last = text.last else { return options }
        let contiguous = zip(text, text.dropFirst()).allSatisfy { a, b in rest[a.endIndex..<b.startIndex].allSatisfy { $0 == " " || $0 == "\t" } }
        return options + ["--", contiguous ? String(rest[first.startIndex..<last.endIndex]) : text.map(String.init).joined(separator: " ")]
    }

    /// The option at `i` with its value, as arguments, and how many words it took.
    private func option(at i: Int, in words: [(text: String, raw: Substring)]) -> (arguments: [String], count: Int)? {
        let word = words[i].text
        if flags.contains(word) { return ([word], 1) }
        if let eq = word.firstIndex(of: "="), values.union(times).union(runs).contains(String(word[..<eq])) {
            return ([String(word[..<eq]), String(word[word.index(after: eq)...])], 1)
        }
        if values.contains(word), i + 1 < words.count { return ([word, words[i + 1].text], 2) }
        if runs.contains(word), i + 1 < words.count {
            var end = i + 1
            while end < words.count, option(at: end, in: words) == nil { end += 1 }
            return ([word, words[(i + 1)..<end].map(\.text).joined(separator: " ")], end - i)
        }
        if times.contains(word), i + 1 < words.count {
            // The longest run of up to three words that reads as a time.
            for count in stride(from: min(3, words.count - i - 1), through: 1, by: -1) {
                let phrase = words[(i + 1)...(i + count)].map(\.text).joined(separator: " ")
                if parseTimePhrase(phrase, today: 0) != nil { return ([word, phrase], 1 + count) }
            }
            return ([word, words[i + 1].text], 2)
        }
        return nil
    }

    /// The line's words with quotes removed, each with the text it was typed as; an unclosed
    /// quote runs to the end of the line.
    static func words(_ line: String) -> [(text: String, raw: Substring)] {
        var words: [(String, Substring)] = []
        var current = "", quote: Character?, start: String.Index?
        var i = line.startIndex
        while i < line.endIndex {
            let ch = line[i]
            if let q = quote {
                if ch == q { quote = nil } else { current.append(ch) }
            } else if ch == "\"" || ch == "'" {
                quote = ch; if start == nil { start = i }
            } else if ch == " " || ch == "\t" {
                if let s = start { words.append((current, line[s..<i])); current = ""; start = nil }
            } else {
                current.append(ch); if start == nil { start = i }
            }
            i = line.index(after: i)
        }
        if let s = start { words.append((current, line[s...])) }
        return words
    }
}
