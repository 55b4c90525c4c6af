import Foundation
import GymLogCore
import GymLogStore
import GymLogWire
import SplitMix

/// Order statistics of a batch of timings.
struct Stats {
    var sorted: [Double]

    init(_ samples: [Double]) { sorted = samples.sorted() }

    var count: Int { sorted.count }
    var median: Double {
        guard !sorted.isEmpty else { return .nan }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
    /// Nearest-rank percentile.
    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(sorted.count, Swift.max(1, rank)) - 1]
    }
    var p99: Double { percentile(99) }
    var mean: Double { sorted.isEmpty ? .nan : sorted.reduce(0, +) / Double(sorted.count) }
    var max: Double { sorted.last ?? .nan }
}

/// One line of the results table.
struct ResultRow {
    var id: String
    var what: String
    var figure: String
    var baseline: String
    var ratio: String
    var target: String
    /// nil when the row could not be measured (or carries no target).
    var pass: Bool?
    /// A supplementary figure with no target of its own.
    var info = false

    var verdict: String { info ? "info" : pass.map { $0 ? "PASS" : "MISS" } ?? "not measured" }
}

/// One `sets` row and its outbox event as the write pipeline stores them, built on the
/// store's column table (`SetColumns`) so the benchmark writes exactly the product's shape.
enum SetShape {
    /// Every synced column of a set, in the order a create writes them.
    static var setColumns: [String] { SetColumns.synced }

    /// The fields of one `bench 100x5` set, as `ChangeWriter.write` stores them on create.
    static func benchFields(workoutID: String, exerciseID: String, at: Int64, offset: Int) -> [(String, FieldValue)] {
        SetColumns.createFields(workoutID: UUID(uuidString: workoutID)!, exerciseID: UUID(uuidString: exerciseID)!,
                                values: SetValues(weight: Weight(Fixed(100), .kg), reps: 5), performedAt: at,
                                utcOffsetSeconds: offset)
    }

    /// One `sets` row: its id, every synced column in `setColumns` order, then its clocks.
    static var insertSQL: String {
        let columns = ["id"] + setColumns + ["clocks"]
        return "INSERT INTO sets (\(columns.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
    }

    /// `{"field":"clock",...}` for every set column, as `RowWriter` writes on create.
    static func clocks(_ clock: HLC) -> String {
        "{" + setColumns.map { "\"\($0)\":\"\(clock)\"" }.joined(separator: ",") + "}"
    }

    /// The outbox payload of `bench 100x5` as `encodePayload` writes it.
    static func payload(workoutID: String, exerciseID: String, at: Int64, offset: Int, clock: HLC) -> String {
        encodePayload(benchFields(workoutID: workoutID, exerciseID: exerciseID, at: at, offset: offset)
            .map { FieldChange($0.0, $0.1, clock) })
    }
}

extension RawStatement {
    /// Binds a field as the write pipeline stores it.
    func bind(_ index: Int32, _ value: FieldValue) {
        switch value {
        case .null: bind(index, nil as String?)
        case .int(let i): bind(index, i)
        case .real(let d): bind(index, d)
        case .text(let text): bind(index, text)
        }
    }
}

/// The raw-C-API baseline of (a): one sets row and one outbox row per IMMEDIATE transaction.
final class RawLogger {
    private let conn: RawConnection
    private let begin, commit, insertSet, insertOutbox: RawStatement
    private let workoutID: String, exerciseID: String
    private let offset: Int
    private let payload: String
    /// The set's fields as bound; only `performed_at` (at `performedAtIndex`) changes from call to call.
    private let fields: [(String, FieldValue)]
    private let performedAtIndex: Int
    private let device: String
    private var seq: Int64 = 0
    private var rng = SplitMix64(seed: 42)

