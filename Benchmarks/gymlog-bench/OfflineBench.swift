import ArgumentParser
import Foundation
import GymLogStore

// Issue 28: a writing command starts a detached `gymlog sync --background` and returns at once,
// so with the server down a one-shot `gymlog log` must take as long as with no server at all.

struct OfflineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offline",
        abstract: "Time a one-shot `gymlog log` whose server is down against one with no server.",
        discussion: """
            Rewrites the offline section of FILE. Needs the release gymlog next to gymlog-bench \
            (static, as the README installs it: swift build -c release --static-swift-stdlib --product gymlog).
            Example: .build/release/gymlog-bench offline
            """)

    @OptionGroup var report: ReportOptions
    @Option(help: "Runs of each variant (default 50; 15 with --quick).") var runs: Count?

    func run() async throws { try offlineCommand(self) }
}

/// Where a variant's `gymlog log` sends its background sync.
private enum OfflineServer: CaseIterable {
    /// No `gymlog login`: no credentials, so no background sync (the baseline).
    case noServer
    /// A loopback port bound by nobody listening: every connection is refused at once.
    case refused
    /// A loopback port that accepts connections (the kernel completes them) and never answers.
    case hanging

    var name: String {
        switch self {
        case .noServer: "no server configured"
        case .refused: "server down (connection refused)"
        case .hanging: "server that accepts and never answers"
        }
    }
}

/// One variant: its own database, credentials and sync log, so their states never mix.
private struct OfflineVariant {
    let server: OfflineServer
    let database: String
    let environment: [String]
    let syncLog: String
    var samples: [Double] = []
    var backgroundSyncs = 0
}

