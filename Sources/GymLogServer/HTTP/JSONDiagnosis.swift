import Foundation

/// A strict RFC 8259 check of a request body, with the problem in words for the
/// `invalid_json` message ("byte offset 17 is not valid UTF-8", "it ends after 20 bytes with
/// 3 array(s) or object(s) still open", ...).
///
/// Foundation's JSONDecoder is no validator: it accepts trailing commas, and it checks a
/// string only when the string is decoded, so a raw control character, a bad escape or
/// invalid UTF-8 inside a value read with `try?` (or not read at all) got through; and its
/// own error says only "not valid JSON". It also reads object keys first-wins, so a
/// duplicate key (`{"device_id":"a","device_id":"b"}`) silently dropped the second value:
/// following RFC 8259's interoperability note, a key repeated in one object (at any depth,
/// compared after unescaping) is refused here too. The routes run this check before
/// JSONDecoder whenever the hand-written push reader steps aside, and that reader steps
/// aside on every duplicate key, so every body meets this rule. It is iterative (no
/// recursion), so no body, however deeply nested, can exhaust the stack.
enum JSONDiagnosis {
    /// The deepest nesting read (JSONDecoder's own limit).
    static let maxDepth = 512

    /// The first thing that makes `data` not a JSON text the server reads; nil when it is one.
    /// An escaped unpaired surrogate (`\ud800`) is grammatical JSON and not reported here.
    static func problem(in data: Data) -> String? {
        data.withUnsafeBytes { raw in scan(raw.bindMemory(to: UInt8.self)).problem }
    }

    /// Where the first escaped unpaired UTF-16 surrogate is (JSONDecoder refuses to make a
    /// String of it), in words; nil when there is none.
    static func unpairedSurrogate(in data: Data) -> String? {
        data.withUnsafeBytes { raw in
            scan(raw.bindMemory(to: UInt8.self)).surrogate.map { "an unpaired UTF-16 surrogate escape at byte offset \($0)" }
        }
    }

    private static func scan(_ b: UnsafeBufferPointer<UInt8>) -> (problem: String?, surrogate: Int?) {
        var surrogate: Int?
        let problem = problem(in: b, surrogate: &surrogate)
        return (problem, surrogate)
    }

    private enum Expect { case value, keyOrClose, key, colon, commaOrClose, end }

    private static func problem(in b: UnsafeBufferPointer<UInt8>, surrogate: inout Int?) -> String? {
        if b.isEmpty { return "the body is empty" }
        if let bad = firstInvalidUTF8(b) { return "byte offset \(bad) is not valid UTF-8" }
        var i = 0
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }  // a BOM, as Foundation allows
        // One flag per open container: true for an object. Grows with the nesting, on the heap.
        var open: [Bool] = []
        // The keys read so far in each open container (always empty for arrays).
        var keys: [Set<String>] = []
        var deepest = 0
        var expect = Expect.value

        func unexpected(_ at: Int) -> String {
            let what = (0x21...0x7E).contains(b[at]) ? "'\(Character(Unicode.Scalar(b[at])))'" : "byte \(hex(b[at]))"
            return "unexpected \(what) at byte offset \(at)" + (expect == .end ? " after the end of the JSON value" : "")
        }

