import Testing
import GymLogCore

/// When a sync may start by itself, and how long a failed one waits.
@Suite struct AutoSyncPolicyTests {
    @Test func failedCyclesWaitLongerEachTimeUpToTheInterval() {
        // Given the waits of six failures in a row with a 60 s interval
        var waits: [Int64] = []
        var previous: Int64 = 0
        for _ in 0..<6 {
            previous = AutoSync.backoff(after: previous, capMs: 60_000)
            waits.append(previous)
        }
        // Then they double from 5 s and stop at the interval
        #expect(waits == [5_000, 10_000, 20_000, 40_000, 60_000, 60_000])
    }

    @Test func whatHoldsACycleBack() {
        let now: Int64 = 1_000_000_000
        func hold(enabled: Bool = true, loggedIn: Bool = true, stopped: Bool = false, nextTryAt: Int64? = nil,
                  pending: Bool = true, lastSyncAt: Int64? = nil) -> AutoSync.Hold? {
            AutoSync.hold(enabled: enabled, loggedIn: loggedIn, stopped: stopped, nextTryAt: nextTryAt, pending: pending,
                          lastSyncAt: lastSyncAt, now: now, intervalMs: 300_000)
        }
        // Pending changes of a logged-in device go
        #expect(hold() == nil)
        // Not when logged out, turned off, stopped by a refused token, or before the next try
        #expect(hold(loggedIn: false) == .loggedOut)
        #expect(hold(enabled: false) == .off)
        #expect(hold(stopped: true) == .stopped)
        #expect(hold(nextTryAt: now + 1) == .backingOff(until: now + 1))
        #expect(hold(nextTryAt: now) == nil)
        // Nothing pending: only a pull older than the interval is due
        #expect(hold(pending: false, lastSyncAt: now - 299_999) == .upToDate)
        #expect(hold(pending: false, lastSyncAt: now - 300_000) == nil)
        #expect(hold(pending: false, lastSyncAt: nil) == nil)
    }
}
