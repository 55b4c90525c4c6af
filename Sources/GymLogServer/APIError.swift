import Foundation
import GymLogSync
import Hummingbird

/// A protocol error: HTTP status, stable code, a sentence saying what to do, and optional
/// context. Routes throw it; `RequestLogMiddleware` turns it (and every other error) into
/// the one JSON error shape.
public struct APIError: Error, HTTPResponseError, Equatable {
    public var status: HTTPResponse.Status
    public var body: ErrorBody

    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String, lastAppliedSeq: Int64? = nil, serverTimeMs: Int64? = nil) {
        self.status = status
        self.body = ErrorBody(error: ErrorDetail(code: code, message: message), lastAppliedSeq: lastAppliedSeq, serverTimeMs: serverTimeMs)
    }

    public var headers: HTTPFields { [:] }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        jsonResponse(body, status: status)
    }

    static let unauthorized = APIError(.unauthorized, "unauthorized",
        "the token is missing, unknown or revoked; send `Authorization: Bearer <token>` with a token from `gymlog-server user add`.")

    static func payloadTooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, "payload_too_large",
                 "the request body is larger than the server's limit of \(limit) bytes; send smaller batches.")
    }

    static func notFound(_ request: Request) -> APIError {
        APIError(.notFound, "not_found", "there is no \(request.method) \(request.uri.path) endpoint; see openapi.yaml for the API.")
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
    var headers = HTTPFields()
    headers[.contentType] = "application/json; charset=utf-8"
    headers[.cacheControl] = "no-store"
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
}
