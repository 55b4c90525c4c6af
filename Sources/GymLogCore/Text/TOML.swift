// A strict reader and a writer for the small part of TOML (https://toml.io/en/v1.0.0) that
// gymlog's config file uses: comments, `key = value` lines with bare, quoted or dotted keys,
// `[table]` headers, one-line basic and literal strings, integers, floats and booleans.
// Anything else (arrays, inline tables, dates, multi-line strings, `[[tables]]`) is refused
// with an error naming it rather than half-read.
//
// Why not TOMLKit (toml++), the maintained library in the package mirror: measured against the
// 32 config errors TOMLTests pins, it words none of them as this reader does (its messages name
// no key and suggest no fix: "could not determine value type" for `unit = kg`) and accepts 5
// (arrays, inline tables, dates, multi-line strings, `[[tables]]`); gymlog's error messages are
// part of its behaviour. Speed is no reason either way: TOMLKit reads a 15-line config faster
// (0.06 ms against 0.17-0.21 ms a read, release builds on a loaded machine), but a process
// reading it once starts in the same time with either (about 30 ms, within the noise of
// process start), and linking toml++ adds 3 MB to the binary.

import Foundation

/// A config value.
public enum TOMLValue: Equatable, Sendable, CustomStringConvertible {
    case string(String)
    case integer(Int64)
    case float(Double)
    case bool(Bool)

    /// The value spelled as TOML (`"text"`, `42`, `1.5`, `true`).
    public var description: String { renderTOMLValue(self) }

    /// The string, if this is one.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The integer, if this is one.
    public var integerValue: Int64? { if case .integer(let i) = self { i } else { nil } }
    /// The number, if this is an integer or a float.
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .float(let d): d
        default: nil
        }
    }
    /// The boolean, if this is one.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
}

/// Why a config file could not be read, with the 1-based line it happened on.
public struct TOMLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// A sentence naming the bad text.
    public var message: String

    /// An error on 1-based `line` described by `message`.
    public init(line: Int, _ message: String) { self.line = line; self.message = message }

    /// `line 3: expected a value after `unit =``.
    public var description: String { "line \(line): \(message)" }
}

/// Reads `text` into a map from full dotted keys (`sync.server`) to values.
public func parseTOML(_ text: String) throws(TOMLError) -> [String: TOMLValue] {
    var result: [String: TOMLValue] = [:]
    for entry in try parseTOMLLines(text) { result[entry.key] = entry.value }
    return result
}

/// Reads `text` into (full dotted key, value, 1-based line) triples in file order, so an error
/// about a value can name its line.
public func parseTOMLLines(_ text: String) throws(TOMLError) -> [(key: String, value: TOMLValue, line: Int)] {
    var entries: [(key: String, value: TOMLValue, line: Int)] = []
    var valueLines: [String: Int] = [:]        // full key -> line it was set on
    var tableLines: [String: Int] = [:]        // explicit [table] -> line of its header
    var implicitTables: Set<String> = []       // every proper prefix of a table or key
    var currentTable: [String] = []

    func prefixes(_ path: [String]) -> [String] {
        (1..<max(path.count, 1)).map { path[0..<$0].joined(separator: ".") }
    }

    var lineNumber = 0
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
        lineNumber += 1
        var bytes = Array(rawLine.utf8)
        if bytes.last == 13 { bytes.removeLast() }
        var p = TOMLLineParser(bytes: bytes, line: lineNumber)
        p.skipSpaces()
        if p.atEndOrComment { continue }

        if p.peek == UInt8(ascii: "[") {
            p.index += 1
            if p.peek == UInt8(ascii: "[") {
                throw p.error("arrays of tables (`\(p.text)`) are not supported in gymlog's config")
            }
            p.skipSpaces()
            let path = try p.parseKey()
            p.skipSpaces()
            guard p.peek == UInt8(ascii: "]") else {
                throw p.error("expected `]` to close the table header `\(p.text)`")
            }
            p.index += 1
            p.skipSpaces()
            guard p.atEndOrComment else {
                throw p.error("unexpected `\(p.rest)` after the table header `[\(path.joined(separator: "."))]`")
            }
            let name = path.joined(separator: ".")
            if let first = tableLines[name] {
                throw p.error("table `[\(name)]` is defined twice (first on line \(first))")
            }
            for prefix in prefixes(path) + [name] {
                if let first = valueLines[prefix] {
                    throw p.error("table `[\(name)]` conflicts with the key `\(prefix)` set on line \(first)")
                }
            }
            tableLines[name] = lineNumber
            implicitTables.formUnion(prefixes(path))
            currentTable = path
            continue
        }

        let keyStart = p.index
        let localPath = try p.parseKey()
        let keyText = p.trimmed(bytes[keyStart..<p.index])
        p.skipSpaces()
        guard p.peek == UInt8(ascii: "=") else {
            if p.atEnd { throw p.error("expected `=` and a value after the key `\(keyText)`") }
            throw p.error("expected `=` after the key `\(keyText)`, found `\(p.rest)`")
        }
        p.index += 1
        p.skipSpaces()
        if p.atEndOrComment { throw p.error("expected a value after `\(keyText) =`") }
        let value = try p.parseValue(after: keyText)
        p.skipSpaces()
        guard p.atEndOrComment else {
            throw p.error("unexpected `\(p.rest)` after the value of `\(keyText)`")
        }

        let path = currentTable + localPath
        let key = path.joined(separator: ".")
        if let first = valueLines[key] {
            throw p.error("duplicate key `\(key)` (first set on line \(first))")
        }
        if implicitTables.contains(key) || tableLines[key] != nil {
            throw p.error("key `\(key)` is already a table")
        }
        for prefix in prefixes(path) {
            if let first = valueLines[prefix] {
                throw p.error("key `\(key)` conflicts with the key `\(prefix)` set on line \(first)")
            }
        }
        valueLines[key] = lineNumber
        implicitTables.formUnion(prefixes(path))
        entries.append((key, value, lineNumber))
    }
    return entries
}

