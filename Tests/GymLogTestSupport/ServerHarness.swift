import Foundation
import GymLogCore
@testable import GymLogServer
@testable import GymLogServerCore
@testable import GymLogServerPostgres
@testable import GymLogServerSQLite
import GymLogWire
import Hummingbird
import HummingbirdTesting
import Testing

/// The fixed server clock of every test (2025-11-21T10:03:20Z).
public let testNow: Int64 = 1_763_719_400_000

/// A server on a fresh store of the given backend (a temporary SQLite file, or a new
/// PostgreSQL database), removed after the test.
public struct Harness: Sendable {
    public let backend: Backend
    public let storage: any SyncStorage
    public var config: ServerConfig

    /// Runs `body` with a fresh harness and removes its store afterwards.
    public static func with<T>(_ backend: Backend = .sqlite, configure: (inout ServerConfig) -> Void = { _ in },
                        _ body: (Harness) async throws -> T) async throws -> T {
        switch backend {
        case .memory:
            var config = ServerConfig(database: "memory:")
            config.now = { testNow }
            config.logLevel = .warning
            configure(&config)
            return try await body(Harness(backend: backend, storage: MemorySyncStorage(), config: config))
        case .sqlite:
            let path = temporaryFile("gymlog-server-test", extension: "sqlite")
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            var config = ServerConfig(database: "sqlite:" + path)
            config.now = { testNow }
            config.logLevel = .warning
            configure(&config)
            return try await body(Harness(backend: backend, storage: try SQLiteSyncStorage(path: path), config: config))
        case .postgres:
            return try await PostgresTestDatabase.with { url in
                var config = ServerConfig(database: url)
                config.now = { testNow }
                config.logLevel = .warning
                // The suite shares two cores with a PostgreSQL it keeps busy: a healthy check
                // can take more than the default second there (ReadinessTests still prove the bound).
                config.readinessTimeout = .seconds(15)
                configure(&config)
                let storage = try PostgresSyncStorage(url: url, poolSize: 4, logger: PostgresAdmin.logger)
                do {
                    try await storage.prepare()
                    let result = try await body(Harness(backend: backend, storage: storage, config: config))
                    await storage.shutdown()
                    return result
                } catch {
                    await storage.shutdown()
                    throw error
                }
            }
        }
    }

    /// Creates a user directly in the store and returns its token.
    public func addUser(_ name: String) async throws -> String {
        let token = Tokens.generate()
        _ = try await storage.createUser(name: name, tokenHash: Tokens.hash(token), now: testNow)
        return token
    }

    /// Runs the real app through the in-process router.
    public func router<T: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        let app = try await buildApplication(config, storage: storage)
        return try await app.test(.router, body)
    }

    /// Runs the real app on a loopback port.
    public func live<T: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        let app = try await buildApplication(config, storage: storage)
        return try await app.test(.live, body)
    }
}

/// A device pushing events with its own gapless seq.
public struct Device: Sendable {
    public let id: String
    public init(_ id: String = UUID().uuidString.lowercased()) { self.id = id }
    public var node: String { id }

    public func clock(_ millis: Int64, _ counter: Int = 0) -> HLC { HLC(millis: millis, counter: counter, node: id) }
}

/// An event with `(value, clock)` fields.
public func event(_ seq: Int64, _ entityID: String, entity: String = "sets", op: String = "update",
           key: String = UUID().uuidString.lowercased(), _ fields: [String: (FieldValue, HLC)]) -> PushEvent {
    PushEvent(seq: seq, idempotencyKey: key, entity: entity, entityID: entityID, op: op,
              fields: EventFields(fields.mapValues { WireField(v: $0.0, c: $0.1) }))
}

public let jsonHeaders: HTTPFields = [.contentType: "application/json"]

public func authHeaders(_ token: String, json: Bool = true, key: String? = nil) -> HTTPFields {
    var h: HTTPFields = [.authorization: "Bearer \(token)"]
    if json { h[.contentType] = "application/json" }
    // The account key's verifier, for an account encrypted end to end.
    if let key { h[HTTPFields.Element.Name(accountKeyHeader)!] = key }
    return h
}

extension TestClientProtocol {
    public func push(_ token: String, _ request: PushRequest) async throws -> TestResponse {
        try await execute(uri: "/v1/push", method: .post, headers: authHeaders(token), body: ByteBuffer(data: request.jsonBody()))
    }

    public func push(_ token: String, device: Device, _ events: [PushEvent]) async throws -> TestResponse {
        try await push(token, PushRequest(deviceID: device.id, events: events))
    }

    public func pull(_ token: String, device: Device, cursor: String? = nil, limit: Int? = nil, version: SyncProtocol = .v1) async throws -> TestResponse {
        var query = "device_id=\(device.id)"
        if let cursor { query += "&cursor=\(cursor)" }
        if let limit { query += "&limit=\(limit)" }
        return try await execute(uri: "/v\(version.rawValue)/pull?\(query)", method: .get, headers: authHeaders(token, json: false))
    }

    /// Pulls every page from `cursor` in `version` (a v2 page expanded to v1's shape, as the
    /// client applies it), checking the paging contract on the way.
    public func pullAll(_ token: String, device: Device, from cursor: String = "0", limit: Int? = nil,
                        version: SyncProtocol = .v1) async throws -> (changes: [PullResponse], cursor: String) {
        var pages: [PullResponse] = []
        var cursor = cursor
        while true {
            let response = try await pull(token, device: device, cursor: cursor, limit: limit, version: version)
            #expect(response.status == .ok)
            let page: PullResponse = version == .v1 ? try decodeBody(response) : (try decodeBody(response) as CompactPullResponse).expanded()
            pages.append(page)
            cursor = page.cursor
            if !page.hasMore { break }
            #expect(pages.count < 10_000)
        }
        return (pages, cursor)
    }
}

extension ByteBuffer {
    public init(data: Data) { self.init(bytes: data) }
}

public func decodeBody<T: Decodable>(_ response: TestResponse, as: T.Type = T.self) throws -> T {
    do {
        return try JSONDecoder().decode(T.self, from: Data(response.body.readableBytesView))
    } catch {
        Issue.record("cannot decode \(T.self) from \(String(buffer: response.body)): \(error)")
        throw error
    }
}

/// Asserts the response is the JSON error shape with this status and code.
@discardableResult
public func expectError(_ response: TestResponse, _ status: HTTPResponse.Status, _ code: String,
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> ErrorBody {
    #expect(response.status == status, "body: \(String(buffer: response.body))", sourceLocation: sourceLocation)
    let body: ErrorBody = try decodeBody(response)
    #expect(body.error.code == code, sourceLocation: sourceLocation)
    #expect(!body.error.message.isEmpty, sourceLocation: sourceLocation)
    return body
}

/// Every field of every change in the pages, keyed `entity/id/field`.
public func merged(_ pages: [PullResponse]) -> [String: WireField] {
    var out: [String: WireField] = [:]
    for page in pages { for change in page.changes { for (name, f) in change.fields { out["\(change.entity)/\(change.entityID)/\(name)"] = f } } }
    return out
}
