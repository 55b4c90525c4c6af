import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB
import GRDBSQLite
import GymLogCore
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

    /// Runs the pending migrations and logs each one applied, as PostgreSQL's are
    /// (`PostgresSchema.migrate`): an operator sees what an upgrade did to the file, and when.
    static func migrate(_ pool: DatabasePool, path: String, logger: Logger) throws {
        let migrator = Self.migrator
        let before = try pool.read { try migrator.appliedIdentifiers($0) }
        try migrator.migrate(pool)
        for name in migrator.migrations where !before.contains(name) {
            logger.notice("applied SQLite migration", metadata: ["name": "\(name)", "path": "\(path)"])
        }
    }

    /// Append-only migrations in plain SQL; never edit a shipped one, add the next.
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("server-v1") { db in
            try db.execute(sql: """
            -- One row: the epoch names this database, so clients notice a wiped server.
            CREATE TABLE meta (
                singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                epoch TEXT NOT NULL,
                created_at INTEGER NOT NULL
            );
            INSERT INTO meta VALUES (1, lower(hex(randomblob(16))), CAST(strftime('%s', 'now') AS INTEGER) * 1000);

            -- change_seq is the user's change counter: the pull cursor.
            CREATE TABLE users (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                token_hash TEXT NOT NULL UNIQUE,
                created_at INTEGER NOT NULL,
                revoked_at INTEGER,
                change_seq INTEGER NOT NULL DEFAULT 0
            );

            -- The Replicache rule: per (user, device), the last applied gapless seq.
            CREATE TABLE devices (
                user_id INTEGER NOT NULL REFERENCES users(id),
                device_id TEXT NOT NULL,
                last_applied_seq INTEGER NOT NULL DEFAULT 0,
                last_seen_at INTEGER,
                PRIMARY KEY (user_id, device_id)
            ) WITHOUT ROWID;

            CREATE TABLE applied_keys (
                user_id INTEGER NOT NULL REFERENCES users(id),
                idempotency_key TEXT NOT NULL,
                PRIMARY KEY (user_id, idempotency_key)
            ) WITHOUT ROWID;

            -- The merged state: one row per (user, entity, entity_id, field), last writer wins.
            CREATE TABLE fields (
                user_id INTEGER NOT NULL REFERENCES users(id),
                entity TEXT NOT NULL,
                entity_id TEXT NOT NULL,
                field TEXT NOT NULL,
                value,
                clock TEXT NOT NULL,
                change_seq INTEGER NOT NULL,
                PRIMARY KEY (user_id, entity, entity_id, field)
            ) WITHOUT ROWID;
            CREATE INDEX fields_by_change ON fields(user_id, change_seq);
            """)
        }
        m.registerMigration("server-v2-history-generation") { db in
            try db.execute(sql: "ALTER TABLE users ADD COLUMN history_generation INTEGER NOT NULL DEFAULT 0")
        }
        m.registerMigration("server-v3-key-digests") { db in
            // What each key's event carried (SyncRules.digest): the same key with other content
            // is refused as key_reused. Keys recorded before have none and count as the same.
            try db.execute(sql: "ALTER TABLE applied_keys ADD COLUMN digest TEXT")
        }
        m.registerMigration("server-v4-user-ids-never-reused") { db in
            // A plain INTEGER PRIMARY KEY hands the highest id out again once its user is
            // deleted, and a request authenticated as the deleted user could then reach the
            // new one's rows. AUTOINCREMENT never reuses an id; SQLite cannot add it to a
            // table, so the table is rebuilt (GRDB runs a migration with foreign keys off and
            // checks them afterwards). The copy's ids seed the sequence with the highest one.
            try db.execute(sql: """
            CREATE TABLE users_new (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                token_hash TEXT NOT NULL UNIQUE,
                created_at INTEGER NOT NULL,
                revoked_at INTEGER,
                change_seq INTEGER NOT NULL DEFAULT 0,
                history_generation INTEGER NOT NULL DEFAULT 0
            );
            INSERT INTO users_new (id, name, token_hash, created_at, revoked_at, change_seq, history_generation)
                SELECT id, name, token_hash, created_at, revoked_at, change_seq, history_generation FROM users;
            DROP TABLE users;
            ALTER TABLE users_new RENAME TO users;
            """)
        }
        m.registerMigration("server-v5-generation-window") { db in
            // The history generations each user started in the current hour-long window: the
            // limit on rollback claims holds for every instance and across restarts.
            try db.execute(sql: """
                ALTER TABLE users ADD COLUMN generation_window_start INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE users ADD COLUMN generations_in_window INTEGER NOT NULL DEFAULT 0;
                """)
        }
        m.registerMigration("server-v6-account-key") { db in
            // The verifier of an end-to-end encrypted account's key (AccountKey.verifier);
            // NULL for an account whose history is in the clear.
            try db.execute(sql: "ALTER TABLE users ADD COLUMN key_verifier TEXT")
        }
        m.registerMigration("server-v7-record-rows") { db in
            // One row per record instead of one per field: a pull page reads 1,000 rows, not
            // 8,000, and a push writes one row per record it changes (DESIGN.md "One row per
            // record"). A rowid table: a record's text (about 300 bytes) is too long for a
            // WITHOUT ROWID table's b-tree to stay shallow.
            try db.execute(sql: """
                CREATE TABLE records (
                    user_id INTEGER NOT NULL REFERENCES users(id),
                    entity TEXT NOT NULL,
                    entity_id TEXT NOT NULL,
                    change_seq INTEGER NOT NULL,
                    fields TEXT NOT NULL,
                    UNIQUE (user_id, entity, entity_id)
                );
                CREATE INDEX records_by_change ON records(user_id, change_seq);
                """)
            try migrateFieldRowsToRecords(db)
            try db.execute(sql: "DROP TABLE fields")
        }
        m.registerMigration("server-v8-key-verifier-hash") { db in
            // The account key's verifier was kept as a device sends it: with a stolen token
            // and this file, a pull read the sealed history and a forged push applied. Only
            // its SHA-256 is kept now (`Tokens.hash`), as for tokens.
            for row in try Row.fetchAll(db, sql: "SELECT id, key_verifier FROM users WHERE key_verifier IS NOT NULL") {
                try db.execute(sql: "UPDATE users SET key_verifier = ? WHERE id = ?",
                               arguments: [Tokens.hash(row["key_verifier"] as String), row["id"] as Int64])
            }
        }
        m.registerMigration("server-v9-withdrawn-tokens") { db in
            // The hashes of tokens an administrator replaced or whose user they deleted, and
            // why: a device still sending one is told what happened (`TokenWithdrawal`), not
            // "unknown token". A revoked user's own hash stays in `users`. One row per
            // `user rotate`, `activate` or `delete`; no user id, so a deletion leaves nothing of the user but its hash.
            try db.execute(sql: "CREATE TABLE withdrawn_tokens (token_hash TEXT PRIMARY KEY, reason TEXT NOT NULL) WITHOUT ROWID")
        }
        return m
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

    public func createUser(name: String, tokenHash: String, now: Int64) async throws -> UserRecord {
        try await write { try await pool.writeWithoutTransaction { db in
            var record: UserRecord?
            try db.inTransaction(.immediate) {
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE name = ?", arguments: [name]) != nil {
                    return .rollback
                }
                try db.execute(sql: "INSERT INTO users (name, token_hash, created_at) VALUES (?, ?, ?)",
                               arguments: [name, tokenHash, now])
                record = UserRecord(id: db.lastInsertedRowID, name: name, createdAt: now, revokedAt: nil)
                return .commit
            }
            guard let record else { throw StorageError.userExists(name) }
            return record
        } }
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

    public func revokeUser(name: String, now: Int64) async throws -> UserRecord {
        try await write { try await pool.write { db in
            try db.execute(sql: "UPDATE users SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL", arguments: [now, name])
            return try Self.user(named: name, db)
        } }
    }

    public func replaceToken(name: String, tokenHash: String, reactivate: Bool) async throws -> UserRecord {
        try await write { try await pool.write { db in
            let user = try Self.user(named: name, db)
            guard reactivate || user.revokedAt == nil else { throw StorageError.userRevoked(user.name) }
            try Self.withdraw(userID: user.id, .replaced(wasRevoked: user.revokedAt != nil), db)
            try db.execute(sql: "UPDATE users SET token_hash = ?, revoked_at = NULL WHERE id = ?", arguments: [tokenHash, user.id])
            return try Self.user(named: name, db)
        } }
    }

    public func deleteUser(name: String) async throws -> UserRecord {
        try await write { try await pool.write { db in
            let user = try Self.user(named: name, db)
            try Self.withdraw(userID: user.id, .deleted, db)
            // Children first: the foreign keys are enforced.
            for table in ["records", "applied_keys", "devices"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE user_id = ?", arguments: [user.id])
            }
            try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [user.id])
            return user
        } }
    }

    // The account named `name` (case-insensitively); throws `StorageError.noSuchUser`.
    private static func user(named name: String, _ db: Database) throws -> UserRecord {
        guard let row = try Row.fetchOne(db, sql: "SELECT id, name, created_at, revoked_at FROM users WHERE name = ?", arguments: [name]) else {
            throw StorageError.noSuchUser(name)
        }
        return UserRecord(id: row[0], name: row[1], createdAt: row[2], revokedAt: row[3])
    }

    // Remembers the user's current token hash as withdrawn for `reason`.
    private static func withdraw(userID: Int64, _ reason: TokenWithdrawal, _ db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO withdrawn_tokens (token_hash, reason) SELECT token_hash, ? FROM users WHERE id = ?",
                       arguments: [reason.rawValue, userID])
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

    public func startNewHistoryGeneration(user: AuthenticatedUser, now: Int64, perHour: Int) async throws -> Int64? {
        try await write { try await pool.write { db in
            try db.execute(sql: Self.startGeneration, arguments: ["id": user.id, "now": now, "perHour": perHour])
            guard db.changesCount > 0 else { return nil }
            try db.execute(sql: "DELETE FROM applied_keys WHERE user_id = ?", arguments: [user.id])
            return try Int64.fetchOne(db, sql: "SELECT history_generation FROM users WHERE id = ?", arguments: [user.id]) ?? 0
        } }
    }

    public func hasHistory(user: AuthenticatedUser) async throws -> Bool {
        try await corruption.watch { try await pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM records WHERE user_id = ?)", arguments: [user.id]) ?? false
        } }
    }

    public func setKeyVerifier(user: AuthenticatedUser, verifier: String) async throws -> KeyVerifierOutcome {
        let outcome = try await write { try await pool.write { db -> KeyVerifierOutcome in
            guard let row = try Row.fetchOne(db, sql: "SELECT key_verifier FROM users WHERE id = ?", arguments: [user.id]) else {
                throw StorageError.tokenWithdrawn
            }
            if let existing = row[0] as String? { return .alreadySet(same: existing == verifier) }
            try db.execute(sql: "UPDATE users SET key_verifier = ? WHERE id = ?", arguments: [verifier, user.id])
            // The plaintext is overwritten with zeros as it is deleted, not left in free pages
            // for whoever reads the file later (this connection only, for this statement).
            let secureDelete = try Int.fetchOne(db, sql: "PRAGMA secure_delete") ?? 0
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.execute(sql: "DELETE FROM records WHERE user_id = ?", arguments: [user.id])
            let dropped = db.changesCount > 0
            try db.execute(sql: "PRAGMA secure_delete = \(secureDelete)")
            guard dropped else { return .set(droppedHistory: false) }
            try db.execute(sql: "DELETE FROM applied_keys WHERE user_id = ?", arguments: [user.id])
            try db.execute(sql: "UPDATE users SET history_generation = history_generation + 1 WHERE id = ?", arguments: [user.id])
            return .set(droppedHistory: true)
        } }
        if outcome == .set(droppedHistory: true) {
            // The WAL still holds the pages the plaintext was pushed in: copy the zeroed pages
            // into the file and empty the WAL. Best effort: a reader holding an old snapshot
            // keeps its frames until later checkpoints overwrite them.
            try? await pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        return outcome
    }

    /// Bumps the generation unless the user's window (an hour from its first generation)
    /// already holds `perHour`; every SET reads the row as it was.
    static let startGeneration = """
        UPDATE users SET history_generation = history_generation + 1,
            generations_in_window = CASE WHEN :now - generation_window_start >= 3600000 THEN 1 ELSE generations_in_window + 1 END,
            generation_window_start = CASE WHEN :now - generation_window_start >= 3600000 THEN :now ELSE generation_window_start END
        WHERE id = :id AND (:now - generation_window_start >= 3600000 OR generations_in_window < :perHour)
        """

    // MARK: SyncRulesStorage

    public func withTransaction<R: Sendable>(user: AuthenticatedUser, _ body: (SQLiteSyncTransaction) async throws -> (result: R, commit: Bool)) async throws -> R {
        try await write {
            try await pool.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
            do {
                let (result, commit) = try await body(SQLiteSyncTransaction(pool: pool, user: user.id, tokenHash: user.tokenHash, keyVerifier: user.keyVerifier))
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

/// Folds the field rows of a database from before `server-v7-record-rows` into records, one
/// user and record at a time in key order (so one record's fields are adjacent), written by
/// the same `RecordText` a push writes.
private func migrateFieldRowsToRecords(_ db: Database) throws {
    let insert = try db.makeStatement(sql: "INSERT INTO records (user_id, entity, entity_id, change_seq, fields) VALUES (?, ?, ?, ?, ?)")
    var current: (user: Int64, row: RowKey)?
    var fields: [StoredField] = []
    func flush() throws {
        guard let current, !fields.isEmpty else { return }
        insert.bind(1, current.user); insert.bind(2, current.row.entity); insert.bind(3, current.row.entityID)
        insert.bind(4, fields.map(\.changeSeq).max()!)
        insert.bind(5, RecordText.encode(fields.sorted(by: StoredField.nameOrder)))
        try insert.stepDone(db)
        fields.removeAll(keepingCapacity: true)
    }
    let select = try db.makeStatement(sql: "SELECT user_id, entity, entity_id, field, value, clock, change_seq FROM fields ORDER BY user_id, entity, entity_id")
    try select.eachRow(db) { row in
        let user = sqlite3_column_int64(row, 0)
        let key = RowKey(entity: columnText(row, 1), entityID: columnText(row, 2))
        if current?.user != user || current?.row != key {
            try flush()
            current = (user, key)
        }
        fields.append(StoredField(name: columnText(row, 3), value: FieldValue(column: 4, of: row), clock: columnText(row, 5),
                                  changeSeq: sqlite3_column_int64(row, 6)))
    }
    try flush()
}
