import Foundation
import GymLogCore
import GymLogServerCore
import GymLogWire

/// The one reader of a `POST /v1/push` body: one pass over the bytes (`JSONReader`) that
/// stops at the event limit, refuses malformed JSON and duplicate keys naming the problem and
/// its byte offset, keeps every number exactly as written (`ExactNumber`), and builds the
/// `IncomingPush`.
///
/// What it refuses and accepts is what the route's JSONDecoder path did before it (strict
/// check, JSONDecoder, field numbers re-read from the text): the whole body must be JSON
/// before its shape is judged; the shape is judged in the order JSONDecoder decoded it
/// (`device_id`, then each event's `seq`, then `epoch`), and an event's other parts are read
/// leniently, so one malformed event is rejected on its own instead of failing the request.
/// Unknown keys are skipped (still checked, duplicates refused). The key names are the
/// `CodingKeys` of `PushRequest`, `PushEvent` and `WireField`: what the client encodes is,
/// by construction, what this reads.
public enum PushBodyReader {
    /// Why a body is refused, as the route answers it.
    public enum Refusal: Error, Equatable {
        /// 400 `invalid_json`: the problem in words ("unexpected ']' at byte offset 17").
        case invalidJSON(String)
        /// 400 `invalid_request`: where the body leaves the documented shape (".events[0].seq is missing").
        case invalidRequest(String)
        /// 413 `too_many_events`: event `limit + 1` was read, and nothing after it.
        case tooManyEvents
    }

    fileprivate struct TooManyEvents: Error {}

    /// The push, or why it is refused. An 8 MiB body of half a million tiny events costs the
    /// first `maxEvents + 1` of them, not all.
    public static func read(_ data: Data, maxEvents: Int = .max) throws(Refusal) -> IncomingPush {
        let outcome = data.withUnsafeBytes { raw -> Result<IncomingPush, Refusal> in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self))
            var parts = PushParts()
            do {
                try reader.document { r in try parts.read(&r, maxEvents: maxEvents) }
            } catch is TooManyEvents {
                return .failure(.tooManyEvents)
            } catch {
                return .failure(.invalidJSON(reader.describe(error)))
            }
            return parts.push(firstSurrogate: reader.firstSurrogate)
        }
        return try outcome.get()
    }

    /// For tests: the reader's answer on raw bytes.
    public static func read(_ bytes: [UInt8], maxEvents: Int = .max) throws(Refusal) -> IncomingPush {
        try read(Data(bytes), maxEvents: maxEvents)
    }
}

/// `POST /v1/push` as received (`PushBodyReader`): every event part is optional so that one
/// malformed event is rejected on its own instead of failing the whole request.
public struct IncomingPush {
    public var deviceID: String
    public var events: [IncomingEvent]
    /// The epoch the device numbered its events under; absent from older clients.
    public var epoch: String?
}

/// The most fields one event may carry (and so the most rows one change counter value has).
/// The reader keeps no more than this of an event's fields and counts the rest.
public let maxEventFields = 64

public struct IncomingEvent {
    public var seq: Int64
    public var idempotencyKey: String?
    public var entity: String?
    public var entityID: String?
    public var op: String?
    /// At most `maxEventFields` of them: past the limit the reader only counts.
    public var fields: [String: IncomingField]?
    /// How many members `fields` had in the body.
    public var fieldCount = 0
}

/// `{"v": value, "c": clock}` kept raw: a bad value or clock rejects its event, not the request.
public struct IncomingField {
    public var value: FieldValue?
    public var clock: String?
    /// The text of a number in `v` that no stored value holds exactly (`ExactNumber`); the
    /// event is then rejected naming it.
    public var inexactNumber: String?

    public init(value: FieldValue?, clock: String?, inexactNumber: String? = nil) {
        self.value = value; self.clock = clock; self.inexactNumber = inexactNumber
    }
}

/// What one part of the body turned out to be; judged once the whole body is known to be JSON.
private enum Part<Value> {
    case missing
    case value(Value)
    case wrongType
    /// A string escaping an unpaired surrogate where the whole string must be read.
    case unpairedSurrogate
}

/// The keys of one object that no reader asks for: skipped, each only once (a repeat is
/// refused like a known key's), and noted when one escapes an unpaired surrogate (JSONDecoder
/// could not key the object, so its owner is refused).
private struct OtherKeys {
    private var seen = Set<String>()
    private(set) var withSurrogate = false

    mutating func skip(_ key: String?, _ r: inout JSONReader) throws {
        if let key {
            guard seen.insert(key).inserted else { throw JSONReader.RepeatedKey() }
        } else {
            withSurrogate = true
        }
        try r.skipValue()
    }
}

