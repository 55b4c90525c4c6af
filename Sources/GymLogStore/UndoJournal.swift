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

    /// How many actions `undo` can go back.
    static let depth: Int64 = 500

    /// Stores the action as the newest one and forgets every undone action (a new action
    /// clears the redo side).
    func save(_ db: Database, now: Int64) throws {
        guard !writes.isEmpty else { return }
        try db.execute(sql: "DELETE FROM undo_actions WHERE undone = 1")
        try db.execute(sql: "INSERT INTO undo_actions (label, summary, workout_id, undone, at) VALUES (?, ?, ?, 0, ?)",
                       arguments: [label, summary, workoutID?.key, now])
        let action = db.lastInsertedRowID
        // The stack is for recent mistakes, not an archive: keep the newest actions only.
        try db.execute(sql: "DELETE FROM undo_actions WHERE id <= ?", arguments: [action - Self.depth])
        for (position, write) in writes.enumerated() {
            try db.cachedStatement(sql: """
                INSERT INTO undo_writes (action_id, position, entity, entity_id, op, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [action, position, write.entity.rawValue, write.id, write.op.rawValue,
                                         write.before.map(JournalFields.encode), JournalFields.encode(write.after)])
        }
    }
}

/// A journal's field list as JSON: `[["name", value], ...]`, a value being null, a number
/// (`{"i":…}` or `{"r":…}`, so an integer stays an integer) or a string.
enum JournalFields {
    private struct Field: Codable {
        var n: String
        var i: Int64?
        var r: Double?
        var t: String?
    }

    static func encode(_ fields: [(String, FieldValue)]) -> String {
        let list = fields.map { name, value -> Field in
            switch value {
            case .null: Field(n: name)
            case .int(let i): Field(n: name, i: i)
            case .real(let r): Field(n: name, r: r)
            case .text(let t): Field(n: name, t: t)
            }
        }
        return String(decoding: (try? JSONEncoder().encode(list)) ?? Data("[]".utf8), as: UTF8.self)
    }

    static func decode(_ text: String) -> [(String, FieldValue)] {
        let list = (try? JSONDecoder().decode([Field].self, from: Data(text.utf8))) ?? []
        return list.map { f in
            (f.n, f.i.map { .int($0) } ?? f.r.map { .real($0) } ?? f.t.map { .text($0) } ?? .null)
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
        let known = RowWriter.columns[entity]!
        let columns = fields.map { known.contains($0) ? $0 : "NULL" }
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(columns.joined(separator: ", ")) FROM \(entity.rawValue) WHERE id = ?
            """), arguments: [id]) else { return nil }
        return fields.enumerated().map { ($0.element, FieldValue(row[$0.offset] as DatabaseValue)) }
    }

    /// The field clocks of row `id` (field name to clock).
    func clocks(_ entity: EntityKind, id: String) throws -> [String: HLC] {
        let text = try String.fetchOne(db.cachedStatement(sql: "SELECT clocks FROM \(entity.rawValue) WHERE id = ?"), arguments: [id])
        let raw = text.flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) } ?? [:]
        return raw.compactMapValues(HLC.init)
    }
}
