import Foundation
import GRDB
import Testing

/// A set as compared across devices: every synced field, tombstone included.
public struct SetRow: Equatable, Sendable {
    public var id: String, weight: String?, reps: Int?, note: String?, deleted: Bool
}

/// One client database in a home of its own, driven through the real `gymlog` binary.
public struct ClientDevice: Sendable {
    public let home: TemporaryHome
    public var root: String { home.root }
    public var database: String { home.database }

    /// A fresh home; logged in to `server` when one is given (an offline device otherwise).
    /// Without `autoSync`, changes wait in the outbox for `sync()` (`TemporaryHome.turnOffAutoSync`).
    /// The first device of an account makes its key at login (end-to-end encryption is on
    /// for every new account); the next devices give its recovery phrase, as a lifter would.
    public init(server: ServerInstance? = nil, token: String = "", autoSync: Bool = true) throws {
        home = try TemporaryHome(prefix: "gymlog-device")
        if !autoSync { try home.turnOffAutoSync() }
        if let server {
            let login = try home.login(server, token: token)
            if login.status != 0 { Issue.record("gymlog login exited \(login.status): \(login.stderr)") }
        }
    }

    /// Runs `gymlog args`, recording an issue when it does not exit with `expect`.
    @discardableResult
    public func run(_ args: [String], stdin: String = "", expect: Int32 = 0,
                    sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessResult {
        let r = try home.gymlog(args, stdin: stdin)
        if r.status != expect {
            Issue.record("gymlog \(args.joined(separator: " ")) exited \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
        }
        return r
    }

    /// `gymlog sync`, expected to succeed.
    public func sync(sourceLocation: SourceLocation = #_sourceLocation) throws { try run(["sync"], sourceLocation: sourceLocation) }

    /// Starts `count` copies of `gymlog args` at once and waits for all of them.
    public func runConcurrently(_ args: [String], count: Int) throws -> [ProcessResult] {
        let running = try (0..<count).map { _ in try launch(args) }
        for r in running { r.feed(Data(), close: true) }
        return running.map { $0.wait() }
    }

    /// Starts `gymlog args` on this device without waiting for it.
    public func launch(_ args: [String]) throws -> RunningProcess { try home.launch(args) }

    private func query<T>(_ body: (Database) throws -> T) throws -> T {
        try DatabaseQueue(path: database).read(body)
    }

    /// Every set, deleted ones included, in the order they were performed.
    public func allSets() throws -> [SetRow] {
        try query { db in
            try Row.fetchAll(db, sql: "SELECT id, weight, reps, note, deleted_at IS NOT NULL FROM sets ORDER BY performed_at, id").map {
                SetRow(id: $0[0], weight: $0[1], reps: $0[2], note: $0[3], deleted: $0[4])
            }
        }
    }

    public func liveSets() throws -> [SetRow] { try allSets().filter { !$0.deleted } }
    public func outboxDepth() throws -> Int { try query { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM outbox") ?? -1 } }
    public func exerciseCount() throws -> Int { try query { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM exercises") ?? -1 } }
    public func setCount() throws -> Int { try query { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sets") ?? -1 } }
    /// Sets in workouts whose name starts with `prefix`: what one import brought, apart from
    /// what the pull it starts with brought.
    public func setCount(inWorkoutsNamed prefix: String) throws -> Int {
        try query {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sets JOIN workouts w ON w.id = sets.workout_id WHERE substr(w.name, 1, length(?)) = ?",
                             arguments: [prefix, prefix]) ?? -1
        }
    }
}

/// Starts `gymlog args` on `device`, writes `input` to its stdin (kept open, as a terminal
/// would; closed when there is none), SIGKILLs it after `delay` seconds unless it exited
/// first, and returns what it printed.
public func killedRun(_ device: ClientDevice, _ args: [String], input: String, after delay: TimeInterval) throws
    -> ProcessResult {
    let running = try device.launch(args)
    // Small enough for the pipe buffer: the write never blocks, even on a process about to die.
    precondition(input.utf8.count < 60_000)
    running.feed(Data(input.utf8), close: input.isEmpty)
    if delay > 0 { usleep(UInt32(delay * 1_000_000)) }
    running.kill()
    return running.wait()
}

/// Whether the cross-process sync lock (an flock next to the database) can be taken now.
public func syncLockIsFree(_ device: ClientDevice) -> Bool {
    let fd = open(device.database + ".sync-lock", O_RDWR | O_CREAT, 0o600)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }
    flock(fd, LOCK_UN)
    return true
}
