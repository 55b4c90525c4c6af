import ArgumentParser
import Foundation
import GymLogCore
import GymLogServerCore

/// `gymlog-server`: the sync server and its account tools.
public struct ServerCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "gymlog-server",
        abstract: "The gymlog sync server: the meeting point of one person's gymlog databases.",
        discussion: """
        Examples:
          gymlog-server user add alice
              # prints alice's token on the last line
          gymlog-server serve --port 8080
              # then, on each device: gymlog login --server http://HOST:8080
              # (it asks for the token; or pipe it in: ... < token.txt)
          gymlog-server serve --db sqlite:/srv/gymlog/server.sqlite --host 0.0.0.0
          gymlog-server backup --db sqlite:/srv/gymlog/server.sqlite \\
            /backups/gymlog.sqlite
        """,
        version: gymlogVersion,
        subcommands: [ServeCommand.self, UserCommand.self, BackupCommand.self, RestoreCommand.self],
        defaultSubcommand: ServeCommand.self
    )

    public init() {}

    /// Parses the process arguments and runs the chosen command (the executable's whole main).
    // ParsableCommand's synchronous `main()` wins overload resolution from another module,
    // which refuses async commands, so parse and run explicitly.
    public static func runFromCommandLine(_ arguments: [String]? = nil) async {
        var origins: [String: String] = [:]
        do {
            let settled = try ServerSettings.arguments(arguments ?? Array(CommandLine.arguments.dropFirst()),
                                                       environment: ProcessInfo.processInfo.environment)
            origins = settled.origins
            var command = try parseAsRoot(settled.arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // A bad value from the config file or the environment is named where it came from.
            if let origin = ServerSettings.origin(of: fullMessage(for: error), origins) {
                FileHandle.standardError.write(Data("gymlog-server: \(origin)\n".utf8))
            }
            exit(withError: error)
        }
    }
}

/// The `--db` option shared by every command.
struct DatabaseOption: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "Where the server keeps its data: sqlite:PATH, a file path, or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.",
        discussion: "Defaults to $XDG_DATA_HOME/gymlog-server/server.sqlite (~/.local/share/... when unset). A PostgreSQL password may come from PGPASSWORD instead of the URL.",
        valueName: "url"))
    var url: String?
}
