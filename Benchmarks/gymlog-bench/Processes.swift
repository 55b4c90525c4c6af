import ArgumentParser
import Foundation

/// Nanoseconds on the monotonic clock.
func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// What one child process cost.
struct ChildRun {
    var wallNanos: UInt64
    /// Peak resident set size of the child, in KiB (Linux `ru_maxrss`).
    var maxRSSKiB: Int
    var exitStatus: Int32
}

/// A failed child, with what it wrote to standard error.
struct ChildFailure: Error, CustomStringConvertible {
    var description: String
}

/// Runs `argv` with posix_spawn and waits with wait4, timing spawn to reap.
///
/// Standard output goes to `stdoutPath` (created/truncated) or /dev/null; standard error
/// goes to `stderrPath` so a failure can be shown (inherited when nil).
func spawnAndWait(_ argv: [String], environment: [String], stdoutPath: String? = nil, stderrPath: String?) throws -> ChildRun {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdoutPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if let stderrPath { posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }

    let cArgs = argv.map { strdup($0) } + [nil]
    let cEnv = environment.map { strdup($0) } + [nil]
    defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) } }

    var pid: pid_t = 0
    let started = monotonicNanos()
    let rc = posix_spawn(&pid, argv[0], &actions, nil, cArgs, cEnv)
    guard rc == 0 else { throw ChildFailure(description: "cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
        guard errno == EINTR else { throw ChildFailure(description: "wait4 failed: \(String(cString: strerror(errno)))") }
    }
    let ended = monotonicNanos()
    // WIFEXITED / WEXITSTATUS are macros Swift does not import.
    let exit: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    if exit != 0 {
        let stderr = stderrPath.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? ""
        throw ChildFailure(description: "\(argv.joined(separator: " ")) exited with \(exit): \(stderr.prefix(600))")
    }
    return ChildRun(wallNanos: ended - started, maxRSSKiB: usage.ru_maxrss, exitStatus: exit)
}

/// Runs `argv` from a small helper process (`gymlog-bench child-rusage`) and returns what it saw.
///
/// posix_spawn clones the parent's address space (vfork-style) and Linux carries that
/// address space's peak RSS into the child's `ru_maxrss` at exec, so a child spawned
/// straight from this (large) process would report our peak, not its own. The helper is a
/// fresh, small process, so the child's figure is max(helper start-up RSS, child's own).
func spawnMeasured(_ argv: [String], environment: [String], stdoutPath: String?, directory: String) throws -> ChildRun {
    let report = directory + "/child-rusage.txt"
    var helper = [executableDirectory() + "/gymlog-bench", "child-rusage"]
    if let stdoutPath { helper += ["--stdout", stdoutPath] }
    _ = try spawnAndWait(helper + ["--"] + argv, environment: environment, stdoutPath: report,
                         stderrPath: directory + "/child.stderr")
    let fields = ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "").split(separator: " ")
    guard fields.count == 2, let wall = UInt64(fields[0]), let rss = Int(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw ChildFailure(description: "child-rusage printed no figures for \(argv.joined(separator: " "))")
    }
    return ChildRun(wallNanos: wall, maxRSSKiB: rss, exitStatus: 0)
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

/// `gymlog-bench child-rusage [--stdout FILE] -- ARGV…`: runs ARGV and prints "wall_ns maxrss_kib".
func childRusageCommand(stdoutPath: String?, argv: [String]) -> Int32 {
    guard !argv.isEmpty else { return 64 }
    do {
        let run = try spawnAndWait(argv, environment: ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" },
                                   stdoutPath: stdoutPath, stderrPath: nil)
        print("\(run.wallNanos) \(run.maxRSSKiB)")
        return 0
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        return 1
    }
}

/// The built product `name` next to this executable (or `path` when given): refused when it is
/// missing, with a warning when this is not a release build.
func releaseProduct(_ name: String, path: String? = nil) throws -> String {
    let binDir = executableDirectory()
    let binary = path ?? binDir + "/" + name
    guard access(binary, X_OK) == 0 else {
        throw BenchError("\(binary) is missing; build it: swift build -c release")
    }
    if !binDir.contains("release") { log("warning: \(binDir) does not look like a release build; figures will be off.") }
    return binary
}

/// Whether `binary` loads the Swift runtime as a shared library (`ldd` lists libswiftCore):
/// a build without `--static-swift-stdlib`, whose start-up relocates it on every run.
func linksSwiftRuntimeDynamically(_ binary: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
    process.arguments = [binary]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return true }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self).contains("libswiftCore")
}

/// The directory holding this executable (where `swift build` also put `gymlog`).
func executableDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let path = n > 0 ? String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    return (path as NSString).deletingLastPathComponent
}

/// The first `name` on $PATH, or nil.
func findOnPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for dir in path.split(separator: ":") {
        let candidate = "\(dir)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}

/// Facts about the machine for the report.
struct MachineFacts {
    var cpus: Int
    var cpuModel: String
    var memory: String
    var kernel: String
    var date: String
    var sqlite: String

    static func current() -> MachineFacts {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let memKiB = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal") }
            .flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
        var u = utsname()
        uname(&u)
        let release = withUnsafeBytes(of: &u.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        return MachineFacts(cpus: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpuModel: model,
                            memory: "\(memKiB / 1024 / 1024) GiB", kernel: "Linux \(release)",
                            date: formatter.string(from: Date()) + " UTC", sqlite: sqliteLibraryVersion())
    }
}
