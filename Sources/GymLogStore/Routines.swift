import Foundation
import GRDB
import GymLogCore

/// A routine as stored: its name and its plain text (`# Name` and one planned exercise a line).
public struct StoredRoutine: Equatable, Sendable {
    public var id: UUID
    public var name: String
    public var text: String
}

extension GymLogDatabase {
    // MARK: Routines (a synced entity: every change goes through the write pipeline)

    /// Every live routine, by name.
    public func routines() throws -> [StoredRoutine] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, body FROM routines WHERE deleted_at IS NULL ORDER BY name COLLATE NOCASE")
                .compactMap(Self.routine)
        }
    }

    /// The routine a typed name means: its whole name (case, accents and punctuation aside)
    /// or an unambiguous start of it (`push` for "Push A" when there is no "Push B").
    public func routine(named name: String) throws -> StoredRoutine {
        let all = try routines()
        guard !all.isEmpty else { throw UserError("There are no routines yet; add one with `gymlog routine add NAME`.") }
        let key = matchKey(name)
        if let exact = all.first(where: { matchKey($0.name) == key }) { return exact }
        let started = all.filter { matchKey($0.name).hasPrefix(key) && !key.isEmpty }
        if started.count == 1 { return started[0] }
        let names = (started.isEmpty ? all : started).prefix(8).map { "'\($0.name)'" }.joined(separator: ", ")
        throw UserError(started.isEmpty ? "No routine is called '\(name)'; the routines are \(names)."
                                        : "'\(name)' starts several routines: \(names). Type more of the name.")
    }

    /// Saves a routine's text under its name: creates it, or replaces the text of the routine
    /// of that name (one deleted earlier comes back). Returns it and whether it is new.
    public func saveRoutine(name: String, text: String, typed: String) throws -> (routine: StoredRoutine, created: Bool) {
        try commit(action: typed) { w in
            let clean = displayName(forNew: name)
            guard !clean.isEmpty else { throw UserError("A routine needs a name, e.g. `gymlog routine add \"Push A\"`.") }
            let id = derivedID(namespace: "routine", key: nameKey(clean))
            let stored = try Row.fetchOne(w.db, sql: "SELECT name, body, deleted_at FROM routines WHERE id = ?", arguments: [id.key])
            let live = stored.map { ($0["deleted_at"] as Int64?) == nil } ?? false
            if stored == nil {
                _ = try w.write(.routines, id: id, op: .create, fields: [("name", .text(clean)), ("body", .text(text)), (tombstoneField, .null)])
            } else {
                var fields: [(String, FieldValue)] = []
                if stored?["name"] != clean { fields.append(("name", .text(clean))) }
                if stored?["body"] != text { fields.append(("body", .text(text))) }
                if !live { fields.append((tombstoneField, .null)) }
                if !fields.isEmpty { _ = try w.write(.routines, id: id, op: live ? .update : .restore, fields: fields) }
            }
            w.describeAction(live ? "the routine '\(clean)' (edited)" : "the routine '\(clean)'", workout: nil)
            return (StoredRoutine(id: id, name: clean, text: text), !live)
        }
    }

    /// Deletes a routine (a tombstone; `undo` brings it back). Past workouts keep their sets.
    public func deleteRoutine(named name: String, typed: String) throws -> StoredRoutine {
        let routine = try routine(named: name)
        return try commit(action: typed) { w in
            _ = try w.write(.routines, id: routine.id, op: .delete, fields: [(tombstoneField, .int(w.now))])
            w.describeAction("the routine '\(routine.name)' (deleted)", workout: nil)
            return routine
        }
    }

    private static func routine(_ row: Row) -> StoredRoutine? {
        guard let id = parseUUID(row["id"]) else { return nil }
        return StoredRoutine(id: id, name: row["name"], text: row["body"])
    }
}
