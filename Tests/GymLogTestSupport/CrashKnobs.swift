import Foundation
import GymLogCore

/// `GYMLOG_RELIABILITY_SCALE` (a multiplier, default 1) and `GYMLOG_RELIABILITY_SEED`
/// (random when unset; printed so a failing run can be replayed).
public struct CrashKnobs: Sendable {
    public let scale: Int
    public let seed: UInt64

    public init() {
        let env = ProcessInfo.processInfo.environment
        scale = max(1, Int(env["GYMLOG_RELIABILITY_SCALE"] ?? "") ?? 1)
        seed = UInt64(env["GYMLOG_RELIABILITY_SEED"] ?? "") ?? UInt64.random(in: 1...999_999_999)
        // A write to the stdin of a process the test just killed must fail, not kill the runner.
        signal(SIGPIPE, SIG_IGN)
    }

    /// The knobs as a failure names them, with how to replay the run.
    public var replay: String { "seed=\(seed) scale=\(scale) (rerun with GYMLOG_RELIABILITY_SEED=\(seed))" }
}
