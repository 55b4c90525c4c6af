// Civil (proleptic Gregorian) dates and times from epoch milliseconds and a fixed UTC offset.
//
// Export formats millions of timestamps, so this avoids DateFormatter and Calendar: the
// conversions are Howard Hinnant's `days_from_civil` / `civil_from_days`
// (https://howardhinnant.github.io/date_algorithms.html), exact for every Int64 day count
// we can meet, and the byte-appending variants allocate nothing.

/// Days since 1970-01-01 for a proleptic Gregorian date (month 1...12, day 1...31).
@inlinable
public func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400                                        // [0, 399]
    let m = Int64(month)
    let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1  // [0, 365]
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy                // [0, 146096]
    return era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
@inlinable
public func civilFromDays(_ days: Int64) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097                                      // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365 // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)                // [0, 365]
    let mp = (5 * doy + 2) / 153                                     // [0, 11]
    let d = doy - (153 * mp + 2) / 5 + 1                             // [1, 31]
    let m = mp < 10 ? mp + 3 : mp - 9                                // [1, 12]
    let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
    return (Int(y), Int(m), Int(d))
}

/// True for Gregorian leap years (every 4th, except centuries not divisible by 400).
@inlinable
public func isLeapYear(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// Number of days in a month of a year (month 1...12).
@inlinable
public func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
}

/// Local wall-clock fields of an instant.
@usableFromInline
struct CivilDateTime {
    @usableFromInline var year: Int
    @usableFromInline var month: Int
    @usableFromInline var day: Int
    @usableFromInline var hour: Int
    @usableFromInline var minute: Int
    @usableFromInline var second: Int

    /// Splits `millis` (UTC) shifted by `utcOffsetSeconds` into fields; milliseconds are
    /// truncated towards the past, so 10:15:00.999 is 10:15:00 even before 1970.
    @inlinable
    init(millis: Int64, utcOffsetSeconds: Int) {
        var seconds = millis / 1000
        if millis % 1000 < 0 { seconds -= 1 }
        seconds += Int64(utcOffsetSeconds)
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let date = civilFromDays(days)
        year = date.year; month = date.month; day = date.day
        let sod = Int(secondOfDay)
        hour = sod / 3600; minute = (sod % 3600) / 60; second = sod % 60
    }
}

// MARK: - Byte appenders (the export hot path)

@inlinable
func appendTwoDigits(_ value: Int, to buffer: inout [UInt8]) {
    buffer.append(UInt8(truncatingIfNeeded: 48 + value / 10))
    buffer.append(UInt8(truncatingIfNeeded: 48 + value % 10))
}

/// `separator` then two digits: the `-MM`, `:SS` parts of dates, times and offsets.
@inlinable
func appendTwoDigits(_ value: Int, after separator: Unicode.Scalar, to buffer: inout [UInt8]) {
    buffer.append(UInt8(ascii: separator))
    appendTwoDigits(value, to: &buffer)
}

/// Four-digit years as ISO 8601 wants them; years outside 0...9999 get a sign or more digits.
@inlinable
func appendYear(_ year: Int, to buffer: inout [UInt8]) {
    if year >= 0 && year <= 9999 {
        appendTwoDigits(year / 100, to: &buffer)
        appendTwoDigits(year % 100, to: &buffer)
    } else {
        appendDecimal(Int64(year), to: &buffer)
    }
}

/// Appends the decimal digits of `value` (with `-` when negative) without allocating.
@inlinable
public func appendDecimal(_ value: Int64, to buffer: inout [UInt8]) {
    if value >= 0 && value < 10 {
        buffer.append(UInt8(truncatingIfNeeded: 48 + value))
        return
    }
    // Work on the negative magnitude so Int64.min needs no special case.
    var n = value < 0 ? value : -value
    if value < 0 { buffer.append(UInt8(ascii: "-")) }
    var width = 1
    var probe = n / 10
    while probe != 0 { width += 1; probe /= 10 }
    let start = buffer.count
    buffer.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width))
    var i = start + width - 1
    while n != 0 {
        let q = n / 10
        buffer[i] = UInt8(truncatingIfNeeded: 48 + (q * 10 - n))
        i -= 1
        n = q
    }
}

@inlinable
func appendDate(_ t: CivilDateTime, to buffer: inout [UInt8]) {
    appendYear(t.year, to: &buffer)
    appendTwoDigits(t.month, after: "-", to: &buffer)
    appendTwoDigits(t.day, after: "-", to: &buffer)
}