/// The body's parts as read, in JSONDecoder's order of judging them.
private struct PushParts {
    var isObject = false
    /// A top-level key escapes an unpaired surrogate (JSONDecoder cannot key the object).
    var keyWithSurrogate = false
    var deviceID = Part<String>.missing
    var events = Part<[IncomingEvent]>.missing
    /// The first event whose `seq` (or shape) fails, as JSONDecoder would name it.
    var eventProblem: PushBodyReader.Refusal?
    var epoch = Part<String>.missing

    mutating func read(_ r: inout JSONReader, maxEvents: Int) throws {
        guard r.peek() == UInt8(ascii: "{") else { return try r.skipValue() }
        isObject = true
        var seen: UInt8 = 0
        var other = OtherKeys()
        try r.object { r, key in
            switch key.flatMap(PushRequest.CodingKeys.init(rawValue:)) {
            case .deviceID?:
                try once(&seen, 1)
                deviceID = try strictString(&r)
            case .events?:
                try once(&seen, 2)
                try readEvents(&r, maxEvents: maxEvents)
            case .epoch?:
                try once(&seen, 4)
                epoch = try strictString(&r)
            case nil: try other.skip(key, &r)
            }
        }
        keyWithSurrogate = other.withSurrogate
    }

    /// A string JSONDecoder reads whole (`decode(String.self)`).
    private func strictString(_ r: inout JSONReader) throws -> Part<String> {
        guard r.peek() == UInt8(ascii: "\"") else { try r.skipValue(); return .wrongType }
        return try r.string().map(Part.value) ?? .unpairedSurrogate
    }

    private mutating func readEvents(_ r: inout JSONReader, maxEvents: Int) throws {
        guard r.peek() == UInt8(ascii: "[") else { try r.skipValue(); events = .wrongType; return }
        var list: [IncomingEvent] = []
        try r.array { r, index in
            if index == maxEvents { try r.skipValue(); throw PushBodyReader.TooManyEvents() }
            switch try Self.event(&r, index: index) {
            case .success(let event): if eventProblem == nil { list.append(event) }
            case .failure(let problem): if eventProblem == nil { eventProblem = problem }
            }
        }
        events = .value(list)
    }

    /// One event: `seq` strictly (a problem names it), the rest leniently (a wrong type is nil).
    private static func event(_ r: inout JSONReader, index: Int) throws -> Result<IncomingEvent, PushBodyReader.Refusal> {
        guard r.peek() == UInt8(ascii: "{") else {
            try r.skipValue()
            return .failure(.invalidRequest(".events[\(index)] has the wrong type"))
        }
        var seq: Part<Int64> = .missing
        var key: String?, entity: String?, entityID: String?, op: String?
        var fields: [String: IncomingField]?, fieldCount = 0
        var seen: UInt8 = 0
        var other = OtherKeys()
        try r.object { r, name in
            switch name.flatMap(PushEvent.CodingKeys.init(rawValue:)) {
            case .seq?: try once(&seen, 1); seq = try Self.seq(&r)
            case .idempotencyKey?: try once(&seen, 2); key = try lenientString(&r)
            case .entity?: try once(&seen, 4); entity = try lenientString(&r)
            case .entityID?: try once(&seen, 8); entityID = try lenientString(&r)
            case .op?: try once(&seen, 16); op = try lenientString(&r)
            case .fields?: try once(&seen, 32); (fields, fieldCount) = try Self.fields(&r)
            case nil: try other.skip(name, &r)
            }
        }
        if other.withSurrogate { return .failure(.invalidJSON("")) }
        switch seq {
        case .value(let seq):
            return .success(IncomingEvent(seq: seq, idempotencyKey: key, entity: entity, entityID: entityID, op: op, fields: fields,
                                          fieldCount: fieldCount))
        case .missing: return .failure(.invalidRequest(".events[\(index)].seq is missing"))
        case .wrongType, .unpairedSurrogate: return .failure(.invalidRequest(".events[\(index)].seq has the wrong type"))
        }
    }

    /// `seq` as JSONDecoder reads an Int64: a number with an integral value in range
    /// (`4`, `4.0`, `1e2`); anything else has the wrong type.
    private static func seq(_ r: inout JSONReader) throws -> Part<Int64> {
        switch r.peek() {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let text = try r.numberText()
            if let n = Int64(text) { return .value(n) }
            let isPlainInteger = !text.contains { $0 == "." || $0 == "e" || $0 == "E" }
            guard !isPlainInteger, let d = Double(text), let n = Int64(exactly: d) else { return .wrongType }
            return .value(n)
        default:
            try r.skipValue()
            return .wrongType
        }
    }

