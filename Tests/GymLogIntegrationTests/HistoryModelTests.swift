import Foundation
import GRDB
import GymLogCore
import GymLogStore
import GymLogSyncClient
import GymLogTestSupport
import GymLogWire
import SplitMix
import Testing

/// The model of the history (issue 44): seeded random sequences of what a lifter does, on
/// several devices and copies of them, against the real `gymlog-server`, checked against a
/// plain reference model: which sets exist and whether each is live.
///
/// Each action's effect is read on the device that did it (the sets it made, deleted or
/// brought back) and the model applies it in order; every clock follows the order of the
/// steps (one clock for every device, moving forward each step), so after every device has
/// synced, each must hold exactly the model's live sets. The promises checked:
/// - nothing lost: every set the model holds live is live on every device once they converge,
///   copies of a device (a backup restored, a snapshot) included;
/// - nothing doubled: no device holds a set the model does not know, and importing the
///   account's own export (native, Strong or Hevy), on any device, adds nothing;
/// - units exact: a set is stored as typed, its unit included, kg or lb;
/// - an import is one action: undo takes every set of it back;
/// - every device exports the same;
/// - a server restored from an older backup loses nothing: the devices send it again;
/// - a sync broken by the network (an answer lost after the server committed, a push that
///   never left, a pull cut off) loses and doubles nothing once a later one runs.
///
/// `GYMLOG_RELIABILITY_SEED` replays a run; `GYMLOG_RELIABILITY_SCALE` makes it longer.
@Suite("History model", .serialized) struct HistoryModelTests {
    @Test func randomLifterSequencesOnDevicesAndCopiesLoseAndDoubleNothing() async throws {
        let seed = Sim.seed()
        var run = try await ModelRun(seed: seed, steps: 220 * Sim.scale)
        try await run.play()
        print("history-model: seed=\(seed) steps=\(run.steps) encrypted=\(run.seal != nil) devices=\(run.devices.count) copies=\(run.counts.copies) "
              + "sets=\(run.model.values.filter { $0 }.count) imports=\(run.counts.imports) own-exports=\(run.counts.ownExports) "
              + "undone-imports=\(run.counts.undoneImports) syncs=\(run.counts.syncs) failed-by-faults=\(run.counts.faults) restores=\(run.counts.restores) outcome=\(run.failures.isEmpty ? "ok" : "failed")")
        #expect(run.failures.isEmpty, "seed \(seed) (GYMLOG_RELIABILITY_SEED=\(seed) replays it):\n\(run.failures.prefix(12).joined(separator: "\n"))")
    }
}

/// One seeded run of the history model.
private struct ModelRun {
    let steps: Int
    /// The server; replaced by one on its restored file when the run restores a backup.
    var server: ServerInstance
    let serverFile: String
    /// The server's last backup, when the run took one.
    var backup: String?
    let token: String
    let clock: FakeClock
    let directory: String
    var random: SplitMix64
    /// Half the runs sync an account encrypted end to end, as every new account is: each value
    /// sealed to its place and write, padded, opened on the way back.
    let seal: ValueSeal?
    var devices: [GymLogDatabase] = []
    /// Every set any action made, and whether it is live: the reference the devices must match.
    var model: [String: Bool] = [:]
    /// For the report of a failed run: each set's changes of liveness (step and device), and
    /// every sync, copy and restore in order.
    var history: [String: [String]] = [:]
    var events: [String] = []
    private var acting = 0
    var failures: [String] = []
    var counts = (copies: 0, imports: 0, ownExports: 0, undoneImports: 0, syncs: 0, restores: 0, faults: 0)
    /// Per device, the sets its last import made, while that import is its newest action.
    var lastImport: [Int: Set<String>] = [:]
    private var step = 0

    static let weighted = ["bench press", "squat", "deadlift"]
    /// Files read in the devices' zone (UTC+1), as the CLI reads them in the machine's.
    static let importOptions = ImportOptions(utcOffset: { _ in 3600 })

    init(seed: UInt64, steps: Int) async throws {
        self.steps = steps
        random = SplitMix64(seed: seed)
        directory = try temporaryDirectory("gymlog-model")
        serverFile = directory + "/server.sqlite"
        server = try ServerInstance(database: "sqlite:" + serverFile)
        token = try server.addUser("model")
        seal = random.chance(0.5) ? ValueSeal(key: AccountKey.random(), account: "model") : nil
        if let seal {
            _ = try await HTTPSyncTransport(baseURL: URL(string: server.url)!, token: token).setAccountKey(verifier: seal.key.verifier)
        }
        // Behind the real time by more than the run can move it: the server refuses clocks far ahead.
        clock = FakeClock(millis: Int64(Date().timeIntervalSince1970 * 1000) - Int64(steps) * 60_000 - 3_600_000)
        for _ in 0..<2 { devices.append(try makeDevice(path: directory + "/device-\(devices.count).sqlite")) }
    }

