import AsyncHTTPClient
import Foundation
import GymLogCore
import GymLogWire
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL

/// One HTTP request as the transport sends it: what `HTTPExchange` takes. A type of our own,
/// not Foundation's `URLRequest`, so the client does not link FoundationNetworking (and curl).
public struct HTTPExchangeRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: [(name: String, value: String)]
    public var body: Data?
    /// Seconds the whole exchange may take (connecting, the answer's head and all of its
    /// body) before the server counts as unreachable.
    public var timeout: TimeInterval

    public init(method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil, timeout: TimeInterval = 30) {
        self.method = method; self.url = url; self.headers = headers; self.body = body; self.timeout = timeout
    }
}

/// Sends one HTTP request and returns the answer's status and body, or throws
/// `SyncTransportError.unreachable` when no answer came. The seam between the protocol code
/// and the network: the reliability suites put a fault-injecting exchange here.
public typealias HTTPExchange = @Sendable (HTTPExchangeRequest) async throws -> (status: Int, body: Data)

/// `SyncTransport` over HTTP(S), speaking the JSON protocol (v2, or v1 against an older
/// server); AsyncHTTPClient by default.
public struct HTTPSyncTransport: SyncTransport {
    /// The server's base URL, e.g. `http://127.0.0.1:8080`.
    public let baseURL: URL
    /// The bearer token (`glt_...`); nil for the endpoints that need none.
    public let token: String?
    /// Seconds before a request counts as unreachable.
    public let timeout: TimeInterval
    /// The account key's verifier (`AccountKey.verifier`), sent with every request when the
    /// account is encrypted: the server refuses a device holding another key.
    public var keyVerifier: String?
    private let exchange: HTTPExchange
    /// The version pulls use: the newest at first, v1 for the rest of this transport's life
    /// once the server answers that it has no `/v2/pull` (a server from before v2).
    private let pullVersion: NIOLockedValueBox<SyncProtocol>

    /// The protocol version this transport's pulls speak now.
    public var pullProtocol: SyncProtocol { pullVersion.withLockedValue { $0 } }

    /// Over the network, trusting the system's roots.
    public init(baseURL: URL, token: String?, timeout: TimeInterval = 30, protocolVersion: SyncProtocol = .newest) {
        self.init(baseURL: baseURL, token: token, timeout: timeout, protocolVersion: protocolVersion,
                  exchange: Self.networkExchange(client: NetworkClients.systemTrust, server: baseURL.absoluteString))
    }

    /// Over the network; `caCertificate` (PEM text) is trusted besides the system's roots, for
    /// a server with a certificate of its own making. Throws when it holds no certificate.
    public init(baseURL: URL, token: String?, timeout: TimeInterval = 30, caCertificate: String?) throws {
        self.init(baseURL: baseURL, token: token, timeout: timeout,
                  exchange: Self.networkExchange(client: try NetworkClients.client(caCertificate: caCertificate, server: baseURL.absoluteString), server: baseURL.absoluteString))
    }

    /// `protocolVersion` is the newest the transport tries (tests pin v1 to play an old client).
    public init(baseURL: URL, token: String?, timeout: TimeInterval = 30, protocolVersion: SyncProtocol = .newest,
                exchange: @escaping HTTPExchange) {
        self.baseURL = baseURL; self.token = token; self.timeout = timeout; self.exchange = exchange
        pullVersion = NIOLockedValueBox(protocolVersion)
    }

    public func push(_ request: PushRequest) async throws -> PushResponse {
        try await send(.push, body: request.jsonBody())
    }

    /// `limit` counts changes on v2 and field rows on v1.
    public func pull(cursor: SyncCursor, limit: Int? = nil, deviceID: String, ackedSeq: Int64?) async throws -> PullResponse {
        try await pull(cursor: cursor, limit: limit, deviceID: deviceID, ackedSeq: ackedSeq, since: nil)
    }

    public func pull(cursor: SyncCursor, limit: Int? = nil, deviceID: String, ackedSeq: Int64?, since: Int64?) async throws -> PullResponse {
        func item(_ name: PullParameter, _ value: String) -> URLQueryItem { URLQueryItem(name: name.rawValue, value: value) }
        var items = [item(.deviceID, deviceID), item(.cursor, cursor.description)]
        if let limit { items.append(item(.limit, String(limit))) }
        if let ackedSeq, ackedSeq > 0 { items.append(item(.ackedSeq, String(ackedSeq))) }
        if let since, since > 0 { items.append(item(.since, String(since))) }
        // A page is read change by change (`PulledChanges`): one change that does not read is
        // set aside by itself instead of failing the page on every pull.
        if pullProtocol == .v2 {
            do {
                let body = try await sendForBody(.compactPull, query: items)
                return try decoded(body) { try PulledChanges.compactPage($0) }
            } catch let error as SyncTransportError where error.isNotFound {
                // A server from before v2 (or a proxy passing only /v1): every other endpoint is
                // the same, so only pulls change.
                pullVersion.withLockedValue { $0 = .v1 }
            }
        }
        return try decoded(try await sendForBody(.pull, query: items)) { try PulledChanges.page($0) }
    }