    /// Creates the file with the product's schema (through its migrations), one exercise and
    /// one workout, then reopens it bare with the same PRAGMAs as the store.
    init(path: String) throws {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        do { let db = try GymLogDatabase(path: path); device = db.deviceID }
        conn = try RawConnection(path: path)
        try conn.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
        let now = Environment.live.now()
        offset = Environment.live.utcOffset(now)
        workoutID = rng.uuidKey()
        exerciseID = derivedID(namespace: "exercise", key: "bench").key
        try conn.exec("""
            INSERT INTO exercises (id, name, kind, clocks) VALUES ('\(exerciseID)', 'Bench', 'weighted', '{}');
            INSERT INTO workouts (id, started_at, utc_offset, clocks) VALUES ('\(workoutID)', \(now), \(offset), '{}');
            """)
        let clock = HLC(millis: now, counter: 0, node: device)
        payload = SetShape.payload(workoutID: workoutID, exerciseID: exerciseID, at: now, offset: offset, clock: clock)
        fields = SetShape.benchFields(workoutID: workoutID, exerciseID: exerciseID, at: now, offset: offset)
        performedAtIndex = fields.firstIndex { $0.0 == "performed_at" }!
        begin = try conn.prepare("BEGIN IMMEDIATE")
        commit = try conn.prepare("COMMIT")
        insertSet = try conn.prepare(SetShape.insertSQL)
        insertOutbox = try conn.prepare("""
            INSERT INTO outbox (seq, entity, entity_id, op, payload, idempotency_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
    }

    /// Logs one `100 kg x 5` set: BEGIN IMMEDIATE, two INSERTs, COMMIT.
    func logOne() throws {
        let id = rng.uuidKey(), key = rng.uuidKey()
        let now = Environment.live.now()
        let clocks = SetShape.clocks(HLC(millis: now, counter: 0, node: device))
        seq += 1
        try begin.run()
        insertSet.bind(1, id)
        for (i, field) in fields.enumerated() {
            insertSet.bind(Int32(i + 2), i == performedAtIndex ? .int(now) : field.1)
        }
        insertSet.bind(Int32(fields.count + 2), clocks)
        try insertSet.run()
        insertOutbox.bind(1, seq); insertOutbox.bind(2, "sets"); insertOutbox.bind(3, id); insertOutbox.bind(4, "create")
        insertOutbox.bind(5, payload); insertOutbox.bind(6, key); insertOutbox.bind(7, now)
        try insertOutbox.run()
        try commit.run()
    }

    /// The two INSERTs as one `sqlite3` shell script, for baseline (c).
    static func shellScript(workoutID: String, exerciseID: String, seq: Int64, rng: inout SplitMix64, device: String) -> String {
        let now = Environment.live.now()
        let offset = Environment.live.utcOffset(now)
        let clock = HLC(millis: now, counter: 0, node: device)
        let id = rng.uuidKey()
        return """
            PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; BEGIN IMMEDIATE;
            INSERT INTO sets (id, workout_id, exercise_id, kind, weight, weight_unit, bodyweight, reps, rpe, duration_s,
                              distance, distance_unit, note, performed_at, utc_offset, deleted_at, clocks)
            VALUES ('\(id)', '\(workoutID)', '\(exerciseID)', 'working', '100', 'kg', 0, 5, NULL, NULL, NULL, NULL, NULL,
                    \(now), \(offset), NULL, '\(SetShape.clocks(clock))');
            INSERT INTO outbox (seq, entity, entity_id, op, payload, idempotency_key, created_at)
            VALUES (\(seq), 'sets', '\(id)', 'create',
                    '\(SetShape.payload(workoutID: workoutID, exerciseID: exerciseID, at: now, offset: offset, clock: clock))',
                    '\(rng.uuidKey())', \(now));
            COMMIT;
            """
    }
}

/// `bench 100x5` as the parser hands it to the store.
let benchMention = ExerciseMention(name: "bench", span: Span(0, 5))
let benchSpecs = [SetSpec(kind: .working, load: .weight(Fixed(100), nil), reps: 5)]

/// (a) and (b): the domain function on an empty and on a large database, and the raw
/// baseline, interleaved call by call so drifting fsync latency hits all three alike.
struct LoggingResult {
    var raw: Stats
    var empty: Stats
    var history: Stats?
}

/// `setsPerWorkout`: when given, each store's clock jumps three hours ahead after that many
/// calls, so the idle gap closes the workout and the next call starts a new one, as a real
/// session would; when nil, all calls land in one ever-growing workout.
func measureLogging(directory: String, historyPath: String?, iterations: Int, warmup: Int = 20,
                    setsPerWorkout: Int? = nil) throws -> LoggingResult {
    let emptyPath = directory + "/log-empty.sqlite"
    for suffix in ["", "-wal", "-shm"] { unlink(emptyPath + suffix) }
    func environment() -> Environment {
        guard let setsPerWorkout else { return .live }
        let clock = SessionClock(setsPerWorkout: setsPerWorkout)
        return Environment(now: { clock.now() }, utcOffset: Environment.live.utcOffset, newID: Environment.live.newID)
    }
    let empty = try GymLogDatabase(path: emptyPath, environment: environment())
    let history = try historyPath.map { try GymLogDatabase(path: $0, environment: environment()) }
    let raw = try RawLogger(path: directory + "/log-raw.sqlite")

    var rawSamples: [Double] = [], emptySamples: [Double] = [], historySamples: [Double] = []
    rawSamples.reserveCapacity(iterations); emptySamples.reserveCapacity(iterations); historySamples.reserveCapacity(iterations)
    func timed(_ body: () throws -> Void) rethrows -> Double {
        let t0 = monotonicNanos()
        try body()
        return Double(monotonicNanos() - t0) / 1000
    }
    for round in 0..<(warmup + iterations) {
        // Rotate who goes first so no variant always follows the same neighbour.
        var r = 0.0, e = 0.0, h = 0.0
        for slot in 0..<3 {
            switch (slot + round) % 3 {
            case 0: r = try timed { try raw.logOne() }
            case 1: e = try timed { _ = try empty.logSets(exercise: benchMention, specs: benchSpecs) }
            default:
                guard let history else { continue }
                h = try timed { _ = try history.logSets(exercise: benchMention, specs: benchSpecs) }
            }
        }
        if round >= warmup { rawSamples.append(r); emptySamples.append(e); historySamples.append(h) }
    }
    return LoggingResult(raw: Stats(rawSamples), empty: Stats(emptySamples), history: history == nil ? nil : Stats(historySamples))
}

/// (c): `gymlog log "bench 100x5"` as a whole process against the `sqlite3` shell.
struct ProcessResult {
    var gymlog: Stats
    var shell: Stats?
}

func childEnvironment(directory: String) -> [String] {
    var env = ProcessInfo.processInfo.environment
    env["GYMLOG_CONFIG"] = directory + "/no-such-config.toml"
    env["GYMLOG_DB"] = nil
    env["XDG_STATE_HOME"] = directory + "/state"
    // No credentials: a logged-in user's would make every `gymlog log` start a sync of the bench's database.
    env["XDG_DATA_HOME"] = directory + "/data"
    return env.map { "\($0.key)=\($0.value)" }
}

func measureProcesses(directory: String, gymlog: String, sqlite3: String?, runs: Int, warmup: Int = 3) throws -> ProcessResult {
    let env = childEnvironment(directory: directory)
    let stderrPath = directory + "/child.stderr"
    let logDB = directory + "/process-gymlog.sqlite"
    for suffix in ["", "-wal", "-shm"] { unlink(logDB + suffix) }
    let gymlogArgv = [gymlog, "log", "--db", logDB, "bench 100x5"]

    // The shell's database: the same schema (made by the product's migrations), one exercise, one workout.
    let shellDB = directory + "/process-shell.sqlite"
    var rng = SplitMix64(seed: 7)
    let workoutID = rng.uuidKey(), exerciseID = derivedID(namespace: "exercise", key: "bench").key
    var device = ""
    if sqlite3 != nil {
        for suffix in ["", "-wal", "-shm"] { unlink(shellDB + suffix) }
        let db = try GymLogDatabase(path: shellDB)
        device = db.deviceID
        try db.queue.write { db in
            try db.execute(sql: "INSERT INTO exercises (id, name, kind) VALUES (?, 'Bench', 'weighted')", arguments: [exerciseID])
            try db.execute(sql: "INSERT INTO workouts (id, started_at) VALUES (?, ?)", arguments: [workoutID, Environment.live.now()])
        }
    }

    var seq: Int64 = 0
    return try interleaved(runs: runs, warmup: warmup, gymlog: { try spawnAndWait(gymlogArgv, environment: env, stderrPath: stderrPath) },
                           shell: sqlite3.map { sqlite3 in {
                               seq += 1
                               let script = RawLogger.shellScript(workoutID: workoutID, exerciseID: exerciseID, seq: seq, rng: &rng, device: device)
                               return try spawnAndWait([sqlite3, shellDB, script], environment: env, stderrPath: stderrPath)
                           } })
}

/// Runs `gymlog` and then `shell` (when there is one), round after round, and returns their
/// wall times in milliseconds, the first `warmup` rounds discarded.
func interleaved(runs: Int, warmup: Int, gymlog: () throws -> ChildRun, shell: (() throws -> ChildRun)?) throws -> ProcessResult {
    var gymlogSamples: [Double] = [], shellSamples: [Double] = []
    for round in 0..<(warmup + runs) {
        let g = try gymlog()
        let s = try shell?()
        if round >= warmup {
            gymlogSamples.append(Double(g.wallNanos) / 1e6)
            if let s { shellSamples.append(Double(s.wallNanos) / 1e6) }
        }
    }
    return ProcessResult(gymlog: Stats(gymlogSamples), shell: shell == nil ? nil : Stats(shellSamples))
}

/// (d): `gymlog export` against `sqlite3 -csv` running the same query, on the big history.
struct ExportResult {
    var gymlog: Stats
    var gymlogMaxRSSKiB: Int
    var shell: Stats?
    var gymlogLines: Int
    var shellLines: Int?
    /// ru_maxrss of `/bin/true` run the same way: the floor the helper process puts under the figure.
    var floorRSSKiB: Int
}

/// The export query of `GymLogDatabase.forEachExportRow`, unfiltered: the store's own text.
let exportSQL = ExportFilter().query.sql.split(separator: "\n").joined(separator: " ")

func measureExport(directory: String, gymlog: String, sqlite3: String?, database: String, runs: Int) throws -> ExportResult {
    let env = childEnvironment(directory: directory)
    let gymlogOut = directory + "/export-gymlog.csv", shellOut = directory + "/export-sqlite3.csv"
    var gymlogSamples: [Double] = [], shellSamples: [Double] = []
    var maxRSS = 0
    // One untimed run of each first, so both start from a warm page cache.
    for round in 0...runs {
        let g = try spawnMeasured([gymlog, "export", "--out", gymlogOut, "--db", database], environment: env,
                                  stdoutPath: nil, directory: directory)
        maxRSS = max(maxRSS, g.maxRSSKiB)
        var s: ChildRun?
        if let sqlite3 {
            s = try spawnMeasured([sqlite3, "-csv", database, exportSQL], environment: env, stdoutPath: shellOut, directory: directory)
        }
        if round > 0 {
            gymlogSamples.append(Double(g.wallNanos) / 1e9)
            if let s { shellSamples.append(Double(s.wallNanos) / 1e9) }
        }
    }
    return ExportResult(gymlog: Stats(gymlogSamples), gymlogMaxRSSKiB: maxRSS, shell: sqlite3 == nil ? nil : Stats(shellSamples),
                        gymlogLines: countLines(gymlogOut), shellLines: sqlite3 == nil ? nil : countLines(shellOut),
                        floorRSSKiB: try spawnMeasured(["/bin/true"], environment: env, stdoutPath: nil, directory: directory).maxRSSKiB)
}

/// Newlines in a file (the CSVs here have no embedded newlines, so this counts rows).
func countLines(_ path: String) -> Int {
    guard let handle = FileHandle(forReadingAtPath: path) else { return 0 }
    defer { try? handle.close() }
    var count = 0
    while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
        count += chunk.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
    }
    return count
}

/// The real clock, moved three hours ahead every `setsPerWorkout` logged sets.
///
/// `logSets` reads the clock once per call (one `ChangeWriter` per transaction), so counting
/// reads counts calls.
final class SessionClock: @unchecked Sendable {
    private let lock = NSLock()
    private var reads = 0
    private let setsPerWorkout: Int

    init(setsPerWorkout: Int) { self.setsPerWorkout = setsPerWorkout }

    func now() -> Int64 {
        lock.lock(); defer { lock.unlock() }
        reads += 1
        // Starts one jump ahead, so the first call never joins a workout already in the file.
        return Environment.live.now() + Int64(reads / setsPerWorkout + 1) * 3 * 3_600_000
    }
}


/// Reads the REPL makes around a logged line: `lastSession` (what "last time" prints) and one
/// routine line's suggestion (`pastSessions` + `Progression.suggest`), on the most logged
/// exercise of the history.
func measurePlanReads(historyPath: String, iterations: Int) throws -> (exercise: String, lastTime: Stats, planLine: Stats) {
    let db = try GymLogDatabase(path: historyPath)
    guard let top = try db.exerciseSummaries().max(by: { $0.setCount < $1.setCount })?.exercise else {
        throw BenchError("the history has no exercise")
    }
    let planned = PlannedExercise(exerciseName: top.name, sets: 3, reps: .exact(5),
                                  rule: .linear(increment: WeightSpec(Fixed(thousandths: 2500))))
    var last: [Double] = [], plan: [Double] = []
    let now = Environment.live.now()
    for _ in 0..<iterations {
        let t0 = monotonicNanos()
        _ = try db.lastSession(of: top.id, before: now)
        let t1 = monotonicNanos()
        let history = try db.pastSessions(of: top.id, before: now)
        _ = Progression.suggest(for: planned, history: history, unit: .kg)
        let t2 = monotonicNanos()
        last.append(Double(t1 - t0) / 1000); plan.append(Double(t2 - t1) / 1000)
    }
    return (top.name, Stats(last), Stats(plan))
}
