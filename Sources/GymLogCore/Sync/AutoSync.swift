/// How a sync cycle ended, as the sync state keeps it.
public enum SyncOutcome: Equatable, Sendable {
    /// Pulled and pushed. Events the server rejected (`rejected`) wait out a backoff of their own.
    case synced(rejected: Int)
    /// Failed in a way that may pass (offline, a server down or overloaded): tried again after
    /// a growing delay, at most `capMs`.
    case failed(String, capMs: Int64)
    /// Failed in a way no retry fixes (the token refused or withdrawn, the key refused): not
    /// tried by itself again until a login or a manual sync succeeds.
    case stopped(String)
}

/// The rules of the sync that runs by itself, apart from the processes and the network that
/// carry them out: when a cycle may start, and how long a failed one waits.
public enum AutoSync {
    /// The wait after the first failure; each further failure doubles it, up to the interval.
    public static let firstBackoffMs: Int64 = 5_000

    /// The wait before the next try after a failure that followed a wait of `previousMs` (0
    /// after a success): 5 s, 10 s, 20 s, ..., never more than `capMs`.
    public static func backoff(after previousMs: Int64, capMs: Int64) -> Int64 {
        min(previousMs <= 0 ? firstBackoffMs : previousMs * 2, max(capMs, firstBackoffMs))
    }

    /// Why no cycle starts by itself now.
    public enum Hold: Equatable, Sendable {
        /// `sync.auto = false`.
        case off
        /// No server and token: `gymlog login` first.
        case loggedOut
        /// The last error is one a retry cannot fix (`SyncOutcome.stopped`).
        case stopped
        /// The last cycle failed; the next try is at this time (Unix ms).
        case backingOff(until: Int64)
        /// Nothing waits to be sent and the last pull is fresher than the interval.
        case upToDate
    }

    /// What holds a cycle back now, or nil when one may start. `pending` is whether events
    /// wait to be pushed; without any, a cycle is still due to pull once the last one is
    /// older than `intervalMs`, or at once when `pulling` (a REPL opening, a login: another
    /// device may have logged since, and the lifter is about to read the history).
    public static func hold(enabled: Bool, loggedIn: Bool, stopped: Bool, nextTryAt: Int64?, pending: Bool,
                            lastSyncAt: Int64?, now: Int64, intervalMs: Int64, pulling: Bool = false) -> Hold? {
        guard loggedIn else { return .loggedOut }
        guard enabled else { return .off }
        if stopped { return .stopped }
        if let nextTryAt, nextTryAt > now { return .backingOff(until: nextTryAt) }
        if !pending, !pulling, let lastSyncAt, now - lastSyncAt < intervalMs { return .upToDate }
        return nil
    }
}

/// When an open REPL starts a background cycle. The sync state decides whether one is due
/// (`AutoSync.hold`: changes waiting, or the last pull older than the interval, and no
/// backoff or stop); this paces the starts: a few seconds of quiet after a write, so a run of
/// `+` lines makes one cycle, and at most one start per quiet period, so a cycle that ends with
/// work left (another process held the lock) is not restarted in a loop.
public struct SyncPacer: Sendable {
    /// The quiet after a write before its cycle starts, and the least time between two starts.
    public static let quietMs: Int64 = 3_000

    /// No cycle starts before this time (the quiet after the last write).
    public private(set) var notBefore: Int64?
    private var lastStartAt: Int64?

    public init() {}

    /// A line wrote something: its cycle starts after the quiet, or at once (`finish`, the
    /// end of a workout, which a lifter expects on the server before leaving the gym).
    public mutating func wrote(now: Int64, atOnce: Bool = false) {
        notBefore = atOnce ? now : now + Self.quietMs
        if atOnce { lastStartAt = nil }
    }

    /// Whether a cycle starts now, given whether one runs and what holds one back; when it
    /// does, the start is noted. Triggers that came while a cycle ran are this one call after it.
    public mutating func starts(now: Int64, running: Bool, hold: AutoSync.Hold?) -> Bool {
        guard !running, hold == nil else { return false }
        if let notBefore, now < notBefore { return false }
        if let lastStartAt, now - lastStartAt < Self.quietMs { return false }
        lastStartAt = now
        notBefore = nil
        return true
    }
}
