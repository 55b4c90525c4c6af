import Foundation
import GymLogCore
import GymLogWire

/// `SyncStorage` in memory: the sync rules over the smallest possible primitives, for fast
/// tests (the conformance suite runs it beside SQLite and PostgreSQL). Nothing is persisted.
///
/// Writes run one at a time on a copy of the state that replaces it on commit, so a rolled
/// back push leaves nothing behind; reads see the last committed state.
public final class MemorySyncStorage: SyncRulesStorage, @unchecked Sendable {
    // @unchecked: `state` is read and replaced only with `lock` held; writers are serialised by `writeLock`.
    public let backend = "memory"
    private let databaseEpoch: String
    private let lock = NSLock()
    private let writeLock = AsyncLock()
    // Guarded by `lock`; replaced whole by writers holding `writeLock`.
    private var state = MemoryState()

    /// An empty store with a random epoch.
    public init() {
        databaseEpoch = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    private var committed: MemoryState { lock.withLock { state } }

    // Runs `body` on a copy of the state and stores the copy when it answers true.
    private func write<R>(_ body: (inout MemoryState) async throws -> (result: R, commit: Bool)) async rethrows -> R {
        try await writeLock.withLock {
            var copy = committed
            let (result, commit) = try await body(&copy)
            if commit { lock.withLock { state = copy } }
            return result
        }
    }

    public func epoch() async throws -> String { databaseEpoch }

    /// Always ready: there is no database to lose.
    public func checkReadiness() async throws {}

    public func usage() async throws -> StorageUsage {
        let state = committed
        return StorageUsage(activeUsers: state.users.count { $0.record.revokedAt == nil }, devices: state.devices.count, databaseBytes: 0)
    }

    public func listUsers() async throws -> [UserRecord] {
        let state = committed
        return state.users.map { user in
            var record = user.record
            let id = record.id
            let seen = state.devices.filter { $0.key.user == id }.map(\.value.lastSeenAt)
            let records = state.records[id] ?? [:]
            record.usage = UserUsage(devices: seen.count, lastPushAt: seen.max(), records: Int64(records.count),
                                     storedBytes: records.values.reduce(0) { $0 + $1.storedBytes })
            return record
        }
    }

    public func userForTokenHash(_ hash: String) async throws -> AuthenticatedUser? {
        committed.users.first { $0.tokenHash == hash && $0.record.revokedAt == nil }.map {
            AuthenticatedUser(id: $0.record.id, name: $0.record.name, tokenHash: hash, historyGeneration: $0.historyGeneration,
                              keyVerifier: $0.keyVerifier)
        }
    }

    public func withdrawal(ofTokenHash hash: String) async throws -> TokenWithdrawal? {
        let state = committed
        if state.users.contains(where: { $0.tokenHash == hash && $0.record.revokedAt != nil }) { return .revoked }
        return state.withdrawnTokens[hash]
    }

    public func withAccounts<R: Sendable>(_ access: AccountAccess,
                                          _ body: (any AccountTransaction) async throws -> (result: R, commit: Bool)) async throws -> R {
        try await write { state in
            let transaction = MemoryAccountTransaction(state: state)
            let (result, commit) = try await body(transaction)
            state = transaction.state
            return (result, commit)
        }
    }

    // MARK: SyncRulesStorage

    public func withTransaction<R: Sendable>(user: AuthenticatedUser, _ body: (MemorySyncTransaction) async throws -> (result: R, commit: Bool)) async throws -> R {
        try await write { state in
            let transaction = MemorySyncTransaction(user: user, state: state)
            let (result, commit) = try await body(transaction)
            state = transaction.state
            return (result, commit)
        }
    }

    public func changes(user: Int64, device: String, after: Int64, recordLimit: Int) async throws -> ChangeSnapshot {
        let state = committed
        let records = (state.records[user] ?? [:]).values.filter { $0.changeSeq > after }.sorted(by: RecordRow.pullOrder)
        return ChangeSnapshot(head: state.changeCounter[user] ?? 0, lastAppliedSeq: state.devices[DeviceKey(user: user, device: device)]?.lastAppliedSeq ?? 0,
                              records: records.prefix(recordLimit).map(\.pulled))
    }
}

/// The push primitives on a copy of the memory store's state (see `MemorySyncStorage.withTransaction`).
public final class MemorySyncTransaction: SyncStorageTransaction {
    public let user: AuthenticatedUser
    fileprivate var state: MemoryState

    fileprivate init(user: AuthenticatedUser, state: MemoryState) {
        self.user = user
        self.state = state
    }

