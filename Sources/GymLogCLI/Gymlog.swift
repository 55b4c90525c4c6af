import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore

/// The `gymlog` command tree: every verb the shell and the REPL run. With no subcommand it
/// opens the REPL.
public struct Gymlog: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "gymlog",
        abstract: "A local-first workout log for the terminal.",
        discussion: """
        Run `gymlog` with no arguments to open the logging REPL, or run one command from the shell:

          gymlog log "bench 100x5 @8"
          gymlog start "Push day"
          gymlog edit 2 x6 @9
          gymlog prs bench
          gymlog history squat
          gymlog plates 142.5
          gymlog warmup squat 140 log
          gymlog export --out lifts.csv

        Data lives in one SQLite file: --db PATH, else $GYMLOG_DB, else \
        $XDG_DATA_HOME/gymlog/gymlog.sqlite. Only the REPL, log, warmup ... log, \
        start, import, exercises add/alias/rename and sync create it; plates \
        needs none; the other commands say there is none yet, and where they \
        looked. --db PATH makes a new database only in a folder that exists. \
        `gymlog log --help` shows the whole entry language.

        Exit status: 0 when the command did what it was asked, 64 when gymlog cannot read \
        what was typed (a set line, an option, a value), 1 when it read it but cannot do it \
        (no database, nothing to undo, a server that is down).

        Settings live in $GYMLOG_CONFIG, else $XDG_CONFIG_HOME/gymlog/config.toml:

        \(Setting.helpText(.config))

        `gymlog config set KEY VALUE` changes one line of this file and keeps the rest (comments \
        too); `gymlog config list` shows every key's value. Each key is also a variable, \
        GYMLOG_ and the key in capitals with _ for its dots (GYMLOG_UNIT=lb, \
        GYMLOG_SYNC_AUTO=false), which wins over the file. `gymlog login` saves the sync server, token \
        and CA file (`--ca-file`) in $XDG_DATA_HOME/gymlog/credentials.toml (mode \
        0600); `gymlog logout` empties it. Until that file exists, the `[sync]` \
        lines an older gymlog wrote here are still read:

        \(Setting.helpText(.credentials))
        """,
        version: gymlogVersion,
        // The order is the order of `help` in the REPL, the completion scripts and the man page.
        subcommands: [Repl.self, Log.self, Undo.self, Redo.self, Start.self, Finish.self, Note.self,
                      Show.self, Edit.self, Delete.self, History.self, Last.self, PRs.self, ChartCommand.self, Stats.self, CalendarCommand.self,
                      Plates.self, Warmup.self, RoutineCommand.self, Next.self, Ok.self, Skip.self, Rest.self, Bodyweight.self, Exercises.self, Export.self, Import.self, Sync.self, Status.self, Login.self, Logout.self, Key.self, ConfigCommand.self],
        defaultSubcommand: Repl.self
    )

    public init() {}

    /// Runs the process's arguments through the tree, awaiting async commands, then exits.
    public static func runCommandLine() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        // ArgumentParser spells the version flag only `--version`.
        if arguments == ["-V"] { arguments = ["--version"] }
        // Exercise names complete whole and in any case in bash and zsh (see `ShellCompletion`).
        if arguments.first == "--generate-completion-script", arguments.count == 2, let script = ShellCompletion.script(for: arguments[1]) {
            Swift.print(script)
            Foundation.exit(0)
        }
        arguments = commandFirst(arguments)
        // Before the unknown-command check, which reads every command's configuration.
        if await runHotCommand(arguments) { return }
        // Without this, a mistyped command falls to the default subcommand (the REPL), which
        // refuses the extra word with the REPL's usage.
        if let message = unknownCommandMessage(arguments) {
            FileHandle.standardError.write(Data((TerminalText.safe(Style.stderr.errorLine(message)) + "\n").utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        await asyncMain(Gymlog.self, arguments)
    }

    /// `gymlog --db x.sqlite show` as `gymlog show --db x.sqlite`, and `gymlog --db x.sqlite
    /// routine add ...` as `gymlog routine add --db x.sqlite ...`: every command takes `--db`,
    /// but ArgumentParser only reads an option after the (sub)command it belongs to, and `--db`
    /// in front is how `git -C` and `psql -d` users type it.
    static func commandFirst(_ arguments: [String]) -> [String] {
        guard let optionLength = GlobalOptions.database(at: 0, in: arguments)?.length else { return arguments }
        let rest = arguments.dropFirst(optionLength)
        let path = commandPath(Array(rest))
        return path.isEmpty ? arguments : path + arguments.prefix(optionLength) + rest.dropFirst(path.count)
    }

    /// The subcommand words `arguments` start with (`routine add` of `routine add Push`).
    static func commandPath(_ arguments: [String]) -> [String] {
        var path: [String] = []
        var command: any ParsableCommand.Type = Gymlog.self
        for word in arguments {
            guard let sub = command.configuration.subcommands.first(where: { $0._commandName == word }) else { break }
            path.append(word)
            command = sub
        }
        return path
    }

    /// The first word of each command of the tree, and ArgumentParser's own `help`.
    static var commandNames: [String] { configuration.subcommands.map { $0._commandName } + ["help"] }

    /// The command `word` most likely meant: within one edit for short words, two for longer.
    /// Only a word of letters can be a mistyped command (one holding a control character gets
    /// the parser's pointed error instead). Nil when the words after it hold a digit: `squat 140x0` and `press 60x5` are set
    /// lines, however close `squat` is to `quit` or `press` to `prs`.
    static func nearestCommand(to word: String, rest: [String] = [], among names: [String] = commandNames) -> String? {
        let typed = word.lowercased()
        guard typed.count >= 2, typed.allSatisfy({ $0.isASCII && $0.isLetter }), !names.contains(word), !rest.contains(where: { $0.contains(where: \.isNumber) }) else { return nil }
        let limit = typed.count <= 4 ? 1 : 2
        let scored = names.map { ($0, editDistance(typed, $0, limit: limit)) }.filter { $0.1 <= limit }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// What to say when the shell's first word is no command (`gymlog hisotry`), or nil when it is one.
    static func unknownCommandMessage(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), !commandNames.contains(first) else { return nil }
        if let near = nearestCommand(to: first, rest: Array(arguments.dropFirst())) {
            return "Unknown command '\(first)'. Did you mean `\(near)`? (`gymlog --help` lists every command.)"
        }
        return "Unknown command '\(first)'. To log a set from the shell, type `gymlog log \"\(arguments.joined(separator: " "))\"`; "
            + "`gymlog --help` lists every command."
    }
}

/// ArgumentParser's async main, but input it cannot read is answered as gymlog answers any
/// input it cannot read: one `error:` line saying what to type, exit 64, no usage dump (the
/// help is a `--help` away, and the dump buried the sentence that says what was wrong).
///
/// Called on a concrete root from top-level code, `main()` resolves to `ParsableCommand`'s
/// synchronous one, which refuses an async root; through this generic it is the async one.
private func asyncMain<Root: AsyncParsableCommand>(_: Root.Type, _ arguments: [String]) async {
    do {
        var command = try Root.parseAsRoot(arguments)
        if var asyncCommand = command as? any AsyncParsableCommand {
            try await asyncCommand.run()
        } else {
            try command.run()
        }
    } catch {
        exitAfter(error, arguments)
    }
}

/// Ends the process for an error a command of `arguments` threw, as ArgumentParser would,
/// except that input it cannot read gets one `error:` line and where to look (`asyncMain`).
func exitAfter(_ error: any Error, _ arguments: [String]) -> Never {
    // A bare exit status: the command said what was wrong already (an entry line's error).
    if let code = error as? ExitCode { Foundation.exit(code.rawValue) }
    guard Gymlog.exitCode(for: error) == .validationFailure else { Gymlog.exit(withError: error) }
    let hint = Gymlog.fullMessage(for: error).split(separator: "\n").filter { $0.hasPrefix("Help:") }.map { "  " + $0 }
    let help = "  See `" + (["gymlog"] + Gymlog.commandPath(arguments) + ["--help"]).joined(separator: " ") + "`."
    let lines = [Style.stderr.errorLine(Gymlog.message(for: error))] + hint + [help]
    FileHandle.standardError.write(Data((lines.map(TerminalText.safe).joined(separator: "\n") + "\n").utf8))
    Foundation.exit(ExitCode.validationFailure.rawValue)
}

/// A command that runs against a `CLIContext`, so the REPL and tests can run it too.
public protocol ContextCommand: AsyncParsableCommand {
    /// The options every command takes.
    var global: GlobalOptions { get }
    /// Does the command's work, printing through `context`.
    func run(in context: CLIContext) async throws
    /// Whether the command, run from the shell, may start a background sync as it ends; false
    /// only for that background sync itself.
    var startsBackgroundSync: Bool { get }
}

extension ContextCommand {
    /// The shell's entry: builds the live context, runs, and turns a `UserError` into one
    /// `error:` line and exit status 1.
    public var startsBackgroundSync: Bool { true }

    public mutating func run() async throws {
        var context: CLIContext
        do { context = try CLIContext.live(db: global.db) } catch {
            FileHandle.standardError.write(Data((TerminalText.safe(Style.stderr.errorLine(error.localizedDescription)) + "\n").utf8))
            throw ExitCode.failure
        }
        context.createsDatabase = !((self as? any ExistingDatabaseCommand)?.readsOnly ?? false)
        // Whatever the command left in the outbox is synced in the background (`BackgroundSync`).
        defer { if startsBackgroundSync { BackgroundSync.afterCommand(context) } }
        do { try await run(in: context) } catch let e as UserError {
            context.printError(Style.stderr.errorLine(e.message))
            throw ExitCode.failure
        } catch {
            guard let full = UserError.storage(error, database: context.paths.database) else { throw error }
            context.printError(Style.stderr.errorLine(full.message))
            throw ExitCode.failure
        }
    }
}

/// A command whose arguments are one piece of typed text: a set line, a workout name, a note,
/// a set's changes. The REPL hands it the rest of its line as that text, so nothing in it is
/// taken for an option (`note -- felt odd`, `edit -0 x8`) and it is read as typed.
protocol TextCommand: ContextCommand {
    /// The arguments after the command name for the rest of a REPL line, or nil to split the
    /// line into words like a shell and parse them as options and arguments.
    static func replArguments(_ rest: String) -> [String]?
}

extension TextCommand {
    static func replArguments(_ rest: String) -> [String]? {
        // `--help` alone still shows the command's usage; any other text is the argument.
        if rest == "--help" || rest == "-h" { return nil }
        return rest.isEmpty ? [] : ["--", rest]
    }
}

/// A command whose arguments are never a set line (`plates 142.5`, `warmup squat 140`). In the
/// REPL a line that starts with its name but is a valid set line of an exercise that exists
/// (`warmup row 40x10` with "Warmup Row" logged before) logs that set instead; otherwise the
/// command runs, and its error says how to log a new exercise of that name.
protocol YieldsToExercises: ContextCommand {}

/// A command whose argument is an exercise: the REPL completes `NAME exercise` for it.
protocol ExerciseArgumentCommand: ContextCommand {}

/// A command that changes the settings (`config set`): the REPL reads them again after it, so
/// the lines that follow use what it saved.
protocol ChangesSettings: ContextCommand {}

/// A command that saves the server, token or key (`login`, `logout`, `key enable`): the REPL reads its settings
/// again after it, so the lines that follow sync with what it saved, and pulls at once.
protocol SavesCredentials: ChangesSettings {}

/// A command that works on what is already logged: run from the shell on a path with no
/// database, it creates none and says so. These are the commands that only read, and those
/// that change or take back what exists (with no database there is nothing to undo, edit,
/// delete, note or finish). The REPL, `log`, `warmup ... log`, `start`, `import`, `exercises add`
/// and `sync` (which fills a new device from the server) create the database on first use;
/// `warmup` without `log` reads one only if it exists (`existingDB`), and `plates` opens none.
protocol ExistingDatabaseCommand: ContextCommand {
    /// False where this invocation writes (`bw 82.5`), so it may create the database.
    var readsOnly: Bool { get }
}

extension ExistingDatabaseCommand {
    var readsOnly: Bool { true }
}

/// `bw` lists (a read command: no database is an error naming it, exit 1) or records.
extension Bodyweight: ExistingDatabaseCommand {
    var readsOnly: Bool { weight.isEmpty }
}

extension Show: ExistingDatabaseCommand {}
extension History: ExistingDatabaseCommand {}
extension PRs: ExistingDatabaseCommand {}
extension Last: ExistingDatabaseCommand {}
extension ChartCommand: ExistingDatabaseCommand {}
extension Stats: ExistingDatabaseCommand {}
extension Export: ExistingDatabaseCommand {}
extension Status: ExistingDatabaseCommand {}
extension ListExercises: ExistingDatabaseCommand {}
extension Undo: ExistingDatabaseCommand {}
extension Redo: ExistingDatabaseCommand {}
extension Edit: ExistingDatabaseCommand {}
extension Delete: ExistingDatabaseCommand {}
extension Note: ExistingDatabaseCommand {}
extension Finish: ExistingDatabaseCommand {}