@inlinable
func appendTime(_ t: CivilDateTime, to buffer: inout [UInt8]) {
    appendTwoDigits(t.hour, to: &buffer)
    appendTwoDigits(t.minute, after: ":", to: &buffer)
    appendTwoDigits(t.second, after: ":", to: &buffer)
}

/// Appends `2026-11-21T10:15:00+01:00` (always a numeric offset) to `buffer`; with
/// `milliseconds`, `2026-11-21T10:15:00.250+01:00`.
///
/// ISO 8601 offsets have minute precision, so an offset with stray seconds (historic local
/// mean time) is truncated to whole minutes first; the local time shown then still names the
/// same instant as the offset printed beside it.
@inlinable
public func appendISO8601(millis: Int64, utcOffsetSeconds: Int, milliseconds: Bool = false, to buffer: inout [UInt8]) {
    let offset = utcOffsetSeconds / 60 * 60
    let t = CivilDateTime(millis: millis, utcOffsetSeconds: offset)
    appendDate(t, to: &buffer)
    buffer.append(UInt8(ascii: "T"))
    appendTime(t, to: &buffer)
    if milliseconds {
        let fraction = Int((millis % 1000 + 1000) % 1000)
        buffer.append(UInt8(ascii: "."))
        buffer.append(UInt8(truncatingIfNeeded: 48 + fraction / 100))
        appendTwoDigits(fraction % 100, to: &buffer)
    }
    let magnitude = abs(offset)
    buffer.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
    appendTwoDigits(magnitude / 3600, to: &buffer)
    appendTwoDigits((magnitude % 3600) / 60, after: ":", to: &buffer)
}

/// Appends the local `2026-11-21 10:15:00` (Strong's Date format, no offset) to `buffer`.
@inlinable
public func appendLocalDateTime(millis: Int64, utcOffsetSeconds: Int, to buffer: inout [UInt8]) {
    let t = CivilDateTime(millis: millis, utcOffsetSeconds: utcOffsetSeconds)
    appendDate(t, to: &buffer)
    buffer.append(UInt8(ascii: " "))
    appendTime(t, to: &buffer)
}

/// Appends the local date `2026-11-21` to `buffer`.
@inlinable
public func appendLocalDate(millis: Int64, utcOffsetSeconds: Int, to buffer: inout [UInt8]) {
    appendDate(CivilDateTime(millis: millis, utcOffsetSeconds: utcOffsetSeconds), to: &buffer)
}

// MARK: - String forms

