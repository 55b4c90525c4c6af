import Foundation
import GymLogCore
import GymLogWire
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import Logging
import ServiceLifecycle

/// The request context every route gets: Hummingbird's, plus the client's address.
public struct ServerContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The client's IP address (the proxy's, behind a reverse proxy), for per-address limits.
    var clientAddress: String { remoteAddress?.ipAddress ?? "unknown" }
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
    let router = try await buildRouter(config, storage: storage, logger: logger)
    let startLogger = logger
    var app = Application(
        router: router,
        server: HTTPServerBuilder { responder in GuardedHTTP1Channel(responder: responder, config: config, logger: startLogger) },
        configuration: .init(address: .hostname(config.host, port: config.port), serverName: "gymlog-server",
                             availableConnectionsDelegate: ConnectionLimit(limit: config.maxConnections, logger: logger)),
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
    app.beforeServerStarts { _ = try await storage.epoch() }
    return app
}

/// Every endpoint the server serves. The router is built from this list, so the OpenAPI
/// conformance test can check the spec against exactly what is served.
public enum Endpoint: String, CaseIterable, Sendable {
    case healthz, readyz, capabilities, register, push, pull

    public var method: HTTPRequest.Method {
        switch self {
        case .healthz, .readyz, .capabilities, .pull: .get
        case .register, .push: .post
        }
    }

    public var path: String {
        switch self {
        case .healthz: "/healthz"
        case .readyz: "/readyz"
        case .capabilities: "/v1/capabilities"
        case .register: "/v1/register"
        case .push: "/v1/push"
        case .pull: "/v1/pull"
        }
    }
}

/// `/readyz`: 200 `{"status":"ready"}` when the store answers a read and a rolled-back write
/// (see `SyncStorage.checkReadiness`), else 503 `not_ready` naming the problem, so a load
/// balancer stops sending traffic to an instance whose database is gone, read-only or corrupt.
func readiness(_ storage: any SyncStorage) async throws -> Response {
    do {
        try await storage.checkReadiness()
    } catch let error as StorageError {
        throw APIError(.serviceUnavailable, "not_ready", "the server is not ready: \(error.description)")
    } catch {
        throw APIError(.serviceUnavailable, "not_ready",
                       "the server is not ready: its \(storage.backend) database did not answer (\(error)); check that it is reachable and writable.")
    }
    return jsonResponse(HealthStatus(status: "ready"))
}

/// The routes of the `/v1` protocol plus `/healthz` and `/readyz`, behind the request-id/error middleware.
public func buildRouter(_ config: ServerConfig, storage: any SyncStorage, logger: Logger) async throws -> Router<ServerContext> {
    let routes = SyncRoutes(config: config, storage: storage)
    let router = Router(context: ServerContext.self)
    router.add(middleware: RequestLogMiddleware())
    for endpoint in Endpoint.allCases {
        router.on(RouterPath(endpoint.path), method: endpoint.method) { request, context -> Response in
            switch endpoint {
            case .healthz: jsonResponse(HealthStatus(status: "ok"))
            case .readyz: try await readiness(storage)
            case .capabilities: jsonResponse(routes.capabilities)
            case .register: try await routes.register(request, context: context)
            case .push: try await routes.push(request, context: context)
            case .pull: try await routes.pull(request, context: context)
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

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let supplied = request.headers[Self.header].flatMap { id in
            id.utf8.count <= 128 && !id.isEmpty && id.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) ? id : nil
        }
        let requestID = supplied ?? UUID().uuidString.lowercased()
        context.logger = context.logger.with(requestID: requestID)
        let started = ContinuousClock.now
        var response: Response
        do {
            try Self.checkTransferCoding(request)
            response = try await next(request, context)
        } catch {
            response = Self.errorResponse(error, request: request, context: context, requestID: requestID)
        }
        response.headers[Self.header] = requestID
        let elapsed = ContinuousClock.now - started
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        Self.log(context.logger, method: "\(request.method)", path: request.uri.path, status: response.status.code, milliseconds: ms)
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
            throw APIError(.notImplemented, "unsupported_transfer_encoding",
                           "the server does not understand the transfer coding \"\(other.prefix(40))\"; send the body as is, or only chunked.")
        }
    }

    static func errorResponse(_ error: any Error, request: Request, context: Context, requestID: String) -> Response {
        let apiError: APIError
        switch error {
        case let e as APIError:
            apiError = e
        case is CancellationError:
            // The shutdown grace ran out while this request was still going (see `runUntilSignalled`).
            apiError = APIError(.serviceUnavailable, "shutting_down", "the server stopped before this request was done; nothing more of it was applied. Try again shortly.")
        case let e as HTTPError where e.status == .notFound:
            apiError = .notFound(request)
        case let e as any HTTPResponseError where e.status == .contentTooLarge:
            apiError = APIError(.contentTooLarge, "payload_too_large", "the request body is too large; send smaller batches.")
        case let e as any HTTPResponseError:
            apiError = APIError(e.status, e.status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_"),
                                "the request failed: \(e.status.reasonPhrase).")
        default:
            context.logger.error("internal error", metadata: ["error": "\(error)"])
            apiError = APIError(.internalServerError, "internal_error",
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