    public func capabilities() async throws -> Capabilities {
        try await send(.capabilities)
    }

    /// Proves the login works before anything is saved: the server answers the capabilities
    /// of this protocol version, then accepts the token for a one-change pull (which changes
    /// nothing on the server). Throws `SyncTransportError`; `.invalidResponse` also when the
    /// server speaks another protocol version.
    public func checkLogin(deviceID: String) async throws {
        try await checkServer()
        try await checkToken(deviceID: deviceID)
    }

    /// The first half of `checkLogin`: the server answers as a gymlog server of this protocol.
    public func checkServer() async throws {
        let capabilities = try await self.capabilities()
        guard capabilities.protocolVersion == syncProtocolVersion else {
            throw SyncTransportError.invalidResponse(server: serverName, status: 200,
                reason: "it speaks sync protocol \(capabilities.protocolVersion), this gymlog speaks \(syncProtocolVersion); update the older of the two")
        }
    }

    /// The second half: the token (and the key's verifier, when set) are accepted for a
    /// one-change pull.
    public func checkToken(deviceID: String) async throws {
        guard token != nil else { return }
        let _: PullResponse = try await pull(cursor: .start, limit: 1, deviceID: deviceID, ackedSeq: nil)
    }

    /// `GET /v1/account`: the user name, and whether the history is encrypted or empty. Nil
    /// from a server from before end-to-end encryption (no such endpoint): it keeps every
    /// account in the clear.
    public func account() async throws -> AccountInfo? {
        do { return try await send(.account) } catch let error as SyncTransportError where error.isNotFound { return nil }
    }

    /// `PUT /v1/account/key`: the account's history is sealed with the key `verifier` names
    /// from now on (`key_exists` when it has another key).
    public func setAccountKey(verifier: String) async throws -> AccountKeyResponse {
        try await send(.accountKey, body: try JSONEncoder().encode(AccountKeyRequest(verifier: verifier)))
    }

    /// Creates an account on a server started with `--open-registration`; the token is shown only once.
    public func register(name: String) async throws -> RegisterResponse {
        try await send(.register, body: try JSONEncoder().encode(RegisterRequest(name: name)))
    }

    /// `GET /healthz`.
    public func health() async throws -> HealthStatus {
        try await send(.healthz)
    }

    private var serverName: String { baseURL.absoluteString }

    private func send<T: Decodable>(_ endpoint: Endpoint, query: [URLQueryItem] = [], body: Data? = nil) async throws -> T {
        try decoded(try await sendForBody(endpoint, query: query, body: body)) { try JSONDecoder().decode(T.self, from: $0) }
    }

    /// A 2xx answer's body read by `read`; what does not read is an invalid response.
    private func decoded<T>(_ data: Data, _ read: (Data) throws -> T) throws -> T {
        do { return try read(data) } catch {
            throw SyncTransportError.invalidResponse(server: serverName, status: 200, reason: "\(error)")
        }
    }

    /// The body of a 2xx answer; any other answer thrown as the error it is.
    private func sendForBody(_ endpoint: Endpoint, query: [URLQueryItem] = [], body: Data? = nil) async throws -> Data {
        // Below the base URL's own path (a server behind a proxy's prefix), so without the leading `/`.
        var url = baseURL.appendingPathComponent(String(endpoint.path.dropFirst()))
        if !query.isEmpty, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            parts.queryItems = query
            url = parts.url ?? url
        }
        var request = HTTPExchangeRequest(method: endpoint.method.rawValue, url: url, headers: [("Accept", "application/json")], body: body, timeout: timeout)
        if let token { request.headers.append(("Authorization", "Bearer \(token)")) }
        if let keyVerifier { request.headers.append((accountKeyHeader, keyVerifier)) }
        if body != nil { request.headers.append(("Content-Type", "application/json")) }
        let (status, data) = try await exchange(request)
        if (200..<300).contains(status) { return data }
        if status == 401 {
            // The code says what an administrator did to the token (0.12.0 servers and later).
            let code = (try? JSONDecoder().decode(ErrorBody.self, from: data))?.error.code
            throw SyncTransportError.unauthorized(server: serverName, withdrawal: code.flatMap(TokenWithdrawal.init(errorCode:)))
        }
        if (300..<400).contains(status) {
            throw SyncTransportError.invalidResponse(server: serverName, status: status,
                reason: "a redirect, which gymlog does not follow (it would send the request, a push's changes included, wherever it points); "
                    + "log in with the URL the server redirects to")
        }
        if let body = try? JSONDecoder().decode(ErrorBody.self, from: data) {
            throw SyncTransportError.server(status: status, body: body)
        }
        let snippet = String(decoding: data.prefix(200), as: UTF8.self)
        throw SyncTransportError.invalidResponse(server: serverName, status: status, reason: snippet.isEmpty ? "empty body" : snippet)
    }

    /// The largest answer read: a pull page is a few MiB at most.
    static let maxAnswerBytes = 64 << 20

    /// The real network, over AsyncHTTPClient. The request's timeout bounds the whole
    /// exchange: AsyncHTTPClient's own deadline ends with the answer's head, and a body sent
    /// slowly or without end would otherwise hold `gymlog sync` (and its lock) for ever.
    public static func networkExchange(client: HTTPClient, server: String) -> HTTPExchange {
        { request in
            var outgoing = HTTPClientRequest(url: request.url.absoluteString)
            outgoing.method = .RAW(value: request.method)
            for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
            if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
            let prepared = outgoing
            do {
                return try await whole(within: request.timeout) {
                    let outgoing = prepared
                    let response = try await client.execute(outgoing, timeout: .milliseconds(Int64(request.timeout * 1000)))
                    let body = try await response.body.collect(upTo: maxAnswerBytes)
                    return (Int(response.status.code), Data(body.readableBytesView))
                }
            } catch is ExchangeTimedOut {
                throw SyncTransportError.unreachable(server: server, reason: "no complete answer within \(Int(request.timeout)) s")
            } catch {
                throw SyncTransportError.unreachable(server: server, reason: NetworkClients.describe(error, server: server))
            }
        }
    }

    /// The exchange took longer than its timeout.
    struct ExchangeTimedOut: Error {}

    /// `work`'s result, or `ExchangeTimedOut` once `seconds` have passed (`work` is then cancelled,
    /// which closes its connection).
    static func whole<T: Sendable>(within seconds: TimeInterval, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw ExchangeTimedOut() }
            return value
        }
    }
}

