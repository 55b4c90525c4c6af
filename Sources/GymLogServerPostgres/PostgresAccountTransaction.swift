import Foundation
import GymLogCore
import GymLogServerCore
import GymLogWire
import Logging
import PostgresNIO

/// The account primitives on PostgreSQL, inside the transaction `PostgresSyncStorage.withAccounts`
/// opened on one connection. Every read locks the user's row (`FOR UPDATE`, the lock a push's
/// write takes): an in-flight push of the user commits before, or finds the row changed or gone.
final class PostgresAccountTransaction: AccountTransaction, @unchecked Sendable {
    // @unchecked: one rule owns it and awaits its calls one after the other, so `droppedRows` never races.
    let connection: PostgresConnection
    let logger: Logger
    /// Why rows were dropped, when some were: the store rewrites the tables after the commit
    /// (`PostgresSyncStorage.rewriteDropped`).
    private(set) var droppedRows: String?

    init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    func account(named name: String) async throws -> StoredAccount? {
        try await account(in: connection.query("""
            SELECT id, name, created_at, revoked_at, token_hash, key_verifier, history_generation, generation_window_start, generations_in_window
            FROM users WHERE lower(name) = lower(\(name)) FOR UPDATE
            """, logger: logger))
    }

    func account(id: Int64) async throws -> StoredAccount? {
        try await account(in: connection.query("""
            SELECT id, name, created_at, revoked_at, token_hash, key_verifier, history_generation, generation_window_start, generations_in_window
            FROM users WHERE id = \(id) FOR UPDATE
            """, logger: logger))
    }

    private func account(in rows: PostgresRowSequence) async throws -> StoredAccount? {
        for try await (id, name, created, revoked, token, verifier, generation, windowStart, inWindow) in rows.decode(
            (Int64, String, Int64, Int64?, String, String?, Int64, Int64, Int32).self) {
            return StoredAccount(id: id, name: name, createdAt: created, revokedAt: revoked, tokenHash: token, keyVerifier: verifier,
                                 historyGeneration: generation, generationWindowStart: windowStart, generationsInWindow: Int(inWindow))
        }
        return nil
    }

    func insertAccount(name: String, tokenHash: String, now: Int64) async throws -> Int64? {
        // The unique index on lower(name) decides a race between two instances' inserts.
        let rows = try await connection.query("""
            INSERT INTO users (name, token_hash, created_at) VALUES (\(name), \(tokenHash), \(now))
            ON CONFLICT ((lower(name))) DO NOTHING RETURNING id
            """, logger: logger)
        for try await id in rows.decode(Int64.self) { return id }
        return nil
    }

    func updateAccount(_ account: StoredAccount) async throws {
        // push_version moves when what a push read may have changed (its keys go with a new
        // generation; a key set refuses it): an optimistic push that read before starts over.
        // The CASE reads the row as it was.
        try await connection.query("""
            UPDATE users SET token_hash = \(account.tokenHash), revoked_at = \(account.revokedAt), key_verifier = \(account.keyVerifier),
                push_version = push_version + CASE WHEN history_generation <> \(account.historyGeneration)
                    OR key_verifier IS DISTINCT FROM \(account.keyVerifier) THEN 1 ELSE 0 END,
                history_generation = \(account.historyGeneration), generation_window_start = \(account.generationWindowStart),
                generations_in_window = \(Int32(account.generationsInWindow))
            WHERE id = \(account.id)
            """, logger: logger)
    }

    func withdrawToken(_ hash: String, _ reason: TokenWithdrawal) async throws {
        try await connection.query("""
            INSERT INTO withdrawn_tokens (token_hash, reason) VALUES (\(hash), \(reason.rawValue))
            ON CONFLICT (token_hash) DO UPDATE SET reason = EXCLUDED.reason
            """, logger: logger)
    }

    func deleteAccount(id: Int64) async throws {
        try await connection.query("DELETE FROM records WHERE user_id = \(id)", logger: logger)
        try await connection.query("DELETE FROM applied_keys WHERE user_id = \(id)", logger: logger)
        try await connection.query("DELETE FROM devices WHERE user_id = \(id)", logger: logger)
        try await connection.query("DELETE FROM users WHERE id = \(id)", logger: logger)
        droppedRows = "user deleted"
    }

    func deleteRecords(userID: Int64) async throws -> Bool {
        var dropped = false
        for try await _ in try await connection.query("DELETE FROM records WHERE user_id = \(userID) RETURNING 1",
                                                      logger: logger).decode(Int.self) { dropped = true }
        if dropped { droppedRows = "account key set" }
        return dropped
    }

    func deleteAppliedKeys(userID: Int64) async throws {
        try await connection.query("DELETE FROM applied_keys WHERE user_id = \(userID)", logger: logger)
    }
}

extension PostgresSyncStorage {
    /// After rows were dropped for privacy (a key set over a history in the clear, a user
    /// deleted): `VACUUM FULL` writes `records` and `applied_keys` anew without them. A DELETE
    /// only marks rows dead, and a plain VACUUM frees their space for reuse without erasing
    /// it: the plaintext stayed in the table's files until some later write landed on it.
    /// The rewrite holds each table's exclusive lock while it runs (pushes wait, about a
    /// second per 100 MB); it happens once per `key enable` or `user delete`. What it cannot
    /// reach is the WAL (README "PostgreSQL"): the rows stay in segments until a checkpoint
    /// recycles them, and in WAL archives and base backups for as long as those are kept.
    /// A failure is logged, not thrown: the drop itself is committed.
    static func rewriteDropped(_ connection: PostgresConnection, why: String, logger: Logger) async {
        let started = ContinuousClock.now
        do {
            // VACUUM FULL copies a deleted row that a transaction begun before the delete's
            // commit may still see: wait (up to 10 s) until every such transaction of this
            // database ended (pushes take milliseconds; a longer one is logged below).
            var waited = 0
            while waited < 200 {
                var older: Int64 = 0
                for try await count in try await connection.query("""
                    SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
                    AND backend_xmin IS NOT NULL AND xact_start < statement_timestamp()
                    """, logger: logger).decode(Int64.self) { older = count }
                if older == 0 { break }
                waited += 1
                try await Task.sleep(for: .milliseconds(50))
            }
            if waited == 200 { logger.warning("a transaction older than the dropped rows is still open; VACUUM FULL may keep them", metadata: ["why": "\(why)"]) }
            // VACUUM runs outside a transaction block, one table per statement here.
            try await connection.query("VACUUM FULL records", logger: logger)
            try await connection.query("VACUUM FULL applied_keys", logger: logger)
            logger.notice("rewrote records and applied_keys without the dropped rows (VACUUM FULL)", metadata: [
                "why": "\(why)", "duration_s": "\(seconds(ContinuousClock.now - started))",
            ])
        } catch {
            logger.warning("could not rewrite records and applied_keys after dropping rows; run VACUUM FULL records, applied_keys; by hand", metadata: [
                "why": "\(why)", "error": "\(describePostgresError(error))",
            ])
        }
    }
}
