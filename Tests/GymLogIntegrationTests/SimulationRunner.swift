import Foundation
import GymLogCore
import GymLogTestSupport
@testable import GymLogServer
@testable import GymLogServerCore
import GymLogWire
import GymLogSyncClient
import Hummingbird
import HummingbirdTesting
import SplitMix

extension Sim {
    struct Options: Sendable {
        var backend: Backend
        var devices = 3
        var rounds = 300
        /// The fraction of requests broken while the storm lasts (0: a clean network).
        var faultRate = 0.0
        /// Backups, restores from them and wipes of the server's database during the run.
        var serverLives = false
        /// Device clocks are off by up to this much, either way.
        var maxSkewMs: Int64 = 3 * 86_400_000
        /// The server's `--max-clock-ahead-seconds`; by default above `maxSkewMs`, so the
        /// skewed clocks are accepted and the run tests merging, not refusal.
        var serverMaxClockAheadSeconds: Int?
        /// Let delayed copies of requests cross restores and wipes. Off: they still lose
        /// acknowledged writes (RELIABILITY.md, known limits), so the storm drops them there and
        /// `SimulationTests.delayedCopiesCrossingRestores` runs that case as a known issue.
        var stashCrossesRestores = false
        /// Routines and bodyweights in the operation mix too (off: the mix recorded seeds ran with).
        var planEntities = false
        /// The account encrypted end to end: every device seals what it pushes and opens what
        /// it pulls; the oracle checks the server's sealed values against the sealed pushes, and
        /// the devices' plaintext against the server's values opened.
        var encrypted = false
    }

    /// The counts a run reports (RELIABILITY.md copies them).
    struct Counts: Sendable {
        var rounds = 0, syncs = 0, failedSyncs = 0, pushed = 0, pulled = 0
        var backups = 0, restores = 0, wipes = 0, clockJumps = 0, clocksFixed = 0
        var ackedWritesChecked = 0, tombstonesChecked = 0, rowsCompared = 0, fieldsCompared = 0
    }

    /// One seeded run: the storm (random actors, faults if asked, server lives), then
    /// quiescence (faults off, every device syncs twice), then the oracle.
    final class Runner: @unchecked Sendable {
        let options: Options
        let seed: UInt64
        let directory: URL
        let clock = FakeClock(millis: testNow)
        var random: SplitMix64
        let turns: Turns
        let ledger = Box(Ledger())
        let network: Network
        let store: any Store
        var config: ServerConfig
        var token = ""
        /// The account's key, when `options.encrypted`.
        let seal: ValueSeal?
        var devices: [Device] = []
        var counts = Counts()
        var ops = OpStats()
        var failures: [String] = []
        private var pendingStoreChange: (() async throws -> Void)?

        init(_ options: Options, seed: UInt64) async throws {
            self.options = options; self.seed = seed
            directory = URL(fileURLWithPath: try temporaryDirectory("gymlog-sim-\(seed)"))
            random = SplitMix64(seed: seed)
            turns = Turns(seed: random.next(), clock: clock)
            network = Network(turns: turns, ledger: ledger, seed: random.next())
            store = options.backend == .sqlite ? try SQLiteStore(directory: directory) : try await PostgresStore()
            config = ServerConfig(database: "simulated")
            config.host = "127.0.0.1"; config.port = 0
            config.logLevel = .critical
            let now = clock
            config.now = { now.now() }
            // The server must accept the skewed clocks this run draws (they are the point);
            // refusing a clock far ahead is ProtocolTests.clockFarAheadRejectsTheWholeRequest.
            config.maxClockAheadSeconds = options.serverMaxClockAheadSeconds ?? Int(options.maxSkewMs / 1000) + 86_400
            seal = options.encrypted ? ValueSeal(key: AccountKey.random(), account: "lifter") : nil
            token = try await addUser()
            for i in 0..<options.devices {
                // Half the devices of an encrypted run key ids as they make them, as the CLI does;
                // the others leave it to the sync engine, as a log made before the key does.
                devices.append(try Device(index: i, directory: directory, seed: random.next(), clock: clock, skewMs: randomSkew(),
                                          accountKey: i % 2 == 1 ? seal?.key : nil))
            }
        }

