import Foundation

/// Writes RFC 4180 CSV into a byte buffer that the caller flushes; does no I/O itself.
///
/// Fields are quoted only when they must be (delimiter, `"`, CR or LF inside) or when a
/// leading or trailing space or tab would otherwise be trimmed by spreadsheet importers.
/// Text a person typed goes through `textField`, which also keeps a spreadsheet from running
/// it as a formula (`FormulaGuard`).
/// Rows end in CRLF as RFC 4180 says. Numbers, ids and timestamps are written straight as
/// bytes, so a row costs no String allocations:
///
/// ```swift
/// var csv = CSVWriter()
/// csv.field("Bench Press"); csv.fieldInt(5); csv.endRow()
/// if csv.buffer.count > 1 << 16 { write(csv.buffer); csv.buffer.removeAll(keepingCapacity: true) }
/// ```
public struct CSVWriter: Sendable {
    /// Bytes written so far; the caller writes them out and empties it as it sees fit.
    public var buffer: [UInt8]
    /// The field separator, `,` by default (`;` for locales whose spreadsheets expect it).
    public let delimiter: UInt8
    @usableFromInline var fieldsInRow = 0
    @usableFromInline var lastFieldEmpty = false

    /// A writer using `delimiter` (an ASCII byte other than `"`, CR or LF).
    public init(delimiter: UInt8 = UInt8(ascii: ","), reservingCapacity capacity: Int = 1 << 16) {
        precondition(delimiter < 0x80 && delimiter != UInt8(ascii: "\"") && delimiter != 13 && delimiter != 10,
                     "CSV delimiter must be ASCII and not a quote or newline")
        self.delimiter = delimiter
        self.buffer = []
        buffer.reserveCapacity(capacity)
    }

    /// Starts a new field: a separator unless it is the first of the row.
    @inlinable
    mutating func beginField(empty: Bool) {
        if fieldsInRow > 0 { buffer.append(delimiter) }
        fieldsInRow += 1
        lastFieldEmpty = empty
    }

    /// Writes a text field, quoting it only if needed.
    @inlinable
    public mutating func field(_ s: String) {
        var s = s
        s.withUTF8 { appendField($0) }
    }

    /// Writes a text field, quoting it only if needed.
    @inlinable
    public mutating func field(_ s: Substring) {
        var s = s
        s.withUTF8 { appendField($0) }
    }

