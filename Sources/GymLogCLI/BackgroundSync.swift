import Foundation
import GymLogCore
import GymLogStore
import GymLogSyncClient
import GymLogWire

/// One sync cycle with the logged-in server, as `gymlog sync` and the background run it: the
/// engine's pull -> push -> ack, then how it ended written to the sync state (`SyncOutcome`),
/// which decides when a cycle may start by itself again. The caller holds the `SyncMutex`.
struct SyncRun {
    let server: String
    let db: GymLogDatabase
    var engine: SyncEngine
    /// The longest a failed cycle waits before the next try (`sync.interval`).
    let intervalMs: Int64

    init(_ context: CLIContext) throws {
        guard let server = context.settings.server, let url = URL(string: server) else {
            throw UserError("No sync server is set. Log in first: `gymlog login --server URL` (it asks for the token).")
        }
        self.server = server
        db = try context.db()
        var transport = try HTTPSyncTransport(baseURL: url, token: context.settings.token, caCertificate: context.settings.caCertificate)
        var seal = try context.settings.valueSeal()
        seal?.unboundUntil = try db.unboundSealsUntil()
        transport.keyVerifier = seal?.key.verifier
        engine = SyncEngine(replica: db, transport: transport)
        engine.seal = seal
        intervalMs = Int64(context.settings.syncIntervalSeconds) * 1000
    }

    /// Runs the cycle and records its outcome; the error is the cycle's own.
    func cycle() async -> Result<SyncReport, any Error> {
        do {
            let report = try await engine.run()
            try db.recordSyncOutcome(server: server, .synced(rejected: report.rejected.count))
            return .success(report)
        } catch {
            let message = error.localizedDescription
            let retry = (error as? SyncTransportError)?.mustNotRetry == true
            try? db.recordSyncOutcome(server: server, retry ? .stopped(message) : .failed(message, capMs: intervalMs))
            return .failure(error)
        }
    }
}

/// The sync that runs by itself from the shell. A command that leaves changes in the outbox
/// starts a detached `gymlog sync --background` as it ends and returns at once: the command
/// never waits on the network, and a server that is down costs it one spawn of a small shell.
enum BackgroundSync {
    /// Rounds one background process runs at most while changes keep arriving; each round
    /// sends everything pending, so this only guards against a loop.
    static let maxRounds = 5

    /// After a shell command: says once that the sync stopped (a refused token), then starts a
    /// background cycle when the outbox holds changes and nothing holds one back (`AutoSync.hold`).
    /// Reads the sync state only when the command opened the database.
    static func afterCommand(_ context: CLIContext) {
        guard let db = context.openedDatabase, let schedule = try? db.syncSchedule() else { return }
        let hold = schedule.hold(context.settings, now: context.environment.now())
        tellStopOnce(context, db, schedule, hold)
        guard schedule.pending, hold == nil else { return }
        // Begun only once this command has ended: the sync's own start-up (a large binary's
        // page faults, the Swift runtime, its threads) took the command's CPU on a busy
        // machine, 7 ms of a 15 ms `gymlog log` (BENCHMARKS.md, issue 28).
        start(context, afterExit: true)
    }

    /// Starts a detached `gymlog sync --background` on the context's database, at once (the
    /// REPL, which collects it) or once this process has ended (`afterExit`, a shell command);
    /// its pid, or nil when it could not start.
    /// `pulling`: its first cycle runs even when nothing waits and the last pull is recent.
    @discardableResult
    static func start(_ context: CLIContext, afterExit: Bool = false, pulling: Bool = false) -> pid_t? {
        guard let executable = DetachedProcess.currentExecutable() else { return nil }
        let arguments = ["sync", "--background", "--db", context.paths.database] + (pulling ? ["--pull"] : [])
        return afterExit ? DetachedProcess.startAfterExit(executable, arguments) : DetachedProcess.start(executable, arguments)
    }

    /// Says that the sync stopped (a refused token), once: after the command that first meets
    /// the stop, not after every one.
    static func tellStopOnce(_ context: CLIContext, _ db: GymLogDatabase, _ schedule: SyncSchedule, _ hold: AutoSync.Hold?) {
        guard hold == .stopped, !schedule.stopShown, let error = schedule.lastError else { return }
        context.printError("Sync by itself is stopped: \(error) Changes stay in the outbox; `gymlog status` shows this again.")
        try? db.markSyncStopShown()
    }

    /// The background process: quiet, it says what it did in the sync log. It runs a cycle
    /// while one is due; when another cycle holds the lock it leaves at once, because that
    /// cycle looks again after releasing it (here, or through `afterCommand` after `gymlog
    /// sync`) and sends what this one was started for.
    /// `pulling`: the first cycle is due even when the last pull is recent (`AutoSync.hold`).
    static func run(_ context: CLIContext, pulling: Bool = false) async {
        guard let sync = try? SyncRun(context) else { return }
        let log = SyncLog(path: context.paths.syncLog, environment: context.environment)
        for round in 0..<maxRounds {
            let now = context.environment.now()
            guard let schedule = try? sync.db.syncSchedule(), schedule.hold(context.settings, now: now, pulling: pulling && round == 0) == nil,
                  let mutex = try? SyncMutex(path: context.paths.syncLock, wait: 0) else { return }
            let result = await sync.cycle()
            withExtendedLifetime(mutex) {}
            switch result {
            case .success(let report):
                log.append("synced with \(sync.server): pulled \(plural(report.pulledChanges, "change")), pushed \(report.pushed)"
                    + (report.rejected.isEmpty ? "" : ", \(report.rejected.count) rejected (see `gymlog status`)")
                    + (report.newDeviceID.map { "; this database is a copy of another device's and became device \($0) (see `gymlog status`)" } ?? ""))
            case .failure(let error):
                let next = try? sync.db.syncSchedule().nextTryAt
                log.append("failed: \(error.localizedDescription)" + (next.map { " Next try after \(log.time($0))." } ?? " Not retried by itself."))
                return
            }
        }
    }
}

