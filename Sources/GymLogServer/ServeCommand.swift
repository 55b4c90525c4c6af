import ArgumentParser
import Foundation
import Hummingbird
import Logging

/// `gymlog-server serve`: run the HTTP server until SIGINT/SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the sync server.",
        discussion: """
        Logs go to standard error; one line per request carries its X-Request-ID.
        SIGINT or SIGTERM stops the server after in-flight requests finish.

        On PostgreSQL (--db postgres://...), several instances may serve one database behind
        a load balancer; each keeps a pool of at most --pool-size connections.

        Examples:
          gymlog-server serve
          gymlog-server serve --port 0          # any free port; the log line says which
          gymlog-server serve --open-registration --max-body-bytes 4194304
          gymlog-server serve --db postgres://gymlog@127.0.0.1:5432/gymlog --pool-size 20
        """
    )

    @OptionGroup var db: DatabaseOption
    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0 = any free port).") var port = 8080
    @Flag(help: "Let anyone create an account with POST /v1/register.") var openRegistration = false
    @Option(help: "Largest request body accepted, in bytes.") var maxBodyBytes = 8 * 1024 * 1024
    @Option(help: "How far ahead of the server's clock a device clock may be, in seconds.") var maxClockAheadSeconds = 15 * 60
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = "info"
    @Option(help: "Most PostgreSQL connections this instance opens (ignored for SQLite).") var poolSize = 10
    @Option(help: ArgumentHelp(
        "Longest the corruption check at start may take, in seconds (0 skips it).",
        discussion: "SQLite only: PRAGMA quick_check reads the whole file, a few milliseconds per megabyte. A corrupt database is refused with the way out (restore the last backup); a check that runs out of time is logged and the server starts."))
    var integrityCheckSeconds = 60

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, not \(port).") }
        guard maxBodyBytes >= 1024 else { throw ValidationError("--max-body-bytes must be at least 1024, not \(maxBodyBytes).") }
        guard maxClockAheadSeconds >= 0 else { throw ValidationError("--max-clock-ahead-seconds must not be negative.") }
        guard integrityCheckSeconds >= 0 else { throw ValidationError("--integrity-check-seconds must not be negative (0 skips the check), not \(integrityCheckSeconds).") }
        guard (1...1000).contains(poolSize) else { throw ValidationError("--pool-size must be from 1 to 1000, not \(poolSize).") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level \"\(logLevel)\" is not one of trace, debug, info, notice, warning, error, critical.") }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var config = ServerConfig(database: db.url)
        config.host = host
        config.port = port
        config.openRegistration = openRegistration
        config.maxBodyBytes = maxBodyBytes
        config.maxClockAheadSeconds = maxClockAheadSeconds
        config.logLevel = level
        config.onListening = { host, port in
            // A plain line on stdout too, so scripts and process tests can find the port.
            FileHandle.standardOutput.write(Data("listening on http://\(host):\(port)\n".utf8))
        }
        let storage = try openSyncStorage(db.url, poolSize: poolSize)
        do {
            try await checkIntegrity(storage)
            let app = try await buildApplication(config, storage: storage)
            try await app.runService()
        } catch {
            await storage.shutdown()
            throw error
        }
        // After a graceful stop: in-flight requests are done, close the database connections.
        await storage.shutdown()
    }

    // Refuses to serve from a corrupt database (the error names the file and the way out);
    // a check cut short by --integrity-check-seconds is logged, and the server starts.
    private func checkIntegrity(_ storage: any SyncStorage) async throws {
        let logger = Logger(label: "gymlog-server")
        guard integrityCheckSeconds > 0 else {
            logger.notice("corruption check at start skipped (--integrity-check-seconds 0)")
            return
        }
        if try await !storage.checkIntegrity(timeLimit: .seconds(integrityCheckSeconds)) {
            logger.warning("corruption check at start stopped after --integrity-check-seconds; the database was not fully checked", metadata: [
                "seconds": "\(integrityCheckSeconds)",
            ])
        }
    }
}
