/// The rest between sets as the REPL prompt shows it: time since the last set of the open
/// workout, against a target when there is one (`rest 1:32/3:00`, then `rest 3:04 ✓`).
public struct RestTimer: Equatable, Sendable {
    /// Seconds since the last set.
    public var elapsed: Int
    /// The target rest in seconds, if any.
    public var target: Int?

    /// Past this, the gap is no longer a rest between sets, and the prompt stops counting.
    public static let longestShown = 60 * 60

    /// The rest at `now` after a set at `lastSetAt` (both ms); nil with no set yet, a set
    /// more than a minute in the future (another device's clock), or a gap past
    /// `longestShown`. Sets logged within one millisecond get times a millisecond apart, so
    /// the last one may be just ahead of now: that is a rest of 0.
    public init?(lastSetAt: Int64?, now: Int64, target: Int?) {
        guard let lastSetAt, lastSetAt - now <= 60_000 else { return nil }
        let seconds = max(0, now - lastSetAt) / 1000
        guard seconds <= Int64(Self.longestShown) else { return nil }
        elapsed = Int(seconds)
        self.target = target
    }

    /// Whether the target has been reached (never, without one).
    public var reached: Bool { target.map { elapsed >= $0 } ?? false }

    /// `rest 1:32`, `rest 1:32/3:00`, `rest 3:04 ✓`.
    public var text: String {
        let now = "rest " + Self.clock(elapsed)
        guard let target else { return now }
        return reached ? now + " ✓" : now + "/" + Self.clock(target)
    }

    /// `0:07`, `1:32`, `60:00`: always minutes and seconds, as `rest` is typed and shown
    /// (routine lines, the prompt, `rest_seconds`).
    public static func clock(_ seconds: Int) -> String {
        let s = seconds % 60
        return "\(seconds / 60):" + (s < 10 ? "0\(s)" : "\(s)")
    }
}
