import Foundation

/// A fresh folder under the system's temporary directory, named `prefix-UUID`.
public func temporaryDirectory(_ prefix: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A fresh path under the system's temporary directory, named `prefix-UUID.ext`, for a file a
/// test is about to write (nothing is created).
public func temporaryFile(_ prefix: String, extension ext: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString).\(ext)").path
}

/// An isolated HOME with its own database and config, and a way to run the built `gymlog` in it.
public struct TemporaryHome: Sendable {
    public let root: String
    public var database: String { root + "/data/gymlog.sqlite" }
    public var config: String { root + "/config/gymlog/config.toml" }

    /// Whatever a run of the binary printed; `TemporaryHome.Run` keeps the tests' spelling.
    public typealias Run = ProcessResult

    public init(prefix: String = "gymlog-cli") throws {
        root = try temporaryDirectory(prefix)
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
        try ProcessRunner.runProduct("gymlog", args, stdin: stdin, environment: environment.merging(extra) { $1 },
                                     currentDirectory: currentDirectory, timeout: timeout)
    }

    /// Starts `gymlog args` without waiting; the caller feeds, reads or kills it.
    public func launch(_ args: [String]) throws -> RunningProcess {
        try RunningProcess(builtProducts.appendingPathComponent("gymlog"), args, environment: environment)
    }

    /// Deletes the folder.
    public func remove() { try? FileManager.default.removeItem(atPath: root) }
}

extension TemporaryHome {
    /// Where `gymlog login` saves the server and token: under `$XDG_DATA_HOME`, apart from the config.
    public var credentials: String { root + "/xdg-data/gymlog/credentials.toml" }

    /// Writes a config with `sync.auto = false`: a command leaves its changes in the outbox
    /// until `gymlog sync`, for tests that look at or change the outbox between the two.
    public func turnOffAutoSync() throws {
        try "[sync]\nauto = false\n".write(toFile: config, atomically: true, encoding: .utf8)
    }
}
