import Foundation
import GymLogCore
import GymLogServerCore
import GymLogWire
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOSSL
import NIOConcurrencyHelpers
import NIOCore
import Logging
import ServiceLifecycle

/// The request context every route gets: Hummingbird's, plus the client's address and, once
/// a route authenticated it, the user (both for the request's log line).
public struct ServerContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The client a trusted proxy forwards for (`ClientAddress.resolve`), set by `RequestLogMiddleware`.
    var forwardedClient: String?
    /// The user the request's token belongs to, as `SyncRoutes.authenticate` found it: a
    /// reference, so the route's finding reaches the middleware's log line.
    let user = RequestUser()

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The client's IP address, for the log and per-address limits: the peer's, or behind a
    /// `--trusted-proxy` the one it forwards for.
    var clientAddress: String { forwardedClient ?? remoteAddress?.ipAddress ?? "unknown" }
}

/// The authenticated user of one request, written by the route, read by the log line.
final class RequestUser: Sendable {
    private let box = NIOLockedValueBox<String?>(nil)
    var name: String? {
        get { box.withLockedValue { $0 } }
        set { box.withLockedValue { $0 = newValue } }
    }
}

/// Builds the server (storage from `config.database`) ready to `runService()`; tests run it
/// with `app.test(.router)` or `.live`.
public func buildApplication(_ config: ServerConfig) async throws -> some ApplicationProtocol {
    let storage = try openSyncStorage(config.database)
    return try await buildApplication(config, storage: storage)
}

/// Builds the server on a given storage.
public func buildApplication(_ config: ServerConfig, storage: any SyncStorage) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "gymlog-server")
    logger.logLevel = config.logLevel
    let metrics = ServerMetrics()
    let router = try await buildRouter(config, storage: storage, logger: logger, metrics: metrics)
    let startLogger = logger
    var app = Application(
        router: router,
        server: try httpServer(config, logger: startLogger),
        configuration: .init(address: .hostname(config.host, port: config.port), serverName: "gymlog-server",
                             availableConnectionsDelegate: ConnectionLimit(limit: config.maxConnections, logger: logger, metrics: metrics)),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? config.port
            startLogger.info("gymlog-server listening", metadata: [
                "host": "\(config.host)", "port": "\(port)", "storage": "\(storage.backend)",
            ])
            config.onListening?(config.host, port)
        },
        logger: logger
    )
    // The storage's client runs as a service of the application; the server starts listening
    // only once the database answers (an unreachable or unmigratable one fails `serve` here).
    app.addServices(storage.applicationServices())
    if let address = config.metricsAddress {
        app.addServices(metricsApplication(address, storage: storage, metrics: metrics, config: config, logger: logger))
    }
    app.beforeServerStarts { _ = try await storage.epoch() }
    return app
}

/// HTTP/1.1 behind the connection guard (timeouts), in TLS when the config names a certificate and key (read now, so a bad file
/// stops `serve` before it listens, with the file named).
func httpServer(_ config: ServerConfig, logger: Logger) throws -> HTTPServerBuilder {
    let http = HTTPServerBuilder { responder in GuardedHTTP1Channel(responder: responder, config: config, logger: logger) }
    guard let tls = config.tls else { return http }
    let chain: [NIOSSLCertificate], key: NIOSSLPrivateKey
    do { chain = try NIOSSLCertificate.fromPEMFile(tls.certificateChain) } catch {
        throw ServerSetupError("--tls-cert \(tls.certificateChain) is not a readable PEM certificate chain (\(error)).")
    }
    do { key = try NIOSSLPrivateKey(file: tls.privateKey, format: .pem) } catch {
        throw ServerSetupError("--tls-key \(tls.privateKey) is not a readable PEM private key (\(error)).")
    }
    let configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
    return try .tls(http, tlsConfiguration: configuration)
}

/// `--metrics-address`: `/metrics` alone on an address of its own (a private interface or
/// port the scraper reaches), run as a service of the main application so both stop together.
func metricsApplication(_ address: (host: String, port: Int), storage: any SyncStorage, metrics: ServerMetrics,
                        config: ServerConfig, logger: Logger) -> some ApplicationProtocol & Service {
    let router = Router(context: ServerContext.self)
    router.add(middleware: RequestLogMiddleware(metrics: metrics, served: [.metrics], trustedProxies: config.trustedProxies))
    router.get(RouterPath(Endpoint.metrics.path)) { _, _ in await metricsResponse(metrics, storage) }
    return Application(
        router: router,
        configuration: .init(address: .hostname(address.host, port: address.port), serverName: "gymlog-server-metrics"),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? address.port
            logger.info("gymlog-server metrics listening", metadata: ["host": "\(address.host)", "port": "\(port)"])
            config.onMetricsListening?(address.host, port)
        },
        logger: logger
    )
}

