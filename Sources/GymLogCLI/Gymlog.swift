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
          gymlog export --out lifts.csv

        Data lives in one SQLite file: --db PATH, else $GYMLOG_DB, else
        $XDG_DATA_HOME/gymlog/gymlog.sqlite. Settings: $XDG_CONFIG_HOME/gymlog/config.toml.
        """,
        // The order is the order of `help` in the REPL, the completion scripts and the man page.
        subcommands: [Repl.self, Log.self, Undo.self, Redo.self, Start.self, Finish.self, Note.self,
                      Show.self, Edit.self, Delete.self, History.self, PRs.self, ChartCommand.self, Stats.self,
                      Exercises.self, Export.self, Import.self, Sync.self, Status.self, Login.self, Logout.self],
        defaultSubcommand: Repl.self
    )

    public init() {}

    /// Runs the process's arguments through the tree, awaiting async commands, then exits.
    public static func runCommandLine() async {
        await asyncMain(Gymlog.self)
    }
}

/// Called on a concrete root from top-level code, `main()` resolves to `ParsableCommand`'s
/// synchronous one, which refuses an async root; through this generic it is the async one.
private func asyncMain<Root: AsyncParsableCommand>(_: Root.Type) async {
    await Root.main()
}

/// A command that runs against a `CLIContext`, so the REPL and tests can run it too.
public protocol ContextCommand: AsyncParsableCommand {
    /// The options every command takes.
    var global: GlobalOptions { get }
    /// Does the command's work, printing through `context`.
    func run(in context: CLIContext) async throws
}

extension ContextCommand {
    /// The shell's entry: builds the live context, runs, and turns a `UserError` into one
    /// `error:` line and exit status 1.
    public mutating func run() async throws {
        let context: CLIContext
        do { context = try CLIContext.live(db: global.db) } catch {
            FileHandle.standardError.write(Data((TerminalText.safe(Style.stderr.errorLine(error.localizedDescription)) + "\n").utf8))
            throw ExitCode.failure
        }
        do { try await run(in: context) } catch let e as UserError {
            context.printError(Style.stderr.errorLine(e.message))
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

/// A command whose argument is an exercise: the REPL completes `NAME exercise` for it.
protocol ExerciseArgumentCommand: ContextCommand {}
