import Foundation
import GymLogCore
import GymLogSync
import Hummingbird
import Logging

/// The handlers of the `/v1` endpoints. Status codes are chosen here and only here.
struct SyncRoutes: Sendable {
    let config: ServerConfig
    let storage: any SyncStorage
    let epoch: String

    var capabilities: Capabilities {
        Capabilities(protocolVersion: syncProtocolVersion, maxBodyBytes: config.maxBodyBytes, maxPushEvents: config.maxPushEvents,
                     maxPullLimit: config.maxPullLimit, registrationOpen: config.openRegistration,
                     maxClockAheadMs: Int64(config.maxClockAheadSeconds) * 1000)
    }

    // MARK: register

    func register(_ request: Request) async throws -> Response {
        guard config.openRegistration else {
            throw APIError(.forbidden, "registration_closed",
                           "this server does not allow registration; ask its operator for a token (`gymlog-server user add NAME`).")
        }
        let body: RegisterRequest = try decode(try await readJSONBody(request, limit: 64 * 1024))
        guard PushValidation.isPlainName(body.name) else {
            throw APIError(.badRequest, "invalid_name", "a user name is 1 to 64 letters, digits, '_', '.' or '-'; choose another name.")
        }
        let token = Tokens.generate()
        do {
            let user = try await storage.createUser(name: body.name, tokenHash: Tokens.hash(token), now: config.now())
            return jsonResponse(RegisterResponse(user: user.name, token: token), status: .created)
        } catch StorageError.userExists {
            throw APIError(.conflict, "user_exists", "a user named \"\(body.name)\" already exists; choose another name.")
        }
    }

    // MARK: push

    func push(_ request: Request, context: ServerContext) async throws -> Response {
        let user = try await authenticate(request)
        let started = ContinuousClock.now
        let push: IncomingPush = try decode(try await readJSONBody(request, limit: config.maxBodyBytes))
        let decoded = ContinuousClock.now
        guard PushValidation.isPlainName(push.deviceID) else {
            throw APIError(.badRequest, "invalid_device_id", "device_id must be 1 to 64 letters, digits, '_', '.' or '-' (a UUID).")
        }
        guard push.events.count <= config.maxPushEvents else {
            throw APIError(.contentTooLarge, "too_many_events",
                           "the push holds \(push.events.count) events; send at most \(config.maxPushEvents) per request, in smaller batches.")
        }
        var previous: Int64 = 0
        for event in push.events {
            guard event.seq > previous else {
                throw APIError(.badRequest, "invalid_sequence",
                               "events must have seq >= 1 in strictly ascending order; seq \(event.seq) follows \(previous).")
            }
            previous = event.seq
        }
        let items = push.events.map(PushValidation.validate)
        // Only fields that would be stored can poison the merge; a rejected event's clock cannot.
        var top = Int64.min
        for case .valid(let event) in items { for field in event.fields where field.clock.millis > top { top = field.clock.millis } }
        let now = config.now()
        let maxAheadMs = Int64(config.maxClockAheadSeconds) * 1000
        if top > now, top - now > maxAheadMs {
            throw APIError(.unprocessableContent, "clock_ahead",
                           "the device clock is ahead of the server by about \(describeDuration(ms: top - now)); set this device's date and time correctly (automatic time), then sync again.",
                           serverTimeMs: now)
        }
        let validated = ContinuousClock.now
        let outcome = try await storage.push(user: user, deviceID: push.deviceID, items: items, now: now)
        context.logger.debug("push timing", metadata: [
            "events": "\(items.count)", "decode": "\(decoded - started)", "validate": "\(validated - decoded)",
            "store": "\(ContinuousClock.now - validated)",
        ])
        switch outcome {
        case .completed(let lastApplied, let head, let results):
            let rejected = results.count { $0.status == .rejected }
            if rejected > 0 { context.logger.notice("push rejected events", metadata: ["rejected": "\(rejected)", "user": "\(user.name)"]) }
            return jsonResponse(PushResponse(epoch: epoch, lastAppliedSeq: lastApplied, cursor: "\(epoch):\(head)", results: results))
        case .sequenceGap(let lastApplied, let got):
            throw APIError(.conflict, "sequence_gap",
                           "event seq \(got) skips ahead: the server has applied this device's events up to \(lastApplied); nothing of this push was applied, resend starting at seq \(lastApplied + 1).",
                           lastAppliedSeq: lastApplied)
        }
    }

