import ArgumentParser
import Foundation

// Issue 31 (item 5): a one-shot `gymlog` starts like a C tool. Rows c (a file database), c' (on
// tmpfs, so the figure does not follow the disk's fsync) and v (`--version`), against the
// sqlite3 shell, measured by `run` among its rows and alone by `startup`.

struct StartupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "startup",
        abstract: "Time one-shot `gymlog` processes (log on a file and on tmpfs, --version) against the sqlite3 shell.",
        discussion: """
            Rewrites the start-up section of FILE (rows c, c' and v, which `run` measures too). Needs \
            the release gymlog next to gymlog-bench (static, as the README installs it: swift build -c \
            release --static-swift-stdlib --product gymlog) and the sqlite3 shell.
            Example: .build/release/gymlog-bench startup
            """)

    @OptionGroup var report: ReportOptions
    @Option(help: "Runs of each process (default 50; 15 with --quick).") var runs: Count?

    func run() async throws { try startupCommand(self) }
}

func startupCommand(_ options: StartupCommand) throws {
    let runs = options.runs?.value ?? (options.report.quick ? 15 : 50)
    let workDir = try WorkingDirectory(prefix: "gymlog-bench-startup", keep: options.report.keep)
    defer { workDir.finish() }
    let sqlite3 = findOnPath("sqlite3")
    if sqlite3 == nil {
        log("sqlite3 is not installed: the baselines are skipped. Install it with `apt-get install -y sqlite3`.")
    }
    let measured = try measureStartup(directory: workDir.path, gymlog: try releaseProduct("gymlog"), sqlite3: sqlite3, runs: runs)
    let report = Report(machine: .current(), quick: options.report.quick, rows: measured.rows, details: measured.details)
    report.show()
    let outPath = options.report.out ?? "BENCHMARKS.md"
    try StartupSection(report: report, runs: runs).write(to: outPath)
    log("wrote \(outPath)")
}

/// Rows c, c' and v with their details.
func measureStartup(directory: String, gymlog: String, sqlite3: String?, runs: Int) throws -> (rows: [ResultRow], details: [String]) {
    // The target is for gymlog as the README installs it: the static build.
    let linking = linksSwiftRuntimeDynamically(gymlog) ? "dynamic build" : "static build"
    if linking == "dynamic build" {
        log("warning: \(gymlog) links the Swift runtime dynamically; (c) is meant for the static build: swift build -c release --static-swift-stdlib --product gymlog")
    }
    var rows: [ResultRow] = [], details: [String] = []
    func record(_ id: String, _ place: String, _ p: ProcessResult, what: String) {
        rows.append(versusShell(id: id, what: "\(what) process (\(linking))\(place), median", unit: "ms", gymlog: p.gymlog.median,
                                shell: p.shell?.median, shellName: "sqlite3 shell", maxRatio: 1.5))
        details.append("One-shot \(what)\(place), \(linking), \(runs) runs each (ms): gymlog \(describeMillis(p.gymlog))"
                       + (p.shell.map { "; sqlite3 \(describeMillis($0))" } ?? "") + ".")
    }
    log("(c) one-shot `gymlog log` (\(linking)), \(runs) runs each…")
    record("c", "", try measureProcesses(directory: directory, gymlog: gymlog, sqlite3: sqlite3, runs: runs), what: "`gymlog log \"bench 100x5\"`")
    if let shm = try TmpfsDirectory() {
        defer { shm.remove() }
        log("(c') the same on tmpfs…")
        record("c'", " on tmpfs", try measureProcesses(directory: shm.path, gymlog: gymlog, sqlite3: sqlite3, runs: runs),
               what: "`gymlog log \"bench 100x5\"`")
    }
    log("(v) `gymlog --version`, \(runs) runs each…")
    let v = try measureVersion(directory: directory, gymlog: gymlog, sqlite3: sqlite3, runs: runs)
    rows.append(ResultRow(id: "v", what: "`gymlog --version` process (\(linking)), median", figure: "\(fmt(v.gymlog.median, 2)) ms",
                          baseline: v.shell.map { "\(fmt($0.median, 2)) ms (sqlite3 --version)" } ?? "sqlite3 not installed",
                          ratio: v.shell.map { "\(fmt(v.gymlog.median / $0.median, 2))×" } ?? "—", target: "≤ 3 ms",
                          pass: v.gymlog.median <= 3))
    details.append("`--version`, \(linking), \(runs) runs each (ms): gymlog \(describeMillis(v.gymlog))"
                   + (v.shell.map { "; sqlite3 \(describeMillis($0))" } ?? "") + ".")
    details.append("Each run is spawned with `posix_spawn` and timed to `wait4`, gymlog and sqlite3 in turn, after 3 warm-up runs "
                   + "each; (c') puts both databases, and gymlog's state folder, on /dev/shm.")
    return (rows, details)
}

private func describeMillis(_ s: Stats) -> String {
    "median \(fmt(s.median, 2)), p99 \(fmt(s.p99, 2)), mean \(fmt(s.mean, 2))"
}

/// (v): `gymlog --version` against `sqlite3 --version`, interleaved.
func measureVersion(directory: String, gymlog: String, sqlite3: String?, runs: Int, warmup: Int = 3) throws -> ProcessResult {
    let env = childEnvironment(directory: directory), stderrPath = directory + "/child.stderr"
    return try interleaved(runs: runs, warmup: warmup, gymlog: { try spawnAndWait([gymlog, "--version"], environment: env, stderrPath: stderrPath) },
                           shell: sqlite3.map { sqlite3 in { try spawnAndWait([sqlite3, "--version"], environment: env, stderrPath: stderrPath) } })
}

/// A fresh folder on tmpfs (/dev/shm), where fsync costs nothing; nil where there is none.
struct TmpfsDirectory {
    let path: String

    init?() throws {
        guard access("/dev/shm", W_OK) == 0 else { return nil }
        var template = Array("/dev/shm/gymlog-bench.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("cannot make a folder in /dev/shm: \(String(cString: strerror(errno)))") }
        path = String(cString: made)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// The start-up section of BENCHMARKS.md, rewritten by `gymlog-bench startup` between its markers.
struct StartupSection: MarkedSection {
    var report: Report
    var runs: Int

    static let begin = "<!-- Begin of the start-up section: rewritten by `gymlog-bench startup` up to the end marker; edit StartupBench.swift, not this text. -->"
    static let end = "<!-- End of the start-up section (`gymlog-bench startup`). -->"

    func markdown() -> String {
        var out = "## Start like a C tool (issue 31, item 5)\n\n"
        out += """
            A one-shot `gymlog` against the sqlite3 shell doing the same work: rows c (a file
            database), c' (the same on tmpfs, so the figure does not follow the disk) and v
            (`--version`). `run` measures the same rows among its own; `startup` measures only
            these and rewrites only this section.

            ```sh
            swift build -c release --product gymlog-bench
            swift build -c release --static-swift-stdlib --product gymlog
            .build/release/gymlog-bench startup            # 50 runs of each; under a minute
            .build/release/gymlog-bench startup --quick    # 15 runs
            ```

            - **c, c'** — as (c) above: `gymlog log --db FILE "bench 100x5"` against `sqlite3 FILE`
              with the same two INSERTs in one transaction, interleaved; c' with both files on
              /dev/shm. Target ≤ 1.5× (issue 31).
            - **v** — `gymlog --version` against `sqlite3 --version`. Target ≤ 3 ms.


            """
        out += resultsMarkdown(report, title: "Start-up", quickRun: "(`--quick`: \(runs) runs of each)")
        return out
    }
}
