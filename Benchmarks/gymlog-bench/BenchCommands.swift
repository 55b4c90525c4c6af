import ArgumentParser
import Foundation
import GRDB
import GymLogCore
import GymLogStore

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func log(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

struct LogLoopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log-loop",
        abstract: "Only the domain logging loop (`bench 100x5`), for a profiler.",
        discussion: "Example: perf record -g .build/release/gymlog-bench log-loop --db /tmp/x.sqlite --calls 5000")

    @OptionGroup var database: DatabaseOption
    @Option(help: "Calls (default 2000).") var calls: Count?
    @Option(name: .customLong("per-workout"), help: "Sets per workout (the real clock otherwise).") var perWorkout: Count?
    @Flag(help: "Print every statement with its duration.") var trace = false
    @Flag(help: "The raw C API baseline's two INSERTs instead (rows a and a'), to weigh against under callgrind.") var raw = false

    func run() async throws { try logLoopCommand(self) }
}

/// `log-loop`: the domain logging loop alone, to run under `perf record` or callgrind.
func logLoopCommand(_ options: LogLoopCommand) throws {
    let path = options.database.db
    let calls = options.calls?.value ?? 2000
    if options.raw {
        let raw = try RawLogger(path: path)
        let t0 = monotonicNanos()
        for _ in 0..<calls { try raw.logOne() }
        print("\(calls) raw calls, \(fmt(Double(monotonicNanos() - t0) / 1000 / Double(calls), 1)) µs each")
        return
    }
    var environment = Environment.live
    if let perWorkout = options.perWorkout?.value {
        let clock = SessionClock(setsPerWorkout: perWorkout)
        environment = Environment(now: { clock.now() }, utcOffset: Environment.live.utcOffset, newID: Environment.live.newID)
    }
    let db = try GymLogDatabase(path: path, environment: environment)
    // With --trace: SQLite's own time per statement (sqlite3_trace_v2's profile), summed per SQL text.
    let spent = StatementTimes()
    if options.trace {
        db.queue.inDatabase { $0.trace(options: .profile) { event in
            if case .profile(let statement, let duration) = event { spent.add(statement.sql, duration) }
        } }
    }
    let t0 = monotonicNanos()
    for _ in 0..<calls { _ = try db.logSets(exercise: benchMention, specs: benchSpecs) }
    let perCall = Double(monotonicNanos() - t0) / 1000 / Double(calls)
    print("\(calls) calls, \(fmt(perCall, 1)) µs each")
    if options.trace { spent.show(calls: calls, perCall: perCall) }
}

struct WriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "Only the write path's rows: a logged set against the raw C API, on a file and on tmpfs.",
        discussion: """
            Rows a and a* (empty history) on a file in $TMPDIR, a' and a'* on /dev/shm; prints them and changes no file.
            Example: .build/release/gymlog-bench write --calls 3000
            """)

    @Option(help: "Logging calls per measurement (default 2000).") var calls: Count?

    func run() async throws { try writeCommand(self) }
}

/// `write`: the rows of issue 31's item 4 alone, to weigh one change to the write path in a minute.
func writeCommand(_ options: WriteCommand) throws {
    let calls = options.calls?.value ?? 2000
    let workDir = try WorkingDirectory(prefix: "gymlog-bench", keep: false)
    defer { workDir.finish() }
    let file = try loggingRows(directory: workDir.path, onTmpfs: false, calls: calls)
    let tmpfs = try tmpfsLoggingRows(calls: calls)
    Report(machine: .current(), quick: false, rows: file.rows + tmpfs.rows, details: file.details + tmpfs.details).show()
}

/// Rows a' and a'*: logging on tmpfs (/dev/shm), where fsync is free, so the ratio is the
/// store's own CPU work against the raw C API's; none when /dev/shm cannot be written.
func tmpfsLoggingRows(calls: Int) throws -> (rows: [ResultRow], details: [String]) {
    guard let shm = try TmpfsDirectory() else { return ([], []) }
    defer { shm.remove() }
    return try loggingRows(directory: shm.path, onTmpfs: true, calls: calls)
}

