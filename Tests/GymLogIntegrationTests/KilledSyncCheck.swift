import Foundation
import GymLogSyncClient
import GymLogTestSupport
import GymLogWire
import SplitMix

/// What must hold after a sync of a device was killed at a random moment, the check both
/// crash suites (a manual sync, a background one) run after every kill: the file intact, the
/// write pipeline's invariant, the pending events exactly the recorded ones after acked_seq,
/// acked_seq never going back, the server's acknowledgement between the device's acked and last
/// seq, and the sync lock free.
struct KilledSyncCheck {
    /// The device's acked_seq at the last check; it only grows.
    private(set) var lastAcked: Int64 = 0
    /// Kills after part of the outbox was acknowledged and before the rest.
    private(set) var killsAfterPartialPush = 0
    /// Kills after the server applied a push and before the device recorded its acknowledgement:
    /// the next cycle sends those events again, and the server must know them.
    private(set) var killsBetweenPushAndAck = 0

    /// The problems found after a sync of `device` ended (`killed` or not) and how many events
    /// it still holds; nil when its database is gone.
    mutating func check(_ device: ClientDevice, registry: EventRegistry, transport: HTTPSyncTransport, killed: Bool) async throws
        -> (problems: [String], pending: Int)? {
        // (acked_seq only grows, so the last one seen bounds the rows the check needs from below)
        guard let s = try ClientDatabaseDump.read(device.database, rows: .checkedAgainst(watermark: registry.clock(ofSeq: lastAcked))) else {
            return nil
        }
        var list = s.integrityProblems
        list += WritePipelineInvariant.violations(s, acknowledgedThrough: registry.clock(ofSeq: s.ackedSeq), synced: true)
        list += registry.pendingViolations(s)
        if s.ackedSeq < lastAcked { list.append("acked_seq went back from \(lastAcked) to \(s.ackedSeq)") }
        if killed && s.ackedSeq > lastAcked && s.ackedSeq < s.lastSeq { killsAfterPartialPush += 1 }
        lastAcked = s.ackedSeq
        let serverAck = try await transport.pull(cursor: SyncCursor(epoch: nil, position: 0), limit: 1, deviceID: s.deviceID!).lastAppliedSeq
        if killed && serverAck > s.ackedSeq { killsBetweenPushAndAck += 1 }
        if serverAck < s.ackedSeq || serverAck > s.lastSeq {
            list.append("the server's last_applied_seq \(serverAck) is outside the device's acked \(s.ackedSeq) ... last \(s.lastSeq)")
        }
        if !syncLockIsFree(device) { list.append("the sync lock is still held after the process died") }
        return (list, s.outbox.count)
    }
}

/// When the crash suites kill a sync: a quarter of the kills while it starts up, the others
/// spread over the span an uninterrupted sync took lately, which follows the runs.
struct KillTiming {
    /// How long an uninterrupted sync took lately (a guess until one finishes).
    private(set) var seconds = 1.0

    /// Starts `gymlog args` on `device`, SIGKILLs it after a random delay unless it ended
    /// first, and returns how it ended and the delay.
    mutating func run(_ device: ClientDevice, _ args: [String], using rng: inout SplitMix64) throws
        -> (run: ProcessResult, delay: TimeInterval) {
        let delay = Int.random(in: 0..<4, using: &rng) == 0
            ? Double.random(in: 0...0.1, using: &rng) : Double.random(in: 0.05...max(0.1, seconds * 0.6), using: &rng)
        let started = Date()
        let run = try killedRun(device, args, input: "", after: delay)
        seconds = run.killed ? min(4, seconds * 1.2) : max(0.3, (seconds + Date().timeIntervalSince(started)) / 2)
        return (run, delay)
    }
}
