import Foundation
import GymLogWire
import Hummingbird

/// Reading request bodies: JSON only, within a size limit, with errors that name the problem.
extension SyncRoutes {
    func readJSONBody(_ request: Request, limit: Int) async throws -> Data {
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/json" else {
            throw APIError(.unsupportedMediaType, "unsupported_media_type",
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
        if let problem = JSONDiagnosis.problem(in: data) {
            throw APIError(.badRequest, "invalid_json", "the request body is not valid JSON: \(problem); send a JSON object as documented in openapi.yaml.")
        }
    }

    /// `alreadyChecked`: the caller ran `checkJSON` on `data`.
    func decode<T: Decodable>(_ data: Data, alreadyChecked: Bool = false) throws -> T {
        // JSONDecoder alone lets some malformed bodies through (trailing commas; broken
        // strings where a value is read with `try?`) and names no problem: check first.
        if !alreadyChecked { try checkJSON(data) }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            let problem = JSONDiagnosis.unpairedSurrogate(in: data).map { ": " + $0 } ?? ""
            throw APIError(.badRequest, "invalid_json", "the request body is not valid JSON\(problem); send a JSON object as documented in openapi.yaml.")
        } catch let error as DecodingError {
            throw APIError(.badRequest, "invalid_request", "the request body does not have the documented shape: \(Self.describe(error)). See openapi.yaml.")
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
