import Foundation
import GymLogCore
import GymLogWire
import ServiceLifecycle

/// An account as the storage sees it.
public struct UserRecord: Hashable, Sendable {
    public var id: Int64
    public var name: String
    /// Unix milliseconds.
    public var createdAt: Int64
    /// Unix milliseconds; a revoked user's token no longer authenticates.
    public var revokedAt: Int64?
    /// What the user keeps on the server (`listUsers` fills it; zero elsewhere).
    public var usage = UserUsage()

    package init(id: Int64, name: String, createdAt: Int64, revokedAt: Int64?, usage: UserUsage = UserUsage()) {
        self.id = id; self.name = name; self.createdAt = createdAt; self.revokedAt = revokedAt; self.usage = usage
    }
}

/// What one user keeps on the server, for `gymlog-server user list`.
public struct UserUsage: Hashable, Sendable {
    /// Devices that ever pushed.
    public var devices: Int = 0
    /// Unix milliseconds of the user's latest push (a pull writes nothing, so it does not count).
    public var lastPushAt: Int64?
    /// Records (rows of the merged state: sets, workouts, exercises, …).
    public var records: Int64 = 0
    /// The bytes of those records' entities, ids and stored texts (`RecordText`), the same on every backend.
    public var storedBytes: Int64 = 0

    package init(devices: Int = 0, lastPushAt: Int64? = nil, records: Int64 = 0, storedBytes: Int64 = 0) {
        self.devices = devices; self.lastPushAt = lastPushAt; self.records = records; self.storedBytes = storedBytes
    }
}

/// What the store holds, for the metrics' gauges: read when `/metrics` is scraped, never on a
/// request's path.
public struct StorageUsage: Equatable, Sendable {
    /// Users whose token works (not revoked).
    public var activeUsers: Int
    /// Devices that have pushed (a pull writes nothing, so a device that only pulls is not one).
    public var devices: Int
    /// The database's size on disk, in bytes (0 where there is no file).
    public var databaseBytes: Int64

    public init(activeUsers: Int, devices: Int, databaseBytes: Int64) {
        self.activeUsers = activeUsers; self.devices = devices; self.databaseBytes = databaseBytes
    }
}

/// The user a request's bearer token belongs to; every storage call is scoped to it.
public struct AuthenticatedUser: Hashable, Sendable {
    public var id: Int64
    public var name: String
    /// The hash of the token that authenticated the request. A push's write checks, inside its
    /// transaction, that this hash still belongs to this live user: a token revoked or rotated
    /// while the body was arriving, or an account deleted and another made meanwhile, must not
    /// let the request write (`StorageError.tokenWithdrawn`).
    public var tokenHash: String
    /// How many times this user's history was found rolled back (a restore from an older
    /// backup) and restarted; part of the epoch the user's devices see.
    public var historyGeneration: Int64 = 0
    /// The verifier of the account key (`AccountKey.verifier`) when the user's history is
    /// encrypted end to end: every push and pull must carry it, and every value is sealed.
    public var keyVerifier: String? = nil

    package init(id: Int64, name: String, tokenHash: String, historyGeneration: Int64 = 0, keyVerifier: String? = nil) {
        self.id = id; self.name = name; self.tokenHash = tokenHash; self.historyGeneration = historyGeneration; self.keyVerifier = keyVerifier
    }
}

/// What `SyncStorage.setKeyVerifier` did.
public enum KeyVerifierOutcome: Equatable, Sendable {
    /// The verifier is the account's now; `droppedHistory` when plaintext history was deleted
    /// with it (a new history generation, so every device re-sends its rows sealed).
    case set(droppedHistory: Bool)
    /// The account already had a verifier: the same one, or another key's.
    case alreadySet(same: Bool)
}

/// One field of a validated event.
public struct ValidField: Hashable, Sendable {
    public var name: String
    public var value: FieldValue
    public var clock: HLC
    /// The clock's canonical text, as stored.
    public var clockText: String

    package init(name: String, value: FieldValue, clock: HLC, clockText: String) {
        self.name = name; self.value = value; self.clock = clock; self.clockText = clockText
    }
}

/// A pushed event that passed validation and may be applied.
public struct ValidEvent: Hashable, Sendable {
    public var seq: Int64
    public var idempotencyKey: String
    public var entity: String
    public var entityID: String
    public var fields: [ValidField]

