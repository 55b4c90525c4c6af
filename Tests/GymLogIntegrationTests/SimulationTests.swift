import Foundation
import GymLogTestSupport
import Testing

/// Guarantees 2-5 of the sync brief (`../shared/SYNC.md`) under random interleavings, clock skew, faults and server
/// restores (see SimulationSupport.swift). A failure prints its seed: rerun it with
/// `GYMLOG_RELIABILITY_SEED=<seed> swift test --skip-build --filter Simulation`.
@Suite("Simulation", .serialized) struct SimulationTests {
    private func simulate(_ name: String, _ options: Sim.Options, seed: UInt64 = Sim.seed()) async throws {
        let runner = try await Sim.Runner(options, seed: seed)
        try await runner.run()
        let outcome = runner.failures.isEmpty ? "ok" : "FAILED"
        print("reliability: simulation-\(name) \(runner.summary) outcome=\(outcome)")
        if !runner.network.counts.isEmpty { print("reliability: simulation-\(name) faults: \(runner.faultBreakdown)") }
        let passed = runner.failures.isEmpty
        #expect(passed, """
            simulation \(name) failed with seed \(seed) (rerun: GYMLOG_RELIABILITY_SEED=\(seed) swift test --skip-build --filter Simulation); \
            \(runner.failures.count) problem(s), first ones:
            \(runner.failures.prefix(15).joined(separator: "\n"))
            """)
        #expect(runner.counts.syncs > 0 && runner.counts.ackedWritesChecked > 0, "the run exercised nothing (seed \(seed))")
    }

    @Test(arguments: Backend.all) func cleanNetwork(_ backend: Backend) async throws {
        try await simulate("clean-\(backend.rawValue)", Sim.Options(backend: backend, devices: 3, rounds: 150 * Sim.scale, planEntities: true))
    }

    @Test(arguments: Backend.all) func faultsAndServerRestores(_ backend: Backend) async throws {
        try await simulate("faults-\(backend.rawValue)", Sim.Options(backend: backend, devices: 4, rounds: 200 * Sim.scale,
                                                                    faultRate: 0.05, serverLives: true,
                                                                    // Devices up to 3 days ahead, a server that takes 1: some
                                                                    // are refused until their clock is fixed.
                                                                    serverMaxClockAheadSeconds: 86_400, planEntities: true))
    }

    /// Issue 29: the same storm with the account encrypted end to end (values sealed on the
    /// wire and on the server, faults, restores and wipes included).
    @Test(arguments: Backend.all) func encryptedFaultsAndServerRestores(_ backend: Backend) async throws {
        try await simulate("encrypted-\(backend.rawValue)", Sim.Options(backend: backend, devices: 3, rounds: 120 * Sim.scale,
                                                                       faultRate: 0.05, serverLives: true, planEntities: true, encrypted: true))
    }

    /// RELIABILITY.md, known limits: delayed copies of requests that cross a server restore
    /// still lose acknowledged writes (CI seed 123632983783011 on PostgreSQL: a stale copy
    /// arriving before any device proves the rollback carries the current epoch). The storm
    /// above drops such copies at restores; this run lets them cross, so a fix shows up here.
    /// Intermittent: a change elsewhere may move what the seed draws and hide the loss.
    @Test(.enabled(if: PostgresTestDatabase.isRequested, "needs GYMLOG_TEST_POSTGRES_URL (./scripts/test starts a server)"))
    func delayedCopiesCrossingRestores() async throws {
        let options = Sim.Options(backend: .postgres, devices: 4, rounds: 200, faultRate: 0.05, serverLives: true,
                                  serverMaxClockAheadSeconds: 86_400, stashCrossesRestores: true)
        await withKnownIssue("acknowledged writes lost when delayed copies cross a restore (RELIABILITY.md, known limits)",
                             isIntermittent: true) {
            try await simulate("stale-copies-cross-restores-postgres", options, seed: 123_632_983_783_011)
        }
    }

    /// Regression for CI seed 279816363465569 (SQLite): a device whose push was applied but
    /// whose answer was lost re-sent it after a restore; on `clock_ahead` every pending clock
    /// past the server's time was re-stamped, including that one, so the server came to hold
    /// the same value under an older clock than the one it acknowledged. Only clocks the
    /// server refuses are re-stamped now (RELIABILITY.md, finding 9).
    @Test func restampedResendCrossingARestore() async throws {
        let options = Sim.Options(backend: .sqlite, devices: 4, rounds: 200, faultRate: 0.05, serverLives: true,
                                  serverMaxClockAheadSeconds: 86_400)
        try await simulate("restamped-resend-crosses-restore-sqlite", options, seed: 279_816_363_465_569)
    }
}
