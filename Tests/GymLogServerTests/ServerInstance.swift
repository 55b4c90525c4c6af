import Foundation
import GymLogCore

/// A `gymlog-server serve` process on a free loopback port over the given `--db`; its log
/// (stderr) is kept to count requests and to explain a failure.
final class ServerInstance: @unchecked Sendable {
    let database: String
    let process = Process()
    let logPath: String
    private(set) var url = ""

    /// A server on a fresh SQLite file in a temporary folder of its own.
    convenience init() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gymlog-server-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try self.init(database: "sqlite:\(dir)/server.sqlite")
    }

    init(database: String, extraArguments: [String] = []) throws {
        self.database = database
        logPath = FileManager.default.temporaryDirectory.appendingPathComponent("gymlog-server-\(UUID().uuidString).log").path
        FileManager.default.createFile(atPath: logPath, contents: nil)
        process.executableURL = builtProducts.appendingPathComponent("gymlog-server")
        process.arguments = ["serve", "--db", database, "--port", "0"] + extraArguments
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
            if let line = buffer.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }) {
                url = String(line.dropFirst("listening on ".count))
                return
            }
        }
        stop()
        throw UserError("gymlog-server did not start: \(buffer) \(log())")
    }

    /// `gymlog-server user add NAME --db ...`; returns the token (its last line).
    func addUser(_ name: String) throws -> String {
        let p = Process()
        p.executableURL = builtProducts.appendingPathComponent("gymlog-server")
        p.arguments = ["user", "add", name, "--db", database]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw UserError("gymlog-server user add failed: \(errors)") }
        return String(text.split(separator: "\n").last ?? "")
    }

    func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Requests to a path the log shows, with any status.
    func requests(to path: String) -> Int { log().components(separatedBy: "path=\(path)").count - 1 }

    func stop() {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: logPath)
    }
}
