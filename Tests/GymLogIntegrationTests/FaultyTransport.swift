import Foundation
import GymLogCore
import GymLogSyncClient
import GymLogWire

/// A transport that breaks one way, as a network does: a push the server commits whose answer
/// is lost, a push that never leaves, a pull whose answer is cut off.
struct FaultyTransport: SyncTransport {
    enum Fault: CaseIterable { case answerLost, neverSent, pullCut }
    let inner: HTTPSyncTransport
    let fault: Fault

    func push(_ request: PushRequest) async throws -> PushResponse {
        switch fault {
        case .neverSent: throw SyncTransportError.unreachable(server: "model", reason: "connection refused")
        case .answerLost:
            _ = try await inner.push(request)
            throw SyncTransportError.unreachable(server: "model", reason: "connection reset")
        case .pullCut: return try await inner.push(request)
        }
    }
    func pull(cursor: SyncCursor, limit: Int?, deviceID: String, ackedSeq: Int64?) async throws -> PullResponse {
        try await pull(cursor: cursor, limit: limit, deviceID: deviceID, ackedSeq: ackedSeq, since: nil)
    }
    func pull(cursor: SyncCursor, limit: Int?, deviceID: String, ackedSeq: Int64?, since: Int64?) async throws -> PullResponse {
        if fault == .pullCut { throw SyncTransportError.unreachable(server: "model", reason: "connection reset while reading") }
        return try await inner.pull(cursor: cursor, limit: limit, deviceID: deviceID, ackedSeq: ackedSeq, since: since)
    }
    func capabilities() async throws -> Capabilities { try await inner.capabilities() }
}