/// The background sync's log, `$XDG_STATE_HOME/gymlog/sync.log`: one timestamped line per
/// cycle. Past 1 MiB it moves to `sync.log.1` (one older generation), so it never grows unbounded.
struct SyncLog {
    let path: String
    let environment: Environment
    static let limit = 1 << 20

    /// `time` as the log shows it, local ISO 8601.
    func time(_ ms: Int64) -> String { iso8601(millis: ms, utcOffsetSeconds: environment.utcOffset(ms)) }

    func append(_ message: String) {
        let folder = (path as NSString).deletingLastPathComponent
        try? OwnerOnlyFiles.makeFolder(folder)
        var info = stat()
        if stat(path, &info) == 0, info.st_size > Self.limit {
            _ = rename(path, path + ".1")
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let line = Array("\(time(environment.now())) \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}

/// A process started to outlive this one.
enum DetachedProcess {
    /// glibc's `POSIX_SPAWN_SETSID` (<spawn.h>), which Swift's Glibc module leaves out.
    private static let setSessionFlag: Int32 = 0x80

    /// The shell that holds a gated process back: it reads its descriptor 3 until end of file,
    /// then becomes the process (same pid, descriptor 3 closed). `$0` names it in `ps`.
    private static let gateScript = #"read _ <&3; exec 3<&- "$@""#

    /// This process's executable file: /proc/self/exe where there is one (Bundle's URL costs a
    /// one-shot command 2 % of its instructions), else what Bundle says.
    static func currentExecutable() -> String? {
        var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &path, path.count - 1)
        guard length > 0 else { return Bundle.main.executablePath }
        return String(decoding: path.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Starts `executable arguments` in a session of its own (no terminal's Ctrl-C or hangup
    /// reaches it), with /dev/null for its standard input and output and no other descriptor of
    /// this process (a caller's pipe would otherwise stay open, and whoever reads it wait), and
    /// does not wait for it. Its exit is collected by whoever inherits it when this process
    /// ends. Returns its pid, or nil when it could not start.
    @discardableResult
    static func start(_ executable: String, _ arguments: [String]) -> pid_t? {
        spawn(executable, arguments, gate: nil)
    }

    /// How much a gated process yields the CPU (`nice`): it is background work, and as it
    /// begins the command's shell is getting its prompt back.
    static let gatedNiceness: Int32 = 10

    /// Like `start`, but `executable` begins only once `gate`, the read end of a pipe, reads
    /// end of file: once every holder of the pipe's write end has closed it or ended. Until
    /// then a small shell waits on the gate (`gateScript`), costing no CPU; then it runs at
    /// `gatedNiceness`.
    @discardableResult
    static func start(_ executable: String, _ arguments: [String], gate: Int32) -> pid_t? {
        guard let pid = spawn("/bin/sh", ["-c", gateScript, "gymlog-after-exit", executable] + arguments, gate: gate) else { return nil }
        _ = setpriority(processPriority, id_t(pid), gatedNiceness)
        return pid
    }

    /// `PRIO_PROCESS`, as `setpriority` takes it here.
    #if canImport(Glibc)
    static let processPriority = __priority_which_t(PRIO_PROCESS.rawValue)
    #else
    static let processPriority = PRIO_PROCESS
    #endif

    /// Like `start`, but `executable` begins only once this process has ended: the gate's
    /// write end is left open (close-on-exec, so no child inherits it) and the kernel closes
    /// it when this process ends, however it ends.
    @discardableResult
    static func startAfterExit(_ executable: String, _ arguments: [String]) -> pid_t? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return start(executable, arguments) }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]) }
        return start(executable, arguments, gate: ends[0])
    }

    private static func spawn(_ executable: String, _ arguments: [String], gate: Int32?) -> pid_t? {
        closeOnExec()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_RDWR, 0)
        }
        // dup2 clears close-on-exec on the copy, also when the gate already is descriptor 3.
        if let gate { posix_spawn_file_actions_adddup2(&actions, gate, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(setSessionFlag | POSIX_SPAWN_SETSIGMASK))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid = pid_t()
        let started = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        return started == 0 ? pid : nil
    }

    /// Marks every descriptor past standard error close-on-exec. glibc's `closefrom` action is
    /// not visible from Swift; this process is about to end, so the flag costs it nothing.
    private static func closeOnExec() {
        guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        for fd in fds.compactMap({ Int32($0) }) where fd > STDERR_FILENO {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }
}
