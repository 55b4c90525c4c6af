import Foundation
import GRDB
import GymLogCore

/// An action on the undo stack as the user sees it.
public struct UndoableAction: Equatable, Sendable {
    /// The command as typed (`bench 100x5x3`, `delete 3`).
    public var label: String
    /// What it did (`Bench Press 100kg x 5 (3 sets)`).
    public var summary: String
    /// The workout it belongs to, when it belongs to one (it may be deleted by now).
    public var workout: Workout?
    /// Whether that workout is neither the open one nor today's just-done one
    /// (`WorkoutStatus.actionIsCurrent`): `undo` asks first, and says which workout it changed.
    public var inOtherWorkout = false
}

/// What `undo` or `redo` did.
public enum UndoOutcome: Equatable, Sendable {
    /// The action was reverted (or re-applied).
    case done(UndoableAction)
    /// The action belongs to a workout other than the open one: nothing was done; ask for `--yes`.
    case needsConfirmation(UndoableAction)
    /// Something else changed what the action wrote since (`reason` says what): nothing was
    /// done, and the action left the stack so that the next step reaches the one before it.
    case refused(UndoableAction, reason: String)
}

/// Which way a step through the stack goes.
public enum UndoDirection: Sendable {
    case undo, redo
}

extension GymLogDatabase {
    /// Reverts this device's newest action that is not undone, by writing back what it found
    /// (a created row is tombstoned, a deleted one restored, an update gets its old values)
    /// through the write pipeline, so other devices follow via sync.
    public func undo(confirmed: Bool = false) throws -> UndoOutcome {
        try step(.undo, confirmed: confirmed)
    }

    /// Re-applies the newest undone action; only what `undo` reverted can come back.
    public func redo(confirmed: Bool = false) throws -> UndoOutcome {
        try step(.redo, confirmed: confirmed)
    }

    private func step(_ direction: UndoDirection, confirmed: Bool) throws -> UndoOutcome {
        try commit { w in try UndoStack.step(direction, confirmed: confirmed, in: &w) }
    }
}

/// A field's value as the undo check compares it: a tombstone by whether it is set, since
/// undo writes the time it deletes at, not the time the action once did.
private func comparable(_ field: String, _ value: FieldValue) -> FieldValue {
    field == tombstoneField ? .int(value == .null ? 0 : 1) : value
}

/// The rows an action created that are journalled in `undo_created` (an import's), as the
/// journal's writes they stand for: a create whose undo is its tombstone.
enum CreatedRows {
    static let pageSize = 2000

