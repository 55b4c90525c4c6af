import Foundation
import GRDB
import GymLogCore

/// One row change made inside an action: the fields it wrote, with their values before
/// (nil when the row did not exist) and after.
struct JournalWrite {
    var entity: EntityKind
    var id: String
    var op: ChangeOp
    var before: [(String, FieldValue)]?
    var after: [(String, FieldValue)]
}

/// What `GymLogDatabase.commit(action:)` records while its body runs: every write of the
/// action, what it did in words and the workout it belongs to. Local only: it never reaches
/// the outbox, and `undo` replays it through `ChangeWriter.write` like any other change.
struct ActionJournal {
    var label: String
    var summary = ""
    var workoutID: UUID?
    var writes: [JournalWrite] = []
    /// Set for an import (`journalCreatesInDatabase`): the id this action will have, under which
    /// each row it creates is journalled in `undo_created` as it is written, by id alone:
    /// `undo` tombstones them and `redo` clears the tombstone, which is all a created row needs,
    /// so an import's memory does not grow with the file.
    private(set) var createsJournalledAs: Int64?
    /// How many rows went to `undo_created`.
    var createdRows = 0

    /// How many actions `undo` can go back.
    static let depth: Int64 = 500

    /// From now on, rows this action creates are journalled in the database, not in `writes`.
    mutating func journalCreatesInDatabase(_ db: Database) throws {
        // Past every action kept, undone ones included (`save` clears those, never this id).
        let id = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(id), 0) + 1 FROM undo_actions")!
        try db.execute(sql: "DELETE FROM undo_created WHERE action >= ?", arguments: [id])
        createsJournalledAs = id
    }

    /// Journals the creation of row `id` of `entity` (see `createsJournalledAs`).
    mutating func journalCreated(_ entity: EntityKind, id: String, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO undo_created (action, entity, id) VALUES (?, ?, ?)")
            .execute(arguments: [createsJournalledAs, entity.rawValue, id])
        createdRows += 1
    }

    /// Stores the action as the newest one and forgets every undone action (a new action
    /// clears the redo side; `undoneMayExist` false says there is none). Returns whether it
    /// stored anything: an action that wrote nothing is not recorded.
    func save(_ db: Database, now: Int64, undoneMayExist: Bool = true) throws -> Bool {
        guard !writes.isEmpty || createdRows > 0 else { return false }
        // Cached statements: this runs on every logged line, the hot path of the product.
        if undoneMayExist { try db.cachedStatement(sql: "DELETE FROM undo_actions WHERE undone = 1").execute() }
        // A null id is the next rowid; an import's is the one its `undo_created` rows name.
        try db.cachedStatement(sql: "INSERT INTO undo_actions (id, label, summary, workout_id, undone, at, writes) VALUES (?, ?, ?, ?, 0, ?, ?)")
            .execute(arguments: [createsJournalledAs, label, summary, workoutID?.key, now, JournalFields.encode(writes)])
        let action = db.lastInsertedRowID
        // The stack is for recent mistakes, not an archive: keep the newest actions only,
        // pruned every `pruneEvery` actions rather than on every line.
        if action % Self.pruneEvery == 0 {
            try db.cachedStatement(sql: "DELETE FROM undo_actions WHERE id <= ?").execute(arguments: [action - Self.depth])
        }
        return true
    }

    /// How often the oldest actions beyond `depth` are dropped.
    static let pruneEvery: Int64 = 50
}

/// A journal's writes as JSON: `[{"e":entity,"id":…,"op":…,"b":fields or null,"a":fields}]`,
/// fields being `[{"n":name,"i":int}|{"n":…,"r":real}|{"n":…,"t":text}|{"n":…}]` (null), so an
/// integer stays an integer.
enum JournalFields {
    private struct Write: Codable {
        var e: String
        var id: String
        var op: String
        var b: [Field]?
        var a: [Field]
    }

    private struct Field: Codable {
        var n: String
        var i: Int64?
        var r: Double?
        var t: String?
        var value: (String, FieldValue) { (n, i.map { .int($0) } ?? r.map { .real($0) } ?? t.map { .text($0) } ?? .null) }
    }

    /// Written by hand, not with `JSONEncoder`: every logged line journals its writes, and the
    /// encoder was a tenth of the logging path's CPU. `decode` reads it back with `JSONDecoder`.
    static func encode(_ fields: [(String, FieldValue)]) -> String {
        var out = "["
        for (index, (name, value)) in fields.enumerated() {
            if index > 0 { out += "," }
            out += "{\"n\":"
            appendJSONString(name, to: &out)
            switch value {
            case .null: break
            case .int(let i): out += ",\"i\":\(i)"
            // A stored real is finite; its shortest description is valid JSON and reads back exactly.
            case .real(let r): out += ",\"r\":\(r)"
            case .text(let t): out += ",\"t\":"; appendJSONString(t, to: &out)
            }
            out += "}"
        }
        return out + "]"
    }

    static func decode(_ text: String) -> [(String, FieldValue)] {
        ((try? JSONDecoder().decode([Field].self, from: Data(text.utf8))) ?? []).map(\.value)
    }

    /// An action's writes, as `save` stores them.
    static func encode(_ writes: [JournalWrite]) -> String {
        var out = "["
        for (index, w) in writes.enumerated() {
            if index > 0 { out += "," }
            out += "{\"e\":"
            appendJSONString(w.entity.rawValue, to: &out)
            out += ",\"id\":"
            appendJSONString(w.id, to: &out)
            out += ",\"op\":"
            appendJSONString(w.op.rawValue, to: &out)
            out += ",\"b\":" + (w.before.map(encode) ?? "null") + ",\"a\":" + encode(w.after) + "}"
        }
        return out + "]"
    }

    /// An action's writes read back; nil when the text is not a journal (never written by `save`).
    static func decodeWrites(_ text: String) -> [JournalWrite]? {
        guard let list = try? JSONDecoder().decode([Write].self, from: Data(text.utf8)) else { return nil }
        return list.compactMap { w in
            guard let entity = EntityKind(rawValue: w.e), let op = ChangeOp(rawValue: w.op) else { return nil }
            return JournalWrite(entity: entity, id: w.id, op: op, before: w.b.map { $0.map(\.value) }, after: w.a.map(\.value))
        }
    }
}

extension ChangeWriter {
    /// Names what the running action did (`Bench Press 100kg x 5 (3 sets)`) and the workout
    /// it belongs to, for `undo`'s message and its question when that workout is not the open one.
    mutating func describeAction(_ summary: String, workout: UUID?) {
        journal?.summary = summary
        journal?.workoutID = workout
    }

    /// The stored values of `fields` in row `id`, or nil when there is no such row.
    /// (Every field a command writes is a column; any other reads as null.)
    func currentValues(_ entity: EntityKind, id: String, fields: [String]) throws -> [(String, FieldValue)]? {
        let known = RowWriter.columns(entity)
        let columns = fields.map { known.contains($0) ? $0 : "NULL" }
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(columns.joined(separator: ", ")) FROM \(entity.rawValue) WHERE id = ?
            """), arguments: [id]) else { return nil }
        return fields.enumerated().map { ($0.element, FieldValue(row[$0.offset] as DatabaseValue)) }
    }

    /// The field clocks of row `id` (none when there is no such row).
    func clocks(_ entity: EntityKind, id: String) throws -> FieldClocks {
        FieldClocks(column: try String.fetchOne(db.cachedStatement(sql: "SELECT clocks FROM \(entity.rawValue) WHERE id = ?"), arguments: [id]))
    }
}
