import Foundation
import GymLogCore
import GymLogWire

/// How long an account transaction waits for a database that is down (`SyncStorage.withAccounts`).
public enum AccountAccess: Sendable {
    /// As long as the database's driver does: the admin commands, and registration.
    case unbounded
    /// As long as a sync request's other calls: on PostgreSQL, `connectionWait`, then 503
    /// `database_unavailable` (`PostgresSyncStorage.reachable`).
    case bounded
}

/// A user's row as the account rules read and write it, whole.
public struct StoredAccount: Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var createdAt: Int64
    public var revokedAt: Int64?
    public var tokenHash: String
    public var keyVerifier: String?
    public var historyGeneration: Int64
    /// Unix ms at which the user's current hour-long window of history generations began.
    public var generationWindowStart: Int64
    /// The history generations the user started in that window.
    public var generationsInWindow: Int

    public init(id: Int64, name: String, createdAt: Int64, revokedAt: Int64?, tokenHash: String, keyVerifier: String?,
                historyGeneration: Int64, generationWindowStart: Int64, generationsInWindow: Int) {
        self.id = id; self.name = name; self.createdAt = createdAt; self.revokedAt = revokedAt; self.tokenHash = tokenHash
        self.keyVerifier = keyVerifier; self.historyGeneration = historyGeneration
        self.generationWindowStart = generationWindowStart; self.generationsInWindow = generationsInWindow
    }

    /// The account as the admin commands show it.
    public var record: UserRecord { UserRecord(id: id, name: name, createdAt: createdAt, revokedAt: revokedAt) }
}

/// The storage side of the account rules: reads and writes of one transaction of the users
/// table (taskchampion-sync-server's `StorageTxn`, for accounts). A read locks the row it
/// returns until the transaction ends, so a rule's read-then-write cannot lose an update to
/// another instance's.
public protocol AccountTransaction {
    /// The user whose name is `name`, compared case-insensitively.
    func account(named name: String) async throws -> StoredAccount?
    /// The user with this id.
    func account(id: Int64) async throws -> StoredAccount?
    /// Adds a user and returns its id, never one a deleted user had; nil, adding nothing,
    /// when the name is taken (case-insensitively).
    func insertAccount(name: String, tokenHash: String, now: Int64) async throws -> Int64?
    /// Writes the row's token hash, revocation, key verifier, history generation and
    /// generation window.
    func updateAccount(_ account: StoredAccount) async throws
    /// Remembers a token hash no user holds any more, and why (`SyncStorage.withdrawal`).
    func withdrawToken(_ hash: String, _ reason: TokenWithdrawal) async throws
    /// Removes the user and every row of theirs (records, idempotency keys, devices).
    func deleteAccount(id: Int64) async throws
    /// Removes the user's records, as a store erases data it must not keep (overwritten, or
    /// rewritten away once committed); whether there were any.
    func deleteRecords(userID: Int64) async throws -> Bool
    /// Removes the user's recorded idempotency keys.
    func deleteAppliedKeys(userID: Int64) async throws
}

/// The rules of users, tokens, history generations and account keys, the same on every backend.
extension SyncStorage {
    /// Creates a user holding the given token hash; throws `StorageError.userExists`.
    public func createUser(name: String, tokenHash: String, now: Int64) async throws -> UserRecord {
        try await withAccounts(.unbounded) { accounts in
            guard let id = try await accounts.insertAccount(name: name, tokenHash: tokenHash, now: now) else { throw StorageError.userExists(name) }
            return (UserRecord(id: id, name: name, createdAt: now, revokedAt: nil), true)
        }
    }

    /// Revokes the user's token; throws `StorageError.noSuchUser`. Revoking twice keeps the first time.
    public func revokeUser(name: String, now: Int64) async throws -> UserRecord {
        try await withAccounts(.unbounded) { accounts in
            guard var account = try await accounts.account(named: name) else { throw StorageError.noSuchUser(name) }
            if account.revokedAt == nil {
                account.revokedAt = now
                try await accounts.updateAccount(account)
            }
            return (account.record, true)
        }
    }

