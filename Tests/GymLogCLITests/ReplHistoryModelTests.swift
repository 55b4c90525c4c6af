import Foundation
import GRDB
import GymLogCore
import GymLogStore
@testable import GymLogCLI
import GymLogSyncClient
import GymLogTestSupport
import GymLogWire
import SplitMix
import Testing

/// The model of the history through the REPL (issue 44): seeded random sessions of what a
/// lifter types, on two devices that log in, out and sync against the real `gymlog-server`,
/// checked after every line against a plain reference model. Where `HistoryModelTests` drives
/// the store, this one types lines: routines (`start`, `next`, `ok`, `ok 135`, `ok x4`, `skip`)
/// in either unit over a history in the other, `+`, supersets, missed attempts, `edit`,
/// `delete`, `undo`/`undo!`, `redo`, back-dated sets, workouts renamed and moved, `config set
/// unit`, the account's own export imported again, `login`, `logout` and `key enable`.
///
/// The model knows what each line must do without asking the database: the sets it makes
/// (each with the weight, unit and reps typed, a bare number in the lifter's unit, or in the
/// unit of the set shown or repeated), the one it edits or deletes, and what `undo` and `redo`
/// bring back (its own stack of this device's actions). After every line the acting device's
/// changes must be exactly those; after the run every device, synced, must hold the model's
/// live sets with the model's values, and export the same.
///
/// `GYMLOG_RELIABILITY_SEED` replays a run; `GYMLOG_RELIABILITY_SCALE` makes it longer.
@Suite("REPL history model", .serialized) struct ReplHistoryModelTests {
    @Test func randomSessionsTypedOnTwoDevicesKeepEverySetAsTypedAndLoseNothing() async throws {
        let seed = Sim.seed()
        let run = try await ReplModelRun(seed: seed, steps: 260 * Sim.scale)
        try await run.play()
        print("repl-history-model: seed=\(seed) steps=\(run.steps) encrypted-from-start=\(run.encryptedFromStart) \(run.counts.summary) "
              + "live-sets=\(run.model.filter { $0.value.live }.count) outcome=\(run.failures.isEmpty ? "ok" : "failed")")
        #expect(run.failures.isEmpty, "seed \(seed) (GYMLOG_RELIABILITY_SEED=\(seed) replays it):\n\(run.failures.prefix(12).joined(separator: "\n"))")
        if !run.failures.isEmpty, let first = run.firstFailureLine {
            // The lines up to the first failure, for whoever replays the seed.
            print(run.trace.lines[max(0, first - 40)...min(first, run.trace.lines.count - 1)].joined(separator: "\n"))
        }
    }
}

/// A set's values as the model holds them, a column each (`weight`, `weight_unit`, `reps`, ...),
/// the exercise by the name typed: what the lifter typed, compared as the database stores it.
private typealias SetFields = [String: String]

/// One set of the model: its values and whether it is live.
private struct ModelSet {
    var fields: SetFields
    var live: Bool
}

/// An action on a device's undo stack, as the model expects `undo` to take it back.
private struct ModelAction {
    let label: String
    var created: Set<String> = []
    var deleted: Set<String> = []
    /// Per edited set, the columns the edit changed: before and after.
    var edited: [String: (before: SetFields, after: SetFields)] = [:]
}

/// One device: its files, its REPL and what the model knows of it.
private final class ReplDevice {
    let index: Int
    /// Every line typed and what it answered, for the report of a failed run (both devices append).
    let trace: Trace
    let output = CapturedOutput()
    let repl: ReplSession
    var unit: WeightUnit = .kg
    var loggedIn = false
    /// The answer to a recovery-phrase question (`login`): the account's phrase once it has one.
    var phrase = ""
    var undo: [ModelAction] = []
    var redo: [ModelAction] = []
    /// The sets the newest line made, while `+`, `edit last` and `delete last` act on its last one.
    var lastLine: (ids: [String], fields: SetFields)?

    init(index: Int, directory: String, clock: FakeClock, trace: Trace, phrase: @escaping () -> String) throws {
        self.index = index
        self.trace = trace
        let dir = directory + "/device-\(index)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let output = self.output
        var context = CLIContext(paths: Paths(database: dir + "/gymlog.sqlite", config: dir + "/config.toml", history: dir + "/history"),
                                 settings: Settings(), environment: clock.environment, out: { output.out($0) }, err: { output.err($0) })
        context.readSecret = { _ in phrase() }
        repl = ReplSession(context: context)
    }

    var db: GymLogDatabase { get throws { try repl.context.db() } }

    /// Types `line`; what it printed, plain.
    func type(_ line: String) async -> (outcome: ReplSession.Outcome, out: [String], err: [String]) {
        let outcome = await repl.handle(line)
        let printed = output.take(plain: true)
        trace.append("device \(index): \(line) -> \(outcome) \((printed.out + printed.err).prefix(2).joined(separator: " / ").prefix(160))")
        return (outcome, printed.out, printed.err)
    }

