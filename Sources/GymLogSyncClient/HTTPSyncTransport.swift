import Foundation
import GymLogCore
import GymLogWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request and returns the answer's status and body, or throws
/// `SyncTransportError.unreachable` when no answer came. The seam between the protocol code
/// and the network: the reliability suites put a fault-injecting exchange here.
public typealias HTTPExchange = @Sendable (URLRequest) async throws -> (status: Int, body: Data)

/// `SyncTransport` over HTTP(S), speaking the `/v1` JSON protocol; URLSession by default.
public struct HTTPSyncTransport: SyncTransport {
    /// The server's base URL, e.g. `http://127.0.0.1:8080`.
    public let baseURL: URL
    /// The bearer token (`glt_...`); nil for the endpoints that need none.
    public let token: String?
    /// Seconds before a request counts as unreachable.
    public let timeout: TimeInterval
    private let exchange: HTTPExchange

    public init(baseURL: URL, token: String?, timeout: TimeInterval = 30, session: URLSession = .shared) {
        self.init(baseURL: baseURL, token: token, timeout: timeout, exchange: Self.urlSessionExchange(session, server: baseURL.absoluteString))
    }

    public init(baseURL: URL, token: String?, timeout: TimeInterval = 30, exchange: @escaping HTTPExchange) {
        self.baseURL = baseURL; self.token = token; self.timeout = timeout; self.exchange = exchange
    }

    public func push(_ request: PushRequest) async throws -> PushResponse {
        try await send("POST", "v1/push", body: try JSONEncoder().encode(request))
    }

    public func pull(cursor: SyncCursor, limit: Int? = nil, deviceID: String, ackedSeq: Int64?) async throws -> PullResponse {
        var items = [URLQueryItem(name: "device_id", value: deviceID), URLQueryItem(name: "cursor", value: cursor.description)]
        if let limit { items.append(URLQueryItem(name: "limit", value: String(limit))) }
        if let ackedSeq, ackedSeq > 0 { items.append(URLQueryItem(name: "acked_seq", value: String(ackedSeq))) }
        return try await send("GET", "v1/pull", query: items)
    }

    public func capabilities() async throws -> Capabilities {
        try await send("GET", "v1/capabilities")
    }

    /// Proves the login works before anything is saved: the server answers the capabilities
    /// of this protocol version, then accepts the token for a one-change pull (which changes
    /// nothing on the server). Throws `SyncTransportError`; `.invalidResponse` also when the
    /// server speaks another protocol version.
    public func checkLogin(deviceID: String) async throws {
        let capabilities = try await self.capabilities()
        guard capabilities.protocolVersion == syncProtocolVersion else {
            throw SyncTransportError.invalidResponse(server: serverName, status: 200,
                reason: "it speaks sync protocol \(capabilities.protocolVersion), this gymlog speaks \(syncProtocolVersion); update the older of the two")
        }
        guard token != nil else { return }
        let _: PullResponse = try await pull(cursor: .start, limit: 1, deviceID: deviceID, ackedSeq: nil)
    }

    /// Creates an account on a server started with `--open-registration`; the token is shown only once.
    public func register(name: String) async throws -> RegisterResponse {
        try await send("POST", "v1/register", body: try JSONEncoder().encode(RegisterRequest(name: name)))
    }

    /// `GET /healthz`.
    public func health() async throws -> HealthStatus {
        try await send("GET", "healthz")
    }

    private var serverName: String { baseURL.absoluteString }

    private func send<T: Decodable>(_ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil) async throws -> T {
        var url = baseURL.appendingPathComponent(path)
        if !query.isEmpty, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            parts.queryItems = query
            url = parts.url ?? url
        }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (status, data) = try await exchange(request)
        if (200..<300).contains(status) {
            do { return try JSONDecoder().decode(T.self, from: data) } catch {
                throw SyncTransportError.invalidResponse(server: serverName, status: status, reason: "\(error)")
            }
        }
        if status == 401 { throw SyncTransportError.unauthorized(server: serverName) }
        if let body = try? JSONDecoder().decode(ErrorBody.self, from: data) {
            throw SyncTransportError.server(status: status, body: body)
        }
        let snippet = String(decoding: data.prefix(200), as: UTF8.self)
        throw SyncTransportError.invalidResponse(server: serverName, status: status, reason: snippet.isEmpty ? "empty body" : snippet)
    }

    /// The real network. A continuation around dataTask: the async URLSession API is not on
    /// every Linux Foundation.
    public static func urlSessionExchange(_ session: URLSession = .shared, server: String) -> HTTPExchange {
        { request in
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: SyncTransportError.unreachable(server: server, reason: error.localizedDescription))
                    } else if let http = response as? HTTPURLResponse {
                        continuation.resume(returning: (http.statusCode, data ?? Data()))
                    } else if response != nil {
                        continuation.resume(throwing: SyncTransportError.invalidResponse(server: server, status: 0, reason: "not an HTTP response"))
                    } else {
                        continuation.resume(throwing: SyncTransportError.unreachable(server: server, reason: "no response"))
                    }
                }
                task.resume()
            }
        }
    }
}
