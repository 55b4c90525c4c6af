import Foundation
import GymLogCore
import GymLogWire
import Hummingbird
import Logging

/// The handlers of the `/v1` endpoints. Status codes are chosen here and only here.
struct SyncRoutes: Sendable {
    let config: ServerConfig
    let storage: any SyncStorage
    /// The database's epoch; a user's devices see it with the user's history generation.
    let epoch: String

    /// The epoch a user's cursors carry: the database's, plus the history generation once a
    /// rollback was detected, so every device of the user notices it and starts over.
    func epoch(for user: AuthenticatedUser) -> String {
        user.historyGeneration == 0 ? epoch : "\(epoch)-g\(user.historyGeneration)"
    }

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
        let body = try await readJSONBody(request, limit: config.maxBodyBytes)
        // The hand-written reader takes the common shape; anything else (and every error)
        // goes through JSONDecoder exactly as before.
        let push: IncomingPush = try PushBodyReader.read(body) ?? decode(body)
        let decoded = ContinuousClock.now
        guard PushValidation.isPlainName(push.deviceID) else {
            throw APIError(.badRequest, "invalid_device_id", "device_id must be 1 to 64 letters, digits, '_', '.' or '-' (a UUID).")
        }
        // Sequence numbers belong to one history: a device renumbers its outbox when the epoch
        // changes (wipe, proven rollback), so a push numbered under another epoch (a stale copy
        // delivered late) must not consume numbers the device now uses for other events.
        if let pushed = push.epoch, pushed != epoch(for: user) {
            throw APIError(.conflict, "epoch_changed",
                           "this push was numbered under epoch \"\(pushed.prefix(100))\", but the server's history is now \"\(epoch(for: user))\"; nothing was applied. Pull, then push again.")
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
            let epoch = epoch(for: user)
            let response = PushResponse(epoch: epoch, lastAppliedSeq: lastApplied, cursor: "\(epoch):\(head)", results: results)
            if let bytes = encodePushResponse(response) { return jsonResponse(bytes: bytes.utf8) }
            return jsonResponse(response)
        case .sequenceGap(let lastApplied, let got):
            throw APIError(.conflict, "sequence_gap",
                           "event seq \(got) skips ahead: the server has applied this device's events up to \(lastApplied); nothing of this push was applied, resend starting at seq \(lastApplied + 1).",
                           lastAppliedSeq: lastApplied)
        }
    }

    // MARK: pull

    func pull(_ request: Request, context: ServerContext) async throws -> Response {
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
        var ackedSeq: Int64 = 0
        if let text = query["acked_seq"].map(String.init) {
            guard let n = Int64(text), n >= 0 else {
                throw APIError(.badRequest, "invalid_acked_seq", "acked_seq must be a whole number >= 0: the highest seq the server acknowledged to this device.")
            }
            ackedSeq = n
        }
        var epoch = epoch(for: user)
        func startOver(lastAppliedSeq: Int64) -> Response {
            jsonResponse(PullResponse(epoch: epoch, changes: [], cursor: "\(epoch):0", hasMore: false,
                                      lastAppliedSeq: lastAppliedSeq, epochChanged: true))
        }
        if let cursorEpoch = cursor.epoch, cursorEpoch != epoch {
            let page = try await storage.pull(user: user, deviceID: device, after: 0, limit: 1, maxBytes: 0)
            return startOver(lastAppliedSeq: page.lastAppliedSeq)
        }
        let page = try await storage.pull(user: user, deviceID: device, after: cursor.position, limit: limit, maxBytes: config.maxPullBytes)
        // The device knows more history than this database holds: its cursor is past the head,
        // or it was acknowledged events this database never applied. The database was restored
        // from an older backup. Only this device can tell, but every device of the user may
        // hold a cursor into the lost history that new changes will soon overtake, so the
        // user's history starts a new generation: all their devices start over and re-send.
        if cursor.epoch != nil, ackedSeq > page.lastAppliedSeq || page.cursor < cursor.position {
            let generation = try await storage.startNewHistoryGeneration(user: user)
            var renewed = user
            renewed.historyGeneration = generation
            epoch = self.epoch(for: renewed)
            context.logger.notice("history rolled back; new history generation", metadata: [
                "user": "\(user.name)", "generation": "\(generation)", "acked_seq": "\(ackedSeq)",
                "last_applied_seq": "\(page.lastAppliedSeq)", "cursor": "\(cursor.position)", "head": "\(page.cursor)",
            ])
            return startOver(lastAppliedSeq: page.lastAppliedSeq)
        }
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
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw APIError.incompleteBody(error)
        }
    }

    func decode<T: Decodable>(_ data: Data) throws -> T {
        // JSONDecoder alone lets some malformed bodies through (trailing commas; broken
        // strings where a value is read with `try?`) and names no problem: check first.
        if let problem = JSONDiagnosis.problem(in: data) {
            throw APIError(.badRequest, "invalid_json", "the request body is not valid JSON: \(problem); send a JSON object as documented in openapi.yaml.")
        }
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

/// The push answer written by hand when no result carries an error (the common case: a
/// thousand `applied` results), byte for byte what `jsonResponse` would send (sorted keys);
/// nil otherwise, so answers with error messages still go through JSONEncoder.
func encodePushResponse(_ r: PushResponse) -> String? {
    func plain(_ s: String) -> Bool { s.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7f && $0 != 0x22 && $0 != 0x5c } }
    guard plain(r.cursor), plain(r.epoch), r.results.allSatisfy({ $0.error == nil }) else { return nil }
    var out = "{\"cursor\":\"" + r.cursor + "\",\"epoch\":\"" + r.epoch + "\",\"last_applied_seq\":" + String(r.lastAppliedSeq) + ",\"results\":["
    out.reserveCapacity(out.utf8.count + r.results.count * 40 + 2)
    for (i, result) in r.results.enumerated() {
        if i > 0 { out += "," }
        out += "{\"seq\":"
        out += String(result.seq)
        out += ",\"status\":\""
        out += result.status.rawValue
        out += "\"}"
    }
    out += "]}"
    return out
}

