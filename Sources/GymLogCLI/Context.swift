import Foundation
import GymLogCore
import GymLogStore

/// Where gymlog keeps things, resolved once from flags and the XDG environment.
public struct Paths: Sendable {
    public var database: String
    public var config: String
    public var history: String
    /// The sync server, token and CA file `gymlog login` saves (mode 0600), apart from the
    /// user's config, which only `config set` writes; nil means `credentials.toml` beside the config.
    public var credentials: String? = nil
    /// True when `--db` named the database: a new one there is made only in a folder that
    /// exists, so a mistyped path is not silently a new, empty log.
    public var databaseFromOption = false
    public var syncLock: String { database + ".sync-lock" }
    /// Where a sync that runs in the background says what it did (`$XDG_STATE_HOME/gymlog/sync.log`).
    public var syncLog: String { (history as NSString).deletingLastPathComponent + "/sync.log" }
    /// Where the credentials are read and written.
    public var credentialsFile: String { credentials ?? (config as NSString).deletingLastPathComponent + "/credentials.toml" }

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
        let credentials = xdg("XDG_DATA_HOME", ".local/share") + "/gymlog/credentials.toml"
        return Paths(database: expandTilde(database, home: home), config: config, history: history, credentials: credentials,
                     databaseFromOption: db != nil)
    }
}

func expandTilde(_ path: String, home: String) -> String {
    path.hasPrefix("~/") ? home + path.dropFirst(1) : path
}

extension UserError {
    /// A full disk in words a person can act on (no path or permission is wrong: space is
    /// missing), or nil when `error` is something else.
    ///
    /// Likewise a database that cannot be written (a read-only file, folder or disk): read
    /// commands work on it, and a write says so, naming the file.
    static func storage(_ error: any Error, database path: String) -> UserError? {
        if let readOnly = error as? DatabaseReadOnly, readOnly.needsUpgrade {
            return UserError("The database at \(path) was made by an older gymlog and must be upgraded before it can be read, "
                + "but it is read-only (the file, its folder or its disk cannot be written). Make it writable once, or use a writable copy with --db.")
        }
        if GymLogDatabase.isReadOnly(error) {
            return UserError("The database at \(path) is read-only (the file, its folder or its disk cannot be written), so nothing was written. "
                + "Commands that only read work; to log, make it writable or use a writable copy with --db.")
        }
        guard GymLogDatabase.isDiskFull(error, path: path) else { return nil }
        return UserError("The disk holding the database at \(path) is full (disk full): free some space, then run the command again. "
            + "What the command was writing was not saved.")
    }
}

/// Everything a command runs against: paths, settings, output and the clock. Tests build
/// one with their own output sink; the executable uses `live`. A value: the REPL runs each
/// command on a copy that carries the line typed, and keeps what lasts from line to line in
/// its `ReplState`. Copies share the database opened on first use.
public struct CLIContext {
    public let paths: Paths
    public var settings: Settings
    public let environment: Environment
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void
    private let opened = OpenedDatabase()
    /// The REPL line being run, as typed, so a command can point at a mistake in it; nil in a shell.
    public internal(set) var typedLine: String?
    /// What the REPL keeps between lines, when the command runs in one; nil in a shell.
    var repl: ReplState?
    /// Asks the person at the terminal `question` and returns the line they answer; nil when
    /// there is nobody to ask (a script, piped input), so the command needs `--yes` instead.
    /// The REPL asks through readline; a shell command on a terminal, on standard error.
    public var ask: ((String) -> String?)?
    /// Reads a secret (a token) from standard input: on a terminal after a prompt on standard
    /// error, without echo; from a pipe, its first line. Nil at the end of input.
    public var readSecret: ((String) -> String?)?

    public init(paths: Paths, settings: Settings, environment: Environment = .live,
                out: @escaping (String) -> Void, err: @escaping (String) -> Void) {
        self.paths = paths; self.settings = settings; self.environment = environment
        self.writeOut = out; self.writeErr = err
    }