/// The HTTP clients of this process: one trusting the system's roots, and one per extra
/// trusted CA file. They live as long as the process (a CLI run), so none is ever shut down
/// mid-request.
public enum NetworkClients {
    private static let made = NIOLockedValueBox<[String: HTTPClient]>([:])

    /// Trusts the system's roots.
    public static let systemTrust = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                               configuration: configuration(TLSConfiguration.makeClientConfiguration()))

    /// One request, one try: AsyncHTTPClient's default keeps retrying a refused connection
    /// until the request's deadline, so a server that is down took the whole timeout (15 s
    /// for `login`) to say so; a sync is retried by the user or the next run instead.
    static func configuration(_ tls: TLSConfiguration) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .http1Only
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        // A kept-alive connection is dropped after 20 s idle, before gymlog-server's default
        // 30 s (`--request-head-timeout`, its `Keep-Alive: timeout`) closes it: with
        // AsyncHTTPClient's 60 s, a request sent on a connection the server was closing just
        // then failed "closed without an answer" (seen under load, two instances behind one
        // database).
        configuration.connectionPool = .init(idleTimeout: .seconds(20))
        // A redirect is never followed: AsyncHTTPClient re-sends a 307's body, so a push would
        // go to whatever host the answer names. `send` reports the redirect instead.
        configuration.redirectConfiguration = .disallow
        return configuration
    }

    /// The client that trusts the system's roots and, when given, the certificates in
    /// `caCertificate` (PEM text, as `gymlog login --ca-file` saved it).
    public static func client(caCertificate: String?, server: String) throws -> HTTPClient {
        guard let caCertificate else { return systemTrust }
        return try made.withLockedValue { clients in
            if let client = clients[caCertificate] { return client }
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try NIOSSLCertificate.fromPEMBytes(Array(caCertificate.utf8))
                guard !certificates.isEmpty else { throw SyncTransportError.invalidResponse(server: "", status: 0, reason: "no certificate") }
            } catch {
                throw SyncTransportError.unreachable(server: server,
                    reason: "the certificate saved by `gymlog login --ca-file` (ca_certificate in the credentials file) is not PEM certificates (\(error)); run `gymlog login --ca-file FILE` again with the server's certificate or its CA")
            }
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.certificates(certificates)]
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration(tls))
            clients[caCertificate] = client
            return client
        }
    }

    /// What went wrong, in words a user can act on (a certificate the system does not trust
    /// says so, rather than "handshake failed").
    static func describe(_ error: any Error, server: String) -> String {
        let text = String(describing: error)
        let https = server.lowercased().hasPrefix("https:")
        // An https:// URL on a plain HTTP port: the "TLS record" that comes back is HTTP text.
        if https, text.contains("WRONG_VERSION_NUMBER") || text.contains("WRONG_SSL_VERSION") {
            return "the server there does not speak HTTPS (try " + "http:" + server.dropFirst("https:".count) + ")"
        }
        // An http:// URL on a TLS port: the server drops a request it cannot read as TLS.
        if !https, let error = error as? HTTPClientError, error == .remoteConnectionClosed {
            return "the server closed the connection without an answer; if it speaks HTTPS, try " + "https:" + server.dropFirst("http:".count)
        }
        if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("certificate verify failed") {
            return "its TLS certificate is not trusted here (CERTIFICATE_VERIFY_FAILED); for a certificate of your own making, "
                + "log in with `--ca-file` and the certificate's PEM file (the certificate is saved with the token)"
        }
        if let error = error as? HTTPClientError, error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            return "no answer in time"
        }
        if text.contains("Connection refused") { return "connection refused" }
        if error is NIOTooManyBytesError { return "its answer is larger than \(HTTPSyncTransport.maxAnswerBytes >> 20) MiB, more than any sync answer" }
        return text
    }
}
