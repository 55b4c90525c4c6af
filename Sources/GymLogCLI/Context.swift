import Foundation
import GymLogCore
import GymLogStore

/// Where gymlog keeps things, resolved once from flags and the XDG environment.
public struct Paths: Sendable {
    public var database: String
    public var config: String
    public var history: String
    public var syncLock: String { database + ".sync-lock" }

    /// `--db PATH`, else `$GYMLOG_DB`, else `$XDG_DATA_HOME/gymlog/gymlog.sqlite`.
    public static func resolve(db: String?, env: [String: String] = ProcessInfo.processInfo.environment) -> Paths {
        let home = env["HOME"] ?? NSHomeDirectory()
        func xdg(_ key: String, _ fallback: String) -> String {
            if let v = env[key], v.hasPrefix("/") { return v }
            return home + "/" + fallback
        }
        let database = db ?? env["GYMLOG_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? xdg("XDG_DATA_HOME", ".local/share") + "/gymlog/gymlog.sqlite"
        let config = env["GYMLOG_CONFIG"].flatMap { $0.isEmpty ? nil : $0 } ?? xdg("XDG_CONFIG_HOME", ".config") + "/gymlog/config.toml"
        let history = xdg("XDG_STATE_HOME", ".local/state") + "/gymlog/history"
        return Paths(database: expandTilde(database, home: home), config: config, history: history)
    }
}

func expandTilde(_ path: String, home: String) -> String {
    path.hasPrefix("~/") ? home + path.dropFirst(1) : path
}

/// Everything a command runs against: paths, settings, output and the clock. Tests build
/// one with their own output sink; the executable uses `live`.
public final class CLIContext: @unchecked Sendable {
    public let paths: Paths
    public var settings: Settings
    public let environment: Environment
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void
    private var database: GymLogDatabase?
    /// The REPL line being run, as typed, so a command can point at a mistake in it; nil in a shell.
    public internal(set) var typedLine: String?

    public init(paths: Paths, settings: Settings, environment: Environment = .live,
                out: @escaping (String) -> Void, err: @escaping (String) -> Void) {
        self.paths = paths; self.settings = settings; self.environment = environment
        self.writeOut = out; self.writeErr = err
    }

    /// The context for the real process: flags, environment, config file, stdout/stderr.
    public static func live(db: String?) throws -> CLIContext {
        let paths = Paths.resolve(db: db)
        let settings = try ConfigFile.load(paths.config)
        return CLIContext(paths: paths, settings: settings,
                          out: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
                          err: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
    }

    /// Every line a command prints goes through `TerminalText.safe`: names and notes may hold
    /// control characters from elsewhere, and must not drive the terminal.
    public func print(_ line: String) { writeOut(TerminalText.safe(line)) }
    public func printError(_ line: String) { writeErr(TerminalText.safe(line)) }

    /// Opens the database on first use, so commands that do not need it never pay for it.
    public func db() throws -> GymLogDatabase {
        if let database { return database }
        do {
            let opened = try GymLogDatabase(path: paths.database, environment: environment, settings: settings)
            database = opened
            return opened
        } catch {
            throw UserError("Cannot open the database at \(paths.database): \(error). Check the path (--db or $GYMLOG_DB) and its permissions.")
        }
    }
}