        /// The account (again, after a wipe), encrypted with the run's key when asked.
        private func addUser() async throws -> String {
            let token = Tokens.generate()
            _ = try await store.storage.createUser(name: "lifter", tokenHash: Tokens.hash(token), now: clock.now())
            if let seal, let user = try await store.storage.userForTokenHash(Tokens.hash(token)) {
                // As `PUT /v1/account/key` stores it: the hash of the verifier a device sends.
                _ = try await store.storage.setKeyVerifier(user: user, verifier: Tokens.hash(seal.key.verifier))
            }
            return token
        }

        /// A transport to the simulated server carrying the account key's verifier, if any.
        private func transport(port: Int, actor: Int) -> HTTPSyncTransport {
            var transport = network.transport(port: port, token: token, actor: actor)
            transport.keyVerifier = seal?.key.verifier
            return transport
        }

        private func randomSkew() -> Int64 {
            random.chance(0.25) ? 0 : Int64(random.int(-Int(options.maxSkewMs)...Int(options.maxSkewMs)))
        }

        func run() async throws {
            defer { try? FileManager.default.removeItem(at: directory) }
            network.setFaultRate(options.faultRate)
            while counts.rounds < options.rounds {
                try await live { port in await self.storm(port: port) }
                if let change = pendingStoreChange { pendingStoreChange = nil; try await change() }
            }
            network.setFaultRate(0)
            try await live { port in try await self.quiesceAndCheck(port: port) }
            await store.close()
        }

        /// Runs the real server on a loopback port for one life of its store.
        func live(_ body: @escaping @Sendable (Int) async throws -> Void) async throws {
            let app = try await buildApplication(config, storage: store.storage)
            try await app.test(.live) { client in try await body(client.port!) }
        }

        // MARK: Storm

        private func storm(port: Int) async {
            while counts.rounds < options.rounds {
                counts.rounds += 1
                await round(port: port)
                if options.serverLives, let change = drawStoreChange() {
                    pendingStoreChange = change
                    return
                }
            }
        }

        /// A backup now and then; rarely the database is replaced by the last backup or wiped.
        private func drawStoreChange() -> (() async throws -> Void)? {
            var roll = random.int(0..<1000)
            // Every run restores and wipes at least once, whatever the draws.
            let round = counts.rounds, total = options.rounds
            if round == total * 3 / 10 && !store.hasBackup { roll = 0 }
            if round == total / 2 && counts.restores == 0 && store.hasBackup { roll = 35 }
            if round == total * 7 / 10 && counts.wipes == 0 { roll = 45 }
            if roll < 30 { return backUpServer }
            if roll < 42, store.hasBackup { return restoreServer }
            if roll < 47 { return wipeServer }
            return nil
        }
        private var backupLife: Ledger.Life?

        /// Copies the server's database aside (between server lives).
        func backUpServer() async throws {
            try await store.backup()
            counts.backups += 1
            backupLife = ledger.get.life
        }

        /// Replaces the server's database with the last backup: what was applied since is gone.
        func restoreServer() async throws {
            guard let life = backupLife else { return }
            try await store.restoreBackup()
            counts.restores += 1
            ledger.with { $0.restore(life) }
            if !options.stashCrossesRestores { network.forgetStash() }
        }

        /// Starts the server on an empty database (a new epoch).
        func wipeServer() async throws {
            try await store.wipe()
            counts.wipes += 1
            backupLife = nil
            ledger.with { $0.restore(Ledger.Life(appliedBySeq: [:], appliedKeys: [:])) }
            if !options.stashCrossesRestores { network.forgetStash() }
            // A wiped server has no accounts: the operator adds the user again and the
            // devices log in with the new token; their data is still theirs.
            token = try await addUser()
        }

