import Foundation
import GRDB
import GymLogCore

/// Thrown when a command that only reads finds no database file at `path`.
public struct DatabaseMissing: Error, Equatable, Sendable {
    /// Where the database was looked for.
    public var path: String
}

extension GymLogDatabase {
    /// Whether `error` comes of a full disk under the database at `path`: SQLite's SQLITE_FULL,
    /// or an I/O error or a file that cannot be opened while that file system has no room left
    /// (a full disk stops the WAL's shared memory from growing before any write says FULL).
    public static func isDiskFull(_ error: any Error, path: String) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        if error.resultCode == .SQLITE_FULL { return true }
        guard error.resultCode == .SQLITE_IOERR || error.resultCode == .SQLITE_CANTOPEN else { return false }
        var stats = statvfs()
        guard statvfs((path as NSString).deletingLastPathComponent, &stats) == 0 else { return false }
        return UInt64(stats.f_bavail) * UInt64(stats.f_frsize) < 1 << 20
    }
}

/// The client's database: the only door to the SQLite file.
///
/// Every change to a synced row goes through `ChangeWriter.write`, which writes the row
/// and its outbox event in the caller's single transaction (see DESIGN.md, "Write pipeline").
// @unchecked: `queue` serializes every database access, and the one mutable property,
// `faultInjector`, is set only by tests before the database is shared.
public final class GymLogDatabase: @unchecked Sendable {
    public let queue: DatabaseQueue
    /// This database's device id, made once when the file is created.
    public let deviceID: String
    public let path: String
    /// True when the file cannot be written here (a read-only file, folder or disk): reads
    /// work, and every write fails with SQLite's read-only error (`isReadOnly(_:)`).
    public let isReadOnly: Bool
    public let environment: Environment
    public let settings: Settings
    /// How ids derived from content are stored: keyed when the settings hold an account key.
    let idKeying: IDKeying
    /// Set once this process has checked that the records match the configured formula.
    let recordsFormulaChecked = FlagBox()
    /// What the last `commit` left in the device row and the undo stack, for the next one.
    let writerMemory = WriterMemoryBox()
    /// Tests set this to fail a write between its row and its outbox event.
    public var faultInjector: (@Sendable (WritePhase) throws -> Void)?

    /// Opens the database at `path`, runs pending migrations and makes the device identity on
    /// first open. With `create` false a missing file is `DatabaseMissing`, and nothing (no
    /// folder, no file) is made: commands that only read must not leave an empty log behind.
    /// A new file and the folder made for it are the owner's alone (0600, 0700), and an
    /// existing file readable by others is made so (`OwnerOnlyFiles`).
    public init(path: String, environment: Environment = .live, settings: Settings = Settings(), create: Bool = true) throws {
        if !create, !FileManager.default.fileExists(atPath: path) { throw DatabaseMissing(path: path) }
        var config = Configuration()
        config.foreignKeysEnabled = true
        // Another gymlog process (REPL + `gymlog log`, or a sync) may hold the write lock
        // for a moment; wait for it rather than failing with "database is locked".
        config.busyMode = .timeout(10)
        // WAL is set here rather than with `config.journalMode = .wal`, because GRDB's WAL
        // setup lowers `synchronous` to NORMAL afterwards; a logged set must survive power loss.
        config.prepareDatabase { db in
            if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                try db.execute(sql: "PRAGMA journal_mode = WAL")
            }
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        // The whole history is in this file: the owner's alone, as the credentials are.
        if path != ":memory:" {
            try OwnerOnlyFiles.makeFolder((path as NSString).deletingLastPathComponent)
            OwnerOnlyFiles.prepareDatabase(path)
        }
        (self.queue, self.isReadOnly) = try Self.openQueue(path: path, configuration: config)
        self.path = path
        self.environment = environment
        self.settings = settings
        self.idKeying = IDKeying(accountKeyPhrase: settings.accountKey)
        let now = environment.now()
        let newDevice = environment.newID().key
        if isReadOnly {
            if try queue.read({ try !Schema.isMigrated($0) }) { throw DatabaseReadOnly(path: path, needsUpgrade: true) }
        } else if (try? queue.read({ try Schema.isMigrated($0) })) != true {
            try Self.migrate(queue)
        }
        if isReadOnly, let existing = try queue.read({ try String.fetchOne($0, sql: "SELECT device_id FROM device") }) {
            self.deviceID = existing
            return
        }
        self.deviceID = try queue.writeWithoutTransaction { db in
            if let existing = try String.fetchOne(db, sql: "SELECT device_id FROM device") { return existing }
            try db.inTransaction(.immediate) {
                if try String.fetchOne(db, sql: "SELECT device_id FROM device") == nil {
                    try db.execute(sql: "INSERT INTO device (singleton, device_id, last_clock, created_at) VALUES (1, ?, ?, ?)",
                                   arguments: [newDevice, HLC.zero.description, now])
                }
                return .commit
            }
            return try String.fetchOne(db, sql: "SELECT device_id FROM device")!
        }
    }

    /// Runs the pending migrations. Another process opening the same new or older file at the
    /// same moment (a second shell, a background sync) may apply one between the migrator's
    /// reading of what is applied and its own transaction, which then fails on a table or
    /// column that exists: read again and go on from there. Every such failure means the other
    /// process applied a migration, so this ends within one try per migration. (A look at what
    /// is applied may itself meet the other process half way, "no such table: grdb_migrations":
    /// it counts as not done.)
    private static func migrate(_ queue: DatabaseQueue) throws {
        for attempt in 0... {
            do {
                return try Schema.migrator.migrate(queue)
            } catch {
                if (try? queue.read({ try Schema.isMigrated($0) })) == true { return }
                if attempt >= Schema.migrator.migrations.count { throw error }
            }
        }
    }

