import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `SyncTransport` over HTTP(S) with URLSession, speaking the `/v1` JSON protocol.
public struct HTTPSyncTransport: SyncTransport {
    /// The server's base URL, e.g. `http://127.0.0.1:8080`.
    public let baseURL: URL
    /// The bearer token (`glt_...`); nil for the endpoints that need none.
    public let token: String?
    /// Seconds before a request counts as unreachable.
    public let timeout: TimeInterval
    private let session: URLSession

    public init(baseURL: URL, token: String?, timeout: TimeInterval = 30, session: URLSession = .shared) {
        self.baseURL = baseURL; self.token = token; self.timeout = timeout; self.session = session
    }

    public func push(_ request: PushRequest) async throws -> PushResponse {
        try await send("POST", "v1/push", body: try JSONEncoder().encode(request))
    }

    public func pull(cursor: SyncCursor, limit: Int? = nil, deviceID: String) async throws -> PullResponse {
        var items = [URLQueryItem(name: "device_id", value: deviceID), URLQueryItem(name: "cursor", value: cursor.description)]
        if let limit { items.append(URLQueryItem(name: "limit", value: String(limit))) }
        return try await send("GET", "v1/pull", query: items)
    }

    public func capabilities() async throws -> Capabilities {
        try await send("GET", "v1/capabilities")
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
        let (data, response) = try await perform(request)
        guard let http = response as? HTTPURLResponse else {
            throw SyncTransportError.invalidResponse(server: serverName, status: 0, reason: "not an HTTP response")
        }
        let status = http.statusCode
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

    // A continuation around dataTask: the async URLSession API is not on every Linux Foundation.
    private func perform(_ request: URLRequest) async throws -> (Data, URLResponse) {
        let server = serverName
        return try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: SyncTransportError.unreachable(server: server, reason: error.localizedDescription))
                } else if let response {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: SyncTransportError.unreachable(server: server, reason: "no response"))
                }
            }
            task.resume()
        }
    }
}