    package init(seq: Int64, idempotencyKey: String, entity: String, entityID: String, fields: [ValidField]) {
        self.seq = seq; self.idempotencyKey = idempotencyKey; self.entity = entity; self.entityID = entityID; self.fields = fields
    }
}

/// A pushed event after validation: applicable, or rejected with a reason (its seq is still consumed).
public enum PushItem: Hashable, Sendable {
    case valid(ValidEvent)
    case rejected(seq: Int64, error: ErrorDetail)

    public var seq: Int64 {
        switch self {
        case .valid(let e): e.seq
        case .rejected(let seq, _): seq
        }
    }
}

/// What a push did. Protocol outcomes are values; storage failures are thrown errors.
public enum PushOutcome: Hashable, Sendable {
    /// Every event was processed; `head` is the user's change counter afterwards, `headBefore`
    /// the counter this push's writes started from (they took `headBefore + 1 ... head`, none
    /// of them another device's).
    case completed(lastAppliedSeq: Int64, head: Int64, results: [PushResult], headBefore: Int64)
    /// An event skipped a sequence number; nothing of the request was committed.
    case sequenceGap(lastAppliedSeq: Int64, got: Int64)
    /// The device never pushed and the user already has the most devices allowed; nothing
    /// was committed.
    case tooManyDevices
}

extension SyncStorage {
    /// A push with no cap on the user's devices (tests, tools).
    public func push(user: AuthenticatedUser, deviceID: String, items: [PushItem], now: Int64) async throws -> PushOutcome {
        try await push(user: user, deviceID: deviceID, items: items, now: now, deviceLimit: .max)
    }
}

/// What a pull page's `limit` counts.
public enum PullLimit: Hashable, Sendable {
    /// Field rows (protocol v1's `/v1/pull`).
    case fieldRows(Int)
    /// Changes: the fields of one row one event wrote under one clock (protocol v2's
    /// `/v2/pull`), so a page of 1,000 is 1,000 records however many fields each has.
    case changes(Int)

    public var count: Int {
        switch self {
        case .fieldRows(let n), .changes(let n): n
        }
    }
}

/// Storage failures the routes translate into protocol errors.
public enum StorageError: Error, Equatable, LocalizedError, CustomStringConvertible {
    public var description: String { errorDescription ?? "storage error" }
    case userExists(String)
    case noSuchUser(String)
    /// The user is revoked: `user activate` lets it in again with a new token.
    case userRevoked(String)
    /// The database cannot serve requests (unreachable, read-only, corrupt); the text names the problem.
    case notReady(String)
    /// The database server cannot be reached (PostgreSQL down, restarting, or no connection
    /// to it within `PostgresSyncStorage.connectionWait`), while this server runs: answered
    /// 503 `database_unavailable`, so a client tells its user the server's database is down
    /// rather than the network. The text names the problem, never the URL.
    case databaseUnavailable(String)
    /// The token that authenticated a request no longer belongs to a live user (revoked,
    /// rotated, or its user deleted) when its write ran; nothing was written. Answered 401.
    case tokenWithdrawn
    /// The account's key changed (`gymlog key enable` on another device) after the request
    /// was authenticated and before its write: a push checked against no key would store
    /// values in the clear in an encrypted account. Nothing was written. Answered 403 `key_required`.
    case keyChanged

    public var errorDescription: String? {
        switch self {
        case .userExists(let name): "a user named \"\(name)\" already exists; pick another name (`gymlog-server user list` shows the taken ones)."
        case .noSuchUser(let name): "no user named \"\(name)\"; `gymlog-server user list` shows the users."
        case .userRevoked(let name): "the user \"\(name)\" is revoked; `gymlog-server user activate \(name)` lets it in again with a new token."
        case .notReady(let problem), .databaseUnavailable(let problem): problem
        case .tokenWithdrawn: "the token was revoked or replaced, or its user deleted, before the request's write; nothing was written."
        case .keyChanged: "the account's key was set while the request ran, before its write; nothing was written."
        }
    }
}

