import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore
import SplitMix

/// Seeded ids for generated histories (SplitMix64), so a seed always yields the same history.
extension SplitMix64 {
    /// A random version-4 UUID in the store's lower-case text form.
    mutating func uuidKey() -> String {
        let a = next(), b = next()
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: UInt8(ascii: "-"), count: 36)
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 { bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * UInt64(i))) }
        for i in 0..<8 { bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * UInt64(i))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        var j = 0
        for (i, byte) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { j += 1 }
            out[j] = hex[Int(byte >> 4)]; out[j + 1] = hex[Int(byte & 0x0F)]
            j += 2
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Writes a realistic multi-year training history straight into the real schema.
///
/// The file is first opened with `GymLogDatabase(path:)`, so the product's own migrations
/// create the schema and the device row; then sets, workouts, exercises and aliases are
/// bulk-inserted with the raw C API in large transactions (rows carry per-field clocks in
/// the same JSON shape the write pipeline stores). The outbox stays empty: the history
/// stands for changes the server acknowledged long ago. Finally the `records` table is
/// rebuilt by the product itself (marking the e1RM formula stale makes the next
/// `records()` call recompute every exercise's records from its sets).
struct HistoryGenerator {
    var sets: Int
    var seed: UInt64 = 1
    /// How many years the history spans, ending a few days before `now`.
    var years: Double = 8

    /// What the generator wrote.
    struct Summary {
        var sets: Int
        var workouts: Int
        var exercises: Int
        var firstDay: Int64
        var lastDay: Int64
        var insertSeconds: Double
        var recordsSeconds: Double
        var records: Int
        var fileBytes: Int64
    }

