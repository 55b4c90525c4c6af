import Foundation
import GymLogCore
import GymLogTestSupport
import Testing

/// Item 4 of the reliability issue: the server's database replaced by an older backup, or
/// wiped. Clients must notice, re-send what they hold, and converge without losing anything.
/// The random simulation restores and wipes too; these are the cases it can miss by chance.
@Suite("Server restore", .serialized) struct ServerRestoreTests {
    private func log(_ device: Sim.Device, _ count: Int, weight: Int = 100) throws {
        for i in 0..<count {
            _ = try device.db.logSets(exercise: ExerciseMention(name: "squat", span: Span(0, 5)),
                                      specs: [SetSpec(load: .weight(Fixed(weight + i), .kg), reps: 5)])
        }
    }

    private func expectClean(_ runner: Sim.Runner, _ comment: String) {
        let passed = runner.failures.isEmpty
        #expect(passed, "\(comment): \(runner.failures.prefix(10).joined(separator: "\n"))")
    }

    /// A device that only pulled after the backup holds a cursor from the lost history. If
    /// new changes on the restored server overtake that cursor before the device pulls again,
    /// "head behind my cursor" no longer shows the restore, and a plain pull would skip them.
    @Test(arguments: Backend.all) func aRestoreHiddenByNewerChangesStillConverges(_ backend: Backend) async throws {
        let runner = try await Sim.Runner(Sim.Options(backend: backend, devices: 3, rounds: 0, maxSkewMs: 0), seed: 1)
        let (a, b, c) = (runner.devices[0], runner.devices[1], runner.devices[2])
        try await runner.live { port in
            try log(a, 5)
            for d in [a, b, c] { await runner.syncAlone(d, port: port) }
        }
        try await runner.backUpServer()
        try await runner.live { port in
            try log(a, 10, weight: 120)
            await runner.syncAlone(a, port: port)
            await runner.syncAlone(b, port: port)
        }
        try await runner.restoreServer()
        try await runner.live { port in
            // C never saw the lost history, so nothing tells it about the restore: it just
            // pushes, and its changes take the change numbers B's cursor has passed.
            try log(c, 40, weight: 200)
            await runner.syncAlone(c, port: port)
            await runner.syncAlone(b, port: port)
        }
        try await runner.live { port in try await runner.quiesceAndCheck(port: port) }
        expectClean(runner, "after a restore hidden by newer changes")
        let sets = try b.db.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sets WHERE deleted_at IS NULL") }
        #expect(sets == 55)
    }

    /// A wiped server (new epoch, no accounts until the operator adds the user again): every
    /// device re-sends all it holds, including what it had only pulled from the others.
    @Test(arguments: Backend.all) func aWipedServerGetsEverythingBackFromTheDevices(_ backend: Backend) async throws {
        let runner = try await Sim.Runner(Sim.Options(backend: backend, devices: 3, rounds: 0, maxSkewMs: 0), seed: 2)
        let (a, b, c) = (runner.devices[0], runner.devices[1], runner.devices[2])
        try await runner.live { port in
            try log(a, 8)
            try log(b, 4, weight: 60)
            for d in [a, b, c, a] { await runner.syncAlone(d, port: port) }
            _ = try a.db.undo(confirmed: true)
            await runner.syncAlone(a, port: port)
        }
        try await runner.wipeServer()
        try await runner.live { port in
            // Only C syncs before the check: it holds A's and B's sets from its pulls.
            try log(c, 3, weight: 40)
            await runner.syncAlone(c, port: port)
        }
        try await runner.live { port in try await runner.quiesceAndCheck(port: port) }
        expectClean(runner, "after a wipe")
        #expect(runner.rebases.get == 3)
        for device in [a, b, c] {
            let sets = try device.db.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sets WHERE deleted_at IS NULL") }
            #expect(sets == 14)
        }
    }
}
