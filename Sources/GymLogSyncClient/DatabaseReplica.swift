import Foundation
import GymLogCore
import GymLogStore
import GymLogWire

/// `GymLogDatabase` as the sync engine's replica.
public struct DatabaseReplica: SyncReplica {
    public let db: GymLogDatabase
    public var deviceID: String { db.deviceID }

    public init(db: GymLogDatabase) { self.db = db }

    public func syncPosition() throws -> (epoch: String?, cursor: Int64, ackedSeq: Int64) {
        let s = try db.replicaState()
        return (s.epoch, s.cursor, s.ackedSeq)
    }

    public func apply(_ changes: [PullChange], epoch: String, cursor: Int64) throws -> (written: Int, kept: Int) {
        let stats = try db.applyPulled(changes.map { RemoteChange(entity: $0.entity, entityID: $0.entityID, fields: $0.changes) },
                                       epoch: epoch, cursor: cursor)
        return (stats.fieldsWritten, stats.fieldsKept)
    }

    public func pending(after seq: Int64, limit: Int) throws -> [PushEvent] {
        try db.pendingEvents(after: seq, limit: limit).map {
            PushEvent(seq: $0.seq, idempotencyKey: $0.idempotencyKey, entity: $0.entity, entityID: $0.entityID, op: $0.op,
                      fields: Dictionary(uniqueKeysWithValues: $0.fields.map { ($0.name, WireField(v: $0.value, c: $0.clock)) }))
        }
    }

    public func unparkDueEvents() throws { try db.unparkDueEvents() }
    public func acknowledge(lastAppliedSeq: Int64, rejected: [Int64: String]) throws { try db.acknowledge(lastAppliedSeq: lastAppliedSeq, rejected: rejected) }
    public func rebase(epoch: String, nextSeq: Int64) throws { try db.rebase(epoch: epoch, nextSeq: nextSeq) }
    public var wallClock: Int64 { db.wallClock }
    public func restampClocks(after limit: Int64) throws -> Int { try db.restampClocks(after: limit) }
}
