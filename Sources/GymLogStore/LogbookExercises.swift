import Foundation
import GRDB
import GymLogCore

extension GymLogDatabase {
    // MARK: Exercises

    /// Creates an exercise explicitly (even when its name is close to an existing one).
    public func addExercise(name: String, kind: ExerciseKind = .weighted) throws -> Exercise {
        try commit { w in
            let clean = displayName(forNew: name)
            guard !clean.isEmpty else { throw UserError("An exercise needs a name, e.g. `gymlog exercises add \"Front Squat\"`.") }
            if let existing = try w.exercise(named: clean) {
                throw UserError("An exercise named '\(existing.name)' already exists.")
            }
            return try w.createExercise(name: clean, kind: kind)
        }
    }

    /// Makes `alias` another name for an exercise (`bp` -> Bench Press).
    public func addAlias(_ alias: String, for exerciseName: String) throws -> Exercise {
        try commit { w in
            let key = nameKey(alias)
            guard !key.isEmpty, !key.contains(where: { $0.isNumber && key.count == 1 }) else {
                throw UserError("An alias needs at least one letter, e.g. `gymlog exercises alias bp \"Bench Press\"`.")
            }
            guard case .found(let exercise) = try w.resolver().resolve(exerciseName) else {
                throw UserError("No exercise matches '\(exerciseName)'; list them with `gymlog exercises`.")
            }
            if let taken = try w.exercise(named: alias), taken.id != exercise.id {
                throw UserError("'\(alias)' is already the name of the exercise '\(taken.name)'; pick another alias.")
            }
            try w.writeAlias(key, for: exercise.id)
            return exercise
        }
    }

    /// Renames an exercise everywhere (its id, and so its history and records, stay).
    public func renameExercise(_ name: String, to newName: String) throws -> Exercise {
        try commit { w in
            guard case .found(var exercise) = try w.resolver().resolve(name) else {
                throw UserError("No exercise matches '\(name)'; list them with `gymlog exercises`.")
            }
            let clean = newName.split(separator: " ").joined(separator: " ")
            guard !clean.isEmpty else { throw UserError("The new name is empty.") }
            if let other = try w.exercise(named: clean), other.id != exercise.id {
                throw UserError("An exercise named '\(other.name)' already exists.")
            }
            try w.write(.exercises, id: exercise.id, op: .update, fields: [("name", .text(clean))])
            exercise.name = clean
            return exercise
        }
    }
}

// MARK: - Exercise steps used inside a write transaction

extension ChangeWriter {
    /// Writes `key` (a `nameKey`) as another name of `exerciseID`; the id is derived from the
    /// key, so two devices adding the same alias converge on one row.
    mutating func writeAlias(_ key: String, for exerciseID: UUID) throws {
        try write(.aliases, id: derivedID(namespace: "alias", key: key), op: .create, fields: [
            ("alias", .text(key)), ("exercise_id", .text(exerciseID.key)), (tombstoneField, .null),
        ])
    }

    func resolver() throws -> ExerciseResolver {
        let exercises = try Row.fetchAll(db, sql: "SELECT id, name, kind FROM exercises WHERE deleted_at IS NULL").map { Rows.exercise($0) }
        let aliases = try Row.fetchAll(db, sql: "SELECT alias, exercise_id FROM aliases WHERE deleted_at IS NULL").map {
            Alias(alias: $0["alias"], exerciseID: UUID(uuidString: $0["exercise_id"]) ?? UUID())
        }
        return ExerciseResolver(exercises: exercises, aliases: aliases)
    }

    func exercise(id: UUID) throws -> Exercise? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT id, name, kind FROM exercises WHERE id = ?"), arguments: [id.key]).map { Rows.exercise($0) }
    }

    /// Exact, case-insensitive name or alias match through the indexes (the common case).
    func exercise(named name: String) throws -> Exercise? {
        if let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT id, name, kind FROM exercises WHERE name = ? COLLATE NOCASE AND deleted_at IS NULL LIMIT 1
            """), arguments: [name]) { return Rows.exercise(row) }
        if let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT e.id, e.name, e.kind FROM aliases a JOIN exercises e ON e.id = a.exercise_id
            WHERE a.alias = ? COLLATE NOCASE AND a.deleted_at IS NULL AND e.deleted_at IS NULL LIMIT 1
            """), arguments: [name]) { return Rows.exercise(row) }
        return nil
    }

    mutating func resolveOrCreateExercise(_ mention: ExerciseMention, firstSet: SetValues?) throws -> (Exercise, Bool) {
        if let e = try exercise(named: mention.name) { return (e, false) }
        switch try resolver().resolve(mention.name) {
        case .found(let e):
            return (e, false)
        case .ambiguous(let candidates):
            let names = candidates.prefix(5).map { "'\($0.name)'" }.joined(separator: ", ")
            throw UserError("'\(mention.name)' matches several exercises: \(names). Type more of the name.", at: mention.span)
        case .nearMiss(let e):
            throw UserError("Unknown exercise '\(mention.name)'. Did you mean '\(e.name)'? To create it anyway: `gymlog exercises add \"\(mention.name)\"`.", at: mention.span)
        case .create(let name):
            return (try createExercise(name: name, kind: firstSet?.exerciseKind ?? .weighted), true)
        }
    }

    mutating func createExercise(name: String, kind: ExerciseKind) throws -> Exercise {
        var id = derivedID(namespace: "exercise", key: nameKey(name))
        // The name-derived id is taken by an exercise since renamed: this is a new one.
        if let existing = try Row.fetchOne(db, sql: "SELECT name FROM exercises WHERE id = ?", arguments: [id.key]),
           nameKey(existing[0]) != nameKey(name) {
            id = environment.newID()
        }
        try write(.exercises, id: id, op: .create, fields: [("name", .text(name)), ("kind", .text(kind.rawValue)), (tombstoneField, .null)])
        return Exercise(id: id, name: name, kind: kind)
    }
}
