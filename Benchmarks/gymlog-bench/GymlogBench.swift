import ArgumentParser
import Foundation

// gymlog-bench: the performance benchmark of issue 2, run on demand (never in tests). One
// subcommand per benchmark, declared beside the function that runs it; BENCHMARKS.md shows the command lines.

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
                      OfflineCommand.self, StartupCommand.self, WriteCommand.self, LogLoopCommand.self, ChildRusageCommand.self]
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

/// `--db FILE`: the database a benchmark writes or logs into.
struct DatabaseOption: ParsableArguments {
    @Option(help: "The database file (replaced by generate).") var db: String
}
