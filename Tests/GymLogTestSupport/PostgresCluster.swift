import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL cluster of one test's own (initdb in a temporary folder, on a free loopback
/// port), which the test may stop and start again: what an outage of the database looks like
/// to the server. Run as the `postgres` user when the tests run as root (initdb refuses root),
/// as `scripts/test` does. Removed when released.
public final class PostgresCluster: @unchecked Sendable {
    /// Where initdb and pg_ctl are: `GYMLOG_PG_BIN`, else Debian's layout, 15 first.
    public static let binaries: String? = {
        if let dir = ProcessInfo.processInfo.environment["GYMLOG_PG_BIN"], !dir.isEmpty { return dir }
        let candidates = ["/usr/lib/postgresql/15/bin"] + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl") }
    }()

    /// Whether a cluster can be made here; under CI=true it must be.
    public static var isAvailable: Bool { binaries != nil }

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    public let folder: String
    public let port: Int
    private let bin: String
    private let asPostgres: [String]
    private var running: RunningProcess?
    /// The database the server under test uses: `postgres://postgres@127.0.0.1:PORT/gymlog`.
    public var url: String { "postgres://postgres@127.0.0.1:\(port)/gymlog" }

    public init() throws {
        guard let bin = Self.binaries else { throw Failure(description: "PostgreSQL is not installed (no pg_ctl under /usr/lib/postgresql/*/bin; set GYMLOG_PG_BIN)") }
        self.bin = bin
        folder = try temporaryDirectory("gymlog-pg-cluster")
        asPostgres = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []
        if getuid() == 0 {
            chmod(folder, 0o755)
            let owner = try Self.run(["/bin/chown", "postgres:", folder])
            guard owner.status == 0 else { throw Failure(description: "chown postgres \(folder): \(owner.stderr)") }
        }
        let (fd, free) = try loopbackListener()
        close(fd)
        port = Int(free)
        let initdb = try Self.run(asPostgres + [bin + "/initdb", "-D", folder + "/data", "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "-N"])
        guard initdb.status == 0 else { throw Failure(description: "initdb failed: \(initdb.stdout) \(initdb.stderr)") }
        try start()
        let created = try Self.run(asPostgres + [bin + "/psql", "-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", "postgres", "-qAt",
                                                 "-c", "CREATE DATABASE gymlog"])
        guard created.status == 0 else { throw Failure(description: "CREATE DATABASE failed: \(created.stderr)") }
    }

    /// Starts the cluster (again) and waits until it takes connections. The server runs as a
    /// child of this process, not through `pg_ctl start`: a daemon that outlives its starter
    /// keeps what it inherited open, and Foundation's Process then never sees its starter end.
    public func start() throws {
        let server = try RunningProcess(URL(fileURLWithPath: asPostgres.first ?? bin + "/postgres"),
                                        Array(asPostgres.dropFirst()) + (asPostgres.isEmpty ? [] : [bin + "/postgres"]) + [
            "-D", folder + "/data", "-p", "\(port)", "-k", folder, "-c", "listen_addresses=127.0.0.1",
            "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"])
        running = server
        for _ in 0..<240 {
            let ready = try Self.run([bin + "/pg_isready", "-h", "127.0.0.1", "-p", "\(port)", "-t", "1"])
            if ready.status == 0 { return }
            guard server.isRunning(after: 0.25) else { break }
        }
        let ended = server.wait(timeout: 5)
        throw Failure(description: "PostgreSQL did not start: \(ended.stderr.suffix(2000))")
    }

    /// Stops the cluster (fast: open connections are closed), as an operator's restart or a crash would.
    public func stop() throws {
        let stopped = try Self.run(asPostgres + [bin + "/pg_ctl", "-D", folder + "/data", "-w", "-m", "fast", "stop"])
        guard stopped.status == 0 else { throw Failure(description: "pg_ctl stop failed: \(stopped.stderr)") }
        _ = running?.wait(timeout: 30)
        running = nil
    }

    deinit {
        if running != nil { _ = try? Self.run(asPostgres + [bin + "/pg_ctl", "-D", folder + "/data", "-m", "immediate", "stop"]) }
        _ = running?.wait(timeout: 30)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs `command` with its output in a file, not a pipe: `pg_ctl start` leaves the server
    /// running, which holds what it inherited open, so a pipe would never reach its end.
    private static func run(_ command: [String]) throws -> ProcessResult {
        let output = temporaryFile("gymlog-pg-command", extension: "log")
        FileManager.default.createFile(atPath: output, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return ProcessResult(status: process.terminationStatus, stdout: text, stderr: text)
    }
}
