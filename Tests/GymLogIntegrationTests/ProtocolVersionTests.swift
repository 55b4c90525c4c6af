import Foundation
import GymLogCore
import GymLogStore
import GymLogSyncClient
import GymLogTestSupport
import GymLogWire
import NIOConcurrencyHelpers
import Testing

/// Protocol v1 and v2 clients against the real `gymlog-server`: the same state either way,
/// v2's pages counted in records, and a v2 client that falls back to v1 against an old server.
@Suite(.serialized) struct ProtocolVersionTests {
    /// The paths a transport asked, by a real exchange that can play a server from before v2.
    final class RecordingExchange: Sendable {
        let paths = NIOLockedValueBox<[String]>([])
        let server: String
        /// Answers 404 `not_found` to every `/v2/...` path, as a server from before v2 does.
        let withoutV2: Bool

        init(server: String, withoutV2: Bool) { self.server = server; self.withoutV2 = withoutV2 }

        func transport(token: String, version: SyncProtocol = .newest, seal: ValueSeal?) -> HTTPSyncTransport {
            let real = HTTPSyncTransport.networkExchange(client: NetworkClients.systemTrust, server: server)
            var transport = HTTPSyncTransport(baseURL: URL(string: server)!, token: token, protocolVersion: version) { request in
                self.paths.withLockedValue { $0.append(request.url.path) }
                if self.withoutV2, request.url.path.hasPrefix("/v2/") {
                    let body = #"{"error":{"code":"not_found","message":"there is no GET \#(request.url.path) endpoint; see openapi.yaml for the API."}}"#
                    return (404, Data(body.utf8))
                }
                return try await real(request)
            }
            transport.keyVerifier = seal?.key.verifier
            return transport
        }

        var pulls: [String] { paths.withLockedValue { $0.filter { $0.hasSuffix("/pull") } } }
    }

    /// A device's database synced once with `transport`, pages of `limit`, opening values
    /// with `seal` (both versions carry them sealed).
    private func syncedCopy(_ transport: HTTPSyncTransport, seal: ValueSeal?, limit: Int) async throws -> (device: ClientDevice, report: SyncReport) {
        let device = try ClientDevice()
        let db = try GymLogDatabase(path: device.database)
        var engine = SyncEngine(replica: db, transport: transport)
        engine.seal = seal
        engine.pullLimit = limit
        return (device, try await engine.run())
    }

    @Test func v1AndV2ClientsPullTheSameStateAndV2CountsRecords() async throws {
        let server = try ServerInstance()
        let token = try server.addUser("versions")
        let a = try ClientDevice(server: server, token: token)
        try a.run(["log", "squat 140x5x40"])
        try a.run(["delete", "3"])
        try a.sync()

        let exchange = RecordingExchange(server: server.url, withoutV2: false)
        let seal = try #require(try a.home.valueSeal())
        let v1 = try await syncedCopy(exchange.transport(token: token, version: .v1, seal: seal), seal: seal, limit: 50)
        let v1Pulls = exchange.pulls
        let v2 = try await syncedCopy(exchange.transport(token: token, seal: seal), seal: seal, limit: 50)
        let v2Pulls = Array(exchange.pulls.dropFirst(v1Pulls.count))

        #expect(try v1.device.allSets() == a.allSets())
        #expect(try v2.device.allSets() == a.allSets())
        #expect(v1.report.parkedChanges == 0 && v2.report.parkedChanges == 0)
        // Both versions carried the values sealed: without the key they do not open
        let bare = try await pullEverything(exchange.transport(token: token, version: .v1, seal: seal), deviceID: "observer")
        let values = bare.pages.flatMap(\.changes).flatMap { $0.fields.values.map(\.v) }
        #expect(!values.isEmpty && values.allSatisfy { if case .text(let t) = $0 { AccountKey.looksSealed(t) } else { false } })
        #expect(try a.allSets().count == 40)
        #expect(Set(v1Pulls) == ["/v1/pull"] && Set(v2Pulls) == ["/v2/pull"])
        // 40 sets and their workout and exercise, each written by one event: one v2 page holds
        // 50 records, while v1's 50 field rows hold only a few sets a page.
        #expect(v2Pulls.count == 1, "v2 pages: \(v2Pulls.count)")
        #expect(v1Pulls.count > 5 * v2Pulls.count, "v1 pages: \(v1Pulls.count)")
    }

    @Test func aV2ClientFallsBackToV1AgainstAServerFromBeforeV2() async throws {
        let server = try ServerInstance()
        let token = try server.addUser("old-server")
        let a = try ClientDevice(server: server, token: token)
        try a.run(["log", "bench 100x5x3"])
        try a.sync()

        let old = RecordingExchange(server: server.url, withoutV2: true)
        let seal = try a.home.valueSeal()
        let transport = old.transport(token: token, seal: seal)
        let copy = try await syncedCopy(transport, seal: seal, limit: 1000)
        #expect(try copy.device.allSets() == a.allSets())
        #expect(transport.pullProtocol == .v1)
        // One v2 try, then v1 for the rest of the transport's life.
        #expect(old.pulls == ["/v2/pull", "/v1/pull"])
        _ = try await transport.pull(cursor: .start, limit: 10, deviceID: "observer")
        #expect(old.pulls.last == "/v1/pull" && old.pulls.filter { $0 == "/v2/pull" }.count == 1)
        #expect(copy.report.rebased == false)
    }

    @Test func theCapabilitiesListBothVersionsAndStillSayOneForOldClients() async throws {
        let server = try ServerInstance()
        let capabilities = try await HTTPSyncTransport(baseURL: URL(string: server.url)!, token: nil).capabilities()
        #expect(capabilities.protocolVersion == 1)
        #expect(capabilities.protocolVersions == SyncProtocol.allCases.map(\.rawValue))
        // A server from before v2 sends no list: it speaks its one version.
        let old = #"{"protocol_version":1,"max_body_bytes":1,"max_push_events":1,"max_pull_limit":1,"registration_open":false,"max_clock_ahead_ms":1}"#
        #expect(try JSONDecoder().decode(Capabilities.self, from: Data(old.utf8)).protocolVersions == [1])
    }
}
