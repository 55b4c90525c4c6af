import Foundation

/// A strict RFC 8259 reader over a request body's bytes, one pass, with the first problem in
/// words for the `invalid_json` message ("byte offset 17 is not valid UTF-8", "it ends after
/// 20 bytes with 3 array(s) or object(s) still open", ...). `PushBodyReader` reads a push
/// with it; `problem(in:)` checks any other body before JSONDecoder reads it.
///
/// Foundation's JSONDecoder is no validator: it accepts trailing commas, and it checks a
/// string only when the string is decoded, so a raw control character, a bad escape or
/// invalid UTF-8 inside a value read with `try?` (or not read at all) got through; and its
/// own error says only "not valid JSON". It also reads object keys first-wins, so a
/// duplicate key (`{"device_id":"a","device_id":"b"}`) silently dropped the second value:
/// following RFC 8259's interoperability note, a key repeated in one object (at any depth,
/// compared after unescaping) is refused here. Values nobody reads are skipped without
/// recursion, so no body, however deeply nested, can exhaust the stack.
public struct JSONReader {
    /// The deepest nesting read (JSONDecoder's own limit).
    static let maxDepth = 512

    /// The body is not JSON; `problem` says why and where.
    public struct Malformed: Error { let problem: String }
    /// Thrown by an object's member reader, before it reads the value, when it has seen the key before.
    public struct RepeatedKey: Error { public init() {} }

    let b: UnsafeBufferPointer<UInt8>
    private(set) var i = 0
    /// Arrays and objects open at `i`.
    private var depth = 0
    /// Where the first escaped unpaired UTF-16 surrogate is (`\ud800`): grammatical JSON, but
    /// no String holds it, so a string that must be read whole refuses the body naming it.
    public private(set) var firstSurrogate: Int?

    public init(_ b: UnsafeBufferPointer<UInt8>) { self.b = b }

    // MARK: Any body

