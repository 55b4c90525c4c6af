import Foundation

// MARK: - Fields

extension Array where Element == String {
    /// The trimmed field at `index`, "" when the column is absent.
    func field(_ index: Int?) -> String {
        guard let index, index < count else { return "" }
        return self[index].trimmingCharacters(in: .whitespaces)
    }

    /// The field exactly as written, spaces kept: for notes, which a gymlog export quotes when
    /// they start or end with a space.
    func untrimmedField(_ index: Int?) -> String {
        guard let index, index < count else { return "" }
        return self[index]
    }
}

// MARK: - Values

/// Readers of the numbers, units and times found in exports.
enum ImportValue {
    /// A decimal as exported: `100`, `102.5`, `8.0`, float noise like `149.99999999999997`
    /// rounded to the nearest thousandth (what a person typed), a decimal comma when the file
    /// is semicolon-separated. Nil for anything else.
    static func number(_ text: String, decimalComma: Bool = false, signed: Bool = false) -> Fixed? {
        var bytes = Array(text.utf8)
        var negative = false
        if signed, bytes.first == UInt8(ascii: "-") { negative = true; bytes.removeFirst() }
        guard !bytes.isEmpty, bytes.count <= 40 else { return nil }
        var whole: Int64 = 0, fraction: Int64 = 0, fractionDigits = 0, digits = 0
        var seenPoint = false, roundUp = false
        for b in bytes {
            if b == UInt8(ascii: ".") || (decimalComma && b == UInt8(ascii: ",")) {
                if seenPoint { return nil }
                seenPoint = true
            } else if b >= 48 && b <= 57 {
                digits += 1
                if seenPoint {
                    fractionDigits += 1
                    if fractionDigits <= 3 {
                        fraction = fraction * 10 + Int64(b - 48)
                    } else if fractionDigits == 4 {
                        roundUp = b >= 53
                    }
                } else {
                    guard whole < 1_000_000_000 else { return nil }
                    whole = whole * 10 + Int64(b - 48)
                }
            } else {
                return nil
            }
        }
        guard digits > 0 else { return nil }
        for _ in min(fractionDigits, 3)..<3 { fraction *= 10 }
        var thousandths = whole * 1000 + fraction
        if roundUp { thousandths += 1 }
        return Fixed(thousandths: negative ? -thousandths : thousandths)
    }

    /// A count written as `8` or `8.0`; nil for fractions, signs or text. Large counts read
    /// (a workout timer left running writes over a million seconds): limits are checked later,
    /// where the value is named.
    static func count(_ text: String) -> Int? {
        guard let f = number(text), f.thousandths % 1000 == 0 else { return nil }
        return Int(f.thousandths / 1000)
    }

    /// A duration: plain seconds (`95`, `95.0`), `55s`, `38min`, `1h 18m`, `1h 5m 3s`,
    /// `7:41` (M:SS) or `1:02:03` (H:MM:SS).
    static func duration(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !t.isEmpty else { return nil }
        if let n = count(t) { return n }
        if t.contains(":") {
            let parts = t.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 || parts.count == 3 else { return nil }
            var total = 0
            for (i, p) in parts.enumerated() {
                guard let n = Int(p), n >= 0, i == 0 || (p.count == 2 && n < 60) else { return nil }
                total = total * 60 + n
            }
            return total
        }
        var total = 0, number: Int?, sawUnit = false
        var i = t.startIndex
        while i < t.endIndex {
            let c = t[i]
            if c == " " { i = t.index(after: i); continue }
            if let d = c.wholeNumberValue, c.isASCII {
                guard number ?? 0 < 100_000_000 else { return nil }
                number = (number ?? 0) * 10 + d
                i = t.index(after: i)
                continue
            }
            guard let n = number else { return nil }
            var unit = ""
            while i < t.endIndex, t[i].isLetter { unit.append(t[i]); i = t.index(after: i) }
            switch unit {
            case "h", "hr", "hrs", "hour", "hours": total += n * 3600
            case "m", "min", "mins", "minute", "minutes": total += n * 60
            case "s", "sec", "secs", "second", "seconds": total += n
            default: return nil
            }
            number = nil
            sawUnit = true
        }
        guard sawUnit, number == nil else { return nil }
        return total
    }