/// `2026-11-21T10:15:00+01:00`; UTC is `+00:00`, never `Z`, so every value has one shape.
public func iso8601(millis: Int64, utcOffsetSeconds: Int) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(25)
    appendISO8601(millis: millis, utcOffsetSeconds: utcOffsetSeconds, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

/// The local calendar date of an instant: `2026-11-21`.
public func localDate(millis: Int64, utcOffsetSeconds: Int) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(10)
    appendLocalDate(millis: millis, utcOffsetSeconds: utcOffsetSeconds, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

/// The local date and time of an instant: `2026-11-21 10:15:00`.
public func localDateTime(millis: Int64, utcOffsetSeconds: Int) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(19)
    appendLocalDateTime(millis: millis, utcOffsetSeconds: utcOffsetSeconds, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

// MARK: - Parsing days

/// Reads exactly `YYYY-MM-DD` (year 0001...9999) naming a real calendar day, so
/// `2024-02-29` passes and `2023-02-29`, `2024-2-1` or `2024-01-01T00:00` do not.
public func parseDay(_ text: String) -> (year: Int, month: Int, day: Int)? {
    guard text.utf8.count == 10 else { return nil }
    let bytes = Array(text.utf8)
    guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
    func number(_ range: Range<Int>) -> Int? {
        var value = 0
        for i in range {
            let b = bytes[i]
            guard b >= 48 && b <= 57 else { return nil }
            value = value * 10 + Int(b - 48)
        }
        return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
          year >= 1, (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month)
    else { return nil }
    return (year, month, day)
}

/// Milliseconds since 1970 (UTC) at local midnight starting the given day, for a zone
/// whose offset at that moment is `utcOffsetSeconds`.
public func epochMillis(year: Int, month: Int, day: Int, utcOffsetSeconds: Int) -> Int64 {
    (daysFromCivil(year: year, month: month, day: day) * 86_400 - Int64(utcOffsetSeconds)) * 1000
}

// MARK: - Day phrases

/// How a day may be written wherever gymlog asks for one (`--since`, `--until`), for messages.
public let dayPhraseForms = "YYYY-MM-DD, today, yesterday, or an age like 30d, 12w, 6m or 1y"

/// A day as people say it on a command line, as a local day number (days since 1970-01-01):
/// `2026-01-31`, `today`, `yesterday`, or an age back from `today`: `30d`, `12w`, `6m`, `1y`,
/// also spelled out (`30 days`, `12 weeks ago`, `6mo`, `1yr`). Months and years step back by
/// the calendar, clamped to the month's last day (`1m` before 2026-03-31 is 2026-02-28).
/// Nil when the text is none of these or names a day before the year 1.
public func parseDayPhrase(_ text: String, today: Int64) -> Int64? {
    var t = Substring(text.lowercased()).drop { $0 == " " }
    while t.last == " " { t.removeLast() }
    if let d = parseDay(String(t)) { return daysFromCivil(year: d.year, month: d.month, day: d.day) }
    switch t {
    case "today": return today
    case "yesterday": return today - 1
    default: break
    }
    if t.hasSuffix(" ago") { t = t.dropLast(4); while t.last == " " { t.removeLast() } }
    let digits = t.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, digits.count <= 6, let n = Int64(digits) else { return nil }
    let unit = t.dropFirst(digits.count).drop { $0 == " " }
    let months: Int64
    switch unit {
    case "d", "day", "days": return validDay(today - n)
    case "w", "wk", "wks", "week", "weeks": return validDay(today - 7 * n)
    case "m", "mo", "mon", "month", "months": months = n
    case "y", "yr", "yrs", "year", "years": months = 12 * n
    default: return nil
    }
    let now = civilFromDays(today)
    let index = Int64(now.year) * 12 + Int64(now.month - 1) - months
    let year = Int(index >= 0 ? index / 12 : (index - 11) / 12), month = Int(index - Int64(year) * 12) + 1
    guard year >= 1 else { return nil }
    return daysFromCivil(year: year, month: month, day: min(now.day, daysInMonth(year: year, month: month)))
}

private func validDay(_ day: Int64) -> Int64? {
    day >= daysFromCivil(year: 1, month: 1, day: 1) ? day : nil
}

// MARK: - Time phrases

/// How a past moment may be written (`--at`), for messages.
public let timePhraseForms = "YYYY-MM-DD HH:MM, HH:MM (today) or yesterday HH:MM"

/// A local moment as people type it on a command line: `2026-11-20 18:00`, `18:00` (today),
/// `yesterday 18:00`, or any day phrase (`3d 07:30`) followed by the time; the day and the
/// minute of that day (local). Nil when the text is none of these.
public func parseTimePhrase(_ text: String, today: Int64) -> (day: Int64, minute: Int)? {
    let words = text.lowercased().split(separator: " ", omittingEmptySubsequences: true)
    guard let last = words.last, let minute = parseClock(String(last)) else { return nil }
    if words.count == 1 { return (today, minute) }
    guard let day = parseDayPhrase(words.dropLast().joined(separator: " "), today: today) else { return nil }
    return (day, minute)
}

/// `HH:MM` (or `H:MM`), 00:00 to 23:59, as minutes since midnight.
func parseClock(_ text: String) -> Int? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
          parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
          let h = Int(parts[0]), let m = Int(parts[1]), h < 24, m < 60 else { return nil }
    return h * 60 + m
}

/// The instant (Unix milliseconds) of a local day and minute in a zone whose offset at a
/// given instant is `utcOffset`; the offset is looked up at the moment itself, so a time on
/// the other side of a daylight-saving change gets that side's offset.
public func instant(day: Int64, minute: Int, utcOffset: (Int64) -> Int) -> Int64 {
    let local = (day * 86_400 + Int64(minute) * 60) * 1000
    let guess = local - Int64(utcOffset(local)) * 1000
    return local - Int64(utcOffset(guess)) * 1000
}

/// The Monday on or before a local day number (1970-01-01 was a Thursday).
public func mondayOf(_ day: Int64) -> Int64 {
    let shifted = day + 3
    let week = shifted >= 0 ? shifted / 7 : (shifted - 6) / 7
    return week * 7 - 3
}

/// The instant whose wall-clock time is `local` (milliseconds as if UTC) in a zone described
/// by `offsetAt` (UTC millis -> offset seconds), with that offset. A wall time skipped by a
/// daylight-saving jump lands one offset-step later; a repeated one takes the first.
public func utcInstant(local: Int64, offsetAt: (Int64) -> Int) -> (millis: Int64, offset: Int) {
    let first = offsetAt(local)
    let guess = local - Int64(first) * 1000
    let second = offsetAt(guess)
    if second == first { return (guess, first) }
    let retry = local - Int64(second) * 1000
    let third = offsetAt(retry)
    return third == second ? (retry, second) : (guess, first)
}
