import Foundation
import GymLogCore

/// One row (entity, entity_id) of a user's merged state.
public struct RowKey: Hashable, Sendable {
    public var entity: String
    public var entityID: String

    public init(entity: String, entityID: String) {
        self.entity = entity
        self.entityID = entityID
    }
}

/// One stored field row of a user's merged state: what the push rules write (replacing what the
/// store holds for that field) and what a pull reads back.
public struct ChangeRow: Hashable, Sendable {
    public var row: RowKey
    public var field: String
    public var value: FieldValue
    /// The winning clock's canonical text.
    public var clock: String
    /// The user's change counter value of the event that wrote it.
    public var changeSeq: Int64

    public var entity: String { row.entity }
    public var entityID: String { row.entityID }

    public init(row: RowKey, field: String, value: FieldValue, clock: String, changeSeq: Int64) {
        self.row = row; self.field = field; self.value = value; self.clock = clock; self.changeSeq = changeSeq
    }

    public init(entity: String, entityID: String, field: String, value: FieldValue, clock: String, changeSeq: Int64) {
        self.init(row: RowKey(entity: entity, entityID: entityID), field: field, value: value, clock: clock, changeSeq: changeSeq)
    }
}

/// What a pull reads from ONE snapshot of the store: the user's change counter, the device's
/// acknowledged seq, and the first field rows after a cursor in `ChangeRow.pullOrder`.
public struct ChangeSnapshot: Hashable, Sendable {
    public var head: Int64
    public var lastAppliedSeq: Int64
    public var rows: [ChangeRow]

    public init(head: Int64, lastAppliedSeq: Int64, rows: [ChangeRow]) {
        self.head = head; self.lastAppliedSeq = lastAppliedSeq; self.rows = rows
    }
}

extension ChangeRow {
    /// The one pull order of every backend: change counter, then entity, entity id and field
    /// compared bytewise (SQLite's BINARY, PostgreSQL's COLLATE "C").
    public static func pullOrder(_ a: ChangeRow, _ b: ChangeRow) -> Bool {
        if a.changeSeq != b.changeSeq { return a.changeSeq < b.changeSeq }
        if a.entity != b.entity { return a.entity.utf8.lexicographicallyPrecedes(b.entity.utf8) }
        if a.entityID != b.entityID { return a.entityID.utf8.lexicographicallyPrecedes(b.entityID.utf8) }
        return a.field.utf8.lexicographicallyPrecedes(b.field.utf8)
    }
}

/// An idempotency key and the digest of what its event carried (`SyncRules.digest`).
public struct IdempotencyKey: Hashable, Sendable {
    public var key: String
    public var digest: String

    public init(key: String, digest: String) { self.key = key; self.digest = digest }
}

/// What `recordIdempotencyKeys` found.
public struct RecordedKeys: Hashable, Sendable {
    /// Keys recorded now, for the first time.
    public var new: Set<String> = []
    /// The digest stored with each key recorded before (absent for a key recorded before
    /// digests were kept: it counts as the same content).
    public var digests: [String: String] = [:]

    public init(new: Set<String> = [], digests: [String: String] = [:]) { self.new = new; self.digests = digests }
}

/// The storage primitives of one push, inside ONE transaction of one user: what `SyncRules.push`
/// calls and every backend implements (the `StorageTxn` of taskchampion-sync-server's core).
///
/// Each call is a batch, so a push costs a fixed number of statements (round trips on
/// PostgreSQL) however many events it holds.
public protocol SyncStorageTransaction {
    /// Locks the user's change counter until the transaction ends (pushes of one user run one
    /// at a time, on any instance), then reads it and the device's last applied seq (0 for a
    /// new device). Called first.
    func lockCounters(device: String) async throws -> (lastAppliedSeq: Int64, changeCounter: Int64)
    /// Records idempotency keys (distinct) for the user, each with the digest of what it
    /// carried; returns the ones not recorded before, and the stored digest of the others.
    func recordIdempotencyKeys(_ keys: [IdempotencyKey]) async throws -> RecordedKeys
    /// The stored clock text of every field of these rows (distinct), by row and field name.
    func storedClocks(_ rows: [RowKey]) async throws -> [RowKey: [String: String]]
    /// Stores these fields (one write per field), replacing value, clock and change counter.
    func writeFields(_ writes: [ChangeRow]) async throws
    /// Stores the device's last applied seq and when it was last seen.
    func setLastAppliedSeq(_ seq: Int64, device: String, now: Int64) async throws
    /// Stores the user's change counter.
    func setChangeCounter(_ value: Int64) async throws
}

/// A store whose push and pull are `SyncRules` over its primitives: it only says how to run
/// a transaction and how to read a page of changes.
public protocol SyncRulesStorage: SyncStorage {
    associatedtype Transaction: SyncStorageTransaction
    /// Runs `body` in one transaction of `user`'s data; commits when it answers `commit`,
    /// rolls back otherwise or when it throws.
    func withTransaction<R: Sendable>(user: Int64, _ body: (Transaction) async throws -> (result: R, commit: Bool)) async throws -> R
    /// From one snapshot: the user's change counter, the device's last applied seq, and at
    /// most `rowLimit` field rows with change counter > `after`, in `ChangeRow.pullOrder`.
    func changes(user: Int64, device: String, after: Int64, rowLimit: Int) async throws -> ChangeSnapshot
}

extension SyncRulesStorage {
    /// `SyncRules.push` in one transaction; a sequence gap commits nothing.
    public func push(user: AuthenticatedUser, deviceID: String, items: [PushItem], now: Int64) async throws -> PushOutcome {
        try await withTransaction(user: user.id) { (transaction: Transaction) async throws -> (result: PushOutcome, commit: Bool) in
            let outcome = try await SyncRules.push(transaction, deviceID: deviceID, items: items, now: now)
            if case .sequenceGap = outcome { return (outcome, false) }
            return (outcome, true)
        }
    }

    /// `SyncRules.page` over one snapshot of the store.
    public func pull(user: AuthenticatedUser, deviceID: String, after: Int64, limit: PullLimit, maxBytes: Int) async throws -> PullPage {
        let rowLimit = SyncRules.rowsToRead(limit: limit)
        let snapshot = try await changes(user: user.id, device: deviceID, after: after, rowLimit: rowLimit)
        return SyncRules.page(snapshot, after: after, limit: limit, maxBytes: maxBytes, readComplete: snapshot.rows.count < rowLimit)
    }
}
