import Foundation
import GRDB
import GymLogCore

/// The steps on routines that write, inside the caller's transaction: save one, skip its
/// planned lines in a workout.
enum RoutineSteps {
    /// Saves a routine's text under its name (see `GymLogDatabase.saveRoutine`).
    static func save(name: String, text: String, lines: [String], in w: inout ChangeWriter) throws -> (routine: StoredRoutine, created: Bool) {
        let clean = displayName(forNew: name)
        guard !clean.isEmpty else { throw UserError("A routine needs a name, e.g. `gymlog routine add \"Push A\"`.") }
        let id = w.derivedID(namespace: "routine", key: nameKey(clean))
        let stored = try Row.fetchOne(w.db, sql: "SELECT name, body, line_since, unit, deleted_at FROM routines WHERE id = ?", arguments: [id.key])
        let live = stored.map { ($0["deleted_at"] as Int64?) == nil } ?? false
        let old = GymLogDatabase.lineSince(live ? stored?["line_since"] : nil)
        var since: [String: Int64] = [:]
        for line in lines { since[line] = old[line] ?? w.now }
        let sinceText = GymLogDatabase.lineSinceText(since)
        // Numbers written without a unit mean the writer's: kept from the first save on, so
        // another device (or a changed setting) reads the routine as it was written.
        let unit = (stored?["unit"] as String?) ?? w.settings.defaultUnit.rawValue
        if stored == nil {
            _ = try w.write(.routines, id: id, op: .create, fields: [("name", .text(clean)), ("body", .text(text)),
                                                                     ("line_since", .text(sinceText)), ("unit", .text(unit)),
                                                                     (tombstoneField, .null)])
        } else {
            var fields: [(String, FieldValue)] = []
            if stored?["name"] != clean { fields.append(("name", .text(clean))) }
            if stored?["body"] != text { fields.append(("body", .text(text))) }
            if stored?["line_since"] != sinceText { fields.append(("line_since", .text(sinceText))) }
            if stored?["unit"] != unit { fields.append(("unit", .text(unit))) }
            if !live { fields.append((tombstoneField, .null)) }
            if !fields.isEmpty { _ = try w.write(.routines, id: id, op: live ? .update : .restore, fields: fields) }
        }
        w.describeAction(live ? "the routine '\(clean)' (edited)" : "the routine '\(clean)'", workout: nil)
        return (StoredRoutine(id: id, name: clean, text: text, unit: WeightUnit(rawValue: unit)), !live)
    }

    /// Adds routine lines (1-based, each with its sets done now) to the ones the workout skips today.
    static func skip(lines: [(line: Int, done: Int)], workoutID: UUID, what: String, in w: inout ChangeWriter) throws {
        let stored = try String.fetchOne(w.db, sql: "SELECT skipped FROM workouts WHERE id = ?", arguments: [workoutID.key])
        var skipped = SkippedLines(parsing: stored)
        for (line, done) in lines { skipped.skip(line: line, done: done) }
        _ = try w.write(.workouts, id: workoutID, op: .update, fields: [("skipped", .text(skipped.text))])
        w.describeAction("skipped \(what)", workout: workoutID)
    }
}