    private func makeDevice(path: String) throws -> GymLogDatabase {
        let clock = self.clock
        var settings = Settings()
        // The key in the settings, as the CLI's are once logged in: ids derived from names are keyed.
        if let seal { settings.account = seal.account; settings.accountKey = seal.key.phrase.joined(separator: " ") }
        return try GymLogDatabase(path: path, environment: Environment(now: { clock.now() }, utcOffset: { _ in 3600 }, newID: { UUID() }),
                                  settings: settings)
    }

    mutating func play() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for s in 0..<steps {
            step = s
            // Each step a little later, so every write's clock follows the order of the steps.
            clock.advance(Int64(random.int(10_000...60_000)))
            let d = random.int(0..<devices.count)
            acting = d
            try await act(on: d)
            if failures.count > 20 { return }
        }
        // Every device syncs, three times round, then holds the model's sets and exports the same.
        for _ in 0..<3 { for d in devices.indices { await sync(d, faults: false) } }
        let expected = Set(model.filter { $0.value }.keys)
        var exports: [String] = []
        for (d, db) in devices.enumerated() {
            let live = try liveIDs(db)
            let lost = expected.subtracting(live), extra = live.subtracting(expected)
            if !lost.isEmpty {
                failures.append("device \(d) lacks \(lost.count) live sets, e.g. \(lost.sorted().prefix(3))")
                for id in lost.sorted().prefix(3) {
                    let row = try db.read { try Row.fetchOne($0, sql: "SELECT deleted_at, clocks FROM sets WHERE id = ?", arguments: [id]) }
                    failures.append("  \(id): \(history[id] ?? []); on device \(d): \(row.map { "\($0)" } ?? "absent")")
                }
                failures.append(events.joined(separator: "\n"))
            }
            if !extra.isEmpty { failures.append("device \(d) holds \(extra.count) sets the model does not, e.g. \(extra.sorted().prefix(3))") }
            if try db.read({ try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM outbox") }) != 0 { failures.append("device \(d): outbox not empty") }
            exports.append(try export(db, .native))
        }
        if Set(exports).count != 1 { failures.append("the devices' native exports differ") }
    }

    // MARK: Actions

    private mutating func act(on d: Int) async throws {
        let db = devices[d]
        let before = try liveIDs(db)
        let roll = random.int(0..<100)
        do {
            switch roll {
            case 0..<24:
                let name = random.pick(Self.weighted)
                let unit: WeightUnit = random.chance(0.5) ? .kg : .lb
                let weight = Fixed(thousandths: Int64(random.int(8...100)) * 2500)
                let spec = SetSpec(kind: random.chance(0.9) ? .working : .warmup, load: .weight(weight, unit), reps: random.int(0...12))
                let result = try db.logSets(exercise: mention(name), specs: Array(repeating: spec, count: random.int(1...3)), typed: "\(name) \(weight)\(unit)")
                // Units exact: each set as typed, its unit included.
                for set in result.sets where set.set.values.weight != Weight(weight, unit) {
                    failures.append("step \(step): `\(name) \(weight)\(unit)` stored \(String(describing: set.set.values.weight))")
                }
            case 24..<29:
                _ = try db.logSets(exercise: mention("pull up"), specs: [SetSpec(load: .bodyweight, reps: random.int(1...15))], typed: "pull up bw")
            case 29..<32:
                _ = try db.logSets(exercise: mention("plank"), specs: [SetSpec(durationSeconds: random.int(20...120))], typed: "plank")
            case 32..<35:
                _ = try db.logSets(exercise: mention("run"), specs: [SetSpec(durationSeconds: random.int(300...900),
                                                                            distance: Distance(Fixed(thousandths: Int64(random.int(1...5)) * 1_000_000), .m))],
                                   typed: "run")
            case 35..<41:
                _ = try db.repeatLast(SetPatch(reps: random.chance(0.5) ? random.int(1...12) : nil), typed: "+")
            case 41..<49:
                _ = try db.editSet(random.chance(0.3) ? .last : .number(random.int(1...6)), patch: SetPatch(reps: random.int(1...12)), typed: "edit")
            case 49..<56:
                _ = try db.deleteSet(random.chance(0.3) ? .last : .number(random.int(1...6)), typed: "delete")
            case 56..<65:
                let outcome = try db.undo(confirmed: true)
                if case .done = outcome, let imported = lastImport[d] {
                    let after = try liveIDs(db)
                    counts.undoneImports += 1
                    if !imported.isDisjoint(with: after) {
                        failures.append("step \(step): device \(d)'s undo of its import left \(imported.intersection(after).count) of its sets")
                    }
                }
            case 65..<69:
                _ = try db.redo(confirmed: true)
            case 69..<72:
                _ = try db.finishWorkout()
            case 72..<77:
                // A file from another app, as the CLI imports it: a logged-in database pulls first.
                await sync(d, faults: false)
                let file = strongFile(number: counts.imports)
                counts.imports += 1
                let synced = try liveIDs(db)
                _ = try db.importFile(try ImportParser.parse(Array(file.utf8), options: Self.importOptions), label: "import")
                let made = try liveIDs(db).subtracting(synced)
                apply(synced, try liveIDs(db))
                lastImport[d] = made
                return
            case 77..<82:
                // The account's own export, imported on another device (or this one): it adds nothing.
                guard devices.count > 1 else { return }
                // Both hold the same history first (an export made before another device's edit
                // of a set is another set, by the rule: same exercise, start, order and values).
                let e = random.int(0..<devices.count)
                await sync(d, faults: false)
                await sync(e, faults: false)
                await sync(d, faults: false)
                let format = random.pick([ExportFormat.native, .strong, .hevy])
                let text = try export(db, format)
                let held = try liveIDs(devices[e])
                let report = try devices[e].importFile(try ImportParser.parse(Array(text.utf8), options: Self.importOptions), label: "import")
                let made = try liveIDs(devices[e]).subtracting(held)
                counts.ownExports += 1
                if !made.isEmpty || report.setsCreated != 0 {
                    let added = try devices[e].read { db in
                        try made.sorted().map { id in
                            try Row.fetchOne(db, sql: """
                                SELECT e.name, s.kind, s.weight, s.weight_unit, s.bodyweight, s.reps, s.duration_s, s.distance, s.distance_unit,
                                       s.performed_at, w.started_at FROM sets s JOIN exercises e ON e.id = s.exercise_id JOIN workouts w ON w.id = s.workout_id WHERE s.id = ?
                                """, arguments: [id]).map { "\($0)" } ?? id
                        }
                    }
                    let context = try devices[e].read { db in
                        try made.sorted().map { id in
                            let near = try Row.fetchAll(db, sql: """
                                SELECT w.id, w.started_at, w.deleted_at, (SELECT group_concat(e.name || ' ' || s.weight || s.weight_unit || 'x' || s.reps || (CASE WHEN s.deleted_at IS NULL THEN '' ELSE ' deleted' END), ', ') FROM sets s JOIN exercises e ON e.id = s.exercise_id WHERE s.workout_id = w.id) AS sets
                                FROM workouts w WHERE abs(w.started_at - (SELECT performed_at FROM sets WHERE id = ?)) < 7200000
                                """, arguments: [id])
                            return "\(id) in file: \(text.contains(id)); near: \(near.map { "\($0)" }.joined(separator: " | "))"
                        }
                    }
                    failures.append("step \(step): \(context.joined(separator: "; "))")
                    failures.append(events.suffix(25).joined(separator: "\n"))
                    failures.append("step \(step): device \(d)'s \(format.rawValue) export imported on device \(e) added \(report.setsCreated) sets: "
                        + "\(added.prefix(3).joined(separator: "; "))\n\(text.split(separator: "\n").prefix(40).joined(separator: "\n"))")
                }
                apply(held, try liveIDs(devices[e]))
                lastImport[e] = made
                return
            case 85..<87:
                // The server's operator takes a backup, or restores the last one (the history
                // after it is gone from the server; every device sends what it holds again).
                if let backup, random.chance(0.5) {
                    server.stop()
                    let restore = try ProcessRunner.runProduct("gymlog-server", ["restore", "--db", "sqlite:" + serverFile, backup], timeout: 120)
                    if restore.status != 0 { failures.append("step \(step): restore failed: \(restore.stderr)") }
                    server = try ServerInstance(database: "sqlite:" + serverFile)
                    counts.restores += 1
                    events.append("step \(step) server restored")
                } else {
                    let path = directory + "/server-backup-\(step).sqlite"
                    let taken = try ProcessRunner.runProduct("gymlog-server", ["backup", "--db", "sqlite:" + serverFile, path], timeout: 120)
                    if taken.status != 0 { failures.append("step \(step): backup failed: \(taken.stderr)") } else { backup = path }
                }
                return
            case 82..<85:
                // A copy of the device (a backup restored, a VM snapshot), unsynced changes and all.
                guard devices.count < 5 else { return }
                let path = directory + "/device-\(devices.count).sqlite"
                try DatabaseQueue(path: db.path).backup(to: DatabaseQueue(path: path))
                devices.append(try makeDevice(path: path))
                events.append("step \(step) device \(devices.count - 1) is a copy of device \(d)")
                lastImport[devices.count - 1] = lastImport[d]
                counts.copies += 1
                return
            default:
                await sync(d)
                return
            }
        } catch is UserError {
            // A refusal the lifter would see (nothing to undo, no set #6): part of the game.
        }
        apply(before, try liveIDs(db))
        // The import is no longer the newest action (or was just undone): checked no more.
        lastImport[d] = nil
    }

    /// The model takes what the action did on its device: sets made or brought back are live,
    /// sets deleted are not.
    private mutating func apply(_ before: Set<String>, _ after: Set<String>) {
        for id in after.subtracting(before) { model[id] = true; history[id, default: []].append("step \(step) live by device \(acting)") }
        for id in before.subtracting(after) { model[id] = false; history[id, default: []].append("step \(step) dead by device \(acting)") }
    }

    /// `faults`: whether this sync may meet one; the sync an import starts with (as `gymlog
    /// import` syncs first) does not, since an import after a failed one may double sets.
    private mutating func sync(_ d: Int, faults: Bool = true) async {
        counts.syncs += 1
        var transport = HTTPSyncTransport(baseURL: URL(string: server.url)!, token: token)
        transport.keyVerifier = seal?.key.verifier
        // One sync in five meets a fault: a push whose answer is lost after the server
        // committed it, a push that never left, a pull cut off. It may fail; a later one must
        // leave nothing lost and nothing doubled.
        let fault = faults && random.chance(0.2) ? random.pick(FaultyTransport.Fault.allCases) : nil
        var engine = SyncEngine(replica: devices[d], transport: fault.map { FaultyTransport(inner: transport, fault: $0) as any SyncTransport } ?? transport)
        engine.seal = seal
        do {
            let report = try await engine.run()
            events.append("step \(step) device \(d) sync\(fault.map { " fault \($0)" } ?? "") ok: pushed \(report.pushed) dup \(report.duplicates) pulled \(report.pulledChanges) new-id \(report.newDeviceID ?? "-") rebased \(report.rebased)")
            if report.parkedChanges > 0 { failures.append("step \(step): device \(d) set aside \(report.parkedChanges) pulled changes") }
        } catch {
            if let fault {
                counts.faults += 1
                events.append("step \(step) device \(d) sync, fault \(fault), failed: \(error)")
            } else {
                failures.append("step \(step): device \(d)'s sync failed: \(error)")
            }
        }
    }

    // MARK: Reading

    private func mention(_ name: String) -> ExerciseMention { ExerciseMention(name: name, span: Span(0, name.count)) }

    private func liveIDs(_ db: GymLogDatabase) throws -> Set<String> {
        Set(try db.read { try String.fetchAll($0, sql: "SELECT id FROM sets WHERE deleted_at IS NULL") })
    }

    private func export(_ db: GymLogDatabase, _ format: ExportFormat) throws -> String {
        var writer = format.makeWriter()
        format.appendHeader(to: &writer, unit: .kg)
        try db.forEachExportRow(ExportFilter()) { format.append($0, to: &writer, unit: .kg) }
        if format.carriesBodyweight { try db.forEachExportBodyweight(ExportFilter()) { format.append($0, to: &writer) } }
        return String(decoding: writer.buffer, as: UTF8.self)
    }

    /// A Strong export of two workouts on days no other file of the run uses, in 2020.
    private mutating func strongFile(number: Int) -> String {
        var text = "Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes\n"
        for day in 0..<2 {
            let date = Date(timeIntervalSince1970: 1_577_872_800 + Double(number * 3 + day) * 86_400)
            let stamp = ISO8601DateFormatter.string(from: date, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
            for order in 1...random.int(2...6) {
                text += "\(stamp) 07:00:00,Imported \(number),\(random.pick(["Bench Press", "Squat", "Deadlift"])),\(order),\(random.int(8...80) * 5 / 2),\(random.int(1...12)),0,0,\n"
            }
        }
        return text
    }
}

