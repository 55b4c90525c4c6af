import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB
import GymLogServerCore

/// Online backup and offline restore of the SQLite server store (`gymlog-server backup`,
/// `gymlog-server restore`). Both write a new file next to the destination and rename it
/// into place, so the destination is never half written.
public enum SQLiteBackup {
    /// The tables every gymlog server database has (migration server-v1).
    static let requiredTables: Set<String> = ["meta", "users", "devices", "applied_keys"]
    /// The merged state's table: `records` since `server-v7-record-rows`, `fields` in a backup
    /// made before it (restored as it is; the server migrates it when it opens it).
    static let stateTables = ["records", "fields"]

    /// What a backup or a restore copied.
    public struct Summary: Equatable, Sendable {
        public var epoch: String
        public var users: Int
        public var records: Int
        public var bytes: Int64
    }

    /// Copies the live database at `databasePath` to `file` with `VACUUM INTO` (one read
    /// transaction: a consistent snapshot while the server keeps serving), checks the copy
    /// with `PRAGMA integrity_check`, and renames it to `file`. Refuses an existing `file`
    /// unless `force`.
    public static func backup(databasePath: String, to file: String, force: Bool) throws -> Summary {
        guard FileManager.default.fileExists(atPath: databasePath) else {
            throw ServerSetupError("there is no server database at \(databasePath); check the --db path.")
        }
        if !force, FileManager.default.fileExists(atPath: file) {
            throw ServerSetupError("the backup file \(file) already exists; choose another name, or pass --force to replace it.")
        }
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ServerSetupError("the folder \(folder) of the backup file \(file) does not exist; create it first (mkdir -p \(folder)).")
        }
        let temporary = temporaryPath(next: file, purpose: "backup")
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        try vacuumCopy(of: databasePath, into: temporary, checking: { try requireServerTables($0, path: databasePath, role: "--db") },
                       failure: { "cannot back up \(databasePath) to \(file): \($0). Check that the backup folder exists and is writable, and that there is room for a copy." })
        let summary = try verify(temporary, describedAs: "the new backup of \(databasePath)")
        try syncFile(temporary)
        if force {
            guard rename(temporary, file) == 0 else { throw posixError("cannot move the backup into place at \(file)") }
        } else {
            // link() fails if `file` appeared meanwhile: never overwrite without --force.
            guard link(temporary, file) == 0 else {
                if errno == EEXIST { throw ServerSetupError("the backup file \(file) already exists; choose another name, or pass --force to replace it.") }
                throw posixError("cannot move the backup into place at \(file)")
            }
        }
        syncDirectory(of: file)
        return summary
    }

    /// One consistent copy of the database at `source` into the new owner-only file
    /// `temporary` (`VACUUM INTO`), after `check` passes on it; any other failure is a
    /// `ServerSetupError` worded by `failure`.
    private static func vacuumCopy(of source: String, into temporary: String, checking check: (Database) throws -> Void,
                                   failure: (any Error) -> String) throws {
        do {
            let queue = try DatabaseQueue(path: source, configuration: readerConfiguration())
            try queue.inDatabase { db in
                try check(db)
                try SQLiteSyncStorage.createOwnerOnly(temporary)
                try db.execute(sql: "VACUUM INTO ?", arguments: [temporary])
            }
            try queue.close()
        } catch let error as ServerSetupError {
            throw error
        } catch {
            throw ServerSetupError(failure(error))
        }
    }

    /// Puts the backup `file` in place of the database at `databasePath`: checks it
    /// (integrity_check and the gymlog server tables), refuses while another process has the
    /// database open (a running server), copies it next to the database, removes the stale
    /// -wal and -shm files and renames the copy over the database.
    public static func restore(from file: String, databasePath: String) throws -> Summary {
        guard FileManager.default.fileExists(atPath: file) else {
            throw ServerSetupError("there is no backup file at \(file); give the path of a file made by `gymlog-server backup`.")
        }
        _ = try verify(file, describedAs: "the backup \(file)")
        try refuseIfOpenElsewhere(databasePath, "stop the server, then run the restore again.")
        let directory = (databasePath as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let temporary = temporaryPath(next: databasePath, purpose: "restore")
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        try vacuumCopy(of: file, into: temporary, checking: { _ in },
                       failure: { "cannot copy the backup \(file) next to \(databasePath): \($0). Check that the folder is writable and has room for a copy." })
        try newEpoch(temporary)
        let summary = try verify(temporary, describedAs: "the copy of \(file)")
        try syncFile(temporary)
        // The old database's WAL must not be replayed onto the restored file.
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: databasePath + suffix) {
            guard unlink(databasePath + suffix) == 0 else { throw posixError("cannot remove the stale \(databasePath + suffix)") }
        }
        guard rename(temporary, databasePath) == 0 else { throw posixError("cannot move the restored database into place at \(databasePath)") }
        syncDirectory(of: databasePath)
        return summary
    }

    /// Gives the restored copy a new epoch: the history after the backup is gone, and the
    /// changes made from now on take the change numbers it had. A device that synced after the
    /// backup could tell that only while the server's head stayed behind its cursor; once
    /// other devices had pushed past it, it pulled from its old cursor and skipped what they
    /// sent first (the history model found the loss). With a new epoch every device re-sends
    /// what it holds and pulls from the start.
    static func newEpoch(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { try $0.execute(sql: "UPDATE meta SET epoch = lower(hex(randomblob(16)))") }
    }

    /// Opens `path` read-only and requires `integrity_check` = ok and the server tables.
    static func verify(_ path: String, describedAs what: String) throws -> Summary {
        do {
            // Not read-only: a copy may carry the WAL flag, and a read-only connection cannot
            // make the -shm file such a database needs.
            let queue = try DatabaseQueue(path: path, configuration: readerConfiguration())
            defer { try? queue.close() }
            return try queue.inDatabase { db in
                let verdict = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard verdict == ["ok"] else {
                    throw ServerSetupError("\(what) is damaged (integrity_check: \(verdict.prefix(3).joined(separator: "; "))); use another backup.")
                }
                try requireServerTables(db, path: path, role: what)
                guard let epoch = try String.fetchOne(db, sql: "SELECT epoch FROM meta") else {
                    throw ServerSetupError("\(what) has no epoch row in its meta table, so it is not a gymlog server database; use a file made by `gymlog-server backup`.")
                }
                return Summary(epoch: epoch,
                               users: try Int.fetchOne(db, sql: "SELECT count(*) FROM users") ?? 0,
                               records: try recordCount(db),
                               bytes: ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? 0)
            }
        } catch let error as ServerSetupError {
            throw error
        } catch {
            throw ServerSetupError("\(what) cannot be read as an SQLite database (\(error)); use a file made by `gymlog-server backup`.")
        }
    }

    private static func requireServerTables(_ db: Database, path: String, role: String) throws {
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        var missing = requiredTables.subtracting(tables)
        if !stateTables.contains(where: tables.contains) { missing.insert(stateTables[0]) }
        guard missing.isEmpty else {
            let subject = role == "--db" ? "the --db database \(path)" : role
            throw ServerSetupError("\(subject) is not a gymlog server database (no \(missing.sorted().joined(separator: ", ")) table); check the path.")
        }
    }

    /// The records a database holds; for one from before `server-v7-record-rows`, its distinct rows.
    private static func recordCount(_ db: Database) throws -> Int {
        if try db.tableExists("records") { return try Int.fetchOne(db, sql: "SELECT count(*) FROM records") ?? 0 }
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT DISTINCT user_id, entity, entity_id FROM fields)") ?? 0
    }

    private static func readerConfiguration() -> Configuration {
        var config = Configuration()
        // The server may be writing; wait for it instead of failing.
        config.busyMode = .timeout(10)
        return config
    }

    /// Throws, naming the other process and ending with `advice`, when another process has the
    /// database open: `restore` must not put a file in place under a running server, nor a
    /// second `serve` migrate the file under the first (which then fails every request).
    package static func refuseIfOpenElsewhere(_ databasePath: String, _ advice: String) throws {
        guard let pid = processHoldingOpen(databasePath) else { return }
        let who = commandLine(of: pid).map { "process \(pid) (\($0))" } ?? "process \(pid) (a running gymlog-server?)"
        throw ServerSetupError("the server database \(databasePath) is open in \(who); \(advice)")
    }

    /// The command line of `pid`, shortened, when /proc shows it (not under systemd's
    /// ProtectProc=invisible, nor for another user's process there).
    static func commandLine(of pid: pid_t) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
        let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard let first = words.first else { return nil }
        let text = ([(first as NSString).lastPathComponent] + words.dropFirst()).joined(separator: " ")
        return text.count > 200 ? String(text.prefix(200)) + "..." : text
    }

    /// The pid of another process with the database's shared memory open. Every SQLite
    /// connection to a WAL database holds a read lock on the -shm file's "DMS" byte (offset
    /// 128 in the unix VFS) while it is open; a process's own locks are not reported.
    static func processHoldingOpen(_ databasePath: String) -> pid_t? {
        let fd = open(databasePath + "-shm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 128
        lock.l_len = 1
        guard fcntl(fd, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) else { return nil }
        return lock.l_pid
    }

    private static func temporaryPath(next path: String, purpose: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(purpose)-\(UUID().uuidString.prefix(8))").path
    }

    private static func syncFile(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw posixError("cannot open \(path) to flush it") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw posixError("cannot flush \(path) to disk") }
    }

    private static func syncDirectory(of path: String) {
        let fd = open((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    private static func posixError(_ what: String) -> ServerSetupError {
        ServerSetupError("\(what): \(String(cString: strerror(errno))). Check the folder's permissions and free space.")
    }
}
