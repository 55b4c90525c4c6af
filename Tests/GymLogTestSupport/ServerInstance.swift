import Foundation

/// A `gymlog-server serve` process on a free loopback port over the given `--db`; its log
/// (stderr) is kept to count requests and to explain a failure.
public final class ServerInstance: @unchecked Sendable {
    public let database: String
    public let process = Process()
    public let logPath: String
    public private(set) var url = ""
    /// Where `/metrics` is served when started with `--metrics-address` (its printed URL).
    public private(set) var metricsURL: String?

    /// Something the server or its admin command refused, with what it printed.
    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// A server on a fresh SQLite file in a temporary folder of its own.
    public convenience init(extraArguments: [String] = []) throws {
        let dir = try temporaryDirectory("gymlog-server")
        try self.init(database: "sqlite:\(dir)/server.sqlite", extraArguments: extraArguments)
    }

    public convenience init(database: String, extraArguments: [String] = []) throws {
        try self.init(database: database, arguments: ["serve", "--db", database, "--port", "0"] + extraArguments)
    }

    /// `gymlog-server` with exactly `arguments` (which must make it serve `database`), as a
    /// deployment file writes them.
    /// `environment`: variables added to the runner's (a unit's `Environment=`, an image's `ENV`).
    public init(database: String, arguments: [String], environment: [String: String] = [:]) throws {
        self.database = database
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        logPath = temporaryFile("gymlog-server", extension: "log")
        FileManager.default.createFile(atPath: logPath, contents: nil)
        process.executableURL = builtProducts.appendingPathComponent("gymlog-server")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        var buffer = ""
        while Date() < deadline {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            buffer += String(decoding: data, as: UTF8.self)
            let lines = buffer.split(separator: "\n")
            if let line = lines.first(where: { $0.hasPrefix("metrics on ") }) { metricsURL = String(line.dropFirst("metrics on ".count)) }
            if let line = lines.first(where: { $0.hasPrefix("listening on ") }) {
                url = String(line.dropFirst("listening on ".count))
                // With a metrics address, both listeners must be up; they start in either order.
                if metricsURL != nil || !(arguments.contains("--metrics-address") || environment["GYMLOG_SERVER_METRICS_ADDRESS"] != nil) { return }
            }
        }
        stop()
        throw Failure(description: "gymlog-server did not start: \(buffer) \(log())")
    }

    /// `gymlog-server user add NAME --db ...`; returns the token (its last line).
    public func addUser(_ name: String) throws -> String {
        let run = try ProcessRunner.runProduct("gymlog-server", ["user", "add", name, "--db", database])
        guard run.status == 0 else { throw Failure(description: "gymlog-server user add failed: \(run.stderr)") }
        return String(run.stdout.split(separator: "\n").last ?? "")
    }

    /// What the server logged so far.
    public func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Requests to a path the log shows, with any status.
    public func requests(to path: String) -> Int { log().components(separatedBy: "path=\(path)").count - 1 }

    /// Stops the server (SIGTERM) and waits for it.
    public func stop() {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: logPath)
    }
}
