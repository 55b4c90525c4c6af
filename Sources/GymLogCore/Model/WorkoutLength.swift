import Foundation

/// How long a workout lasted, as far as its times tell: the one rule `history`, `show` and
/// `finish` print.
///
/// A workout lasts from its start to its end, and at least as long as its sets' own times (a
/// 47:43 run logged as one line lasted 47:43, whenever the line was typed). Under a minute is
/// no length anyone trained: it is what a workout whose end nobody recorded looks like (an
/// import without end times, a past session typed in with `start --at`, a single set), so it
/// is unknown rather than `0 min`.
public enum WorkoutLength {
    /// The length in milliseconds, nil when unknown. `end` is the workout's end as
    /// `WorkoutStatus` gives it; `setSeconds` the sets' own durations.
    public static func millis(start: Int64, end: Int64, setSeconds: some Sequence<Int?>) -> Int64? {
        let own = setSeconds.reduce(Int64(0)) { $0 + Int64(max(0, $1 ?? 0)) * 1000 }
        let length = max(end - start, own)
        return length < 60_000 ? nil : length
    }

    /// `52 min`, `1 h 05 min`, or `length unknown`.
    public static func text(_ millis: Int64?) -> String {
        guard let millis else { return "length unknown" }
        let minutes = millis / 60_000
        return minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(String(format: "%02d", minutes % 60)) min"
    }
}