/// Cursor over one line's UTF-8 bytes.
struct TOMLLineParser {
    let bytes: [UInt8]
    let line: Int
    var index = 0

    init(bytes: [UInt8], line: Int) { self.bytes = bytes; self.line = line }

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }
    var atEndOrComment: Bool { atEnd || bytes[index] == UInt8(ascii: "#") }
    /// The whole line, trimmed, for messages.
    var text: String { trimmed(bytes[...]) }
    /// What is left of the line, trimmed, for messages.
    var rest: String { trimmed(bytes[min(index, bytes.count)...]) }

    /// Trimmed of what Foundation's `.whitespaces` holds (Unicode Zs and tab), without
    /// Foundation: the first use of its character sets cost a one-shot command reading a
    /// two-line file more than the whole parse (issue 31).
    func trimmed(_ slice: ArraySlice<UInt8>) -> String {
        let scalars = String(decoding: slice, as: UTF8.self).unicodeScalars
        func isSpace(_ s: Unicode.Scalar) -> Bool { s == "\t" || s.properties.generalCategory == .spaceSeparator }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[first...last])
    }

    func error(_ message: String) -> TOMLError { TOMLError(line: line, message) }

    mutating func skipSpaces() {
        while let b = peek, b == 32 || b == 9 { index += 1 }
    }

    static func isBare(_ b: UInt8) -> Bool {
        (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || (b >= 48 && b <= 57) || b == 45 || b == 95
    }

    /// A dotted key: `a`, `"a b"`, `'a'`, `sync.server`, `a . "b.c"`.
    mutating func parseKey() throws(TOMLError) -> [String] {
        var path: [String] = []
        while true {
            skipSpaces()
            guard let b = peek else { throw error("expected a key, found the end of the line") }
            if b == UInt8(ascii: "\"") {
                path.append(try parseBasicString())
            } else if b == UInt8(ascii: "'") {
                path.append(try parseLiteralString())
            } else if Self.isBare(b) {
                let start = index
                while let c = peek, Self.isBare(c) { index += 1 }
                path.append(String(decoding: bytes[start..<index], as: UTF8.self))
            } else {
                throw error("expected a key, found `\(rest)`")
            }
            skipSpaces()
            guard peek == UInt8(ascii: ".") else { return path }
            index += 1
        }
    }

    mutating func parseValue(after keyText: String) throws(TOMLError) -> TOMLValue {
        guard let b = peek else { throw error("expected a value after `\(keyText) =`") }
        switch b {
        case UInt8(ascii: "\""):
            return .string(try parseBasicString())
        case UInt8(ascii: "'"):
            return .string(try parseLiteralString())
        case UInt8(ascii: "["):
            throw error("arrays (`\(rest)`) are not supported in gymlog's config")
        case UInt8(ascii: "{"):
            throw error("inline tables (`\(rest)`) are not supported in gymlog's config")
        default:
            break
        }
        let start = index
        while let c = peek, c != 32, c != 9, c != UInt8(ascii: "#") { index += 1 }
        let token = String(decoding: bytes[start..<index], as: UTF8.self)
        if token == "true" { return .bool(true) }
        if token == "false" { return .bool(false) }
        if let value = try parseNumber(token) { return value }
        if looksLikeDate(token) {
            throw error("dates and times (`\(token)`) are not supported in gymlog's config; quote it as a string")
        }
        throw error("`\(token)` is not a valid value for `\(keyText)`; strings need quotes, e.g. `\(keyText) = \"\(token)\"`")
    }

    func looksLikeDate(_ token: String) -> Bool {
        let u = Array(token.utf8)
        return u.count >= 8 && u[0...3].allSatisfy { $0 >= 48 && $0 <= 57 } && u[4] == UInt8(ascii: "-")
            || (u.count >= 5 && u[2] == UInt8(ascii: ":") && u[0...1].allSatisfy { $0 >= 48 && $0 <= 57 })
    }

    /// Digits with single underscores between them (`1_000`); nil otherwise.
    static func digits(_ s: Substring, hex: Bool = false) -> String? {
        guard let first = s.first, let last = s.last, first != "_", last != "_", !s.contains("__") else { return nil }
        for c in s where c != "_" {
            guard c.isASCII, hex ? c.isHexDigit : c.isNumber else { return nil }
        }
        return s.replacingOccurrences(of: "_", with: "")
    }

    func parseNumber(_ token: String) throws(TOMLError) -> TOMLValue? {
        var body = Substring(token)
        var sign = ""
        if let c = body.first, c == "+" || c == "-" {
            sign = c == "-" ? "-" : ""
            body = body.dropFirst()
        }
        switch body {
        case "inf": return .float(sign == "-" ? -.infinity : .infinity)
        case "nan": return .float(.nan)
        default: break
        }
        // 0x / 0o / 0b integers (unsigned, as TOML says).
        if sign.isEmpty && token.first != "+", body.count > 2, body.hasPrefix("0") {
            let radixMark = body[body.index(after: body.startIndex)]
            let radix: Int? = radixMark == "x" ? 16 : radixMark == "o" ? 8 : radixMark == "b" ? 2 : nil
            if let radix {
                guard let clean = Self.digits(body.dropFirst(2), hex: true) else { return nil }
                guard let value = Int64(clean, radix: radix) else {
                    if clean.allSatisfy({ Int(String($0), radix: radix) != nil }) {
                        throw error("integer `\(token)` is out of range")
                    }
                    return nil
                }
                return .integer(value)
            }
        }
        // Split into integer part, fraction and exponent.
        var intPart = body, fraction: Substring?, exponent: Substring?
        if let e = body.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = body[body.index(after: e)...]
            intPart = body[..<e]
        }
        if let dot = intPart.firstIndex(of: ".") {
            fraction = intPart[intPart.index(after: dot)...]
            intPart = intPart[..<dot]
        }
        guard let intDigits = Self.digits(intPart) else { return nil }
        if intDigits.count > 1 && intDigits.hasPrefix("0") { return nil }  // no leading zeros
        var normalized = sign + intDigits
        if let fraction {
            guard let f = Self.digits(fraction) else { return nil }
            normalized += "." + f
        }
        if var exponent {
            var expSign = ""
            if let c = exponent.first, c == "+" || c == "-" { expSign = String(c); exponent = exponent.dropFirst() }
            guard let e = Self.digits(exponent) else { return nil }
            normalized += "e" + expSign + e
        }
        if fraction == nil && exponent == nil {
            guard let value = Int64(normalized) else { throw error("integer `\(token)` is out of range") }
            return .integer(value)
        }
        guard let value = Double(normalized), value.isFinite else {
            throw error("float `\(token)` is out of range")
        }
        return .float(value)
    }

    /// `"..."` with TOML escapes; the cursor is on the opening quote.
    mutating func parseBasicString() throws(TOMLError) -> String {
        if bytes.count >= index + 3 && bytes[index + 1] == 34 && bytes[index + 2] == 34 {
            throw error("multi-line strings (`\"\"\"`) are not supported in gymlog's config")
        }
        let start = index
        index += 1
        var out: [UInt8] = []
        while true {
            guard let b = peek else {
                throw error("unterminated string `\(String(decoding: bytes[start...], as: UTF8.self))`")
            }
            index += 1
            switch b {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let e = peek else { throw error("unterminated string `\(String(decoding: bytes[start...], as: UTF8.self))`") }
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(34)
                case UInt8(ascii: "\\"): out.append(92)
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "u"), UInt8(ascii: "U"):
                    let count = e == UInt8(ascii: "u") ? 4 : 8
                    let escapeText = String(decoding: bytes[(index - 2)..<min(index + count, bytes.count)], as: UTF8.self)
                    guard index + count <= bytes.count,
                          let code = UInt32(String(decoding: bytes[index..<(index + count)], as: UTF8.self), radix: 16),
                          bytes[index..<(index + count)].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
                          let scalar = Unicode.Scalar(code)
                    else { throw error("invalid escape `\(escapeText)` in a string; use \\u followed by 4 hex digits of a Unicode scalar") }
                    index += count
                    out.append(contentsOf: String(Character(scalar)).utf8)
                default:
                    let shown = String(decoding: bytes[(index - 2)..<index], as: UTF8.self)
                    throw error("invalid escape `\(shown)` in a string; write `\\\\` for a backslash")
                }
            default:
                if (b < 0x20 && b != 9) || b == 0x7F {
                    throw error("control character U+\(hex4(b)) inside a string; escape it")
                }
                out.append(b)
            }
        }
    }

    /// `'...'` taken as is; the cursor is on the opening quote.
    mutating func parseLiteralString() throws(TOMLError) -> String {
        if bytes.count >= index + 3 && bytes[index + 1] == 39 && bytes[index + 2] == 39 {
            throw error("multi-line strings (`'''`) are not supported in gymlog's config")
        }
        let start = index
        index += 1
        let contentStart = index
        while let b = peek, b != UInt8(ascii: "'") {
            if (b < 0x20 && b != 9) || b == 0x7F {
                throw error("control character U+\(hex4(b)) inside a string; use a \"basic\" string with an escape")
            }
            index += 1
        }
        guard !atEnd else { throw error("unterminated string `\(String(decoding: bytes[start...], as: UTF8.self))`") }
        let value = String(decoding: bytes[contentStart..<index], as: UTF8.self)
        index += 1
        return value
    }
}