    /// `fields`: nil unless an object whose every key has a String (JSONDecoder's `try?` of the
    /// whole map), and how many members it has. Past `maxEventFields` members are counted and
    /// skipped, not kept: 190,000 fields in one event cost a pass over their bytes, not a
    /// dictionary of them (the event is rejected for its count).
    private static func fields(_ r: inout JSONReader) throws -> ([String: IncomingField]?, count: Int) {
        guard r.peek() == UInt8(ascii: "{") else { try r.skipValue(); return (nil, 0) }
        var out: [String: IncomingField] = [:]
        out.reserveCapacity(16)
        var readable = true, count = 0
        try r.object { r, name in
            count += 1
            guard count <= maxEventFields else { return try r.skipValue() }
            guard let name else { readable = false; return try r.skipValue() }
            guard out[name] == nil else { throw JSONReader.RepeatedKey() }
            out[name] = try field(&r)
        }
        return (readable ? out : nil, count)
    }

    /// `{"v": value, "c": clock}`: anything unreadable in it is nil, and rejects its event later.
    private static func field(_ r: inout JSONReader) throws -> IncomingField {
        var field = IncomingField(value: nil, clock: nil)
        guard r.peek() == UInt8(ascii: "{") else { try r.skipValue(); return field }
        var seen: UInt8 = 0
        var other = OtherKeys()
        try r.object { r, key in
            switch key.flatMap(WireField.CodingKeys.init(rawValue:)) {
            case .v?:
                try once(&seen, 1)
                switch r.peek() {
                case UInt8(ascii: "\""): field.value = try r.string().map(FieldValue.text)
                case UInt8(ascii: "n"): try r.literal("null"); field.value = .null
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    let text = try r.numberText()
                    // A plain integer in range (most numbers: reps, times) needs no more than this.
                    if let int = Int64(text) { field.value = .int(int); break }
                    field.value = ExactNumber.fieldValue(text)
                    if field.value == nil { field.inexactNumber = String(text) }
                default: try r.skipValue()
                }
            case .c?: try once(&seen, 2); field.clock = try lenientString(&r)
            case nil: try other.skip(key, &r)
            }
        }
        return other.withSurrogate ? IncomingField(value: nil, clock: nil) : field
    }
}

extension PushParts {
    /// The push, or the first problem in JSONDecoder's order.
    func push(firstSurrogate: Int?) -> Result<IncomingPush, PushBodyReader.Refusal> {
        let surrogate = PushBodyReader.Refusal.invalidJSON(firstSurrogate.map(JSONReader.surrogateProblem) ?? "")
        guard isObject else { return .failure(.invalidRequest("the body has the wrong type")) }
        if keyWithSurrogate { return .failure(surrogate) }
        let deviceID: String
        switch self.deviceID {
        case .value(let value): deviceID = value
        case .missing: return .failure(.invalidRequest(".device_id is missing"))
        case .wrongType: return .failure(.invalidRequest(".device_id has the wrong type"))
        case .unpairedSurrogate: return .failure(surrogate)
        }
        let events: [IncomingEvent]
        switch self.events {
        case .value(let value): events = value
        case .missing: return .failure(.invalidRequest(".events is missing"))
        case .wrongType, .unpairedSurrogate: return .failure(.invalidRequest(".events has the wrong type"))
        }
        if let eventProblem {
            // An event key escaping a surrogate: JSONDecoder cannot key the event, "not valid JSON".
            if case .invalidJSON = eventProblem { return .failure(surrogate) }
            return .failure(eventProblem)
        }
        switch epoch {
        case .missing: return .success(IncomingPush(deviceID: deviceID, events: events, epoch: nil))
        case .value(let value): return .success(IncomingPush(deviceID: deviceID, events: events, epoch: value))
        case .wrongType: return .failure(.invalidRequest(".epoch has the wrong type"))
        case .unpairedSurrogate: return .failure(surrogate)
        }
    }
}

/// Marks a known key of one object as read; its second appearance is refused.
private func once(_ seen: inout UInt8, _ bit: UInt8) throws {
    guard seen & bit == 0 else { throw JSONReader.RepeatedKey() }
    seen |= bit
}

/// A string JSONDecoder reads with `try?`: nil for any other value, or one escaping an unpaired surrogate.
private func lenientString(_ r: inout JSONReader) throws -> String? {
    guard r.peek() == UInt8(ascii: "\"") else { try r.skipValue(); return nil }
    return try r.string()
}
