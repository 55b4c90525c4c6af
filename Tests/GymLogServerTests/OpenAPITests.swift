import Foundation
import GymLogCore
@testable import GymLogServer
@testable import GymLogServerCore
import GymLogWire
import GymLogTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// What the line reader takes from openapi.yaml: operations with their status codes and
/// response schemas, and each schema's properties.
struct OpenAPISpec {
    struct Operation: Hashable, CustomStringConvertible {
        var method: String
        var path: String
        var description: String { "\(method) \(path)" }
    }
    struct Schema { var properties: Set<String> = []; var required: Set<String> = [] }

    var responses: [Operation: [String: String?]] = [:]
    var schemas: [String: Schema] = [:]

    /// Reads the restricted style openapi.yaml is written in (see its `info.description`).
    init(yaml: String) {
        enum Section { case none, paths, schemas }
        var section = Section.none
        var path: String?, op: Operation?, code: String?, inResponses = false
        var schema: String?, inProperties = false
        func indent(_ line: Substring) -> Int { line.prefix { $0 == " " }.count }
        func key(_ line: Substring) -> String { String(line.trimmingCharacters(in: .whitespaces).dropLast()) }

        for line in yaml.split(separator: "\n", omittingEmptySubsequences: true) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#") { continue }
            let n = indent(line)
            if n == 0 {
                section = trimmed == "paths:" ? .paths : .none
                if trimmed == "components:" { section = .none }
                continue
            }
            if n == 2 && trimmed == "schemas:" { section = .schemas; continue }
            switch section {
            case .none: continue
            case .schemas:
                if n == 2 { section = .none; continue }
                if n == 4 && trimmed.hasSuffix(":") { schema = key(line); schemas[schema!] = Schema(); inProperties = false }
                else if n == 6, let schema {
                    inProperties = trimmed == "properties:"
                    if trimmed.hasPrefix("required: [") {
                        let list = trimmed.dropFirst("required: [".count).dropLast()
                        schemas[schema]!.required = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                    }
                } else if n == 8, inProperties, let schema, trimmed.hasSuffix(":") {
                    schemas[schema]!.properties.insert(key(line))
                }
            case .paths:
                if n == 2, trimmed.hasPrefix("/") { path = key(line); op = nil }
                else if n == 4, let path, ["get:", "post:", "put:", "patch:", "delete:"].contains(trimmed) {
                    op = Operation(method: key(line).uppercased(), path: path)
                    responses[op!] = [:]
                    inResponses = false
                } else if n == 6 { inResponses = trimmed == "responses:" }
                else if n == 8, inResponses, let op, trimmed.hasPrefix("'"), trimmed.hasSuffix("':") {
                    code = String(trimmed.dropFirst().dropLast(2))
                    responses[op]![code!] = .some(nil)
                } else if n > 8, inResponses, let op, let code, trimmed.hasPrefix("$ref: '#/components/schemas/") {
                    let name = trimmed.dropFirst("$ref: '#/components/schemas/".count).dropLast()
                    if responses[op]![code]! == nil { responses[op]![code] = String(name) }
                }
            }
        }
    }
}

/// A request that makes the server answer one documented status.
struct Provocation: Sendable {
    var configure: @Sendable (inout ServerConfig) -> Void = { _ in }
    /// Serves this storage instead of the harness's (to break the database).
    var storage: (@Sendable (any SyncStorage) -> any SyncStorage)? = nil
    /// The media type the answer is documented in; JSON unless the spec says otherwise.
    var contentType = "application/json"
    var run: @Sendable (_ client: any TestClientProtocol, _ token: String, _ device: Device) async throws -> TestResponse
}

@Suite("openapi.yaml matches the server")
struct OpenAPITests {
    static let specURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("openapi.yaml")

    static func body(_ s: String) -> ByteBuffer { ByteBuffer(string: s) }

