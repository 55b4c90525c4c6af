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
                  pending: Bool = true, lastSyncAt: Int64? = nil, pulling: Bool = false) -> AutoSync.Hold? {
            AutoSync.hold(enabled: enabled, loggedIn: loggedIn, stopped: stopped, nextTryAt: nextTryAt, pending: pending,
                          lastSyncAt: lastSyncAt, now: now, intervalMs: 300_000, pulling: pulling)
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
        // A pull asked for (a REPL opening, a login) goes however recent the last one, but
        // waits out a backoff and a stop like any cycle
        #expect(hold(pending: false, lastSyncAt: now - 1, pulling: true) == nil)
        #expect(hold(nextTryAt: now + 1, pending: false, pulling: true) == .backingOff(until: now + 1))
        #expect(hold(stopped: true, pending: false, pulling: true) == .stopped)
    }

    @Test func anOpenReplStartsOneCycleForARunOfWritesAfterAQuietAndAtOnceAtFinish() {
        var pacer = SyncPacer()
        func starts(now: Int64, running: Bool, hold: AutoSync.Hold?) -> Bool { pacer.starts(now: now, running: running, hold: hold) }
        let t: Int64 = 1_000_000_000
        // Opening: a due cycle starts at once; nothing else starts while it runs or right after it
        #expect(starts(now: t, running: false, hold: nil))
        #expect(!starts(now: t + 500, running: true, hold: nil))
        #expect(!starts(now: t + 1_000, running: false, hold: nil))
        // A run of writes a second apart: no cycle until the quiet after the last one
        for i in 0..<4 { pacer.wrote(now: t + 10_000 + Int64(i) * 1_000) }
        let lastWrite = t + 13_000
        #expect(!starts(now: lastWrite + SyncPacer.quietMs - 1, running: false, hold: nil))
        #expect(starts(now: lastWrite + SyncPacer.quietMs, running: false, hold: nil))
        // A write while that cycle runs is one more cycle after it, once the quiet has passed
        pacer.wrote(now: lastWrite + 4_000)
        #expect(!starts(now: lastWrite + 5_000, running: true, hold: nil))
        #expect(starts(now: lastWrite + 8_000, running: false, hold: nil))
        // `finish` starts at once, even right after another start
        pacer.wrote(now: lastWrite + 8_100, atOnce: true)
        #expect(starts(now: lastWrite + 8_100, running: false, hold: nil))
        // Whatever holds a cycle back (offline backoff, a refused token, nothing due) wins
        pacer.wrote(now: lastWrite + 20_000, atOnce: true)
        #expect(!starts(now: lastWrite + 20_000, running: false, hold: .backingOff(until: lastWrite + 25_000)))
        #expect(!starts(now: lastWrite + 21_000, running: false, hold: .stopped))
        #expect(starts(now: lastWrite + 25_000, running: false, hold: nil))
    }
}