        private func round(port: Int) async {
            for device in devices where random.chance(0.02) {
                device.skewMs.with { $0 = randomSkew() }
                counts.clockJumps += 1
            }
            var actors: [(id: Int, body: @Sendable () async -> Void)] = []
            for device in devices {
                if random.chance(0.6) {
                    let n = random.int(1...6), id = actors.count
                    actors.append((id, { [self] in
                        for _ in 0..<n {
                            await turns.gate(id)
                            do { try device.randomOperation(planEntities: options.planEntities) } catch { fail("device \(device.index): operation failed: \(error)") }
                        }
                    }))
                }
                if random.chance(0.45) {
                    let id = actors.count
                    // Small batches sometimes, so paging and partial acks are exercised too.
                    let (push, pull) = (random.chance(0.3) ? random.int(1...40) : 500, random.chance(0.3) ? random.int(1...40) : 500)
                    actors.append((id, { [self] in
                        await turns.gate(id)
                        await sync(device, port: port, actor: id, pushBatch: push, pullLimit: pull, faultsExpected: options.faultRate > 0)
                    }))
                }
            }
            await turns.enter(actors.map(\.id))
            await withTaskGroup(of: Void.self) { group in
                for actor in actors {
                    group.addTask { [self] in
                        await actor.body()
                        await turns.leave(actor.id)
                    }
                }
            }
        }

        func sync(_ device: Device, port: Int, actor: Int, pushBatch: Int = 1000, pullLimit: Int = 1000, faultsExpected: Bool) async {
            let replica = CountingReplica(inner: device.replica, rebases: rebases)
            var engine = SyncEngine(replica: replica, transport: transport(port: port, actor: actor))
            engine.seal = seal
            engine.pushBatch = pushBatch
            engine.pullLimit = pullLimit
            counts.syncs += 1
            do {
                let report = try await engine.run()
                counts.pushed += report.pushed
                counts.pulled += report.pulledChanges
                restamped.with { $0 += report.restamped }
                if !report.rejected.isEmpty { fail("device \(device.index): events rejected: \(report.rejected.prefix(3))") }
            } catch let error as SyncTransportError where faultsExpected {
                _ = error
                counts.failedSyncs += 1
            } catch {
                counts.failedSyncs += 1
                fail("device \(device.index): sync failed: \(error)")
            }
        }

        private func fail(_ message: String) { failures.append(message) }
        /// Rebases, counted where they happen: a sync that rebased may still fail later on.
        let rebases = Box(0)
        let restamped = Box(0)

        // MARK: Quiescence and the oracle

        /// One sync with no other actor running: a failure is a bug, faults or not.
        func syncAlone(_ device: Device, port: Int) async {
            await turns.enter([1000 + device.index])
            await sync(device, port: port, actor: 1000 + device.index, faultsExpected: false)
            await turns.leave(1000 + device.index)
        }

        func quiesceAndCheck(port: Int) async throws {
            // A device whose clock the server refuses (too far ahead) gets its clock fixed,
            // as its user would after reading the error; its writes must then still sync.
            let tolerance = Int64(config.maxClockAheadSeconds) * 1000
            for device in devices where device.skewMs.get > tolerance {
                device.skewMs.with { $0 = 0 }
                counts.clocksFixed += 1
            }
            for pass in 1...2 {
                for device in devices {
                    await syncAlone(device, port: port)
                    if pass == 2, try device.outboxDepth() != 0 { fail("device \(device.index): \(try device.outboxDepth()) events still pending after quiescence") }
                }
            }
            let server = try await serverState(port: port)
            try await check(server: server)
        }

        /// Everything the server holds for the user, pulled from the start as an observer, in
        /// protocol v1 and in v2: both must read the same state.
        private func serverState(port: Int) async throws -> [String: [String: WireField]] {
            let v1 = try await serverState(port: port, version: .v1), v2 = try await serverState(port: port, version: .v2)
            if v1 != v2 { fail("a v1 pull and a v2 pull read different states: \(v1.count) rows against \(v2.count)") }
            return v2
        }

