import GymLogCore
import GymLogWire

/// One field of a record the server stores: its value, its winning clock's canonical text, and
/// the user's change counter value of the event that wrote it.
public struct StoredField: Hashable, Sendable {
    public var name: String
    public var value: FieldValue
    public var clock: String
    public var changeSeq: Int64

    public init(name: String, value: FieldValue, clock: String, changeSeq: Int64) {
        self.name = name; self.value = value; self.clock = clock; self.changeSeq = changeSeq
    }

    /// The order of a record's fields: by name, bytewise (SQLite's BINARY, PostgreSQL's COLLATE "C").
    public static func nameOrder(_ a: StoredField, _ b: StoredField) -> Bool {
        a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
    }
}

/// How the server keeps a record's fields in its one row, on every backend: the record's
/// changes (its fields grouped by the clock and counter value that wrote them), each with its
/// fields as a v2 pull sends them, bare values in name order:
///
///     [{"c":"001732000000000-00000-<device>","s":17,"f":{"reps":5,"weight":100}},{"c":…,"s":21,"f":{"note":"x"}}]
///
/// Changes in the order of their first field's name. Text, so an operator can read it with
/// `sqlite3` or `psql`. A v2 pull page copies each change's `f` object as it is stored
/// (`PullPage.json`): a page of a thousand records decodes no value.
public enum RecordText {
    /// A stored text that is not one `encode` (or the PostgreSQL migration) wrote.
    public struct Unreadable: Error, CustomStringConvertible {
        public var description: String
    }

    /// The stored text of `fields` (in `StoredField.nameOrder`).
    public static func encode(_ fields: [StoredField]) -> String {
        // The changes in order of first appearance; a record nearly always has one.
        var groups: [(clock: String, seq: Int64, fields: [StoredField])] = []
        for field in fields {
            if let i = groups.firstIndex(where: { $0.seq == field.changeSeq && $0.clock == field.clock }) {
                groups[i].fields.append(field)
            } else {
                groups.append((field.clock, field.changeSeq, [field]))
            }
        }
        var out = "["
        out.reserveCapacity(64 + fields.count * 24)
        for (g, group) in groups.enumerated() {
            if g > 0 { out += "," }
            out += "{\"c\":"
            appendJSONString(group.clock, to: &out)
            out += ",\"s\":"
            out += String(group.seq)
            out += ",\"f\":{"
            for (i, field) in group.fields.enumerated() {
                if i > 0 { out += "," }
                appendJSONString(field.name, to: &out)
                out += ":"
                // A real always has a point or an exponent (`2.0`, `1e+20`): it reads back as a real.
                appendJSON(field.value, to: &out)
            }
            out += "}}"
        }
        out += "]"
        return out
    }

    /// The fields of a stored text, in `StoredField.nameOrder`.
    public static func decode(_ text: String) throws -> [StoredField] {
        var text = text
        return try text.withUTF8 { try decode(bytes: $0) }
    }

    public static func decode(bytes: UnsafeBufferPointer<UInt8>) throws -> [StoredField] {
        var fields: [StoredField] = []
        fields.reserveCapacity(12)
        try eachChange(bytes) { change in
            let clock = try text(change.clock)
            var scanner = Scanner(change.fields)
            try scanner.members { name, value in
                fields.append(StoredField(name: try text(name), value: try fieldValue(value), clock: clock, changeSeq: change.seq))
            }
        }
        if fields.count > 1 { fields.sort(by: StoredField.nameOrder) }
        return fields
    }

    /// How many changes and fields a stored text holds after counter value `since` (all of
    /// them for 0), checking its shape on the way.
    public static func counts(_ text: String, since: Int64 = 0) throws -> (changes: Int, fields: Int) {
        var text = text
        return try text.withUTF8 { bytes in
            var changes = 0, fields = 0
            try eachChange(bytes) { change in
                guard change.seq > since else { return }
                changes += 1; fields += change.fieldCount
            }
            return (changes, fields)
        }
    }

    /// One change of a stored text: the clock's raw text (between its quotes), the counter
    /// value, and the `f` object's bytes, braces included, with how many members it has.
    public struct Change {
        public var clock: UnsafeBufferPointer<UInt8>
        public var seq: Int64
        public var fields: UnsafeBufferPointer<UInt8>
        public var fieldCount: Int
    }