    func generate(path: String, progress: (String) -> Void = { _ in }) throws -> Summary {
        let start = monotonicNanos()
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        let deviceID: String
        do {
            let db = try GymLogDatabase(path: path)
            deviceID = db.deviceID
        }

        var rng = SplitMix64(seed: seed)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let end = now - 3 * 86_400_000
        let span = Int64(years * 365.25 * 86_400_000)
        let first = end - span

        // Plan the workout sizes first (20-30 sets each), so the calendar spreads evenly.
        var sizes: [Int] = []
        var planned = 0
        while planned < sets {
            let size = min(Int.random(in: 20...30, using: &rng), sets - planned)
            sizes.append(size); planned += size
        }
        let gap = sizes.isEmpty ? span : span / Int64(sizes.count)

        let conn = try RawConnection(path: path)
        try conn.exec("""
            PRAGMA synchronous = OFF; PRAGMA cache_size = -262144; PRAGMA temp_store = MEMORY; PRAGMA foreign_keys = OFF;
            """)
        let insertExercise = try conn.prepare("INSERT INTO exercises (id, name, kind, clocks) VALUES (?, ?, ?, ?)")
        let insertAlias = try conn.prepare("INSERT INTO aliases (id, alias, exercise_id, clocks) VALUES (?, ?, ?, ?)")
        let insertWorkout = try conn.prepare("""
            INSERT INTO workouts (id, name, started_at, ended_at, utc_offset, note, clocks) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        let insertSet = try conn.prepare(SetShape.insertSQL)

        func clock(_ millis: Int64) -> String { HLC(millis: millis, counter: 0, node: deviceID).description }
        let exerciseClockParts = clockParts(["name", "kind", "deleted_at"])
        let aliasClockParts = clockParts(["alias", "exercise_id", "deleted_at"])
        let workoutClockParts = clockParts(["name", "started_at", "ended_at", "utc_offset", "note", "deleted_at"])
        let setClockParts = clockParts(SetShape.setColumns)

        try conn.exec("BEGIN")
        let catalog = Catalog.exercises
        var ids: [String: UUID] = [:]
        for e in catalog {
            let uuid = derivedID(namespace: "exercise", key: nameKey(e.name)), id = uuid.key
            ids[e.name] = uuid
            insertExercise.bind(1, id); insertExercise.bind(2, e.name); insertExercise.bind(3, e.kind.rawValue)
            insertExercise.bind(4, exerciseClockParts.joined(separator: clock(first - 86_400_000)))
            try insertExercise.run()
        }
        for (alias, name) in Catalog.aliases {
            insertAlias.bind(1, derivedID(namespace: "alias", key: alias).key); insertAlias.bind(2, alias)
            insertAlias.bind(3, ids[name]!.key); insertAlias.bind(4, aliasClockParts.joined(separator: clock(first - 86_400_000)))
            try insertAlias.run()
        }

        var written = 0
        var lastClock = first
        for (index, size) in sizes.enumerated() {
            let template = Catalog.templates[index % Catalog.templates.count]
            let progress01 = Double(index) / Double(max(1, sizes.count - 1))
            let jitter = Int64(Double(gap) * 0.1 * (Double.random(in: -1...1, using: &rng)))
            let startedAt = first + Int64(index) * gap + jitter
            let offset = utcOffset(startedAt)
            let secondsPerSet = Int64(max(20, min(180, Double(gap) / 1000 * 0.7 / Double(size))))
            let workoutID = rng.uuidKey(), workoutUUID = UUID(uuidString: workoutID)!

            // The sets: the template's exercises in order, until the planned size is reached.
            var at = startedAt + 60_000
            var produced = 0
            var exerciseIndex = 0
            let order = template.exercises
            while produced < size {
                let name = order[exerciseIndex % order.count]
                exerciseIndex += 1
                let spec = catalog.first { $0.name == name }!
                for s in spec.sets(progress: progress01, rng: &rng) where produced < size {
                    let fields = SetColumns.createFields(workoutID: workoutUUID, exerciseID: ids[name]!, values: s,
                                                         performedAt: at, utcOffsetSeconds: offset)
                    insertSet.bind(1, rng.uuidKey())
                    for (i, field) in fields.enumerated() { insertSet.bind(Int32(i + 2), field.1) }
                    insertSet.bind(Int32(fields.count + 2), setClockParts.joined(separator: clock(at)))
                    try insertSet.run()
                    lastClock = at
                    at += secondsPerSet * 1000 + Int64.random(in: 0...15_000, using: &rng)
                    produced += 1
                }
            }
            let endedAt = at + 120_000
            let named = Int.random(in: 0..<10, using: &rng) < 7
            let note = Int.random(in: 0..<20, using: &rng) == 0 ? Catalog.workoutNotes.randomElement(using: &rng) : nil
            insertWorkout.bind(1, workoutID); insertWorkout.bind(2, named ? template.name : nil)
            insertWorkout.bind(3, startedAt); insertWorkout.bind(4, endedAt); insertWorkout.bind(5, Int64(offset))
            insertWorkout.bind(6, note); insertWorkout.bind(7, workoutClockParts.joined(separator: clock(startedAt)))
            try insertWorkout.run()

            written += produced
            if written / 50_000 != (written - produced) / 50_000 {
                try conn.exec("COMMIT; BEGIN")
                progress("  \(written) / \(sets) sets written")
            }
        }
        try conn.exec("""
            UPDATE device SET last_clock = '\(clock(lastClock))';
            UPDATE records_meta SET formula = 'stale';
            COMMIT;
            PRAGMA wal_checkpoint(TRUNCATE);
            """)
        let inserted = monotonicNanos()

        // The product rebuilds every exercise's records itself when the formula is stale.
        progress("  rebuilding records through GymLogDatabase.records()")
        let records: Int
        do {
            let db = try GymLogDatabase(path: path)
            records = try db.records().reduce(0) { $0 + $1.records.count }
            try db.queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        let done = monotonicNanos()
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0
        return Summary(sets: written, workouts: sizes.count, exercises: catalog.count, firstDay: first, lastDay: lastClock,
                       insertSeconds: Double(inserted - start) / 1e9, recordsSeconds: Double(done - inserted) / 1e9,
                       records: records, fileBytes: size)
    }

    /// `{"a":"` + clock + `","b":"` + clock + `"}` as the pieces around each clock.
    private func clockParts(_ fields: [String]) -> [String] {
        var parts = ["{\"" + fields[0] + "\":\""]
        for f in fields.dropFirst() { parts.append("\",\"" + f + "\":\"") }
        parts.append("\"}")
        return parts
    }

    /// Central European time: +2h from April to October, else +1h (close enough for a fixture).
    private func utcOffset(_ millis: Int64) -> Int {
        let month = Calendar(identifier: .gregorian).component(.month, from: Date(timeIntervalSince1970: Double(millis) / 1000))
        return (4...10).contains(month) ? 7200 : 3600
    }
}

/// The exercises, aliases and workout templates the generator draws from.
enum Catalog {
    struct ExerciseSpec {
        var name: String
        var kind: ExerciseKind
        var unit: WeightUnit = .kg
        /// Working load at the start and the end of the history, in `unit`.
        var from: Double = 0
        var to: Double = 0
        var reps: ClosedRange<Int> = 5...8
        var workingSets: ClosedRange<Int> = 3...4
        var warmups = 0

        /// One exercise block of a workout at `progress` (0 = first workout, 1 = last).
        func sets(progress: Double, rng: inout SplitMix64) -> [SetValues] {
            var out: [SetValues] = []
            // Progress with a 6-week-ish wave and day-to-day noise; plates round the load.
            let wave = 1 + 0.04 * sin(progress * 400)
            let noise = 1 + Double.random(in: -0.025...0.025, using: &rng)
            let step = unit == .kg ? 2.5 : 5
            func rounded(_ x: Double) -> Fixed { Fixed(rounding: max(step, (x / step).rounded() * step)) }
            let load = (from + (to - from) * progress) * wave * noise
            switch kind {
            case .weighted:
                for (pct, reps) in [(0.4, 10), (0.6, 5), (0.8, 3)].prefix(warmups) {
                    out.append(SetValues(kind: .warmup, weight: Weight(rounded(load * pct), unit), reps: reps))
                }
                var reps = Int.random(in: self.reps, using: &rng)
                for i in 0..<Int.random(in: workingSets, using: &rng) {
                    var v = SetValues(kind: .working, weight: Weight(rounded(load), unit), reps: max(1, reps))
                    if Int.random(in: 0..<5, using: &rng) == 0 {
                        v.rpe = Fixed(rounding: Double(Int.random(in: 14...20, using: &rng)) / 2)
                    }
                    if Int.random(in: 0..<50, using: &rng) == 0 { v.note = notes.randomElement(using: &rng) }
                    if i > 0, Int.random(in: 0..<4, using: &rng) == 0 { reps -= 1 }
                    if Int.random(in: 0..<100, using: &rng) == 0 { v.kind = .failure }
                    out.append(v)
                }
                if Int.random(in: 0..<40, using: &rng) == 0 {
                    out.append(SetValues(kind: .drop, weight: Weight(rounded(load * 0.7), unit), reps: reps + 4))
                }
            case .bodyweight:
                for _ in 0..<Int.random(in: workingSets, using: &rng) {
                    let added = load >= step && Int.random(in: 0..<2, using: &rng) == 0
                    var v = SetValues(kind: .working, weight: added ? Weight(rounded(load), unit) : nil, bodyweight: true,
                                      reps: Int.random(in: self.reps, using: &rng))
                    if Int.random(in: 0..<8, using: &rng) == 0 { v.rpe = Fixed(Int.random(in: 7...10, using: &rng)) }
                    out.append(v)
                }
            case .timed:
                for _ in 0..<Int.random(in: workingSets, using: &rng) {
                    out.append(SetValues(kind: .working, durationSeconds: Int(load) + Int.random(in: -10...10, using: &rng)))
                }
            case .distance:
                let meters = Int(load) / 100 * 100
                var v = SetValues(kind: .working, durationSeconds: Int(Double(meters) * 0.22) + Int.random(in: -20...20, using: &rng),
                                  distance: Distance(Fixed(meters), .m))
                if unit == .lb { v.distance = Distance(Fixed(rounding: Double(meters) / 1000), .km) }
                out.append(v)
            case .carry:
                out.append(SetValues(kind: .working, weight: Weight(rounded(load), unit), distance: Distance(Fixed(40), .m)))
            }
            return out
        }
    }

    static let exercises: [ExerciseSpec] = [
        ExerciseSpec(name: "Bench Press", kind: .weighted, from: 60, to: 125, reps: 3...8, workingSets: 3...5, warmups: 3),
        ExerciseSpec(name: "Back Squat", kind: .weighted, from: 80, to: 180, reps: 3...8, workingSets: 3...5, warmups: 3),
        ExerciseSpec(name: "Deadlift", kind: .weighted, from: 100, to: 220, reps: 1...5, workingSets: 2...4, warmups: 3),
        ExerciseSpec(name: "Overhead Press", kind: .weighted, from: 40, to: 75, reps: 4...8, workingSets: 3...4, warmups: 2),
        ExerciseSpec(name: "Barbell Row", kind: .weighted, from: 60, to: 110, reps: 6...10, warmups: 1),
        ExerciseSpec(name: "Front Squat", kind: .weighted, from: 60, to: 140, reps: 3...6, warmups: 2),
        ExerciseSpec(name: "Romanian Deadlift", kind: .weighted, from: 70, to: 160, reps: 6...10, warmups: 1),
        ExerciseSpec(name: "Incline Bench Press", kind: .weighted, from: 50, to: 100, reps: 6...10, warmups: 1),
        ExerciseSpec(name: "Incline Dumbbell Press", kind: .weighted, unit: .lb, from: 40, to: 90, reps: 8...12),
        ExerciseSpec(name: "Dumbbell Row", kind: .weighted, unit: .lb, from: 50, to: 120, reps: 8...12),
        ExerciseSpec(name: "Lat Pulldown", kind: .weighted, unit: .lb, from: 100, to: 200, reps: 8...12),
        ExerciseSpec(name: "Leg Press", kind: .weighted, unit: .lb, from: 200, to: 500, reps: 8...15),
        ExerciseSpec(name: "Cable Fly", kind: .weighted, unit: .lb, from: 20, to: 50, reps: 10...15),
        ExerciseSpec(name: "Lateral Raise", kind: .weighted, unit: .lb, from: 10, to: 30, reps: 10...20),
        ExerciseSpec(name: "Bicep Curl", kind: .weighted, unit: .lb, from: 20, to: 45, reps: 8...12),
        ExerciseSpec(name: "Tricep Pushdown", kind: .weighted, unit: .lb, from: 30, to: 80, reps: 10...15),
        ExerciseSpec(name: "Leg Curl", kind: .weighted, unit: .lb, from: 60, to: 140, reps: 8...12),
        ExerciseSpec(name: "Calf Raise", kind: .weighted, from: 60, to: 140, reps: 10...20),
        ExerciseSpec(name: "Face Pull", kind: .weighted, unit: .lb, from: 30, to: 70, reps: 12...20, workingSets: 2...3),
        ExerciseSpec(name: "Pull Up", kind: .bodyweight, from: 0, to: 30, reps: 4...12, workingSets: 3...4),
        ExerciseSpec(name: "Dip", kind: .bodyweight, from: 0, to: 40, reps: 6...15, workingSets: 3...3),
        ExerciseSpec(name: "Push Up", kind: .bodyweight, reps: 15...40, workingSets: 2...3),
        ExerciseSpec(name: "Plank", kind: .timed, from: 45, to: 150, workingSets: 2...3),
        ExerciseSpec(name: "Rowing", kind: .distance, from: 2000, to: 5000),
        ExerciseSpec(name: "Treadmill Run", kind: .distance, unit: .lb, from: 3000, to: 8000),
    ]

    static let aliases: [(String, String)] = [
        ("bench", "Bench Press"), ("squat", "Back Squat"), ("dl", "Deadlift"), ("ohp", "Overhead Press"),
        ("row", "Barbell Row"), ("rdl", "Romanian Deadlift"), ("pullup", "Pull Up"), ("run", "Treadmill Run"),
    ]

    struct Template { var name: String; var exercises: [String] }

    static let templates: [Template] = [
        Template(name: "Push", exercises: ["Bench Press", "Overhead Press", "Incline Dumbbell Press", "Lateral Raise",
                                           "Tricep Pushdown", "Dip", "Cable Fly"]),
        Template(name: "Pull", exercises: ["Deadlift", "Barbell Row", "Pull Up", "Lat Pulldown", "Face Pull", "Bicep Curl",
                                           "Dumbbell Row"]),
        Template(name: "Legs", exercises: ["Back Squat", "Romanian Deadlift", "Leg Press", "Leg Curl", "Calf Raise", "Plank",
                                           "Rowing"]),
        Template(name: "Upper", exercises: ["Incline Bench Press", "Dumbbell Row", "Overhead Press", "Pull Up", "Push Up",
                                            "Bicep Curl", "Lateral Raise"]),
        Template(name: "Lower", exercises: ["Front Squat", "Deadlift", "Leg Press", "Calf Raise", "Plank", "Treadmill Run",
                                            "Leg Curl"]),
    ]

    static let notes = [
        "felt heavy", "belt", "paused reps", "left shoulder tight, kept it \"easy\"", "new shoes",
        "spotter helped on last rep", "tempo 3-1-1", "grip gave out",
    ]
    static let workoutNotes = ["bad sleep", "gym crowded, swapped order", "deload week", "felt great", "short on time"]
}

struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a realistic multi-year history of N sets into a database (replaced if present).",
        discussion: "Example: gymlog-bench generate --db big.sqlite --sets 1000000 --seed 1 --years 5")

    @OptionGroup var database: DatabaseOption
    @Option(help: "How many sets.") var sets: Count
    @Option(help: "The generator's seed.") var seed: Count?
    @Option(help: "The years the history spans.") var years: Double?

    func validate() throws {
        if let years, !(years > 0) { throw ValidationError("--years \(years) is not a positive number") }
    }

    func run() async throws { try generateCommand(self) }
}

func generateCommand(_ options: GenerateCommand) throws {
    let path = options.database.db, sets = options.sets.value
    var generator = HistoryGenerator(sets: sets)
    if let seed = options.seed?.value { generator.seed = UInt64(seed) }
    if let years = options.years { generator.years = years }
    let s = try generator.generate(path: path, progress: log)
    print("Wrote \(s.sets) sets in \(s.workouts) workouts over \(s.exercises) exercises to \(path) "
          + "(\(s.fileBytes / 1_048_576) MiB): inserts \(fmt(s.insertSeconds, 1)) s, records rebuild \(fmt(s.recordsSeconds, 1)) s, \(s.records) records.")
}
