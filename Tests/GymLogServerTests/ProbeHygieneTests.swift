import Foundation
import GymLogCore
@testable import GymLogServer
@testable import GymLogServerCore
import GymLogTestSupport
import GymLogWire
import Testing

/// Issue 27's hygiene items at the HTTP layer, against the real `gymlog-server` binary over
/// real sockets: requests that two readers (a proxy and the server) could read differently
/// are refused rather than read first-wins.
@Suite("Probe hygiene (issue 27)")
struct ProbeHygieneTests {
    @Test func ambiguousRequestsAreRefused() async throws {
        let server = try ServerInstance()
        let port = try SlowClientTests.port(server)
        let token = try server.addUser("alice")
        func get(_ target: String, host: String = "Host: 127.0.0.1\r\n") async throws -> HostileRawHTTP.Response {
            try await HostileRawHTTP.Connection(port: port).exchange(
                "GET \(target) HTTP/1.1\r\n\(host)Authorization: Bearer \(token)\r\nConnection: close\r\n\r\n")
        }
        // Given a pull that is answered as it should be
        #expect(try await get("/v1/pull?device_id=phone&limit=5").status == 200)
        // When a parameter comes twice, then it is 400 invalid_query naming it
        let twice = try await get("/v1/pull?device_id=phone&limit=5&limit=5000")
        #expect(twice.status == 400 && twice.error?.error.code == "invalid_query", "\(twice.head)")
        #expect(twice.error?.error.message.contains("\"limit\"") == true)
        let twiceDevice = try await get("/v1/pull?device_id=phone&device_id=laptop")
        #expect(twiceDevice.status == 400 && twiceDevice.error?.error.code == "invalid_query")
        // When a number carries a sign, then it is 400 like any other malformed number
        for target in ["/v1/pull?device_id=phone&limit=+5", "/v1/pull?device_id=phone&acked_seq=+1", "/v2/pull?device_id=phone&limit=%2B5"] {
            let signed = try await get(target)
            #expect(signed.status == 400, "\(target): \(signed.head)")
            #expect(["invalid_limit", "invalid_acked_seq"].contains(signed.error?.error.code ?? ""), "\(target)")
        }
        // When a request has two Host headers, then it is 400 (RFC 9112 3.2), even for /healthz
        let twoHosts = try await get("/healthz", host: "Host: 127.0.0.1\r\nHost: evil.example\r\n")
        #expect(twoHosts.status == 400 && twoHosts.error?.error.code == "bad_request", "\(twoHosts.head)")
        #expect(try await get("/healthz").status == 200)
    }

    /// One token made 20,000 device rows; past `--max-devices-per-user`, a new device's push
    /// is 403 too_many_devices and writes nothing, while the known devices keep pushing.
    @Test func aPushFromOneDeviceTooManyIsRefused() async throws {
        try await Harness.with(.sqlite, configure: { $0.maxDevicesPerUser = 2 }) { h in
            let token = try await h.addUser("alice")
            try await h.router { client in
                let devices = [Device(), Device(), Device()]
                for (n, device) in devices.prefix(2).enumerated() {
                    let pushed = try await client.push(token, device: device, [event(1, "s\(n)", ["reps": (.int(5), device.clock(testNow - 9))])])
                    #expect(pushed.status == .ok)
                }
                let third = try await client.push(token, device: devices[2], [event(1, "s9", ["reps": (.int(5), devices[2].clock(testNow - 8))])])
                _ = try expectError(third, .forbidden, "too_many_devices")
                let again = try await client.push(token, device: devices[0], [event(2, "s7", ["reps": (.int(6), devices[0].clock(testNow - 7))])])
                #expect(again.status == .ok)
                #expect(try await h.storage.listUsers().first?.usage.devices == 2)
            }
        }
    }
}