    // MARK: pull

    func pull(_ request: Request) async throws -> Response {
        let user = try await authenticate(request)
        let query = request.uri.queryParameters
        guard let device = query["device_id"].map(String.init), PushValidation.isPlainName(device) else {
            throw APIError(.badRequest, "invalid_device_id", "pull needs ?device_id=<this database's device id> (1 to 64 letters, digits, '_', '.' or '-').")
        }
        var cursor = SyncCursor.start
        if let text = query["cursor"].map(String.init), !text.isEmpty {
            guard let parsed = SyncCursor(text) else {
                throw APIError(.badRequest, "invalid_cursor",
                               "the cursor \"\(text.prefix(100))\" is not `<epoch>:<n>` or `0`; pull with cursor=0 to start over.")
            }
            cursor = parsed
        }
        var limit = config.defaultPullLimit
        if let text = query["limit"].map(String.init) {
            guard let n = Int(text), n >= 1 else {
                throw APIError(.badRequest, "invalid_limit", "limit must be a whole number from 1 to \(config.maxPullLimit).")
            }
            limit = min(n, config.maxPullLimit)
        }
        if let cursorEpoch = cursor.epoch, cursorEpoch != epoch {
            let page = try await storage.pull(user: user, deviceID: device, after: 0, limit: 1, maxBytes: 0)
            return jsonResponse(PullResponse(epoch: epoch, changes: [], cursor: "\(epoch):0", hasMore: false,
                                             lastAppliedSeq: page.lastAppliedSeq, epochChanged: true))
        }
        let page = try await storage.pull(user: user, deviceID: device, after: cursor.position, limit: limit, maxBytes: config.maxPullBytes)
        return jsonResponse(bytes: encodePullResponse(page, epoch: epoch).utf8)
    }

    // MARK: helpers

    func authenticate(_ request: Request) async throws -> AuthenticatedUser {
        guard let header = request.headers[.authorization], header.count > 7,
              header.prefix(7).lowercased() == "bearer " else { throw APIError.unauthorized }
        let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty, token.utf8.count <= 256,
              let user = try await storage.userForTokenHash(Tokens.hash(token)) else { throw APIError.unauthorized }
        return user
    }

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
        }
    }

    func decode<T: Decodable>(_ data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw APIError(.badRequest, "invalid_json", "the request body is not valid JSON; send a JSON object as documented in openapi.yaml.")
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

/// Writes the pull answer by hand: it carries up to thousands of fields and JSONEncoder
/// would dominate the cost of the query.
func encodePullResponse(_ page: PullPage, epoch: String) -> String {
    var out = "{\"epoch\":"
    out.reserveCapacity(128 + page.fieldCount * 96)
    appendJSONString(epoch, to: &out)
    out += ",\"changes\":["
    for (i, row) in page.rows.enumerated() {
        if i > 0 { out += "," }
        out += "{\"entity\":"
        appendJSONString(row.entity, to: &out)
        out += ",\"entity_id\":"
        appendJSONString(row.entityID, to: &out)
        out += ",\"fields\":{"
        for (j, field) in row.fields.enumerated() {
            if j > 0 { out += "," }
            appendJSONString(field.name, to: &out)
            out += ":{\"v\":"
            appendJSON(field.value, to: &out)
            out += ",\"c\":"
            appendJSONString(field.clock, to: &out)
            out += "}"
        }
        out += "}}"
    }
    out += "],\"cursor\":"
    appendJSONString("\(epoch):\(page.cursor)", to: &out)
    out += ",\"has_more\":\(page.hasMore),\"last_applied_seq\":\(page.lastAppliedSeq)}"
    return out
}