    /// Opens the file for reading and writing; where it cannot be written (a read-only file,
    /// folder or disk), opens it read-only so that every read command still works. A WAL
    /// database in a folder that cannot be written has no `-shm` to share: it is then opened
    /// as immutable, which is right because nothing can change it there either.
    private static func openQueue(path: String, configuration: Configuration) throws -> (DatabaseQueue, readOnly: Bool) {
        do {
            return (try DatabaseQueue(path: path, configuration: configuration), false)
        } catch let error as DatabaseError where [.SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM].contains(error.resultCode) {
            guard FileManager.default.fileExists(atPath: path) else { throw error }
            var readOnly = configuration
            readOnly.readonly = true
            readOnly.prepareDatabase { _ in }
            if let queue = try? DatabaseQueue(path: path, configuration: readOnly), (try? queue.read { try $0.tableExists("device") }) != nil {
                return (queue, true)
            }
            let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
            guard let queue = try? DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: readOnly) else { throw error }
            return (queue, true)
        }
    }

    /// Whether `error` is SQLite refusing to write a database opened read-only.
    public static func isReadOnly(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_READONLY || error is DatabaseReadOnly
    }

    /// The applied migration identifiers (the recorded schema version).
    public func schemaVersion() throws -> [String] {
        try read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
    }

    /// Runs `body` in one IMMEDIATE transaction with a `ChangeWriter`: every row change and
    /// outbox event it writes commits together or not at all.
    public func commit<T>(_ durability: Durability = .durable, _ body: (inout ChangeWriter) throws -> T) throws -> T {
        try write(durability) { db in
            var result: T?
            // The writer's own flag: it reaches the database's flag only if this commits.
            let checkedHere = FlagBox()
            if recordsFormulaChecked.isSet { checkedHere.set() }
            let remembered = writerMemory.take()
            var left: WriterMemory?
            try db.inTransaction(.immediate) {
                var writer = try ChangeWriter(db: db, now: environment.now(), environment: environment, settings: settings,
                                              idKeying: idKeying, fault: faultInjector, formulaChecked: checkedHere,
                                              remembered: remembered?.ifCurrent(in: db))
                result = try body(&writer)
                try writer.finish()
                left = writer.memory
                return .commit
            }
            if var left, let version = WriterMemory.dataVersion(db) {
                left.dataVersion = version
                writerMemory.keep(left)
            }
            if checkedHere.isSet { recordsFormulaChecked.set() }
            return result!
        }
    }

    /// Runs `body` as one user action named `label` (the command as typed, `bench 100x5x3`):
    /// like `commit`, and every row change it makes is journalled, locally, so that `undo`
    /// can revert the action as a whole and `redo` re-apply it. An action that writes
    /// nothing is not recorded; one that writes clears what could be redone.
    public func commit<T>(action label: String, _ body: (inout ChangeWriter) throws -> T) throws -> T {
        try commit { w in
            w.journal = ActionJournal(label: label)
            let result = try body(&w)
            if try w.journal?.save(w.db, now: w.now, undoneMayExist: w.undoneActionsMayExist) == true {
                w.undoneActionsMayExist = false
            }
            w.journal = nil
            return result
        }
    }

    /// Runs `body` in one read transaction (one snapshot of the file, whatever other
    /// processes commit meanwhile). Every read of the store comes through here.
    ///
    /// Not GRDB's `queue.read`: that makes the connection read-only with `PRAGMA query_only`
    /// on and off around each read, and SQLite expires every prepared statement of the
    /// connection whenever a flag pragma changes, so each write after a read prepared all its
    /// statements again: in the REPL, re-preparing the set INSERT with its indexes and
    /// triggers was 39 % of a logged line's instructions. A read that writes all the same (a
    /// bug) is rolled back and refused instead.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.writeWithoutTransaction { db in
            let changesBefore = db.totalChangesCount
            var result: T?
            try db.inTransaction(.deferred) {
                result = try body(db)
                guard db.totalChangesCount == changesBefore else { throw ReadThatWrote() }
                return .commit
            }
            return result!
        }
    }

    /// Runs `body` on the writer connection, its commits reaching the disk as `durability` says.
    func write<T>(_ durability: Durability, _ body: (Database) throws -> T) throws -> T {
        try queue.writeWithoutTransaction { db in
            guard durability == .recoverable else { return try body(db) }
            // Per connection, and only between transactions; FULL again before anything else
            // runs here, so what a user writes next is never left without its fsync.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            let result = Result { try body(db) }
            try db.execute(sql: "PRAGMA synchronous = FULL")
            return try result.get()
        }
    }
}

/// A body given to `GymLogDatabase.read` changed the database: a bug, rolled back.
struct ReadThatWrote: Error, CustomStringConvertible {
    var description: String { "internal error: a read of the log tried to change it; nothing was changed" }
}

/// How a commit reaches the disk.
public enum Durability: Sendable {
    /// On disk before the commit returns (`synchronous=FULL`: the WAL is fsynced): whatever
    /// the user wrote, and everything the server cannot give back.
    case durable
    /// Atomic but not fsynced (`synchronous=NORMAL` in WAL): a power cut (not a crash of the
    /// process) may roll it back, never half of it, and the next durable commit or checkpoint
    /// makes it durable with everything before it. For what the sync server gives back on the
    /// next sync: a pulled page with its cursor, an acknowledgement.
    case recoverable
}

/// A flag shared by the writers of one database instance.
// @unchecked: its one Bool is read and written only under `lock` (`Mutex` needs macOS 15).
final class FlagBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// A database that must be written to be opened (its schema is older than this gymlog's) but
/// cannot be.
public struct DatabaseReadOnly: Error, Sendable {
    public var path: String
    public var needsUpgrade: Bool
}