    /// Writes raw UTF-8 bytes as a text field, quoting them only if needed.
    @inlinable
    public mutating func field(_ bytes: some Collection<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ appendField($0) }) != nil { return }
        Array(bytes).withUnsafeBufferPointer { appendField($0) }
    }

    /// Writes text a person typed (a name, a note, aliases) as a field: as `field` does, and a
    /// value a spreadsheet would run as a formula gets a `'` in front (`FormulaGuard`). Numbers
    /// are never text cells: `fieldFixed(-10)` stays `-10`.
    @inlinable
    public mutating func textField(_ s: String) {
        var s = s
        s.withUTF8 { appendField($0, formulaGuard: true) }
    }

    /// Writes raw UTF-8 bytes as a typed text field (`textField`).
    @inlinable
    public mutating func textField(_ bytes: some Collection<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ appendField($0, formulaGuard: true) }) != nil { return }
        Array(bytes).withUnsafeBufferPointer { appendField($0, formulaGuard: true) }
    }

    /// Writes an empty field (nil values).
    @inlinable
    public mutating func emptyField() {
        beginField(empty: true)
    }

    /// Writes a field that never needs quoting (a number, an id, a time), its bytes appended
    /// by `write` straight into the buffer.
    @inlinable
    mutating func unquotedField(_ write: (inout [UInt8]) -> Void) {
        beginField(empty: false)
        write(&buffer)
    }

    /// Writes a decimal integer without allocating.
    @inlinable
    public mutating func fieldInt(_ value: some BinaryInteger) { unquotedField { appendDecimal(Int64(value), to: &$0) } }

    /// Writes `value` exactly as `Fixed.description` spells it (`102.5`, `0.125`, `-20`).
    @inlinable
    public mutating func fieldFixed(_ value: Fixed) { unquotedField { appendFixed(value, to: &$0) } }

    /// Writes an id in lowercase 8-4-4-4-12 hex form.
    @inlinable
    public mutating func fieldUUID(_ id: UUID) { unquotedField { appendUUID(id, to: &$0) } }

    /// Writes `2026-11-21T10:15:00+01:00`, or `2026-11-21T10:15:00.250+01:00` with `milliseconds`.
    @inlinable
    public mutating func fieldISO8601(millis: Int64, utcOffsetSeconds: Int, milliseconds: Bool = false) {
        unquotedField { appendISO8601(millis: millis, utcOffsetSeconds: utcOffsetSeconds, milliseconds: milliseconds, to: &$0) }
    }

    /// Writes the local `2026-11-21 10:15:00`.
    @inlinable
    public mutating func fieldLocalDateTime(millis: Int64, utcOffsetSeconds: Int) {
        unquotedField { appendLocalDateTime(millis: millis, utcOffsetSeconds: utcOffsetSeconds, to: &$0) }
    }

    /// Writes several text fields.
    public mutating func fields(_ values: [String]) {
        for value in values { field(value) }
    }

    /// Ends the row with CRLF.
    @inlinable
    public mutating func endRow() {
        // A row holding one empty field would otherwise be a blank line, which readers skip.
        if fieldsInRow == 1 && lastFieldEmpty {
            buffer.append(UInt8(ascii: "\""))
            buffer.append(UInt8(ascii: "\""))
        }
        buffer.append(13)
        buffer.append(10)
        fieldsInRow = 0
        lastFieldEmpty = false
    }

    /// Appends a field, quoted if needed; with `formulaGuard`, a `'` in front of a value a
    /// spreadsheet would run (`FormulaGuard`).
    @inlinable
    mutating func appendField(_ bytes: UnsafeBufferPointer<UInt8>, formulaGuard: Bool = false) {
        beginField(empty: bytes.isEmpty)
        let guarded = formulaGuard && FormulaGuard.needsGuard(bytes)
        guard needsQuoting(bytes, guarded: guarded) else {
            if guarded { buffer.append(UInt8(ascii: "'")) }
            buffer.append(contentsOf: bytes)
            return
        }
        buffer.append(UInt8(ascii: "\""))
        if guarded { buffer.append(UInt8(ascii: "'")) }
        for b in bytes {
            if b == UInt8(ascii: "\"") { buffer.append(b) }
            buffer.append(b)
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Whether a field must be quoted; a `guarded` one begins with the `'` written before it,
    /// so its own first byte is not at the start of the cell.
    @inlinable
    func needsQuoting(_ bytes: UnsafeBufferPointer<UInt8>, guarded: Bool = false) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return false }
        if (!guarded && (first == 32 || first == 9)) || last == 32 || last == 9 { return true }
        for b in bytes where b == delimiter || b == UInt8(ascii: "\"") || b == 13 || b == 10 {
            return true
        }
        return false
    }
}

/// Appends `value` spelled exactly like `Fixed.description`, without allocating.
@inlinable
public func appendFixed(_ value: Fixed, to buffer: inout [UInt8]) {
    let t = value.thousandths
    if t < 0 { buffer.append(UInt8(ascii: "-")) }
    // Magnitude as UInt64 so Int64.min cannot trap.
    let magnitude = t < 0 ? UInt64(bitPattern: 0 &- t) : UInt64(t)
    let whole = magnitude / 1000
    var fraction = Int(magnitude % 1000)
    appendDecimal(Int64(bitPattern: whole), to: &buffer)
    guard fraction != 0 else { return }
    buffer.append(UInt8(ascii: "."))
    var width = 3
    while fraction % 10 == 0 { fraction /= 10; width -= 1 }
    var divisor = width == 3 ? 100 : width == 2 ? 10 : 1
    while divisor > 0 {
        buffer.append(UInt8(truncatingIfNeeded: 48 + fraction / divisor % 10))
        divisor /= 10
    }
}

/// Appends `id` as lowercase `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, without allocating.
@inlinable
public func appendUUID(_ id: UUID, to buffer: inout [UInt8]) {
    withUnsafeBytes(of: id.uuid) { raw in
        for i in 0..<16 {
            if i == 4 || i == 6 || i == 8 || i == 10 { buffer.append(UInt8(ascii: "-")) }
            let b = raw[i]
            buffer.append(hexDigit(b >> 4))
            buffer.append(hexDigit(b & 0x0F))
        }
    }
}

@inlinable
func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? 48 + nibble : 87 + nibble  // 87 + 10 == "a"
}
