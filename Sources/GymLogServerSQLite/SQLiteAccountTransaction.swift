import Foundation
import GRDB
import GymLogCore
import GymLogServerCore
import GymLogWire

/// The account primitives on SQLite, inside the BEGIN IMMEDIATE that `SQLiteSyncStorage.withAccounts`
/// opened on the writer connection: the single writer is the lock on every row read here.
final class SQLiteAccountTransaction: AccountTransaction {
    let pool: DatabasePool
    /// Whether `deleteRecords` dropped some: the store checkpoints the WAL after the commit.
    private(set) var droppedRecords = false

    init(pool: DatabasePool) { self.pool = pool }

    private static let columns = "id, name, created_at, revoked_at, token_hash, key_verifier, history_generation, generation_window_start, generations_in_window"

    private static func account(_ row: Row?) -> StoredAccount? {
        row.map { StoredAccount(id: $0[0], name: $0[1], createdAt: $0[2], revokedAt: $0[3], tokenHash: $0[4], keyVerifier: $0[5],
                                historyGeneration: $0[6], generationWindowStart: $0[7], generationsInWindow: $0[8]) }
    }

    func account(named name: String) async throws -> StoredAccount? {
        // The name column is NOCASE: `=` compares case-insensitively.
        try await pool.writeWithoutTransaction { db in
            Self.account(try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM users WHERE name = ?", arguments: [name]))
        }
    }

    func account(id: Int64) async throws -> StoredAccount? {
        try await pool.writeWithoutTransaction { db in
            Self.account(try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM users WHERE id = ?", arguments: [id]))
        }
    }

    func insertAccount(name: String, tokenHash: String, now: Int64) async throws -> Int64? {
        try await pool.writeWithoutTransaction { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE name = ?", arguments: [name]) != nil { return nil }
            // AUTOINCREMENT (server-v4): a deleted user's id is never handed out again.
            try db.execute(sql: "INSERT INTO users (name, token_hash, created_at) VALUES (?, ?, ?)", arguments: [name, tokenHash, now])
            return db.lastInsertedRowID
        }
    }

    func updateAccount(_ account: StoredAccount) async throws {
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: """
                UPDATE users SET token_hash = ?, revoked_at = ?, key_verifier = ?, history_generation = ?,
                    generation_window_start = ?, generations_in_window = ?
                WHERE id = ?
                """, arguments: [account.tokenHash, account.revokedAt, account.keyVerifier, account.historyGeneration,
                                 account.generationWindowStart, account.generationsInWindow, account.id])
        }
    }

    func withdrawToken(_ hash: String, _ reason: TokenWithdrawal) async throws {
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT OR REPLACE INTO withdrawn_tokens (token_hash, reason) VALUES (?, ?)", arguments: [hash, reason.rawValue])
        }
    }

    func deleteAccount(id: Int64) async throws {
        try await pool.writeWithoutTransaction { db in
            // Children first: the foreign keys are enforced.
            for table in ["records", "applied_keys", "devices"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE user_id = ?", arguments: [id])
            }
            try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [id])
        }
    }

    func deleteRecords(userID: Int64) async throws -> Bool {
        let dropped = try await pool.writeWithoutTransaction { db in
            // The records are overwritten with zeros as they are deleted, not left in free pages
            // for whoever reads the file later (this connection only, for this statement).
            let secureDelete = try Int.fetchOne(db, sql: "PRAGMA secure_delete") ?? 0
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.execute(sql: "DELETE FROM records WHERE user_id = ?", arguments: [userID])
            let dropped = db.changesCount > 0
            try db.execute(sql: "PRAGMA secure_delete = \(secureDelete)")
            return dropped
        }
        if dropped { droppedRecords = true }
        return dropped
    }

    func deleteAppliedKeys(userID: Int64) async throws {
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "DELETE FROM applied_keys WHERE user_id = ?", arguments: [userID])
        }
    }
}