func hex4(_ value: UInt8) -> String {
    let s = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - s.count) + s
}

/// Renders (full dotted key, value) pairs as a TOML document: undotted keys first, then one
/// `[table]` per dotted prefix in order of first appearance, keys in the order given.
///
/// Key segments are split on `.`, so a segment cannot itself contain a dot, and a key may not
/// also be the prefix of another (`sync` and `sync.server`); `parseTOML` rejects both.
public func renderTOML(_ values: [(key: String, value: TOMLValue)]) -> String {
    var root: [(String, TOMLValue)] = []
    var tableOrder: [String] = []
    var tables: [String: [(String, TOMLValue)]] = [:]
    for (key, value) in values {
        let segments = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let leaf = renderTOMLKey(segments.last ?? "")
        if segments.count == 1 {
            root.append((leaf, value))
        } else {
            let table = segments.dropLast().map(renderTOMLKey).joined(separator: ".")
            if tables[table] == nil { tableOrder.append(table) }
            tables[table, default: []].append((leaf, value))
        }
    }
    var out = ""
    for (key, value) in root { out += "\(key) = \(renderTOMLValue(value))\n" }
    for table in tableOrder {
        if !out.isEmpty { out += "\n" }
        out += "[\(table)]\n"
        for (key, value) in tables[table] ?? [] { out += "\(key) = \(renderTOMLValue(value))\n" }
    }
    return out
}

