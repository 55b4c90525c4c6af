import Foundation

// The exports' own spellings of a field (Hevy's times, Strong's durations, optional text),
// written straight into the CSV buffer.

extension CSVWriter {
    /// Writes typed text (`textField`), or an empty field for none.
    @inlinable
    mutating func optionalTextField(_ value: String?) {
        if let value { textField(value) } else { emptyField() }
    }

    @inlinable
    mutating func optionalInt(_ value: Int?) {
        if let value { fieldInt(value) } else { emptyField() }
    }

    @inlinable
    mutating func optionalFixed(_ value: Fixed?) {
        if let value { fieldFixed(value) } else { emptyField() }
    }

    /// Strong's duration spelling, cut down to what it shows: `45m`, `1h`, `1h 5m`; under a
    /// minute `55s`; `0s` for no time at all, and for a workout with no end (`end` nil).
    mutating func fieldStrongDuration(from start: Int64, to end: Int64?) {
        beginField(empty: false)
        let seconds = max(0, ((end ?? start) - start) / 1000)
        guard seconds >= 60 else {
            appendDecimal(seconds, to: &buffer)
            buffer.append(UInt8(ascii: "s"))
            return
        }
        let hours = seconds / 3600, minutes = seconds / 60 % 60
        if hours > 0 {
            appendDecimal(hours, to: &buffer)
            buffer.append(UInt8(ascii: "h"))
            if minutes > 0 { buffer.append(UInt8(ascii: " ")) }
        }
        if minutes > 0 || hours == 0 {
            appendDecimal(minutes, to: &buffer)
            buffer.append(UInt8(ascii: "m"))
        }
    }

    /// Writes a text field always quoted, inner quotes doubled, as Strong writes its text
    /// fields (`""` when empty); typed text, so guarded as `textField` guards it.
    mutating func quotedField(_ text: String) {
        beginField(empty: false)
        buffer.append(UInt8(ascii: "\""))
        if FormulaGuard.needsGuard(text.utf8) { buffer.append(UInt8(ascii: "'")) }
        for b in text.utf8 {
            if b == UInt8(ascii: "\"") { buffer.append(b) }
            buffer.append(b)
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Ends the row with a bare LF, as Strong's exports do (`endRow` writes RFC 4180's CRLF).
    mutating func endLine() {
        buffer.append(10)
        fieldsInRow = 0
        lastFieldEmpty = false
    }
}

extension CSVWriter {
    /// Hevy's time spelling, local and to the minute: `21 Nov 2026, 10:15`, `5 Sep 2025, 07:05`.
    /// `"15 Sep 2025, 07:48"`; with `seconds`, `"15 Sep 2025, 07:48:34"` (which the Hevy
    /// reader takes too).
    mutating func fieldHevyTime(millis: Int64, utcOffsetSeconds: Int, seconds: Bool = false) {
        beginField(empty: false)
        let t = CivilDateTime(millis: millis, utcOffsetSeconds: utcOffsetSeconds)
        // Quoted, as Hevy writes it: the comma is part of the value.
        buffer.append(UInt8(ascii: "\""))
        appendDecimal(Int64(t.day), to: &buffer)
        buffer.append(UInt8(ascii: " "))
        buffer.append(contentsOf: Self.monthAbbreviations[t.month - 1].utf8)
        buffer.append(UInt8(ascii: " "))
        appendYear(t.year, to: &buffer)
        buffer.append(UInt8(ascii: ","))
        buffer.append(UInt8(ascii: " "))
        appendTwoDigits(t.hour, to: &buffer)
        appendTwoDigits(t.minute, after: ":", to: &buffer)
        if seconds { appendTwoDigits(t.second, after: ":", to: &buffer) }
        buffer.append(UInt8(ascii: "\""))
    }

    static let monthAbbreviations = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}

/// Strong's duration spelling for a workout: `1h 5m`, `1h`, `45m`, `55s`, `0s`.
public func strongDuration(from start: Int64, to end: Int64?) -> String {
    var w = CSVWriter(reservingCapacity: 16)
    w.fieldStrongDuration(from: start, to: end)
    return String(decoding: w.buffer, as: UTF8.self)
}
