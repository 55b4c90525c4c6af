import Foundation
import GRDB
import GymLogCore

/// What `exercises merge` did.
public struct ExerciseMerge: Equatable, Sendable {
    /// The exercise merged away (now gone; its name is an alias of `into`).
    public var from: Exercise
    /// The exercise that now holds the sets.
    public var into: Exercise
    /// How many live sets moved.
    public var movedSets: Int
    /// The names that now also mean `into`: `from`'s name and its aliases.
    public var newAliases: [String]
}

extension GymLogDatabase {
    // MARK: Exercises

    /// Creates an exercise explicitly (even when its name is close to an existing one). With
    /// no kind, its first set sets it.
    public func addExercise(name: String, kind: ExerciseKind? = nil) throws -> Exercise {
        try commit(action: "exercises add \(name)") { w in
            w.describeAction("added the exercise '\(displayName(forNew: name))'", workout: nil)
            let clean = displayName(forNew: name)
            guard !clean.isEmpty else { throw UserError("An exercise needs a name, e.g. `gymlog exercises add \"Front Squat\"`.") }
            if let existing = try w.exercise(named: clean) {
                throw UserError("An exercise named '\(existing.name)' already exists (names match ignoring case, accents "
                    + "and punctuation); log it as `\(nameKey(existing.name)) ...`, or pick another name.")
            }
            return try w.createExercise(name: clean, kind: kind)
        }
    }

    /// Makes `alias` another name for an exercise (`bp` -> Bench Press).
    public func addAlias(_ alias: String, for exerciseName: String) throws -> Exercise {
        try commit(action: "exercises alias \(alias) \(exerciseName)") { w in
            w.describeAction("'\(alias)' became another name of '\(exerciseName)'", workout: nil)
            let key = nameKey(alias)
            guard !key.isEmpty, !key.contains(where: { $0.isNumber && key.count == 1 }) else {
                throw UserError("An alias needs at least one letter, e.g. `gymlog exercises alias bp \"Bench Press\"`.")
            }
            let exercise = try w.existingExercise(exerciseName)
            if let taken = try w.exercise(named: alias), taken.id != exercise.id {
                throw UserError("'\(alias)' already means the exercise '\(taken.name)' (names match ignoring case, accents "
                    + "and punctuation); pick another alias.")
            }
            try w.writeAlias(key, for: exercise.id)
            return exercise
        }
    }

    /// Renames an exercise everywhere (its id, and so its history and records, stay); the
    /// old name stays an alias, so `pullup 8` still logs to `Pull-up` on every device.
    public func renameExercise(_ name: String, to newName: String) throws -> Exercise {
        try commit(action: "exercises rename \(name) \(newName)") { w in
            w.describeAction("renamed '\(name)' to '\(newName)'", workout: nil)
            var exercise = try w.existingExercise(name)
            let clean = displayName(forNew: newName)
            guard !clean.isEmpty else { throw UserError("The new name is empty; type it after the old one, e.g. `gymlog exercises rename pullup Pull-up`.") }
            let others = try w.resolver().exactMatches(clean).filter { $0.id != exercise.id }
            if let other = others.first {
                throw UserError("'\(clean)' already means the exercise '\(other.name)'; to put both under one name, "
                    + "`gymlog exercises merge \"\(exercise.name)\" \"\(other.name)\"`.")
            }
            let old = exercise.name
            try w.write(.exercises, id: exercise.id, op: .update, fields: [("name", .text(clean))])
            // The new name no longer needs an alias of the same spelling.
            let newAlias = derivedID(namespace: "alias", key: nameKey(clean))
            if try w.liveAliasExists(newAlias) {
                try w.write(.aliases, id: newAlias, op: .delete, fields: [(tombstoneField, .int(w.now))])
            }
            if nameKey(old) != nameKey(clean) { try w.writeAlias(old, for: exercise.id) }
            exercise.name = clean
            return exercise
        }
    }

