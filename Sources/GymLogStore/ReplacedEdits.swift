import Foundation
import GRDB
import GymLogCore

/// A local edit of a set that a later edit from another device replaced in a pull (issue 48).
/// Per-field last-writer-wins keeps the later value, as a lifter expects; what it must not do
/// is make the other value vanish without a word. Each such replacement is kept as one line
/// (`replaced_edits`) until `gymlog sync`, `status` or the REPL has said it once.
enum ReplacedEdit {
    /// The fields among `winners` (pulled values about to be written) whose stored value was
    /// this device's own edit: written here (its clock's node is this device), after the row
    /// was made (newer than the row's oldest clock, its creation), and replaced by a write of
    /// another device. Deletion is not an edit of the values and is not counted.
    static func replacedFields(_ winners: [FieldChange], storedClocks clocks: FieldClocks, localDevice: String) -> [String] {
        guard let created = clocks.oldest else { return [] }
        return winners.compactMap { f in
            guard f.name != "deleted_at", f.clock.node != localDevice, let mine = clocks[f.name],
                  mine.node == localDevice, mine > created else { return nil }
            return f.name
        }
    }

    /// The line a lifter reads: `Bench Press, 2026-11-03 18:02: your edit 275lb x 8 was
    /// replaced by 280lb x 8, edited later on device 3f2a1c0d.` Nil when the set reads the
    /// same as before (a field the summary does not show).
    static func notice(exercise: String, before: LoggedSet, after: LoggedSet, device: String) -> String? {
        let was = before.values.summary, now = after.values.summary
        guard was != now else { return nil }
        let when = localDateTime(millis: after.performedAt, utcOffsetSeconds: after.utcOffsetSeconds).prefix(16)
        return "\(exercise), \(when): your edit \(was) was replaced by \(now), edited later on device \(device.prefix(8))."
    }

    /// The set and its exercise's name as stored, for a notice.
    static func storedSet(_ db: Database, id: String) throws -> (exercise: String, set: LoggedSet)? {
        guard let row = try Row.fetchOne(db, sql: "SELECT \(Rows.setColumns), e.name AS exercise_name FROM sets s JOIN exercises e ON e.id = s.exercise_id WHERE s.id = ?",
                                         arguments: [id]) else { return nil }
        var decode = SetDecoder()
        return (row["exercise_name"], decode(row))
    }

    static func record(_ notice: String, in db: Database) throws {
        try db.execute(sql: "INSERT INTO replaced_edits (notice) VALUES (?)", arguments: [notice])
    }
}

extension GymLogDatabase {
    /// The local edits later edits from other devices replaced since they were last taken,
    /// oldest first; taking them clears them, so each is said once.
    public func takeReplacedEditNotices() throws -> [String] {
        try queue.write { db in
            let notices = try String.fetchAll(db, sql: "SELECT notice FROM replaced_edits ORDER BY id")
            if !notices.isEmpty { try db.execute(sql: "DELETE FROM replaced_edits") }
            return notices
        }
    }
}
