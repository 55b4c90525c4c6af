import Foundation
import GymLogCore

/// A crash suite's seed and scale (`Sim`: `GYMLOG_RELIABILITY_SEED`, random when unset and
/// printed so a failing run can be replayed; `GYMLOG_RELIABILITY_SCALE`, a multiplier).
public struct CrashKnobs: Sendable {
    public let scale: Int
    public let seed: UInt64

    public init() {
        scale = Sim.scale
        seed = Sim.seed()
        // A write to the stdin of a process the test just killed must fail, not kill the runner.
        signal(SIGPIPE, SIG_IGN)
    }

    /// The knobs as a failure names them, with how to replay the run.
    public var replay: String { Sim.replay(seed: seed) }
}