    /// Changes an exercise's kind while every live set of it fits the new kind.
    /// Sets (or with nil clears) the target rest between sets of an exercise; synced.
    public func setExerciseRest(_ name: String, seconds: Int?, typed: String) throws -> Exercise {
        try commit(action: typed) { w in
            let exercise = try w.existingExercise(name)
            _ = try w.write(.exercises, id: exercise.id, op: .update, fields: [("rest_seconds", seconds.map { .int(Int64($0)) } ?? .null)])
            w.describeAction("the rest of '\(exercise.name)'", workout: nil)
            return exercise
        }
    }

    /// The target rest between sets of an exercise, if it has one.
    public func exerciseRest(_ id: UUID) throws -> Int? {
        try queue.read { try Int.fetchOne($0, sql: "SELECT rest_seconds FROM exercises WHERE id = ?", arguments: [id.key]) }
    }

    public func setExerciseKind(_ name: String, to kind: ExerciseKind) throws -> Exercise {
        try commit(action: "exercises kind \(name) \(kind.rawValue)") { w in
            w.describeAction("made '\(name)' \(kind.rawValue)", workout: nil)
            var exercise = try w.existingExercise(name)
            guard try exercise.kind != kind || w.storedKind(exercise.id) != kind.rawValue else { return exercise }
            let sets = try w.liveSets(exerciseID: exercise.id)
            let misfits = sets.filter { !kind.fits($0.values) }
            if let first = misfits.first {
                throw UserError("\(exercise.name) has \(misfits.count) set\(misfits.count == 1 ? "" : "s") that "
                    + "\(misfits.count == 1 ? "does" : "do") not fit \(kind.phrase) (e.g. `\(first.summary)`), so it stays "
                    + "\(exercise.kind.rawValue); log \(kind.rawValue) sets under another name, or move these with "
                    + "`gymlog exercises merge`.")
            }
            try w.write(.exercises, id: exercise.id, op: .update, fields: [("kind", .text(kind.rawValue))])
            exercise.kind = kind
            return exercise
        }
    }

    /// Moves every set of `from` to `into`, keeps `from`'s name and aliases as aliases of
    /// `into`, removes `from` and rebuilds `into`'s records: ordinary writes, so it syncs.
    public func mergeExercises(_ fromName: String, into intoName: String) throws -> ExerciseMerge {
        try commit(action: "exercises merge \(fromName) \(intoName)") { w in
            w.describeAction("moved the sets of '\(fromName)' to '\(intoName)'", workout: nil)
            let from = try w.existingExercise(fromName, wholeName: true)
            let into = try w.existingExercise(intoName, wholeName: true)
            guard from.id != into.id else {
                throw UserError("'\(fromName)' and '\(intoName)' are the same exercise, '\(into.name)'; nothing to merge.")
            }
            guard from.kind == into.kind else {
                throw UserError("Cannot merge '\(from.name)' into '\(into.name)': '\(from.name)' is \(from.kind.phrase) and "
                    + "'\(into.name)' is \(into.kind.phrase). Change one first if its sets fit, e.g. "
                    + "`gymlog exercises kind \"\(from.name)\" \(into.kind.rawValue)`.")
            }
            let moved = try w.liveSetCount(exerciseID: from.id)
            // Deleted sets move too, so nothing left behind points at a removed exercise.
            let setIDs = try String.fetchAll(w.db, sql: "SELECT id FROM sets WHERE exercise_id = ?", arguments: [from.id.key])
            for id in setIDs.compactMap(parseUUID) {
                try w.write(.sets, id: id, op: .update, fields: [("exercise_id", .text(into.id.key))])
            }
            var names: [String] = []
            for (id, alias) in try w.liveAliases(of: from.id) {
                try w.write(.aliases, id: id, op: .update, fields: [("exercise_id", .text(into.id.key))])
                names.append(alias)
            }
            try w.write(.exercises, id: from.id, op: .delete, fields: [(tombstoneField, .int(w.now))])
            if nameKey(from.name) != nameKey(into.name) {
                try w.writeAlias(from.name, for: into.id)
                names.insert(from.name, at: 0)
            }
            try w.rebuildRecords(exerciseID: from.id)
            try w.rebuildRecords(exerciseID: into.id)
            return ExerciseMerge(from: from, into: into, movedSets: moved, newAliases: names)
        }
    }