// MARK: - Push body reader

extension IncomingEvent {
    init(seq: Int64, idempotencyKey: String?, entity: String?, entityID: String?, op: String?, fields: [String: IncomingField]?) {
        self.seq = seq; self.idempotencyKey = idempotencyKey; self.entity = entity
        self.entityID = entityID; self.op = op; self.fields = fields
    }
}

extension IncomingField {
    init(value: FieldValue?, clock: String?) { self.value = value; self.clock = clock }
}

/// Reads a `POST /v1/push` body of exactly the documented shape in one pass over the bytes,
/// several times faster than JSONDecoder with the per-field fallbacks `IncomingField` needs.
///
/// It only ever answers for input it reads exactly as JSONDecoder would: anything unusual
/// (malformed JSON, a wrong type anywhere, a duplicate key, a trailing comma, a number that
/// is not a plain integer or a non-integral finite decimal, invalid UTF-8, nesting deeper
/// than 64, ...) makes it return nil, and the caller decodes with JSONDecoder, which then
/// gives the same result or the same `invalid_json` / `invalid_request` error as before.
/// Unknown keys are skipped, as JSONDecoder ignores them.
struct PushBodyReader {
    private struct Bail: Error {}
    private let b: UnsafeBufferPointer<UInt8>
    private var i = 0

    private init(_ b: UnsafeBufferPointer<UInt8>) { self.b = b }

    static func read(_ data: Data) -> IncomingPush? {
        data.withUnsafeBytes { raw -> IncomingPush? in
            var reader = PushBodyReader(raw.bindMemory(to: UInt8.self))
            return try? reader.push()
        }
    }

    /// For tests: the reader's answer on raw bytes.
    static func read(_ bytes: [UInt8]) -> IncomingPush? { read(Data(bytes)) }

    private mutating func push() throws -> IncomingPush {
        var deviceID: String?
        var events: [IncomingEvent]?
        var epoch: String?
        try object { reader, key in
            switch key {
            case "device_id":
                guard deviceID == nil else { throw Bail() }
                deviceID = try reader.string()
            case "epoch":
                guard epoch == nil else { throw Bail() }
                epoch = try reader.string()
            case "events":
                guard events == nil else { throw Bail() }
                events = try reader.events()
            default:
                try reader.skipValue(depth: 1)
            }
        }
        skipWhitespace()
        guard i == b.count, let deviceID, let events else { throw Bail() }
        return IncomingPush(deviceID: deviceID, events: events, epoch: epoch)
    }

