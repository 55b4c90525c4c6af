import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore
import SplitMix

// `gymlog-bench import`: the import targets of issues 6 and 14. A 100,000-set Strong export is
// imported by the release `gymlog import`; the baseline inserts the same rows through the plain
// write pipeline (`GymLogDatabase.commit` + `ChangeWriter.write`, same batch size) in a process
// of its own, so wall time and peak memory compare like for like. A ten times larger export is
// imported once more: the streaming import's peak memory must not grow with the file.

/// One workout of the generated Strong history.
struct BenchImportWorkout {
    var start: Int64
    var name: String
    var minutes: Int
    var note: String?
    var sets: [BenchImportSet]
}

/// One set of the generated history: which exercise, and its values in kg and km.
@dynamicMemberLookup
struct BenchImportSet {
    var exercise: Int
    var values: SetValues

    subscript<T>(dynamicMember path: WritableKeyPath<SetValues, T>) -> T {
        get { values[keyPath: path] }
        set { values[keyPath: path] = newValue }
    }
}

/// A deterministic Strong-style history: 25-set workouts over 15 exercises with warm-ups,
/// drop and failure sets, RPE, notes with commas and quotes, bodyweight, timed and distance
/// sets, one workout a day from 2010.
enum StrongHistory {
    static let exercises = [
        "Bench Press (Barbell)", "Squat (Barbell)", "Deadlift (Barbell)", "Overhead Press (Barbell)",
        "Bent Over Row (Barbell)", "Pull Up", "Chin Up", "Lat Pulldown (Cable)", "Incline Bench Press (Dumbbell)",
        "Bicep Curl (Dumbbell)", "Triceps Pushdown (Cable)", "Leg Press", "Romanian Deadlift (Barbell)", "Plank",
        "Rowing (Machine)",
    ]
    static let names = ["Push", "Pull", "Legs", "Upper", "Lower"]

