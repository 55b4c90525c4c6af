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
          gymlog-server serve --host 0.0.0.0 --metrics-address 127.0.0.1:9090
          gymlog-server serve --host 0.0.0.0 --port 8443 --tls-cert fullchain.pem --tls-key privkey.pem

        GET /metrics answers in Prometheus' text format (requests by route and status, push
        and pull latency, events by outcome, rejections by code, users, devices, database
        size); with --metrics-address it is served there only.
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
    @Option(help: ArgumentHelp("Serve GET /metrics on this HOST:PORT only, not on the main address (e.g. 127.0.0.1:9090).",
                               valueName: "host:port"))
    var metricsAddress: String?
    @Option(help: ArgumentHelp("Serve HTTPS with this PEM certificate chain (needs --tls-key).", valueName: "pem-file"))
    var tlsCert: String?
    @Option(help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "pem-file"))
    var tlsKey: String?
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
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together: give both (a certificate chain and its private key, PEM) or neither.")
        }
        if let metricsAddress, Self.hostAndPort(metricsAddress) == nil {
            throw ValidationError("--metrics-address \"\(metricsAddress)\" is not HOST:PORT with a port from 0 to 65535, e.g. 127.0.0.1:9090.")
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level \"\(logLevel)\" is not one of trace, debug, info, notice, warning, error, critical.") }
    }

    /// `127.0.0.1:9090`, `[::1]:9090`: the host (brackets dropped) and the port.
    static func hostAndPort(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
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
            FileHandle.standardOutput.write(Data("listening on \(tlsCert == nil ? "http" : "https")://\(host):\(port)\n".utf8))
        }
        if let tlsCert, let tlsKey { config.tls = (tlsCert, tlsKey) }
        config.metricsAddress = metricsAddress.flatMap(Self.hostAndPort)
        config.onMetricsListening = { host, port in
            FileHandle.standardOutput.write(Data("metrics on http://\(host):\(port)/metrics\n".utf8))
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
