import Foundation

/// Everything one `gymlog-bench run` measured, ready to print and to write to BENCHMARKS.md.
struct Report {
    var machine: MachineFacts
    var quick: Bool
    var rows: [ResultRow]
    var details: [String]

    /// The results as a fixed-width table for the terminal.
    func table() -> String {
        let header = ["#", "measurement", "gymlog", "baseline", "ratio", "target", "result"]
        let cells = rows.map { [$0.id, $0.what, $0.figure, $0.baseline, $0.ratio, $0.target, $0.verdict] }
        let widths = header.indices.map { i in ([header[i]] + cells.map { $0[i] }).map(\.count).max() ?? 0 }
        func line(_ c: [String]) -> String {
            c.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }
        return ([line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")] + cells.map(line))
            .joined(separator: "\n")
    }

    /// Prints the table, then the details, for whoever ran the benchmark.
    func show() {
        print(table())
        print("")
        details.forEach { print("- " + $0) }
    }

    /// The generated part of BENCHMARKS.md.
    func markdown() -> String {
        var out = "## Results\n\n"
        out += quick ? "**Quick run** (`--quick`: 100,000-set history); not the figures of record.\n\n" : ""
        out += resultsTableMarkdown(machine: machine, rows: rows)
        out += "\n### Details\n\n"
        out += details.map { "- " + $0 }.joined(separator: "\n") + "\n"
        return out
    }

    static let marker = "<!-- Everything below this line is rewritten by `gymlog-bench run`; edit the text above it. -->"

    /// Rewrites the generated part of `path`, keeping the hand-written header above the marker.
    func write(to path: String) throws {
        var header = Self.defaultHeader
        if let existing = try? String(contentsOfFile: path, encoding: .utf8) {
            if let range = existing.range(of: Self.marker) {
                header = String(existing[..<range.lowerBound])
            } else if !existing.isEmpty {
                header = existing.hasSuffix("\n\n") ? existing : existing + "\n"
            }
        }
        try (header + Self.marker + "\n\n" + markdown()).write(toFile: path, atomically: true, encoding: .utf8)
    }

    static let defaultHeader = """
        # Benchmarks

        The performance targets of issue 2, each measured against a baseline taken in the
        same run on the same machine, so the ratios mean something even when the absolute
        figures do not travel. Timings are never asserted in tests; this file is the record.

        ## How to reproduce

        ```sh
        swift build -c release
        .build/release/gymlog-bench run            # ~1,000,000-set history; a few minutes
        .build/release/gymlog-bench run --quick    # 100,000-set history, for a quick look
        ```

        `run` rewrites the results below. Working files go to a fresh directory under
        `$TMPDIR` (or `/tmp`), removed afterwards unless `--keep` is given. The `sqlite3`
        shell is needed for baselines (c) and (d): `apt-get install -y sqlite3`.
        A history on its own: `.build/release/gymlog-bench generate --db big.sqlite --sets 1000000 [--seed 1]`.

        ## What is measured

        - **(a) Logging one set** — `GymLogDatabase.logSets(exercise:specs:)` for `bench 100x5`
          into a file database (WAL, `synchronous=FULL`, as the store opens it), 2,000 calls.
          Baseline: the same two INSERTs (a `sets` row and an `outbox` row with the same
          columns and value shapes, clocks and payload included) through the raw SQLite C
          API: statements prepared once, then `BEGIN IMMEDIATE`; bind; step; `COMMIT` per set,
          on a file with the same schema and PRAGMAs (`journal_mode=WAL`,
          `synchronous=FULL`, `foreign_keys=ON`) in the same directory. The raw, empty and
          history variants are interleaved call by call, so drifting `fsync` latency hits
          all of them alike; 20 warm-up calls each are discarded.
        - **(b) Logging with a big history** — the same calls on a database holding the
          generated history (1,000,000 sets; 100,000 with `--quick`), compared with the
          empty database's p99 from the same interleaved loop. "No worse" is judged with a
          10 % allowance for the noise of a 99th percentile of 2,000 `fsync`-bound samples.
        - **Variants** (same loop, extra rows): `a*`/`b*` give every workout 25 sets (each store's
          clock jumps three hours ahead every 25 calls, so the idle gap starts a new workout, as a
          real session would), because 2,000 calls on the real clock all land in ONE workout
          whose per-call queries (set order, session volume, last activity) grow with its size.
          `a'`/`a'*` run the same on tmpfs (`/dev/shm`), where `fsync` is free, to show the
          store's own CPU cost next to the raw C API; they carry no target.
        - **(c) One-shot process** — `gymlog log --db FILE "bench 100x5"` (the release binary
          next to `gymlog-bench`, `GYMLOG_CONFIG` pointing at a file that does not exist)
          spawned with `posix_spawn` 50 times, median wall time from spawn to `wait4`.
          Baseline: `sqlite3 FILE "PRAGMA synchronous=FULL; …; BEGIN IMMEDIATE; INSERT …;
          INSERT …; COMMIT;"` on an identical-schema database, interleaved with it. Three
          warm-up runs each are discarded.
        - **(d) Export** — `gymlog export --out FILE --db HISTORY` against
          `sqlite3 -csv HISTORY "SELECT …" > FILE` running the export's own query (same
          columns, joins, filter and ORDER BY as `forEachExportRow`). gymlog additionally
          formats times as ISO 8601 with offsets, numbers sets, and `fsync`s and renames its
          output file. One warm-up run each, then the median of three. Peak memory is the
          child's `ru_maxrss` from `wait4`.

        ## The generated history

        `gymlog-bench generate` opens the file with `GymLogDatabase(path:)` (so the
        product's migrations make the schema and device row), then bulk-inserts with the
        C API in 50,000-set transactions: 25 exercises (barbell lifts in kg, dumbbell and
        machine work in lb, bodyweight with and without added load, a timed plank, rowing
        and running for distance), 8 aliases (`bench` -> Bench Press, …), workouts of 20–30
        sets following a push/pull/legs/upper/lower rotation with warm-ups, progressive loads
        with a periodisation wave and day-to-day noise, occasional RPE, drop and failure sets,
        set and workout notes (some with commas and quotes), time zones switching with DST.
        Every row carries per-field clocks in the JSON shape the write pipeline stores.
        The outbox is left empty: the history stands for changes the server acknowledged
        long ago. Records are then rebuilt by the product itself (the stored e1RM formula
        is marked stale, so `GymLogDatabase.records()` recomputes every exercise).
        A real lifter logs about 25 sets × 4 workouts × 52 weeks ≈ 5,000 sets a year, so
        1,000,000 sets is two centuries of training; the generator keeps each workout
        realistic and compresses the calendar into 8 years (a workout every ~1.7 hours),
        which is what the indexes and the export see.


        """
}

/// The part every results section of BENCHMARKS.md starts with: when and where it was
/// measured, then the figures table.
func resultsTableMarkdown(machine: MachineFacts, rows: [ResultRow]) -> String {
    var out = "- Date: \(machine.date)\n"
    out += "- Machine: \(machine.cpus) CPUs (`nproc`), \(machine.cpuModel), \(machine.memory) RAM, \(machine.kernel)\n"
    out += "- SQLite linked by gymlog-bench: \(machine.sqlite); release build (`-c release`)\n\n"
    out += "| # | Measurement | gymlog | Baseline | Ratio | Target | Result |\n"
    out += "|---|---|---|---|---|---|---|\n"
    for r in rows {
        out += "| \(r.id) | \(r.what) | \(r.figure) | \(r.baseline) | \(r.ratio) | \(r.target) | **\(r.verdict)** |\n"
    }
    return out
}

/// Replaces the text between `begin` and `end` in the file at `path`, or, the first time,
/// inserts the section just above the `run` marker (or at the end when that is missing too).
/// Each subcommand owns one such section, so none of them touches another's figures.
func rewriteMarkedSection(in path: String, begin: String, end: String, content: String) throws {
    let existing = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    let block = begin + "\n\n" + content.trimmingCharacters(in: .whitespacesAndNewlines) + "\n\n" + end + "\n"
    let text: String
    if let b = existing.range(of: begin), let e = existing.range(of: end, range: b.upperBound..<existing.endIndex) {
        var tail = existing[e.upperBound...]
        if tail.hasPrefix("\n") { tail = tail.dropFirst() }
        text = String(existing[..<b.lowerBound]) + block + tail
    } else if let m = existing.range(of: Report.marker) {
        text = String(existing[..<m.lowerBound]) + block + "\n" + String(existing[m.lowerBound...])
    } else if existing.isEmpty {
        text = Report.defaultHeader + block + "\n" + Report.marker + "\n"
    } else {
        text = existing + (existing.hasSuffix("\n") ? "\n" : "\n\n") + block
    }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
}

/// A fresh directory under `$TMPDIR` (or /tmp) for one subcommand's working files,
/// removed by `finish()` unless `--keep` was given.
struct WorkingDirectory {
    let path: String
    let keep: Bool

    init(prefix: String, keep: Bool) throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/\(prefix).XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("cannot make a directory under \(base)") }
        path = String(cString: made)
        self.keep = keep
        log("working directory: \(path)")
    }

    func finish() {
        if keep { log("kept working files in \(path)") } else { try? FileManager.default.removeItem(atPath: path) }
    }
}

/// A section of BENCHMARKS.md that one benchmark rewrites between its two markers.
protocol MarkedSection {
    static var begin: String { get }
    static var end: String { get }
    func markdown() -> String
}

extension MarkedSection {
    /// Replaces this section of BENCHMARKS.md (see `rewriteMarkedSection`).
    func write(to path: String) throws {
        try rewriteMarkedSection(in: path, begin: Self.begin, end: Self.end, content: markdown())
    }
}

/// A section's results: the table (with a note when `quick`), then the details as a list.
func resultsMarkdown(_ r: Report, title: String, quickRun: String) -> String {
    var out = "### \(title) results\n\n"
    out += r.quick ? "**Quick run** \(quickRun); not the figures of record.\n\n" : ""
    out += resultsTableMarkdown(machine: r.machine, rows: r.rows)
    out += "\n#### \(title) details\n\n"
    out += r.details.map { "- " + $0 }.joined(separator: "\n") + "\n"
    return out
}