    private mutating func events() throws -> [IncomingEvent] {
        var out: [IncomingEvent] = []
        try expect(UInt8(ascii: "["))
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { i += 1; return out }
        while true {
            skipWhitespace()
            out.append(try event())
            skipWhitespace()
            let c = try next()
            if c == UInt8(ascii: "]") { return out }
            guard c == UInt8(ascii: ",") else { throw Bail() }
        }
    }

    private mutating func event() throws -> IncomingEvent {
        var seq: Int64?
        var key: String?, entity: String?, entityID: String?, op: String?
        var fields: [String: IncomingField]?
        var seen: UInt8 = 0
        func once(_ bit: UInt8) throws { guard seen & bit == 0 else { throw Bail() }; seen |= bit }
        try object { r, name in
            switch name {
            case "seq":
                try once(1)
                guard case .int(let n) = try r.number() else { throw Bail() }
                seq = n
            case "idempotency_key": try once(2); key = try r.optionalString()
            case "entity": try once(4); entity = try r.optionalString()
            case "entity_id": try once(8); entityID = try r.optionalString()
            case "op": try once(16); op = try r.optionalString()
            case "fields":
                try once(32)
                if r.peek() == UInt8(ascii: "n") { try r.literal("null"); fields = nil } else { fields = try r.fields() }
            default:
                try r.skipValue(depth: 2)
            }
        }
        guard let seq else { throw Bail() }
        return IncomingEvent(seq: seq, idempotencyKey: key, entity: entity, entityID: entityID, op: op, fields: fields)
    }

    private mutating func fields() throws -> [String: IncomingField] {
        var out: [String: IncomingField] = [:]
        out.reserveCapacity(16)
        try object { r, name in
            guard out[name] == nil else { throw Bail() }
            var value: FieldValue?, clock: String?
            var seen: UInt8 = 0
            try r.object { r, key in
                switch key {
                case "v":
                    guard seen & 1 == 0 else { throw Bail() }
                    seen |= 1
                    switch r.peek() {
                    case UInt8(ascii: "\""): value = .text(try r.string())
                    case UInt8(ascii: "n"): try r.literal("null"); value = .null
                    default: value = try r.number()
                    }
                case "c":
                    guard seen & 2 == 0 else { throw Bail() }
                    seen |= 2
                    clock = try r.optionalString()
                default:
                    try r.skipValue(depth: 4)
                }
            }
            out[name] = IncomingField(value: value, clock: clock)
        }
        return out
    }

    // MARK: JSON pieces

    /// `{ "key": value, ... }`, calling `member` with the reader positioned at each value.
    private mutating func object(_ member: (inout PushBodyReader, String) throws -> Void) throws {
        skipWhitespace()
        try expect(UInt8(ascii: "{"))
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { i += 1; return }
        while true {
            skipWhitespace()
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            try member(&self, key)
            skipWhitespace()
            let c = try next()
            if c == UInt8(ascii: "}") { return }
            guard c == UInt8(ascii: ",") else { throw Bail() }
        }
    }

    private mutating func optionalString() throws -> String? {
        if peek() == UInt8(ascii: "n") { try literal("null"); return nil }
        return try string()
    }

    private func peek() -> UInt8 { i < b.count ? b[i] : 0 }

    private mutating func next() throws -> UInt8 {
        guard i < b.count else { throw Bail() }
        defer { i += 1 }
        return b[i]
    }

    private mutating func expect(_ c: UInt8) throws {
        guard i < b.count, b[i] == c else { throw Bail() }
        i += 1
    }

