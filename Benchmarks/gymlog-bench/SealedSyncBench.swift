import Foundation
import GymLogCore
import GymLogStore
import GymLogSyncClient
import GymLogWire

// `gymlog-bench sync`, rows s6 and s7 (issue 29): push and pull through the real engine with
// end-to-end encryption, against the same without it, in the same run.

/// The accounts the encryption rows use: made before the server starts, like the others.
struct SealedBenchAccounts {
    /// One plain and one encrypted account per round.
    var plain: [String] = []
    var sealed: [String] = []

    /// Seven: on a shared two-core machine three rounds could not tell 1.25x from 1.4x
    /// (the plain push alone ranged from 319 to 431 ms between runs of one build).
    static let rounds = 7

    init(binary: String, database: String, directory: String, environment: [String]) throws {
        for round in 0..<Self.rounds {
            plain.append(try addServerUser(binary: binary, database: database, name: "plain\(round)", directory: directory, environment: environment))
            sealed.append(try addServerUser(binary: binary, database: database, name: "sealed\(round)", directory: directory, environment: environment))
        }
    }
}

/// s6 (push) and s7 (pull): `sets` sets logged on a device are pushed by `SyncEngine.run()`
/// over `HTTPSyncTransport` (sealing each value when encrypted), then pulled whole by a new
/// device (opening each value); plain and encrypted accounts alternate round by round, and
/// each figure is the median round.
func sealedSyncRows(serverURL: URL, accounts: SealedBenchAccounts, sets: Int, directory: String) async throws -> (rows: [ResultRow], details: [String]) {
    var push: [Bool: [Double]] = [:], pull: [Bool: [Double]] = [:]
    let specs = Array(repeating: benchSpecs[0], count: 5)
    for round in 0..<SealedBenchAccounts.rounds {
        // Each round goes first in turn, so neither variant always meets a warmer server.
        for sealed in round % 2 == 0 ? [false, true] : [true, false] {
            let token = sealed ? accounts.sealed[round] : accounts.plain[round]
            let name = sealed ? "sealed\(round)" : "plain\(round)"
            var transport = HTTPSyncTransport(baseURL: serverURL, token: token)
            var seal: ValueSeal?
            // A device logged in to an encrypted account holds its key in its settings, so the
            // ids it derives are keyed as they are made (`IDKeying`), as with the CLI.
            var settings = Settings()
            if sealed {
                let key = AccountKey.random()
                _ = try await transport.setAccountKey(verifier: key.verifier)
                transport.keyVerifier = key.verifier
                seal = ValueSeal(key: key, account: name)
                settings.account = name
                settings.accountKey = key.phrase.joined(separator: " ")
            }
            func engine(_ db: GymLogDatabase) -> SyncEngine {
                var engine = SyncEngine(replica: db, transport: transport)
                engine.seal = seal
                return engine
            }
            let writer = try GymLogDatabase(path: "\(directory)/\(name)-a.sqlite", settings: settings)
            for _ in 0..<(sets / specs.count) { _ = try writer.logSets(exercise: benchMention, specs: specs) }
            let t0 = monotonicNanos()
            let pushed = try await engine(writer).run()
            let t1 = monotonicNanos()
            let reader = try GymLogDatabase(path: "\(directory)/\(name)-b.sqlite", settings: settings)
            let pulled = try await engine(reader).run()
            let t2 = monotonicNanos()
            let onReader = try reader.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sets") ?? 0 }
            guard pushed.pushed >= sets, onReader == sets, pulled.parkedChanges == 0 else {
                throw BenchError("\(name): pushed \(pushed.pushed) events, the new device holds \(onReader) of \(sets) sets, \(pulled.parkedChanges) parked")
            }
            push[sealed, default: []].append(Double(t1 - t0) / 1e6)
            pull[sealed, default: []].append(Double(t2 - t1) / 1e6)
        }
    }
    func row(_ id: String, _ what: String, _ times: [Bool: [Double]]) -> ResultRow {
        let sealed = Stats(times[true]!).median, plain = Stats(times[false]!).median
        return ResultRow(id: id, what: what, figure: "\(fmt(sealed, 1)) ms", baseline: "\(fmt(plain, 1)) ms (the same, not encrypted)",
                         ratio: "\(fmt(sealed / plain, 2))×", target: "≤ 1.3×", pass: sealed / plain <= 1.3)
    }
    let rows = [
        row("s6", "push \(sets) logged sets, encrypted end to end, median of \(SealedBenchAccounts.rounds)", push),
        row("s7", "pull them to a new device, encrypted, median of \(SealedBenchAccounts.rounds)", pull),
    ]
    let details = ["Encryption (s6, s7): \(sets) sets (`bench 100x5`, five to a `logSets` call) logged on a new device, then "
        + "`SyncEngine.run()` over `HTTPSyncTransport` pushes them (sealing every value with ChaCha20-Poly1305 when the account "
        + "is encrypted), and a second new device's `SyncEngine.run()` pulls them all (opening every value). Plain and encrypted "
        + "accounts alternate round by round; times in ms, plain \(fmt(Stats(push[false]!).median, 1)) / \(fmt(Stats(pull[false]!).median, 1)), "
        + "encrypted \(fmt(Stats(push[true]!).median, 1)) / \(fmt(Stats(pull[true]!).median, 1)) (push / pull medians)."]
    return (rows, details)
}