    /// The first thing that makes `data` not a JSON text the server reads; nil when it is one.
    /// An escaped unpaired surrogate is grammatical JSON and not reported here.
    public static func problem(in data: Data) -> String? {
        data.withUnsafeBytes { raw in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self))
            do { try reader.document { try $0.skipValue() } } catch { return reader.describe(error) }
            return nil
        }
    }

    /// Where the first escaped unpaired UTF-16 surrogate is, in words; nil when there is none.
    public static func unpairedSurrogate(in data: Data) -> String? {
        data.withUnsafeBytes { raw in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self))
            try? reader.document { try $0.skipValue() }
            return reader.firstSurrogate.map(Self.surrogateProblem)
        }
    }

    public static func surrogateProblem(at offset: Int) -> String { "an unpaired UTF-16 surrogate escape at byte offset \(offset)" }

    /// The words for what `read` threw: invalid UTF-8 anywhere in the body comes first, as
    /// a reader that decoded the text before parsing it would say.
    public func describe(_ error: any Error) -> String {
        if let bad = Self.firstInvalidUTF8(b) { return "byte offset \(bad) is not valid UTF-8" }
        return (error as? Malformed)?.problem ?? "\(error)"
    }

    /// One JSON text: an optional byte order mark (Foundation allows it), `value`, then only
    /// whitespace. Nesting deeper than `maxDepth` is refused where it happens: 8 MiB of `[`
    /// costs 513 bytes of reading, not 8 MiB.
    public mutating func document(_ value: (inout JSONReader) throws -> Void) throws {
        if b.isEmpty { throw Malformed(problem: "the body is empty") }
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }
        skipWhitespace()
        try value(&self)
        skipWhitespace()
        if i < b.count { throw Malformed(problem: unexpected(afterEnd: true)) }
    }

    // MARK: Containers

    public func peek() -> UInt8 { i < b.count ? b[i] : 0 }

    /// `{ "key": value, ... }`, calling `member` with the reader at each value and the key
    /// (nil when it escapes an unpaired surrogate: no String holds it, so it takes no part in
    /// the duplicate check). `member` throws `RepeatedKey` before reading a repeated key's value.
    public mutating func object(_ member: (inout JSONReader, String?) throws -> Void) throws {
        try open(UInt8(ascii: "{"))
        if peek() == UInt8(ascii: "}") { close(); return }
        while true {
            let (key, keyStart) = try memberKey()
            do { try member(&self, key) } catch is RepeatedKey { throw Malformed(problem: repeatedKey(from: keyStart)) }
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { close(); return }
            guard peek() == UInt8(ascii: ",") else { throw Malformed(problem: endOrUnexpected()) }
            i += 1
            skipWhitespace()
        }
    }

    /// `[ value, ... ]`, calling `element` with the reader at each value and its index.
    public mutating func array(_ element: (inout JSONReader, Int) throws -> Void) throws {
        try open(UInt8(ascii: "["))
        if peek() == UInt8(ascii: "]") { close(); return }
        var index = 0
        while true {
            try element(&self, index)
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { close(); return }
            guard peek() == UInt8(ascii: ",") else { throw Malformed(problem: endOrUnexpected()) }
            i += 1
            skipWhitespace()
        }
    }

    private mutating func open(_ bracket: UInt8) throws {
        guard peek() == bracket else { throw Malformed(problem: endOrUnexpected()) }
        depth += 1
        if depth > Self.maxDepth {
            throw Malformed(problem: "its arrays and objects are nested more than \(Self.maxDepth) levels deep (at byte offset \(i)); the server reads at most \(Self.maxDepth)")
        }
        i += 1
        skipWhitespace()
    }

    private mutating func close() {
        i += 1
        depth -= 1
    }

    /// Skips one value of any shape, checking it as strictly as a value that is read, without
    /// recursion: one set of keys per open object lives on the heap.
    public mutating func skipValue() throws {
        // One entry per container opened here: the keys of an object, nil for an array.
        var open: [Set<String>?] = []
        while true {
            switch peek() {
            case UInt8(ascii: "{"):
                try self.open(UInt8(ascii: "{"))
                if peek() == UInt8(ascii: "}") { close() } else { open.append([]); try keyOfSkipped(&open); continue }
            case UInt8(ascii: "["):
                try self.open(UInt8(ascii: "["))
                if peek() == UInt8(ascii: "]") { close() } else { open.append(nil); continue }
            default:
                try skipScalar()
            }
            // A value ended: close what it ends, then go on to the next member or element.
            while true {
                guard let innermost = open.last else { return }
                skipWhitespace()
                let closing = innermost == nil ? UInt8(ascii: "]") : UInt8(ascii: "}")
                if peek() == closing { close(); open.removeLast(); continue }
                guard peek() == UInt8(ascii: ",") else { throw Malformed(problem: endOrUnexpected()) }
                i += 1
                skipWhitespace()
                if innermost != nil { try keyOfSkipped(&open) }
                break
            }
        }
    }

    /// Reads a member's `"key":` and the white space after it, leaving the reader at the value;
    /// the key is nil when it escapes an unpaired surrogate, `start` is its offset (for a repeat).
    private mutating func memberKey() throws -> (key: String?, start: Int) {
        guard peek() == UInt8(ascii: "\"") else { throw Malformed(problem: endOrUnexpected()) }
        let start = i
        let key = try string()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw Malformed(problem: endOrUnexpected()) }
        i += 1
        skipWhitespace()
        return (key, start)
    }

    /// Reads `"key":` of an object being skipped, refusing a repeat; leaves the reader at the value.
    private mutating func keyOfSkipped(_ open: inout [Set<String>?]) throws {
        let (key, keyStart) = try memberKey()
        if let key, open[open.count - 1]!.insert(key).inserted == false { throw Malformed(problem: repeatedKey(from: keyStart)) }
    }

    /// Skips a string, number or literal.
    private mutating func skipScalar() throws {
        switch peek() {
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try numberText()
        default: throw Malformed(problem: endOrUnexpected())
        }
    }

    // MARK: Scalars

    public mutating func skipWhitespace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    public mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        let start = i
        guard b.count - i >= n else { throw Malformed(problem: unexpected(at: start)) }
        for k in 0..<n where b[i + k] != word.utf8Start[k] { throw Malformed(problem: unexpected(at: start)) }
        i += n
    }

    /// `null`, read; false (and nothing read) for any other value.
    public mutating func null() throws -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    /// A JSON string, escapes decoded; nil when it escapes an unpaired surrogate (no String
    /// holds it). A raw control character, a bad escape, invalid UTF-8 or the end of the body
    /// inside it is `Malformed`.
    public mutating func string() throws -> String? {
        let start = i
        i += 1
        var ascii = true
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: b[(start + 1)..<i])
                i += 1
                return ascii ? String(decoding: slice, as: UTF8.self) : try Self.utf8(slice)
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw Malformed(problem: controlCharacter(at: i)) }
            if c >= 0x80 { ascii = false }
            i += 1
        }
        // Escapes: decode into scalars, keeping the raw runs between them as UTF-8 bytes.
        var bytes = Array(b[(start + 1)..<i])
        var paired = true
        while true {
            guard i < b.count else {
                throw Malformed(problem: "it ends after \(b.count) bytes inside the string that starts at byte offset \(start)")
            }
            let c = b[i]
            switch c {
            case UInt8(ascii: "\""):
                i += 1
                let text = try bytes.withUnsafeBufferPointer { try Self.utf8($0) }
                return paired ? text : nil
            case UInt8(ascii: "\\"):
                guard i + 1 < b.count else {
                    throw Malformed(problem: "it ends after \(b.count) bytes inside the string that starts at byte offset \(start)")
                }
                let escape = i
                switch b[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(b[i + 1]); i += 2
                case UInt8(ascii: "b"): bytes.append(0x08); i += 2
                case UInt8(ascii: "f"): bytes.append(0x0C); i += 2
                case UInt8(ascii: "n"): bytes.append(0x0A); i += 2
                case UInt8(ascii: "r"): bytes.append(0x0D); i += 2
                case UInt8(ascii: "t"): bytes.append(0x09); i += 2
                case UInt8(ascii: "u"):
                    guard let unit = hex4(at: i + 2) else { throw Malformed(problem: "an invalid \\u escape at byte offset \(escape)") }
                    if (0xD800...0xDBFF).contains(unit), i + 12 <= b.count, b[i + 6] == UInt8(ascii: "\\"), b[i + 7] == UInt8(ascii: "u"),
                       let low = hex4(at: i + 8), (0xDC00...0xDFFF).contains(low) {
                        bytes.append(contentsOf: UTF8.encode(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)!)
                        i += 12
                    } else if (0xD800...0xDFFF).contains(unit) {
                        if firstSurrogate == nil { firstSurrogate = escape }
                        paired = false
                        i += 6
                    } else {
                        bytes.append(contentsOf: UTF8.encode(Unicode.Scalar(unit)!)!)
                        i += 6
                    }
                default:
                    throw Malformed(problem: "an invalid escape at byte offset \(escape)")
                }
            default:
                if c < 0x20 { throw Malformed(problem: controlCharacter(at: i)) }
                bytes.append(c)
                i += 1
            }
        }
    }

    /// The text of a number in JSON's grammar, -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    public mutating func numberText() throws -> Substring {
        let start = i
        func digits(_ r: inout JSONReader) -> Int {
            let from = r.i
            while r.i < r.b.count, r.b[r.i] >= UInt8(ascii: "0"), r.b[r.i] <= UInt8(ascii: "9") { r.i += 1 }
            return r.i - from
        }
        let malformed = Malformed(problem: "a malformed number at byte offset \(start)")
        if peek() == UInt8(ascii: "-") { i += 1 }
        if peek() == UInt8(ascii: "0") { i += 1 } else if digits(&self) == 0 { throw malformed }
        if peek() == UInt8(ascii: ".") {
            i += 1
            if digits(&self) == 0 { throw malformed }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            i += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { i += 1 }
            if digits(&self) == 0 { throw malformed }
        }
        return Substring(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
    }

    // MARK: Problems in words

    /// "unexpected ']' at byte offset 17", or the end of the body with what is still open.
    func endOrUnexpected() -> String {
        guard i < b.count else {
            return "it ends after \(b.count) bytes" + (depth == 0 ? " before a complete value" : " with \(depth) array(s) or object(s) still open")
        }
        return unexpected(at: i)
    }

    private func unexpected(at offset: Int, afterEnd: Bool = false) -> String {
        let what = (0x21...0x7E).contains(b[offset]) ? "'\(Character(Unicode.Scalar(b[offset])))'" : "byte \(Self.hex(b[offset]))"
        return "unexpected \(what) at byte offset \(offset)" + (afterEnd ? " after the end of the JSON value" : "")
    }

    private func unexpected(afterEnd: Bool) -> String { unexpected(at: i, afterEnd: afterEnd) }

    private func controlCharacter(at offset: Int) -> String {
        "a control character (U+00\(Self.hex(b[offset]).dropFirst(2))) at byte offset \(offset) inside a string; escape it"
    }

    /// The key that starts at `keyStart` (as sent, cut to 64 characters) repeats one of its object.
    private func repeatedKey(from keyStart: Int) -> String {
        var end = keyStart + 1
        while b[end] != UInt8(ascii: "\"") { end += b[end] == UInt8(ascii: "\\") ? 2 : 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: b[keyStart...end]), as: UTF8.self)
        let shown = text.count > 64 ? String(text.prefix(63)) + "…\"" : text
        return "the key \(shown) at byte offset \(keyStart) repeats a key of the same object; send each key once (the server refuses duplicate keys instead of picking one)"
    }

    /// `0x0A`
    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" : "") + digits
    }

    private func hex4(at offset: Int) -> UInt32? {
        guard offset + 4 <= b.count else { return nil }
        var value: UInt32 = 0
        for k in offset..<(offset + 4) {
            let c = b[k]
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt32(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        return value
    }

    /// The bytes as a String; invalid UTF-8 (which decoding would replace with U+FFFD) is `Malformed`.
    private static func utf8(_ bytes: UnsafeBufferPointer<UInt8>) throws -> String {
        let s = String(decoding: bytes, as: UTF8.self)
        guard s.utf8.elementsEqual(bytes) else { throw Malformed(problem: "invalid UTF-8") }
        return s
    }

    /// The offset of the first byte that does not belong to well-formed UTF-8, if any.
    private static func firstInvalidUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = b.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }
}
