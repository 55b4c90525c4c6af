import Foundation

/// A column value as it travels in outbox payloads and over the wire.
public enum FieldValue: Hashable, Sendable {
    case null
    case int(Int64)
    case real(Double)
    case text(String)

    public var text: String? { if case .text(let s) = self { s } else { nil } }
    public var int: Int64? {
        switch self {
        case .int(let i): i
        // `Int64(exactly:)`: a pulled `1e30` is a whole number too big for 64 bits, not a trap.
        case .real(let d): Int64(exactly: d)
        default: nil
        }
    }
    public var isNull: Bool { self == .null }
}

/// One field set by one event, with the clock that orders it against other writes.
public struct FieldChange: Hashable, Sendable {
    public var name: String
    public var value: FieldValue
    public var clock: HLC
    public init(_ name: String, _ value: FieldValue, _ clock: HLC) { self.name = name; self.value = value; self.clock = clock }
}

/// The synced tables. Names are the wire names and the local table names.
public enum EntityKind: String, CaseIterable, Sendable, Codable {
    case exercises, aliases, workouts, sets, routines, bodyweights
}

/// What an outbox event did, for people reading the outbox (`gymlog status`); merging only
/// looks at fields and clocks.
public enum ChangeOp: String, Sendable, Codable {
    case create, update, delete, restore
}

/// Per-field last-writer-wins: the incoming value replaces the stored one only when its
/// clock is strictly newer. Equal clocks are the same write seen twice (idempotent).
///
/// Deletion is the `deleted_at` field with its own clock, so an edit, older or newer,
/// never resurrects a row; only a newer write of `deleted_at = null` (an explicit
/// undo/restore) does.
@inlinable
public func incomingWins(stored: HLC?, incoming: HLC) -> Bool {
    guard let stored else { return true }
    return incoming > stored
}

/// The field name that carries a row's tombstone.
public let tombstoneField = "deleted_at"

/// The most UTF-8 bytes one text field may hold. The sync server refuses bigger values
/// (`maxValueBytes` in GymLogServer/HTTP/PushValidation.swift), so the client never writes one.
public let maxTextFieldBytes = 16 * 1024

// MARK: - Payload JSON

/// Encodes `{"field":{"v":value,"c":"clock"},...}` by hand: it runs inside every write
/// transaction and JSONEncoder would cost more than the INSERT it accompanies.
public func encodePayload(_ fields: [FieldChange]) -> String {
    encodeFieldObject(fields, reservingPerField: 64) { f, clockText, out in
        out += "{\"v\":"
        appendJSON(f.value, to: &out)
        out += ",\"c\":\"" + clockText + "\"}"
    }
}

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
}

extension FieldValue: Codable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null; return }
        if let i = try? c.decode(Int64.self) { self = .int(i); return }
        if let d = try? c.decode(Double.self) { self = .real(d); return }
        if let s = try? c.decode(String.self) { self = .text(s); return }
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
