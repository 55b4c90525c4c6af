import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore

/// The `gymlog` command tree. With no subcommand it opens the REPL.
public struct Gymlog: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "gymlog",
        abstract: "A local-first workout log for the terminal.",
        discussion: """
        Run `gymlog` with no arguments to open the logging REPL, or log one line from the shell:

          gymlog log "bench 100x5 @8"
          gymlog prs bench
          gymlog history squat
          gymlog export --out lifts.csv

        Data lives in one SQLite file: --db PATH, else $GYMLOG_DB, else
        $XDG_DATA_HOME/gymlog/gymlog.sqlite. Settings: $XDG_CONFIG_HOME/gymlog/config.toml.
        """,
        subcommands: [Repl.self, Log.self, Undo.self, Show.self, History.self, PRs.self, ChartCommand.self, Stats.self, Exercises.self, Export.self, Import.self,
                      Sync.self, Status.self, Login.self, Logout.self],
        defaultSubcommand: Repl.self
    )

    public init() {}
}

/// Options every command takes.
public struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The database file.", valueName: "path"))
    public var db: String?

    public init() {}
}

/// A command that runs against a `CLIContext`, so the REPL and tests can run it too.
public protocol ContextCommand: ParsableCommand {
    var global: GlobalOptions { get }
    func run(in context: CLIContext) throws
}

extension ContextCommand {
    public mutating func run() throws {
        let context: CLIContext
        do { context = try CLIContext.live(db: global.db) } catch {
            FileHandle.standardError.write(Data((TerminalText.safe(Style.stderr.errorLine(error.localizedDescription)) + "\n").utf8))
            throw ExitCode.failure
        }
        do { try run(in: context) } catch let e as UserError {
            context.printError(Style.stderr.errorLine(e.message))
            throw ExitCode.failure
        }
    }
}