        private func serverState(port: Int, version: SyncProtocol) async throws -> [String: [String: WireField]] {
            var transport = HTTPSyncTransport(baseURL: URL(string: "http://127.0.0.1:\(port)")!, token: token, protocolVersion: version)
            transport.keyVerifier = seal?.key.verifier
            var state: [String: [String: WireField]] = [:]
            var cursor = SyncCursor.start
            while true {
                let page = try await transport.pull(cursor: cursor, limit: 1000, deviceID: "sim-observer")
                for change in page.changes {
                    state["\(change.entity)/\(change.entityID)", default: [:]].merge(change.fields) { _, new in new }
                }
                cursor = SyncCursor(page.cursor) ?? cursor
                if !page.hasMore { break }
            }
            return state
        }

        private func check(server: [String: [String: WireField]]) async throws {
            // Guarantee 5, convergence: every device holds exactly the server's rows, field for
            // field (opened, when sealed: a value that does not open stays sealed and differs).
            let opened = seal.map { seal in
                Dictionary(uniqueKeysWithValues: server.map { key, fields in
                    let parts = key.split(separator: "/", maxSplits: 1).map(String.init)
                    let change = PullChange(entity: parts[0], entityID: parts[1], fields: fields)
                    return (key, ((try? seal.opened(change).get()) ?? change).fields)
                })
            } ?? server
            for device in devices {
                if try device.integrity() != "ok" { fail("device \(device.index): integrity_check failed") }
                let local = try device.state()
                for key in Set(local.keys).union(opened.keys) {
                    let l = local[key] ?? [:], s = opened[key] ?? [:]
                    guard l != s else { continue }
                    for field in Set(l.keys).union(s.keys) where l[field] != s[field] {
                        fail("device \(device.index) differs from the server at \(key).\(field): device \(describe(l[field])), server \(describe(s[field]))")
                        break
                    }
                }
                counts.rowsCompared += local.count
                counts.fieldsCompared += local.values.reduce(0) { $0 + $1.count }
            }
            let ledger = self.ledger.get
            failures.append(contentsOf: ledger.violations)
            // Guarantee 3: every acknowledged write, or a newer one, is there.
            for write in ledger.acknowledged {
                counts.ackedWritesChecked += 1
                guard let now = server[write.row]?[write.field] else {
                    fail("acknowledged write lost: \(write.row).\(write.field) = \(write.value) at \(write.clock) is gone"); continue
                }
                if now.c < write.clock || (now.c == write.clock && now.v != write.value) {
                    fail("acknowledged write lost: \(write.row).\(write.field) = \(write.value) at \(write.clock); the server has \(describe(now))")
                }
                // Guarantee 4: a tombstone is only undone by a newer, explicit restore.
                if write.field == tombstoneField, !write.value.isNull {
                    counts.tombstonesChecked += 1
                    if now.v.isNull && !(now.c > write.clock) { fail("ghost: \(write.row) came back without a newer restore") }
                }
            }
            // No invented values: every field's (value, clock) is one some device pushed.
            for (row, fields) in server {
                for (name, field) in fields {
                    let origin = ledger.pushed["\(row)/\(name)/\(field.c)"]
                    if origin != field.v { fail("\(row).\(name) = \(describe(field)) was never written by any device (pushed: \(String(describing: origin)))") }
                }
            }
            // Guarantee 2, exactly once: the server applied each (device, seq) once, every
            // device's last seq, and nothing the answers did not report.
            // Keys answered under a past generation may be gone (a new generation deletes them).
            let audit = try await store.audit()
            let user = try await store.storage.userForTokenHash(Tokens.hash(token))
            let current = SyncRules.epoch(database: try await store.storage.epoch(), historyGeneration: user?.historyGeneration ?? 0)
            let reported = Set(ledger.appliedKeys.keys), required = Set(ledger.appliedKeys.filter { $0.value == current }.keys)
            if !audit.keys.isSubset(of: reported) || !required.isSubset(of: audit.keys) {
                fail("applied idempotency keys: server has \(audit.keys.count), answers reported \(reported.count) (\(required.count) in the current epoch); \(audit.keys.subtracting(reported).count) never reported, \(required.subtracting(audit.keys).count) missing")
            }
            for device in devices {
                let last = try device.lastSeq()
                // A device that never pushed has no row on the server: it has applied nothing.
                if audit.lastApplied[device.deviceID] ?? 0 != last {
                    fail("device \(device.index): last seq \(last), server's last_applied_seq \(String(describing: audit.lastApplied[device.deviceID]))")
                }
            }
        }