    /// Every set in the database: its values (as `SetFields`, the exercise by stored name) and
    /// liveness, by id as `canonical` names it.
    func sets(_ canonical: (String) -> String) throws -> [String: (fields: SetFields, live: Bool)] {
        try db.read { db in
            var all: [String: (SetFields, Bool)] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT s.id, e.name, s.weight, s.weight_unit, s.bodyweight, s.reps, s.duration_s, s.deleted_at IS NULL AS live
                FROM sets s JOIN exercises e ON e.id = s.exercise_id
                """) {
                let weight = (row["weight"] as String?).flatMap { Fixed(parsing: $0) }.map { "\($0)" } ?? ""
                all[canonical(row["id"])] = ([
                    "exercise": (row["name"] as String).lowercased(), "weight": weight, "weight_unit": row["weight_unit"] ?? "",
                    "bodyweight": "\(row["bodyweight"] as Int)", "reps": (row["reps"] as Int?).map { "\($0)" } ?? "",
                    "duration_s": (row["duration_s"] as Int?).map { "\($0)" } ?? "",
                ], row["live"])
            }
            return all
        }
    }
}

/// The lines of a run, in order, as they were typed and answered.
private final class Trace {
    var lines: [String] = []
    func append(_ line: String) { lines.append(line) }
}

/// One seeded run of the REPL model.
private final class ReplModelRun {
    let steps: Int
    let server: ServerInstance
    let token: String
    let clock: FakeClock
    let directory: String
    var random: SplitMix64
    /// Half the runs start on an account made before encryption (in the clear), which a device
    /// later encrypts with `key enable`; the other half on a new account, encrypted from its first login.
    let encryptedFromStart: Bool
    var devices: [ReplDevice] = []
    /// Every set any line made, by id: the reference the devices must match.
    var model: [String: ModelSet] = [:]
    var failures: [String] = [] {
        didSet { if firstFailureLine == nil, !failures.isEmpty { firstFailureLine = trace.lines.count - 1 } }
    }
    /// Where in the trace the first failure was found.
    var firstFailureLine: Int?
    var counts = Counts()
    /// The account's recovery phrase, once a device made it.
    var phrase = ""
    /// The stored name of each exercise typed, learnt the first time (`squat` may be stored as the catalog's name).
    var storedNames: [String: String] = [:]
    /// Per routine (by lower-case name), the unit it was written in and the unit each line names.
    var routines: [String: (written: WeightUnit, lines: [WeightUnit?])] = [:]
    /// The account's key once a device has it: a content-derived id (an exercise's, an
    /// imported set's) is stored keyed with it on a logged-in device, so the model names every
    /// set by that form, whatever a device not logged in yet holds.
    var accountKey: AccountKey?
    let trace = Trace()
    private var step = 0

    struct Counts {
        var lines = 0, refused = 0, undos = 0, redos = 0, oks = 0, skips = 0, imports = 0, syncs = 0, logins = 0, logouts = 0, keyEnables = 0, unitChanges = 0
        var summary: String {
            "lines=\(lines) refused=\(refused) undos=\(undos) redos=\(redos) oks=\(oks) skips=\(skips) imports=\(imports) syncs=\(syncs) "
                + "logins=\(logins) logouts=\(logouts) key-enables=\(keyEnables) unit-changes=\(unitChanges)"
        }
    }

    static let exercises = ["bench press", "squat", "deadlift", "overhead press"]
    static let routineTexts = [
        "push": "# Push\nbench press 3x5 linear +2.5\noverhead press 3x8-12 double +2.5\n",
        "pounds": "# Pounds\nsquat 3x5 linear +5lb\ndeadlift 2x5 225lb\n",
    ]

    init(seed: UInt64, steps: Int) async throws {
        self.steps = steps
        random = SplitMix64(seed: seed)
        directory = try temporaryDirectory("gymlog-repl-model")
        server = try ServerInstance()
        token = try server.addUser("lifter")
        encryptedFromStart = random.chance(0.5)
        if !encryptedFromStart {
            // An account an older client filled in the clear: one exercise, no set.
            let transport = HTTPSyncTransport(baseURL: URL(string: server.url)!, token: token)
            let clock = HLC(millis: 1_763_600_000_000, counter: 0, node: "old-device")
            _ = try await transport.push(PushRequest(deviceID: "old-device", events: [
                PushEvent(seq: 1, idempotencyKey: "old-1", entity: "exercises", entityID: "0193a1b2-0000-7000-8000-000000000002", op: "create",
                          fields: ["name": WireField(v: .text("Plain Pendlay Row"), c: clock), "kind": WireField(v: .text("weighted"), c: clock)]),
            ]))
        }
        clock = FakeClock(millis: 1_763_700_000_000)
        for i in 0..<2 {
            devices.append(try ReplDevice(index: i, directory: directory, clock: clock, trace: trace, phrase: { [unowned self] in self.phrase }))
        }
    }

    func play() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Device 0 writes both routines, one in kg and one in lb (a routine keeps the unit it was
        // written in); device 1 gets them by sync (until then `start push` starts a plain workout).
        for (name, text) in Self.routineTexts.sorted(by: { $0.key < $1.key }) {
            let unit: WeightUnit = name == "pounds" ? .lb : .kg
            if devices[0].unit != unit {
                _ = await devices[0].type("config set unit \(unit.rawValue)")
                devices[0].unit = unit
            }
            let file = directory + "/\(name).txt"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            await line("routine add --file \(file)", on: 0, journalled: true)
            // The unit each line names (`+5lb`, `225lb`); nil: the routine's own.
            routines[name] = (unit, text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { text in
                let words = text.lowercased().split(separator: " ")
                return words.contains { $0.hasSuffix("lb") } ? .lb : words.contains { $0.hasSuffix("kg") } ? .kg : nil
            })
        }
        for s in 0..<steps {
            step = s
            // Each line a little later: every write's clock follows the order of the steps.
            clock.advance(Int64(random.int(20_000...240_000)))
            if random.chance(0.02) { clock.advance(Int64(random.int(2...30)) * 3_600_000) }
            try await act(on: random.int(0..<devices.count))
            if failures.count > 20 { return }
        }
        try await converge()
    }

    // MARK: Lines

    private func act(on d: Int) async throws {
        let device = devices[d]
        let roll = random.int(0..<100)
        switch roll {
        case 0..<18:
            let name = random.pick(Self.exercises)
            let weight = Fixed(thousandths: Int64(random.int(8...80)) * 2500)
            let reps = random.int(1...12), count = random.int(1...3)
            let typedUnit: WeightUnit? = random.chance(0.35) ? random.pick([.kg, .lb]) : nil
            let text = "\(name) \(weight)\(typedUnit?.rawValue ?? "")x\(reps)" + (count > 1 ? "x\(count)" : "")
            await logLine(text, on: d, expecting: Array(repeating: weighted(name, weight, typedUnit ?? device.unit, reps), count: count))
        case 18..<22:
            let reps = random.int(1...15)
            await logLine("pull up bw x\(reps)", on: d, expecting: [["exercise": "pull up", "weight": "", "weight_unit": "", "bodyweight": "1", "reps": "\(reps)", "duration_s": ""]])
        case 22..<30:
            // `+`, `+ x6`, `+ 102.5`: the last set again, a bare weight in that set's unit.
            guard let last = device.lastLine?.fields else { await sync(d); return }
            var expected = last
            var text = "+"
            switch random.int(0..<3) {
            case 0: break
            case 1: let reps = random.int(1...12); text += " x\(reps)"; expected["reps"] = "\(reps)"
            default:
                guard last["weight"] != "" else { break }
                let weight = Fixed(thousandths: Int64(random.int(8...80)) * 2500)
                text += " \(weight)"; expected["weight"] = "\(weight)"
            }
            await logLine(text, on: d, expecting: [expected])
        case 30..<36:
            // `edit 2 x4` or `edit 2 105`: set 2 of `show` changes, a bare weight in its own unit.
            guard let (number, id) = await shownSet(on: d), let fields = model[id]?.fields else { return }
            var patch: SetFields = [:]
            let text: String
            if random.chance(0.5) || fields["weight"] == "" {
                let reps = random.int(1...12); text = "edit \(number) x\(reps)"; patch["reps"] = "\(reps)"
            } else {
                let weight = Fixed(thousandths: Int64(random.int(8...80)) * 2500); text = "edit \(number) \(weight)"; patch["weight"] = "\(weight)"
            }
            await editLine(text, on: d, id: id, patch: patch)
        case 36..<40:
            guard let (number, id) = await shownSet(on: d) else { return }
            await deleteLine("delete \(number)", on: d, id: id)
        case 40..<50:
            await undoLine(random.chance(0.5) ? "undo!" : "undo", on: d, direction: .undo)
        case 50..<54:
            await undoLine(random.chance(0.5) ? "redo!" : "redo", on: d, direction: .redo)
        case 54..<57:
            await finishLine(on: d)
        case 57..<60:
            // A set of another day (`log ... --at`), into a past workout.
            let name = random.pick(Self.exercises)
            let weight = Fixed(thousandths: Int64(random.int(8...80)) * 2500), reps = random.int(1...10)
            let typedUnit: WeightUnit? = random.chance(0.5) ? random.pick([.kg, .lb]) : nil
            let entry = "\(name) \(weight)\(typedUnit?.rawValue ?? "")x\(reps)"
            // The undo stack names the set line, not the command around it.
            await logLine("log \(entry) --at \"\(random.int(2...20)) days ago 18:00\"", on: d,
                          expecting: [weighted(name, weight, typedUnit ?? device.unit, reps)], repeatable: false, label: entry)
        case 60..<62:
            await line("note felt strong \(step)", on: d, journalled: true)
        case 62..<65:
            let unit: WeightUnit = device.unit == .kg ? .lb : .kg
            let result = await device.type("config set unit \(unit.rawValue)")
            if result.outcome == .ok { device.unit = unit; counts.unitChanges += 1 } else { failures.append("step \(step): config set unit: \(result.err)") }
        case 65..<80:
            await routineLine(on: d)
        case 80..<84:
            await importOwnExport(from: d)
        case 84..<88:
            await accountLine(on: d)
        case 88..<91:
            // A superset: two exercises back to back, each part as typed.
            let names = [random.pick(Self.exercises), "pull up"]
            let weight = Fixed(thousandths: Int64(random.int(8...80)) * 2500)
            let reps = random.int(1...12), pulls = random.int(1...12)
            let typedUnit: WeightUnit? = random.chance(0.5) ? random.pick([.kg, .lb]) : nil
            // `+` after a superset repeats the round: not modelled, so it is not offered next.
            await logLine("\(names[0]) \(weight)\(typedUnit?.rawValue ?? "")x\(reps) & pull up bw x\(pulls)", on: d,
                          expecting: [weighted(names[0], weight, typedUnit ?? device.unit, reps),
                                      ["exercise": "pull up", "weight": "", "weight_unit": "", "bodyweight": "1", "reps": "\(pulls)", "duration_s": ""]],
                          repeatable: false)
        case 91..<93:
            // A missed attempt: the load with no rep, marked failed.
            let name = random.pick(Self.exercises)
            let weight = Fixed(thousandths: Int64(random.int(8...80)) * 2500)
            await logLine("\(name) \(weight)x0 f", on: d, expecting: [weighted(name, weight, device.unit, 0)])
        case 93..<95:
            // The last workout renamed or moved to another start: no set changes, and `undo` takes it back.
            if random.chance(0.5) {
                await line("edit --workout -1 --name Day \(step)", on: d, journalled: true)
            } else {
                await line("edit --workout -1 --start \"\(random.int(1...9)) days ago 07:00\"", on: d, journalled: true)
            }
        default:
            await sync(d)
        }
    }

    private func weighted(_ name: String, _ weight: Fixed, _ unit: WeightUnit, _ reps: Int) -> SetFields {
        ["exercise": name, "weight": "\(weight)", "weight_unit": unit.rawValue, "bodyweight": "0", "reps": "\(reps)", "duration_s": ""]
    }

    /// Reads device `d`'s sets, types `text`, reads them again: what every line's check starts
    /// from. Counts the line, and its refusal.
    private func typed(_ text: String, on d: Int) async -> (result: (outcome: ReplSession.Outcome, out: [String], err: [String]),
                                                            before: [String: (fields: SetFields, live: Bool)], after: [String: (fields: SetFields, live: Bool)]) {
        let device = devices[d]
        let before = (try? sets(device)) ?? [:]
        let result = await device.type(text)
        counts.lines += 1
        if result.outcome != .ok { counts.refused += 1 }
        return (result, before, (try? sets(device)) ?? [:])
    }

    /// A line that changes no set (`finish`, `note`, `start`, `skip`, `routine add`): on the
    /// undo stack when `journalled` and it succeeded; it changes no set, whatever it is.
    @discardableResult
    private func line(_ text: String, on d: Int, journalled: Bool) async -> (outcome: ReplSession.Outcome, out: [String], err: [String]) {
        let device = devices[d]
        let (result, before, after) = await typed(text, on: d)
        if result.outcome == .ok {
            if journalled { push(ModelAction(label: text), on: device) }
            device.lastLine = nil
        }
        let changed = Self.changes(before, after)
        if !changed.isEmpty { failures.append("step \(step): device \(d) `\(text)` changed sets it should not: \(changed.prefix(3))") }
        return result
    }

    /// `finish`: on the undo stack when it finished a workout (not "No workout is open", not an
    /// empty workout discarded).
    private func finishLine(on d: Int) async {
        let device = devices[d]
        let (result, before, after) = await typed("finish", on: d)
        // An empty workout discarded is an action too: `undo` brings it back.
        if result.outcome == .ok, let said = result.out.first, said.hasPrefix("Finished") || said.contains("the empty workout was discarded") {
            push(ModelAction(label: "finish"), on: device)
        }
        device.lastLine = nil
        let changed = Self.changes(before, after)
        if !changed.isEmpty { failures.append("step \(step): device \(d) `finish` changed sets: \(changed.prefix(3))") }
    }

    /// A line that logs sets: exactly `expecting`, in order, each with its values as typed.
    private func logLine(_ text: String, on d: Int, expecting: [SetFields], repeatable: Bool = true, label: String? = nil) async {
        let device = devices[d]
        let (result, before, after) = await typed(text, on: d)
        let made = after.filter { before[$0.key] == nil }
        guard result.outcome == .ok else {
            if !made.isEmpty { failures.append("step \(step): device \(d) `\(text)` was refused (\(result.err)) yet made \(made.count) sets") }
            return
        }
        let others = Self.changes(before, after.filter { before[$0.key] != nil })
        if !others.isEmpty { failures.append("step \(step): device \(d) `\(text)` changed other sets: \(others.prefix(3))") }
        if made.count != expecting.count {
            failures.append("step \(step): device \(d) `\(text)` made \(made.count) sets, not \(expecting.count): \(result.out.prefix(4))")
        }
        var ids: [String] = []
        // The ids are time-ordered (UUIDv7, or the test clock's counter): the sets in the order typed.
        for (i, (id, set)) in made.sorted(by: { $0.key < $1.key }).enumerated() {
            ids.append(id)
            let want = i < expecting.count ? expecting[i] : expecting.last ?? [:]
            check(set.fields, against: want, what: "device \(d) `\(text)`")
            model[id] = ModelSet(fields: want, live: true)
        }
        // The ids are time-ordered (UUIDv7): the last is the set `+` and `edit last` act on next.
        ids.sort()
        push(ModelAction(label: label ?? text, created: Set(ids)), on: device)
        device.lastLine = repeatable ? (ids, expecting.last ?? [:]) : nil
    }

    private func editLine(_ text: String, on d: Int, id: String, patch: SetFields) async {
        let device = devices[d]
        let (result, before, after) = await typed(text, on: d)
        guard result.outcome == .ok else {
            if !Self.changes(before, after).isEmpty { failures.append("step \(step): device \(d) refused `\(text)` yet changed sets") }
            return
        }
        // The set as this device held it (another device's edit may not be here yet), with the patch.
        guard let was = before[id]?.fields, model[id] != nil else { return failures.append("step \(step): device \(d) `\(text)` edited \(id), a set the model does not know") }
        let touched = patch.keys.filter { was[$0] != patch[$0] }
        let changed = Self.changes(before, after)
        // An edit to the values the set has changes nothing and is no action.
        if Set(changed.map(\.id)) != (touched.isEmpty ? [] : [id]) { failures.append("step \(step): device \(d) `\(text)` changed \(changed.map(\.id)), not set \(id)") }
        guard !touched.isEmpty else { return }
        let want = was.merging(patch) { $1 }
        if after[id]?.fields != want {
            failures.append("step \(step): device \(d) `\(text)` stored \(after[id]?.fields ?? [:]), not \(want)")
        }
        for column in touched { model[id]?.fields[column] = patch[column] }
        var action = ModelAction(label: text)
        action.edited[id] = (was.filter { touched.contains($0.key) }, patch.filter { touched.contains($0.key) })
        push(action, on: device)
        if let last = device.lastLine, last.ids.last == id { device.lastLine = (last.ids, last.fields.merging(patch) { $1 }) }
    }

    private func deleteLine(_ text: String, on d: Int, id: String) async {
        let device = devices[d]
        let (result, before, after) = await typed(text, on: d)
        guard result.outcome == .ok else {
            if !Self.changes(before, after).isEmpty { failures.append("step \(step): device \(d) refused `\(text)` yet changed sets") }
            return
        }
        let died = before.filter { $0.value.live && after[$0.key]?.live == false }.map(\.key)
        if died != [id] { failures.append("step \(step): device \(d) `\(text)` deleted \(died), not the last set \(id)") }
        model[id]?.live = false
        push(ModelAction(label: text, deleted: [id]), on: device)
        device.lastLine = nil
    }

    private func undoLine(_ text: String, on d: Int, direction: UndoDirection) async {
        let device = devices[d]
        let before = (try? sets(device)) ?? [:]
        let result = await device.type(text)
        let after = (try? sets(device)) ?? [:]
        let verb = direction == .undo ? "Undid" : "Redid"
        let expected = direction == .undo ? device.undo.last : device.redo.last
        device.lastLine = nil
        guard result.outcome == .ok else {
            let words = result.err.joined(separator: " ")
            if !Self.changes(before, after).isEmpty { failures.append("step \(step): device \(d) `\(text)` failed (\(words)) yet changed sets") }
            if words.contains("Nothing to") {
                if let expected { failures.append("step \(step): device \(d) `\(text)` found nothing, but the model's next is `\(expected.label)`") }
            } else if words.contains("Cannot \(direction == .undo ? "undo" : "redo")") {
                // Another device changed what the action wrote: it leaves the stack.
                if direction == .undo { device.undo.removeLast() } else { device.redo.removeLast() }
            } else if !words.contains("belongs to the workout of") {
                failures.append("step \(step): device \(d) `\(text)`: \(words)")
            }
            return
        }
        guard let action = expected else {
            return failures.append("step \(step): device \(d) `\(text)` did \(result.out.prefix(2)), but the model has nothing to \(direction)")
        }
        let said = result.out.first ?? ""
        if !(said.hasPrefix("\(verb) \(action.label):") || said.hasPrefix("\(verb) `\(action.label)` in the workout of")) {
            failures.append("step \(step): device \(d) `\(text)` said \"\(said)\"; the model's next is `\(action.label)`")
        }
        if direction == .undo { device.undo.removeLast(); device.redo.append(action); counts.undos += 1 } else { device.redo.removeLast(); device.undo.append(action); counts.redos += 1 }
        // What the action made goes (or comes back), what it deleted comes back (or goes), and its edits are reverted (or made again).
        var expectedLive = Set(before.filter(\.value.live).keys)
        let (gone, back) = direction == .undo ? (action.created, action.deleted) : (action.deleted, action.created)
        expectedLive.subtract(gone)
        expectedLive.formUnion(back)
        for id in gone { model[id]?.live = false }
        for id in back { model[id]?.live = true }
        for (id, edit) in action.edited {
            let values = direction == .undo ? edit.before : edit.after
            for (column, value) in values {
                model[id]?.fields[column] = value
                if let now = after[id]?.fields[column], now != value {
                    failures.append("step \(step): device \(d) `\(text)` of `\(action.label)` left \(column) \(now), not \(value)")
                }
            }
        }
        let live = Set(after.filter(\.value.live).keys)
        if live != expectedLive {
            failures.append("step \(step): device \(d) `\(text)` of `\(action.label)`: live sets differ from the model's: "
                + "\(live.subtracting(expectedLive).count) more, \(expectedLive.subtracting(live).count) fewer")
        }
    }

    /// `next --json`, then `ok` as suggested, changed (`ok x4`, `ok 135`) or `skip`; with no
    /// routine workout open, `start` one.
    private func routineLine(on d: Int) async {
        let device = devices[d]
        let next = await device.type("next --json")
        guard next.outcome == .ok, let json = try? JSONSerialization.jsonObject(with: Data(next.out.joined(separator: "\n").utf8)) as? [String: Any] else {
            return failures.append("step \(step): device \(d) `next --json`: \(next.out) \(next.err)")
        }
        guard let routine = json["routine"] as? String else {
            // A workout without a routine may be open: `finish` it first.
            await finishLine(on: d)
            let name = random.pick(routines.keys.sorted())
            await line("start \(name)", on: d, journalled: true)
            return
        }
        guard let suggested = json["next"] as? [String: Any], let exercise = suggested["exercise"] as? String else {
            await finishLine(on: d)
            return
        }
        let lineNumber = suggested["line"] as? Int ?? 1
        guard let plan = routines[routine.lowercased()] else { return failures.append("step \(step): device \(d) is in a routine the run never wrote: \(routine)") }
        let planUnit = (lineNumber <= plan.lines.count ? plan.lines[lineNumber - 1] : nil) ?? plan.written
        let shownUnit = (suggested["weight_unit"] as? String).flatMap(WeightUnit.init(rawValue:))
        let shownWeight = (suggested["weight"] as? Double).map { Fixed(rounding: $0) }
        // The plan speaks the unit its line names, else the routine's (the lifter's when written),
        // whatever unit the history is in: the first set of an exercise is shown in it.
        if let shownUnit, suggested["set"] as? Int == 1, shownUnit != planUnit {
            failures.append("step \(step): device \(d) was shown \(exercise) of \(routine) in \(shownUnit.rawValue), not \(planUnit.rawValue): \(suggested)")
        }
        if random.chance(0.12) {
            await line("skip", on: d, journalled: true)
            counts.skips += 1
            return
        }
        let reps = suggested["reps"] as? Int ?? 0
        var expected = weighted(exercise, shownWeight ?? Fixed(0), shownUnit ?? planUnit, reps)
        var text = "ok"
        if shownWeight == nil || random.chance(0.3) {
            // A bare number is in the unit shown, else the line's, else the lifter's: `ok 135` is what was read.
            let weight = Fixed(thousandths: Int64(random.int(8...80)) * 2500)
            text += " \(weight)"; expected["weight"] = "\(weight)"
        } else if random.chance(0.3) {
            let r = random.int(1...12); text += " x\(r)"; expected["reps"] = "\(r)"
        }
        counts.oks += 1
        await logLine(text, on: d, expecting: [expected])
    }

    /// The account's own export, from one device, imported on the other (or the same): once
    /// both hold the history, it adds nothing; `undo` takes an import back whole.
    private func importOwnExport(from d: Int) async {
        let e = random.int(0..<devices.count)
        var bothIn = devices[d].loggedIn && devices[e].loggedIn
        if bothIn {
            let there = await sync(d), here = await sync(e), back = await sync(d)
            bothIn = there && here && back
        }
        let format = random.pick(["native", "strong", "hevy"])
        let file = directory + "/export-\(step).csv"
        let exported = await devices[d].type("export --format \(format) --out \(file)")
        guard exported.outcome == .ok else { return failures.append("step \(step): device \(d) export: \(exported.err)") }
        counts.imports += 1
        let device = devices[e]
        let before = (try? sets(device)) ?? [:]
        let result = await device.type("import \(file)")
        let after = (try? sets(device)) ?? [:]
        let made = Set(after.filter { $0.value.live && before[$0.key]?.live != true }.keys)
        guard result.outcome == .ok else {
            if !made.isEmpty { failures.append("step \(step): device \(e) refused the import yet made \(made.count) sets") }
            return
        }
        if (d == e || bothIn), !made.isEmpty {
            failures.append("step \(step): device \(d)'s \(format) export imported on device \(e), which holds the same history, added \(made.count) sets: \(result.out.prefix(3))")
        }
        // Sets made from another device's history are new here: the model takes them as read.
        for id in made { model[id] = ModelSet(fields: after[id]!.fields, live: true) }
        // An import that wrote nothing is no action: there is nothing to undo. One that made
        // routines (a native export carries them) or workouts and no set is one.
        let wrote = result.out.contains { $0.hasPrefix("Imported") && !$0.hasPrefix("Imported 0 workouts, 0 sets, 0 new exercises") }
            || result.out.contains { $0.contains("routine") && !$0.contains("0 routines") && !$0.lowercased().contains("already") }
        if !made.isEmpty || wrote { push(ModelAction(label: "import \((file as NSString).lastPathComponent)", created: made), on: device) }
        device.lastLine = nil
    }

    /// A set of the workout `show` shows, chosen at random: its number there and its id (as the model names it).
    private func shownSet(on d: Int) async -> (number: Int, id: String)? {
        let shown = await devices[d].type("show --json")
        guard shown.outcome == .ok, let json = try? JSONSerialization.jsonObject(with: Data(shown.out.joined(separator: "\n").utf8)) as? [String: Any],
              let sets = (json["workout"] as? [String: Any])?["sets"] as? [[String: Any]], !sets.isEmpty else { return nil }
        let set = random.pick(sets)
        guard let number = set["number"] as? Int, let id = set["id"] as? String else { return nil }
        return (number, canonical(id))
    }

    /// `login` (the first device of an encrypted account makes its key), `logout`, `key enable`.
    private func accountLine(on d: Int) async {
        let device = devices[d]
        if !device.loggedIn {
            let result = await device.type("login --server \(server.url) --token \(token)")
            if result.outcome == .ok {
                device.loggedIn = true
                counts.logins += 1
                learnPhrase(result.out)
            } else {
                failures.append("step \(step): device \(d) login: \(result.err)")
            }
        } else if !encryptedFromStart, phrase.isEmpty, random.chance(0.5) {
            let result = await device.type("key enable")
            if result.outcome == .ok { counts.keyEnables += 1; learnPhrase(result.out) } else { failures.append("step \(step): device \(d) key enable: \(result.err)") }
        } else {
            let result = await device.type("logout")
            if result.outcome == .ok { device.loggedIn = false; counts.logouts += 1 } else { failures.append("step \(step): device \(d) logout: \(result.err)") }
        }
    }

    /// The recovery phrase a `login` or `key enable` showed (24 numbered words), kept for the other device.
    private func learnPhrase(_ out: [String]) {
        var numbered: [Int: String] = [:]
        for text in out {
            let parts = text.split(separator: " ", omittingEmptySubsequences: true)
            for (i, part) in parts.enumerated() where part.hasSuffix(".") && i + 1 < parts.count {
                if let n = Int(part.dropLast()), (1...24).contains(n) { numbered[n] = String(parts[i + 1]) }
            }
        }
        if numbered.count == 24 {
            phrase = (1...24).map { numbered[$0]! }.joined(separator: " ")
            accountKey = try? AccountKey(phrase: phrase)
            keyModelIDs()
        }
    }

    @discardableResult
    private func sync(_ d: Int) async -> Bool {
        let device = devices[d]
        guard device.loggedIn else { return false }
        counts.syncs += 1
        let result = await device.type("sync")
        guard result.outcome == .ok else {
            let words = result.err.joined(separator: " ")
            // Another device encrypted the account: this one logs in again with the phrase.
            if words.contains("recovery phrase") || words.contains("log in again") {
                let again = await device.type("login --server \(server.url) --token \(token)")
                counts.logins += 1
                guard again.outcome == .ok else { failures.append("step \(step): device \(d) login after key enable: \(again.err)"); return false }
                return await sync(d)
            }
            failures.append("step \(step): device \(d) sync: \(words)")
            return false
        }
        if let parked = result.out.first(where: { $0.contains("set aside") }) { failures.append("step \(step): device \(d) sync: \(parked)") }
        // Another device's newer workout may be the current one now: `+` repeats its last set.
        if !result.out.contains(where: { $0.contains("pulled 0 changes") }) { device.lastLine = nil }
        return true
    }

    // MARK: Checks

    private func sets(_ device: ReplDevice) throws -> [String: (fields: SetFields, live: Bool)] { try device.sets(canonical) }

    /// A set's id as the model names it: keyed with the account's key once there is one.
    private func canonical(_ id: String) -> String {
        guard let accountKey, let uuid = UUID(uuidString: id), uuid.isDerived else { return id }
        return accountKey.keyedID(uuid).uuidString.lowercased()
    }

    /// The account has a key now: every id the model holds takes the form the devices will.
    private func keyModelIDs() {
        model = Dictionary(model.map { (canonical($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
        func keyed(_ action: ModelAction) -> ModelAction {
            var a = action
            a.created = Set(a.created.map(canonical)); a.deleted = Set(a.deleted.map(canonical))
            a.edited = Dictionary(a.edited.map { (canonical($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
            return a
        }
        for device in devices {
            device.undo = device.undo.map(keyed); device.redo = device.redo.map(keyed)
            device.lastLine = device.lastLine.map { ($0.ids.map(canonical), $0.fields) }
        }
    }

    private func push(_ action: ModelAction, on device: ReplDevice) {
        device.undo.append(action)
        device.redo = []
    }

    /// The sets whose values or liveness differ between two readings of one device.
    private static func changes(_ before: [String: (fields: SetFields, live: Bool)], _ after: [String: (fields: SetFields, live: Bool)]) -> [(id: String, was: String, now: String)] {
        after.compactMap { id, now in
            guard let was = before[id] else { return (id, "none", "\(now)") }
            return was.fields == now.fields && was.live == now.live ? nil : (id, "\(was)", "\(now)")
        }.sorted { $0.id < $1.id }
    }

    /// A stored set against the model's values: the same exercise (by its stored name, learnt
    /// once), weight, unit, reps.
    private func check(_ stored: SetFields, against want: SetFields, what: String) {
        var stored = stored
        if let typed = want["exercise"], let name = stored["exercise"] {
            if storedNames[typed] == nil { storedNames[typed] = name }
            if storedNames[typed] == name { stored["exercise"] = typed }
        }
        if stored != want {
            let differing = want.keys.sorted().filter { stored[$0] != want[$0] }.map { "\($0) \(stored[$0] ?? "nil") (want \(want[$0] ?? "nil"))" }
            failures.append("step \(step): \(what) stored \(differing.joined(separator: ", "))")
        }
    }

    /// Every device logs in, syncs three times round, then holds the model's live sets with the
    /// model's values and exports the same.
    private func converge() async throws {
        for (d, device) in devices.enumerated() where !device.loggedIn {
            let result = await device.type("login --server \(server.url) --token \(token)")
            if result.outcome == .ok { device.loggedIn = true; learnPhrase(result.out) } else { failures.append("end: device \(d) login: \(result.err)") }
        }
        for _ in 0..<3 { for d in devices.indices { await sync(d) } }
        let expected = Set(model.filter(\.value.live).keys)
        var exports: [String] = []
        for (d, device) in devices.enumerated() {
            let held = try sets(device)
            let live = Set(held.filter(\.value.live).keys)
            let lost = expected.subtracting(live), extra = live.subtracting(expected)
            if !lost.isEmpty { failures.append("end: device \(d) lacks \(lost.count) live sets, e.g. \(lost.sorted().prefix(3).map { "\($0) \(model[$0]!.fields)" })") }
            if !extra.isEmpty { failures.append("end: device \(d) holds \(extra.count) sets the model does not, e.g. \(extra.sorted().prefix(3))") }
            for id in live.intersection(expected).sorted() { check(held[id]!.fields, against: model[id]!.fields, what: "end: device \(d) set \(id)") }
            if try device.db.read({ try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM outbox") }) != 0 { failures.append("end: device \(d): outbox not empty") }
            let file = directory + "/final-\(d).csv"
            _ = await device.type("export --format native --out \(file)")
            exports.append((try? String(contentsOfFile: file, encoding: .utf8)) ?? "")
        }
        if Set(exports).count != 1 { failures.append("end: the devices' native exports differ") }
    }
}
