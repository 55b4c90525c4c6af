import Foundation
import GRDB
import GymLogCore
import GymLogWire

/// Points in the write pipeline where tests inject failures.
public enum WritePhase: Sendable {
    /// The domain row is written; its outbox event is not yet.
    case rowWritten
    /// The outbox event is written too; the transaction has not committed.
    case outboxWritten
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
    /// How ids derived from content are stored (keyed when the account is encrypted).
    let idKeying: IDKeying
    private(set) var clock: HLC
    private(set) var seq: Int64
    /// Whether the undo stack may hold undone actions, which a new action clears.
    var undoneActionsMayExist: Bool
    private var touched = false
    /// Ids `newRowID` made up in this transaction: no row can hold one before its create. An
    /// array (a logged line mints a few): a `Set<UUID>` cost each one-shot `gymlog log` a
    /// runtime conformance lookup.
    private var minted: [UUID] = []
    /// The action being recorded for `undo` (see `GymLogDatabase.commit(action:)`); nil for
    /// writes that are no action of this device's user (sync, import, undo and redo themselves).
    var journal: ActionJournal?

    /// `remembered`: what the last write left, when it still stands for `db` (`WriterMemory`);
    /// without it the device row is read.
    init(db: Database, now: Int64, environment: Environment, settings: Settings, idKeying: IDKeying,
         fault: (@Sendable (WritePhase) throws -> Void)?, formulaChecked: FlagBox = FlagBox(), remembered: WriterMemory? = nil) throws {
        self.db = db; self.now = now; self.environment = environment; self.settings = settings; self.fault = fault
        self.idKeying = idKeying; self.formulaChecked = formulaChecked
        if let remembered {
            (deviceID, clock, seq) = (remembered.deviceID, remembered.clock, remembered.seq)
            undoneActionsMayExist = remembered.undoneActionsMayExist
            return
        }
        let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT device_id, last_clock, last_seq FROM device"))!
        var columns = ColumnPositions(["device_id", "last_clock", "last_seq"])
        let p = columns(row)
        self.deviceID = row[p[0]]
        self.clock = HLC(row[p[1]] as String) ?? .zero
        self.seq = row[p[2]]
        undoneActionsMayExist = true
    }

    /// What this writer leaves in the database once it commits (its data version filled in then).
    var memory: WriterMemory {
        WriterMemory(deviceID: deviceID, clock: clock, seq: seq, undoneActionsMayExist: undoneActionsMayExist, dataVersion: 0)
    }

    /// The id of the row derived from `key` in `namespace` (an exercise's name): the same on
    /// every device of the account, so rows two devices make offline converge.
    public func derivedID(namespace: String, key: String) -> UUID { idKeying.derived(namespace: namespace, key: key) }

    /// THE write of the pipeline: stamps `fields` with a fresh clock, upserts the row, and
    /// appends the matching outbox event with the next gapless sequence number.
    @discardableResult
    public mutating func write(_ entity: EntityKind, id: UUID, op: ChangeOp, fields: [(String, FieldValue)]) throws -> HLC {
        try Self.checkStorable(entity, fields)
        if journal != nil {
            if op == .create && journal!.createsJournalledAs != nil {
                try journal!.journalCreated(entity, id: id.key, in: db)
            } else {
                // The before-image, read just before the upsert: what `undo` writes back. A row
                // whose id was made up here has none, and logging a set need not ask.
                let before = op == .create && minted.contains(id) ? nil : try currentValues(entity, id: id.key, fields: fields.map(\.0))
                journal!.writes.append(JournalWrite(entity: entity, id: id.key, op: op, before: before, after: fields))
            }
        }
        clock = clock.tick(now: now, node: deviceID)
        let changes = fields.map { FieldChange($0.0, $0.1, clock) }
        try RowWriter.upsert(db, entity, id: id.key, changes: changes, creating: op == .create)
        try fault?(.rowWritten)
        seq += 1
        try db.cachedStatement(sql: """
            INSERT INTO outbox (seq, entity, entity_id, op, payload, idempotency_key, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [seq, entity.rawValue, id.key, op.rawValue,
                                     encodePayload(changes), Self.idempotencyKey(device: deviceID, seq: seq), now])
        try fault?(.outboxWritten)
        touched = true
        return clock
    }

    /// The idempotency key of this device's event `seq`: made of the two, so a copy of the
    /// database (a backup restored, a snapshot) that writes under a seq the original already
    /// sent sends the same key with other content, and the server answers `key_reused`
    /// instead of taking the change for a replay (`SyncEngine` then makes the copy a device
    /// of its own).
    static func idempotencyKey(device: String, seq: Int64) -> String { "\(device)/\(seq)" }

    /// A new id for a row this transaction creates.
    mutating func newRowID() -> UUID {
        let id = environment.newID()
        minted.append(id)
        return id
    }

    /// Refuses text that the row could not keep as typed (SQLite cuts it at a NUL), that
    /// the server would refuse for good (it would sit in the outbox as a poison event), or
    /// that holds control characters (invisible, and able to drive the terminal that prints
    /// it). Notes may hold tabs and line breaks; names are one line.
    static func checkStorable(_ entity: EntityKind, _ fields: [(String, FieldValue)]) throws {
        for (name, value) in fields {
            guard case .text(let text) = value else { continue }
            let bytes = text.utf8.count
            // Notes and a routine's text are multi-line; names are one line.
            let control = ControlCharacters.firstForbidden(in: text, lineBreaks: name == "note" || (entity == .routines && name == "body"))
            guard bytes > maxTextFieldBytes || control != nil else { continue }
            let what = switch (entity, name) {
            case (.exercises, "name"): "exercise name"
            case (.workouts, "name"): "workout name"
            case (.aliases, "alias"): "alias"
            case (_, "note"): "note"
            case (.routines, "body"): "routine's text"
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