        private func describe(_ field: WireField?) -> String {
            field.map { "\($0.v) at \($0.c)" } ?? "nothing"
        }

        var summary: String {
            let c = counts
            let faults = network.counts.values.reduce(0, +)
            let ledger = self.ledger.get
            return "seed=\(seed) scale=\(Sim.scale) backend=\(options.backend.rawValue) devices=\(options.devices) rounds=\(c.rounds) "
                + "ops=\(devices.reduce(OpStats()) { $0 + $1.stats }.total) refused=\(devices.reduce(OpStats()) { $0 + $1.stats }.refused) "
                + "syncs=\(c.syncs) failed_syncs=\(c.failedSyncs) requests=\(network.requests) faults=\(faults) replays=\(network.replays) stale_epoch_pushes=\(network.staleEpochPushes) "
                + "applied_events=\(ledger.appliedEvents) duplicate_answers=\(ledger.duplicateEvents) rebases=\(rebases.get) "
                + "clock_jumps=\(c.clockJumps) clocks_fixed=\(c.clocksFixed) restamped=\(restamped.get) backups=\(c.backups) restores=\(c.restores) wipes=\(c.wipes) "
                + "acked_writes_checked=\(c.ackedWritesChecked) tombstones_checked=\(c.tombstonesChecked) "
                + "rows=\(c.rowsCompared / max(1, options.devices)) fields_compared=\(c.fieldsCompared)"
        }

        var faultBreakdown: String {
            network.counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue)=\($0.value)" }.joined(separator: " ")
        }
    }
}

extension Sim {
    /// The device's replica, counting rebases (full re-sends after a server wipe or restore).
    struct CountingReplica: SyncReplica {
        let inner: any SyncReplica
        let rebases: Box<Int>
        func currentDeviceID() throws -> String { try inner.currentDeviceID() }
        func lastWrittenSeq() throws -> Int64 { try inner.lastWrittenSeq() }
        func becomeNewDevice() throws -> String { try inner.becomeNewDevice() }
        func syncPosition() throws -> (epoch: String?, cursor: Int64, ackedSeq: Int64) { try inner.syncPosition() }
        func apply(_ changes: [PullChange], refused: [RefusedChange], epoch: String, cursor: Int64,
                   pulledThrough: Int64?) throws -> (written: Int, kept: Int, parked: Int) {
            try inner.apply(changes, refused: refused, epoch: epoch, cursor: cursor, pulledThrough: pulledThrough)
        }
        func pulledThrough() throws -> Int64 { try inner.pulledThrough() }
        func pending(after seq: Int64, limit: Int) throws -> [PushEvent] { try inner.pending(after: seq, limit: limit) }
        func unparkDueEvents() throws -> Int { try inner.unparkDueEvents() }
        func acknowledge(lastAppliedSeq: Int64, rejected: [Int64: String]) throws {
            try inner.acknowledge(lastAppliedSeq: lastAppliedSeq, rejected: rejected)
        }
        func rebase(epoch: String, nextSeq: Int64) throws {
            try inner.rebase(epoch: epoch, nextSeq: nextSeq)
            rebases.with { $0 += 1 }
        }
        var wallClock: Int64 { inner.wallClock }
        func restampClocks(after limit: Int64) throws -> Int { try inner.restampClocks(after: limit) }
        func keyDerivedIDs(with key: AccountKey) throws -> Int { try inner.keyDerivedIDs(with: key) }
    }
}
