import ArgumentParser
import Foundation

// gymlog-bench: the performance benchmark of issue 2, run on demand (never in tests). One
// subcommand per benchmark; BENCHMARKS.md shows the command lines.

@main
struct GymlogBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gymlog-bench",
        abstract: "Measure gymlog against its performance targets and rewrite BENCHMARKS.md.",
        discussion: """
            Build first: swift build -c release. Each benchmark rewrites its own section of the \
            file given by --out (default BENCHMARKS.md).

            Examples:
              .build/release/gymlog-bench run --quick
              .build/release/gymlog-bench sync --quick
              .build/release/gymlog-bench generate --db big.sqlite --sets 1000000 --seed 1
            """,
        subcommands: [GenerateCommand.self, RunCommand.self, SyncCommand.self, LoadCommand.self, ImportCommand.self,
                      LogLoopCommand.self, ChildRusageCommand.self]
    )
}

/// A positive whole number; `1_000_000` and `1,000,000` read as 1000000.
struct Count: ExpressibleByArgument, Sendable {
    let value: Int

    init?(argument: String) {
        guard let n = Int(argument.replacingOccurrences(of: "_", with: "").replacingOccurrences(of: ",", with: "")), n > 0 else { return nil }
        value = n
    }

    var defaultValueDescription: String { String(value) }
}

/// What every benchmark that rewrites a section of BENCHMARKS.md takes.
struct ReportOptions: ParsableArguments {
    @Flag(help: "A smaller run for a quick look (see above); not the figures of record.") var quick = false
    @Option(help: "The file to rewrite (default BENCHMARKS.md).") var out: String?
    @Flag(help: "Keep the working files.") var keep = false
}

struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a realistic multi-year history of N sets into a database (replaced if present).",
        discussion: "Example: gymlog-bench generate --db big.sqlite --sets 1000000 --seed 1 --years 5")

    @Option(help: "The database file to write.") var db: String
    @Option(help: "How many sets.") var sets: Count
    @Option(help: "The generator's seed.") var seed: Count?
    @Option(help: "The years the history spans.") var years: Double?

    func validate() throws {
        if let years, !(years > 0) { throw ValidationError("--years \(years) is not a positive number") }
    }

    func run() async throws { try generateCommand(self) }
}

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

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Measure push, pull, no-op sync, A-to-B latency and server memory.",
        discussion: """
            Runs against the release gymlog-server on loopback (or --server PATH), prints a table and \
            rewrites the sync section of FILE.
            Example: .build/release/gymlog-bench sync --quick
            """)

    @OptionGroup var report: ReportOptions

    @Option(help: "Events to push.") var events: Count?
    @Option(help: "Changes to pull.") var changes: Count?
    @Option(help: "A-to-B latency rounds.") var rounds: Count?
    @Option(help: "The gymlog-server binary (default: next to this one).") var server: String?

    func run() async throws { try await syncCommand(self) }
}

struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Many devices pushing and pulling at once against SQLite and PostgreSQL servers.",
        discussion: "Example: .build/release/gymlog-bench load --quick --postgres postgres://USER@HOST:PORT/DATABASE")

    @OptionGroup var report: ReportOptions

    @Option(help: "Devices (default 50).") var devices: Count?
    @Option(help: "Users the devices belong to (default 10).") var users: Count?
    @Option(help: "Rounds per device (default 20).") var rounds: Count?
    @Option(help: "Events per push (default 50).") var batch: Count?
    @Option(name: .customLong("pool-size"), help: "The PostgreSQL pool size (default 10).") var poolSize: Count?
    @Option(help: "The gymlog-server binary (default: next to this one).") var server: String?
    @Option(help: "A PostgreSQL server to use instead of a throwaway cluster.") var postgres: String?
    @Option(name: .customLong("pg-bin"), help: "The folder of initdb and pg_ctl.") var pgBin: String?

    func run() async throws { try loadCommand(self) }
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
    @Option(help: "Runs (default 3).") var runs: Count?
    @Flag(help: "Write the rows through the plain write pipeline (the baseline child).") var baseline = false
    @Option(help: "The database of --baseline.") var db: String?

    func run() async throws { try importBenchCommand(self) }
}

struct LogLoopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log-loop",
        abstract: "Only the domain logging loop (`bench 100x5`), for a profiler.",
        discussion: "Example: perf record -g .build/release/gymlog-bench log-loop --db /tmp/x.sqlite --calls 5000")

    @Option(help: "The database file.") var db: String
    @Option(help: "Calls (default 2000).") var calls: Count?
    @Option(name: .customLong("per-workout"), help: "Sets per workout (the real clock otherwise).") var perWorkout: Count?
    @Flag(help: "Print every statement with its duration.") var trace = false

    func run() async throws { try logLoopCommand(self) }
}

/// `child-rusage [--stdout FILE] -- ARGV…`: the small helper process that measures a child.
struct ChildRusageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "child-rusage",
        abstract: "Run ARGV and print \"wall_ns maxrss_kib\" (used by the benchmarks).",
        shouldDisplay: false)

    @Option(help: "Where the child's stdout goes.") var stdout: String?
    @Argument(parsing: .postTerminator, help: "The command to run.") var argv: [String] = []

    func run() async throws {
        let status = childRusageCommand(stdoutPath: stdout, argv: argv)
        if status != 0 { throw ExitCode(status) }
    }
}