func offlineCommand(_ options: OfflineCommand) throws {
    let quick = options.report.quick
    let runs = options.runs?.value ?? (quick ? 15 : 50)
    let warmup = 3
    let gymlog = try releaseProduct("gymlog")
    let linking = linksSwiftRuntimeDynamically(gymlog) ? "dynamic build" : "static build"
    if linking == "dynamic build" {
        log("warning: \(gymlog) links the Swift runtime dynamically; this is meant for the static build: swift build -c release --static-swift-stdlib --product gymlog")
    }
    let workDir = try WorkingDirectory(prefix: "gymlog-bench-offline", keep: options.report.keep)
    defer { workDir.finish() }
    let dir = workDir.path

    // Both sockets stay open for the whole run, so nobody else takes their ports.
    let refused = try loopbackSocket(listening: false), hanging = try loopbackSocket(listening: true)
    defer { close(refused.fd); close(hanging.fd) }
    var variants = try OfflineServer.allCases.map { server -> OfflineVariant in
        let home = dir + "/\(server)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let port: UInt16? = switch server {
        case .noServer: nil
        case .refused: refused.port
        case .hanging: hanging.port
        }
        if let port {
            // What `gymlog login` saves (where `childEnvironment` puts XDG_DATA_HOME); written by
            // hand because login asks the server.
            try FileManager.default.createDirectory(atPath: home + "/data/gymlog", withIntermediateDirectories: true)
            try "server = \"http://127.0.0.1:\(port)\"\ntoken = \"glt_bench\"\n"
                .write(toFile: home + "/data/gymlog/credentials.toml", atomically: true, encoding: .utf8)
        }
        return OfflineVariant(server: server, database: home + "/gymlog.sqlite", environment: childEnvironment(directory: home),
                              syncLog: home + "/state/gymlog/sync.log")
    }

    log("one-shot `gymlog log` (\(linking)), \(warmup) warm-up + \(runs) runs of each of \(variants.count) variants, interleaved…")
    for round in 0..<(warmup + runs) {
        // The variants take turns at going first, so a busy spell hits each alike.
        for k in 0..<variants.count {
            let i = (round + k) % variants.count
            let v = variants[i]
            if v.server != .noServer, FileManager.default.fileExists(atPath: v.database) {
                // Forget the last failure, so this run starts a background sync instead of
                // backing off: the dearer case, measured every time.
                try GymLogDatabase(path: v.database).clearSyncError()
            }
            let failures = syncLogFailures(v.syncLog)
            let run = try spawnAndWait([gymlog, "log", "--db", v.database, "bench 100x5"], environment: v.environment,
                                       stderrPath: dir + "/child.stderr")
            // Outside the timed part: the background sync the command left behind ends (it
            // fails at once when refused; a hanging one is killed), so none runs during the next.
            // A refused one begins only as the command ends and may be over before it is looked
            // for, so it is counted by the failure it logs.
            var started = try settleBackgroundSyncs(of: v.database, kill: v.server == .hanging)
            if v.server == .refused {
                let deadline = Date().addingTimeInterval(60)
                while syncLogFailures(v.syncLog) == failures, Date() < deadline { usleep(2_000) }
                _ = try settleBackgroundSyncs(of: v.database, kill: false)
                started = syncLogFailures(v.syncLog) - failures
            }
            if round >= warmup {
                variants[i].samples.append(Double(run.wallNanos) / 1e6)
                variants[i].backgroundSyncs += started
            }
        }
    }

    // The measurement is what it says only if every logged-in run started one background sync.
    for v in variants where v.backgroundSyncs != (v.server == .noServer ? 0 : runs) {
        throw BenchError("\(v.server.name): \(v.backgroundSyncs) background syncs for \(runs) runs; expected \(v.server == .noServer ? 0 : runs)")
    }

    let stats = variants.map { Stats($0.samples) }
    let baseline = stats[0]
    var rows: [ResultRow] = []
    var details: [String] = []
    for (v, s) in zip(variants, stats).dropFirst() {
        let ratio = s.median / baseline.median
        rows.append(ResultRow(id: v.server == .refused ? "o1" : "o2",
                              what: "`gymlog log \"bench 100x5\"` process (\(linking)), logged in, \(v.server.name), median",
                              figure: "\(fmt(s.median, 2)) ms", baseline: "\(fmt(baseline.median, 2)) ms (no server configured)",
                              ratio: "\(fmt(ratio, 2))×", target: "≤ 1.10× (as long as without a server; 10 % for noise)",
                              pass: ratio <= 1.10))
    }
    for (v, s) in zip(variants, stats) {
        var line = "\(v.server.name): median \(fmt(s.median, 2)), p90 \(fmt(s.percentile(90), 2)), p99 \(fmt(s.p99, 2)), "
            + "mean \(fmt(s.mean, 2)), max \(fmt(s.max, 2)) ms"
        if v.server != .noServer {
            let logLines = ((try? String(contentsOfFile: v.syncLog, encoding: .utf8)) ?? "").split(separator: "\n")
            line += "; \(v.backgroundSyncs) background syncs started, one per run"
            line += v.server == .refused
                ? " (counted by the failures the sync log holds: \(logLines.filter { $0.contains("failed:") }.count), warm-up included, e.g. “\(logLines.last.map { String($0.drop { $0 != " " }.dropFirst()) } ?? "")”)"
                : " (each killed once its command had returned; the log holds \(logLines.count) lines)"
        }
        details.append(line + ".")
    }
    details.append("Each run: `gymlog log --db FILE \"bench 100x5\"` spawned with `posix_spawn`, timed to `wait4`; \(runs) runs of each "
                   + "variant after \(warmup) warm-up runs, interleaved round by round (each variant going first in turn). Each variant "
                   + "has its own database, growing by one set a run alike.")

    let report = Report(machine: .current(), quick: quick, rows: rows, details: details)
    report.show()
    let outPath = options.report.out ?? "BENCHMARKS.md"
    try OfflineSection(report: report, runs: runs).write(to: outPath)
    log("wrote \(outPath)")
}

/// A TCP socket bound to a free loopback port: listening (the kernel accepts connections that
/// nobody answers) or not (the kernel refuses them).
private func loopbackSocket(listening: Bool) throws -> (fd: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw BenchError("cannot open a socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    // A backlog past the runs: every killed client's connection stays queued, unanswered.
    guard bound, !listening || listen(fd, 1024) == 0 else {
        close(fd)
        throw BenchError("cannot bind a loopback port: \(String(cString: strerror(errno)))")
    }
    return (fd, UInt16(bigEndian: address.sin_port))
}

/// The failures the sync log at `path` holds (one line each).
private func syncLogFailures(_ path: String) -> Int {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.contains("failed:") }.count
}