    /// Removes an exercise that has no live sets, with its aliases.
    public func deleteExercise(_ name: String) throws -> Exercise {
        try commit(action: "exercises delete \(name)") { w in
            w.describeAction("deleted the exercise '\(name)'", workout: nil)
            let exercise = try w.existingExercise(name, wholeName: true)
            let live = try w.liveSetCount(exerciseID: exercise.id)
            guard live == 0 else {
                throw UserError("'\(exercise.name)' has \(live) set\(live == 1 ? "" : "s"), so it stays; to move \(live == 1 ? "it" : "them") to another "
                    + "exercise and keep this name as its alias: `gymlog exercises merge \"\(exercise.name)\" OTHER`.")
            }
            for (id, _) in try w.liveAliases(of: exercise.id) {
                try w.write(.aliases, id: id, op: .delete, fields: [(tombstoneField, .int(w.now))])
            }
            try w.write(.exercises, id: exercise.id, op: .delete, fields: [(tombstoneField, .int(w.now))])
            try w.rebuildRecords(exerciseID: exercise.id)
            return exercise
        }
    }
}

// MARK: - Exercise steps used inside a write transaction

extension ChangeWriter {
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

    /// The exercise a name stands for as a whole (exact, alias, or folded: `pull-up` is
    /// `Pullup`), nil when none. The indexed exact lookup goes first: it is what almost every
    /// logged line types, and it finds what the resolver's first step would.
    func exercise(named name: String) throws -> Exercise? {
        if let e = try indexedExercise(named: name) { return e }
        return try resolver().exactMatches(name).first
    }

