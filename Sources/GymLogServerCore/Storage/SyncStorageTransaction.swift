import Foundation
import GymLogCore
import GymLogWire

/// One row (entity, entity_id) of a user's merged state.
public struct RowKey: Hashable, Sendable {
    public var entity: String
    public var entityID: String

    public init(entity: String, entityID: String) {
        self.entity = entity
        self.entityID = entityID
    }
}

/// One record of a user's merged state, stored as ONE row: what the push rules write
/// (the whole record after the merge) and what a pull reads back. Its `changeSeq` is the
/// change counter value of the last event that wrote any of its fields; an event writes one
/// record, so no two records of a user share one, and a pull reads records in that order.
public struct RecordRow: Hashable, Sendable {
    public var row: RowKey
    public var changeSeq: Int64
    /// Sorted by name, compared bytewise (`StoredField.nameOrder`); names are unique.
    public var fields: [StoredField]

    public var entity: String { row.entity }
    public var entityID: String { row.entityID }

    public init(row: RowKey, changeSeq: Int64, fields: [StoredField]) {
        self.row = row; self.changeSeq = changeSeq; self.fields = fields
    }

    public init(entity: String, entityID: String, changeSeq: Int64, fields: [StoredField]) {
        self.init(row: RowKey(entity: entity, entityID: entityID), changeSeq: changeSeq, fields: fields)
    }
}

/// What a pull reads from ONE snapshot of the store: the user's change counter, the device's
/// acknowledged seq, and the first records after a cursor, as stored, in `RecordRow.pullOrder`.
public struct ChangeSnapshot: Hashable, Sendable {
    public var head: Int64
    public var lastAppliedSeq: Int64
    public var records: [PulledRecord]

    public init(head: Int64, lastAppliedSeq: Int64, records: [PulledRecord]) {
        self.head = head; self.lastAppliedSeq = lastAppliedSeq; self.records = records
    }
}

extension RecordRow {
    /// The one pull order of every backend: the change counter, unique per record of a user
    /// (entity and id, bytewise, only order a hand-made snapshot in tests).
    public static func pullOrder(_ a: RecordRow, _ b: RecordRow) -> Bool {
        if a.changeSeq != b.changeSeq { return a.changeSeq < b.changeSeq }
        if a.entity != b.entity { return a.entity.utf8.lexicographicallyPrecedes(b.entity.utf8) }
        return a.entityID.utf8.lexicographicallyPrecedes(b.entityID.utf8)
    }

    /// The record as stored and pulled.
    public var pulled: PulledRecord {
        PulledRecord(entity: entity, entityID: entityID, changeSeq: changeSeq, text: RecordText.encode(fields))
    }
}

/// An idempotency key and the digest of what its event carried (`SyncRules.digest`).
public struct IdempotencyKey: Hashable, Sendable {
    public var key: String
    public var digest: String

    public init(key: String, digest: String) { self.key = key; self.digest = digest }
}

/// Which of a batch's keys are recorded now and what the others carried (`SyncRules.merge`'s input,
/// made by `SyncRules.decide` from `PushState.recordedKeys`).
public struct RecordedKeys: Hashable, Sendable {
    /// Keys this push records, for the first time.
    public var new: Set<String> = []
    /// The digest stored with each key recorded before (absent for a key recorded before
    /// digests were kept: it counts as the same content).
    public var digests: [String: String] = [:]

    public init(new: Set<String> = [], digests: [String: String] = [:]) { self.new = new; self.digests = digests }
}

/// What `SyncRules.push` reads before it decides (`SyncRules.readPlan`).
public struct PushReadPlan: Hashable, Sendable {
    /// The distinct idempotency keys of the batch's valid events.
    public var keys: [String]
    /// The distinct rows the batch's valid events write.
    public var rows: [RowKey]

    public init(keys: [String], rows: [RowKey]) { self.keys = keys; self.rows = rows }
}

/// The pushing user's row as a push's snapshot holds it: what `SyncRules.push` checks the
/// request's authentication against, inside the write (`SyncRules.checkAuthentication`).
public struct AccountSnapshot: Hashable, Sendable {
    /// The hash of the user's token now.
    public var tokenHash: String
    public var revoked: Bool
    /// The account key's verifier now.
    public var keyVerifier: String?

    public init(tokenHash: String, revoked: Bool, keyVerifier: String?) {
        self.tokenHash = tokenHash; self.revoked = revoked; self.keyVerifier = keyVerifier
    }
}

/// What the store holds for a push, read from ONE snapshot (`SyncStorageTransaction.readPushState`).
public struct PushState: Hashable, Sendable {
    /// The user's row; nil when the user was deleted.
    public var account: AccountSnapshot?
    /// The device's last applied seq (0 for a new device).
    public var lastAppliedSeq: Int64
    /// The user's change counter.
    public var head: Int64
    /// Each of the plan's keys the user already recorded, with the digest stored beside it
    /// (nil for a key recorded before digests were kept: it counts as the same content).
    public var recordedKeys: [String: String?]
    /// The stored record of each of the plan's rows that has one.
    public var stored: [RowKey: RecordRow]
    /// Whether the device pushed before (it has a row), and how many devices the user has:
    /// read in the push's transaction, so racing new devices cannot pass the cap together.
    public var knownDevice = false
    public var devices = 0