    /// The context for the real process: flags, environment, config file, stdout/stderr.
    public static func live(db: String?) throws -> CLIContext {
        let paths = Paths.resolve(db: db)
        let settings = try ConfigFile.load(paths.config, credentials: paths.credentialsFile)
        var context = CLIContext(paths: paths, settings: settings,
                                 out: { writeStandardOutput($0 + "\n") },
                                 err: { try? FileHandle.standardError.write(contentsOf: Data(($0 + "\n").utf8)) })
        context.readSecret = { prompt in
            guard isatty(STDIN_FILENO) == 1 else { return Swift.readLine(strippingNewline: true) }
            FileHandle.standardError.write(Data(TerminalText.safe(prompt).utf8))
            return TerminalEcho.withoutEcho { Swift.readLine(strippingNewline: true) }
        }
        if isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 {
            context.ask = { question in
                FileHandle.standardError.write(Data(TerminalText.safe(question).utf8))
                return Swift.readLine(strippingNewline: true)
            }
        }
        return context
    }

    /// Where the output is read: hints name commands as they are typed there.
    public var surface: Surface { repl == nil ? .shell : .repl }
    /// The past workout the REPL is filling in since `start --at`; nil in a shell.
    public var pastWorkout: Workout? { repl?.pastWorkout }
    /// Asks a yes-or-no question through `ask` before a command changes many rows at once
    /// (`exercises kind` converting sets, `delete --workout`): true for `y` or `yes`, false for
    /// anything else or the end of input, nil when there is nobody to ask, so a script is
    /// never left waiting and needs `--yes` instead.
    func confirm(_ question: String) -> Bool? {
        guard let ask else { return nil }
        let answer = ask(question + " [y/N] ")?.trimmingCharacters(in: .whitespaces).lowercased()
        return answer == "y" || answer == "yes"
    }

    /// Whether `db()` may create a missing database. Commands that work on what exists set
    /// it to false (`ExistingDatabaseCommand`), so `gymlog show --db typo.sqlite` makes no folder and no file.
    public var createsDatabase = true

    /// Every line a command prints goes through `TerminalText.safe`: names and notes may hold
    /// control characters from elsewhere, and must not drive the terminal.
    /// On a terminal, a line wider than it breaks between words (going on under its first
    /// word), so a narrow terminal never splits a word or a number; piped output stays whole.
    public func print(_ line: String) {
        let text = surface.hints(line)
        guard let width = Render.wrapColumns, TerminalText.width(text) > width else { return writeOut(TerminalText.safe(text)) }
        writeOut(TerminalText.safe(Render.wrapped(text.components(separatedBy: "\n"), width: width).joined(separator: "\n")))
    }
    /// An error or a notice on standard error, wrapped between words as `print` wraps, at the
    /// width of the terminal standard error is on (the terminal wrapped it mid-word).
    public func printError(_ line: String) {
        let prefix = repl?.takeErrorPrefix() ?? ""
        let text = prefix + surface.hints(line)
        guard let width = Render.errorColumns, TerminalText.width(text) > width else { return writeErr(TerminalText.safe(text)) }
        writeErr(TerminalText.safe(Render.wrapped(text.components(separatedBy: "\n"), width: width).joined(separator: "\n")))
    }

    /// A line typed and the caret under its fault: never wrapped, or the caret would point
    /// elsewhere.
    func printPointer(_ lines: String) {
        writeErr(TerminalText.safe(lines))
    }

    /// A rejected line: the message once, then the line with a caret under `span`.
    func printEntryError(_ message: String, at span: Span?, in line: String) {
        printError(Style.stderr.errorLine(message))
        if let span {
            printPointer(EntryError(message, at: span).pointing(into: line, message: false, columns: TerminalText.width(of:)))
        }
    }

    /// Opens the database on first use, so commands that do not need it never pay for it.
    public func db() throws -> GymLogDatabase {
        if let database = opened.database { return database }
        let folder = (paths.database as NSString).deletingLastPathComponent
        if paths.databaseFromOption, createsDatabase, !folder.isEmpty, !FileManager.default.fileExists(atPath: paths.database),
           !FileManager.default.fileExists(atPath: folder) {
            throw UserError("There is no folder \(folder) for the database --db \(paths.database), so none was made. Check the path for a typo; "
                + "to start a new database there, make the folder first (mkdir -p \(shellQuoted(folder))).")
        }
        do {
            let database = try GymLogDatabase(path: paths.database, environment: environment, settings: settings, create: createsDatabase)
            opened.database = database
            return database
        } catch let missing as DatabaseMissing {
            // A device logged in to an account has a history waiting on the server.
            let start = settings.server == nil ? "Start one by logging a set: run `gymlog`, then type `bench 100x5`."
                : "This device is logged in to \(settings.server!): `gymlog sync` makes it and brings the account's history in (so does opening `gymlog`)."
            throw UserError("There is no gymlog database at \(missing.path) yet (--db, else $GYMLOG_DB, else the default place). " + start)
        } catch {
            if let full = UserError.storage(error, database: paths.database) { throw full }
            throw UserError("Cannot open the database at \(paths.database): \(error). Check the path (--db or $GYMLOG_DB) and its permissions.")
        }
    }

