import Foundation
import GRDB
import GymLogCore
import GymLogTestSupport
@testable import GymLogStore
import GymLogWire
import GymLogSyncClient
#if canImport(FoundationNetworking)
import FoundationNetworking
import SplitMix
#endif

extension Sim {
    /// A value shared by the simulation and the closures it hands to the code under test.
    /// Only one actor runs at a time (see `Turns`); the lock keeps the compiler and TSan honest.
    final class Box<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: T
        init(_ value: T) { self.value = value }
        func with<R>(_ body: (inout T) throws -> R) rethrows -> R { lock.lock(); defer { lock.unlock() }; return try body(&value) }
        var get: T { with { $0 } }
    }

    /// Runs concurrent actors one at a time: an actor blocks at every `gate`, and only when
    /// every live actor is blocked does the scheduler wake one, chosen by the seed. Actors
    /// interleave only at gates (before each local operation and each HTTP request), so the
    /// interleaving is random yet replayable.
    actor Turns {
        private var random: SplitMix64
        private var live = Set<Int>()
        private var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
        private let clock: FakeClock
        private(set) var steps = 0

        init(seed: UInt64, clock: FakeClock) { random = SplitMix64(seed: seed); self.clock = clock }

        func enter(_ ids: [Int]) { live.formUnion(ids) }

        func gate(_ id: Int) async {
            await withCheckedContinuation { continuation in
                waiting[id] = continuation
                releaseIfAllWaiting()
            }
        }

        func leave(_ id: Int) {
            live.remove(id)
            releaseIfAllWaiting()
        }

        private func releaseIfAllWaiting() {
            guard !waiting.isEmpty, waiting.count == live.count else { return }
            let chosen = random.pick(waiting.keys.sorted())
            steps += 1
            // Time passes between steps: mostly seconds, sometimes an hour.
            let elapsed = random.chance(0.02) ? Int64(random.int(600_000...3_600_000)) : Int64(random.int(0...5_000))
            clock.advance(elapsed)
            waiting.removeValue(forKey: chosen)!.resume()
        }
    }
}

// MARK: Devices

extension Sim {
    /// One client database with its own skewed clock and seeded ids.
    final class Device: @unchecked Sendable {
        let index: Int
        let path: String
        let db: GymLogDatabase
        let skewMs: Box<Int64>
        var random: SplitMix64
        var stats = OpStats()

        /// `accountKey`: the account's key in the device's settings, as the CLI's are once
        /// logged in to an encrypted account (ids derived from names are keyed as they are
        /// made); without it, they are keyed by the sync engine before they are sent.
        init(index: Int, directory: URL, seed: UInt64, clock: FakeClock, skewMs: Int64, accountKey: AccountKey?) throws {
            self.index = index
            self.path = directory.appendingPathComponent("device-\(index).sqlite").path
            let skew = Box(skewMs)
            self.skewMs = skew
            let ids = Box(SplitMix64(seed: seed ^ 0xD1CE))
            random = SplitMix64(seed: seed)
            let env = Environment(
                now: { clock.now() + skew.get },
                utcOffset: { _ in 3600 },
                newID: { ids.with { $0.uuid(millis: clock.now() + skew.get) } })
            var settings = Settings()
            if let accountKey { settings.account = "lifter"; settings.accountKey = accountKey.phrase.joined(separator: " ") }
            db = try GymLogDatabase(path: path, environment: env, settings: settings)
        }

        var deviceID: String { db.deviceID }
        var replica: GymLogDatabase { db }

        static let exerciseNames = ["bench press", "squat", "deadlift", "overhead press", "barbell row", "pull up"]
        static let newNames = ["bench", "back squat", "conventional deadlift", "press", "pendlay row", "chin up", "larsen press"]

        /// Does one random user action. A refusal the user would see (`UserError`: nothing to
        /// undo, no such set...) is part of the game; any other error is a bug.
        /// `planEntities` adds routines and bodyweights to the mix, drawn first so that runs
        /// without them draw exactly as before (a recorded seed replays the same run).
        func randomOperation(planEntities: Bool = false) throws {
            if planEntities, random.chance(0.08) {
                do {
                    switch random.int(0..<3) {
                    case 0:
                        let lines = (0..<random.int(1...3)).map { _ in
                            "\(random.pick(Self.exerciseNames)) \(random.int(1...5))x\(random.int(3...12))" + (random.chance(0.5) ? " linear +2.5" : "")
                        }
                        let name = random.pick(["Push A", "Pull A", "Legs"])
                        _ = try db.saveRoutine(name: name, text: "# \(name)\n" + lines.joined(separator: "\n") + "\n", lines: lines, typed: "routine add")
                    case 1:
                        _ = try db.deleteRoutine(named: random.pick(["Push A", "Pull A", "Legs"]), typed: "routine rm")
                    default:
                        _ = try db.logBodyweight(Weight(Fixed(thousandths: Int64(random.int(1400...2000)) * 50), random.chance(0.8) ? .kg : .lb),
                                                 typed: "bw")
                    }
                    stats.plans += 1
                } catch is UserError {
                    stats.refused += 1
                }
                return
            }
            let roll = random.int(0..<100)
            do {
                switch roll {
                case 0..<30:
                    let name = random.pick(Self.exerciseNames)
                    let spec = randomSpec()
                    _ = try db.logSets(exercise: ExerciseMention(name: name, span: Span(0, name.count)),
                                       specs: Array(repeating: spec, count: random.int(1...3)))
                    stats.logged += 1
                case 30..<40:
                    _ = try db.repeatLast(randomPatch())
                    stats.repeated += 1
                case 40..<50:
                    _ = try db.undo(confirmed: true)
                    stats.undone += 1
                case 50..<56:
                    _ = try db.redo(confirmed: true)
                    stats.redone += 1
                case 56..<72:
                    _ = try db.editSet(random.chance(0.3) ? .last : .number(random.int(1...6)), patch: randomPatch())
                    stats.edited += 1
                case 72..<80:
                    _ = try db.deleteSet(random.chance(0.3) ? .last : .number(random.int(1...6)))
                    stats.deleted += 1
                case 80..<85:
                    _ = try db.startWorkout(name: random.chance(0.5) ? random.pick(["push", "pull", "legs", "upper"]) : nil)
                    stats.workouts += 1
                case 85..<90:
                    _ = try db.finishWorkout()
                    stats.workouts += 1
                case 90..<95:
                    _ = try db.noteWorkout(random.pick(["felt strong", "tired", "gym busy", "new shoes", "☃ cold"]))
                    stats.notes += 1
                case 95..<98:
                    _ = try db.renameExercise(random.pick(Self.exerciseNames + Self.newNames), to: random.pick(Self.exerciseNames + Self.newNames))
                    stats.renames += 1
                default:
                    _ = try db.addAlias(random.pick(["bp", "sq", "dl", "ohp", "row"]), for: random.pick(Self.exerciseNames + Self.newNames))
                    stats.aliases += 1
                }
            } catch is UserError {
                stats.refused += 1
            }
        }