/// A logged set against the raw C API (empty history) in one growing workout and in 25-set
/// workouts: rows a and a* on a file in `directory`, a' and a'* on tmpfs.
func loggingRows(directory: String, onTmpfs: Bool, calls: Int) throws -> (rows: [ResultRow], details: [String]) {
    var rows: [ResultRow] = [], details: [String] = []
    for (suffix, perWorkout) in [("", nil), ("*", 25)] as [(String, Int?)] {
        let mode = perWorkout.map { ", \($0)-set workouts" } ?? ""
        let id = (onTmpfs ? "a'" : "a") + suffix
        log("(\(id)) logging on \(onTmpfs ? "tmpfs" : "a file")\(mode), \(calls) interleaved calls each…")
        let l = try measureLogging(directory: directory, historyPath: nil, iterations: calls, setsPerWorkout: perWorkout)
        // Issue 31: on tmpfs the store's own CPU work at most 1.5 times the raw C API's (issue 15
        // asked 2×); on a file issue 2's 1.5× for one growing workout, issue 15's 1.2× for 25-set ones.
        let ratio = l.empty.median / l.raw.median, maxRatio = onTmpfs || perWorkout == nil ? 1.5 : 1.2
        let what = onTmpfs ? "log one set on tmpfs (no fsync)\(mode), median" : "log one set (domain)\(mode), median"
        rows.append(ResultRow(id: id, what: what, figure: "\(fmt(l.empty.median, 0)) µs", baseline: "\(fmt(l.raw.median, 0)) µs (raw C API)",
                              ratio: "\(fmt(ratio, 2))×", target: "≤ \(fmt(maxRatio, 1))×", pass: ratio <= maxRatio))
        details.append("Logging on \(onTmpfs ? "tmpfs (/dev/shm, fsync is free)" : "a file")\(mode.isEmpty ? ", one growing workout" : mode), "
                       + "\(calls) calls each (µs): raw C API \(describeStats(l.raw)); domain \(describeStats(l.empty)).")
    }
    return (rows, details)
}

func describeStats(_ s: Stats) -> String {
    "median \(fmt(s.median, 0)), p99 \(fmt(s.p99, 0)), mean \(fmt(s.mean, 0)), max \(fmt(s.max, 0))"
}

/// SQLite's time per statement text over a loop, for `log-loop --trace`.
final class StatementTimes: @unchecked Sendable {
    private var order: [String] = []
    private var totals: [String: (count: Int, seconds: Double)] = [:]

    func add(_ sql: String, _ seconds: Double) {
        if totals[sql] == nil { order.append(sql) }
        totals[sql, default: (0, 0)].count += 1
        totals[sql]!.seconds += seconds
    }

    func show(calls: Int, perCall: Double) {
        var inSQLite = 0.0
        for sql in order {
            let (count, seconds) = totals[sql]!
            let micros = seconds * 1e6 / Double(calls)
            inSQLite += micros
            let oneLine = sql.split(whereSeparator: \.isNewline).joined(separator: " ")
            print("\(fmt(micros, 1).leftPadded(7)) µs/call  \(fmt(Double(count) / Double(calls), 2)) runs/call  \(oneLine.prefix(110))")
        }
        print("\(fmt(inSQLite, 1).leftPadded(7)) µs/call in SQLite's steps; \(fmt(perCall - inSQLite, 1)) µs/call elsewhere")
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}

func fmt(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", x) }

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Measure logging, the one-shot process and export against their baselines.",
        discussion: """
            Prints a table and rewrites FILE. --quick uses a 100,000-set history (1,000,000 otherwise).
            Example: .build/release/gymlog-bench run --quick
            """)

    @OptionGroup var report: ReportOptions

    @Option(help: "Sets in the generated history.") var sets: Count?
    @Option(help: "Logging calls per measurement (default 2000).") var calls: Count?
    @Option(help: "One-shot process runs (default 50).") var runs: Count?

    func run() async throws { try runCommand(self) }
}