    /// Walks the changes of a stored text without decoding their values.
    public static func eachChange(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Change) throws -> Void) throws {
        var s = Scanner(bytes)
        try s.expect(UInt8(ascii: "["))
        if s.peek == UInt8(ascii: "]") { s.i += 1; return try s.end() }
        while true {
            try s.expect(UInt8(ascii: "{"))
            var clock: UnsafeBufferPointer<UInt8>?, seq: Int64?, fields: UnsafeBufferPointer<UInt8>?, count = 0
            while true {
                let key = try s.string()
                try s.expect(UInt8(ascii: ":"))
                switch key.count == 1 ? key[0] : 0 {
                case UInt8(ascii: "c"): clock = try s.string()
                case UInt8(ascii: "s"): seq = Int64(String(decoding: try s.number(), as: UTF8.self))
                case UInt8(ascii: "f"):
                    let start = s.i
                    var object = Scanner(UnsafeBufferPointer(rebasing: bytes[start...]))
                    try object.members { _, _ in count += 1 }
                    s.i = start + object.i
                    fields = UnsafeBufferPointer(rebasing: bytes[start..<s.i])
                default: throw s.unreadable("an unknown key")
                }
                if s.peek == UInt8(ascii: ",") { s.i += 1; continue }
                try s.expect(UInt8(ascii: "}"))
                break
            }
            guard let clock, let seq, let fields else { throw s.unreadable("a change without its clock, counter or fields") }
            try body(Change(clock: clock, seq: seq, fields: fields, fieldCount: count))
            if s.peek == UInt8(ascii: ",") { s.i += 1; continue }
            try s.expect(UInt8(ascii: "]"))
            return try s.end()
        }
    }

    /// The String of a JSON string's raw text (between its quotes).
    static func text(_ raw: UnsafeBufferPointer<UInt8>) throws -> String {
        guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw, as: UTF8.self) }
        // Escapes: the strict reader decodes them.
        let quoted = [UInt8(ascii: "\"")] + Array(raw) + [UInt8(ascii: "\"")]
        return try quoted.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            guard let text = try reader.string() else { throw Unreadable(description: "a stored text holds an unpaired surrogate") }
            return text
        }
    }

    /// A stored value's raw JSON. The stored type decides, not the number's value: a real is
    /// written with a point or an exponent, an integer never is.
    static func fieldValue(_ raw: UnsafeBufferPointer<UInt8>) throws -> FieldValue {
        switch raw.first {
        case UInt8(ascii: "\"")?: return .text(try text(UnsafeBufferPointer(rebasing: raw.dropFirst().dropLast())))
        case UInt8(ascii: "n")?: return .null
        default:
            let number = String(decoding: raw, as: UTF8.self)
            if raw.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
                guard let real = Double(number), real.isFinite else { throw Unreadable(description: "a stored number \(number) is not a real") }
                return .real(real)
            }
            guard let int = Int64(number) else { throw Unreadable(description: "a stored number \(number) is not a 64-bit integer") }
            return .int(int)
        }
    }

    /// The few shapes a stored text has, read without building anything: strings are found by
    /// their closing quote (escapes skipped, raw control characters refused), values are a
    /// string, a number or `null`.
    struct Scanner {
        let b: UnsafeBufferPointer<UInt8>
        var i = 0

        init(_ b: UnsafeBufferPointer<UInt8>) { self.b = b }

        var peek: UInt8 { i < b.count ? b[i] : 0 }

        func unreadable(_ what: String) -> Unreadable {
            Unreadable(description: "\(what) at byte \(i) of a stored record")
        }

        mutating func expect(_ byte: UInt8) throws {
            guard peek == byte else { throw unreadable("'\(Character(Unicode.Scalar(byte)))' expected") }
            i += 1
        }

        func end() throws {
            guard i == b.count else { throw unreadable("text after the end") }
        }

        /// A string's raw text, between its quotes.
        mutating func string() throws -> UnsafeBufferPointer<UInt8> {
            try expect(UInt8(ascii: "\""))
            let start = i
            while i < b.count {
                let c = b[i]
                if c == UInt8(ascii: "\"") { i += 1; return UnsafeBufferPointer(rebasing: b[start..<(i - 1)]) }
                if c == UInt8(ascii: "\\") { i += 2; continue }
                guard c >= 0x20 else { throw unreadable("a control character in a string") }
                i += 1
            }
            throw unreadable("an unterminated string")
        }

        /// A number's text.
        mutating func number() throws -> UnsafeBufferPointer<UInt8> {
            let start = i
            while i < b.count, (b[i] >= UInt8(ascii: "0") && b[i] <= UInt8(ascii: "9")) || b[i] == UInt8(ascii: "-")
                    || b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
                i += 1
            }
            guard i > start else { throw unreadable("a value expected") }
            return UnsafeBufferPointer(rebasing: b[start..<i])
        }

        /// A value's raw JSON: a string with its quotes, a number, or `null`.
        mutating func value() throws -> UnsafeBufferPointer<UInt8> {
            let start = i
            switch peek {
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "n"):
                guard i + 4 <= b.count, b[i + 1] == UInt8(ascii: "u"), b[i + 2] == UInt8(ascii: "l"), b[i + 3] == UInt8(ascii: "l") else {
                    throw unreadable("a value expected")
                }
                i += 4
            default: _ = try number()
            }
            return UnsafeBufferPointer(rebasing: b[start..<i])
        }

        /// `{"name":value,...}`: calls `member` with each name's raw text and value's raw JSON;
        /// leaves `i` after the closing brace.
        mutating func members(_ member: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws -> Void) throws {
            try expect(UInt8(ascii: "{"))
            if peek == UInt8(ascii: "}") { i += 1; return }
            while true {
                let name = try string()
                try expect(UInt8(ascii: ":"))
                try member(name, try value())
                if peek == UInt8(ascii: ",") { i += 1; continue }
                try expect(UInt8(ascii: "}"))
                return
            }
        }
    }
}
