import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GymLogCore
import GymLogServerCore
import GymLogWire
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import ServiceLifecycle

/// `SyncStorage` on PostgreSQL through a PostgresNIO connection pool: several stateless
/// server instances can share one database with the same guarantees as the SQLite store.
///
/// Concurrency: a push is optimistic (`PostgresSyncTransaction`): one lock-free read, the
/// decision in `SyncRules`, one write that compare-and-swaps the user's `push_version` and
/// stores the decision only when no other push of the user committed in between; a push that
/// lost starts over. Pushes of one user on one instance queue on an in-process lock before
/// they lease a connection, so waiting never holds one. The counter is assigned from the
/// state the write checked, and committed in the same statement, so a pull (one statement,
/// one snapshot) never sees counter value n+1 without n. Idempotency keys are a primary key
/// per user in the schema.
public final class PostgresSyncStorage: SyncRulesStorage, Service {
    public let backend = "postgres"
    /// The parsed `--db` URL.
    public let location: PostgresURL
    private let client: PostgresClient
    private let logger: Logger
    private let connectionConfig: PostgresConnection.Configuration
    private let lifecycle = PostgresLifecycle()
    private let statistics = PlannerStatistics()
    // This instance's pushes of one user, one at a time, before any connection is leased.
    let userLocks = KeyedAsyncLock<Int64>()
    /// Statements sent by pushes (BEGIN and COMMIT of the fallback included): tests check a
    /// push's round trips with it.
    let pushStatements = StatementCounter()
    /// Pushes whose compare-and-swap lost to another push of the user (another instance's).
    let pushConflicts = StatementCounter()
    /// The pool's size: at most this many accesses hold a connection at once.
    let poolSize: Int
    /// How long a request's access waits for a pooled connection before it is answered 503
    /// (`requireConnection`): a client learns within seconds that the database is down.
    let connectionWait: Duration
    // Accesses past `requireConnection`, to tell a busy pool from a database that is down.
    private let accessesInFlight = NIOLockedValueBox(0)
    // A push that failed for want of space (SQLSTATE 53100): 503 and readiness red for a while.
    private let diskFull: DiskFullWatch
    /// How long readiness stays red after a push found the database server's disk full: this
    /// instance cannot look at that disk, so it lets traffic in again to find out.
    static let diskFullPause: Duration = .seconds(30)

    /// Parses the URL and sets up the pool; nothing connects yet. Errors about the URL are
    /// thrown here; errors about reaching or migrating the database by the first call.
    ///
    /// The pool runs as a ServiceLifecycle service of the application (`applicationServices`,
    /// added by `buildApplication`); used on its own (the `user` commands, tests), the first
    /// call starts it and `shutdown()` stops it.
    public init(url: String, poolSize: Int = 10, connectionWait: Duration = .seconds(2),
                environment: [String: String] = ProcessInfo.processInfo.environment,
                logger: Logger = Logger(label: "gymlog-server.postgres")) throws {
        let location = try PostgresURL(parsing: url, environment: environment)
        guard poolSize >= 1 else { throw ServerSetupError("the PostgreSQL pool size must be at least 1, not \(poolSize).") }
        connectionConfig = try location.connectionConfiguration()
        self.location = location
        self.logger = logger
        self.poolSize = poolSize
        self.connectionWait = connectionWait
        diskFull = DiskFullWatch(database: location.redacted, logger: logger)
        client = PostgresClient(configuration: location.clientConfiguration(poolSize: poolSize), backgroundLogger: logger)
    }

    deinit { lifecycle.cancelStandalone() }

    /// Hands the pool to the application's ServiceGroup: from now on only `run()` starts it.
    public func applicationServices() -> [any Service] {
        lifecycle.expectService()
        return [self]
    }

    /// Runs the pool until graceful shutdown (or cancellation), after connecting and
    /// migrating once; every call waits for that first, so its error (unreachable database,
    /// failed migration) is the first thing a caller sees.
    public func run() async throws {
        guard lifecycle.claim(.service) else {
            // Started on its own before the application ran: its owner's `shutdown()` stops it.
            try? await gracefulShutdown()
            return
        }
        await Self.runPool(client, connectionConfig, location: location, logger: logger, ready: lifecycle.ready)
    }