        private func randomLoad() -> LoadSpec {
            .weight(Fixed(thousandths: Int64(random.int(8...80)) * 2500), random.chance(0.9) ? .kg : .lb)
        }

        private func randomSpec() -> SetSpec {
            SetSpec(kind: random.chance(0.85) ? .working : random.pick(SetKind.allCases), load: randomLoad(),
                    reps: random.int(1...15), rpe: random.chance(0.4) ? Fixed(thousandths: Int64(random.int(12...20)) * 500) : nil,
                    note: random.chance(0.1) ? random.pick(["easy", "grindy", "paused", "belt"]) : nil)
        }

        private func randomPatch() -> SetPatch {
            var patch = SetPatch()
            switch random.int(0..<5) {
            case 0: patch.load = randomLoad()
            case 1: patch.reps = random.int(1...15)
            case 2: patch.rpe = Fixed(thousandths: Int64(random.int(12...20)) * 500)
            case 3: patch.note = random.pick(["form check", "left knee", "pb attempt"])
            default: patch.load = randomLoad(); patch.reps = random.int(1...15)
            }
            return patch
        }

        /// Every synced row as `entity/id -> field -> (value, clock)`. Stub parents inserted
        /// ahead of their row (no clocks) hold no fields and are left out.
        func state() throws -> [String: [String: WireField]] {
            try db.read { db in
                var out: [String: [String: WireField]] = [:]
                for entity in EntityKind.allCases {
                    let columns = RowWriter.columns(entity).sorted()
                    for row in try Row.fetchAll(db, sql: "SELECT id, clocks, extra, \(columns.joined(separator: ", ")) FROM \(entity.rawValue)") {
                        let clocks = try JSONDecoder().decode([String: String].self, from: Data((row[1] as String).utf8))
                        var fields: [String: WireField] = [:]
                        for (i, name) in columns.enumerated() {
                            guard let clock = clocks[name] else { continue }
                            fields[name] = WireField(v: FieldValue(row[3 + i] as DatabaseValue), c: HLC(clock)!)
                        }
                        if let extra = row[2] as String? {
                            for (name, value) in try JSONDecoder().decode([String: FieldValue].self, from: Data(extra.utf8)) {
                                if let clock = clocks[name] { fields[name] = WireField(v: value, c: HLC(clock)!) }
                            }
                        }
                        if !fields.isEmpty { out["\(entity.rawValue)/\(row[0] as String)"] = fields }
                    }
                }
                return out
            }
        }

        func lastSeq() throws -> Int64 { try db.read { try Int64.fetchOne($0, sql: "SELECT last_seq FROM device") ?? -1 } }
        func outboxDepth() throws -> Int { try db.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM outbox") ?? -1 } }
        func integrity() throws -> String { try db.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") ?? "" } }
    }

    struct OpStats: Sendable {
        var logged = 0, repeated = 0, undone = 0, redone = 0, edited = 0, deleted = 0
        var workouts = 0, notes = 0, renames = 0, aliases = 0, refused = 0
        /// Routines saved or deleted and bodyweights logged (`Options.planEntities`).
        var plans = 0
        var total: Int { logged + repeated + undone + redone + edited + deleted + workouts + notes + renames + aliases + plans }
        static func + (a: OpStats, b: OpStats) -> OpStats {
            OpStats(logged: a.logged + b.logged, repeated: a.repeated + b.repeated, undone: a.undone + b.undone,
                    redone: a.redone + b.redone, edited: a.edited + b.edited, deleted: a.deleted + b.deleted,
                    workouts: a.workouts + b.workouts, notes: a.notes + b.notes, renames: a.renames + b.renames,
                    aliases: a.aliases + b.aliases, refused: a.refused + b.refused, plans: a.plans + b.plans)
        }
    }
}