    static func generate(sets total: Int, seed: UInt64 = 6) -> [BenchImportWorkout] {
        var rng = SplitMix64(seed: seed)
        func roll(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        var workouts: [BenchImportWorkout] = []
        var made = 0, day: Int64 = 0
        let origin = epochMillis(year: 2010, month: 1, day: 1, utcOffsetSeconds: 0)
        while made < total {
            let count = min(25, total - made)
            var sets: [BenchImportSet] = []
            var exercise = roll(exercises.count)
            while sets.count < count {
                let block = min(5, count - sets.count)
                for i in 0..<block {
                    var s = BenchImportSet(exercise: exercise, values: SetValues())
                    switch exercise {
                    case 5, 6: s.reps = 5 + roll(8); if roll(3) == 0 { s.weight = Weight(Fixed(5 * roll(5)), .kg) }
                    case 13: s.durationSeconds = 30 + 15 * roll(5)
                    case 14: s.distance = Distance(Fixed(thousandths: 1000 + Int64(roll(4)) * 500), .km); s.durationSeconds = 240 + roll(300)
                    default:
                        s.weight = Weight(Fixed(thousandths: Int64(20_000 + 2500 * roll(60))), .kg)
                        s.reps = 1 + roll(12)
                    }
                    if i == 0 && s.weight != nil { s.kind = .warmup }
                    else if i == block - 1 && roll(8) == 0 { s.kind = roll(2) == 0 ? .drop : .failure }
                    if roll(5) == 0 { s.rpe = Fixed(thousandths: Int64(6000 + 500 * roll(9))) }
                    if roll(40) == 0 { s.note = roll(2) == 0 ? "slow, controlled" : "felt \"easy\" today" }
                    sets.append(s)
                }
                exercise = (exercise + 1 + roll(exercises.count - 1)) % exercises.count
            }
            let start = origin + day * 86_400_000 + Int64(6 * 3600 + roll(12) * 3600 + roll(60) * 60) * 1000
            workouts.append(BenchImportWorkout(start: start, name: names[Int(day) % names.count], minutes: 45 + roll(60),
                                               note: roll(10) == 0 ? "Slept 6h, knees fine" : nil, sets: sets))
            made += count
            day += 1
        }
        return workouts
    }

    /// Strong's current CSV layout, newest workout first, with float noise on one load in ten.
    static func csv(_ workouts: [BenchImportWorkout]) -> [UInt8] {
        var w = CSVWriter(reservingCapacity: 1 << 20)
        w.fields(["Date", "Workout Name", "Duration", "Exercise Name", "Set Order", "Weight", "Reps", "Distance",
                  "Seconds", "Notes", "Workout Notes", "RPE"])
        w.endRow()
        var noise = 0
        for workout in workouts.reversed() {
            var working: [Int: Int] = [:]
            let duration = workout.minutes >= 60 ? "\(workout.minutes / 60)h \(workout.minutes % 60)m" : "\(workout.minutes)m"
            for s in workout.sets {
                w.fieldLocalDateTime(millis: workout.start, utcOffsetSeconds: 0)
                w.field(workout.name)
                w.field(duration)
                w.field(exercises[s.exercise])
                switch s.kind {
                case .working:
                    let n = (working[s.exercise] ?? 0) + 1
                    working[s.exercise] = n
                    w.fieldInt(n)
                case .warmup: w.field("W")
                case .drop: w.field("D")
                case .failure: w.field("F")
                }
                if let weight = s.weight?.value {
                    noise += 1
                    if noise % 10 == 0 && weight.thousandths > 0 {
                        w.field(Fixed(thousandths: weight.thousandths - 1).description + "9999999999")
                    } else {
                        w.fieldFixed(weight)
                    }
                } else {
                    w.fieldInt(0)
                }
                w.fieldInt(s.reps ?? 0)
                if let d = s.distance { w.fieldFixed(d.value) } else { w.fieldInt(0) }
                w.fieldInt(s.durationSeconds ?? 0)
                if let note = s.note { w.field(note) } else { w.emptyField() }
                if let note = workout.note { w.field(note) } else { w.emptyField() }
                if let rpe = s.rpe { w.fieldFixed(rpe) } else { w.emptyField() }
                w.endRow()
            }
        }
        return w.buffer
    }
}

/// `import --baseline --db PATH --sets N`: the same rows through the plain write pipeline, in
/// transactions of about 2,000 sets of whole workouts (the importer's batch size), no parsing,
/// no existence checks, no records.
func importBaselineCommand(_ options: ImportCommand) throws {
    guard let path = options.db, let total = options.sets?.value else {
        throw BenchError("import --baseline needs --db PATH and --sets N")
    }
    let workouts = StrongHistory.generate(sets: total)
    let db = try GymLogDatabase(path: path)
    var exerciseIDs: [UUID] = []
    try db.commit { w in
        for name in StrongHistory.exercises {
            let id = derivedID(namespace: "exercise", key: nameKey(name))
            try w.write(.exercises, id: id, op: .create, fields: [("name", .text(name)), ("kind", .text("weighted")), ("deleted_at", .null)])
            exerciseIDs.append(id)
        }
    }
    var start = 0
    while start < workouts.count {
        var end = start, sets = 0
        while end < workouts.count && (end == start || sets + workouts[end].sets.count <= 2000) {
            sets += workouts[end].sets.count
            end += 1
        }
        try db.commit { w in
            for workout in workouts[start..<end] {
                let workoutID = UUID()
                let ended = workout.start + Int64(workout.minutes) * 60_000
                try w.write(.workouts, id: workoutID, op: .create, fields: [
                    ("name", .text(workout.name)), ("started_at", .int(workout.start)), ("ended_at", .int(ended)),
                    ("utc_offset", .int(0)), ("note", workout.note.map { .text($0) } ?? .null), ("deleted_at", .null),
                ])
                let n = Int64(workout.sets.count)
                for (i, s) in workout.sets.enumerated() {
                    let at = workout.start + (ended - workout.start) * Int64(i) / n
                    try w.write(.sets, id: UUID(), op: .create, fields: [
                        ("workout_id", .text(workoutID.uuidString.lowercased())),
                        ("exercise_id", .text(exerciseIDs[s.exercise].uuidString.lowercased())),
                        ("kind", .text(s.kind.rawValue)),
                        ("weight", s.weight.map { .text($0.value.description) } ?? .null),
                        ("weight_unit", s.weight == nil ? .null : .text("kg")),
                        ("bodyweight", .int(s.weight == nil && s.reps != nil ? 1 : 0)),
                        ("reps", s.reps.map { .int(Int64($0)) } ?? .null),
                        ("rpe", s.rpe.map { .text($0.description) } ?? .null),
                        ("duration_s", s.durationSeconds.map { .int(Int64($0)) } ?? .null),
                        ("distance", s.distance.map { .text($0.value.description) } ?? .null),
                        ("distance_unit", s.distance == nil ? .null : .text("km")),
                        ("note", s.note.map { .text($0) } ?? .null),
                        ("performed_at", .int(at)), ("utc_offset", .int(0)), ("deleted_at", .null),
                    ])
                }
            }
        }
        start = end
    }
}

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a generated Strong export and compare it with the plain write pipeline.",
        discussion: """
            Rewrites the import section of FILE. --baseline is the child process the benchmark runs \
            (it needs --db and --sets).
            Example: .build/release/gymlog-bench import --quick
            """)

    @OptionGroup var report: ReportOptions

    @Option(help: "Sets in the export (default 100,000).") var sets: Count?
    @Option(help: "Sets in the large export whose peak memory is compared (default ten times --sets).") var large: Count?
    @Option(help: "Runs (default 3).") var runs: Count?
    @Flag(help: "Write the rows through the plain write pipeline (the baseline child).") var baseline = false
    @Option(help: "The database of --baseline.") var db: String?

    func run() async throws { try importBenchCommand(self) }
}