/// Waits until no `gymlog sync --background --db DATABASE` runs (SIGKILLing them first when
/// `kill`), at most a minute, and returns how many there were. The background sync runs in a
/// session of its own and is no child of ours, so it is found by its command line; posix_spawn
/// returns once the child has exec'd, so it is there when the command that started it has ended.
///
/// A process in the middle of an exec has no command line (from the switch to its new memory
/// until its arguments are laid out there), and the gate shell becomes the sync by an exec
/// just as the command returns: so an empty look is taken again for up to 100 ms before it
/// counts as none, and the end is seen twice, 20 ms apart.
private func settleBackgroundSyncs(of database: String, kill shouldKill: Bool) throws -> Int {
    var found = backgroundSyncs(of: database)
    let looked = Date()
    while found.isEmpty && Date().timeIntervalSince(looked) < 0.1 {
        usleep(1_000)
        found = backgroundSyncs(of: database)
    }
    if shouldKill { for pid in found { kill(pid, SIGKILL) } }
    let deadline = Date().addingTimeInterval(60)
    var emptyBefore = false
    while true {
        let empty = backgroundSyncs(of: database).isEmpty
        if empty && emptyBefore { break }
        emptyBefore = empty
        guard Date() < deadline else { throw BenchError("a background sync of \(database) still runs after a minute") }
        usleep(empty ? 20_000 : 2_000)
    }
    return found.count
}

/// The pids whose command line ends `… sync --background --db DATABASE`: the sync, or the small
/// shell that waits for the command's end and then becomes it (a zombie's command line is empty).
private func backgroundSyncs(of database: String) -> [pid_t] {
    let wanted = ["sync", "--background", "--db", database]
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry in
        guard let pid = pid_t(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
        let argv = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return argv.count > wanted.count && Array(argv.suffix(wanted.count)) == wanted ? pid : nil
    }
}

/// The offline section of BENCHMARKS.md, rewritten by `gymlog-bench offline` between its markers.
struct OfflineSection: MarkedSection {
    var report: Report
    var runs: Int

    static let begin = "<!-- Begin of the offline section: rewritten by `gymlog-bench offline` up to the end marker; edit OfflineBench.swift, not this text. -->"
    static let end = "<!-- End of the offline section (`gymlog-bench offline`). -->"

    func markdown() -> String {
        var out = "## A server that is down costs a command nothing (issue 28)\n\n"
        out += """
            Once logged in, a writing command starts a detached `gymlog sync --background` as it ends
            and returns at once. `gymlog-bench offline` checks that a server that is down costs the
            command nothing: the wall time of one-shot `gymlog log` processes, logged in to a server
            that is down, against the same with no server configured (the baseline), in one run.

            ```sh
            swift build -c release --product gymlog-bench
            swift build -c release --static-swift-stdlib --product gymlog
            .build/release/gymlog-bench offline            # 50 runs of each variant; under a minute
            .build/release/gymlog-bench offline --quick    # 15 runs
            ```

            `offline` rewrites only this section (between its markers). Working files go to a fresh
            directory under `$TMPDIR` (or `/tmp`), removed unless `--keep` is given.

            - **o1 Server down** — `gymlog log --db FILE "bench 100x5"` (the release binary next to
              `gymlog-bench`; the row says "static build" or "dynamic build" from `ldd`) with
              credentials naming a loopback port bound by a socket that does not listen, so the
              background sync's connection is refused. Before each run the sync state's backoff is
              cleared (`clearSyncError`, untimed), so every run starts a background sync, the dearer
              case (within a backoff a command starts none). Timed from `posix_spawn` to `wait4` of
              the command alone; the background sync it started is then waited for (found by its
              command line, it is no child of the bench) before the next run, untimed.
            - **o2 Server that never answers** — the same with a loopback port that listens and never
              accepts: the kernel completes the connection and nobody answers. The background sync
              it started is killed (SIGKILL) once the command has returned, untimed.
            - **Baseline** — the same command with no credentials (never logged in): no background
              sync. The three variants run round by round, each going first in turn, each on its own
              database (three warm-up rounds discarded); every run of o1 and o2 must have started one
              background sync and the baseline's none, or the benchmark stops.


            """
        out += resultsMarkdown(report, title: "Offline", quickRun: "(`--quick`: \(runs) runs of each variant)")
        return out
    }
}
