import Foundation
import GymLogCore
@testable import GymLogServer
@testable import GymLogServerCore
import GymLogWire
import GymLogTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Endpoints and error codes")
struct EndpointTests {
    @Test(arguments: Backend.conformance) func healthzAndCapabilities(_ backend: Backend) async throws {
        try await Harness.with(backend, configure: { $0.maxBodyBytes = 123_456; $0.maxClockAheadSeconds = 60 }) { h in
            try await h.router { client in
                let health = try await client.execute(uri: "/healthz", method: .get)
                #expect(health.status == .ok)
                #expect(try decodeBody(health, as: HealthStatus.self).status == "ok")

                let caps: Capabilities = try decodeBody(try await client.execute(uri: "/v1/capabilities", method: .get))
                #expect(caps == Capabilities(protocolVersion: 1, protocolVersions: [1, 2], maxBodyBytes: 123_456, maxPushEvents: 5000,
                                             maxPullLimit: 5000, registrationOpen: false, maxClockAheadMs: 60_000,
                                             serverVersion: gymlogVersion))
            }
        }
    }

    @Test(arguments: Backend.conformance) func unknownRouteIsJSON404AndWrongMethod405(_ backend: Backend) async throws {
        try await Harness.with(backend) { h in
            try await h.router { client in
                let missing = try await client.execute(uri: "/v2/push", method: .get)
                try expectError(missing, .notFound, "not_found")
                #expect(missing.headers[.allow] == nil)
                let wrongMethod = try await client.execute(uri: "/v1/push", method: .get)
                let body = try expectError(wrongMethod, .methodNotAllowed, "method_not_allowed")
                #expect(wrongMethod.headers[.allow] == "POST")
                #expect(body.error.message.contains("use POST /v1/push"), "\(body.error.message)")
            }
        }
    }

    @Test(arguments: Backend.conformance) func requestIDIsEchoedOrGenerated(_ backend: Backend) async throws {
        try await Harness.with(backend) { h in
            try await h.router { client in
                let given = try await client.execute(uri: "/healthz", method: .get, headers: [RequestLogMiddleware.header: "req-42"])
                #expect(given.headers[RequestLogMiddleware.header] == "req-42")
                let generated = try await client.execute(uri: "/v1/nothing", method: .get)
                #expect((generated.headers[RequestLogMiddleware.header] ?? "").count == 36)
            }
        }
    }

    @Test(arguments: Backend.conformance) func registrationClosedByDefault(_ backend: Backend) async throws {
        try await Harness.with(backend) { h in
            try await h.router { client in
                let r = try await client.execute(uri: "/v1/register", method: .post, headers: jsonHeaders, body: ByteBuffer(string: #"{"name":"alice"}"#))
                try expectError(r, .forbidden, "registration_closed")
            }
        }
    }

    @Test(arguments: Backend.conformance) func openRegistration(_ backend: Backend) async throws {
        try await Harness.with(backend, configure: { $0.openRegistration = true }) { h in
            try await h.router { client in
                // Given an open server, when alice registers, then she gets a working token.
                let r = try await client.execute(uri: "/v1/register", method: .post, headers: jsonHeaders, body: ByteBuffer(string: #"{"name":"alice"}"#))
                #expect(r.status == .created)
                let reg: RegisterResponse = try decodeBody(r)
                #expect(reg.user == "alice")
                #expect(reg.token.hasPrefix("glt_") && reg.token.count == 47)
                #expect(try await client.pull(reg.token, device: Device()).status == .ok)
                // The token is stored only as its hash.
                let stored = try await h.storage.userForTokenHash(Tokens.hash(reg.token))
                #expect(stored?.name == "alice")

                let again = try await client.execute(uri: "/v1/register", method: .post, headers: jsonHeaders, body: ByteBuffer(string: #"{"name":"ALICE"}"#))
                try expectError(again, .conflict, "user_exists")
                let bad = try await client.execute(uri: "/v1/register", method: .post, headers: jsonHeaders, body: ByteBuffer(string: #"{"name":"al ice"}"#))
                try expectError(bad, .badRequest, "invalid_name")
                let long = try await client.execute(uri: "/v1/register", method: .post, headers: jsonHeaders,
                                                    body: ByteBuffer(string: "{\"name\":\"\(String(repeating: "a", count: 65))\"}"))
                try expectError(long, .badRequest, "invalid_name")
                let notJSON = try await client.execute(uri: "/v1/register", method: .post, headers: jsonHeaders, body: ByteBuffer(string: "{name:"))
                try expectError(notJSON, .badRequest, "invalid_json")
                let wrongType = try await client.execute(uri: "/v1/register", method: .post, headers: [.contentType: "text/plain"], body: ByteBuffer(string: #"{"name":"bob"}"#))
                try expectError(wrongType, .unsupportedMediaType, "unsupported_media_type")
            }
        }
    }

    /// Regression (item 11): `--open-registration` created 300 accounts in half a second.
    /// Registrations are throttled per client address; the 429 says when to try again, and
    /// the throttled request creates nothing.
    @Test func registrationsAreThrottledPerAddress() async throws {
        try await Harness.with(.sqlite, configure: { $0.openRegistration = true; $0.registrationsPerHour = 3 }) { h in
            try await h.router { client in
                func register(_ name: String) async throws -> TestResponse {
                    try await client.execute(uri: "/v1/register", method: .post, headers: jsonHeaders, body: ByteBuffer(string: #"{"name":"\#(name)"}"#))
                }
                // Given three registrations from one address (a refused name does not count),
                try expectError(try await register("-h"), .badRequest, "invalid_name")
                for name in ["u1", "u2", "u3"] { #expect(try await register(name).status == .created, "\(name)") }
                // When a fourth comes, it is refused with when to try again (one every 20 minutes),
                let fourth = try await register("u4")
                try expectError(fourth, .tooManyRequests, "too_many_registrations")
                #expect(fourth.headers[.retryAfter] == "1200", "\(fourth.headers)")
                #expect(String(buffer: fourth.body).contains("3 accounts"))
                // and no user was created by it.
                #expect(try await h.storage.listUsers().map(\.name).sorted() == ["u1", "u2", "u3"])
            }
        }
    }

    /// Item 11: `user add` takes the same names as registration: one rule, naming the bad name.
    @Test func userAddRefusesNamesThatReadAsPathsOrOptions() throws {
        let dir = try temporaryDirectory("gymlog-server-names")
        for name in [".", "..", "-h", "--help", "_x"] {
            let run = try ProcessRunner.runProduct("gymlog-server", ["user", "add", "--db", "sqlite:\(dir)/server.sqlite", "--", name])
            #expect(run.status == 64, "\(name): \(run.stdout) \(run.stderr)")
            #expect(run.stderr.contains("\"\(name)\" must start with a letter or digit"), "\(name): \(run.stderr)")
        }
        let ok = try ProcessRunner.runProduct("gymlog-server", ["user", "add", "--db", "sqlite:\(dir)/server.sqlite", "0ne.of-us_"])
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    @Test(arguments: Backend.conformance) func unauthorized(_ backend: Backend) async throws {
        try await Harness.with(backend) { h in
            let token = try await h.addUser("alice")
            try await h.router { client in
                let device = Device()
                let body = ByteBuffer(data: try JSONEncoder().encode(PushRequest(deviceID: device.id, events: [])))
                try expectError(try await client.execute(uri: "/v1/push", method: .post, headers: jsonHeaders, body: body), .unauthorized, "unauthorized")
                try expectError(try await client.execute(uri: "/v1/pull?device_id=d", method: .get), .unauthorized, "unauthorized")
                try expectError(try await client.pull("glt_not-a-token", device: device), .unauthorized, "unauthorized")
                try expectError(try await client.execute(uri: "/v1/pull?device_id=d", method: .get, headers: [.authorization: "Basic \(token)"]),
                                .unauthorized, "unauthorized")
                #expect(try await client.pull(token, device: device).status == .ok)
                #expect(try await client.push(token, device: device, []).status == .ok)
            }
        }
    }

    @Test(arguments: Backend.conformance) func revokedTokenIsRejected(_ backend: Backend) async throws {
        try await Harness.with(backend) { h in
            let token = try await h.addUser("alice")
            try await h.router { client in
                let device = Device()
                #expect(try await client.pull(token, device: device).status == .ok)
                let revoked = try await h.storage.revokeUser(name: "alice", now: testNow + 1)
                #expect(revoked.revokedAt == testNow + 1)
                try expectError(try await client.pull(token, device: device), .unauthorized, "token_revoked")
                try expectError(try await client.push(token, device: device, []), .unauthorized, "token_revoked")
            }
            await #expect(throws: StorageError.noSuchUser("nobody")) { try await h.storage.revokeUser(name: "nobody", now: testNow) }
            let users = try await h.storage.listUsers()
            #expect(users.map(\.name) == ["alice"] && users[0].revokedAt == testNow + 1)
        }
    }

    @Test(arguments: Backend.conformance) func pushBodyErrors(_ backend: Backend) async throws {
        try await Harness.with(backend, configure: { $0.maxBodyBytes = 4096; $0.maxPushEvents = 3 }) { h in
            let token = try await h.addUser("alice")
            try await h.router { client in
                let device = Device()
                func post(_ text: String, headers: HTTPFields? = nil) async throws -> TestResponse {
                    try await client.execute(uri: "/v1/push", method: .post, headers: headers ?? authHeaders(token), body: ByteBuffer(string: text))
                }
                try expectError(try await post("{\"device_id\":"), .badRequest, "invalid_json")
                try expectError(try await post("[1,2]"), .badRequest, "invalid_request")
                try expectError(try await post("{\"device_id\":\"\(device.id)\"}"), .badRequest, "invalid_request")
                try expectError(try await post("{\"device_id\":\"\(device.id)\",\"events\":[{\"seq\":\"one\"}]}"), .badRequest, "invalid_request")
                try expectError(try await post(#"{"device_id":"a b","events":[]}"#), .badRequest, "invalid_device_id")
                try expectError(try await post("{}", headers: authHeaders(token, json: false)), .unsupportedMediaType, "unsupported_media_type")

                // Too large a body: 413 with a message saying to send smaller batches.
                let big = String(repeating: "x", count: 5000)
                let tooBig = try expectError(try await post("{\"device_id\":\"\(big)\",\"events\":[]}"), .contentTooLarge, "payload_too_large")
                #expect(tooBig.error.message.contains("smaller batches"))

                // Too many events: 413 too.
                let four = (1...4).map { event(Int64($0), "s\($0)", ["reps": (.int(1), device.clock(testNow))]) }
                try expectError(try await client.push(token, device: device, four), .contentTooLarge, "too_many_events")

                // Not ascending: 400, nothing applied.
                let unordered = [event(2, "a", ["reps": (.int(1), device.clock(testNow))]), event(1, "b", ["reps": (.int(1), device.clock(testNow))])]
                try expectError(try await client.push(token, device: device, unordered), .badRequest, "invalid_sequence")
                try expectError(try await client.push(token, device: device, [event(0, "a", [:])]), .badRequest, "invalid_sequence")
                let page: PullResponse = try decodeBody(try await client.pull(token, device: device))
                #expect(page.changes.isEmpty && page.lastAppliedSeq == 0)
            }
        }
    }

    @Test(arguments: Backend.conformance) func bodyLimitOverRealHTTP(_ backend: Backend) async throws {
        try await Harness.with(backend, configure: { $0.maxBodyBytes = 2048 }) { h in
            let token = try await h.addUser("alice")
            try await h.live { client in
                let device = Device()
                let events = (1...40).map { event(Int64($0), "set-\($0)", ["note": (.text("a fairly long note"), device.clock(testNow))]) }
                try expectError(try await client.push(token, device: device, events), .contentTooLarge, "payload_too_large")
            }
        }
    }

    @Test(arguments: Backend.conformance) func pullQueryErrors(_ backend: Backend) async throws {
        try await Harness.with(backend) { h in
            let token = try await h.addUser("alice")
            try await h.router { client in
                let device = Device()
                try expectError(try await client.execute(uri: "/v1/pull", method: .get, headers: authHeaders(token, json: false)), .badRequest, "invalid_device_id")
                for bad in ["abc", "e:", ":5", "e:-1", "e:x", "e:1:2x"] {
                    try expectError(try await client.pull(token, device: device, cursor: bad), .badRequest, "invalid_cursor")
                }
                for bad in ["0", "-3", "ten"] {
                    try expectError(try await client.execute(uri: "/v1/pull?device_id=\(device.id)&limit=\(bad)", method: .get,
                                                             headers: authHeaders(token, json: false)), .badRequest, "invalid_limit")
                }
                // A limit above the maximum is clamped, not refused.
                #expect(try await client.pull(token, device: device, limit: 1_000_000).status == .ok)
            }
        }
    }
}

/// The real store, except that the user is deleted (`user delete --purge`) between a push's
/// authentication and its write: the race an operator's delete can lose against a device.
struct DeletedWhilePushingStorage: ForwardingStorage {
    let base: any SyncStorage
    func push(user: AuthenticatedUser, deviceID: String, items: [PushItem], now: Int64, deviceLimit: Int) async throws -> PushOutcome {
        _ = try await base.deleteUser(name: user.name)
        return try await base.push(user: user, deviceID: deviceID, items: items, now: now, deviceLimit: deviceLimit)
    }
}

@Suite("A user deleted mid-push")
struct DeletedUserTests {
    @Test(arguments: Backend.conformance) func aPushWhoseUserIsDeletedMeanwhileIs401AndStoresNothing(_ backend: Backend) async throws {
        try await Harness.with(backend) { h in
            let token = try await h.addUser("leaving")
            let app = try await buildApplication(h.config, storage: DeletedWhilePushingStorage(base: h.storage))
            let device = Device()
            let response = try await app.test(.router) { client in
                try await client.push(token, device: device, [event(1, "s1", ["reps": (.int(5), device.clock(testNow))])])
            }
            #expect(response.status == .unauthorized, "\(String(buffer: response.body))")
            #expect(String(buffer: response.body).contains("\"unauthorized\""))
            #expect(try await h.storage.listUsers().isEmpty)
            #expect(try await h.storage.usage().devices == 0, "a device row was left for a deleted user")
        }
    }
}
