import Foundation
import GymLogCore
import GymLogWire
import Logging
import PostgresNIO

/// `SyncStorage` on PostgreSQL through a PostgresNIO connection pool: several stateless
/// server instances can share one database with the same guarantees as the SQLite store.
///
/// Concurrency: a push locks its user's row (`SELECT ... FOR NO KEY UPDATE`) before it
/// reads `last_applied_seq` or the change counter, so pushes of one user are applied one
/// at a time whichever instance takes them; the counter is assigned and committed in lock
/// order, so a pull (one statement, one snapshot) never sees counter value n+1 without n.
/// Idempotency keys are a primary key per user in the schema.
public final class PostgresSyncStorage: SyncStorage {
    public let backend = "postgres"
    /// The parsed `--db` URL.
    public let location: PostgresURL
    private let client: PostgresClient
    private let logger: Logger
    // The pool's background work; cancelling it closes the client (see `shutdown`).
    private let runTask: Task<Void, Never>
    // Connect + migrate, started at init; every call waits for it, so its error (unreachable
    // database, failed migration) is the first thing a caller sees.
    private let ready: Task<Void, any Error>

    /// Parses the URL, starts the pool and begins migrating. Errors about the URL are thrown
    /// here; errors about reaching or migrating the database by the first call.
    public init(url: String, poolSize: Int = 10, environment: [String: String] = ProcessInfo.processInfo.environment,
                logger: Logger = Logger(label: "gymlog-server.postgres")) throws {
        let location = try PostgresURL(parsing: url, environment: environment)
        guard poolSize >= 1 else { throw ServerSetupError("the PostgreSQL pool size must be at least 1, not \(poolSize).") }
        let connectionConfig = try location.connectionConfiguration()
        self.location = location
        self.logger = logger
        let client = PostgresClient(configuration: location.clientConfiguration(poolSize: poolSize), backgroundLogger: logger)
        self.client = client
        runTask = Task { await client.run() }
        ready = Task {
            let connection: PostgresConnection
            do {
                connection = try await PostgresConnection.connect(configuration: connectionConfig, id: 0, logger: logger)
            } catch {
                throw ServerSetupError(Self.describeConnectFailure(error, location: location))
            }
            do {
                try await PostgresSchema.migrate(connection, location: location, logger: logger)
            } catch {
                try? await connection.close()
                throw error
            }
            try? await connection.close()
        }
    }

    deinit {
        ready.cancel()
        runTask.cancel()
    }

    /// Waits until the database is reachable and migrated.
    public func prepare() async throws { try await ready.value }

    /// Closes the pool's connections; the storage is unusable afterwards.
    public func shutdown() async {
        ready.cancel()
        _ = try? await ready.value
        runTask.cancel()
        await runTask.value
    }

    static func describeConnectFailure(_ error: any Error, location: PostgresURL) -> String {
        let at = "PostgreSQL at \(location.endpoint)"
        if let psql = error as? PSQLError, let state = psql.serverInfo?[.sqlState] {
            let message = describePostgresError(psql)
            switch state {
            case "3D000":
                return "\(at) has no database \"\(location.database)\" (\(message)). Create it (`createdb --owner \(location.user) \(location.database)` as the postgres user, see the README) or fix the database name in --db."
            case "28P01", "28000":
                return "\(at) refused user \"\(location.user)\": \(message). Check the user name and password in --db (or PGPASSWORD), and that pg_hba.conf lets this user reach database \"\(location.database)\" from this machine."
            case "57P03":
                return "\(at) is starting up or shutting down (\(message)); try again in a moment."
            default:
                return "cannot open the database \(location.redacted): \(message)."
            }
        }
        if let psql = error as? PSQLError {
            switch psql.code {
            case .authMechanismRequiresPassword:
                return "\(at) wants a password for user \"\(location.user)\"; put it in --db (postgres://\(location.user):PASSWORD@...) or in PGPASSWORD."
            case .sslUnsupported:
                return "\(at) does not offer TLS but --db asks for sslmode=\(location.tls.rawValue); enable ssl on the server or use sslmode=disable on a trusted network."
            default:
                break
            }
        }
        return "cannot connect to \(at) (\(describeConnectionProblem(error))). Check that PostgreSQL is running and listening on that host and port (`pg_isready -h \(location.host) -p \(location.port)`; listen_addresses and port in postgresql.conf), that the --db URL names the right host and port, and that no firewall is in the way."
    }