    // Static, so a pool started on its own does not keep the storage alive (deinit stops it).
    private static func runPool(_ client: PostgresClient, _ config: PostgresConnection.Configuration, location: PostgresURL,
                                logger: Logger, ready: ReadyGate) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            do {
                try await connectAndMigrate(config, location: location, logger: logger)
                ready.resolve(.success(()))
            } catch {
                ready.resolve(.failure(error))
            }
            await group.waitForAll()
        }
    }

    private static func connectAndMigrate(_ config: PostgresConnection.Configuration, location: PostgresURL, logger: Logger) async throws {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: config, id: 0, logger: logger)
        } catch {
            throw ServerSetupError(describeConnectFailure(error, location: location))
        }
        do {
            try await PostgresSchema.migrate(connection, location: location, logger: logger)
            // Statistics from the start: a fresh or restored database has none (PlannerStatistics).
            try await connection.query("ANALYZE \(unescaped: PlannerStatistics.tables)", logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }

    /// Waits until the database is reachable and migrated (starting the pool when used on its own).
    public func prepare() async throws {
        try lifecycle.checkNotStopped()
        if lifecycle.claim(.standalone) {
            let (client, config, location, logger, ready) = (self.client, connectionConfig, self.location, self.logger, lifecycle.ready)
            lifecycle.startStandalone(Task { await Self.runPool(client, config, location: location, logger: logger, ready: ready) })
        }
        try await lifecycle.ready.wait()
    }

    /// Closes the pool's connections when it runs on its own (an application's ServiceGroup
    /// closes it at graceful shutdown); the storage is unusable afterwards.
    public func shutdown() async {
        await lifecycle.stopStandalone()
    }

    // MARK: SyncStorage

    public func epoch() async throws -> String {
        try await reachable {
            try await self.prepare()
            for try await epoch in try await self.client.query("SELECT epoch FROM meta", logger: self.logger).decode(String.self) { return epoch }
            throw ServerSetupError("the database \(self.location.redacted) has no epoch row in its meta table; it was not made by gymlog-server.")
        }
    }

    /// Runs a request's access once a pooled connection was had within `connectionWait`;
    /// when the database cannot be reached (down, restarting, the connection lost, no
    /// connection in time) the caller gets `StorageError.databaseUnavailable` (503 with
    /// Retry-After), not an internal error; the problem is logged with the database's
    /// redacted URL.
    func reachable<T>(_ access: () async throws -> T) async throws -> T {
        do {
            try await requireConnection()
            accessesInFlight.withLockedValue { $0 += 1 }
            defer { accessesInFlight.withLockedValue { $0 -= 1 } }
            return try await access()
        } catch let error as PSQLError where Self.isUnreachable(error) {
            logger.error("the PostgreSQL database cannot be reached", metadata: ["database": "\(location.redacted)", "error": "\(describePostgresError(error))"])
            throw StorageError.databaseUnavailable("it cannot be reached")
        } catch where Self.isPoolGivingUp(error) {
            // The pool gave up connecting for now (its circuit breaker). (A first connection
            // or migration that failed is `prepare`'s ServerSetupError, worded for the operator.)
            logger.error("the PostgreSQL database cannot be reached", metadata: ["database": "\(location.redacted)", "error": "\(error)"])
            throw StorageError.databaseUnavailable("it cannot be reached")
        }
    }

    /// Returns once the pool hands out a connection, waiting at most `connectionWait`. With
    /// PostgreSQL down the pool queues a request while it retries connecting, and gives up
    /// only after its circuit breaker trips (30 to 60 s): longer than a client waits, so the
    /// client would blame the network. The connection is released at once; the access that
    /// follows leases one again (in-process, no round trip).
    private func requireConnection() async throws {
        try await prepare()
        let client = self.client
        if try await withinTimeLimit(connectionWait, { try await client.withConnection { _ in } }) { return }
        // Every connection busy with other requests is load, not an outage.
        let busy = accessesInFlight.withLockedValue({ $0 }) >= poolSize
        // Nor is a database that takes its time to let a new connection in (a loaded machine:
        // the test suites start many pools at once): only one that refuses connections is down.
        if !busy, !Self.refusesConnections(host: location.host, port: location.port),
           try await withinTimeLimit(Self.slowConnectionWait, { try await client.withConnection { _ in } }) {
            return
        }
        if busy {
            logger.warning("no PostgreSQL connection free in time: every one of the pool is busy", metadata: [
                "pool_size": "\(poolSize)", "wait_s": "\(seconds(connectionWait))",
            ])
            throw StorageError.notReady("the server is busy; try again shortly.")
        }
        logger.error("the PostgreSQL database cannot be reached: no connection in time", metadata: [
            "database": "\(location.redacted)", "wait_s": "\(seconds(connectionWait))",
        ])
        throw StorageError.databaseUnavailable("no connection to it within \(seconds(connectionWait)) s")
    }

    /// How much longer an access waits for a connection when the database answers but is slow to.
    static let slowConnectionWait: Duration = .seconds(20)

    /// Whether nothing listens at `host`:`port` (connection refused, no such host or route),
    /// tried once for at most a second; false when something answers or it cannot tell (a
    /// Unix socket path, no answer in time). What tells a database that is down from a slow one.
    static func refusesConnections(host: String, port: Int) -> Bool {
        guard !host.hasPrefix("/") else { return false }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { return true }
        defer { freeaddrinfo(found) }
        var refused = true
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let e = entry {
            let fd = socket(e.pointee.ai_family, e.pointee.ai_socktype, e.pointee.ai_protocol)
            if fd >= 0 {
                defer { close(fd) }
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                if connect(fd, e.pointee.ai_addr, e.pointee.ai_addrlen) == 0 { return false }
                if errno == EINPROGRESS {
                    var poll = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    guard Glibc.poll(&poll, 1, 1000) > 0 else { return false }
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 { return false }
                    refused = refused && (error == ECONNREFUSED || error == EHOSTUNREACH || error == ENETUNREACH)
                } else {
                    refused = refused && (errno == ECONNREFUSED || errno == EHOSTUNREACH || errno == ENETUNREACH)
                }
            }
            entry = e.pointee.ai_next
        }
        return refused
    }

    /// A read of the meta table inside a transaction that is rolled back: the pool connects,
    /// the schema is there, and a plain BEGIN (as a push uses) may write: a hot standby or
    /// `default_transaction_read_only` makes it read-only.
    public func usage() async throws -> StorageUsage {
        // Bounded like a request's access: a scrape with the database down is answered (and
        // counts a scrape error) instead of waiting out the pool.
        try await reachable { try await self.usageReached() }
    }

    private func usageReached() async throws -> StorageUsage {
        try await prepare()
        let rows = try await client.query("""
            SELECT (SELECT COUNT(*) FROM users WHERE revoked_at IS NULL), (SELECT COUNT(*) FROM devices),
                   pg_database_size(current_database())
            """, logger: logger)
        for try await (users, devices, bytes) in rows.decode((Int64, Int64, Int64).self) {
            return StorageUsage(activeUsers: Int(users), devices: Int(devices), databaseBytes: bytes)
        }
        throw StorageError.notReady("the PostgreSQL database \(location.redacted) answered no row for its usage.")
    }

    /// A database down or unreachable makes the check hang on its connection attempts: a
    /// load balancer's probe gets its answer within a second.
    public var readinessIsBounded: Bool { true }

    public func checkReadiness() async throws {
        if let fullFor = diskFull.fullFor {
            guard fullFor >= Self.diskFullPause else { throw StorageError.diskFull }
            diskFull.noteSpace()
        }
        try await reachable { try await self.checkWritable() }
    }

    private func checkWritable() async throws {
        try await prepare()
        let logger = self.logger
        let location = self.location
        try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                var found = false
                for try await _ in try await connection.query("SELECT epoch FROM meta", logger: logger).decode(String.self) { found = true }
                // A hot standby refuses writes; it must not take the load balancer's traffic.
                for try await readOnly in try await connection.query("SHOW transaction_read_only", logger: logger).decode(String.self)
                where readOnly == "on" {
                    throw StorageError.notReady("the PostgreSQL database \(location.redacted) is read-only (a standby?); point --db at the primary.")
                }
                _ = try? await connection.query("ROLLBACK", logger: logger)
                guard found else {
                    throw StorageError.notReady("the PostgreSQL database \(location.redacted) has no epoch row in its meta table; it was not made by gymlog-server.")
                }
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    public func listUsers() async throws -> [UserRecord] {
        try await prepare()
        var users: [UserRecord] = []
        // The same byte count as the SQLite store: entity, id and the record's text in UTF-8.
        let rows = try await client.query("""
            SELECT u.id, u.name, u.created_at, u.revoked_at, COALESCE(d.devices, 0), d.last_push, COALESCE(f.rows, 0), COALESCE(f.bytes, 0)
            FROM users u
            LEFT JOIN (SELECT user_id, count(*) AS devices, max(last_seen_at) AS last_push FROM devices GROUP BY user_id) d ON d.user_id = u.id
            LEFT JOIN (SELECT user_id, count(*) AS rows,
                              sum(octet_length(entity) + octet_length(entity_id) + octet_length(fields))::bigint AS bytes
                       FROM records GROUP BY user_id) f ON f.user_id = u.id
            ORDER BY u.id
            """, logger: logger)
        for try await (id, name, created, revoked, devices, lastPush, records, bytes) in rows.decode(
            (Int64, String, Int64, Int64?, Int64, Int64?, Int64, Int64).self) {
            users.append(UserRecord(id: id, name: name, createdAt: created, revokedAt: revoked,
                                    usage: UserUsage(devices: Int(devices), lastPushAt: lastPush, records: records, storedBytes: bytes)))
        }
        return users
    }

    public func userForTokenHash(_ hash: String) async throws -> AuthenticatedUser? {
        try await reachable {
            try await self.prepare()
            let rows = try await self.client.query("SELECT id, name, history_generation, key_verifier FROM users WHERE token_hash = \(hash) AND revoked_at IS NULL", logger: self.logger)
            for try await (id, name, generation, verifier) in rows.decode((Int64, String, Int64, String?).self) {
                return AuthenticatedUser(id: id, name: name, tokenHash: hash, historyGeneration: generation, keyVerifier: verifier)
            }
            return nil
        }
    }

    public func withdrawal(ofTokenHash hash: String) async throws -> TokenWithdrawal? {
        try await reachable {
            try await self.prepare()
            let rows = try await self.client.query("""
                SELECT 'revoked' FROM users WHERE token_hash = \(hash) AND revoked_at IS NOT NULL
                UNION ALL SELECT reason FROM withdrawn_tokens WHERE token_hash = \(hash) LIMIT 1
                """, logger: self.logger)
            for try await reason in rows.decode(String.self) { return TokenWithdrawal(rawValue: reason) }
            return nil
        }
    }

    public func withAccounts<R: Sendable>(_ access: AccountAccess,
                                          _ body: (any AccountTransaction) async throws -> (result: R, commit: Bool)) async throws -> R {
        switch access {
        case .unbounded:
            try await prepare()
            return try await accountsReached(body)
        case .bounded:
            return try await reachable { try await accountsReached(body) }
        }
    }

    private func accountsReached<R: Sendable>(_ body: (any AccountTransaction) async throws -> (result: R, commit: Bool)) async throws -> R {
        try await prepare()
        let logger = self.logger
        return try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                let transaction = PostgresAccountTransaction(connection: connection, logger: logger)
                let (result, commit) = try await body(transaction)
                try await connection.query(commit ? "COMMIT" : "ROLLBACK", logger: logger)
                // The dropped rows must not stay readable in the tables' pages.
                if commit, let why = transaction.droppedRows { await Self.rewriteDropped(connection, why: why, logger: logger) }
                return result
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    // MARK: SyncRulesStorage

    /// Optimistic tries before a push falls back to locking its user's row.
    static let optimisticAttempts = 16

    /// `SyncRules.push` in two round trips (`PostgresSyncTransaction`): read, decide, write if
    /// nothing changed meanwhile. A push that lost the compare-and-swap to another instance's
    /// push of the user starts over after a short random wait, holding no connection; after
    /// `optimisticAttempts` it locks the user's row in a transaction (the same two statements
    /// after `SELECT ... FOR NO KEY UPDATE`), which cannot lose. A sequence gap writes nothing.
    public func push(user: AuthenticatedUser, deviceID: String, items: [PushItem], now: Int64, deviceLimit: Int) async throws -> PushOutcome {
        do {
            let outcome = try await reachable { try await pushReached(user: user, deviceID: deviceID, items: items, now: now, deviceLimit: deviceLimit) }
            diskFull.noteSpace()
            return outcome
        } catch where Self.isDiskFull(error) {
            throw diskFull.noteFull(describePostgresError(error))
        }
    }

    private func pushReached(user: AuthenticatedUser, deviceID: String, items: [PushItem], now: Int64, deviceLimit: Int) async throws -> PushOutcome {
        try await prepare()
        let statements = PostgresStatements(target: .pool(client), logger: logger, counter: pushStatements)
        return try await userLocks.withLock(user.id) {
            for attempt in 0..<Self.optimisticAttempts {
                let push = PostgresSyncTransaction(statements: statements, user: user, lockFirst: false)
                // The device count is read with the push and the write checks push_version: two
                // new devices racing each other cannot both pass the cap.
                if let outcome = try await SyncRules.push(push, deviceID: deviceID, items: items, now: now, deviceLimit: deviceLimit) {
                    await noteWritten(push.written)
                    return outcome
                }
                pushConflicts.add(1)
                // Up to 1, 2, 4 ... 64 ms: two instances' pushes of one user rarely collide twice.
                try await Task.sleep(for: .microseconds(Int.random(in: 100...(1000 << min(attempt, 6)))))
            }
            logger.notice("a push lost \(Self.optimisticAttempts) times to other pushes of its user; locking the user's row", metadata: ["user": "\(user.id)"])
            return try await pushLocked(user: user, deviceID: deviceID, items: items, now: now, deviceLimit: deviceLimit)
        }
    }

    public func withTransaction<R: Sendable>(user: AuthenticatedUser, _ body: (PostgresSyncTransaction) async throws -> (result: R, commit: Bool)) async throws -> R {
        try await prepare()
        let logger = self.logger
        let counter = pushStatements
        let (result, written): (R, Int) = try await client.withConnection { connection in
            let statements = PostgresStatements(target: .connection(connection), logger: logger, counter: counter)
            _ = try await statements.run("BEGIN")
            do {
                let transaction = PostgresSyncTransaction(statements: statements, user: user, lockFirst: true)
                let (result, commit) = try await body(transaction)
                _ = try await statements.run(commit ? "COMMIT" : "ROLLBACK")
                return (result, commit ? transaction.written : 0)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
        await noteWritten(written)
        return result
    }

    // Runs ANALYZE when committed writes call for it (`PlannerStatistics`).
    private func noteWritten(_ rows: Int) async {
        guard rows > 0, statistics.noteWritten(rows) else { return }
        let (logger, statistics) = (self.logger, self.statistics)
        do {
            try await client.withConnection { await Self.analyze($0, statistics, logger: logger) }
        } catch {
            statistics.analyzed(rows: nil)
        }
    }

    /// ANALYZE after bulk writes (`PlannerStatistics`), once the push that called for it
    /// committed; a failure only logs: the push is done, and autovacuum will catch up.
    private static func analyze(_ connection: PostgresConnection, _ statistics: PlannerStatistics, logger: Logger) async {
        do {
            try await connection.query("ANALYZE \(unescaped: PlannerStatistics.tables)", logger: logger)
            var rows: Int?
            for try await tuples in try await connection.query("SELECT reltuples::int8 FROM pg_class WHERE oid = 'records'::regclass",
                                                               logger: logger).decode(Int64.self) { rows = Int(max(0, tuples)) }
            statistics.analyzed(rows: rows)
        } catch {
            statistics.analyzed(rows: nil)
            logger.warning("ANALYZE after a bulk write failed; autovacuum will catch up", metadata: ["error": "\(error)"])
        }
    }

    public func changes(user: Int64, device: String, after: Int64, recordLimit: Int) async throws -> ChangeSnapshot {
        try await reachable {
            try await self.prepare()
            return try await Self.changes(self.client, logger: self.logger, user: user, device: device, after: after, recordLimit: recordLimit)
        }
    }
}
