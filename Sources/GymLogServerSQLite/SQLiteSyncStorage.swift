import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB
import GRDBSQLite
import GymLogCore
import GymLogServerCore
import GymLogWire
import Logging

/// `SyncStorage` in one SQLite file (WAL, synchronous=FULL): the embedded default store.
///
/// SQLite's single writer serialises pushes, so the per-user change counter read and
/// bumped inside the push transaction can never hand out a value out of commit order.
public final class SQLiteSyncStorage: SyncRulesStorage {
    public let backend = "sqlite"
    public let path: String
    private let pool: DatabasePool
    private let checkpointer: WALCheckpointer
    // Every write of this store, one at a time: a push holds the writer connection inside
    // BEGIN IMMEDIATE across several accesses (see `withTransaction`), and no other write
    // may run on it meanwhile.
    private let writeLock = AsyncLock()
    // Damage found at run time: writes are refused from then on (see SQLiteCorruption).
    private let corruption: SQLiteCorruption
    // A write that failed for want of space: 503 and readiness red until there is room again.
    private let diskFull: DiskFullWatch
    private let logger: Logger

    /// Opens (creating if needed) the database at `path` and runs pending migrations. Its
    /// folder is made only with `createFolder` (the default location): a `--db` path whose
    /// folder does not exist is most likely a typo, and serving a new, empty database there
    /// would look to every device like a server that lost its data.
    public init(path: String, createFolder: Bool = true, logger: Logger = Logger(label: "gymlog-server.sqlite")) throws {
        var config = Configuration()
        config.journalMode = .wal
        // `gymlog-server user add` may write while the server runs; wait instead of failing.
        config.busyMode = .timeout(10)
        // A push transaction spans several writer accesses (`withTransaction`).
        config.allowsUnsafeTransactions = true
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            guard createFolder else {
                throw ServerSetupError("the folder \(directory) of the --db database \(path) does not exist; check the path for a typo, or, to start a new, empty database there, create the folder first (mkdir -p \(directory)).")
            }
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try Self.createOwnerOnly(path)
        do {
            pool = try DatabasePool(path: path, configuration: config)
            // GRDB's WAL setup lowers the writer to synchronous=NORMAL after prepareDatabase
            // runs; an acknowledged push must survive power loss, so set FULL again here.
            try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
            // Push throughput: a 1000-event push writes ~15,000 rows at random places in the
            // fields primary key. A 32 MiB page cache on the one writer keeps the hot pages
            // (SQLite's default is 2 MiB), and the WAL is checkpointed by a background
            // connection (see WALCheckpointer) instead of inside the push that crosses the
            // threshold. Neither changes durability: commits still fsync the WAL (synchronous=FULL).
            try pool.writeWithoutTransaction { try $0.execute(sql: Self.writerTuning) }
            let checkpointer = try WALCheckpointer(path: path)
            try pool.writeWithoutTransaction { checkpointer.install(on: $0.sqliteConnection) }
            self.checkpointer = checkpointer
            try Self.migrate(pool, path: path, logger: logger)
        } catch where SQLiteCorruption.isCorruption(error) {
            throw ServerSetupError(SQLiteCorruption.advice(path: path, detail: "\(error)"))
        } catch {
            throw ServerSetupError("cannot open the server database at \(path): \(error). Check the --db path and its permissions.")
        }
        self.path = path
        corruption = SQLiteCorruption(path: path, logger: logger)
        diskFull = DiskFullWatch(database: path, logger: logger)
        self.logger = logger
    }

    /// `PRAGMA quick_check` on a reader, interrupted after `timeLimit` (it reads the whole
    /// file: a few milliseconds per megabyte). Run before the server listens, when nothing
    /// else uses the database, so interrupting every connection of the pool is harmless.
    public func checkIntegrity(timeLimit: Duration) async throws -> Bool {
        let pool = self.pool
        let deadline = Task {
            try await Task.sleep(for: timeLimit)
            pool.interrupt()
        }
        defer { deadline.cancel() }
        let verdict: [String]
        do {
            verdict = try await pool.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(10)") }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            return false
        } catch where SQLiteCorruption.isCorruption(error) {
            throw ServerSetupError(SQLiteCorruption.advice(path: path, detail: "\(error)"))
        }
        guard verdict == ["ok"] else {
            throw ServerSetupError(SQLiteCorruption.advice(path: path, detail: "quick_check: " + verdict.joined(separator: "; ")))
        }
        return true
    }

