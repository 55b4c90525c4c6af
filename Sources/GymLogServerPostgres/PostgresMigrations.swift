import Foundation
import Logging
import PostgresNIO
import GymLogServerCore

/// One append-only step of the PostgreSQL schema: never edit a shipped one, add the next.
struct PostgresMigration: Sendable {
    var version: Int
    var name: String
    /// One SQL statement each (the extended protocol runs one statement per query).
    var steps: [String]
}

/// The PostgreSQL schema and the runner that brings a database up to date.
///
/// Every start runs `migrate`: in ONE transaction it takes a transaction-scoped advisory
/// lock, so two instances starting at once migrate one after the other (the second finds
/// the work done), reads the applied versions from `gymlog_schema_migrations`, and applies
/// the missing ones. PostgreSQL's DDL is transactional: a failed step leaves nothing behind.
enum PostgresSchema {
    /// The advisory lock key ("gymlog" in ASCII); advisory locks are per database.
    static let migrationLockKey: Int64 = 0x67_79_6D_6C_6F_67

    static let migrations: [PostgresMigration] = [
        PostgresMigration(version: 1, name: "server-v1", steps: [
            // One row: the epoch names this database, so clients notice a wiped server.
            """
            CREATE TABLE meta (
                singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                epoch TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            """
            INSERT INTO meta VALUES (1, replace(gen_random_uuid()::text, '-', ''), (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
            """,
            // change_seq is the user's change counter: the pull cursor. It is bumped only by
            // a push holding this row's lock, so values become visible in commit order.
            """
            CREATE TABLE users (
                id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                name TEXT COLLATE "C" NOT NULL,
                token_hash TEXT COLLATE "C" NOT NULL UNIQUE,
                created_at BIGINT NOT NULL,
                revoked_at BIGINT,
                change_seq BIGINT NOT NULL DEFAULT 0
            )
            """,
            // Names are unique case-insensitively, like SQLite's COLLATE NOCASE (ASCII names).
            "CREATE UNIQUE INDEX users_name_nocase ON users (lower(name))",
            // The Replicache rule: per (user, device), the last applied gapless seq.
            """
            CREATE TABLE devices (
                user_id BIGINT NOT NULL REFERENCES users(id),
                device_id TEXT COLLATE "C" NOT NULL,
                last_applied_seq BIGINT NOT NULL DEFAULT 0,
                last_seen_at BIGINT,
                PRIMARY KEY (user_id, device_id)
            )
            """,
            // Idempotency keys are unique per user in the schema, not only in code.
            """
            CREATE TABLE applied_keys (
                user_id BIGINT NOT NULL REFERENCES users(id),
                idempotency_key TEXT COLLATE "C" NOT NULL,
                PRIMARY KEY (user_id, idempotency_key)
            )
            """,
            // The merged state: one row per (user, entity, entity_id, field), last writer wins.
            // A value keeps its type in one of three columns; all three NULL is JSON null.
            """
            CREATE TABLE fields (
                user_id BIGINT NOT NULL REFERENCES users(id),
                entity TEXT COLLATE "C" NOT NULL,
                entity_id TEXT COLLATE "C" NOT NULL,
                field TEXT COLLATE "C" NOT NULL,
                value_int BIGINT,
                value_real DOUBLE PRECISION,
                value_text TEXT,
                clock TEXT COLLATE "C" NOT NULL,
                change_seq BIGINT NOT NULL,
                PRIMARY KEY (user_id, entity, entity_id, field),
                CHECK (num_nonnulls(value_int, value_real, value_text) <= 1)
            )
            """,
            "CREATE INDEX fields_by_change ON fields (user_id, change_seq)",
        ]),
        PostgresMigration(version: 2, name: "server-v2-history-generation", steps: [
            // Bumped when a device proves the history was rolled back (SyncRoutes.pull).
            "ALTER TABLE users ADD COLUMN history_generation BIGINT NOT NULL DEFAULT 0",
        ]),
        PostgresMigration(version: 3, name: "server-v3-key-digests", steps: [
            // What each key's event carried (SyncRules.digest): the same key with other content
            // is refused as key_reused. Keys recorded before have none and count as the same.
            "ALTER TABLE applied_keys ADD COLUMN digest TEXT",
        ]),
        PostgresMigration(version: 4, name: "server-v4-push-version", steps: [
            // Bumped by every push and every new history generation: a push's write stores what
            // it decided only while this still holds the value its read saw (optimistic push,
            // PostgresSyncTransaction). A constant default adds no row data (PostgreSQL 11+).
            "ALTER TABLE users ADD COLUMN push_version BIGINT NOT NULL DEFAULT 0",
        ]),
        PostgresMigration(version: 5, name: "server-v5-generation-window", steps: [
            // The history generations each user started in the current hour-long window: the
            // limit on rollback claims holds for every instance and across restarts.
            "ALTER TABLE users ADD COLUMN generation_window_start BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE users ADD COLUMN generations_in_window INTEGER NOT NULL DEFAULT 0",
        ]),
        PostgresMigration(version: 6, name: "server-v6-account-key", steps: [
            // The verifier of an end-to-end encrypted account's key (AccountKey.verifier);
            // NULL for an account whose history is in the clear.
            "ALTER TABLE users ADD COLUMN key_verifier TEXT",
        ]),
        PostgresMigration(version: 7, name: "server-v7-record-rows", steps: [
            // One row per record instead of one per field (DESIGN.md "One row per record"): a
            // pull page reads 1,000 rows, not 8,000, and a push writes one row per record it
            // changes. `fields` is the record's text (`RecordText`): TEXT, not JSONB, so the
            // bytes a push stored are the bytes a pull reads, on both stores.
            """
            CREATE TABLE records (
                user_id BIGINT NOT NULL REFERENCES users(id),
                entity TEXT COLLATE "C" NOT NULL,
                entity_id TEXT COLLATE "C" NOT NULL,
                change_seq BIGINT NOT NULL,
                fields TEXT NOT NULL,
                PRIMARY KEY (user_id, entity, entity_id)
            )
            """,
            // The field rows of before, folded into records in the shape `RecordText` writes:
            // the fields grouped by clock and counter value, groups in the order of their first
            // field's name (to_json escapes names and text; a float8 prints in its shortest exact
            // form, given a point when it is integral so it reads back as a real).
            """
            INSERT INTO records (user_id, entity, entity_id, change_seq, fields)
            SELECT user_id, entity, entity_id, max(change_seq),
                   '[' || string_agg('{"c":' || to_json(clock)::text || ',"s":' || change_seq::text || ',"f":' || f || '}', ',' ORDER BY first) || ']'
            FROM (
                SELECT user_id, entity, entity_id, clock, change_seq, min(field) AS first,
                       '{' || string_agg(to_json(field)::text || ':'
                           || CASE WHEN value_int IS NOT NULL THEN value_int::text
                                   WHEN value_real = trunc(value_real) AND abs(value_real) < 1e15 THEN to_json(value_real)::text || '.0'
                                   WHEN value_real IS NOT NULL THEN to_json(value_real)::text
                                   WHEN value_text IS NOT NULL THEN to_json(value_text)::text
                                   ELSE 'null' END, ',' ORDER BY field) || '}' AS f
                FROM fields GROUP BY user_id, entity, entity_id, clock, change_seq
            ) changes
            GROUP BY user_id, entity, entity_id
            """,
            "CREATE INDEX records_by_change ON records (user_id, change_seq)",
            "DROP TABLE fields",
        ]),
        PostgresMigration(version: 8, name: "server-v8-key-verifier-hash", steps: [
            // Only the SHA-256 of an account key's verifier is kept (`Tokens.hash`: lowercase
            // hex of the UTF-8), as for tokens: a stolen database does not hold what a device sends.
            "UPDATE users SET key_verifier = encode(sha256(convert_to(key_verifier, 'UTF8')), 'hex') WHERE key_verifier IS NOT NULL",
        ]),
        PostgresMigration(version: 9, name: "server-v9-withdrawn-tokens", steps: [
            // The hashes of tokens an administrator replaced or whose user they deleted, and
            // why (`TokenWithdrawal`): a device still sending one is told what happened. No user
            // id, so a deletion leaves nothing of the user but its hash.
            "CREATE TABLE withdrawn_tokens (token_hash TEXT COLLATE \"C\" PRIMARY KEY, reason TEXT NOT NULL)",
        ]),
    ]

    /// Applies the missing migrations on `connection`; throws a `ServerSetupError` naming the
    /// failed migration and step.
    static func migrate(_ connection: PostgresConnection, location: PostgresURL, logger: Logger,
                        migrations: [PostgresMigration] = Self.migrations) async throws {
        func failure(_ what: String, _ error: any Error) -> ServerSetupError {
            ServerSetupError("\(what) on \(location.redacted) failed: \(describePostgresError(error)). Nothing of it was applied.")
        }
        do {
            try await connection.query("BEGIN", logger: logger)
        } catch {
            throw failure("starting the schema migration", error)
        }
        do {
            do {
                try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLockKey))", logger: logger)
                try await connection.query("""
                    CREATE TABLE IF NOT EXISTS gymlog_schema_migrations (
                        version INTEGER PRIMARY KEY,
                        name TEXT NOT NULL,
                        applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                    )
                    """, logger: logger)
            } catch {
                throw failure("preparing the schema migration table", error)
            }
            var applied: Set<Int> = []
            for try await version in try await connection.query("SELECT version FROM gymlog_schema_migrations", logger: logger).decode(Int.self) {
                applied.insert(version)
            }
            let known = Set(migrations.map(\.version))
            if let newer = applied.subtracting(known).max() {
                throw ServerSetupError("the database \(location.redacted) has schema version \(newer), newer than this gymlog-server knows (up to \(known.max() ?? 0)); run a gymlog-server at least as new as the one that migrated it.")
            }
            for migration in migrations.sorted(by: { $0.version < $1.version }) where !applied.contains(migration.version) {
                for (index, step) in migration.steps.enumerated() {
                    do {
                        try await connection.query(PostgresQuery(unsafeSQL: step), logger: logger)
                    } catch {
                        let firstLine = step.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                        throw failure("migration \(migration.version) (\(migration.name)), step \(index + 1) of \(migration.steps.count) (\(firstLine.prefix(60))…),", error)
                    }
                }
                try await connection.query(
                    "INSERT INTO gymlog_schema_migrations (version, name) VALUES (\(migration.version), \(migration.name))", logger: logger)
                logger.notice("applied PostgreSQL migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
            }
            try await connection.query("COMMIT", logger: logger)
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            if error is ServerSetupError { throw error }
            throw failure("the schema migration", error)
        }
    }
}

/// A PostgreSQL error as one readable phrase: the server's message and SQLSTATE, or the
/// connection problem. (PSQLError's own description hides everything on purpose.)
func describePostgresError(_ error: any Error) -> String {
    guard let psql = error as? PSQLError else { return "\(error)" }
    if let info = psql.serverInfo, let message = info[.message] {
        var text = message
        if let detail = info[.detail] { text += " (\(detail))" }
        if let hint = info[.hint] { text += "; hint: \(hint)" }
        if let state = info[.sqlState] { text += " [SQLSTATE \(state)]" }
        return text
    }
    if let underlying = psql.underlying { return "\(psql.code): \(underlying)" }
    return "\(psql.code)"
}
