import Foundation
import GymLogCore
import GymLogWire

/// How a record's fields are kept in its one row, on every backend: the JSON a v1 pull sends
/// for a row (and a client's outbox payload holds), each field also carrying the change
/// counter value of the event that wrote it:
///
///     {"reps":{"v":5,"c":"001732000000000-00000-<device>","s":17},"weight":{"v":100,"c":…,"s":17}}
///
/// Fields in `RecordRow.fieldOrder`. Text, so an operator can read it with `sqlite3` or `psql`;
/// written by hand and read by the strict reader, because a pull page decodes a thousand of them.
enum RecordText {
    /// The stored text of `fields` (already in field order).
    static func encode(_ fields: [StoredField]) -> String {
        var out = "{"
        out.reserveCapacity(fields.count * 72)
        for (i, field) in fields.enumerated() {
            if i > 0 { out += "," }
            appendJSONString(field.name, to: &out)
            out += ":{\"v\":"
            appendJSON(field.value, to: &out)
            out += ",\"c\":"
            appendJSONString(field.clock, to: &out)
            out += ",\"s\":"
            out += String(field.changeSeq)
            out += "}"
        }
        out += "}"
        return out
    }

    /// The fields of a stored text (made by `encode`, or by PostgreSQL's migration from the
    /// field rows of before: any equivalent JSON), in the order stored.
    static func decode(_ text: String) throws -> [StoredField] {
        var text = text
        return try text.withUTF8 { try decode(bytes: $0) }
    }

    static func decode(bytes: UnsafeBufferPointer<UInt8>) throws -> [StoredField] {
        var fields: [StoredField] = []
        fields.reserveCapacity(12)
        var reader = JSONReader(bytes)
        do {
            try reader.document { reader in
                try reader.object { reader, name in
                    var value: FieldValue?, clock: String?, seq: Int64?
                    try reader.object { reader, key in
                        switch key {
                        case "v": value = try Self.value(&reader)
                        case "c": clock = reader.peek() == UInt8(ascii: "\"") ? try reader.string() : nil
                        case "s": seq = Int64(try reader.numberText())
                        default: try reader.skipValue()
                        }
                    }
                    guard let name, let value, let clock, let seq else { throw Unreadable() }
                    fields.append(StoredField(name: name, value: value, clock: clock, changeSeq: seq))
                }
            }
        } catch {
            throw StorageError.notReady("a stored record is not readable (\(reader.describe(error))); the database was changed by hand or is damaged. Restore it from a backup (`gymlog-server restore`).")
        }
        return fields
    }

    private struct Unreadable: Error {}

    private static func value(_ reader: inout JSONReader) throws -> FieldValue {
        switch reader.peek() {
        case UInt8(ascii: "\""):
            guard let text = try reader.string() else { throw Unreadable() }
            return .text(text)
        case UInt8(ascii: "n"):
            _ = try reader.null()
            return .null
        default:
            // The stored type decides, not the number's value (a real 2.0 stays real): a real
            // is written with a point or an exponent (`appendJSON`, and the migration's SQL),
            // an integer never is.
            let text = try reader.numberText()
            if text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
                guard let real = Double(text), real.isFinite else { throw Unreadable() }
                return .real(real)
            }
            guard let int = Int64(text) else { throw Unreadable() }
            return .int(int)
        }
    }
}