/// `GET /metrics`: Prometheus' text exposition format, version 0.0.4.
func metricsResponse(_ metrics: ServerMetrics, _ storage: any SyncStorage) async -> Response {
    let text = await metrics.exposition(storage)
    return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: text)))
}

extension Endpoint {
    /// The endpoint's method as the router spells it (`Endpoint`, GymLogWire, lists what is served).
    var httpMethod: HTTPRequest.Method {
        switch method {
        case .get: .get
        case .post: .post
        case .put: .put
        }
    }
}

/// `/readyz`: 200 `{"status":"ready"}` when the store answers a read and a rolled-back write
/// (see `SyncStorage.checkReadiness`), else 503 `not_ready` naming the problem, so a load
/// balancer stops sending traffic to an instance whose database is gone, read-only or corrupt.
///
/// The check of a store that can hang (`SyncStorage.readinessIsBounded`: PostgreSQL down, its
/// connections hanging) is bounded by `--readiness-timeout`: a database that does not answer
/// in time is not ready, and a load balancer's probe gets its answer in time.
func readiness(_ storage: any SyncStorage, limit: Duration, logger: Logger) async throws -> Response {
    let answered: Bool
    do {
        if storage.readinessIsBounded {
            answered = try await withinTimeLimit(limit) { try await storage.checkReadiness() }
        } else {
            try await storage.checkReadiness()
            answered = true
        }
    } catch StorageError.databaseUnavailable(let problem) {
        throw APIError.notReady("its \(storage.backend) database is not answering (\(problem)); check that it is running and reachable.")
    } catch let error as StorageError {
        throw APIError.notReady(error.description)
    } catch {
        logger.error("readiness check failed", metadata: ["backend": "\(storage.backend)", "error": "\(error)"])
        throw APIError.notReady("its \(storage.backend) database did not answer; check that it is reachable and writable.")
    }
    guard answered else {
        throw APIError.notReady("its \(storage.backend) database did not answer in time; check that it is reachable.")
    }
    return jsonResponse(HealthStatus(status: "ready"))
}

/// The routes of the sync protocol (v1, and v2's pull) plus `/healthz`, `/readyz` and `/metrics` (unless it has an
/// address of its own), behind the request-id/error/metrics middleware.
public func buildRouter(_ config: ServerConfig, storage: any SyncStorage, logger: Logger,
                        metrics: ServerMetrics = ServerMetrics()) async throws -> Router<ServerContext> {
    let routes = SyncRoutes(config: config, storage: storage, metrics: metrics)
    let router = Router(context: ServerContext.self)
    let served = Endpoint.allCases.filter { !($0 == .metrics && config.metricsAddress != nil) }
    router.add(middleware: RequestLogMiddleware(metrics: metrics, served: served, trustedProxies: config.trustedProxies))
    for endpoint in served {
        router.on(RouterPath(endpoint.path), method: endpoint.httpMethod) { request, context -> Response in
            switch endpoint {
            case .healthz: return jsonResponse(HealthStatus(status: "ok"))
            case .readyz: return try await readiness(storage, limit: config.readinessTimeout, logger: context.logger)
            case .metrics: return await metricsResponse(metrics, storage)
            case .capabilities: return jsonResponse(routes.capabilities)
            case .register: return try await routes.register(request, context: context)
            case .push:
                // Every answer counts, a refusal or a 503 too: an outage must show in the latency.
                let started = ContinuousClock.now
                defer { metrics.pushAnswered(duration: ContinuousClock.now - started) }
                return try await routes.push(request, context: context)
            case .account: return try await routes.account(request, context: context)
            case .accountKey: return try await routes.setAccountKey(request, context: context)
            case .pull, .compactPull:
                let started = ContinuousClock.now
                defer { metrics.pulled(duration: ContinuousClock.now - started) }
                return try await routes.pull(request, context: context, version: endpoint == .pull ? .v1 : .v2)
            }
        }
    }
    return router
}