func runCommand(_ options: RunCommand) throws {
    let quick = options.report.quick
    let historySets = options.sets?.value ?? (quick ? 100_000 : 1_000_000)
    let calls = options.calls?.value ?? 2000
    let processRuns = options.runs?.value ?? 50
    let outPath = options.report.out ?? "BENCHMARKS.md"

    let gymlog = try releaseProduct("gymlog")
    let sqlite3 = findOnPath("sqlite3")
    if sqlite3 == nil {
        log("sqlite3 is not installed: baselines (c) and (d) are skipped. Install it with `apt-get install -y sqlite3`.")
    }

    let workDir = try WorkingDirectory(prefix: "gymlog-bench", keep: options.report.keep)
    defer { workDir.finish() }
    let dir = workDir.path

    var rows: [ResultRow] = []
    var details: [String] = []

    // The history first: (d) exports it as generated, then (b) logs on top of it.
    log("generating a \(historySets)-set history…")
    let historyPath = dir + "/history.sqlite"
    let h = try HistoryGenerator(sets: historySets).generate(path: historyPath, progress: log)
    details.append("History: \(h.sets) sets, \(h.workouts) workouts, \(h.exercises) exercises, \(h.records) records, "
                   + "\(h.fileBytes / 1_048_576) MiB; generated in \(fmt(h.insertSeconds, 1)) s + records rebuild "
                   + "by the product in \(fmt(h.recordsSeconds, 1)) s.")

    log("(d) export, 1 warm-up + 3 runs each…")
    let e = try measureExport(directory: dir, gymlog: gymlog, sqlite3: sqlite3, database: historyPath, runs: 3)
    let setsLabel = h.sets >= 1_000_000 ? "\(h.sets / 1_000_000)M" : "\(h.sets / 1000)k"
    rows.append(versusShell(id: "d", what: "export \(setsLabel) sets, median wall", unit: "s", gymlog: e.gymlog.median,
                            shell: e.shell?.median, shellName: "sqlite3 -csv", maxRatio: 2))
    let rssMiB = Double(e.gymlogMaxRSSKiB) / 1024
    rows.append(ResultRow(id: "d", what: "export \(setsLabel) sets, peak RSS", figure: "\(fmt(rssMiB, 1)) MiB",
                          baseline: "—", ratio: "—", target: "< 64 MiB", pass: rssMiB < 64))
    details.append("Export runs (s): gymlog \(e.gymlog.sorted.map { fmt($0, 2) }.joined(separator: ", "))"
                   + (e.shell.map { "; sqlite3 -csv " + $0.sorted.map { fmt($0, 2) }.joined(separator: ", ") } ?? "")
                   + ". Lines written: gymlog \(e.gymlogLines) (header + rows)"
                   + (e.shellLines.map { ", sqlite3 \($0) (rows)" } ?? "") + ". Peak RSS is measured through a small helper "
                   + "process (see Processes.swift); the same helper running /bin/true reports \(e.floorRSSKiB / 1024) MiB.")

    let describe = describeStats
    // As the brief states it: N sequential calls on the real clock, so all of them land in
    // one workout that grows to N sets. Then the same with realistic 25-set workouts.
    for (suffix, perWorkout) in [("", nil), ("*", 25)] as [(String, Int?)] {
        let mode = perWorkout.map { ", \($0)-set workouts" } ?? ""
        log("(a\(suffix))+(b\(suffix)) logging\(mode), \(calls) interleaved calls each…")
        let l = try measureLogging(directory: dir, historyPath: historyPath, iterations: calls, setsPerWorkout: perWorkout)
        let ratioA = l.empty.median / l.raw.median
        // Issue 2 asked ≤ 1.5× of the growing workout; issue 15 asks ≤ 1.2× of real 25-set workouts.
        let maxRatioA = perWorkout == nil ? 1.5 : 1.2
        rows.append(ResultRow(id: "a" + suffix, what: "log one set (domain)\(mode), median", figure: "\(fmt(l.empty.median, 0)) µs",
                              baseline: "\(fmt(l.raw.median, 0)) µs (raw C API)", ratio: "\(fmt(ratioA, 2))×",
                              target: "≤ \(fmt(maxRatioA, 1))×", pass: ratioA <= maxRatioA))
        rows.append(ResultRow(id: "a" + suffix, what: "log one set (domain)\(mode), p99", figure: "\(fmt(l.empty.p99, 0)) µs",
                              baseline: "\(fmt(l.raw.p99, 0)) µs (raw C API)", ratio: "\(fmt(l.empty.p99 / l.raw.p99, 2))×",
                              target: "< 2000 µs", pass: l.empty.p99 < 2000))
        let lh = l.history!
        let ratioB = lh.p99 / l.empty.p99
        rows.append(ResultRow(id: "b" + suffix, what: "log one set, \(setsLabel)-set history\(mode), p99", figure: "\(fmt(lh.p99, 0)) µs",
                              baseline: "\(fmt(l.empty.p99, 0)) µs (empty history)", ratio: "\(fmt(ratioB, 2))×",
                              target: "≤ 1× (+10 % noise)", pass: ratioB <= 1.10))
        details.append("Logging\(mode.isEmpty ? ", one growing workout" : mode), \(calls) calls each (µs): raw C API \(describe(l.raw)); "
                       + "domain, empty history \(describe(l.empty)); domain, \(setsLabel)-set history \(describe(lh)). "
                       + "Median ratio history/empty: \(fmt(lh.median / l.empty.median, 2))×.")
    }

    // (e) What the REPL reads around a logged line, never inside its write: "last time" under
    // the first set of an exercise, and one routine line's suggestion (its sessions + the rule).
    log("(e) last time and a plan line on the \(setsLabel)-set history, \(calls) reads each…")
    let r = try measurePlanReads(historyPath: historyPath, iterations: calls)
    rows.append(ResultRow(id: "e", what: "last time read, \(setsLabel)-set history, median", figure: "\(fmt(r.lastTime.median, 0)) µs",
                          baseline: "—", ratio: "—", target: "< 1000 µs, off the write", pass: r.lastTime.median < 1000))
    rows.append(ResultRow(id: "e", what: "one routine line planned (sessions + rule), median", figure: "\(fmt(r.planLine.median, 0)) µs",
                          baseline: "—", ratio: "—", target: "< 5000 µs, when shown", pass: r.planLine.median < 5000))
    details.append("Reads around logging on the \(setsLabel)-set history, \(calls) each (µs), for '\(r.exercise)': last time "
                   + "\(describe(r.lastTime)); one routine line (`linear +2.5`: 40 past sessions read, then the rule) \(describe(r.planLine)).")

    // The same without fsync (tmpfs): what the store's own CPU work costs next to the raw C API.
    let tmpfs = try tmpfsLoggingRows(calls: calls)
    rows += tmpfs.rows
    details += tmpfs.details

    // (c), (c') and (v): the one-shot process (StartupBench.swift).
    let startup = try measureStartup(directory: dir, gymlog: gymlog, sqlite3: sqlite3, runs: processRuns)
    rows += startup.rows
    details += startup.details

    let report = Report(machine: .current(), quick: quick, rows: rows, details: details)
    report.show()
    try report.write(to: outPath)
    log("wrote \(outPath)")
}

/// A row that compares a gymlog median with the sqlite3 shell's (nil when sqlite3 is not installed).
func versusShell(id: String, what: String, unit: String, gymlog: Double, shell: Double?, shellName: String,
                 maxRatio: Double) -> ResultRow {
    let figure = "\(fmt(gymlog, 2)) \(unit)", target = "≤ \(String(format: "%g", maxRatio))×"
    guard let shell else {
        return ResultRow(id: id, what: what, figure: figure, baseline: "sqlite3 not installed", ratio: "—", target: target, pass: nil)
    }
    let ratio = gymlog / shell
    return ResultRow(id: id, what: what, figure: figure, baseline: "\(fmt(shell, 2)) \(unit) (\(shellName))",
                     ratio: "\(fmt(ratio, 2))×", target: target, pass: ratio <= maxRatio)
}