    public func readPushState(device: String, plan: PushReadPlan) async throws -> PushState {
        let user = self.user.id
        var read = PushState(lastAppliedSeq: state.devices[DeviceKey(user: user, device: device)]?.lastAppliedSeq ?? 0,
                             head: state.changeCounter[user] ?? 0)
        read.account = state.users.first { $0.record.id == user }.map {
            AccountSnapshot(tokenHash: $0.tokenHash, revoked: $0.record.revokedAt != nil, keyVerifier: $0.keyVerifier)
        }
        read.knownDevice = state.devices[DeviceKey(user: user, device: device)] != nil
        read.devices = state.devices.keys.count { $0.user == user }
        let recorded = state.appliedKeys[user] ?? [:]
        for key in plan.keys { if let digest = recorded[key] { read.recordedKeys.updateValue(digest, forKey: key) } }
        let records = state.records[user] ?? [:]
        for row in plan.rows { read.stored[row] = records[row] }
        return read
    }

    public func writePush(_ writes: PushWrites, device: String, now: Int64) async throws -> Bool {
        let user = self.user.id
        for key in writes.keys { state.appliedKeys[user, default: [:]][key.key] = key.digest }
        for record in writes.records { state.records[user, default: [:]][record.row] = record }
        state.devices[DeviceKey(user: user, device: device)] = MemoryDevice(lastAppliedSeq: writes.lastAppliedSeq, lastSeenAt: now)
        state.changeCounter[user] = writes.head
        return true
    }
}

/// The account primitives on a copy of the memory store's state (see `MemorySyncStorage.withAccounts`).
final class MemoryAccountTransaction: AccountTransaction {
    fileprivate var state: MemoryState

    fileprivate init(state: MemoryState) { self.state = state }

    func account(named name: String) async throws -> StoredAccount? {
        // Names are unique case-insensitively, as on SQLite (NOCASE) and PostgreSQL (lower()).
        state.users.first { $0.record.name.lowercased() == name.lowercased() }?.stored
    }

    func account(id: Int64) async throws -> StoredAccount? {
        state.users.first { $0.record.id == id }?.stored
    }

    func insertAccount(name: String, tokenHash: String, now: Int64) async throws -> Int64? {
        guard try await account(named: name) == nil else { return nil }
        // A deleted user's id is not handed out again.
        state.lastUserID += 1
        state.users.append(MemoryUser(record: UserRecord(id: state.lastUserID, name: name, createdAt: now, revokedAt: nil), tokenHash: tokenHash))
        return state.lastUserID
    }

    func updateAccount(_ account: StoredAccount) async throws {
        guard let index = state.users.firstIndex(where: { $0.record.id == account.id }) else { return }
        state.users[index].record.revokedAt = account.revokedAt
        state.users[index].tokenHash = account.tokenHash
        state.users[index].keyVerifier = account.keyVerifier
        state.users[index].historyGeneration = account.historyGeneration
        state.users[index].generationWindowStart = account.generationWindowStart
        state.users[index].generationsInWindow = account.generationsInWindow
    }

    func withdrawToken(_ hash: String, _ reason: TokenWithdrawal) async throws {
        state.withdrawnTokens[hash] = reason
    }

    func deleteAccount(id: Int64) async throws {
        state.users.removeAll { $0.record.id == id }
        state.changeCounter[id] = nil
        state.devices = state.devices.filter { $0.key.user != id }
        state.appliedKeys[id] = nil
        state.records[id] = nil
    }

    func deleteRecords(userID: Int64) async throws -> Bool {
        defer { state.records[userID] = nil }
        return !(state.records[userID] ?? [:]).isEmpty
    }

    func deleteAppliedKeys(userID: Int64) async throws {
        state.appliedKeys[userID] = nil
    }
}

private struct MemoryUser {
    var record: UserRecord
    var tokenHash: String
    var historyGeneration: Int64 = 0
    var generationWindowStart: Int64 = 0
    var generationsInWindow = 0
    var keyVerifier: String?

    var stored: StoredAccount {
        StoredAccount(id: record.id, name: record.name, createdAt: record.createdAt, revokedAt: record.revokedAt, tokenHash: tokenHash,
                      keyVerifier: keyVerifier, historyGeneration: historyGeneration, generationWindowStart: generationWindowStart,
                      generationsInWindow: generationsInWindow)
    }
}

private struct DeviceKey: Hashable {
    var user: Int64
    var device: String
}

private struct MemoryDevice {
    var lastAppliedSeq: Int64
    var lastSeenAt: Int64
}

extension RecordRow {
    /// `UserUsage.storedBytes` of this record: its entity, id and stored text, as the SQL stores keep them.
    var storedBytes: Int64 {
        Int64(entity.utf8.count + entityID.utf8.count + RecordText.encode(fields).utf8.count)
    }
}

/// Everything the memory store holds, as tables keyed like the SQL schemas' primary keys.
private struct MemoryState {
    var users: [MemoryUser] = []
    var lastUserID: Int64 = 0
    var changeCounter: [Int64: Int64] = [:]
    var devices: [DeviceKey: MemoryDevice] = [:]
    /// Per user, each idempotency key and the digest of what it carried.
    var appliedKeys: [Int64: [String: String]] = [:]
    var records: [Int64: [RowKey: RecordRow]] = [:]
    /// Token hashes no user holds any more, and why (`withdrawn_tokens`).
    var withdrawnTokens: [String: TokenWithdrawal] = [:]
}
