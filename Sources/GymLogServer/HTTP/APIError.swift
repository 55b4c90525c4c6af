import Foundation
import GymLogWire
import Hummingbird
import GymLogServerCore

/// A protocol error: HTTP status, stable code, a sentence saying what to do, and optional
/// context. Routes throw it; `RequestLogMiddleware` turns it (and every other error) into
/// the one JSON error shape.
public struct APIError: Error, HTTPResponseError, Equatable {
    public var status: HTTPResponse.Status
    public var body: ErrorBody
    /// Sent with the JSON body (`Allow` on a 405).
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ code: ErrorCode, _ message: String, lastAppliedSeq: Int64? = nil, serverTimeMs: Int64? = nil,
                headers: HTTPFields = [:]) {
        self.init(status, rawCode: code.rawValue, message, lastAppliedSeq: lastAppliedSeq, serverTimeMs: serverTimeMs, headers: headers)
    }

    /// An error whose code is not one of the protocol's `ErrorCode`s: only for an HTTP error of
    /// the framework's own, coded from its reason phrase.
    init(_ status: HTTPResponse.Status, rawCode: String, _ message: String, lastAppliedSeq: Int64? = nil, serverTimeMs: Int64? = nil,
         headers: HTTPFields = [:]) {
        self.status = status
        self.body = ErrorBody(error: ErrorDetail(code: rawCode, message: message), lastAppliedSeq: lastAppliedSeq, serverTimeMs: serverTimeMs)
        self.headers = headers
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = jsonResponse(body, status: status)
        response.headers.append(contentsOf: headers)
        return response
    }

    /// 401 with the challenge RFC 9110 11.6.1 requires on every 401 (RFC 6750's Bearer scheme).
    static let unauthorized = APIError(.unauthorized, .unauthorized,
        "the token is missing, unknown or revoked; send `Authorization: Bearer <token>` with a token from `gymlog-server user add`.",
        headers: [.wwwAuthenticate: #"Bearer realm="gymlog""#])

    /// 401 for a token an administrator withdrew: the code says what they did (`TokenWithdrawal`),
    /// the sentence what the user does next. A client from before these codes shows its own
    /// 401 text, which asks for a login with a valid token: still right.
    static func withdrawn(_ withdrawal: TokenWithdrawal) -> APIError {
        let message = switch withdrawal {
        case .rotated:
            "the server's administrator replaced this account's token (`gymlog-server user rotate`), so this one no longer works; "
                + "ask them for the new token and log in again with it (`gymlog login --server URL` reads it from standard input). Nothing was lost."
        case .revoked:
            "the server's administrator revoked this account (`gymlog-server user revoke`); its data is kept on the server. "
                + "Ask them to let it in again (`gymlog-server user activate`), then log in with the new token (`gymlog login --server URL` reads it from standard input)."
        case .deleted:
            "the server's administrator deleted this account and everything the server kept of it (`gymlog-server user delete`); "
                + "each device keeps its own history. Ask them for a new account, then log in with its token (`gymlog login --server URL` reads it from standard input): the history goes up again."
        }
        return APIError(.unauthorized, withdrawal.errorCode, message, headers: unauthorized.headers)
    }

    /// 403 `key_required`: the account is encrypted end to end and the request came without
    /// its key (at authentication, or a key set while a push ran: `StorageError.keyChanged`).
    /// gymlog 0.12.0 and later word this code themselves; the sentence is for a client from
    /// before end-to-end encryption (0.11.0 shows the server's message as it is), which has no
    /// `gymlog key` and no phrase to give: it is told to upgrade first.
    static let keyRequired = APIError(.forbidden, .keyRequired,
        "this account's history is encrypted end to end (since gymlog 0.12.0), and this device sent no key for it. "
            + "If `gymlog --version` here says 0.11.0 or older, upgrade gymlog on this device first; then log in again here "
            + "(`gymlog login --server URL`, with the token and the recovery phrase that `gymlog key` shows on a device that syncs). "
            + "Nothing of this device was stored; its changes are kept on it.")

    /// 503 `not_ready`: the database cannot serve (unreachable, read-only, corrupt, its disk
    /// full), with `Retry-After`, on every route and on `/readyz`. `problem` never names a
    /// path or a URL: the store logs those.
    static func notReady(_ problem: String) -> APIError {
        APIError(.serviceUnavailable, .notReady, "the server is not ready: \(problem)",
                 headers: [.retryAfter: "\(notReadyRetryAfterSeconds)"])
    }

    /// 503 `database_unavailable`: this server answers, but its database server does not
    /// (PostgreSQL down or restarting), with `Retry-After`. A code of its own, so a client
    /// says the server's database is down, not the network or the server.
    static func databaseUnavailable(_ problem: String) -> APIError {
        APIError(.serviceUnavailable, .databaseUnavailable,
                 "the sync server is running, but its database is not answering (\(problem)); nothing of this request was applied. Try again later; if it lasts, tell the server's operator.",
                 headers: [.retryAfter: "\(notReadyRetryAfterSeconds)"])
    }

    /// Seconds a client is asked to wait before trying a server that is not ready again.
    static let notReadyRetryAfterSeconds = 5

    /// 429 with `Retry-After` in whole seconds (at least 1).
    static func tooManyRequests(_ code: ErrorCode, _ message: String, retryAfterMs: Int64) -> APIError {
        let seconds = max(1, (retryAfterMs + 999) / 1000)
        return APIError(.tooManyRequests, code, message + " (Retry-After: \(seconds) s)", headers: [.retryAfter: "\(seconds)"])
    }

    static func payloadTooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, .payloadTooLarge,
                 "the request body is larger than the server's limit of \(limit) bytes; send smaller batches.")
    }

    /// 404 for a path the server does not serve; 405 with `Allow` for a served path asked with
    /// another method (RFC 9110 15.5.6), so a client sees it has the method wrong, not the URL.
    static func notFound(_ request: Request, served: [Endpoint]) -> APIError {
        let allowed = served.filter { $0.path == request.uri.path }.map(\.method.rawValue)
        guard !allowed.isEmpty else {
            return APIError(.notFound, .notFound, "there is no \(request.method) \(request.uri.path) endpoint; see openapi.yaml for the API.")
        }
        var headers = HTTPFields()
        headers[.allow] = allowed.joined(separator: ", ")
        return APIError(.methodNotAllowed, .methodNotAllowed,
                        "there is no \(request.method) \(request.uri.path) endpoint; use \(allowed.joined(separator: " or ")) \(request.uri.path) (see openapi.yaml).",
                        headers: headers)
    }

    /// The client stopped sending before the body was whole (it hung up, or sent less than
    /// its Content-Length): its fault, not the server's.
    static func incompleteBody(_ error: any Error) -> APIError {
        APIError(.badRequest, .incompleteBody,
                 "the request body ended before it was complete (\(error)); send the whole body, with a Content-Length that matches it.")
    }
}

private let jsonEncoder: JSONEncoder = {
    let e = JSONEncoder()
    e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return e
}()

/// A JSON response with the given status.
func jsonResponse(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
    let data = (try? jsonEncoder.encode(value)) ?? Data("{}".utf8)
    return jsonResponse(bytes: data, status: status)
}

func jsonResponse(bytes: some Sequence<UInt8>, status: HTTPResponse.Status = .ok) -> Response {
    Response(status: status, headers: jsonHeaders, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
}

/// The headers and body of a JSON answer, for writing below the router (`ConnectionGuard`).
func jsonParts(_ value: some Encodable) -> (HTTPFields, ByteBuffer) {
    (jsonHeaders, ByteBuffer(bytes: (try? jsonEncoder.encode(value)) ?? Data("{}".utf8)))
}

private var jsonHeaders: HTTPFields {
    var headers = HTTPFields()
    headers[.contentType] = "application/json; charset=utf-8"
    headers[.cacheControl] = "no-store"
    return headers
}