    // The socket-level reason in a few words; NIO's own text lists every address it tried.
    private static func describeConnectionProblem(_ error: any Error) -> String {
        let text = describePostgresError(error)
        let known: [(String, String)] = [
            ("Connection refused", "connection refused: nothing listens there"),
            ("No route to host", "no route to host"),
            ("Network is unreachable", "network is unreachable"),
            ("connectTimeout", "no answer within 10 seconds"),
            ("timeout", "no answer within 10 seconds"),
            ("resolve", "the host name does not resolve"),
            ("DNS error", "the host name does not resolve"),
            ("UnknownHost", "the host name does not resolve"),
            ("NXDOMAIN", "the host name does not resolve"),
        ]
        return known.first { text.localizedCaseInsensitiveContains($0.0) }?.1 ?? text
    }

    // MARK: SyncStorage

    public func epoch() async throws -> String {
        try await ready.value
        for try await epoch in try await client.query("SELECT epoch FROM meta", logger: logger).decode(String.self) { return epoch }
        throw ServerSetupError("the database \(location.redacted) has no epoch row in its meta table; it was not made by gymlog-server.")
    }

    public func createUser(name: String, tokenHash: String, now: Int64) async throws -> UserRecord {
        try await ready.value
        let rows = try await client.query("""
            INSERT INTO users (name, token_hash, created_at) VALUES (\(name), \(tokenHash), \(now))
            ON CONFLICT ((lower(name))) DO NOTHING RETURNING id
            """, logger: logger)
        for try await id in rows.decode(Int64.self) {
            return UserRecord(id: id, name: name, createdAt: now, revokedAt: nil)
        }
        throw StorageError.userExists(name)
    }

    public func listUsers() async throws -> [UserRecord] {
        try await ready.value
        var users: [UserRecord] = []
        let rows = try await client.query("SELECT id, name, created_at, revoked_at FROM users ORDER BY id", logger: logger)
        for try await (id, name, created, revoked) in rows.decode((Int64, String, Int64, Int64?).self) {
            users.append(UserRecord(id: id, name: name, createdAt: created, revokedAt: revoked))
        }
        return users
    }

    public func revokeUser(name: String, now: Int64) async throws -> UserRecord {
        try await ready.value
        // COALESCE keeps the first revocation time when revoking twice.
        let rows = try await client.query("""
            UPDATE users SET revoked_at = COALESCE(revoked_at, \(now)) WHERE lower(name) = lower(\(name))
            RETURNING id, name, created_at, revoked_at
            """, logger: logger)
        for try await (id, stored, created, revoked) in rows.decode((Int64, String, Int64, Int64?).self) {
            return UserRecord(id: id, name: stored, createdAt: created, revokedAt: revoked)
        }
        throw StorageError.noSuchUser(name)
    }

    public func userForTokenHash(_ hash: String) async throws -> AuthenticatedUser? {
        try await ready.value
        let rows = try await client.query("SELECT id, name, history_generation FROM users WHERE token_hash = \(hash) AND revoked_at IS NULL", logger: logger)
        for try await (id, name, generation) in rows.decode((Int64, String, Int64).self) {
            return AuthenticatedUser(id: id, name: name, historyGeneration: generation)
        }
        return nil
    }

    public func startNewHistoryGeneration(user: AuthenticatedUser) async throws -> Int64 {
        try await ready.value
        let rows = try await client.query(
            "UPDATE users SET history_generation = history_generation + 1 WHERE id = \(user.id) RETURNING history_generation", logger: logger)
        for try await generation in rows.decode(Int64.self) { return generation }
        return 0
    }

