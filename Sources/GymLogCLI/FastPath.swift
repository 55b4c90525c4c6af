import Foundation
import GymLogCore

extension Gymlog {
    /// Runs `gymlog log [--db PATH] WORDS...` and `gymlog --version` without building the
    /// ArgumentParser command tree, which costs a third of a one-shot log's start-up
    /// (reflection over every command). Anything else, including `--help` or an unknown flag,
    /// returns nil and goes through the full parser, so behaviour and errors stay the same.
    public static func runFastPath(_ arguments: [String]) -> Int32? {
        guard let command = fastCommand(arguments) else { return nil }
        guard case .log(let db, let words) = command else {
            Swift.print(gymlogVersion)
            return 0
        }
        let context: CLIContext
        do { context = try CLIContext.live(db: db) } catch {
            FileHandle.standardError.write(Data((TerminalText.safe(Style.stderr.errorLine(error.localizedDescription)) + "\n").utf8))
            return 1
        }
        // As after every command from the shell (`ContextCommand.run()`).
        defer { BackgroundSync.afterCommand(context) }
        do {
            return try EntryRunner(context: context).run(words.joined(separator: " ")).exitCode.rawValue
        } catch {
            context.printError(Style.stderr.errorLine((UserError.storage(error, database: context.paths.database)?.message) ?? error.localizedDescription))
            return 1
        }
    }
}

/// What the fast path reads from a command line: `FastPathTests` checks each against what
/// ArgumentParser makes of the same words.
enum FastCommand: Equatable {
    /// `gymlog --version` (or `-V`).
    case version
    /// `gymlog log [--db PATH] WORDS...`.
    case log(db: String?, words: [String])
}

extension Gymlog {
    /// The command `arguments` are when the fast path can read them by hand; nil for
    /// anything else, which the full parser reads.
    static func fastCommand(_ arguments: [String]) -> FastCommand? {
        // What ArgumentParser prints for the version flag (`-V` is gymlog's spelling of it).
        if arguments == ["--version"] || arguments == ["-V"] { return .version }
        guard arguments.first == "log" else { return nil }
        var db: String?
        var words: [String] = []
        var i = 1
        while i < arguments.count {
            let arg = arguments[i]
            // `--db` without its path: the full parser says what is missing (it reads `--db= x` as `--db x`).
            if arg == "--db" || arg == "--db=" { return nil }
            if let flag = GlobalOptions.database(at: i, in: arguments) { db = flag.path; i += flag.length; continue }
            // Flags take the full path, except a dash and a digit: a negative load (`dip -20x8`),
            // a word of the line to the parser too (`Log.words` keeps what it does not know).
            if arg.hasPrefix("-") && !arg.dropFirst().isEmpty && !(arg.dropFirst().first?.isNumber ?? false) { return nil }
            words.append(arg)
            i += 1
        }
        return words.isEmpty ? nil : .log(db: db, words: words)
    }
}

extension Gymlog {
    /// Runs `arguments` when they are a hot verb the fast path reads (`hotCommand`), and says
    /// whether it did; an error it ends with exits the process as the full parser's would.
    static func runHotCommand(_ arguments: [String]) async -> Bool {
        guard var command = hotCommand(arguments) else { return false }
        do { try await command.run() } catch { exitAfter(error, arguments) }
        return true
    }

    /// The verbs typed between sets besides `log` (`status`, `rest`, `finish`), read by hand
    /// like `log`: ArgumentParser reflects over a command's properties at each start, even to
    /// parse one command alone (17.6 M of the 42.6 M instructions of a `gymlog status`,
    /// BENCHMARKS.md). Their words are `--db PATH`, `--json` (status, rest), `--workout REF`
    /// (finish) and a rest target, each at most once; anything else (`--help`, a mistake, an
    /// option a verb does not take) is nil, and the full parser answers as it always does.
    /// `FastPathTests` checks that these are all the options the verbs have.
    static func hotCommand(_ arguments: [String]) -> (any ContextCommand)? {
        guard let verb = arguments.first, let words = HotWords(Array(arguments.dropFirst())) else { return nil }
        var global = GlobalOptions()
        global.db = words.db
        var output = JSONFlag()
        output.json = words.json
        switch verb {
        case Status._commandName where words.workout == nil && words.positional.isEmpty:
            var status = Status()
            status.global = global
            status.output = output
            return status
        case Rest._commandName where words.workout == nil && words.positional.count <= 1:
            var rest = Rest()
            rest.global = global
            rest.target = words.positional.first
            rest.output = output
            return rest
        case Finish._commandName where !words.json && words.positional.isEmpty:
            var which = WorkoutOption()
            which.workout = words.workout
            var finish = Finish()
            finish.global = global
            finish.which = which
            return finish
        default:
            return nil
        }
    }
}

/// A hot verb's words: `--db PATH` (or `--db=PATH`), `--json`, `--workout REF` (or
/// `--workout=REF`; its value read whatever it looks like, as the parser reads it), each at
/// most once, and words that are no option; nil at anything else.
private struct HotWords {
    var db: String?
    var json = false
    var workout: String?
    var positional: [String] = []

    init?(_ words: [String]) {
        var i = 0
        while i < words.count {
            let word = words[i]
            if let flag = GlobalOptions.database(at: i, in: words) {
                guard db == nil else { return nil }
                db = flag.path
                i += flag.length
            } else if word == "--json" {
                guard !json else { return nil }
                json = true
                i += 1
            } else if word == "--workout" || word.hasPrefix("--workout=") {
                guard workout == nil else { return nil }
                if word == "--workout" {
                    guard i + 1 < words.count else { return nil }
                    workout = words[i + 1]
                    i += 2
                } else {
                    workout = String(word.dropFirst("--workout=".count))
                    i += 1
                }
            } else {
                guard !word.hasPrefix("-") else { return nil }
                positional.append(word)
                i += 1
            }
        }
    }
}
