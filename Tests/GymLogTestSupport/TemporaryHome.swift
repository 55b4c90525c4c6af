import Foundation
import GymLogWire
import Synchronization

/// A fresh folder under the system's temporary directory, named `prefix-UUID`, removed when
/// the test process exits (`TemporaryFiles`).
public func temporaryDirectory(_ prefix: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    TemporaryFiles.removeAtExit(path)
    return path
}

/// A fresh path under the system's temporary directory, named `prefix-UUID.ext`, for a file a
/// test is about to write (nothing is created); removed, with SQLite's files beside it, when
/// the test process exits (`TemporaryFiles`).
public func temporaryFile(_ prefix: String, extension ext: String) -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString).\(ext)").path
    TemporaryFiles.removeAtExit(path, "\(path)-wal", "\(path)-shm", "\(path)-journal")
    return path
}

/// What `temporaryDirectory`, `temporaryFile` and `TemporaryHome` made: removed when the test
/// process exits, so a run leaves nothing behind. A test that names a folder in its failure
/// keeps it (`keep`); `GYMLOG_KEEP_TEST_FILES=1` keeps everything of a run.
public enum TemporaryFiles {
    private static let paths = Mutex<Set<String>>([])

    /// Registers the removal at exit, once per process.
    private static let removalRegistered: Bool = {
        atexit { TemporaryFiles.removeAll() }
        return true
    }()

    /// Removes `paths` (folders with what is in them) when the process exits.
    public static func removeAtExit(_ made: String...) {
        _ = removalRegistered
        paths.withLock { $0.formUnion(made) }
    }

    /// Leaves `path` (a folder a failure message names) on disk after the run.
    public static func keep(_ path: String) {
        paths.withLock { _ = $0.remove(path) }
    }

    private static func removeAll() {
        guard ProcessInfo.processInfo.environment["GYMLOG_KEEP_TEST_FILES"] != "1" else { return }
        for path in paths.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
}

/// An isolated HOME with its own database and config, and a way to run the built `gymlog` in it.
public struct TemporaryHome: Sendable {
    public let root: String
    /// The umask every `gymlog` run gets (set by a shell in front of it), so a test of file
    /// modes does not depend on the runner's; nil leaves the runner's umask.
    public var umask: mode_t?
    public var database: String { root + "/data/gymlog.sqlite" }
    public var config: String { root + "/config/gymlog/config.toml" }

    /// Whatever a run of the binary printed; `TemporaryHome.Run` keeps the tests' spelling.
    public typealias Run = ProcessResult

    public init(prefix: String = "gymlog-cli", umask: mode_t? = nil) throws {
        root = try temporaryDirectory(prefix)
        self.umask = umask
        try FileManager.default.createDirectory(atPath: root + "/config/gymlog", withIntermediateDirectories: true)
    }

    /// The environment `gymlog` runs with: everything it reads or writes stays under `root`.
    public var environment: [String: String] {
        [
            "HOME": root, "XDG_CONFIG_HOME": root + "/config", "XDG_DATA_HOME": root + "/xdg-data",
            "XDG_STATE_HOME": root + "/state", "GYMLOG_DB": database, "TZ": "UTC",
        ]
    }

    /// Runs `gymlog args` with `stdin` (then closed) and waits for it.
    public func gymlog(_ args: [String], stdin: String = "", env extra: [String: String] = [:],
                       currentDirectory: String? = nil, timeout: TimeInterval? = nil) throws -> Run {
        let (executable, arguments) = invocation(args)
        return try ProcessRunner.run(executable, arguments, stdin: Data(stdin.utf8), environment: environment.merging(extra) { $1 },
                                     currentDirectory: currentDirectory, timeout: timeout)
    }

    /// Starts `gymlog args` without waiting; the caller feeds, reads or kills it.
    public func launch(_ args: [String]) throws -> RunningProcess {
        let (executable, arguments) = invocation(args)
        return try RunningProcess(executable, arguments, environment: environment)
    }

    /// The built `gymlog` with `args`, behind a shell that sets `umask` when there is one:
    /// Process cannot set a child's umask, so the shell sets it, then becomes gymlog.
    private func invocation(_ args: [String]) -> (URL, [String]) {
        let gymlog = builtProducts.appendingPathComponent("gymlog")
        guard let umask else { return (gymlog, args) }
        return (URL(fileURLWithPath: "/bin/sh"), ["-c", "umask \(String(umask, radix: 8)) && exec \"$0\" \"$@\"", gymlog.path] + args)
    }

    /// Deletes the folder.
    public func remove() { try? FileManager.default.removeItem(atPath: root) }

    /// A copy of the whole home as `cp -a` makes it (a backup restored, a VM snapshot): the
    /// same database, device id, outbox and credentials, in a folder of its own.
    public func copied() throws -> TemporaryHome {
        let copy = try TemporaryHome(prefix: "gymlog-copy")
        try FileManager.default.removeItem(atPath: copy.root)
        let run = try ProcessRunner.run(URL(fileURLWithPath: "/bin/cp"), ["-a", root, copy.root])
        guard run.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cp -a failed: \(run.stderr)"]) }
        return copy
    }
}

extension TemporaryHome {
    /// Where `gymlog login` saves the server and token: under `$XDG_DATA_HOME`, apart from the config.
    public var credentials: String { root + "/xdg-data/gymlog/credentials.toml" }

    /// `gymlog login --server URL --token TOKEN`, as a lifter does it: the account's first
    /// home makes its key (end-to-end encryption is on for every new account), and each
    /// later one gives the recovery phrase the first saved.
    public func login(_ server: ServerInstance, token: String) throws -> ProcessResult {
        let account = server.url + " " + token
        let known = Self.phrases.withLock { $0[account] }
        let result = try gymlog(["login", "--server", server.url, "--token", token], stdin: known.map { $0 + "\n" } ?? "")
        if known == nil, let made = try accountKeyPhrase() { Self.phrases.withLock { $0[account] = made } }
        return result
    }

    /// The recovery phrase of each account a home logged in to, by server and token.
    private static let phrases = Mutex<[String: String]>([:])

    /// The recovery phrase `gymlog login` saved in the credentials file (the account's key),
    /// if any.
    public func accountKeyPhrase() throws -> String? { credential("key") }

    /// The sealing of the account this home is logged in to, when it is encrypted: what a
    /// test that reads the server directly opens values with.
    public func valueSeal() throws -> ValueSeal? {
        guard let phrase = credential("key"), let account = credential("account") else { return nil }
        return ValueSeal(key: try AccountKey(phrase: phrase), account: account)
    }

    /// A string value of the credentials file (`key = "..."`), if set.
    private func credential(_ name: String) -> String? {
        guard let text = try? String(contentsOfFile: credentials, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("\(name) = \"") }) else { return nil }
        return String(line.dropFirst("\(name) = \"".count).dropLast())
    }

    /// Writes a config with `sync.auto = false`: a command leaves its changes in the outbox
    /// until `gymlog sync`, for tests that look at or change the outbox between the two.
    public func turnOffAutoSync() throws {
        try "[sync]\nauto = false\n".write(toFile: config, atomically: true, encoding: .utf8)
    }
}