/// Gives each request an id (`X-Request-ID`, taken from the client when sane), logs one
/// line per request, and turns every error into the JSON error shape.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    static let header = HTTPField.Name("X-Request-ID")!
    /// Counts each answered request by route and status.
    let metrics: ServerMetrics
    /// The endpoints this router serves: a request for another is counted as route `other`,
    /// and a served path asked with the wrong method is answered 405.
    let served: [Endpoint]
    /// Reverse proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`).
    var trustedProxies: Set<String> = []

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let supplied = request.headers[Self.header].flatMap { id in
            id.utf8.count <= 128 && !id.isEmpty && id.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) ? id : nil
        }
        let requestID = supplied ?? UUID().uuidString.lowercased()
        context.logger = context.logger.with(requestID: requestID)
        if !trustedProxies.isEmpty, let peer = context.remoteAddress?.ipAddress {
            context.forwardedClient = ClientAddress.resolve(peer: peer, forwardedFor: request.headers[values: Self.forwardedFor], trusted: trustedProxies)
        }
        let started = ContinuousClock.now
        var response: Response
        do {
            try Self.checkTransferCoding(request)
            try Self.checkSingleHost(request)
            response = try await next(request, context)
        } catch {
            response = Self.errorResponse(error, request: request, context: context, requestID: requestID, served: served)
        }
        response.headers[Self.header] = requestID
        let path = request.uri.path
        metrics.request(route: served.first { $0.path == path }?.path ?? "other", status: response.status.code)
        let elapsed = ContinuousClock.now - started
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        // Who asked: a failing friend's device is told apart by its user and address.
        var who: Logger.Metadata = ["client": "\(context.clientAddress)"]
        if let user = context.user.name { who["user"] = "\(user)" }
        Self.log(context.logger, method: "\(request.method)", path: request.uri.path, status: response.status.code, milliseconds: ms, extra: who)
        return response
    }

    /// The one log line of every response (`ConnectionGuard` writes it for the requests the
    /// HTTP parser refuses); `logger` carries the request id.
    static func log(_ logger: Logger, method: String, path: String, status: Int, milliseconds: Double, extra: Logger.Metadata = [:]) {
        logger.info("request", metadata: extra.merging([
            "method": "\(method)", "path": "\(path)", "status": "\(status)", "duration_ms": "\(String(format: "%.2f", milliseconds))",
        ]) { $1 })
    }

    /// A body in a transfer coding other than `chunked` (`gzip, chunked`): the HTTP parser
    /// removes the chunking and would hand over the still-compressed bytes as the body.
    /// RFC 9112 6.1: a server answers a transfer coding it does not understand with 501.
    static func checkTransferCoding(_ request: Request) throws {
        let codings = request.headers[values: .transferEncoding].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if let other = codings.first(where: { $0 != "chunked" }) {
            throw APIError(.notImplemented, .unsupportedTransferEncoding,
                           "the server does not understand the transfer coding \"\(other.prefix(40))\"; send the body as is, or only chunked.")
        }
    }

    /// Two `Host` headers: the HTTP layer takes the first as the request's authority and keeps
    /// the others as plain fields, so a proxy and the server may each see another host.
    /// RFC 9112 3.2: a server answers a request with more than one Host field with 400.
    static func checkSingleHost(_ request: Request) throws {
        if request.headers[Self.host] != nil {
            throw APIError(.badRequest, .badRequest, "the request has more than one Host header; send exactly one (RFC 9112, section 3.2).")
        }
    }

    static let host = HTTPField.Name("Host")!

    static func errorResponse(_ error: any Error, request: Request, context: Context, requestID: String, served: [Endpoint]) -> Response {
        let apiError: APIError
        switch error {
        case let e as APIError:
            apiError = e
        case StorageError.notReady(let problem):
            // The database cannot take requests (unreachable, its disk full, found corrupt at
            // run time): 503, as /readyz says. The store logged the problem; the request line
            // shows each 503.
            apiError = .notReady(problem)
        case StorageError.databaseUnavailable(let problem):
            apiError = .databaseUnavailable(problem)
        case StorageError.tokenWithdrawn:
            // The token was revoked or rotated, or its user deleted, after it was checked and
            // before the write (`user revoke` racing a slow body): it no longer works, and the
            // store wrote nothing.
            apiError = .unauthorized
        case StorageError.keyChanged:
            apiError = .keyRequired
        case is CancellationError:
            // The shutdown grace ran out while this request was still going (see `runUntilSignalled`).
            apiError = APIError(.serviceUnavailable, .shuttingDown, "the server stopped before this request was done; nothing more of it was applied. Try again shortly.")
        case let e as HTTPError where e.status == .notFound:
            apiError = .notFound(request, served: served)
        case let e as any HTTPResponseError where e.status == .contentTooLarge:
            apiError = APIError(.contentTooLarge, .payloadTooLarge, "the request body is too large; send smaller batches.")
        case let e as any HTTPResponseError:
            apiError = APIError(e.status, rawCode: e.status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_"),
                                "the request failed: \(e.status.reasonPhrase).")
        default:
            context.logger.error("internal error", metadata: ["error": "\(error)"])
            apiError = APIError(.internalServerError, .internalError,
                                "the server failed to handle the request; try again later, and report request id \(requestID) if it persists.")
        }
        var response = jsonResponse(apiError.body, status: apiError.status)
        response.headers.append(contentsOf: apiError.headers)
        return response
    }
}

extension Logger {
    /// This logger with `request_id` in every line.
    func with(requestID: String) -> Logger {
        var logger = self
        logger[metadataKey: "request_id"] = .string(requestID)
        return logger
    }
}