    /// Exact, case-insensitive name or alias match through the indexes.
    func indexedExercise(named name: String) throws -> Exercise? {
        if let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT id, name, kind FROM exercises WHERE name = ? COLLATE NOCASE AND deleted_at IS NULL ORDER BY id LIMIT 1
            """), arguments: [name]) { return Rows.exercise(row) }
        if let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT e.id, e.name, e.kind FROM aliases a JOIN exercises e ON e.id = a.exercise_id
            WHERE a.alias = ? COLLATE NOCASE AND a.deleted_at IS NULL AND e.deleted_at IS NULL ORDER BY a.id LIMIT 1
            """), arguments: [name]) { return Rows.exercise(row) }
        return nil
    }

    /// The existing exercise a typed name means, or an error saying what to type. With
    /// `wholeName` (merge, delete) a prefix is not enough: the whole name or an alias is.
    func existingExercise(_ name: String, wholeName: Bool = false) throws -> Exercise {
        if let e = try indexedExercise(named: name) { return e }
        let resolver = try resolver()
        switch resolver.resolve(name) {
        case .found(let e):
            if wholeName && resolver.exactMatches(name).isEmpty {
                throw UserError("'\(name)' is only the start of '\(e.name)'; type the whole name (or an alias) for this.")
            }
            return e
        case .ambiguous(let list):
            throw UserError("'\(name)' matches several exercises: \(list.prefix(5).map { "'\($0.name)'" }.joined(separator: ", ")). Type more of the name.")
        case .nearMiss(let e): throw UserError("No exercise is called '\(name)'. Did you mean '\(e.name)'?")
        case .create: throw UserError("No exercise is called '\(name)'; list them with `gymlog exercises`.")
        }
    }

    /// Refuses sets that do not fit the exercise's kind, naming the kind and what to type
    /// instead; an edit of a set that never fitted (logged before kinds were enforced) may
    /// keep its shape.
    mutating func requireFit(_ values: [SetValues], exercise: Exercise, was old: SetValues? = nil) throws {
        if let old, !exercise.kind.fits(old) { return }
        guard let misfit = values.first(where: { !exercise.kind.fits($0) }) else { return }
        // An exercise added without a kind takes the kind of its first sets (checked only
        // here, off the common path where the sets fit).
        if try storedKind(exercise.id) == "", let kind = values.first?.exerciseKind, values.allSatisfy(kind.fits),
           try liveSets(exerciseID: exercise.id).allSatisfy({ kind.fits($0.values) }) {
            try write(.exercises, id: exercise.id, op: .update, fields: [("kind", .text(kind.rawValue))])
            return
        }
        let refusal = exercise.kind.refusal(of: misfit, exercise: exercise.name, defaultUnit: settings.defaultUnit, editing: old != nil)
        throw UserError((refusal ?? "\(exercise.name) is \(exercise.kind.phrase)") + ".")
    }

    /// The kind as stored: empty for an exercise added without one and not yet given a set
    /// of another shape than weight and reps.
    func storedKind(_ id: UUID) throws -> String? {
        try String.fetchOne(db, sql: "SELECT kind FROM exercises WHERE id = ?", arguments: [id.key])
    }

    /// `requireFit` for a set of the exercise with this id.
    mutating func requireFit(_ values: [SetValues], exerciseID: UUID, was old: SetValues? = nil) throws {
        guard let exercise = try exercise(id: exerciseID) else { return }
        try requireFit(values, exercise: exercise, was: old)
    }

    func liveSetCount(exerciseID: UUID) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sets WHERE exercise_id = ? AND deleted_at IS NULL", arguments: [exerciseID.key]) ?? 0
    }

    func liveSets(exerciseID: UUID) throws -> [LoggedSet] {
        try Row.fetchAll(db, sql: """
            SELECT \(Rows.setColumns) FROM sets s WHERE s.exercise_id = ? AND s.deleted_at IS NULL ORDER BY s.performed_at
            """, arguments: [exerciseID.key]).map { Rows.set($0) }
    }

    /// The live aliases of one exercise: id and alias.
    func liveAliases(of exerciseID: UUID) throws -> [(UUID, String)] {
        try Row.fetchAll(db, sql: "SELECT id, alias FROM aliases WHERE exercise_id = ? AND deleted_at IS NULL ORDER BY alias",
                         arguments: [exerciseID.key]).compactMap { row in parseUUID(row["id"]).map { ($0, row["alias"]) } }
    }

    func liveAliasExists(_ id: UUID) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT 1 FROM aliases WHERE id = ? AND deleted_at IS NULL", arguments: [id.key]) != nil
    }

    /// Writes (or re-points, or brings back) the alias of this name: its id derives from the
    /// name, so two devices adding the same alias write one row.
    mutating func writeAlias(_ alias: String, for exerciseID: UUID) throws {
        try write(.aliases, id: derivedID(namespace: "alias", key: nameKey(alias)), op: .create, fields: [
            ("alias", .text(alias)), ("exercise_id", .text(exerciseID.key)), (tombstoneField, .null),
        ])
    }

    mutating func resolveOrCreateExercise(_ mention: ExerciseMention, firstSet: SetValues?) throws -> (Exercise, Bool) {
        if let e = try indexedExercise(named: mention.name) { return (e, false) }
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

    /// A new exercise of `kind`; nil stores no kind yet (shown as weighted until a set of
    /// another shape sets it).
    mutating func createExercise(name: String, kind: ExerciseKind?) throws -> Exercise {
        var id = derivedID(namespace: "exercise", key: nameKey(name))
        // The name-derived id is taken by an exercise since renamed: this is a new one.
        if let existing = try Row.fetchOne(db, sql: "SELECT name FROM exercises WHERE id = ?", arguments: [id.key]),
           nameKey(existing[0]) != nameKey(name) {
            id = environment.newID()
        }
        try write(.exercises, id: id, op: .create, fields: [("name", .text(name)), ("kind", .text(kind?.rawValue ?? "")), (tombstoneField, .null)])
        return Exercise(id: id, name: name, kind: kind ?? .weighted)
    }
}
