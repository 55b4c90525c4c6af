import Foundation

/// A `gymlog-server serve` process for the load benchmark, on a free loopback port.
final class LoadServer {
    let process = Process()
    let port: Int
    let logPath: String

    init(binary: String, database: String, poolSize: Int, maxPushesPerUser: Int, logPath: String) throws {
        self.logPath = logPath
        FileManager.default.createFile(atPath: logPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: binary)
        // warning: no line per request, so logging costs both stores the same (nothing).
        // --max-pushes-per-user: every device of a user may push at once (the scenario measures
        // the stores; with the default of 4, a user's fifth device was answered 429 and its
        // events were left out of the figures).
        process.arguments = ["serve", "--db", database, "--port", "0", "--log-level", "warning", "--pool-size", "\(poolSize)",
                             "--max-pushes-per-user", "\(maxPushesPerUser)"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        try process.run()
        var buffer = ""
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            buffer += String(decoding: data, as: UTF8.self)
            if let line = buffer.split(separator: "\n").first(where: { $0.hasPrefix("listening on http://") }),
               let port = Int(line.split(separator: ":").last ?? "") {
                self.port = port
                return
            }
        }
        process.terminate()
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        throw BenchError("gymlog-server did not start on \(database): \(buffer)\(log)")
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// `gymlog-server user add NAME --db DATABASE`; the token is the last line.
func loadAddUser(binary: String, database: String, name: String) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: binary)
    p.arguments = ["user", "add", name, "--db", database]
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    guard p.terminationStatus == 0, let token = text.split(separator: "\n").last else {
        throw BenchError("gymlog-server user add \(name) failed: \(errors)")
    }
    return String(token)
}

/// The PostgreSQL the benchmark uses: a server given by URL, or a throwaway cluster it
/// starts itself (initdb as the `postgres` user when run as root, a free loopback port,
/// PostgreSQL's default durability: fsync on, synchronous_commit on).
final class LoadPostgres {
    /// `postgres://USER@HOST:PORT/` without a database name.
    let base: String
    let description: String
    private let psql: String
    private let asPostgres: [String]
    private let cluster: (bin: String, dir: String)?

    /// Uses the server at `adminURL` (which must allow CREATE DATABASE).
    init(adminURL: String) throws {
        guard let slash = adminURL.range(of: "/", options: .backwards), adminURL[..<slash.lowerBound].contains("@") else {
            throw BenchError("--postgres \(adminURL) is not postgres://USER[:PASSWORD]@HOST:PORT/DATABASE")
        }
        base = String(adminURL[..<slash.upperBound])
        psql = findOnPath("psql") ?? "psql"
        asPostgres = []
        cluster = nil
        description = "PostgreSQL at \(base)…"
    }

    /// Starts a throwaway cluster from the binaries in `bin` (default: Debian's newest).
    init(bin: String?) throws {
        let candidates = bin.map { [$0] } ?? (["/usr/lib/postgresql/15/bin"]
            + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin" })
        guard let bin = candidates.first(where: { access($0 + "/initdb", X_OK) == 0 }) else {
            throw BenchError("PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin): apt-get install -y postgresql, or pass --postgres URL")
        }
        let dir = NSTemporaryDirectory() + "gymlog-bench-pg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        asPostgres = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []
        if getuid() == 0 { try Self.run(["/bin/chown", "postgres:", dir]) }
        try Self.run(asPostgres + [bin + "/initdb", "-D", dir + "/data", "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C"])
        var started: Int?
        for _ in 0..<10 {
            let port = Int.random(in: 20_000..<60_000)
            let ok = (try? Self.run(asPostgres + [bin + "/pg_ctl", "-D", dir + "/data", "-l", dir + "/server.log", "-w", "-t", "60",
                                                  "-o", "-p \(port) -k \(dir) -c listen_addresses=127.0.0.1", "start"])) != nil
            if ok { started = port; break }
        }
        guard let port = started else { throw BenchError("could not start a PostgreSQL cluster in \(dir)") }
        base = "postgres://postgres@127.0.0.1:\(port)/"
        psql = bin + "/psql"
        cluster = (bin, dir)
        let version = (try? Self.output([bin + "/postgres", "--version"])) ?? "PostgreSQL"
        description = "\(version.trimmingCharacters(in: .whitespacesAndNewlines)), a throwaway cluster with default settings (fsync on)"
    }

    /// Creates an empty database and returns its URL.
    func createDatabase(_ name: String) throws -> String {
        try Self.run(asPostgres + [psql, base + "postgres", "-qAt", "-c", "CREATE DATABASE \(name)"])
        return base + name
    }

    func stop() {
        guard let cluster else { return }
        _ = try? Self.run(asPostgres + [cluster.bin + "/pg_ctl", "-D", cluster.dir + "/data", "stop", "-m", "fast"])
        try? FileManager.default.removeItem(atPath: cluster.dir)
    }

    /// Runs a command to completion with posix_spawn + wait4: Foundation's Process would
    /// wait for descriptors that the server `pg_ctl start` leaves running still holds.
    @discardableResult
    static func run(_ argv: [String]) throws -> Int32 {
        let errPath = NSTemporaryDirectory() + "gymlog-bench-cmd-\(UUID().uuidString.prefix(8)).err"
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        do {
            return try spawnAndWait(argv, environment: environment, stderrPath: errPath).exitStatus
        } catch let failure as ChildFailure {
            throw BenchError(failure.description)
        }
    }

    static func output(_ argv: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return text
    }
}
