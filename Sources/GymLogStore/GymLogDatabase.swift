import Foundation
import GRDB
import GymLogCore

/// Points in the write pipeline where tests inject failures.
public enum WritePhase: Sendable {
    /// The domain row is written; its outbox event is not yet.
    case rowWritten
    /// The outbox event is written too; the transaction has not committed.
    case outboxWritten
}

/// The client's database: the only door to the SQLite file.
///
/// Every change to a synced row goes through `ChangeWriter.write`, which writes the row
/// and its outbox event in the caller's single transaction (see DESIGN.md, "Write pipeline").
public final class GymLogDatabase: @unchecked Sendable {
    public let queue: DatabaseQueue
    /// This database's device id, made once when the file is created.
    public let deviceID: String
    public let path: String
    public let environment: Environment
    public var settings: Settings
    /// Set once this process has checked that the records match the configured formula.
    let recordsFormulaChecked = FlagBox()
    /// Tests set this to fail a write between its row and its outbox event.
    public var faultInjector: (@Sendable (WritePhase) throws -> Void)?

    /// Opens (creating if needed) the database at `path`, runs pending migrations and makes
    /// the device identity on first open.
    public init(path: String, environment: Environment = .live, settings: Settings = Settings()) throws {
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
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        self.queue = try DatabaseQueue(path: path, configuration: config)
        self.path = path
        self.environment = environment
        self.settings = settings
        let now = environment.now()
        let newDevice = environment.newID().key
        if try queue.read({ try !Schema.migrator.hasCompletedMigrations($0) }) {
            try Schema.migrator.migrate(queue)
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

    /// The applied migration identifiers (the recorded schema version).
    public func schemaVersion() throws -> [String] {
        try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
    }

    /// Runs `body` in one IMMEDIATE transaction with a `ChangeWriter`: every row change and
    /// outbox event it writes commits together or not at all.
    public func commit<T>(_ body: (inout ChangeWriter) throws -> T) throws -> T {
        try queue.writeWithoutTransaction { db in
            var result: T?
            // The writer's own flag: it reaches the database's flag only if this commits.
            let checkedHere = FlagBox()
            if recordsFormulaChecked.isSet { checkedHere.set() }
            try db.inTransaction(.immediate) {
                var writer = try ChangeWriter(db: db, now: environment.now(), environment: environment,
                                              settings: settings, fault: faultInjector, formulaChecked: checkedHere)
                result = try body(&writer)
                try writer.finish()
                return .commit
            }
            if checkedHere.isSet { recordsFormulaChecked.set() }
            return result!
        }
    }

    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.read(body)
    }
}

/// Writes synced rows and their outbox events inside one open transaction.
public struct ChangeWriter {
    public let db: Database
    public let now: Int64
    public let environment: Environment
    public let settings: Settings
    let deviceID: String
    let fault: (@Sendable (WritePhase) throws -> Void)?
    let formulaChecked: FlagBox
    private(set) var clock: HLC
    private(set) var seq: Int64
    private var touched = false

    init(db: Database, now: Int64, environment: Environment, settings: Settings,
         fault: (@Sendable (WritePhase) throws -> Void)?, formulaChecked: FlagBox = FlagBox()) throws {
        self.db = db; self.now = now; self.environment = environment; self.settings = settings; self.fault = fault
        self.formulaChecked = formulaChecked
        let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT device_id, last_clock, last_seq FROM device"))!
        self.deviceID = row[0]
        self.clock = HLC(row[1] as String) ?? .zero
        self.seq = row[2]
    }