    /// `2024-01-31 10:15:00`, `2024-01-31 10:15`, `2024-01-31T10:15:00` or `2024-01-31`
    /// as wall-clock milliseconds (as if UTC).
    static func localDateTime(_ text: String) -> Int64? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.utf8.count >= 10, let day = parseDay(String(t.prefix(10))) else { return nil }
        let base = epochMillis(year: day.year, month: day.month, day: day.day, utcOffsetSeconds: 0)
        let rest = t.dropFirst(10)
        if rest.isEmpty { return base }
        guard rest.first == " " || rest.first == "T", let clock = timeOfDay(String(rest.dropFirst())) else { return nil }
        return base + Int64(clock) * 1000
    }

    /// Where a workout written with a day and no time starts: 12:00 local time, so that no
    /// time zone moves it to another day (FitNotes, StrongLifts, a JEFIT log of no session).
    static let dayOnlyStart: Int64 = 12 * 3_600_000

    /// A date and time as `localDateTime(_:)` reads it, a date alone at `dayOnlyStart`.
    static func localDateTimeOrNoon(_ text: String) -> Int64? {
        guard let local = localDateTime(text) else { return nil }
        return text.trimmingCharacters(in: .whitespaces).utf8.count == 10 ? local + dayOnlyStart : local
    }

    /// A local date and time as `localDateTime(_:)` reads it, or in any locale's way
    /// (`WrittenDate`): `31/01/2024 10:15` (a spreadsheet's re-save) in `order`, `29.04.2025`,
    /// `15 sept. 2025, 19:48`, `Sep 15, 2025, 7:48 PM`. Two numbers before the year that `order`
    /// does not settle and neither of which is above 12 are no date.
    static func localDateTime(_ text: String, order: DateOrder?) -> Int64? {
        localDateTime(text) ?? WrittenDate.read(text)?.local(order: order)
    }

    /// A date and time as `localDateTime(_:order:)` reads it, a date alone at `dayOnlyStart`.
    static func localDateTimeOrNoon(_ text: String, order: DateOrder?) -> Int64? {
        if let local = localDateTimeOrNoon(text) { return local }
        guard let date = WrittenDate.read(text), let local = date.local(order: order) else { return nil }
        return date.clock == nil ? local + dayOnlyStart : local
    }

    /// `07:48`, `7:48` or `07:48:05` as seconds after midnight.
    static func timeOfDay(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var values: [Int] = []
        for (i, p) in parts.enumerated() {
            guard !p.isEmpty, p.count <= 2, p.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(p),
                  i == 0 || p.count == 2 else { return nil }
            values.append(n)
        }
        guard values[0] < 24, values[1] < 60, values.count == 2 || values[2] < 60 else { return nil }
        return values[0] * 3600 + values[1] * 60 + (values.count == 3 ? values[2] : 0)
    }

    /// A time of day as apps write it (`18:59`, `18:59:05`, `6:59 pm`, `6:59pm`, `6:59 p.m.`,
    /// `4:54 h`) as seconds after midnight; nil for anything else.
    static func clock(_ text: String) -> Int? {
        var t = plain(text).replacingOccurrences(of: ".", with: "")
        var half: String?
        for suffix in ["am", "pm"] where t.hasSuffix(suffix) { half = suffix; t.removeLast(2) }
        for suffix in [" h", " uhr"] where half == nil && t.hasSuffix(suffix) { t.removeLast(suffix.count) }
        guard let seconds = timeOfDay(t.trimmingCharacters(in: .whitespaces)) else { return nil }
        guard let half else { return seconds }
        let hour = seconds / 3600
        guard (1...12).contains(hour) else { return nil }
        return seconds % 3600 + (hour % 12 + (half == "pm" ? 12 : 0)) * 3600
    }

    /// Text with no-break and thin spaces (which apps put before `pm` and units) as plain ones,
    /// runs of spaces collapsed, lower case.
    static func plain(_ text: String) -> String {
        let spaced = text.map { "\u{00A0}\u{202F}\u{2009}\u{2007}\t".contains($0) ? " " : $0 }
        return String(spaced).split(separator: " ").joined(separator: " ").lowercased()
    }

    /// An RPE between 1 and 10 (0 or empty means none).
    static func rpe(_ text: String, decimalComma: Bool = false) -> Result<Fixed?, ImportRowError> {
        guard !text.isEmpty else { return .success(nil) }
        guard let f = number(text, decimalComma: decimalComma) else { return .failure(.init("RPE '\(text)' is not a number")) }
        if f.isZero { return .success(nil) }
        guard f >= Fixed(1), f <= Fixed(10) else { return .failure(.init("RPE '\(text)' is not between 1 and 10")) }
        return .success(f)
    }

    /// Reps in reserve as written, 0 (a set taken to the last rep) to 10; empty means none.
    static func rir(_ text: String, decimalComma: Bool = false) -> Result<Fixed?, ImportRowError> {
        guard !text.isEmpty else { return .success(nil) }
        guard let f = number(text, decimalComma: decimalComma) else { return .failure(.init("RIR '\(text)' is not a number")) }
        guard SetLimits.rir.contains(f) else {
            return .failure(.init("RIR '\(text)' is not between \(SetLimits.rir.lowerBound) and \(SetLimits.rir.upperBound)"))
        }
        return .success(f)
    }
}

/// The day-month order of dates written with slashes, which a spreadsheet's re-save of an
/// export writes in its own locale: `03/04/2024` is 3 April (`dmy`) or 4 March (`mdy`).
public enum DateOrder: String, CaseIterable, Sendable {
    case dmy, mdy

    /// How a date is written in this order, for messages.
    var example: String { self == .dmy ? "31/01/2024 10:15" : "01/31/2024 10:15" }

    /// How people say it.
    public var described: String { self == .dmy ? "day/month/year" : "month/day/year" }
}

/// Why one row could not be read.
struct ImportRowError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