    /// One provocation per (method, path, status) the server can answer.
    static let provocations: [String: Provocation] = {
        let registerOpen: @Sendable (inout ServerConfig) -> Void = { $0.openRegistration = true }
        func register(_ json: String, type: String = "application/json") -> @Sendable (any TestClientProtocol, String, Device) async throws -> TestResponse {
            { client, _, _ in try await client.execute(uri: "/v1/register", method: .post, headers: [.contentType: type], body: body(json)) }
        }
        func rawPush(_ json: String, json isJSON: Bool = true) -> @Sendable (any TestClientProtocol, String, Device) async throws -> TestResponse {
            { client, token, _ in try await client.execute(uri: "/v1/push", method: .post, headers: authHeaders(token, json: isJSON), body: body(json)) }
        }
        @Sendable func pullQuery(_ query: String, auth: Bool = true, path: String = "/v1/pull") -> @Sendable (any TestClientProtocol, String, Device) async throws -> TestResponse {
            { client, token, _ in try await client.execute(uri: "\(path)?\(query)", method: .get, headers: auth ? authHeaders(token, json: false) : [:]) }
        }
        let verifier = String(repeating: "ab", count: 32)
        @Sendable func setKey(_ json: String, auth: Bool = true, type: String = "application/json") -> @Sendable (any TestClientProtocol, String, Device) async throws -> TestResponse {
            { client, token, _ in
                var headers: HTTPFields = [.contentType: type]
                if auth { headers[.authorization] = "Bearer \(token)" }
                return try await client.execute(uri: "/v1/account/key", method: .put, headers: headers, body: body(json))
            }
        }
        // An encrypted account's pull without its key.
        @Sendable func pullWithoutKey(_ path: String) -> @Sendable (any TestClientProtocol, String, Device) async throws -> TestResponse {
            { client, token, device in
                _ = try await setKey("{\"verifier\":\"\(verifier)\"}")(client, token, device)
                return try await pullQuery("device_id=d", path: path)(client, token, device)
            }
        }
        return [
            "GET /v1/account 200": Provocation { client, token, _ in try await client.execute(uri: "/v1/account", method: .get, headers: authHeaders(token, json: false)) },
            "GET /v1/account 401": Provocation { client, _, _ in try await client.execute(uri: "/v1/account", method: .get) },
            "PUT /v1/account/key 200": Provocation(run: setKey("{\"verifier\":\"\(verifier)\"}")),
            "PUT /v1/account/key 400": Provocation(run: setKey(#"{"verifier":"not hex"}"#)),
            "PUT /v1/account/key 401": Provocation(run: setKey("{\"verifier\":\"\(verifier)\"}", auth: false)),
            "PUT /v1/account/key 413": Provocation(run: setKey("{\"verifier\":\"\(String(repeating: "a", count: 5000))\"}")),
            "PUT /v1/account/key 415": Provocation(run: setKey("{\"verifier\":\"\(verifier)\"}", type: "text/plain")),
            "PUT /v1/account/key 409": Provocation { client, token, device in
                _ = try await setKey("{\"verifier\":\"\(verifier)\"}")(client, token, device)
                return try await setKey("{\"verifier\":\"\(String(repeating: "cd", count: 32))\"}")(client, token, device)
            },
            "GET /v1/pull 403": Provocation(run: pullWithoutKey("/v1/pull")),
            "GET /v2/pull 403": Provocation(run: pullWithoutKey("/v2/pull")),
            "GET /healthz 200": Provocation { client, _, _ in try await client.execute(uri: "/healthz", method: .get) },
            "GET /readyz 200": Provocation { client, _, _ in try await client.execute(uri: "/readyz", method: .get) },
            "GET /readyz 503": Provocation(storage: { NotReadyStorage($0) }) { client, _, _ in try await client.execute(uri: "/readyz", method: .get) },
            "GET /metrics 200": Provocation(contentType: "text/plain") { client, _, _ in try await client.execute(uri: "/metrics", method: .get) },
            "GET /v1/capabilities 200": Provocation { client, _, _ in try await client.execute(uri: "/v1/capabilities", method: .get) },
            "POST /v1/register 201": Provocation(configure: registerOpen, run: register(#"{"name":"newbie"}"#)),
            "POST /v1/register 400": Provocation(configure: registerOpen, run: register(#"{"name":"no spaces"}"#)),
            "POST /v1/register 403": Provocation(run: register(#"{"name":"newbie"}"#)),
            "POST /v1/register 409": Provocation(configure: registerOpen, run: register(#"{"name":"owner"}"#)),
            "POST /v1/register 413": Provocation(configure: registerOpen, run: register("{\"name\":\"\(String(repeating: "x", count: 70_000))\"}")),
            "POST /v1/register 415": Provocation(configure: registerOpen, run: register(#"{"name":"newbie"}"#, type: "text/plain")),
            "POST /v1/register 503": Provocation(configure: registerOpen, storage: { NotReadyStorage($0) }, run: register(#"{"name":"newbie"}"#)),
            "POST /v1/register 429": Provocation(configure: { $0.openRegistration = true; $0.registrationsPerHour = 1 }) { client, _, _ in
                _ = try await client.execute(uri: "/v1/register", method: .post, headers: [.contentType: "application/json"], body: body(#"{"name":"first"}"#))
                return try await client.execute(uri: "/v1/register", method: .post, headers: [.contentType: "application/json"], body: body(#"{"name":"second"}"#))
            },
            "POST /v1/push 200": Provocation { client, token, device in
                try await client.push(token, device: device, [event(1, "s1", ["reps": (.int(1), device.clock(testNow))])])
            },
            "POST /v1/push 400": Provocation(run: rawPush("{")),
            "POST /v1/push 401": Provocation { client, _, device in try await client.push("glt_nope", device: device, []) },
            "POST /v1/push 409": Provocation { client, token, device in try await client.push(token, device: device, [event(2, "s1", [:])]) },
            "POST /v1/push 413": Provocation(configure: { $0.maxBodyBytes = 1024 }, run: rawPush(String(repeating: " ", count: 2000) + "{}")),
            "POST /v1/push 415": Provocation(run: rawPush("{}", json: false)),
            // No slot at all: the real contention (a push in progress) is in SlowClientTests.
            "POST /v1/push 429": Provocation(configure: { $0.maxConcurrentPushesPerUser = 0 }, run: rawPush("{}")),
            "POST /v1/push 403": Provocation(configure: { $0.maxDevicesPerUser = 1 }) { client, token, device in
                _ = try await client.push(token, device: device, [event(1, "s1", ["reps": (.int(1), device.clock(testNow))])])
                let another = Device()
                return try await client.push(token, device: another, [event(1, "s2", ["reps": (.int(1), another.clock(testNow))])])
            },
            "POST /v1/push 422": Provocation { client, token, device in
                try await client.push(token, device: device, [event(1, "s1", ["reps": (.int(1), device.clock(testNow + 86_400_000))])])
            },
            "GET /v1/pull 200": Provocation { client, token, device in try await client.pull(token, device: device) },
            "GET /v1/pull 400": Provocation(run: pullQuery("device_id=d&cursor=nonsense")),
            "GET /v1/pull 401": Provocation(run: pullQuery("device_id=d", auth: false)),
            "GET /v1/pull 503": Provocation(storage: { NotReadyStorage($0) }) { client, token, device in try await client.pull(token, device: device) },
            "GET /v2/pull 200": Provocation(run: pullQuery("device_id=d&limit=10", path: "/v2/pull")),
            "GET /v2/pull 400": Provocation(run: pullQuery("device_id=d&limit=0", path: "/v2/pull")),
            "GET /v2/pull 401": Provocation(run: pullQuery("device_id=d", auth: false, path: "/v2/pull")),
            "GET /v2/pull 503": Provocation(storage: { NotReadyStorage($0) }, run: pullQuery("device_id=d", path: "/v2/pull")),
            "POST /v1/push 503": Provocation(storage: { NotReadyStorage($0) }) { client, token, device in
                try await client.push(token, device: device, [event(1, "s1", ["reps": (.int(1), device.clock(testNow))])])
            },
        ]
    }()

    @Test func everyServedRouteIsInTheSpecAndViceVersa() throws {
        let spec = OpenAPISpec(yaml: try String(contentsOf: Self.specURL, encoding: .utf8))
        let served = Set(Endpoint.allCases.map { OpenAPISpec.Operation(method: $0.method.rawValue, path: $0.path) })
        #expect(!spec.responses.isEmpty)
        #expect(Set(spec.responses.keys) == served)
    }

    @Test func everyDocumentedStatusIsProvokedAndNothingElse() throws {
        let spec = OpenAPISpec(yaml: try String(contentsOf: Self.specURL, encoding: .utf8))
        let documented = Set(spec.responses.flatMap { op, codes in codes.keys.map { "\(op) \($0)" } })
        #expect(documented == Set(Self.provocations.keys))
    }

    @Test(arguments: provocations.keys.sorted())
    func serverAnswersAsDocumented(_ key: String) async throws {
        let spec = OpenAPISpec(yaml: try String(contentsOf: Self.specURL, encoding: .utf8))
        let parts = key.split(separator: " ").map(String.init)
        let op = OpenAPISpec.Operation(method: parts[0], path: parts[1])
        let code = parts[2]
        let documented = try #require(spec.responses[op]?[code], "\(key) is not in openapi.yaml")
        let provocation = try #require(Self.provocations[key])

        try await Harness.with(configure: provocation.configure) { h in
            let token = try await h.addUser("owner")
            let storage = provocation.storage.map { $0(h.storage) } ?? h.storage
            let app = try await buildApplication(h.config, storage: storage)
            let response = try await app.test(.router) { client in try await provocation.run(client, token, Device()) }
            #expect(String(response.status.code) == code, "\(key): \(String(buffer: response.body))")
            #expect(response.headers[.contentType]?.hasPrefix(provocation.contentType) == true)
            guard provocation.contentType == "application/json" else { return }
            let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            if let name = documented {
                let schema = try #require(spec.schemas[name], "schema \(name) missing")
                let keys = Set(object.keys)
                #expect(keys.isSubset(of: schema.properties), "\(key): \(keys.subtracting(schema.properties)) not in \(name)")
                #expect(schema.required.isSubset(of: keys), "\(key): \(schema.required.subtracting(keys)) missing")
            }
        }
    }

    @Test func everyErrorCodeIsInTheSpec() throws {
        // Every code the server can answer (`ErrorCode`, the one place they are spelled) is documented.
        let yaml = try String(contentsOf: Self.specURL, encoding: .utf8)
        let words = Set(yaml.split { !($0.isLetter || $0 == "_") }.map(String.init))
        let missing = ErrorCode.allCases.map(\.rawValue).filter { !words.contains($0) }
        #expect(missing.isEmpty, "error codes not in openapi.yaml: \(missing)")
        #expect(ErrorCode.allCases.count == Set(ErrorCode.allCases.map(\.rawValue)).count)
    }

    @Test func readerSeesTheWholeSpec() throws {
        // Guards the reader itself: a reader that found nothing would let everything pass.
        let spec = OpenAPISpec(yaml: try String(contentsOf: Self.specURL, encoding: .utf8))
        #expect(spec.responses[.init(method: "POST", path: "/v1/push")]?.keys.sorted() == ["200", "400", "401", "403", "409", "413", "415", "422", "429", "503"])
        #expect(spec.responses[.init(method: "POST", path: "/v1/push")]?["200"] == .some("PushResponse"))
        #expect(spec.schemas["Capabilities"]?.properties.count == 8)
        #expect(spec.schemas["PullResponse"]?.required == ["epoch", "changes", "cursor", "has_more", "last_applied_seq"])
        // The wire types encode exactly the documented keys.
        let caps = Capabilities(protocolVersion: 1, protocolVersions: [1, 2], maxBodyBytes: 1, maxPushEvents: 1, maxPullLimit: 1, registrationOpen: true, maxClockAheadMs: 1,
                                serverVersion: "0.12.0")
        let keys = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(caps)) as? [String: Any]).keys
        #expect(Set(keys) == spec.schemas["Capabilities"]?.properties)
        let event = PushEvent(seq: 1, idempotencyKey: "k", entity: "sets", entityID: "e", op: "create", fields: [:])
        let eventKeys = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(event)) as? [String: Any]).keys
        #expect(Set(eventKeys) == spec.schemas["PushEvent"]?.properties)
        // The body the client sends, written by hand (`jsonBody`), has the same keys, and the
        // required ones without an epoch.
        let sent = PushRequest(deviceID: "d", events: [event], epoch: "e")
        let body = try #require(try JSONSerialization.jsonObject(with: sent.jsonBody()) as? [String: Any])
        #expect(Set(body.keys) == spec.schemas["PushRequest"]?.properties)
        let sentEvent = try #require((body["events"] as? [[String: Any]])?.first)
        #expect(Set(sentEvent.keys) == spec.schemas["PushEvent"]?.properties)
        let bare = try #require(try JSONSerialization.jsonObject(with: PushRequest(deviceID: "d", events: []).jsonBody()) as? [String: Any])
        #expect(Set(bare.keys) == spec.schemas["PushRequest"]?.required)
    }
}

/// A test store that hands every call to a real one, `base`; a conformer overrides only the
/// calls it breaks.
protocol ForwardingStorage: SyncStorage {
    var base: any SyncStorage { get }
}

extension ForwardingStorage {
    var backend: String { base.backend }
    func checkReadiness() async throws { try await base.checkReadiness() }
    func usage() async throws -> StorageUsage { try await base.usage() }
    func epoch() async throws -> String { try await base.epoch() }
    func listUsers() async throws -> [UserRecord] { try await base.listUsers() }
    func userForTokenHash(_ hash: String) async throws -> AuthenticatedUser? { try await base.userForTokenHash(hash) }
    func withdrawal(ofTokenHash hash: String) async throws -> TokenWithdrawal? { try await base.withdrawal(ofTokenHash: hash) }
    func push(user: AuthenticatedUser, deviceID: String, items: [PushItem], now: Int64, deviceLimit: Int) async throws -> PushOutcome {
        try await base.push(user: user, deviceID: deviceID, items: items, now: now, deviceLimit: deviceLimit)
    }
    func pull(user: AuthenticatedUser, deviceID: String, after: Int64, since: Int64, limit: PullLimit, maxBytes: Int) async throws -> PullPage {
        try await base.pull(user: user, deviceID: deviceID, after: after, since: since, limit: limit, maxBytes: maxBytes)
    }
    func withAccounts<R: Sendable>(_ access: AccountAccess,
                                   _ body: (any AccountTransaction) async throws -> (result: R, commit: Bool)) async throws -> R {
        try await base.withAccounts(access, body)
    }
}

/// A store whose readiness check, account writes (registrations among them), pushes and pulls fail as a corrupt database's would; everything else is the real store's.
struct NotReadyStorage: ForwardingStorage {
    let base: any SyncStorage
    init(_ base: any SyncStorage) { self.base = base }
    func checkReadiness() async throws { throw StorageError.notReady("the test database is gone.") }
    func usage() async throws -> StorageUsage { throw StorageError.notReady("the test database is gone.") }
    func withAccounts<R: Sendable>(_ access: AccountAccess,
                                   _ body: (any AccountTransaction) async throws -> (result: R, commit: Bool)) async throws -> R {
        throw StorageError.notReady("the test database is corrupt.")
    }
    func push(user: AuthenticatedUser, deviceID: String, items: [PushItem], now: Int64, deviceLimit: Int) async throws -> PushOutcome {
        throw StorageError.notReady("the test database is corrupt.")
    }
    func pull(user: AuthenticatedUser, deviceID: String, after: Int64, since: Int64, limit: PullLimit, maxBytes: Int) async throws -> PullPage {
        throw StorageError.notReady("the test database is corrupt.")
    }
}