/// The server's persistence. Every call that touches synced data takes the authenticated
/// user and never reads or writes another user's rows. The rules that are the same on every
/// backend are written once over these calls: the push and the pull (`SyncRules`, over
/// `SyncRulesStorage`'s primitives), and the users' and keys' (`AccountRules`, over
/// `withAccounts`).
public protocol SyncStorage: Sendable {
    /// A short name of the backend for logs (`sqlite`, `postgres`).
    var backend: String { get }
    /// The random id made when the database was created.
    func epoch() async throws -> String
    /// All users, oldest first, with what each keeps on the server (`UserRecord.usage`).
    func listUsers() async throws -> [UserRecord]
    /// The live (not revoked) user holding this token hash.
    func userForTokenHash(_ hash: String) async throws -> AuthenticatedUser?
    /// Why a token hash no live user holds stopped working (revoked, replaced, its user
    /// deleted); nil for one the server never issued. Asked only after `userForTokenHash` found none.
    func withdrawal(ofTokenHash hash: String) async throws -> TokenWithdrawal?
    /// Applies a validated, seq-ascending batch for (user, device) in ONE transaction. A
    /// device that never pushed is refused (`tooManyDevices`, nothing written) when the user
    /// already has `deviceLimit` devices (`ServerConfig.maxDevicesPerUser`), counted in that
    /// transaction.
    func push(user: AuthenticatedUser, deviceID: String, items: [PushItem], now: Int64, deviceLimit: Int) async throws -> PushOutcome
    /// The records written after change counter `after`, each with its changes written after
    /// `since` (`SyncRules.page`), at most `limit` field rows or changes (a record is never
    /// split) and about `maxBytes` of JSON.
    func pull(user: AuthenticatedUser, deviceID: String, after: Int64, since: Int64, limit: PullLimit, maxBytes: Int) async throws -> PullPage
    /// Runs `body` in one transaction of the users table and the rows hanging off it (the
    /// primitives of `AccountRules`, which creates, revokes and deletes users, replaces tokens,
    /// starts history generations and sets account keys); commits when it answers `commit`, rolls
    /// back otherwise or when it throws; `access` bounds its wait for a database that is down.
    func withAccounts<R: Sendable>(_ access: AccountAccess,
                                   _ body: (any AccountTransaction) async throws -> (result: R, commit: Bool)) async throws -> R
    /// Returns when the database answers a trivial read and a write transaction it rolls back
    /// (and, where cheap, is not corrupt); throws, naming the problem, otherwise. `/readyz`.
    func checkReadiness() async throws
    /// Whether `/readyz` bounds `checkReadiness` by `--readiness-timeout`: a network database's
    /// check can hang; a local file's takes as long as the file is big, and is waited for.
    var readinessIsBounded: Bool { get }
    /// Counts of users and devices and the database's size, for `/metrics`' gauges.
    func usage() async throws -> StorageUsage
    /// Before `serve` listens: looks for corruption for at most `timeLimit` and throws a
    /// `ServerSetupError` naming the database and the way out when it finds some. Returns
    /// false when time ran out before the check finished (nothing found so far).
    func checkIntegrity(timeLimit: Duration) async throws -> Bool
    /// Releases connections and background work; the storage is not used afterwards.
    func shutdown() async
    /// Hands the storage's background work (a database client) to the application, whose
    /// ServiceGroup then runs it and stops it at graceful shutdown. Called once, by `buildApplication`.
    func applicationServices() -> [any Service]
}

extension SyncStorage {
    /// The records written after `after`, whole.
    public func pull(user: AuthenticatedUser, deviceID: String, after: Int64, limit: PullLimit, maxBytes: Int) async throws -> PullPage {
        try await pull(user: user, deviceID: deviceID, after: after, since: 0, limit: limit, maxBytes: maxBytes)
    }

    /// Whether the user holds any records (`GET /v1/account`: the first device of an empty
    /// account makes its key): a pull of one record, which any store answers from its index.
    public func hasHistory(user: AuthenticatedUser) async throws -> Bool {
        try await !pull(user: user, deviceID: "", after: 0, limit: .changes(1), maxBytes: 1).records.isEmpty
    }

    /// Not bounded by default.
    public var readinessIsBounded: Bool { false }
    /// Nothing to check by default: PostgreSQL checksums its own pages, memory has none.
    public func checkIntegrity(timeLimit: Duration) async throws -> Bool { true }
    /// Nothing to release by default (SQLite closes its file when the last reference goes).
    public func shutdown() async {}
    /// No background work by default.
    public func applicationServices() -> [any Service] { [] }
}

/// A configuration or startup failure, worded for the person starting the server.
public struct ServerSetupError: Error, LocalizedError, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var errorDescription: String? { message }
    public var description: String { message }
}