extension ImportValue {
    /// A load: empty or 0 is none. Its unit is the column's (`Weight (kgs)`), else the row's
    /// `unitText`, else the assumed one. The row's unit is read only when there is a load: the
    /// unit of a missing value does not matter, so a blank or zero load beside any unit is none.
    static func weight(_ text: String, unit: WeightUnit?, unitText: String = "", decimalComma: Bool = false,
                       assumed: inout WeightUnit?, fallback: WeightUnit, column: String = "Weight") throws -> Weight? {
        guard !text.isEmpty else { return nil }
        guard let value = number(text, decimalComma: decimalComma, signed: true) else {
            throw ImportRowError("\(column) '\(text)' is not a number")
        }
        if value.isZero { return nil }
        if let unit = try unit ?? weightUnit(unitText) { return Weight(value, unit) }
        assumed = fallback
        return Weight(value, fallback)
    }

    /// The load a lifter typed in `unit`, read back from `value` (the load converted from
    /// another unit by the app): a whole 0.05 `unit` when `value` is within `tolerance` of one,
    /// the conversion's dust or the rounding of the written value; nil otherwise.
    static func typedLoad(_ value: Double, in unit: WeightUnit, within tolerance: Double) -> Weight? {
        let typed = (value * 20).rounded() / 20
        guard abs(value - typed) < tolerance else { return nil }
        return Weight(Fixed(thousandths: Int64((typed * 1000).rounded())), unit)
    }

    /// A row's weight unit as exports write it (`kgs`, `Lbs`, `lbs.`); nil when empty.
    static func weightUnit(_ text: String) throws -> WeightUnit? {
        guard !text.isEmpty else { return nil }
        guard let unit = WeightUnit(importSpelling: Substring(text)) else {
            throw ImportRowError("weight unit '\(text)' is not kg or lbs")
        }
        return unit
    }

    /// A row's distance unit as exports write it (`km.`, `miles`, `meters`); nil when empty.
    static func distanceUnit(_ text: String) throws -> DistanceUnit? {
        guard !text.isEmpty else { return nil }
        guard let unit = DistanceUnit(importSpelling: Substring(text)) else {
            throw ImportRowError("distance unit '\(text)' is not m, km, mi or yd")
        }
        return unit
    }

    /// A distance: empty or 0 is none. Its unit is the column's, else the row's `unitText`
    /// (read only when there is a distance: FitNotes writes `0.0,kg` in its distance columns),
    /// else the assumed one.
    static func distance(_ text: String, unit: DistanceUnit?, unitText: String = "", decimalComma: Bool = false,
                         assumed: inout DistanceUnit?, fallback: DistanceUnit) throws -> Distance? {
        guard !text.isEmpty else { return nil }
        guard let value = number(text, decimalComma: decimalComma) else { throw ImportRowError("Distance '\(text)' is not a number") }
        if value.isZero { return nil }
        if let unit = try unit ?? distanceUnit(unitText) { return Distance(value, unit) }
        assumed = fallback
        return Distance(value, fallback)
    }

    /// Reps as written, 0 included: beside a load 0 is a missed attempt, beside nothing or a
    /// time it is none (`WorkoutAssembler.values` decides).
    static func reps(_ text: String, column: String = "Reps") throws -> Int? {
        guard !text.isEmpty else { return nil }
        guard let n = count(text) else { throw ImportRowError("\(column) '\(text)' is not a whole number") }
        return n
    }

    /// A time column that may be blank (an end time): nil when blank, else read by `read`; a
    /// row error naming the column and an `example` when it is not a time.
    static func optionalTime(_ text: String, column: String, like example: String, _ read: (String) -> Int64?) throws -> Int64? {
        guard !text.isEmpty else { return nil }
        guard let time = read(text) else { throw ImportRowError("\(column) '\(text)' is not a time like \(example)") }
        return time
    }

    /// A yes-or-no column (`true`, `TRUE` after a spreadsheet's re-save, `1`); blank is no.
    static func flag(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "1", "yes": true
        case "false", "0", "no", "": false
        default: nil
        }
    }

    /// Seconds written as a decimal (`60.0`, `45.5`), to the nearest second; blank or 0 is none.
    static func wholeSeconds(_ text: String, column: String) throws -> Int? {
        guard !text.isEmpty else { return nil }
        guard let n = number(text) else { throw ImportRowError("\(column) '\(text)' is not a number of seconds") }
        let seconds = Int((n.thousandths + 500) / 1000)
        return seconds == 0 ? nil : seconds
    }

    static func seconds(_ text: String, column: String) throws -> Int? {
        guard !text.isEmpty else { return nil }
        guard let n = duration(text) else { throw ImportRowError("\(column) '\(text)' is not a duration like 95, 55s, 38min or 1h 18m") }
        return n == 0 ? nil : n
    }
}

/// The name as written, with runs of spaces collapsed (newlines in a name become spaces).
func cleanName(_ text: String) -> String {
    text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
}

/// Text that is nil when empty.
/// A note exactly as written (spaces around it kept, as a gymlog export quotes them), nil when blank.
func noteAsWritten(_ text: String) -> String? {
    nonEmpty(text) == nil ? nil : text
}

func nonEmpty(_ text: String) -> String? {
    let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return t.isEmpty ? nil : t
}