/// A key segment, bare when it can be, else a quoted basic string.
public func renderTOMLKey(_ segment: String) -> String {
    if !segment.isEmpty && segment.utf8.allSatisfy(TOMLLineParser.isBare) { return segment }
    return renderTOMLString(segment)
}

public func renderTOMLValue(_ value: TOMLValue) -> String {
    switch value {
    case .string(let s): return renderTOMLString(s)
    case .integer(let i): return String(i)
    case .bool(let b): return b ? "true" : "false"
    case .float(let d):
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        // Swift prints the shortest round-tripping form (`1.0`, `0.1`, `1e-05`, `5e+22`), all valid TOML floats.
        return "\(d)"
    }
}

/// A basic string with `"`, `\` and control characters escaped.
///
/// JSON's string escapes (`\"`, `\\`, `\n`, `\r`, `\t`, `\u00XX`) are a subset of a TOML
/// basic string's, so the one escaper the JSON output uses writes valid TOML too.
public func renderTOMLString(_ s: String) -> String {
    var out = ""
    appendJSONString(s, to: &out)
    return out
}

/// `text` (a config file) with `key` set to `value`, every other line as it was: a key already
/// set gets the new value on its own line (its comment kept); a new one goes beside the keys
/// of its table, under the table's header, or into a new table at the end. The result is read
/// back before it is returned, so an edit never leaves a file gymlog cannot read.
public func settingTOML(_ text: String, key: String, to value: TOMLValue) throws(TOMLError) -> String {
    let entries = try parseTOMLLines(text)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    let rendered = renderTOMLValue(value)
    // The table each line is in, and each header's line.
    var tableOf: [Int: String] = [:], headers: [(line: Int, name: String)] = []
    var current = ""
    for (i, line) in lines.enumerated() {
        var p = TOMLLineParser(bytes: Array(line.utf8), line: i + 1)
        p.skipSpaces()
        if p.peek == UInt8(ascii: "[") {
            p.index += 1
            current = try p.parseKey().joined(separator: ".")
            headers.append((i, current))
        }
        tableOf[i] = current
    }
    func local(_ table: String) -> String {
        let leaf = table.isEmpty ? key : String(key.dropFirst(table.count + 1))
        return leaf.split(separator: ".").map { renderTOMLKey(String($0)) }.joined(separator: ".")
    }
    func inTable(_ table: String) -> Bool { table.isEmpty || key.hasPrefix(table + ".") }
    if let entry = entries.first(where: { $0.key == key }) {
        // The value's bytes between `=` and what follows it (spaces, a comment).
        let i = entry.line - 1, bytes = Array(lines[i].utf8)
        var p = TOMLLineParser(bytes: bytes, line: entry.line)
        p.skipSpaces()
        _ = try p.parseKey()
        p.skipSpaces()
        p.index += 1
        p.skipSpaces()
        let start = p.index
        _ = try p.parseValue(after: key)
        lines[i] = String(decoding: bytes[..<start], as: UTF8.self) + rendered + String(decoding: bytes[p.index...], as: UTF8.self)
    } else if let sibling = entries.last(where: { $0.key.split(separator: ".").first == key.split(separator: ".").first
                                                  && inTable(tableOf[$0.line - 1] ?? "") }) {
        // Beside a key of the same group (`sync.interval` under `sync.auto`).
        let table = tableOf[sibling.line - 1] ?? ""
        lines.insert("\(local(table)) = \(rendered)", at: sibling.line)
    } else if let header = headers.last(where: { !$0.name.isEmpty && key.hasPrefix($0.name + ".") }) {
        lines.insert("\(local(header.name)) = \(rendered)", at: header.line + 1)
    } else if !key.contains(".") {
        // A top-level key goes after the other top-level keys, or before the first table,
        // where TOML reads it as top-level.
        if let last = entries.last(where: { tableOf[$0.line - 1] == "" }) {
            lines.insert("\(renderTOMLKey(key)) = \(rendered)", at: last.line)
        } else if let first = headers.first {
            lines.insert(contentsOf: ["\(renderTOMLKey(key)) = \(rendered)", ""], at: first.line)
        } else {
            lines.append("\(renderTOMLKey(key)) = \(rendered)")
        }
    } else {
        let table = key.split(separator: ".").dropLast().joined(separator: ".")
        if !(lines.last?.isEmpty ?? true) { lines.append("") }
        lines.append("[\(table.split(separator: ".").map { renderTOMLKey(String($0)) }.joined(separator: "."))]")
        lines.append("\(local(table)) = \(rendered)")
    }
    let result = lines.joined(separator: "\n") + "\n"
    guard try parseTOMLLines(result).first(where: { $0.key == key })?.value == value else {
        throw TOMLError(line: 0, "setting \(key) would not read back as \(rendered)")
    }
    return result
}

/// A value typed after `gymlog config set KEY`: TOML when it reads as a TOML value (`true`,
/// `180`, `2.5`, `"3:00"`), else the words as a string (`lb`, `3:00`, `20x4, 10x2`).
public func typedTOMLValue(_ typed: String) -> TOMLValue {
    var p = TOMLLineParser(bytes: Array(typed.utf8), line: 1)
    p.skipSpaces()
    if !p.atEnd, let value = try? p.parseValue(after: "value") {
        p.skipSpaces()
        if p.atEnd { return value }
    }
    return .string(typed)
}