    public init(lastAppliedSeq: Int64, head: Int64, recordedKeys: [String: String?] = [:], stored: [RowKey: RecordRow] = [:]) {
        self.lastAppliedSeq = lastAppliedSeq; self.head = head; self.recordedKeys = recordedKeys; self.stored = stored
    }
}

/// What a decided push stores, all or nothing.
public struct PushWrites: Hashable, Sendable {
    /// Idempotency keys recorded for the first time, each with its event's digest.
    public var keys: [IdempotencyKey]
    /// Each record the batch changed, whole, as it stands after the batch (one per row),
    /// replacing the stored one.
    public var records: [RecordRow]
    /// The device's last applied seq afterwards.
    public var lastAppliedSeq: Int64
    /// The user's change counter afterwards.
    public var head: Int64
    /// The change counter the decision was made on (`PushState.head`).
    public var headBefore: Int64
}

/// `SyncRules.decide`'s answer.
public enum PushDecision: Hashable, Sendable {
    /// An event skipped a seq: nothing is written.
    case gap(lastAppliedSeq: Int64, got: Int64)
    /// Store `writes`, then answer `outcome`.
    case apply(PushWrites, PushOutcome)
}

/// The storage side of one push of one user: one read, then one write of what `SyncRules`
/// decided (the `StorageTxn` of taskchampion-sync-server's core, cut to the two steps a
/// round trip each can carry on PostgreSQL).
///
/// Each call is a batch, so a push costs a fixed number of statements however many events
/// it holds. A store that locks the user first (memory, SQLite, PostgreSQL's fallback) runs
/// both inside one transaction; PostgreSQL's optimistic push runs them as two autocommit
/// statements, the write checking that nothing of the user changed since the read.
public protocol SyncStorageTransaction {
    /// The user the push was authenticated as.
    var user: AuthenticatedUser { get }
    /// Reads from ONE snapshot the user's row (`AccountSnapshot`), the device's last applied
    /// seq, the user's change counter, which of `plan.keys` the user recorded before (and
    /// their digests), and the stored record of each of `plan.rows`.
    func readPushState(device: String, plan: PushReadPlan) async throws -> PushState
    /// Stores `writes`: records the keys, writes the records, sets the device's last applied seq
    /// (and when it was last seen) and the user's change counter, all or nothing. Returns
    /// false, having written nothing, when the user's data changed since `readPushState`
    /// (only an optimistic store can see that, and checks there that the token still holds;
    /// a locking one always answers true).
    func writePush(_ writes: PushWrites, device: String, now: Int64) async throws -> Bool
}

/// A store whose push and pull are `SyncRules` over its primitives: it only says how to run
/// a transaction and how to read a page of changes.
public protocol SyncRulesStorage: SyncStorage {
    associatedtype Transaction: SyncStorageTransaction
    /// Runs `body` in one transaction of `user`'s data; commits when it answers `commit`,
    /// rolls back otherwise or when it throws.
    func withTransaction<R: Sendable>(user: AuthenticatedUser, _ body: (Transaction) async throws -> (result: R, commit: Bool)) async throws -> R
    /// From one snapshot: the user's change counter, the device's last applied seq, and at
    /// most `recordLimit` records with change counter > `after`, in `RecordRow.pullOrder`.
    func changes(user: Int64, device: String, after: Int64, recordLimit: Int) async throws -> ChangeSnapshot
}

extension SyncRulesStorage {
    /// `SyncRules.push` in one transaction (`pushLocked`).
    public func push(user: AuthenticatedUser, deviceID: String, items: [PushItem], now: Int64, deviceLimit: Int) async throws -> PushOutcome {
        try await pushLocked(user: user, deviceID: deviceID, items: items, now: now, deviceLimit: deviceLimit)
    }

    /// `SyncRules.push` in one transaction of the user's data; a sequence gap or a device
    /// past the cap commits nothing.
    public func pushLocked(user: AuthenticatedUser, deviceID: String, items: [PushItem], now: Int64, deviceLimit: Int) async throws -> PushOutcome {
        try await withTransaction(user: user) { (transaction: Transaction) async throws -> (result: PushOutcome, commit: Bool) in
            // The transaction holds the user's data: the writes cannot find it changed.
            guard let outcome = try await SyncRules.push(transaction, deviceID: deviceID, items: items, now: now, deviceLimit: deviceLimit) else {
                throw StorageError.notReady("the \(backend) store refused a push's writes inside its own transaction; nothing was written. This is a bug: please report it.")
            }
            guard case .completed = outcome else { return (outcome, false) }
            return (outcome, true)
        }
    }

    /// `SyncRules.page` over one snapshot of the store.
    public func pull(user: AuthenticatedUser, deviceID: String, after: Int64, since: Int64, limit: PullLimit, maxBytes: Int) async throws -> PullPage {
        let snapshot = try await changes(user: user.id, device: deviceID, after: after, recordLimit: SyncRules.recordsToRead(limit: limit))
        do {
            return try SyncRules.page(snapshot, after: after, since: since, limit: limit, maxBytes: maxBytes)
        } catch let error as RecordText.Unreadable {
            throw StorageError.unreadable(error)
        }
    }
}

extension StorageError {
    /// A stored record's text that does not read: the database was changed by hand or is damaged.
    package static func unreadable(_ error: RecordText.Unreadable) -> StorageError {
        .notReady("a stored record is not readable (\(error.description)); the database was changed by hand or is damaged. Restore it from a backup (`gymlog-server restore`).")
    }
}