    /// Reads the config and the credentials again (the REPL, after `config set`, `login`,
    /// `logout`, `key enable`), and closes the database opened with the old ones: the store
    /// reads a bare weight in the unit, closes a workout after the idle gap and keys derived
    /// ids with the settings it was opened with, so it opens again, on next use, with these.
    /// (Kept open, `config set unit lb` logged `bench 135x5` as 135 kg until the REPL ended.)
    mutating func reloadSettings() throws {
        settings = try ConfigFile.load(paths.config, credentials: paths.credentialsFile)
        opened.database = nil
    }

    /// The database if this command opened it; nil when it never needed it.
    var openedDatabase: GymLogDatabase? { opened.database }

    /// The database when its file exists, nil when it does not; never creates one.
    public func existingDB() throws -> GymLogDatabase? {
        if opened.database == nil, !FileManager.default.fileExists(atPath: paths.database) { return nil }
        return try db()
    }
}

/// The database a context opened on first use, shared by its copies so it is opened once.
private final class OpenedDatabase {
    var database: GymLogDatabase?
}

/// Where gymlog's output is read, so a hint names a command the way it is typed there.
public enum Surface: Sendable {
    /// A shell: `gymlog exercises add "Front Squat"`, `gymlog log "bench 100x5"`.
    case shell
    /// The REPL: `exercises add "Front Squat"`, `bench 100x5`.
    case repl

    /// `text` with its backquoted commands written for this surface. Messages are written
    /// once, for the shell; inside the REPL the `gymlog` in front goes, and a quoted set
    /// line after `gymlog log` is the line itself.
    public func hints(_ text: String) -> String {
        guard self == .repl, text.contains("`gymlog ") else { return text }
        var out = ""
        var rest = Substring(text)
        while let r = rest.range(of: "`gymlog ") {
            out += rest[..<r.lowerBound] + "`"
            rest = rest[r.upperBound...]
            // `gymlog log "bench 100x5"` -> `bench 100x5`
            if rest.hasPrefix("log \""), let close = rest.dropFirst(5).firstIndex(of: "\""),
               rest[rest.index(after: close)...].hasPrefix("`") {
                out += rest[rest.index(rest.startIndex, offsetBy: 5)..<close]
                rest = rest[rest.index(after: close)...]
            }
            // `gymlog log 'warmup row 40x10'` -> `log warmup row 40x10`: a line that the REPL
            // would read as a command keeps `log`, whose text is never shell-quoted there.
            else if rest.hasPrefix("log '"), let close = rest.range(of: "'`") {
                out += "log " + rest[rest.index(rest.startIndex, offsetBy: 5)..<close.lowerBound].replacingOccurrences(of: "'\\''", with: "'")
                rest = rest[close.upperBound...]
                out += "`"
            }
        }
        return out + rest
    }
}

/// The terminal's echo turned off while a secret is typed, and always turned back on: after
/// the line, and on Ctrl-C (which would otherwise leave the shell typing blind).
enum TerminalEcho {
    nonisolated(unsafe) private static var saved = termios()

    static func withoutEcho<T>(_ body: () -> T) -> T {
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return body() }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        let previous = signal(SIGINT) { _ in
            tcsetattr(STDIN_FILENO, TCSANOW, &TerminalEcho.saved)
            _ = write(STDERR_FILENO, "\n", 1)
            _exit(130)
        }
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            signal(SIGINT, previous)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return body()
    }
}

/// Writes `text` to standard output. A reader that went away (`gymlog sync | head -1`) ends
/// the command quietly, as a closed pipe ends any Unix filter: FileHandle's `write(_:)` has a
/// `try!` inside and crashed with SIGILL on EPIPE. What the command did so far stands (a sync
/// is safe to stop at any point); there is nobody left to tell the rest.
func writeStandardOutput(_ text: String) {
    do {
        try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    } catch {
        exit(0)
    }
}
