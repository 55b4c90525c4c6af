import Foundation
import GymLogCore

/// `SyncStorage` in memory: the sync rules over the smallest possible primitives, for fast
/// tests (the conformance suite runs it beside SQLite and PostgreSQL). Nothing is persisted.
///
/// Writes run one at a time on a copy of the state that replaces it on commit, so a rolled
/// back push leaves nothing behind; reads see the last committed state.
public final class MemorySyncStorage: SyncRulesStorage, @unchecked Sendable {
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

    public func createUser(name: String, tokenHash: String, now: Int64) async throws -> UserRecord {
        try await write { state in
            // Names are unique case-insensitively, as on SQLite (NOCASE) and PostgreSQL (lower()).
            guard !state.users.contains(where: { $0.record.name.lowercased() == name.lowercased() }) else { throw StorageError.userExists(name) }
            let record = UserRecord(id: Int64(state.users.count + 1), name: name, createdAt: now, revokedAt: nil)
            state.users.append(MemoryUser(record: record, tokenHash: tokenHash))
            return (record, true)
        }
    }

    public func listUsers() async throws -> [UserRecord] { committed.users.map(\.record) }

    public func revokeUser(name: String, now: Int64) async throws -> UserRecord {
        try await write { state in
            guard let index = state.users.firstIndex(where: { $0.record.name.lowercased() == name.lowercased() }) else {
                throw StorageError.noSuchUser(name)
            }
            if state.users[index].record.revokedAt == nil { state.users[index].record.revokedAt = now }
            return (state.users[index].record, true)
        }
    }

    public func userForTokenHash(_ hash: String) async throws -> AuthenticatedUser? {
        committed.users.first { $0.tokenHash == hash && $0.record.revokedAt == nil }.map {
            AuthenticatedUser(id: $0.record.id, name: $0.record.name, historyGeneration: $0.historyGeneration)
        }
    }

    public func startNewHistoryGeneration(user: AuthenticatedUser) async throws -> Int64 {
        try await write { state in
            guard let index = state.users.firstIndex(where: { $0.record.id == user.id }) else { return (0, false) }
            state.users[index].historyGeneration += 1
            return (state.users[index].historyGeneration, true)
        }
    }

    // MARK: SyncRulesStorage

    public func withTransaction<R: Sendable>(user: Int64, _ body: (MemorySyncTransaction) async throws -> (result: R, commit: Bool)) async throws -> R {
        try await write { state in
            let transaction = MemorySyncTransaction(user: user, state: state)
            let (result, commit) = try await body(transaction)
            state = transaction.state
            return (result, commit)
        }
    }

    public func changes(user: Int64, device: String, after: Int64, rowLimit: Int) async throws -> ChangeSnapshot {
        let state = committed
        let rows = (state.fields[user] ?? [:]).compactMap { key, stored -> ChangeRow? in
            guard stored.changeSeq > after else { return nil }
            return ChangeRow(row: key.row, field: key.field, value: stored.value, clock: stored.clock, changeSeq: stored.changeSeq)
        }.sorted(by: ChangeRow.pullOrder)
        return ChangeSnapshot(head: state.changeCounter[user] ?? 0, lastAppliedSeq: state.devices[DeviceKey(user: user, device: device)] ?? 0,
                              rows: Array(rows.prefix(rowLimit)))
    }
}

/// The push primitives on a copy of the memory store's state (see `MemorySyncStorage.withTransaction`).
public final class MemorySyncTransaction: SyncStorageTransaction {
    let user: Int64
    fileprivate var state: MemoryState

    fileprivate init(user: Int64, state: MemoryState) {
        self.user = user
        self.state = state
    }

    public func lockCounters(device: String) async throws -> (lastAppliedSeq: Int64, changeCounter: Int64) {
        (state.devices[DeviceKey(user: user, device: device)] ?? 0, state.changeCounter[user] ?? 0)
    }

    public func recordIdempotencyKeys(_ keys: [String]) async throws -> Set<String> {
        var new: Set<String> = []
        for key in keys where state.appliedKeys[user, default: []].insert(key).inserted { new.insert(key) }
        return new
    }

    public func storedClocks(_ rows: [RowKey]) async throws -> [RowKey: [String: String]] {
        let wanted = Set(rows)
        var stored: [RowKey: [String: String]] = [:]
        for (key, field) in state.fields[user] ?? [:] where wanted.contains(key.row) {
            stored[key.row, default: [:]][key.field] = field.clock
        }
        return stored
    }

    public func writeFields(_ writes: [ChangeRow]) async throws {
        for write in writes {
            state.fields[user, default: [:]][MemoryFieldKey(row: write.row, field: write.field)] =
                MemoryField(value: write.value, clock: write.clock, changeSeq: write.changeSeq)
        }
    }

    public func setLastAppliedSeq(_ seq: Int64, device: String, now: Int64) async throws {
        state.devices[DeviceKey(user: user, device: device)] = seq
    }

    public func setChangeCounter(_ value: Int64) async throws {
        state.changeCounter[user] = value
    }
}

private struct MemoryUser {
    var record: UserRecord
    var tokenHash: String
    var historyGeneration: Int64 = 0
}

private struct DeviceKey: Hashable {
    var user: Int64
    var device: String
}

private struct MemoryFieldKey: Hashable {
    var row: RowKey
    var field: String
}

private struct MemoryField {
    var value: FieldValue
    var clock: String
    var changeSeq: Int64
}

/// Everything the memory store holds, as tables keyed like the SQL schemas' primary keys.
private struct MemoryState {
    var users: [MemoryUser] = []
    var changeCounter: [Int64: Int64] = [:]
    var devices: [DeviceKey: Int64] = [:]
    var appliedKeys: [Int64: Set<String>] = [:]
    var fields: [Int64: [MemoryFieldKey: MemoryField]] = [:]
}