    /// THE write of the pipeline: stamps `fields` with a fresh clock, upserts the row, and
    /// appends the matching outbox event with the next gapless sequence number.
    @discardableResult
    public mutating func write(_ entity: EntityKind, id: UUID, op: ChangeOp, fields: [(String, FieldValue)]) throws -> HLC {
        try Self.checkStorable(entity, fields)
        clock = clock.tick(now: now, node: deviceID)
        let changes = fields.map { FieldChange($0.0, $0.1, clock) }
        try RowWriter.upsert(db, entity, id: id.key, changes: changes, creating: op == .create)
        try fault?(.rowWritten)
        seq += 1
        try db.cachedStatement(sql: """
            INSERT INTO outbox (seq, entity, entity_id, op, payload, idempotency_key, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [seq, entity.rawValue, id.key, op.rawValue,
                                     encodePayload(changes), environment.newID().key, now])
        try fault?(.outboxWritten)
        touched = true
        return clock
    }

    /// Refuses text that the row could not keep as typed (SQLite cuts it at a NUL), that
    /// the server would refuse for good (it would sit in the outbox as a poison event), or
    /// that holds control characters (invisible, and able to drive the terminal that prints
    /// it). Notes may hold tabs and line breaks; names are one line.
    static func checkStorable(_ entity: EntityKind, _ fields: [(String, FieldValue)]) throws {
        for (name, value) in fields {
            guard case .text(let text) = value else { continue }
            let bytes = text.utf8.count
            let control = ControlCharacters.firstForbidden(in: text, lineBreaks: name == "note")
            guard bytes > maxTextFieldBytes || control != nil else { continue }
            let what = switch (entity, name) {
            case (.exercises, "name"): "exercise name"
            case (.workouts, "name"): "workout name"
            case (.aliases, "alias"): "alias"
            case (_, "note"): "note"
            default: "\(entity.rawValue) field '\(name)'"
            }
            if bytes > maxTextFieldBytes {
                throw UserError("The \(what) is \(bytes) bytes long; gymlog keeps at most \(maxTextFieldBytes) bytes of text "
                    + "in one field so that it syncs. Shorten it; nothing was saved.")
            }
            if let (scalar, position) = control {
                throw UserError("The \(what) contains the control character \(ControlCharacters.describe(scalar)) at character \(position), "
                    + "which gymlog does not store\(scalar.value == 0 ? "" : " (printed, it could drive your terminal)"); remove it. Nothing was saved.")
            }
        }
    }

    /// Folds a clock seen from elsewhere into the local clock (sync's pull path).
    public mutating func observe(_ remote: HLC) {
        if remote > clock { clock = clock.receiving(remote, now: now, node: deviceID) }
        touched = true
    }

    mutating func finish() throws {
        guard touched else { return }
        try db.cachedStatement(sql: "UPDATE device SET last_clock = ?, last_seq = ?")
            .execute(arguments: [clock.description, seq])
    }
}

/// Generic upsert of field changes into a synced table. Field names are column names,
/// except fields this version does not know, which go to the `extra` JSON column so a
/// newer client's data is kept, not dropped.
enum RowWriter {
    static let columns: [EntityKind: Set<String>] = [
        .exercises: ["name", "kind", "deleted_at"],
        .aliases: ["alias", "exercise_id", "deleted_at"],
        .workouts: ["name", "started_at", "ended_at", "utc_offset", "note", "deleted_at"],
        .sets: ["workout_id", "exercise_id", "kind", "weight", "weight_unit", "bodyweight", "reps", "rpe",
                "duration_s", "distance", "distance_unit", "note", "performed_at", "utc_offset", "deleted_at"],
    ]

    /// Writes `changes` to row `id`. A create carries every column and inserts (or revives a
    /// row with the same derived id); other changes update the fields they name, and insert
    /// a partial row only when the row is not there yet (a change that arrived first).
    static func upsert(_ db: Database, _ entity: EntityKind, id: String, changes: [FieldChange], creating: Bool) throws {
        guard !changes.isEmpty else { return }
        if !creating {
            try update(db, entity, id: id, changes: changes)
            if db.changesCount > 0 { return }
        }
        let known = columns[entity]!
        var names: [String] = [], values: [DatabaseValue] = []
        var extra: [FieldChange] = []
        for c in changes {
            if known.contains(c.name) { names.append(c.name); values.append(c.value.databaseValue) } else { extra.append(c) }
        }
        let clocks = clocksJSON(changes)
        var insertCols = ["id"] + names + ["clocks"]
        var updates = names.map { "\($0) = excluded.\($0)" } + ["clocks = json_patch(\(entity.rawValue).clocks, excluded.clocks)"]
        var args: [DatabaseValue] = [id.databaseValue] + values + [clocks.databaseValue]
        if !extra.isEmpty {
            var json = "{"
            for (i, c) in extra.enumerated() {
                if i > 0 { json += "," }
                appendJSONString(c.name, to: &json); json += ":"; appendJSON(c.value, to: &json)
            }
            json += "}"
            insertCols.append("extra")
            updates.append("extra = json_patch(coalesce(\(entity.rawValue).extra, '{}'), excluded.extra)")
            args.append(json.databaseValue)
        }
        let sql = "INSERT INTO \(entity.rawValue) (\(insertCols.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: insertCols.count).joined(separator: ", ")
            + ") ON CONFLICT(id) DO UPDATE SET " + updates.joined(separator: ", ")
        try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(args))
    }
}

extension RowWriter {
    /// `{"field":"clock",...}` for the row's `clocks` column, formatting a shared clock once.
    static func clocksJSON(_ changes: [FieldChange]) -> String {
        var json = "{"
        json.reserveCapacity(48 * changes.count)
        var lastClock: HLC?, clockText = ""
        for (i, c) in changes.enumerated() {
            if i > 0 { json += "," }
            appendJSONString(c.name, to: &json)
            if c.clock != lastClock { lastClock = c.clock; clockText = c.clock.description }
            json += ":\"" + clockText + "\""
        }
        return json + "}"
    }

    static func update(_ db: Database, _ entity: EntityKind, id: String, changes: [FieldChange]) throws {
        let known = columns[entity]!
        var sets: [String] = [], args: [DatabaseValue] = []
        var extra = "{"
        for c in changes {
            if known.contains(c.name) {
                sets.append("\(c.name) = ?"); args.append(c.value.databaseValue)
            } else {
                if extra.count > 1 { extra += "," }
                appendJSONString(c.name, to: &extra); extra += ":"; appendJSON(c.value, to: &extra)
            }
        }
        if extra.count > 1 {
            sets.append("extra = json_patch(coalesce(extra, '{}'), ?)"); args.append((extra + "}").databaseValue)
        }
        sets.append("clocks = json_patch(clocks, ?)"); args.append(clocksJSON(changes).databaseValue)
        args.append(id.databaseValue)
        try db.cachedStatement(sql: "UPDATE \(entity.rawValue) SET \(sets.joined(separator: ", ")) WHERE id = ?")
            .execute(arguments: StatementArguments(args))
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
        case .blob(let data): self = .text(String(decoding: data, as: UTF8.self))
        }
    }
}

/// A flag shared by the writers of one database instance.
final class FlagBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
