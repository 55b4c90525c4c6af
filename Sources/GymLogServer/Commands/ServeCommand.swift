import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import GymLogServerCore
import GymLogServerSQLite

/// `gymlog-server serve`: run the HTTP server until SIGINT/SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the sync server.",
        discussion: """
        Logs go to standard error; one line per request carries its X-Request-ID, the \
        client's address (behind --trusted-proxy, the one X-Forwarded-For names) and the user. \
        SIGINT or SIGTERM stops the server after in-flight requests finish, waiting at most \
        --shutdown-grace seconds. Connections that stall (no whole request head within \
        --request-head-timeout, no body byte for --request-body-timeout) are closed and logged.

        On PostgreSQL (--db postgres://...), several instances may serve one database behind \
        a load balancer; each keeps a pool of at most --pool-size connections.

        Examples:
          gymlog-server serve
          gymlog-server serve --port 0     # any free port; the log says which
          gymlog-server serve --open-registration --max-body-bytes 4194304
          gymlog-server serve --db postgres://gymlog@127.0.0.1/gymlog --pool-size 20
          gymlog-server serve --host 0.0.0.0 --metrics-address 127.0.0.1:9090
          gymlog-server serve --host 0.0.0.0 --port 8443 \\
            --tls-cert fullchain.pem --tls-key privkey.pem

        GET /metrics answers in Prometheus' text format (requests by route and status, push \
        and pull latency, events by outcome, rejections by code, users, devices, database \
        size); with --metrics-address it is served there only.
        """
    )

    // Read before the command line is parsed (`ServerSettings`): its settings arrive as flags.
    @Option(help: ArgumentHelp(
        "A TOML file of settings: this command's flags by their long names (port = 8080, db = \"postgres://gymlog@db/gymlog\", open-registration = true).",
        discussion: "Also GYMLOG_SERVER_CONFIG. Each flag can be set by an environment variable too: GYMLOG_SERVER_ and its name in capitals (GYMLOG_SERVER_MAX_CONNECTIONS=100, GYMLOG_SERVER_OPEN_REGISTRATION=true); GYMLOG_SERVER_DB_PASSWORD is the PostgreSQL password when --db has none. The command line wins over the environment, which wins over the file. A list (--trusted-proxy) is one value with commas.",
        valueName: "file"))
    var config: String?
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
    @Option(help: "Seconds a connection may take to send a whole request head (from opening, or from its last answer) before it is closed.")
    var requestHeadTimeout: Double = 30
    @Option(help: "Seconds a request body may go without a byte arriving before its connection is closed.")
    var requestBodyTimeout: Double = 30
    @Option(help: "Slowest average a request body may arrive at, in bytes per second, from 10 seconds after its head on; slower ones are cut (0: no minimum).")
    var minBodyRate = 1024
    @Option(help: "Seconds /readyz waits for PostgreSQL before it answers 503 not_ready (a database that is down hangs the check; SQLite's check is not bounded).")
    var readinessTimeout: Double = 1
    @Option(help: "Connections open at once; more wait until one closes.") var maxConnections = 512
    @Option(help: "Connections one client address may hold open; one more closes that address's longest-idle connection, or, all busy, may only ask /healthz or /readyz (0: no cap; behind a reverse proxy every client has its address).")
    var maxConnectionsPerAddress = 64
    @Option(help: "On SIGTERM/SIGINT, seconds requests in flight may take to finish before the connections still open are closed.")
    var shutdownGrace: Double = 10
    @Option(help: "Accounts one client address may register per hour with --open-registration (0: no limit).")
    var registrationsPerHour = 10
    @Option(help: "Accounts all addresses together may register per hour with --open-registration (0: no limit).")
    var registrationsPerHourTotal = 100
    @Option(help: "Pushes of one user in progress at once; more are answered 429 with Retry-After.")
    var maxPushesPerUser = 4
    @Option(help: "Devices one account may push from; a push from one more is answered 403 too_many_devices.")
    var maxDevicesPerUser = 100
    @Option(name: .customLong("trusted-proxy"), help: ArgumentHelp(
        "A reverse proxy's IP address whose X-Forwarded-For names the client, in the log and for per-address registration limits (repeat for several).",
        discussion: "Without it the header is ignored: anyone can write it. Each request line names the client's address and, once its token is checked, the user.",
        valueName: "address"))
    var trustedProxies: [String] = []

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, not \(port).") }
        guard maxBodyBytes >= 1024 else { throw ValidationError("--max-body-bytes must be at least 1024, not \(maxBodyBytes).") }
        guard maxClockAheadSeconds >= 0 else { throw ValidationError("--max-clock-ahead-seconds must not be negative.") }
        guard integrityCheckSeconds >= 0 else { throw ValidationError("--integrity-check-seconds must not be negative (0 skips the check), not \(integrityCheckSeconds).") }
        guard (1...1000).contains(poolSize) else { throw ValidationError("--pool-size must be from 1 to 1000, not \(poolSize).") }
        for (flag, seconds) in [("--request-head-timeout", requestHeadTimeout), ("--request-body-timeout", requestBodyTimeout),
                                ("--shutdown-grace", shutdownGrace), ("--readiness-timeout", readinessTimeout)] {
            guard seconds > 0, seconds <= 86_400 else { throw ValidationError("\(flag) must be more than 0 and at most 86400 seconds, not \(seconds).") }
        }
        guard maxConnectionsPerAddress >= 0 else { throw ValidationError("--max-connections-per-address must not be negative (0 means no cap), not \(maxConnectionsPerAddress).") }
        guard minBodyRate >= 0 else { throw ValidationError("--min-body-rate must not be negative (0 means no minimum), not \(minBodyRate).") }
        guard (1...1_000_000).contains(maxConnections) else { throw ValidationError("--max-connections must be from 1 to 1000000, not \(maxConnections).") }
        guard registrationsPerHourTotal >= 0 else { throw ValidationError("--registrations-per-hour-total must not be negative (0 means no limit), not \(registrationsPerHourTotal).") }
        guard registrationsPerHour >= 0 else { throw ValidationError("--registrations-per-hour must not be negative (0 means no limit), not \(registrationsPerHour).") }
        guard maxDevicesPerUser >= 1 else { throw ValidationError("--max-devices-per-user must be at least 1, not \(maxDevicesPerUser).") }
        guard maxPushesPerUser >= 1 else { throw ValidationError("--max-pushes-per-user must be at least 1, not \(maxPushesPerUser).") }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together: give both (a certificate chain and its private key, PEM) or neither.")
        }
        if let metricsAddress, Self.hostAndPort(metricsAddress) == nil {
            throw ValidationError("--metrics-address \"\(metricsAddress)\" is not HOST:PORT with a port from 0 to 65535, e.g. 127.0.0.1:9090.")
        }
        for proxy in trustedProxies where ClientAddress.normalized(proxy) == nil {
            throw ValidationError("--trusted-proxy \"\(proxy)\" is not an IP address; give the address the proxy connects from, e.g. 127.0.0.1 or ::1.")
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
        config.requestHeadTimeout = .seconds(requestHeadTimeout)
        config.requestBodyTimeout = .seconds(requestBodyTimeout)
        config.minBodyBytesPerSecond = minBodyRate
        config.readinessTimeout = .seconds(readinessTimeout)
        config.maxConnections = maxConnections
        config.maxConnectionsPerAddress = maxConnectionsPerAddress
        config.shutdownGracePeriod = .seconds(shutdownGrace)
        config.registrationsPerHour = registrationsPerHour
        config.registrationsPerHourTotal = registrationsPerHourTotal
        config.maxConcurrentPushesPerUser = maxPushesPerUser
        config.maxDevicesPerUser = maxDevicesPerUser
        config.trustedProxies = Set(trustedProxies.compactMap(ClientAddress.normalized))
        config.onListening = { host, port in
            // A plain line on stdout too, so scripts and process tests can find the port.
            FileHandle.standardOutput.write(Data("listening on \(tlsCert == nil ? "http" : "https")://\(host):\(port)\n".utf8))
        }
        if let tlsCert, let tlsKey { config.tls = (tlsCert, tlsKey) }
        config.metricsAddress = metricsAddress.flatMap(Self.hostAndPort)
        config.onMetricsListening = { host, port in
            FileHandle.standardOutput.write(Data("metrics on http://\(host):\(port)/metrics\n".utf8))
        }
        if case .sqlite(let path) = try StorageLocation.parse(db.url) {
            try SQLiteBackup.refuseIfOpenElsewhere(path, "one SQLite database takes one server. Stop the other server first, or give this one another --db (several instances share one database only on PostgreSQL).")
        }
        let storage = try openSyncStorage(db.url, poolSize: poolSize)
        do {
            try await checkIntegrity(storage)
            let app = try await buildApplication(config, storage: storage)
            try await runUntilSignalled(app, grace: config.shutdownGracePeriod)
        } catch {
            await storage.shutdown()
            throw Self.explained(error, listening: "\(host):\(port)", metrics: metricsAddress)
        }
        // After the stop: requests in flight are done or cut, close the database connections.
        await storage.shutdown()
    }

    /// A taken port named with its address: NIO's own error (`bind(descriptor:ptr:bytes:):
    /// Address already in use (errno: 98)`) names neither the address nor what to do.
    static func explained(_ error: any Error, listening address: String, metrics: String?) -> any Error {
        guard "\(error)".contains("Address already in use") else { return error }
        let which = metrics.map { "\(address) (or the metrics address \($0))" } ?? address
        return ServerSetupError("cannot listen on \(which): the address is already in use, by another gymlog-server or another "
            + "program. Stop that one, or give this one another --port.")
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

/// Runs `app` until SIGTERM or SIGINT, then lets requests in flight finish for at most
/// `grace`; past it the connections still open are closed (their requests are cancelled,
/// logged as 503 `shutting_down`), so no client can hold the process up.
func runUntilSignalled(_ app: some ApplicationProtocol, grace: Duration) async throws {
    let logger = Logger(label: "gymlog-server")
    let notice = ShutdownNotice(grace: grace, logger: logger)
    var configuration = ServiceGroupConfiguration(services: [app, notice], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    configuration.maximumGracefulShutdownDuration = grace
    do {
        try await ServiceGroup(configuration: configuration).run()
    } catch is CancellationError where notice.graceRanOut {
        // The grace period ran out and the group cancelled the server: the stop asked for.
    }
    if notice.graceRanOut {
        logger.notice("shutdown grace period ran out; closed the connections still open", metadata: ["grace_s": "\(seconds(grace))"])
    }
}

/// Logs the start of a graceful shutdown and tells whether it outlasted the grace period.
/// Last in its group, so it is told to stop first, and returns at once.
final class ShutdownNotice: Service, @unchecked Sendable {
    // @unchecked: `started` is only touched with `lock` held; the rest is immutable.
    let grace: Duration
    let logger: Logger
    private let lock = NSLock()
    private var started: ContinuousClock.Instant?

    init(grace: Duration, logger: Logger) {
        self.grace = grace
        self.logger = logger
    }

    /// Whether the group ran out of grace: `started` is set when this service hears of the
    /// shutdown, a scheduling delay after the group started its own timer, so on a busy
    /// machine the group cancels a little before `grace` has passed by this clock. A second of
    /// slack tells that cut from a shutdown that finished in time (the log line was missing
    /// in a loaded test run without it).
    var graceRanOut: Bool {
        lock.withLock { started.map { ContinuousClock.now - $0 >= grace - Self.schedulingSlack } ?? false }
    }

    static let schedulingSlack: Duration = .seconds(1)

    func run() async throws {
        // Cancelled rather than asked to stop: another service of the group failed (a port
        // that is taken), so there is no shutdown to announce, only that error.
        do { try await gracefulShutdown() } catch { return }
        lock.withLock { started = .now }
        logger.notice("shutting down: finishing requests in flight", metadata: ["grace_s": "\(seconds(grace))"])
    }
}
