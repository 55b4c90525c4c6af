import Foundation
import GymLogCore
import GymLogWire

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
/// It only ever answers for input it reads exactly as the JSONDecoder path would (JSONDecoder,
/// then field numbers re-read exactly): anything unusual (malformed JSON, a wrong type
/// anywhere, a duplicate key at any depth, a trailing comma, a number that is not a plain
/// integer or an exactly stored non-integral decimal, invalid UTF-8, nesting deeper than 64,
/// ...) makes it return nil, and the caller takes that path, which then gives the same result
/// or the `invalid_json` / `invalid_request` error the strict check and JSONDecoder give.
/// Unknown keys are skipped, as JSONDecoder ignores them, but still checked for repeats: the
/// caller's strict check (`JSONDiagnosis`) refuses every duplicate key, and this reader must
/// not let one through.
struct PushBodyReader {
    private struct Bail: Error {}
    /// The body holds more events than the limit: the reader stopped at the first one past it,
    /// without reading (or checking) the rest.
    struct TooManyEvents: Error { let limit: Int }
    private let b: UnsafeBufferPointer<UInt8>
    private var i = 0
    private var maxEvents = Int.max

    private init(_ b: UnsafeBufferPointer<UInt8>) { self.b = b }

    static func read(_ data: Data) -> IncomingPush? { try? read(data, maxEvents: .max) }

    /// The push, nil to step aside, or `TooManyEvents` as soon as event `maxEvents + 1` is read:
    /// an 8 MiB body of half a million tiny events costs the first few thousand, not all.
    static func read(_ data: Data, maxEvents: Int) throws(TooManyEvents) -> IncomingPush? {
        let outcome = data.withUnsafeBytes { raw -> Result<IncomingPush?, TooManyEvents> in
            var reader = PushBodyReader(raw.bindMemory(to: UInt8.self))
            reader.maxEvents = maxEvents
            do { return .success(try reader.push()) } catch let tooMany as TooManyEvents { return .failure(tooMany) } catch { return .success(nil) }
        }
        return try outcome.get()
    }

    /// How many events a well-formed body (one `JSONDiagnosis` passed) holds, counting no
    /// further than `limit + 1`: the JSONDecoder path checks it before decoding anything.
    static func eventCount(_ data: Data, upTo limit: Int) -> Int {
        data.withUnsafeBytes { raw in
            var reader = PushBodyReader(raw.bindMemory(to: UInt8.self))
            var count = 0
            try? reader.object { r, key in
                guard key == "events", r.peek() == UInt8(ascii: "[") else { return try r.skipAny() }
                try r.array { r, _ in
                    count += 1
                    if count > limit { throw Bail() }
                    try r.skipAny()
                }
            }
            return count
        }
    }

    /// For tests: the reader's answer on raw bytes.
    static func read(_ bytes: [UInt8]) -> IncomingPush? { read(Data(bytes)) }

    private mutating func push() throws -> IncomingPush {
        var deviceID: String?
        var events: [IncomingEvent]?
        var epoch: String?
        var unknown = Set<String>()
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
                guard unknown.insert(key).inserted else { throw Bail() }
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
            if out.count > maxEvents { throw TooManyEvents(limit: maxEvents) }
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
        var unknown = Set<String>()
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
                guard unknown.insert(name).inserted else { throw Bail() }
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
            var unknown = Set<String>()
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
                    guard unknown.insert(key).inserted else { throw Bail() }
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

    /// A JSON number as the push reads it (`ExactNumber`): a plain integer that fits Int64 is
    /// `.int`; a non-integral decimal is `.real` when a Double holds it exactly (in its
    /// shortest form). Everything else (overflow, an integral value written with a fraction or
    /// exponent, a number no Double holds) bails, and the JSONDecoder path decides.
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
        guard case .real(let d)? = ExactNumber.fieldValue(try Self.utf8(UnsafeBufferPointer(rebasing: b[start..<i]))) else { throw Bail() }
        return .real(d)
    }

    // MARK: Field numbers for the JSONDecoder path

    /// The text of every number written as a field's value (`events[i].fields[name].v`), by
    /// event index and field name, in a body `JSONDiagnosis` passed (well-formed, no duplicate
    /// key, so each path names one number). JSONDecoder reads numbers through Double; the
    /// JSONDecoder path re-reads them from this text (`IncomingPush.rereadFieldNumbers`). A
    /// part it cannot read (a key with an unpaired surrogate escape) is left out.
    static func fieldNumberTexts(_ data: Data) -> [Int: [String: String]] {
        data.withUnsafeBytes { raw in
            let b = raw.bindMemory(to: UInt8.self)
            var reader = PushBodyReader(b)
            var out: [Int: [String: String]] = [:]
            func isNumber(_ c: UInt8) -> Bool { c == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) }
            try? reader.object { r, key in
                guard key == "events", r.peek() == UInt8(ascii: "[") else { return try r.skipAny() }
                try r.array { r, index in
                    guard r.peek() == UInt8(ascii: "{") else { return try r.skipAny() }
                    try r.object { r, key in
                        guard key == "fields", r.peek() == UInt8(ascii: "{") else { return try r.skipAny() }
                        try r.object { r, name in
                            guard r.peek() == UInt8(ascii: "{") else { return try r.skipAny() }
                            try r.object { r, key in
                                let start = r.i
                                try r.skipAny()
                                if key == "v", isNumber(b[start]) {
                                    out[index, default: [:]][name] = String(decoding: UnsafeBufferPointer(rebasing: b[start..<r.i]), as: UTF8.self)
                                }
                            }
                        }
                    }
                }
            }
            return out
        }
    }

    /// `[ value, ... ]`, calling `element` with the reader at each value and its index.
    private mutating func array(_ element: (inout PushBodyReader, Int) throws -> Void) throws {
        skipWhitespace()
        try expect(UInt8(ascii: "["))
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { i += 1; return }
        var index = 0
        while true {
            skipWhitespace()
            try element(&self, index)
            index += 1
            skipWhitespace()
            let c = try next()
            if c == UInt8(ascii: "]") { return }
            guard c == UInt8(ascii: ",") else { throw Bail() }
        }
    }

    /// Skips one value of a body already known to be well-formed JSON, without recursion.
    private mutating func skipAny() throws {
        skipWhitespace()
        var depth = 0
        repeat {
            guard i < b.count else { throw Bail() }
            switch b[i] {
            case UInt8(ascii: "\""):
                i += 1
                while i < b.count, b[i] != UInt8(ascii: "\"") { i += b[i] == UInt8(ascii: "\\") ? 2 : 1 }
                i += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1; i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1; i += 1
            default:
                // A number or literal (or, inside a container, punctuation and whitespace).
                i += 1
                if depth == 0 {
                    while i < b.count {
                        switch b[i] {
                        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return
                        default: i += 1
                        }
                    }
                }
            }
        } while depth > 0
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
        case UInt8(ascii: "{"):
            var keys = Set<String>()
            try object { r, key in
                guard keys.insert(key).inserted else { throw Bail() }
                try r.skipValue(depth: depth + 1)
            }
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