    /// Gives the user a new token hash; the old token stops authenticating at once (and is
    /// remembered as rotated, or as revoked when the user was: `withdrawal(ofTokenHash:)`). With
    /// `reactivate` it also lifts a revocation; without it a revoked user is refused
    /// (`StorageError.userRevoked`). Throws `StorageError.noSuchUser`.
    public func replaceToken(name: String, tokenHash: String, reactivate: Bool) async throws -> UserRecord {
        try await withAccounts(.unbounded) { accounts in
            guard var account = try await accounts.account(named: name) else { throw StorageError.noSuchUser(name) }
            guard reactivate || account.revokedAt == nil else { throw StorageError.userRevoked(account.name) }
            try await accounts.withdrawToken(account.tokenHash, .replaced(wasRevoked: account.revokedAt != nil))
            account.tokenHash = tokenHash
            account.revokedAt = nil
            try await accounts.updateAccount(account)
            return (account.record, true)
        }
    }

    /// Removes the user and every row of theirs (devices, idempotency keys, records) in one
    /// transaction; throws `StorageError.noSuchUser`. The name is free again afterwards; the
    /// user's last token hash is remembered as deleted (`withdrawal(ofTokenHash:)`).
    public func deleteUser(name: String) async throws -> UserRecord {
        try await withAccounts(.unbounded) { accounts in
            guard let account = try await accounts.account(named: name) else { throw StorageError.noSuchUser(name) }
            try await accounts.withdrawToken(account.tokenHash, .deleted)
            try await accounts.deleteAccount(id: account.id)
            return (account.record, true)
        }
    }

    /// Starts a new history generation for the user, after a device proved the server's
    /// history is older than what it had acknowledged (see `SyncRoutes.pull`). Returns the
    /// new generation; every device of the user then sees a new epoch and re-sends its state
    /// under new idempotency keys, so the user's recorded keys (all of past generations) are
    /// deleted in the same transaction: without that they grew by a full copy per generation.
    ///
    /// Returns nil, changing nothing, when the user already started `perHour` generations in
    /// the hour-long window that holds `now` (Unix ms): the count is the user's, in the store,
    /// so every instance and a restart share it (`ServerConfig.maxHistoryGenerationsPerHour`).
    public func startNewHistoryGeneration(user: AuthenticatedUser, now: Int64, perHour: Int) async throws -> Int64? {
        try await withAccounts(.bounded) { accounts in
            guard var account = try await accounts.account(id: user.id) else { return (nil, false) }
            // A window is an hour from its first generation; the first of a new one always passes.
            if now - account.generationWindowStart >= 3_600_000 {
                account.generationWindowStart = now
                account.generationsInWindow = 1
            } else if account.generationsInWindow < perHour {
                account.generationsInWindow += 1
            } else {
                return (nil, false)
            }
            account.historyGeneration += 1
            try await accounts.updateAccount(account)
            try await accounts.deleteAppliedKeys(userID: user.id)
            return (account.historyGeneration, true)
        }
    }

    /// Makes `verifier` the account's key verifier when it has none, in one transaction with
    /// dropping the plaintext history the server held (its records and idempotency keys, and a
    /// new history generation, outside the rollback limit) when there is some. An account
    /// that has a verifier keeps it: there is no second key. Throws `StorageError.tokenWithdrawn`
    /// when the user is gone.
    public func setKeyVerifier(user: AuthenticatedUser, verifier: String) async throws -> KeyVerifierOutcome {
        try await withAccounts(.bounded) { accounts in
            guard var account = try await accounts.account(id: user.id) else { throw StorageError.tokenWithdrawn }
            if let existing = account.keyVerifier { return (.alreadySet(same: existing == verifier), false) }
            account.keyVerifier = verifier
            let dropped = try await accounts.deleteRecords(userID: user.id)
            if dropped {
                try await accounts.deleteAppliedKeys(userID: user.id)
                account.historyGeneration += 1
            }
            try await accounts.updateAccount(account)
            return (.set(droppedHistory: dropped), true)
        }
    }
}