/// `import [--quick] [--sets N] [--runs N] [--out FILE] [--keep]` (or `--baseline`, the child).
func importBenchCommand(_ options: ImportCommand) throws {
    if options.baseline { return try importBaselineCommand(options) }
    let quick = options.report.quick
    let total = options.sets?.value ?? (quick ? 20_000 : 100_000)
    let largeTotal = options.large?.value ?? total * 10
    let runs = options.runs?.value ?? (quick ? 1 : 3)
    let outPath = options.report.out ?? "BENCHMARKS.md"
    let gymlog = try releaseProduct("gymlog")

    let workDir = try WorkingDirectory(prefix: "gymlog-bench-import", keep: options.report.keep)
    defer { workDir.finish() }
    let dir = workDir.path
    var env = ProcessInfo.processInfo.environment
    env["XDG_DATA_HOME"] = dir + "/xdg"
    env["XDG_CONFIG_HOME"] = dir + "/config"
    env["GYMLOG_CONFIG"] = dir + "/no-config.toml"
    env["TZ"] = "UTC"
    env.removeValue(forKey: "GYMLOG_DB")
    let environment = env.map { "\($0.key)=\($0.value)" }

    log("writing a \(total)-set Strong export…")
    let workouts = StrongHistory.generate(sets: total)
    let csvPath = dir + "/strong.csv"
    let csv = StrongHistory.csv(workouts)
    try Data(csv).write(to: URL(fileURLWithPath: csvPath))

    var importRuns: [ChildRun] = [], baselineRuns: [ChildRun] = []
    var lastImportDB = ""
    for run in 1...runs {
        log("run \(run)/\(runs): gymlog import, then the plain write pipeline…")
        let importDB = dir + "/import-\(run).sqlite", baselineDB = dir + "/baseline-\(run).sqlite"
        importRuns.append(try spawnMeasured([gymlog, "import", "--db", importDB, csvPath], environment: environment,
                                            stdoutPath: dir + "/import.out", directory: dir))
        baselineRuns.append(try spawnMeasured([executableDirectory() + "/gymlog-bench", "import", "--baseline", "--db", baselineDB, "--sets", "\(total)"],
                                              environment: environment, stdoutPath: nil, directory: dir))
        if run < runs { for f in [importDB, baselineDB] { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: f + s) } } }
        lastImportDB = importDB
    }
    let summary = (try? String(contentsOfFile: dir + "/import.out", encoding: .utf8)) ?? ""
    guard summary.contains("Imported \(workouts.count) workouts, \(total) sets") else {
        throw BenchError("gymlog import did not import every set: \(summary)")
    }
    log("writing a \(largeTotal)-set Strong export and importing it…")
    let largeWorkouts = StrongHistory.generate(sets: largeTotal)
    let largePath = dir + "/strong-large.csv"
    let largeCSV = StrongHistory.csv(largeWorkouts)
    try Data(largeCSV).write(to: URL(fileURLWithPath: largePath))
    let largeRun = try spawnMeasured([gymlog, "import", "--db", dir + "/large.sqlite", largePath], environment: environment,
                                     stdoutPath: dir + "/large.out", directory: dir)
    let largeSummary = (try? String(contentsOfFile: dir + "/large.out", encoding: .utf8)) ?? ""
    guard largeSummary.contains("Imported \(largeWorkouts.count) workouts, \(largeTotal) sets") else {
        throw BenchError("gymlog import did not import every set of the large file: \(largeSummary)")
    }
    try? FileManager.default.removeItem(atPath: largePath)
    log("re-import (nothing new) and dry run…")
    let again = try spawnMeasured([gymlog, "import", "--db", lastImportDB, csvPath], environment: environment,
                                  stdoutPath: dir + "/again.out", directory: dir)
    let dry = try spawnMeasured([gymlog, "import", "--dry-run", "--db", dir + "/dry.sqlite", csvPath], environment: environment,
                                stdoutPath: nil, directory: dir)

    let importWall = Stats(importRuns.map { Double($0.wallNanos) / 1e9 })
    let baseWall = Stats(baselineRuns.map { Double($0.wallNanos) / 1e9 })
    let importRSS = Stats(importRuns.map { Double($0.maxRSSKiB) / 1024 })
    let baseRSS = Stats(baselineRuns.map { Double($0.maxRSSKiB) / 1024 })
    func label(_ n: Int) -> String { n >= 1_000_000 && n % 1_000_000 == 0 ? "\(n / 1_000_000)M" : n >= 1000 ? "\(n / 1000)k" : "\(n)" }
    let largeRSS = Double(largeRun.maxRSSKiB) / 1024
    let growth = largeRSS / importRSS.median
    let timeRatio = importWall.median / baseWall.median
    let rssRatio = importRSS.median / baseRSS.median
    var rows: [ResultRow] = []
    rows.append(ResultRow(id: "i1", what: "import \(label(total))-set Strong export, sets/s (median wall)",
                          figure: "\(fmt(Double(total) / importWall.median, 0)) sets/s (\(fmt(importWall.median, 2)) s)",
                          baseline: "\(fmt(Double(total) / baseWall.median, 0)) sets/s (\(fmt(baseWall.median, 2)) s, plain write pipeline)",
                          ratio: "\(fmt(timeRatio, 2))× time", target: "≤ 2×", pass: timeRatio <= 2))
    rows.append(ResultRow(id: "i2", what: "import \(label(total))-set Strong export, peak RSS",
                          figure: "\(fmt(importRSS.median, 1)) MiB", baseline: "\(fmt(baseRSS.median, 1)) MiB (plain write pipeline)",
                          ratio: "\(fmt(rssRatio, 2))×", target: "≤ 3×", pass: rssRatio <= 3))
    rows.append(ResultRow(id: "i3", what: "re-import the same file (nothing new), wall",
                          figure: "\(fmt(Double(again.wallNanos) / 1e9, 2)) s", baseline: "—", ratio: "—",
                          target: "info", pass: nil, info: true))
    rows.append(ResultRow(id: "i4", what: "--dry-run (read, check, count), wall",
                          figure: "\(fmt(Double(dry.wallNanos) / 1e9, 2)) s, \(fmt(Double(dry.maxRSSKiB) / 1024, 1)) MiB",
                          baseline: "—", ratio: "—", target: "info", pass: nil, info: true))
    rows.append(ResultRow(id: "i5", what: "import \(label(largeTotal))-set Strong export, peak RSS",
                          figure: "\(fmt(largeRSS, 1)) MiB (\(fmt(Double(largeRun.wallNanos) / 1e9, 1)) s, "
                              + "\(fmt(Double(largeTotal) / (Double(largeRun.wallNanos) / 1e9), 0)) sets/s)",
                          baseline: "\(fmt(importRSS.median, 1)) MiB (import of \(label(total)), i2)",
                          ratio: "\(fmt(growth, 2))×", target: "≤ 1.10×", pass: growth <= 1.10))
    let details = [
        "Input: \(total) sets in \(workouts.count) workouts over \(StrongHistory.exercises.count) exercises, "
            + "\(csv.count / 1024) KiB of CSV (Strong's current comma layout, newest first, one load in ten with float noise); "
            + "i5: \(largeTotal) sets in \(largeWorkouts.count) workouts, \(largeCSV.count / 1024) KiB, the same generator.",
        "Runs (s): import \(importWall.sorted.map { fmt($0, 2) }.joined(separator: ", ")); "
            + "baseline \(baseWall.sorted.map { fmt($0, 2) }.joined(separator: ", ")). Peak RSS (MiB): import "
            + "\(importRSS.sorted.map { fmt($0, 1) }.joined(separator: ", ")); baseline \(baseRSS.sorted.map { fmt($0, 1) }.joined(separator: ", ")).",
        "Both sides are whole processes timed from spawn to exit (start-up, opening the database, `fsync`s included). "
            + "The import additionally reads and checks the file, derives ids, looks each row up before writing it "
            + "and rebuilds the records of every exercise at the end; the baseline writes rows it already holds.",
    ]
    let report = Report(machine: .current(), quick: quick, rows: rows, details: details)
    report.show()
    try ImportSection(report: report, sets: total, large: largeTotal, runs: runs).write(to: outPath)
    log("wrote the import section of \(outPath)")
}

