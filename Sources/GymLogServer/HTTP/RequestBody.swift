import Foundation
import GymLogWire
import Hummingbird
import GymLogServerCore

extension APIError {
    /// 400 `invalid_json`; `problem` says what and where (empty when nothing more is known).
    static func invalidJSON(_ problem: String) -> APIError {
        APIError(.badRequest, .invalidJSON,
                 "the request body is not valid JSON\(problem.isEmpty ? "" : ": " + problem); send a JSON object as documented in openapi.yaml.")
    }

    /// 400 `invalid_request`: `problem` names the part of the body that is not as documented.
    static func invalidRequest(_ problem: String) -> APIError {
        APIError(.badRequest, .invalidRequest, "the request body does not have the documented shape: \(problem). See openapi.yaml.")
    }
}

/// Reading request bodies: JSON only, within a size limit, with errors that name the problem.
extension SyncRoutes {
    func readJSONBody(_ request: Request, limit: Int) async throws -> Data {
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/json" else {
            throw APIError(.unsupportedMediaType, .unsupportedMediaType,
                           "send the body as JSON with `Content-Type: application/json`\(type.map { " (got \($0))" } ?? "").")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw APIError.payloadTooLarge(limit: limit)
        }
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Data(buffer.readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge(limit: limit)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw APIError.incompleteBody(error)
        }
    }

    /// 400 `invalid_json` naming the problem unless `data` is strict JSON.
    func checkJSON(_ data: Data) throws {
        if let problem = JSONReader.problem(in: data) { throw APIError.invalidJSON(problem) }
    }

    /// A body other than a push (register), checked strictly first: JSONDecoder alone lets
    /// some malformed bodies through (trailing commas; broken strings where a value is read
    /// with `try?`) and names no problem.
    func decode<T: Decodable>(_ data: Data) throws -> T {
        try checkJSON(data)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw APIError.invalidJSON(JSONReader.unpairedSurrogate(in: data) ?? "")
        } catch let error as DecodingError {
            throw APIError.invalidRequest(Self.describe(error))
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ p: [any CodingKey]) -> String {
            p.isEmpty ? "the body" : p.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let c): return "\(path(c.codingPath + [key])) is missing"
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): return "\(path(c.codingPath)) has the wrong type"
        @unknown default: return "\(error)"
        }
    }
}
