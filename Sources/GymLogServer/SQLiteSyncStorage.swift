import Foundation
import GRDB
import GRDBSQLite
import GymLogCore
import GymLogWire

/// `SyncStorage` in one SQLite file (WAL, synchronous=FULL): the embedded default store.
///
/// SQLite's single writer serialises pushes, so the per-user change counter read and
/// bumped inside the push transaction can never hand out a value out of commit order.
public final class SQLiteSyncStorage: SyncStorage {
    public let backend = "sqlite"
    public let path: String
    private let pool: DatabasePool
    private let checkpointer: WALCheckpointer

    /// Opens (creating if needed) the database at `path` and runs pending migrations.
    public init(path: String) throws {
        var config = Configuration()
        config.journalMode = .wal
        // `gymlog-server user add` may write while the server runs; wait instead of failing.
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
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
            try Self.migrator.migrate(pool)
        } catch {
            throw ServerSetupError("cannot open the server database at \(path): \(error). Check the --db path and its permissions.")
        }
        self.path = path
    }

    /// PRAGMAs of the writer connection beyond WAL and synchronous=FULL (see `init`).
    public static let writerTuning = "PRAGMA cache_size = -32768"

    /// The writer connection's `PRAGMA synchronous` (2 = FULL), for tests.
    func writerSynchronousMode() throws -> Int {
        try pool.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") ?? -1 }
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
        return m
    }

    public func epoch() async throws -> String {
        try await pool.read { db in try String.fetchOne(db, sql: "SELECT epoch FROM meta")! }
    }

    public func createUser(name: String, tokenHash: String, now: Int64) async throws -> UserRecord {
        try await pool.writeWithoutTransaction { db in
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
        }
    }

    public func listUsers() async throws -> [UserRecord] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, created_at, revoked_at FROM users ORDER BY id").map {
                UserRecord(id: $0[0], name: $0[1], createdAt: $0[2], revokedAt: $0[3])
            }
        }
    }

    public func revokeUser(name: String, now: Int64) async throws -> UserRecord {
        try await pool.write { db in
            try db.execute(sql: "UPDATE users SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL", arguments: [now, name])
            guard let row = try Row.fetchOne(db, sql: "SELECT id, name, created_at, revoked_at FROM users WHERE name = ?", arguments: [name]) else {
                throw StorageError.noSuchUser(name)
            }
            return UserRecord(id: row[0], name: row[1], createdAt: row[2], revokedAt: row[3])
        }
    }

    public func userForTokenHash(_ hash: String) async throws -> AuthenticatedUser? {
        try await pool.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT id, name, history_generation FROM users WHERE token_hash = ? AND revoked_at IS NULL"),
                             arguments: [hash]).map { AuthenticatedUser(id: $0[0], name: $0[1], historyGeneration: $0[2]) }
        }
    }

    public func startNewHistoryGeneration(user: AuthenticatedUser) async throws -> Int64 {
        try await pool.write { db in
            try db.execute(sql: "UPDATE users SET history_generation = history_generation + 1 WHERE id = ?", arguments: [user.id])
            return try Int64.fetchOne(db, sql: "SELECT history_generation FROM users WHERE id = ?", arguments: [user.id]) ?? 0
        }
    }

    public func push(user: AuthenticatedUser, deviceID: String, items: [PushItem], now: Int64) async throws -> PushOutcome {
        try await pool.writeWithoutTransaction { db in
            var outcome: PushOutcome!
            try db.inTransaction(.immediate) {
                outcome = try Self.apply(db, user: user.id, deviceID: deviceID, items: items, now: now)
                if case .sequenceGap = outcome { return .rollback }
                return .commit
            }
            return outcome
        }
    }

    // The push rules of DESIGN.md ("Push"), inside the caller's transaction.
    private static func apply(_ db: Database, user: Int64, deviceID: String, items: [PushItem], now: Int64) throws -> PushOutcome {
        var lastApplied = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT last_applied_seq FROM devices WHERE user_id = ? AND device_id = ?"),
            arguments: [user, deviceID]) ?? 0
        let committedLastApplied = lastApplied
        var head = try Int64.fetchOne(db.cachedStatement(sql: "SELECT change_seq FROM users WHERE id = ?"), arguments: [user]) ?? 0
        let startHead = head
        let insertKey = try db.cachedStatement(sql: "INSERT OR IGNORE INTO applied_keys (user_id, idempotency_key) VALUES (?, ?)")
        // Per-field last-writer-wins in one statement: the row is written only when the
        // incoming clock is strictly newer. Canonical clock text (15-digit millis, 5-digit
        // counter, printable-ASCII node; checked by PushValidation.clock) sorts bytewise
        // exactly like HLC, so `excluded.clock > fields.clock` is `incomingWins` in SQL.
        let writeField = try db.cachedStatement(sql: """
            INSERT INTO fields (user_id, entity, entity_id, field, value, clock, change_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, entity, entity_id, field) DO UPDATE
            SET value = excluded.value, clock = excluded.clock, change_seq = excluded.change_seq
            WHERE excluded.clock > fields.clock
            """)
        let connection = db.sqliteConnection
        var results: [PushResult] = []
        results.reserveCapacity(items.count)
        insertKey.bind(1, user)
        writeField.bind(1, user)
        defer { insertKey.clearBindings(); writeField.clearBindings() }

        for item in items {
            let seq = item.seq
            if seq <= lastApplied { results.append(PushResult(seq: seq, status: .duplicate)); continue }
            if seq > lastApplied + 1 { return .sequenceGap(lastAppliedSeq: committedLastApplied, got: seq) }
            lastApplied = seq
            let event: ValidEvent
            switch item {
            case .rejected(_, let error):
                results.append(PushResult(seq: seq, status: .rejected, error: error)); continue
            case .valid(let e):
                event = e
            }
            // Raw binds on GRDB's cached statements: this loop runs once per pushed field and
            // StatementArguments' boxing would cost more than SQLite itself. Bindings persist
            // across resets, so the per-event ones are bound once.
            insertKey.bind(2, event.idempotencyKey)
            try insertKey.stepDone(db)
            if sqlite3_changes(connection) == 0 { results.append(PushResult(seq: seq, status: .duplicate)); continue }

            let changeSeq = head + 1
            writeField.bind(2, event.entity); writeField.bind(3, event.entityID); writeField.bind(7, changeSeq)
            var wrote = false
            for field in event.fields {
                writeField.bind(4, field.name); writeField.bind(5, field.value); writeField.bind(6, field.clockText)
                try writeField.stepDone(db)
                if sqlite3_changes(connection) > 0 { wrote = true }
            }
            if wrote { head = changeSeq }
            results.append(PushResult(seq: seq, status: .applied))
        }

        try db.cachedStatement(sql: """
            INSERT INTO devices (user_id, device_id, last_applied_seq, last_seen_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (user_id, device_id) DO UPDATE SET last_applied_seq = excluded.last_applied_seq, last_seen_at = excluded.last_seen_at
            """).execute(arguments: [user, deviceID, lastApplied, now])
        if head != startHead {
            try db.cachedStatement(sql: "UPDATE users SET change_seq = ? WHERE id = ?").execute(arguments: [head, user])
        }
        return .completed(lastAppliedSeq: lastApplied, head: head, results: results)
    }

    public func pull(user: AuthenticatedUser, deviceID: String, after: Int64, limit: Int, maxBytes: Int) async throws -> PullPage {
        try await pool.read { db in
            let lastApplied = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT last_applied_seq FROM devices WHERE user_id = ? AND device_id = ?"),
                arguments: [user.id, deviceID]) ?? 0
            let head = try Int64.fetchOne(db.cachedStatement(sql: "SELECT change_seq FROM users WHERE id = ?"), arguments: [user.id]) ?? 0
            // One event writes at most maxEventFields rows under one counter value, so
            // limit + that many + 1 rows always reach past the page's last complete group.
            let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT entity, entity_id, field, value, clock, change_seq FROM fields
                WHERE user_id = ? AND change_seq > ? ORDER BY change_seq LIMIT ?
                """), arguments: [user.id, after, limit + maxEventFields + 1])
            var builder = PageBuilder(limit: limit, maxBytes: maxBytes)
            while let row = try rows.next() {
                let seq: Int64 = row[5]
                if !builder.accept(seq: seq) { break }
                let value = FieldValue(row[3] as DatabaseValue)
                builder.add(entity: row[0], entityID: row[1], field: PulledField(name: row[2], value: value, clock: row[4]))
            }
            return builder.finish(after: after, head: head, lastAppliedSeq: lastApplied)
        }
    }
}

/// Checkpoints the WAL off the request path. The writer's WAL hook (which replaces SQLite's
/// auto-checkpoint on that connection) asks for a PASSIVE checkpoint once the WAL holds
/// `softFrames` frames (SQLite's default threshold); it runs on a second connection on a
/// serial queue, concurrently with the next requests, and the writer restarts the WAL once
/// it is fully copied. Should the background fall behind, the hook checkpoints inline past
/// `hardFrames`, as auto-checkpoint would, so the WAL stays bounded.
final class WALCheckpointer: @unchecked Sendable {
    static let softFrames: Int32 = 1000
    static let hardFrames: Int32 = 16_384
    private let connection: OpaquePointer
    private let queue = DispatchQueue(label: "gymlog-server.wal-checkpoint", qos: .utility)
    private let lock = NSLock()
    private var scheduled = false

    init(path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw ServerSetupError("cannot open the server database at \(path) for checkpoints: \(message).")
        }
        sqlite3_busy_timeout(handle, 10_000)
        // The checkpoint fsyncs the WAL before copying and the database file after.
        sqlite3_exec(handle, "PRAGMA synchronous = FULL", nil, nil, nil)
        connection = handle
    }

    deinit { sqlite3_close_v2(connection) }

    /// Installs the hook on the writer connection (call on the writer's queue).
    func install(on writer: OpaquePointer?) {
        sqlite3_wal_hook(writer, { context, db, name, frames in
            let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context!).takeUnretainedValue()
            if frames >= WALCheckpointer.hardFrames {
                sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            } else if frames >= WALCheckpointer.softFrames {
                checkpointer.request()
            }
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Schedules one background checkpoint unless one is already waiting.
    func request() {
        lock.lock()
        defer { lock.unlock() }
        guard !scheduled else { return }
        scheduled = true
        queue.async {
            self.lock.lock()
            self.scheduled = false
            self.lock.unlock()
            sqlite3_wal_checkpoint_v2(self.connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        }
    }
}

/// Collects pull rows into a page one change counter value (one event's writes) at a time,
/// so a page ends only between two values.
struct PageBuilder {
    let limit: Int
    let maxBytes: Int
    private(set) var rows: [PulledRow] = []
    private var pendingSeq: Int64 = -1
    private var pending: [(entity: String, entityID: String, field: PulledField)] = []
    private var pendingBytes = 0
    private var count = 0
    private var bytes = 0
    private var lastSeq: Int64?
    private(set) var stoppedEarly = false

    init(limit: Int, maxBytes: Int) { self.limit = limit; self.maxBytes = maxBytes }

    /// Called before each row; false once the page is full and the row starts a new group.
    mutating func accept(seq: Int64) -> Bool {
        if seq == pendingSeq { return true }
        commitPending()
        if stoppedEarly { return false }
        pendingSeq = seq
        return true
    }

    mutating func add(entity: String, entityID: String, field: PulledField) {
        pending.append((entity, entityID, field))
        pendingBytes += estimatedBytes(field) + entity.utf8.count + entityID.utf8.count
    }

    // Moves the finished group into the page, or ends the page if it would overflow
    // (a group always fits into an empty page, so paging always progresses).
    private mutating func commitPending() {
        guard !pending.isEmpty else { return }
        if count > 0 && (count + pending.count > limit || bytes + pendingBytes > maxBytes) {
            stoppedEarly = true
            return
        }
        for item in pending {
            if let last = rows.last, last.entity == item.entity, last.entityID == item.entityID {
                rows[rows.count - 1].fields.append(item.field)
            } else {
                rows.append(PulledRow(entity: item.entity, entityID: item.entityID, fields: [item.field]))
            }
        }
        count += pending.count
        bytes += pendingBytes
        lastSeq = pendingSeq
        pending.removeAll(keepingCapacity: true)
        pendingBytes = 0
    }

    mutating func finish(after: Int64, head: Int64, lastAppliedSeq: Int64) -> PullPage {
        commitPending()
        // With no rows, answer the head if the client's cursor is past it: a cursor going
        // backwards tells the client the server lost history (restored from a backup).
        let cursor = lastSeq ?? min(after, head)
        let hasMore = stoppedEarly || (lastSeq.map { $0 < head } ?? false)
        return PullPage(rows: rows, cursor: cursor, hasMore: hasMore, lastAppliedSeq: lastAppliedSeq, fieldCount: count)
    }

    private func estimatedBytes(_ f: PulledField) -> Int {
        let value: Int
        switch f.value {
        case .text(let s): value = s.utf8.count + 8
        default: value = 24
        }
        return f.name.utf8.count + f.clock.utf8.count + value + 32
    }
}

// SQLITE_TRANSIENT: SQLite copies the bound bytes before the Swift string goes away.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension Statement {
    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(sqliteStatement, index, value) }

    func bind(_ index: Int32, _ value: String) {
        var value = value
        value.withUTF8 { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else { sqlite3_bind_text(sqliteStatement, index, "", 0, transient); return }
            base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                _ = sqlite3_bind_text(sqliteStatement, index, $0, Int32(bytes.count), transient)
            }
        }
    }

    func bind(_ index: Int32, _ value: FieldValue) {
        switch value {
        case .null: sqlite3_bind_null(sqliteStatement, index)
        case .int(let i): sqlite3_bind_int64(sqliteStatement, index, i)
        case .real(let d): sqlite3_bind_double(sqliteStatement, index, d)
        case .text(let s): bind(index, s)
        }
    }

    /// Drops the bound values (reset keeps them), so no bound text outlives its use.
    func clearBindings() { sqlite3_clear_bindings(sqliteStatement) }

    /// Steps a bound write to completion, then resets it for the next use.
    func stepDone(_ db: Database) throws {
        let code = sqlite3_step(sqliteStatement)
        sqlite3_reset(sqliteStatement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
        }
    }

    /// Steps a bound query, calling `body` per row, then resets it.
    func eachRow(_ db: Database, _ body: (SQLiteStatement) throws -> Void) throws {
        defer { sqlite3_reset(sqliteStatement) }
        while true {
            let code = sqlite3_step(sqliteStatement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
            }
            try body(sqliteStatement)
        }
    }
}

extension FieldValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .int(let i): i.databaseValue
        case .real(let d): d.databaseValue
        case .text(let s): s.databaseValue
        }
    }

    init(_ dbValue: DatabaseValue) {
        switch dbValue.storage {
        case .null: self = .null
        case .int64(let i): self = .int(i)
        case .double(let d): self = .real(d)
        case .string(let s): self = .text(s)
        case .blob(let b): self = .text(String(decoding: b, as: UTF8.self))
        }
    }
}
