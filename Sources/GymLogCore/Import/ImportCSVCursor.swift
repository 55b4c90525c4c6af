import Foundation

// MARK: - CSV rows with line numbers

/// Reads CSV one row at a time with the line it starts on, for error messages that point
/// into the file. This is gymlog's one CSV reader: RFC 4180 (quoted fields may hold the
/// delimiter, doubled quotes and line breaks; rows end in CRLF, LF or CR; the last row needs
/// no line break), lenient where files in the wild are sloppy (a UTF-8 byte-order mark is
/// dropped, blank lines are skipped, a stray quote inside an unquoted field is text). A quoted
/// field that is never closed would swallow every line after it: the row is cut at the end
/// of the line where the quote opens, flagged in `unclosedQuote`, and reading goes on with
/// the next line, so the lines after it are read as rows of their own. The delimiter is
/// guessed from the header line when not given.
public struct ImportCSVCursor {
    let bytes: [UInt8]
    var i = 0
    var line = 1
    /// The field separator in use.
    public private(set) var delimiter: UInt8
    /// Set when the row `next()` returned opens a quote it never closes; nil otherwise.
    public private(set) var unclosedQuote: UnclosedQuote?
    /// The line the row `next()` returned ends on (later than its first line when a quoted
    /// field holds line breaks).
    public private(set) var rowEndLine = 1

    /// A quote opened on `line` and never closed before the end of the file.
    public struct UnclosedQuote: Equatable, Sendable {
        /// The line the quote opens on.
        public var line: Int
        /// How many lines after it the quote would have taken in (they are read on their own).
        public var swallowedLines: Int
    }

    public init(_ bytes: [UInt8], delimiter: Character?) {
        self.bytes = bytes
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        if let delimiter {
            self.delimiter = delimiter.asciiValue ?? UInt8(ascii: ",")
        } else {
            let firstLine = bytes[i...].prefix(4096)
            let guess = Self.guessDelimiter(String(decoding: firstLine, as: UTF8.self))
            self.delimiter = guess.asciiValue ?? UInt8(ascii: ",")
        }
    }

    public var delimiterCharacter: Character { Character(UnicodeScalar(delimiter)) }

    /// The next non-blank row and the line it starts on; nil at the end.
    public mutating func next() -> (line: Int, fields: [String])? {
        unclosedQuote = nil
        let n = bytes.count
        while i < n {
            // Blank lines are skipped.
            if bytes[i] == 10 { line += 1; i += 1; continue }
            if bytes[i] == 13 { line += 1; i += (i + 1 < n && bytes[i + 1] == 10) ? 2 : 1; continue }
            break
        }
        guard i < n else { return nil }
        let start = line
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false, inQuotes = false
        var quoteStart = 0, quoteLine = 0, fieldsBeforeQuote = 0
        while i < n {
            let b = bytes[i]
            if inQuotes {
                if b == UInt8(ascii: "\"") {
                    if i + 1 < n && bytes[i + 1] == UInt8(ascii: "\"") { field.append(b); i += 2; continue }
                    inQuotes = false
                } else {
                    if b == 10 || (b == 13 && !(i + 1 < n && bytes[i + 1] == 10)) { line += 1 }
                    field.append(b)
                }
                i += 1
                continue
            }
            if b == UInt8(ascii: "\"") && field.isEmpty && !quoted {
                quoted = true; inQuotes = true; i += 1
                quoteStart = i; quoteLine = line; fieldsBeforeQuote = fields.count
            } else if b == delimiter {
                fields.append(String(decoding: field, as: UTF8.self)); field.removeAll(keepingCapacity: true)
                quoted = false; i += 1
            } else if b == 10 || b == 13 {
                i += (b == 13 && i + 1 < n && bytes[i + 1] == 10) ? 2 : 1
                rowEndLine = line
                line += 1
                fields.append(String(decoding: field, as: UTF8.self))
                return (start, fields)
            } else {
                field.append(b); i += 1
            }
        }
        if inQuotes { return cutAtUnclosedQuote(start: start, from: quoteStart, line: quoteLine, fields: fields, kept: fieldsBeforeQuote) }
        rowEndLine = line
        fields.append(String(decoding: field, as: UTF8.self))
        return (start, fields)
    }

    /// The row whose quote, opened at byte `from` on `line`, ran to the end of the file: its
    /// fields before the quote and the rest of that line as the last field; reading resumes
    /// on the next line.
    mutating func cutAtUnclosedQuote(start: Int, from: Int, line quoteLine: Int, fields: [String], kept: Int) -> (line: Int, fields: [String]) {
        unclosedQuote = UnclosedQuote(line: quoteLine, swallowedLines: line - quoteLine)
        rowEndLine = quoteLine
        var end = from
        while end < bytes.count && bytes[end] != 10 && bytes[end] != 13 { end += 1 }
        let row = Array(fields.prefix(kept)) + [String(decoding: bytes[from..<end], as: UTF8.self)]
        i = end < bytes.count && bytes[end] == 13 && end + 1 < bytes.count && bytes[end + 1] == 10 ? end + 2 : end + 1
        line = quoteLine + 1
        return (start, row)
    }

    /// `;` when the first line has more semicolons than commas outside quotes, else `,`.
    public static func guessDelimiter(_ text: String) -> Character {
        var commas = 0, semicolons = 0, inQuotes = false
        for b in text.utf8 {
            if b == UInt8(ascii: "\"") { inQuotes.toggle() }
            else if !inQuotes && (b == 10 || b == 13) { break }
            else if !inQuotes && b == UInt8(ascii: ",") { commas += 1 }
            else if !inQuotes && b == UInt8(ascii: ";") { semicolons += 1 }
        }
        return semicolons > commas ? ";" : ","
    }

    /// Every row of UTF-8 `bytes`, each as its fields (for tests and tools that read a whole file).
    public static func rows(_ bytes: some Collection<UInt8>, delimiter: Character? = ",") -> [[String]] {
        var cursor = ImportCSVCursor(Array(bytes), delimiter: delimiter)
        var rows: [[String]] = []
        while let row = cursor.next() { rows.append(row.fields) }
        return rows
    }

    /// Every row of `text`, each as its fields.
    public static func rows(_ text: String, delimiter: Character? = ",") -> [[String]] {
        rows(Array(text.utf8), delimiter: delimiter)
    }
}
