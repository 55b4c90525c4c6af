import Foundation
import GymLogCore
import GymLogTestSupport
@testable import GymLogServer
@testable import GymLogServerCore
import GymLogWire
import GymLogSyncClient
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTPSyncTransport against the live server")
struct LiveTransportTests {
    @Test func transportRoundTrip() async throws {
        try await Harness.with(configure: { $0.openRegistration = true }) { h in
            try await h.live { client in
                let base = URL(string: "http://127.0.0.1:\(client.port!)")!
                let anonymous = HTTPSyncTransport(baseURL: base, token: nil)
                #expect(try await anonymous.health().status == "ok")
                #expect(try await anonymous.capabilities().protocolVersion == syncProtocolVersion)
                let account = try await anonymous.register(name: "carol")

                // Given two devices of one user...
                let a = Device(), b = Device()
                let transport = HTTPSyncTransport(baseURL: base, token: account.token)
                let events = [
                    PushEvent(seq: 1, idempotencyKey: UUID().uuidString, entity: .sets, entityID: "s1", op: .create,
                              changes: [FieldChange("reps", .int(5), a.clock(testNow - 5)), FieldChange("note", .text("héllo \"q\"\n"), a.clock(testNow - 5))]),
                    PushEvent(seq: 2, idempotencyKey: UUID().uuidString, entity: .sets, entityID: "s1", op: .delete,
                              changes: [FieldChange("deleted_at", .int(testNow - 1), a.clock(testNow - 1))]),
                ]
                // ...when A pushes, then B pulls the same state.
                let pushed = try await transport.push(PushRequest(deviceID: a.id, events: events))
                #expect(pushed.lastAppliedSeq == 2 && pushed.results.allSatisfy { $0.status == .applied })
                let page = try await transport.pull(cursor: .start, limit: 10, deviceID: b.id)
                #expect(page.lastAppliedSeq == 0 && !page.hasMore)
                #expect(page.changes.count == 1)
                #expect(page.changes[0].changes == [
                    FieldChange("deleted_at", .int(testNow - 1), a.clock(testNow - 1)),
                    FieldChange("note", .text("héllo \"q\"\n"), a.clock(testNow - 5)),
                    FieldChange("reps", .int(5), a.clock(testNow - 5)),
                ])
                let cursor = try #require(SyncCursor(page.cursor))
                #expect(cursor.epoch == pushed.epoch && cursor.position == 2)
                let empty = try await transport.pull(cursor: cursor, limit: nil, deviceID: a.id)
                #expect(empty.changes.isEmpty && empty.lastAppliedSeq == 2)

                // Errors: a gap carries the server's code, message and ack.
                do {
                    _ = try await transport.push(PushRequest(deviceID: a.id, events: [PushEvent(seq: 9, idempotencyKey: "k", entity: "sets", entityID: "x", op: "update", fields: [:])]))
                    Issue.record("a gap must throw")
                } catch let error as SyncTransportError {
                    guard case .server(409, let body) = error else { Issue.record("unexpected \(error)"); return }
                    #expect(error.code == "sequence_gap" && body.lastAppliedSeq == 2)
                    #expect(error.description.contains("resend starting at seq 3"))
                }
                // A bad token says to log in again.
                do {
                    _ = try await HTTPSyncTransport(baseURL: base, token: "glt_wrong").pull(cursor: .start, limit: nil, deviceID: a.id)
                    Issue.record("a bad token must throw")
                } catch let error as SyncTransportError {
                    #expect(error == .unauthorized(server: base.absoluteString))
                    #expect(error.description.contains("gymlog login"))
                }
            }
        }
    }

    @Test func unreachableServer() async throws {
        // Port 9 (discard) on loopback is closed on test machines: connection refused.
        let base = URL(string: "http://127.0.0.1:9")!
        do {
            _ = try await HTTPSyncTransport(baseURL: base, token: "t", timeout: 5).capabilities()
            Issue.record("must not reach a closed port")
        } catch let error as SyncTransportError {
            guard case .unreachable = error else { Issue.record("unexpected \(error)"); return }
            #expect(error.description.hasPrefix("cannot reach the sync server at http://127.0.0.1:9"))
        }
    }
}
