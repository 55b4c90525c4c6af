import Foundation

// MARK: - CSV rows with line numbers

/// Where `ImportCSVCursor` reads its bytes from: a file read in chunks (the CLI's), or bytes
/// held in memory (`MemoryBytes`).
public protocol ImportByteSource {
    /// Appends up to `count` bytes to `buffer` and returns how many; 0 at the end.
    mutating func read(into buffer: inout [UInt8], count: Int) throws -> Int
    /// Moves back (or on) to byte `offset` from the start, so a line can be read again.
    mutating func seek(to offset: Int) throws
}

/// Bytes held in memory, read as a source.
public struct MemoryBytes: ImportByteSource {
    let bytes: [UInt8]
    var position = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public mutating func read(into buffer: inout [UInt8], count: Int) -> Int {
        let n = min(count, bytes.count - position)
        buffer.append(contentsOf: bytes[position..<(position + n)])
        position += n
        return n
    }

    public mutating func seek(to offset: Int) { position = min(max(0, offset), bytes.count) }
}

/// Reads CSV one row at a time with the line it starts on, for error messages that point
/// into the file. This is gymlog's one CSV reader: RFC 4180 (quoted fields may hold the
/// delimiter, doubled quotes and line breaks; rows end in CRLF, LF or CR; the last row needs
/// no line break), lenient where files in the wild are sloppy (a UTF-8 byte-order mark is
/// dropped, blank lines are skipped, a stray quote inside an unquoted field is text). A quoted
/// field that is never closed would swallow every line after it: the row is cut at the end
/// of the line where the quote opens, flagged in `unclosedQuote`, and reading goes on with
/// the next line, so the lines after it are read as rows of their own. The delimiter is
/// guessed from the header line when not given.
///
/// It streams: bytes come from an `ImportByteSource` into a buffer of `chunkSize` bytes,
/// refilled as rows are read, so memory holds one chunk and one row whatever the file's size.
/// A row, a quoted field or a CRLF may span two chunks. Only a quote that is never closed
/// goes back (`seek`) to re-read the line it opened on.
public struct ImportCSVCursor {
    var source: any ImportByteSource
    let chunkSize: Int
    var buffer: [UInt8] = []
    /// The next byte to read, in `buffer`.
    var i = 0
    /// The file offset of `buffer[0]`.
    var base = 0
    var line = 1
    /// The field separator in use.
    public private(set) var delimiter: UInt8 = UInt8(ascii: ",")
    /// Set when the row `next()` returned opens a quote it never closes; nil otherwise.
    public private(set) var unclosedQuote: UnclosedQuote?
    /// The line the row `next()` returned ends on (later than its first line when a quoted
    /// field holds line breaks).
    public private(set) var rowEndLine = 1
    /// The bytes of the file the row `next()` returned was read from, its line break included:
    /// a rejected row is copied from them as written (`ImportRejects`).
    public private(set) var rowBytes: Range<Int> = 0..<0
    /// What had to be mended in the row `next()` returned (bytes that are not UTF-8, NULs);
    /// empty when it was read as written.
    public private(set) var rowMends: Set<TextMend> = []
    /// The longest field read; a longer one ends the read (`fieldTooLong`) before it is held.
    let maxFieldBytes: Int

    /// The default longest field: no note or name a person typed comes near a mebibyte, and a
    /// field of a gibibyte (a hostile or broken file) is refused at the limit, at flat memory.
    public static let defaultMaxFieldBytes = 1 << 20

    /// What reading a row's text mended, said in the import's summary.
    public enum TextMend: String, Sendable, Comparable {
        /// Bytes that are not UTF-8, read as Windows-1252 (what a spreadsheet on Windows saves).
        case notUTF8
        /// NUL bytes, which no typed text holds: dropped.
        case nul

        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    /// A quote opened on `line` and never closed before the end of the file.
    public struct UnclosedQuote: Equatable, Sendable {
        /// The line the quote opens on.
        public var line: Int
        /// How many lines after it the quote would have taken in (they are read on their own).
        public var swallowedLines: Int
    }

    /// The default chunk: large enough that reads are few, small enough not to matter.
    public static let defaultChunkSize = 1 << 16

    /// A cursor over `source`; `chunkSize` bytes are read at a time (tests use tiny ones).
    public init(_ source: any ImportByteSource, delimiter: Character?, chunkSize: Int = defaultChunkSize,
                maxFieldBytes: Int = defaultMaxFieldBytes) throws {
        self.source = source
        self.chunkSize = max(1, chunkSize)
        self.maxFieldBytes = maxFieldBytes
        // The byte-order mark and the header's separator are judged from the file's start.
        while buffer.count < 4096, try fill(), !buffer.contains(10), !buffer.contains(13) {}
        if buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { i = 3 }
        if let delimiter {
            self.delimiter = delimiter.asciiValue ?? UInt8(ascii: ",")
        } else {
            let guess = Self.guessDelimiter(String(decoding: buffer[i...].prefix(4096), as: UTF8.self))
            self.delimiter = guess.asciiValue ?? UInt8(ascii: ",")
        }
    }

    /// A cursor over bytes in memory.
    public init(_ bytes: [UInt8], delimiter: Character?, chunkSize: Int = defaultChunkSize, maxFieldBytes: Int = defaultMaxFieldBytes) {
        // Bytes in memory never fail to read.
        self = try! ImportCSVCursor(MemoryBytes(bytes), delimiter: delimiter, chunkSize: chunkSize, maxFieldBytes: maxFieldBytes)
    }

    public var delimiterCharacter: Character { Character(UnicodeScalar(delimiter)) }