    /// Creates the database file readable and writable by its owner only (0600) when it does
    /// not exist yet. It holds token hashes and every user's data; SQLite would create it
    /// 0644 (under the usual umask), and it gives the -wal and -shm files it makes later the
    /// database file's mode, so this covers all three. An existing file keeps its mode: the
    /// operator chose it (README says to `chmod 600` an older database).
    static func createOwnerOnly(_ path: String) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let error = errno
            if error == EEXIST { return }
            throw ServerSetupError("cannot create the server database at \(path): \(String(cString: strerror(error))). Check the --db path and its directory's permissions.")
        }
        defer { close(fd) }
        // The umask may have taken more than group and other bits away; the owner must write.
        guard fchmod(fd, 0o600) == 0 else {
            let error = errno
            throw ServerSetupError("cannot set mode 0600 on the new server database at \(path): \(String(cString: strerror(error))).")
        }
    }

    /// PRAGMAs of the writer connection beyond WAL and synchronous=FULL (see `init`).
    public static let writerTuning = "PRAGMA cache_size = -32768"

    /// The writer connection's `PRAGMA synchronous` (2 = FULL), for tests.
    func writerSynchronousMode() throws -> Int {
        try pool.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") ?? -1 }
    }

    public func epoch() async throws -> String {
        try await corruption.watch { try await pool.read { db in try String.fetchOne(db, sql: "SELECT epoch FROM meta")! } }
    }

    /// `PRAGMA quick_check(1)` (stops at the first problem, but reads the whole file: a
    /// few milliseconds per megabyte) on a reader, then `BEGIN IMMEDIATE; ROLLBACK` on the
    /// writer, which fails when the file or its directory turned read-only or the disk is gone.
    public func usage() async throws -> StorageUsage {
        try await pool.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT (SELECT COUNT(*) FROM users WHERE revoked_at IS NULL), (SELECT COUNT(*) FROM devices),
                       (SELECT page_count FROM pragma_page_count()) * (SELECT page_size FROM pragma_page_size())
                """)!
            return StorageUsage(activeUsers: row[0], devices: row[1], databaseBytes: row[2])
        }
    }

    public func checkReadiness() async throws {
        let path = self.path
        try corruption.refuseWrites()
        if diskFull.isFull {
            guard try await hasRoom() else { throw StorageError.diskFull }
            diskFull.noteSpace()
        }
        let verdict: [String]
        do {
            verdict = try await corruption.watch { try await pool.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(1)") } }
        } catch let error as StorageError {
            throw error
        } catch {
            logger.error("readiness: the SQLite database cannot be read", metadata: ["path": "\(path)", "error": "\(error)"])
            throw StorageError.notReady("the SQLite database cannot be read (\(error)); check the file (the server's log names it), or restore a backup with `gymlog-server restore`.")
        }
        guard verdict == ["ok"] else {
            corruption.record("quick_check: " + verdict.joined(separator: "; "))
            try corruption.refuseWrites()
            return
        }
        do {
            // Under the write lock: a push may be inside its own BEGIN on this connection.
            try await writeLock.withLock { try await pool.writeWithoutTransaction { db in
                defer { if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK") } }
                try db.execute(sql: "BEGIN IMMEDIATE")
                try db.execute(sql: "ROLLBACK")
            } }
        } catch {
            logger.error("readiness: the SQLite database cannot be written", metadata: ["path": "\(path)", "error": "\(error)"])
            throw StorageError.notReady("the SQLite database cannot be written (\(error)); check the disk and the file's permissions (the server's log names the file).")
        }
    }

    // Every write of the store: refused once damage was found, one at a time under the write
    // lock, and a corruption error it meets is recorded.
    private func write<T>(_ body: () async throws -> T) async throws -> T {
        try corruption.refuseWrites()
        do {
            let result = try await corruption.watch { try await writeLock.withLock(body) }
            diskFull.noteSpace()
            return result
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            throw diskFull.noteFull("\(error)")
        }
    }

    /// Whether a write may find room again after one failed with SQLITE_FULL: at least a MiB
    /// free on the file's filesystem, and the file under its page limit (`max_page_count`).
    private func hasRoom() async throws -> Bool {
        var stats = statvfs()
        let directory = (path as NSString).deletingLastPathComponent
        if statvfs(directory.isEmpty ? "." : directory, &stats) == 0, UInt64(stats.f_bavail) * UInt64(stats.f_frsize) < 1 << 20 {
            return false
        }
        return try await writeLock.withLock { try await pool.writeWithoutTransaction { db in
            try Int64.fetchOne(db, sql: "SELECT (SELECT page_count FROM pragma_page_count()) < (SELECT max_page_count FROM pragma_max_page_count())") == 1
        } }
    }

    /// Sets the writer's `PRAGMA max_page_count` (tests: a full disk without filling one).
    func setMaxPageCount(_ pages: Int64) async throws {
        try await writeLock.withLock { try await pool.writeWithoutTransaction { db in
            _ = try Int64.fetchOne(db, sql: "PRAGMA max_page_count = \(pages)")
        } }
    }

    /// The file's pages now (tests).
    func pageCount() async throws -> Int64 {
        try await pool.read { db in try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
    }

    public func listUsers() async throws -> [UserRecord] {
        try await corruption.watch { try await pool.read { db in
            // One pass over each user's devices and records: an admin command, not a request path.
            try Row.fetchAll(db, sql: """
                SELECT u.id, u.name, u.created_at, u.revoked_at, d.devices, d.last_push, f.rows, f.bytes
                FROM users u
                LEFT JOIN (SELECT user_id, count(*) AS devices, max(last_seen_at) AS last_push FROM devices GROUP BY user_id) d ON d.user_id = u.id
                LEFT JOIN (SELECT user_id, count(*) AS rows, sum(length(CAST(entity AS BLOB)) + length(CAST(entity_id AS BLOB))
                               + length(CAST(fields AS BLOB))) AS bytes
                           FROM records GROUP BY user_id) f ON f.user_id = u.id
                ORDER BY u.id
                """).map {
                UserRecord(id: $0[0], name: $0[1], createdAt: $0[2], revokedAt: $0[3],
                           usage: UserUsage(devices: $0[4] ?? 0, lastPushAt: $0[5], records: $0[6] ?? 0, storedBytes: $0[7] ?? 0))
            }
        } }
    }

    public func withdrawal(ofTokenHash hash: String) async throws -> TokenWithdrawal? {
        try await corruption.watch { try await pool.read { db in
            let reason = try String.fetchOne(db, sql: """
                SELECT 'revoked' FROM users WHERE token_hash = ? AND revoked_at IS NOT NULL
                UNION ALL SELECT reason FROM withdrawn_tokens WHERE token_hash = ? LIMIT 1
                """, arguments: [hash, hash])
            return reason.flatMap(TokenWithdrawal.init(rawValue:))
        } }
    }

    public func userForTokenHash(_ hash: String) async throws -> AuthenticatedUser? {
        try await corruption.watch { try await pool.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT id, name, history_generation, key_verifier FROM users WHERE token_hash = ? AND revoked_at IS NULL"),
                             arguments: [hash]).map { AuthenticatedUser(id: $0[0], name: $0[1], tokenHash: hash, historyGeneration: $0[2], keyVerifier: $0[3]) }
        } }
    }

    public func withAccounts<R: Sendable>(_ access: AccountAccess,
                                          _ body: (any AccountTransaction) async throws -> (result: R, commit: Bool)) async throws -> R {
        let transaction = SQLiteAccountTransaction(pool: pool)
        let result = try await inImmediateTransaction { try await body(transaction) }
        if transaction.droppedRecords {
            // The WAL still holds the pages the dropped records were pushed in: copy the zeroed
            // pages into the file and empty the WAL. Best effort: a reader holding an old
            // snapshot keeps its frames until later checkpoints overwrite them.
            try? await pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        return result
    }

    // MARK: SyncRulesStorage

    public func withTransaction<R: Sendable>(user: AuthenticatedUser, _ body: (SQLiteSyncTransaction) async throws -> (result: R, commit: Bool)) async throws -> R {
        try await inImmediateTransaction {
            try await body(SQLiteSyncTransaction(pool: pool, user: user))
        }
    }

    // Runs `body` inside BEGIN IMMEDIATE on the writer, as one of the store's writes (`write`):
    // its accesses of the writer connection are one transaction, committed when it answers so.
    private func inImmediateTransaction<R>(_ body: () async throws -> (result: R, commit: Bool)) async throws -> R {
        try await write {
            try await pool.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
            do {
                let (result, commit) = try await body()
                try await Self.finish(pool, commit ? "COMMIT" : "ROLLBACK")
                return result
            } catch {
                try? await Self.finish(pool, "ROLLBACK")
                throw error
            }
        }
    }

    // Ends the transaction even when the request's task was cancelled meanwhile: GRDB refuses
    // to start an access for a cancelled task, and the writer must not stay inside BEGIN.
    private static func finish(_ pool: DatabasePool, _ sql: String) async throws {
        try await Task.detached { try await pool.writeWithoutTransaction { db in
            if db.isInsideTransaction { try db.execute(sql: sql) }
        } }.value
    }

    public func changes(user: Int64, device: String, after: Int64, recordLimit: Int) async throws -> ChangeSnapshot {
        try await corruption.watch { try await pool.read { db in
            let lastApplied = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT last_applied_seq FROM devices WHERE user_id = ? AND device_id = ?"),
                arguments: [user, device]) ?? 0
            let head = try Int64.fetchOne(db.cachedStatement(sql: "SELECT change_seq FROM users WHERE id = ?"), arguments: [user]) ?? 0
            // records_by_change gives this order without sorting; each record is one row.
            let select = try db.cachedStatement(sql: """
                SELECT entity, entity_id, change_seq, fields FROM records
                WHERE user_id = ? AND change_seq > ? ORDER BY change_seq LIMIT ?
                """)
            defer { select.clearBindings() }
            select.bind(1, user); select.bind(2, after); select.bind(3, Int64(recordLimit))
            var records: [PulledRecord] = []
            records.reserveCapacity(min(recordLimit, 4096))
            try select.eachRow(db) { row in
                records.append(PulledRecord(entity: columnText(row, 0), entityID: columnText(row, 1), changeSeq: sqlite3_column_int64(row, 2),
                                            text: columnText(row, 3)))
            }
            return ChangeSnapshot(head: head, lastAppliedSeq: lastApplied, records: records)
        } }
    }

}
