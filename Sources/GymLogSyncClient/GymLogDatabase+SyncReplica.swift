import Foundation
import GymLogCore
import GymLogStore
import GymLogWire

/// The client database is the sync engine's replica: the requirements that `GymLogStore`
/// does not already meet by name are here.
extension GymLogDatabase: SyncReplica {
    public func currentDeviceID() throws -> String { try syncState().deviceID }

    public func syncPosition() throws -> (epoch: String?, cursor: Int64, ackedSeq: Int64) {
        let s = try syncState()
        return (s.epoch, s.cursor, s.ackedSeq)
    }

    public func apply(_ changes: [PullChange], refused: [RefusedChange], epoch: String, cursor: Int64,
                      pulledThrough: Int64?) throws -> (written: Int, kept: Int, parked: Int) {
        let remote = changes.map { RemoteChange(entity: $0.entity, entityID: $0.entityID, fields: $0.changes) }
            + refused.map { RemoteChange(entity: $0.change.entity, entityID: $0.change.entityID, fields: [], refusal: $0.reason) }
        let stats = try applyPulled(remote, epoch: epoch, cursor: cursor, pulledThrough: pulledThrough)
        return (stats.fieldsWritten, stats.fieldsKept, stats.parked)
    }

    public func pending(after seq: Int64, limit: Int) throws -> [PushEvent] {
        try pendingEvents(after: seq, limit: limit)
    }
}