    /// Reads the next chunk, first dropping the bytes already read; false at the end.
    mutating func fill() throws -> Bool {
        if i > 0 {
            buffer.removeSubrange(0..<i)
            base += i
            i = 0
        }
        return try source.read(into: &buffer, count: chunkSize) > 0
    }

    /// The byte `ahead` bytes after the next one, reading on when needed; nil past the end.
    @inline(__always)
    mutating func peek(_ ahead: Int = 0) throws -> UInt8? {
        while i + ahead >= buffer.count {
            guard try fill() else { return nil }
        }
        return buffer[i + ahead]
    }

    /// The next non-blank row and the line it starts on; nil at the end.
    public mutating func next() throws -> (line: Int, fields: [String])? {
        unclosedQuote = nil
        rowMends = []
        while let b = try peek() {
            // Blank lines are skipped.
            if b == 10 { line += 1; i += 1; continue }
            if b == 13 { line += 1; i += try peek(1) == 10 ? 2 : 1; continue }
            break
        }
        guard try peek() != nil else { return nil }
        let start = line
        let startOffset = base + i
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false, inQuotes = false
        var quoteStart = 0, quoteLine = 0, fieldsBeforeQuote = 0
        while let b = try peek() {
            if inQuotes {
                if b == UInt8(ascii: "\"") {
                    if try peek(1) == UInt8(ascii: "\"") { field.append(b); i += 2; continue }
                    inQuotes = false
                } else {
                    if try b == 10 || (b == 13 && peek(1) != 10) { line += 1 }
                    field.append(b)
                    if field.count > maxFieldBytes { throw fieldTooLong(start) }
                }
                i += 1
                continue
            }
            if b == UInt8(ascii: "\"") && field.isEmpty && !quoted {
                quoted = true; inQuotes = true; i += 1
                quoteStart = base + i; quoteLine = line; fieldsBeforeQuote = fields.count
            } else if b == delimiter {
                fields.append(text(field)); field.removeAll(keepingCapacity: true)
                quoted = false; i += 1
            } else if b == 10 || b == 13 {
                i += try (b == 13 && peek(1) == 10) ? 2 : 1
                rowEndLine = line
                line += 1
                fields.append(text(field))
                rowBytes = startOffset..<(base + i)
                return (start, fields)
            } else {
                field.append(b); i += 1
                if field.count > maxFieldBytes { throw fieldTooLong(start) }
            }
        }
        if inQuotes {
            return try cutAtUnclosedQuote(start: start, startOffset: startOffset, from: quoteStart, line: quoteLine, fields: fields,
                                          kept: fieldsBeforeQuote)
        }
        rowEndLine = line
        fields.append(text(field))
        rowBytes = startOffset..<(base + i)
        return (start, fields)
    }

    /// A field's bytes as text. Bytes that are not UTF-8 are read as Windows-1252 (the code
    /// page a spreadsheet on Windows saves in, where `é` is one byte) and NULs are dropped:
    /// both mends are noted in `rowMends`, for the summary to say, never made silently.
    mutating func text(_ bytes: [UInt8]) -> String {
        var ascii = true
        for b in bytes where b >= 0x80 || b == 0 { ascii = false; break }
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        var bytes = bytes
        if bytes.contains(0) {
            bytes.removeAll { $0 == 0 }
            rowMends.insert(.nul)
        }
        if let text = String(bytes: bytes, encoding: .utf8) { return text }
        rowMends.insert(.notUTF8)
        return String(bytes.map { Character(Self.windows1252(of: $0)) })
    }

    /// The character a Windows-1252 byte stands for (its five unassigned bytes as the C1
    /// control characters ISO 8859-1 has there, which gymlog then drops as control characters).
    static func windows1252(of byte: UInt8) -> Unicode.Scalar {
        let high: [UInt32] = [0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
                              0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                              0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178]
        let value = (0x80..<0xA0).contains(byte) ? high[Int(byte) - 0x80] : UInt32(byte)
        return Unicode.Scalar(value) ?? "?"
    }

    /// A field past `maxFieldBytes`: the file is refused where it is met, before more of it is held.
    func fieldTooLong(_ line: Int) -> UserError {
        let limit = maxFieldBytes >= 1 << 20 ? "\(maxFieldBytes >> 20) MiB" : "\(maxFieldBytes) bytes"
        return UserError("Line \(line) has a field longer than \(limit), which no export of a workout holds (a note is a few "
                         + "lines), so nothing was imported. Check that this is the file the app exported; a quote that is "
                         + "never closed makes the rest of a file one field.")
    }

    /// The row whose quote, opened at file offset `from` on `line`, ran to the end of the file:
    /// its fields before the quote and the rest of that line as the last field; reading
    /// resumes on the next line.
    mutating func cutAtUnclosedQuote(start: Int, startOffset: Int, from: Int, line quoteLine: Int, fields: [String],
                                     kept: Int) throws -> (line: Int, fields: [String]) {
        unclosedQuote = UnclosedQuote(line: quoteLine, swallowedLines: line - quoteLine)
        rowEndLine = quoteLine
        try source.seek(to: from)
        buffer.removeAll(keepingCapacity: true)
        base = from
        i = 0
        var rest: [UInt8] = []
        while let b = try peek(), b != 10, b != 13 { rest.append(b); i += 1 }
        if try peek() == 13 { i += 1 }
        if try peek() == 10 { i += 1 }
        line = quoteLine + 1
        rowBytes = startOffset..<(base + i)
        return (start, Array(fields.prefix(kept)) + [text(rest)])
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
        // Bytes in memory never fail to read.
        while let row = try? cursor.next() { rows.append(row.fields) }
        return rows
    }

    /// Every row of `text`, each as its fields.
    public static func rows(_ text: String, delimiter: Character? = ",") -> [[String]] {
        rows(Array(text.utf8), delimiter: delimiter)
    }
}
