import Foundation

/// A workout as a user names it on a command line (`--workout 2026-11-20`, `2026-11-20#2`,
/// `yesterday`, `-2`): the pure reading of the text. The store looks the workout up.
///
/// The short reference `history` and `show` print is a workout's local day, with `#N` (its
/// place among that day's live workouts, in the order they started) when the day has more
/// than one: easy to type, and the same on every device that has the same workouts.
public enum WorkoutReference: Equatable, Sendable {
    /// The workout of a local day (days since 1970-01-01); with `index`, the index-th of that day.
    case day(Int64, index: Int?)
    /// The N-th most recent workout: 1 is the latest.
    case recent(Int)

    /// How a workout reference may be written, for help and messages.
    public static let forms = "YYYY-MM-DD (that day's workout; today and yesterday work too), YYYY-MM-DD#2 (the day's second), "
        + "or -N (the N-th most recent: -1 is the latest)"

    /// Reads `2026-11-20`, `2026-11-20#2`, any day phrase (`today`, `yesterday#2`, `3d`), or `-N`;
    /// nil when the text is none of these. `today` is the local day number of now.
    public static func parse(_ text: String, today: Int64) -> WorkoutReference? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("-") {
            let digits = t.dropFirst()
            guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits), n >= 1 else { return nil }
            return .recent(n)
        }
        let parts = t.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        var index: Int?
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits), n >= 1 else { return nil }
            index = n
        }
        guard let day = parseDayPhrase(String(parts[0]), today: today) else { return nil }
        return .day(day, index: index)
    }

    /// The local day (days since 1970-01-01) a workout started on, in the offset it was logged at.
    public static func day(startedAt: Int64, utcOffsetSeconds: Int) -> Int64 {
        let seconds = startedAt.dividedRoundingDown(by: 1000) + Int64(utcOffsetSeconds)
        return seconds.dividedRoundingDown(by: 86_400)
    }

    /// The short reference of the `index`-th (1-based) of `count` live workouts of a day:
    /// `2026-11-20`, or `2026-11-20#2` when the day has more than one.
    public static func label(day: Int64, index: Int, of count: Int) -> String {
        dayText(day) + (count > 1 ? "#\(index)" : "")
    }

    /// `2026-11-20`.
    public static func dayText(_ day: Int64) -> String {
        let d = civilFromDays(day)
        return String(format: "%04d-%02d-%02d", d.year, d.month, d.day)
    }

    /// The text a user types for this reference (`2026-11-20#2`, `-3`), for messages.
    public var text: String {
        switch self {
        case .day(let day, let index): Self.dayText(day) + (index.map { "#\($0)" } ?? "")
        case .recent(let n): "-\(n)"
        }
    }
}

extension Int64 {
    /// Division rounding toward minus infinity, so times before 1970 fall on the right day.
    func dividedRoundingDown(by d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