    private mutating func skipWhitespace() {
        while i < b.count {
            switch b[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard b.count - i >= n else { throw Bail() }
        for k in 0..<n where b[i + k] != word.utf8Start[k] { throw Bail() }
        i += n
    }

    /// A JSON string; nil-free: escapes are decoded, raw control characters, bad escapes,
    /// lone surrogates and invalid UTF-8 bail.
    private mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = i
        var ascii = true
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: b[start..<i])
                i += 1
                return ascii ? String(decoding: slice, as: UTF8.self) : try Self.utf8(slice)
            }
            if c == UInt8(ascii: "\\") { break }
            guard c >= 0x20 else { throw Bail() }
            if c >= 0x80 { ascii = false }
            i += 1
        }
        // Slow path: escapes.
        var bytes = Array(b[start..<i])
        while true {
            let c = try next()
            switch c {
            case UInt8(ascii: "\""):
                return try bytes.withUnsafeBufferPointer { try Self.utf8($0) }
            case UInt8(ascii: "\\"):
                let e = try next()
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(e)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        try literal("\\u")
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw Bail() }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw Bail()
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw Bail() }
                    bytes.append(contentsOf: UTF8.encode(u)!)
                default:
                    throw Bail()
                }
            default:
                guard c >= 0x20 else { throw Bail() }
                bytes.append(c)
            }
        }
    }

    /// The bytes as a String, bailing on invalid UTF-8 (which decoding would replace with U+FFFD).
    private static func utf8(_ bytes: UnsafeBufferPointer<UInt8>) throws -> String {
        let s = String(decoding: bytes, as: UTF8.self)
        guard s.utf8.elementsEqual(bytes) else { throw Bail() }
        return s
    }

    private mutating func hex4() throws -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = try next()
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = v << 4 | UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = v << 4 | UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = v << 4 | UInt32(c - UInt8(ascii: "A") + 10)
            default: throw Bail()
            }
        }
        return v
    }

    /// A JSON number as `IncomingField` would decode it: a plain integer that fits Int64 is
    /// `.int`; a finite non-integral decimal is `.real`. Everything else (overflow, an
    /// integral value written with a fraction or exponent, infinity) bails, so JSONDecoder's
    /// own conversion rules decide.
    private mutating func number() throws -> FieldValue {
        let start = i
        var negative = false
        if peek() == UInt8(ascii: "-") { negative = true; i += 1 }
        guard i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") else { throw Bail() }
        var magnitude: UInt64 = 0
        var overflow = false
        if b[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") {
                let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(UInt64(b[i] - UInt8(ascii: "0")))
                overflow = overflow || o1 || o2
                magnitude = a
                i += 1
            }
        }
        var decimal = false
        if peek() == UInt8(ascii: ".") {
            decimal = true
            i += 1
            guard try digits() > 0 else { throw Bail() }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            decimal = true
            i += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { i += 1 }
            guard try digits() > 0 else { throw Bail() }
        }
        // A number must end at a delimiter.
        switch peek() {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: break
        default: throw Bail()
        }
        if !decimal {
            guard !overflow else { throw Bail() }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else { throw Bail() }
                return .int(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
            }
            guard magnitude <= UInt64(Int64.max) else { throw Bail() }
            return .int(Int64(magnitude))
        }
        guard let d = Double(try Self.utf8(UnsafeBufferPointer(rebasing: b[start..<i]))), d.isFinite, d != d.rounded(.towardZero) else { throw Bail() }
        return .real(d)
    }

    private mutating func digits() throws -> Int {
        let start = i
        while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") { i += 1 }
        return i - start
    }

    /// Skips any JSON value (strings, numbers and literals checked as above).
    private mutating func skipValue(depth: Int) throws {
        guard depth < 64 else { throw Bail() }
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "{"): try object { r, _ in try r.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            i += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { i += 1; return }
            while true {
                try skipValue(depth: depth + 1)
                skipWhitespace()
                let c = try next()
                if c == UInt8(ascii: "]") { return }
                guard c == UInt8(ascii: ",") else { throw Bail() }
            }
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default:
            // Any syntactically valid number; its value does not matter here.
            let start = i
            if peek() == UInt8(ascii: "-") { i += 1 }
            guard peek() >= UInt8(ascii: "0"), peek() <= UInt8(ascii: "9") else { throw Bail() }
            if peek() == UInt8(ascii: "0") { i += 1 } else { _ = try digits() }
            if peek() == UInt8(ascii: ".") { i += 1; guard try digits() > 0 else { throw Bail() } }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                i += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { i += 1 }
                guard try digits() > 0 else { throw Bail() }
            }
            guard i > start else { throw Bail() }
            switch peek() {
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: break
            default: throw Bail()
            }
        }
    }
}