    public func push(user: AuthenticatedUser, deviceID: String, items: [PushItem], now: Int64) async throws -> PushOutcome {
        try await ready.value
        let logger = self.logger
        return try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                let outcome = try await Self.apply(connection, logger: logger, user: user.id, deviceID: deviceID, items: items, now: now)
                if case .sequenceGap = outcome {
                    try await connection.query("ROLLBACK", logger: logger)
                } else {
                    try await connection.query("COMMIT", logger: logger)
                }
                return outcome
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    // The push rules of DESIGN.md ("Push"), rule for rule as SQLiteSyncStorage applies them,
    // inside the caller's transaction. The whole batch is decided in memory between one read
    // and one write of each table, so a push costs a fixed number of round trips.
    private static func apply(_ connection: PostgresConnection, logger: Logger, user: Int64, deviceID: String,
                              items: [PushItem], now: Int64) async throws -> PushOutcome {
        // The per-user lock: every push of this user, on any instance, waits here. Only
        // statements after it see what the previous lock holder committed (READ COMMITTED
        // takes a new snapshot per statement), so last_applied_seq is read separately.
        var head: Int64 = 0
        for try await seq in try await connection.query(
            "SELECT change_seq FROM users WHERE id = \(user) FOR NO KEY UPDATE", logger: logger).decode(Int64.self) { head = seq }
        var lastApplied: Int64 = 0
        for try await seq in try await connection.query(
            "SELECT last_applied_seq FROM devices WHERE user_id = \(user) AND device_id = \(deviceID)", logger: logger).decode(Int64.self) {
            lastApplied = seq
        }
        let committedLastApplied = lastApplied
        let startHead = head

        // Pass 1 (pure): duplicates by seq, the gap, rejected events; the events left are
        // the candidates, in order.
        var candidates: [ValidEvent] = []
        for item in items {
            let seq = item.seq
            if seq <= lastApplied { continue }
            if seq > lastApplied + 1 { return .sequenceGap(lastAppliedSeq: committedLastApplied, got: seq) }
            lastApplied = seq
            if case .valid(let event) = item { candidates.append(event) }
        }

        // Record the candidates' keys; the ones that come back were new for this user.
        var newKeys: Set<String> = []
        if !candidates.isEmpty {
            var seen: Set<String> = []
            let keys = candidates.map(\.idempotencyKey).filter { seen.insert($0).inserted }
            let rows = try await connection.query("""
                INSERT INTO applied_keys (user_id, idempotency_key) SELECT \(user), k FROM unnest(\(keys)::text[]) AS k
                ON CONFLICT DO NOTHING RETURNING idempotency_key
                """, logger: logger)
            for try await key in rows.decode(String.self) { newKeys.insert(key) }
        }

        // The stored clocks of every row the new events touch.
        var stored: [RowKey: [String: String]] = [:]
        let touched = Array(Set(candidates.filter { newKeys.contains($0.idempotencyKey) }.map { RowKey(entity: $0.entity, entityID: $0.entityID) }))
        if !touched.isEmpty {
            let rows = try await connection.query("""
                SELECT f.entity, f.entity_id, f.field, f.clock FROM fields f
                JOIN unnest(\(touched.map(\.entity))::text[], \(touched.map(\.entityID))::text[]) AS t(entity, entity_id)
                  ON f.entity = t.entity AND f.entity_id = t.entity_id
                WHERE f.user_id = \(user)
                """, logger: logger)
            for try await (entity, entityID, field, clock) in rows.decode((String, String, String, String).self) {
                stored[RowKey(entity: entity, entityID: entityID), default: [:]][field] = clock
            }
        }

        // Pass 2 (pure): per-field last-writer-wins, event by event; a later event of the
        // batch sees the earlier ones' writes. Only each field's final write is stored.
        var writes: [FieldKey: (value: FieldValue, clock: String, changeSeq: Int64)] = [:]
        var results: [PushResult] = []
        results.reserveCapacity(items.count)
        lastApplied = committedLastApplied
        for item in items {
            let seq = item.seq
            if seq <= lastApplied { results.append(PushResult(seq: seq, status: .duplicate)); continue }
            lastApplied = seq
            guard case .valid(let event) = item else {
                if case .rejected(_, let error) = item { results.append(PushResult(seq: seq, status: .rejected, error: error)) }
                continue
            }
            guard newKeys.remove(event.idempotencyKey) != nil else { results.append(PushResult(seq: seq, status: .duplicate)); continue }
            let row = RowKey(entity: event.entity, entityID: event.entityID)
            let changeSeq = head + 1
            var wrote = false
            for field in event.fields {
                let current = stored[row]?[field.name].flatMap(PushValidation.clock)
                guard incomingWins(stored: current, incoming: field.clock) else { continue }
                stored[row, default: [:]][field.name] = field.clockText
                writes[FieldKey(row: row, field: field.name)] = (field.value, field.clockText, changeSeq)
                wrote = true
            }
            if wrote { head = changeSeq }
            results.append(PushResult(seq: seq, status: .applied))
        }

        if !writes.isEmpty {
            var entities: [String] = [], ids: [String] = [], names: [String] = [], kinds: [String] = []
            var ints: [Int64] = [], reals: [Double] = [], texts: [String] = [], clocks: [String] = [], seqs: [Int64] = []
            for (key, write) in writes {
                entities.append(key.row.entity); ids.append(key.row.entityID); names.append(key.field)
                clocks.append(write.clock); seqs.append(write.changeSeq)
                var kind = "n", int: Int64 = 0, real = 0.0, text = ""
                switch write.value {
                case .null: break
                case .int(let i): kind = "i"; int = i
                case .real(let d): kind = "r"; real = d
                case .text(let s): kind = "t"; text = s
                }
                kinds.append(kind); ints.append(int); reals.append(real); texts.append(text)
            }
            try await connection.query("""
                INSERT INTO fields (user_id, entity, entity_id, field, value_int, value_real, value_text, clock, change_seq)
                SELECT \(user), t.entity, t.entity_id, t.field,
                       CASE WHEN t.kind = 'i' THEN t.i END, CASE WHEN t.kind = 'r' THEN t.r END, CASE WHEN t.kind = 't' THEN t.t END,
                       t.clock, t.seq
                FROM unnest(\(entities)::text[], \(ids)::text[], \(names)::text[], \(kinds)::text[], \(ints)::int8[],
                            \(reals)::float8[], \(texts)::text[], \(clocks)::text[], \(seqs)::int8[])
                     AS t(entity, entity_id, field, kind, i, r, t, clock, seq)
                ON CONFLICT (user_id, entity, entity_id, field) DO UPDATE SET
                    value_int = excluded.value_int, value_real = excluded.value_real, value_text = excluded.value_text,
                    clock = excluded.clock, change_seq = excluded.change_seq
                """, logger: logger)
        }

        try await connection.query("""
            INSERT INTO devices (user_id, device_id, last_applied_seq, last_seen_at) VALUES (\(user), \(deviceID), \(lastApplied), \(now))
            ON CONFLICT (user_id, device_id) DO UPDATE SET last_applied_seq = excluded.last_applied_seq, last_seen_at = excluded.last_seen_at
            """, logger: logger)
        if head != startHead {
            try await connection.query("UPDATE users SET change_seq = \(head) WHERE id = \(user)", logger: logger)
        }
        return .completed(lastAppliedSeq: lastApplied, head: head, results: results)
    }

    public func pull(user: AuthenticatedUser, deviceID: String, after: Int64, limit: Int, maxBytes: Int) async throws -> PullPage {
        try await ready.value
        // One statement, so the head, the ack and the rows come from one snapshot. One event
        // writes at most maxEventFields rows under one counter value, so limit + that many + 1
        // rows always reach past the page's last complete group.
        let rows = try await client.query("""
            SELECT u.change_seq,
                   COALESCE((SELECT d.last_applied_seq FROM devices d WHERE d.user_id = u.id AND d.device_id = \(deviceID)), 0),
                   f.entity, f.entity_id, f.field, f.value_int, f.value_real, f.value_text, f.clock, f.change_seq
            FROM users u
            LEFT JOIN LATERAL (
                SELECT * FROM fields WHERE user_id = u.id AND change_seq > \(after)
                ORDER BY change_seq, entity, entity_id, field LIMIT \(Int64(limit + maxEventFields + 1))
            ) f ON true
            WHERE u.id = \(user.id)
            """, logger: logger)
        var head: Int64 = 0, lastApplied: Int64 = 0
        var builder = PageBuilder(limit: limit, maxBytes: maxBytes)
        var full = false
        for try await (userHead, ack, entity, entityID, field, int, real, text, clock, seq) in rows.decode(
            (Int64, Int64, String?, String?, String?, Int64?, Double?, String?, String?, Int64?).self) {
            head = userHead
            lastApplied = ack
            guard !full, let entity, let entityID, let field, let clock, let seq else { continue }
            if !builder.accept(seq: seq) { full = true; continue }
            let value: FieldValue = int.map(FieldValue.int) ?? real.map(FieldValue.real) ?? text.map(FieldValue.text) ?? .null
            builder.add(entity: entity, entityID: entityID, field: PulledField(name: field, value: value, clock: clock))
        }
        return builder.finish(after: after, head: head, lastAppliedSeq: lastApplied)
    }
}

private struct RowKey: Hashable {
    var entity: String
    var entityID: String
}

private struct FieldKey: Hashable {
    var row: RowKey
    var field: String
}