/// The import section of BENCHMARKS.md, between its own markers, above `Report.marker`.
struct ImportSection: MarkedSection {
    var report: Report
    var sets: Int
    var large: Int
    var runs: Int

    static let begin = "<!-- Begin of the import section: rewritten by `gymlog-bench import` up to the end marker; edit ImportBench.swift, not this text. -->"
    static let end = "<!-- End of the import section (`gymlog-bench import`). -->"

    func markdown() -> String {
        let r = report
        var out = "## Import (issues 6 and 14)\n\n"
        out += """
            Importing a 100,000-set Strong export with the release `gymlog import`, against the same
            rows inserted through the plain write pipeline in the same run; then a 1,000,000-set
            export, whose peak memory must be that of the 100,000-set one (the import streams).

            ```sh
            swift build -c release --product gymlog && swift build -c release --product gymlog-bench
            .build/release/gymlog-bench import            # 100,000 sets, 3 runs, and 1,000,000 once; about 5 minutes
            .build/release/gymlog-bench import --quick    # 20,000 sets, 1 run, and 200,000 once
            ```

            `import` rewrites only this section (between its markers). Working files go to a fresh
            directory under `$TMPDIR` (or `/tmp`), removed unless `--keep` is given.

            - **i1 Throughput** — `gymlog import --db NEW strong.csv` (a generated export in Strong's
              layout: 25-set workouts, warm-ups, drop and failure sets, RPE, notes, bodyweight, timed
              and distance sets), wall time of the whole process from spawn to exit. Baseline:
              `gymlog-bench import --baseline`, a process that generates the same workouts in memory and
              writes them with `GymLogDatabase.commit` + `ChangeWriter.write` (rows and outbox events)
              in transactions of about 2,000 sets, as the importer does. Runs interleave.
            - **i2 Peak memory** — `ru_maxrss` of each process, measured through the `child-rusage`
              helper (see Processes.swift).
            - **i3, i4** — the same file imported again (every row already there: no writes), and
              `--dry-run` into an empty database. No targets.
            - **i5 Memory does not grow with the file** — peak RSS importing an export ten times
              larger (`--large`, default 1,000,000 sets), once, against i2's median: the import
              reads the file in 64 KiB chunks twice (check and count, then write) and holds one
              workout and one write batch at a time.


            """
        out += resultsMarkdown(r, title: "Import", quickRun: "(`--quick`: \(sets) sets, \(runs) run)")
        return out
    }
}
