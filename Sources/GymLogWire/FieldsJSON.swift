import Foundation
import GymLogCore

// An event's fields as JSON, `{"name":{"v":value,"c":"clock"},...}`: the shape an outbox
// payload is stored in and, byte for byte, the `fields` of a pushed event.

/// Encodes `{"field":{"v":value,"c":"clock"},...}` by hand: it runs inside every write
/// transaction and JSONEncoder would cost more than the INSERT it accompanies.
public func encodePayload(_ fields: [FieldChange]) -> String {
    encodeFieldObject(fields, reservingPerField: 64) { f, clockText, out in
        out += wireFieldValue
        appendJSON(f.value, to: &out)
        out += wireFieldClock + "\"" + clockText + "\"}"
    }
}

/// `{"v":` and `,"c":`, spelled by `WireField.CodingKeys`.
private let wireFieldValue = "{" + jsonMember(WireField.CodingKeys.v)
private let wireFieldClock = "," + jsonMember(WireField.CodingKeys.c)

/// Encodes `{"field":member,...}`, `member` appending each field's value given its clock's text.
///
/// The fields of one event share one clock, so its text is formatted once per run of equal clocks.
public func encodeFieldObject(_ fields: [FieldChange], reservingPerField: Int,
                              member: (FieldChange, _ clockText: String, inout String) -> Void) -> String {
    var out = "{"
    out.reserveCapacity(reservingPerField * fields.count)
    var lastClock: HLC?, clockText = ""
    for (i, f) in fields.enumerated() {
        if i > 0 { out += "," }
        appendJSONString(f.name, to: &out)
        out += ":"
        if f.clock != lastClock { lastClock = f.clock; clockText = f.clock.description }
        member(f, clockText, &out)
    }
    return out + "}"
}

/// Decodes a payload written by `encodePayload` (or any equivalent JSON), fields sorted by name.
public func decodePayload(_ text: String) throws -> [FieldChange] {
    let object: [String: WireField]
    do {
        object = try JSONDecoder().decode([String: WireField].self, from: Data(text.utf8))
    } catch {
        throw PayloadError("payload is not a JSON object of {\"v\": value, \"c\": clock} fields: \(error)")
    }
    return object.map { FieldChange($0.key, $0.value.v, $0.value.c) }.sorted { $0.name < $1.name }
}

/// One field on the wire: `{"v": value, "c": "clock"}`.
public struct WireField: Codable, Hashable, Sendable {
    public var v: FieldValue
    public var c: HLC
    public init(v: FieldValue, c: HLC) { self.v = v; self.c = c }

    /// The key names, read by `PushBodyReader` as well as by `Codable`.
    public enum CodingKeys: String, CodingKey { case v, c }
}

extension FieldValue: Codable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null; return }
        // A string first: every value of an encrypted account is one (sealed), and most of a
        // plaintext row's are (ids, kinds, decimals kept as text). Each try of the wrong type
        // costs a thrown DecodingError; the order changes nothing else, as JSONDecoder never
        // reads a number as a string or a string as a number.
        if let s = try? c.decode(String.self) { self = .text(s); return }
        if let i = try? c.decode(Int64.self) { self = .int(i); return }
        if let d = try? c.decode(Double.self) { self = .real(d); return }
        throw DecodingError.dataCorruptedError(in: c, debugDescription: "a field value must be null, a number or a string")
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .int(let i): try c.encode(i)
        case .real(let d): try c.encode(d)
        case .text(let s): try c.encode(s)
        }
    }
}

public struct PayloadError: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

public func appendJSON(_ value: FieldValue, to out: inout String) {
    switch value {
    case .null: out += "null"
    case .int(let i): out += String(i)
    case .real(let d):
        if d.isFinite { out += d == d.rounded() && abs(d) < 1e15 ? String(d) : "\(d)" } else { out += "null" }
    case .text(let s): appendJSONString(s, to: &out)
    }
}