    /// Hands `body` the rows of action `action` a page at a time, in the order written, until
    /// it returns false.
    static func forEachPage(of action: Int64, in db: Database, _ body: ([JournalWrite]) throws -> Bool) throws {
        var after: Int64 = 0
        while true {
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT rowid, entity, id FROM undo_created WHERE action = ? AND rowid > ? ORDER BY rowid LIMIT ?
                """), arguments: [action, after, pageSize])
            guard let last = rows.last else { return }
            after = last[0]
            let page = rows.compactMap { row in
                EntityKind(rawValue: row[1]).map { JournalWrite(entity: $0, id: row[2], op: .create, before: nil, after: [(tombstoneField, .null)]) }
            }
            guard try body(page) else { return }
        }
    }
}

/// The undo service: steps through this device's action journal inside the caller's write
/// transaction, checking that nothing changed the journalled rows since and writing the
/// before- or after-values back through the write pipeline.
enum UndoStack {
    /// Takes the newest action not undone back (`undo`), or the oldest undone one forward
    /// again (`redo`).
    static func step(_ direction: UndoDirection, confirmed: Bool, in w: inout ChangeWriter) throws -> UndoOutcome {
        // The undone actions are always the newest ones (a new action clears them), so
        // `undo` takes the newest action not undone and `redo` the oldest undone one.
        guard let row = try Row.fetchOne(w.db, sql: direction == .undo
            ? "SELECT id, label, summary, workout_id, at, writes FROM undo_actions WHERE undone = 0 ORDER BY id DESC LIMIT 1"
            : "SELECT id, label, summary, workout_id, at, writes FROM undo_actions WHERE undone = 1 ORDER BY id LIMIT 1") else {
            throw UserError(direction == .undo
                ? "Nothing to undo: this device has no action left to revert. Log a set first, e.g. `bench 100x5`."
                : "Nothing to redo: `redo` brings back only what `undo` reverted, and a new action since clears it.")
        }
        let actionID: Int64 = row["id"]
        let workoutID = (row["workout_id"] as String?).flatMap(parseUUID)
        let workout = try workoutID.flatMap { try Workouts(w).workout(id: $0) }
        let open = try Workouts(w).openWorkout().map { (id: $0.workout.id, lastActivity: $0.lastActivity) }
        let status = WorkoutStatus(now: w.now, idleGapMinutes: w.settings.idleGapMinutes)
        let inOtherWorkout = try workout.map {
            !status.actionIsCurrent($0, lastActivity: try Workouts(w).lastSetTime(workoutID: $0.id), openWorkout: open, actionAt: row["at"])
        } ?? false
        let action = UndoableAction(label: row["label"], summary: row["summary"], workout: workout, inOtherWorkout: inOtherWorkout)
        if !confirmed, inOtherWorkout { return .needsConfirmation(action) }
        guard let writes = JournalFields.decodeWrites(row["writes"]) else {
            try w.db.execute(sql: "DELETE FROM undo_actions WHERE id = ?", arguments: [actionID])
            return .refused(action, reason: "its record on this device is unreadable")
        }
        // The rows an import created (`undo_created`) are read a page at a time, so undoing a
        // whole history holds one page of them: checked first, then replayed.
        var reason = try conflict(writes, direction, in: w)
        if reason == nil {
            try CreatedRows.forEachPage(of: actionID, in: w.db) { page in
                reason = try conflict(page, direction, in: w)
                return reason == nil
            }
        }
        if let reason {
            try w.db.execute(sql: "DELETE FROM undo_actions WHERE id = ?", arguments: [actionID])
            return .refused(action, reason: reason)
        }
        var exercises = Set<UUID>()
        // They were created first: `undo` takes them back last, `redo` brings them back first.
        if direction == .redo { try CreatedRows.forEachPage(of: actionID, in: w.db) { try replay($0, direction, exercises: &exercises, in: &w); return true } }
        try replay(direction == .undo ? writes.reversed() : writes, direction, exercises: &exercises, in: &w)
        if direction == .undo { try CreatedRows.forEachPage(of: actionID, in: w.db) { try replay($0, direction, exercises: &exercises, in: &w); return true } }
        for id in exercises { try RecordBook(w).rebuildRecords(exerciseID: id) }
        try w.db.execute(sql: "UPDATE undo_actions SET undone = ?, at = ? WHERE id = ?",
                         arguments: [direction == .undo, w.now, actionID])
        w.undoneActionsMayExist = true
        return .done(UndoableAction(label: action.label, summary: action.summary, workout: try workoutID.flatMap { try Workouts(w).workout(id: $0) },
                                    inOtherWorkout: inOtherWorkout))
    }

    /// Writes `writes` back (`undo`) or forward again (`redo`), in the order given, noting the
    /// exercises whose records change.
    private static func replay(_ writes: [JournalWrite], _ direction: UndoDirection, exercises: inout Set<UUID>, in w: inout ChangeWriter) throws {
        for write in writes {
            guard let change = try replay(write, direction, in: w) else { continue }
            // A set moved between exercises (`exercises merge`) changes the records of both.
            func noteExercise() throws {
                guard write.entity == .sets,
                      let e = try String.fetchOne(w.db, sql: "SELECT exercise_id FROM sets WHERE id = ?", arguments: [write.id]) else { return }
                exercises.formUnion(parseUUID(e).map { [$0] } ?? [])
            }
            try noteExercise()
            try w.write(write.entity, id: parseUUID(write.id) ?? UUID(), op: change.op, fields: change.fields)
            try noteExercise()
        }
    }

    /// The state the rows must be in for the step: after the action for `undo` (the last value
    /// each field was given), after its undo for `redo` (the first value each field had; a
    /// created row tombstoned with the values it was created with).
    private static func expected(_ writes: [JournalWrite], _ direction: UndoDirection) -> [(entity: EntityKind, id: String, fields: [String: FieldValue])] {
        var order: [String] = []
        var rows: [String: (EntityKind, String, [String: FieldValue])] = [:]
        for write in direction == .undo ? writes.reversed() : writes {
            let key = write.entity.rawValue + " " + write.id
            if rows[key] == nil { order.append(key); rows[key] = (write.entity, write.id, [:]) }
            let image: [(String, FieldValue)]
            switch direction {
            case .undo: image = write.after
            case .redo: image = write.before ?? write.after.map { ($0.0, $0.0 == tombstoneField ? .int(1) : $0.1) }
            }
            for (name, value) in image where rows[key]!.2[name] == nil { rows[key]!.2[name] = comparable(name, value) }
        }
        return order.map { rows[$0]! }
    }

    /// Why the step cannot be taken, or nil: a row the action wrote was changed since by
    /// something else (another device's write pulled by sync, or a command that is no action
    /// here, such as an import), so replaying the journal would overwrite it.
    private static func conflict(_ writes: [JournalWrite], _ direction: UndoDirection, in w: ChangeWriter) throws -> String? {
        for (entity, id, fields) in expected(writes, direction) {
            let names = fields.keys.sorted()
            let clocks = try w.clocks(entity, id: id)
            // A row the action only updated (an edit, a note) was live then and must still be:
            // its tombstone is compared by value (a delete elsewhere), not by whose clock it has.
            // A row already deleted when the action wrote it (a merge moves deleted sets too)
            // must still be deleted: its tombstone is older than the fields the action wrote.
            var expected = fields
            if expected[tombstoneField] == nil {
                let deletedBefore = clocks[tombstoneField].map { tombstone in names.contains { clocks[$0].map { tombstone < $0 } ?? false } } ?? false
                let deleted = deletedBefore ? try w.currentValues(entity, id: id, fields: [tombstoneField])?.first.map { $0.1 != .null } ?? false : false
                expected[tombstoneField] = .int(deleted ? 1 : 0)
            }
            let current = try w.currentValues(entity, id: id, fields: expected.keys.sorted())
            let isForeign = { (field: String) in clocks[field].map { $0.node != w.deviceID } ?? false }
            let changed = current.map { row in row.filter { comparable($0.0, $0.1) != expected[$0.0] }.map(\.0) } ?? [tombstoneField]
            let foreign = names.contains(where: isForeign) || changed.contains(where: isForeign)
            let differs = !changed.isEmpty
            guard foreign || differs else { continue }
            let expectedLive = expected[tombstoneField].map { $0 == .int(0) }
            let live = current?.first { $0.0 == tombstoneField }.map { $0.1 == .null }
            let change: String
            switch (expectedLive, live) {
            case (true?, false?): change = "was deleted"
            case (false?, true?): change = "was brought back"
            default: change = "was changed"
            }
            return "\(try describe(entity, id: id, in: w)) \(change) \(foreign ? "on another device" : "here by a command that `undo` does not track") since"
        }
        return nil
    }

    /// The write that takes one journalled change back (`undo`) or forward again (`redo`),
    /// with only the fields whose value must change; nil when none must.
    private static func replay(_ write: JournalWrite, _ direction: UndoDirection, in w: ChangeWriter) throws -> (op: ChangeOp, fields: [(String, FieldValue)])? {
        let target: [(String, FieldValue)]
        switch (direction, write.before) {
        case (.undo, nil): target = [(tombstoneField, .int(w.now))]
        case (.undo, let before?): target = before
        case (.redo, nil): target = [(tombstoneField, .null)]
        case (.redo, _): target = write.after
        }
        let current = try w.currentValues(write.entity, id: write.id, fields: target.map(\.0)) ?? []
        let fields = target.filter { name, value in
            !current.contains { $0.0 == name && comparable(name, $0.1) == comparable(name, value) }
        }
        guard !fields.isEmpty else { return nil }
        let tombstone = fields.first { $0.0 == tombstoneField }?.1
        let op: ChangeOp = switch tombstone {
        case .some(.null): .restore
        case .some: .delete
        case nil: .update
        }
        return (op, fields)
    }

    /// `the set Bench Press 100kg x 5`, `the workout 'Push day' of 2026-11-24`, `the exercise 'Row'`.
    private static func describe(_ entity: EntityKind, id: String, in w: ChangeWriter) throws -> String {
        switch entity {
        case .sets:
            guard let row = try Row.fetchOne(w.db, sql: "SELECT \(Rows.setColumns), e.name AS e_name FROM sets s JOIN exercises e ON e.id = s.exercise_id WHERE s.id = ?",
                                             arguments: [id]) else { return "a set" }
            return "the set \(row["e_name"] as String) \(Rows.set(row).summary)"
        case .workouts:
            guard let workout = try parseUUID(id).flatMap({ try Workouts(w).workout(id: $0) }) else { return "a workout" }
            let day = String(localDateTime(millis: workout.startedAt, utcOffsetSeconds: workout.utcOffsetSeconds).prefix(10))
            return "the workout \(workout.name.map { "'\($0)' " } ?? "")of \(day)"
        case .exercises:
            let name = try String.fetchOne(w.db, sql: "SELECT name FROM exercises WHERE id = ?", arguments: [id])
            return name.map { "the exercise '\($0)'" } ?? "an exercise"
        case .aliases:
            let alias = try String.fetchOne(w.db, sql: "SELECT alias FROM aliases WHERE id = ?", arguments: [id])
            return alias.map { "the alias '\($0)'" } ?? "an alias"
        case .bodyweights:
            let weight = try Row.fetchOne(w.db, sql: "SELECT weight, weight_unit FROM bodyweights WHERE id = ?", arguments: [id])
            return weight.map { "the bodyweight \($0["weight"] as String? ?? "")\($0["weight_unit"] as String? ?? "")" } ?? "a bodyweight"
        case .routines:
            let name = try String.fetchOne(w.db, sql: "SELECT name FROM routines WHERE id = ?", arguments: [id])
            return name.map { "the routine '\($0)'" } ?? "a routine"
        }
    }
}