        while true {
            while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
            guard i < b.count else {
                if expect == .end { break }
                return "it ends after \(b.count) bytes" + (open.isEmpty ? " before a complete value" : " with \(open.count) array(s) or object(s) still open")
            }
            let c = b[i]
            switch expect {
            case .end:
                return unexpected(i)
            case .colon:
                guard c == UInt8(ascii: ":") else { return unexpected(i) }
                i += 1
                expect = .value
                continue
            case .commaOrClose:
                if c == UInt8(ascii: ",") { i += 1; expect = open.last! ? .key : .value; continue }
                guard c == (open.last! ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return unexpected(i) }
                i += 1
                open.removeLast()
                keys.removeLast()
                expect = open.isEmpty ? .end : .commaOrClose
                continue
            case .keyOrClose, .key:
                if expect == .keyOrClose, c == UInt8(ascii: "}") {
                    i += 1
                    open.removeLast()
                    keys.removeLast()
                    expect = open.isEmpty ? .end : .commaOrClose
                    continue
                }
                guard c == UInt8(ascii: "\"") else { return unexpected(i) }
                let start = i
                if let problem = skipString(b, &i, &surrogate) { return problem }
                // A key with an unpaired surrogate escape has no String of its own; JSONDecoder
                // refuses it anyway, so it takes no part in the duplicate check.
                if let key = stringValue(b, from: start + 1, to: i - 1), !keys[keys.count - 1].insert(key).inserted {
                    return "the key \(quotedSource(b, from: start, to: i)) at byte offset \(start) repeats a key of the same object; send each key once (the server refuses duplicate keys instead of picking one)"
                }
                expect = .colon
                continue
            case .value:
                break
            }
            // A value.
            switch c {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open.append(c == UInt8(ascii: "{"))
                keys.append([])
                deepest = max(deepest, open.count)
                i += 1
                if c == UInt8(ascii: "{") { expect = .keyOrClose; continue }
                var j = i
                while j < b.count, b[j] == 0x20 || b[j] == 0x09 || b[j] == 0x0A || b[j] == 0x0D { j += 1 }
                if j < b.count, b[j] == UInt8(ascii: "]") {
                    i = j + 1
                    open.removeLast()
                    keys.removeLast()
                    expect = open.isEmpty ? .end : .commaOrClose
                } else {
                    expect = .value
                }
                continue
            case UInt8(ascii: "\""):
                if let problem = skipString(b, &i, &surrogate) { return problem }
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                let word: [UInt8] = c == UInt8(ascii: "t") ? Array("true".utf8) : c == UInt8(ascii: "f") ? Array("false".utf8) : Array("null".utf8)
                guard b.count - i >= word.count, Array(b[i..<(i + word.count)]) == word else { return unexpected(i) }
                i += word.count
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                if let problem = skipNumber(b, &i) { return problem }
            default:
                return unexpected(i)
            }
            expect = open.isEmpty ? .end : .commaOrClose
        }
        if deepest > maxDepth {
            return "its arrays and objects are nested \(deepest) levels deep; the server reads at most \(maxDepth)"
        }
        return nil
    }

    /// Skips a string starting at the quote at `i`; a problem, or nil with `i` past the closing quote.
    private static func skipString(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ surrogate: inout Int?) -> String? {
        let start = i
        i += 1
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") { i += 1; return nil }
            if c < 0x20 {
                return "a control character (U+00\(hex(c).dropFirst(2))) at byte offset \(i) inside a string; escape it"
            }
            guard c == UInt8(ascii: "\\") else { i += 1; continue }
            guard i + 1 < b.count else { break }
            switch b[i + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                i += 2
            case UInt8(ascii: "u"):
                guard let unit = hex4(b, i + 2) else { return "an invalid \\u escape at byte offset \(i)" }
                if (0xD800...0xDBFF).contains(unit), i + 12 <= b.count, b[i + 6] == UInt8(ascii: "\\"), b[i + 7] == UInt8(ascii: "u"),
                   let low = hex4(b, i + 8), (0xDC00...0xDFFF).contains(low) {
                    i += 12
                } else {
                    if (0xD800...0xDFFF).contains(unit), surrogate == nil { surrogate = i }
                    i += 6
                }
            default:
                return "an invalid escape at byte offset \(i)"
            }
        }
        return "it ends after \(b.count) bytes inside the string that starts at byte offset \(start)"
    }

    /// The String a well-formed JSON string's contents (the bytes between its quotes, escapes
    /// checked by `skipString`) stand for; nil when it escapes an unpaired surrogate.
    private static func stringValue(_ b: UnsafeBufferPointer<UInt8>, from: Int, to end: Int) -> String? {
        let raw = UnsafeBufferPointer(rebasing: b[from..<end])
        guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var bytes: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
            bytes.removeAll(keepingCapacity: true)
        }
        var i = from
        while i < end {
            guard b[i] == UInt8(ascii: "\\") else { bytes.append(b[i]); i += 1; continue }
            let e = b[i + 1]
            switch e {
            case UInt8(ascii: "b"): bytes.append(0x08); i += 2
            case UInt8(ascii: "f"): bytes.append(0x0C); i += 2
            case UInt8(ascii: "n"): bytes.append(0x0A); i += 2
            case UInt8(ascii: "r"): bytes.append(0x0D); i += 2
            case UInt8(ascii: "t"): bytes.append(0x09); i += 2
            case UInt8(ascii: "u"):
                guard let unit = hex4(b, i + 2) else { return nil }
                var scalar = UInt32(unit)
                i += 6
                if (0xD800...0xDBFF).contains(unit) {
                    guard i + 6 <= end, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u"),
                          let low = hex4(b, i + 2), (0xDC00...0xDFFF).contains(low) else { return nil }
                    scalar = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
                    i += 6
                } else if (0xDC00...0xDFFF).contains(unit) {
                    return nil
                }
                flush()
                scalars.append(Unicode.Scalar(scalar)!)
            default: bytes.append(e); i += 2  // \" \\ \/
            }
        }
        flush()
        return String(scalars)
    }

    /// A string as it was sent, quotes included, cut to 64 characters for a message.
    private static func quotedSource(_ b: UnsafeBufferPointer<UInt8>, from: Int, to end: Int) -> String {
        let text = String(decoding: UnsafeBufferPointer(rebasing: b[from..<end]), as: UTF8.self)
        return text.count > 64 ? String(text.prefix(63)) + "…\"" : text
    }

    /// `0x0A`
    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" : "") + digits
    }

    private static func hex4(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int? {
        guard at + 4 <= b.count else { return nil }
        var value = 0
        for k in at..<(at + 4) {
            let c = b[k]
            let digit: Int
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(c) - 48
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(c) - 87
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(c) - 55
            default: return nil
            }
            value = value * 16 + digit
        }
        return value
    }

    /// JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    private static func skipNumber(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> String? {
        let start = i
        func digits() -> Int {
            let from = i
            while i < b.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[i]) { i += 1 }
            return i - from
        }
        if b[i] == UInt8(ascii: "-") { i += 1 }
        if i < b.count, b[i] == UInt8(ascii: "0") {
            i += 1
        } else if digits() == 0 {
            return "a malformed number at byte offset \(start)"
        }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            if digits() == 0 { return "a malformed number at byte offset \(start)" }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            if digits() == 0 { return "a malformed number at byte offset \(start)" }
        }
        return nil
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
