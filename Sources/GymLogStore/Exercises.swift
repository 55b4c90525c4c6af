import Foundation
import GRDB
import GymLogCore

/// The exercises service: finds, creates, names and checks exercises, and adds, renames,
/// re-kinds, merges and deletes them, inside the caller's write transaction (each public
/// step is documented on its `GymLogDatabase` method).
enum Exercises {
    /// An exercise's name for `undo`'s message; `?` when it is gone.
    static func name(of id: UUID, in w: ChangeWriter) throws -> String {
        try exercise(id: id, in: w)?.name ?? "?"
    }

    /// The exercise a kind change is for, and how its sets read in `kind`; a refusal naming
    /// every live set with no reading.
    static func kindChange(_ name: String, to kind: ExerciseKind, in w: ChangeWriter) throws -> (change: KindChange, reading: KindReading) {
        let exercise = try existing(name, in: w)
        let reading = try KindConversion.reading(exercise, as: kind, in: w)
        if !reading.misfits.isEmpty {
            throw KindConversion.noReading(reading.misfits, of: exercise, in: kind, exampleName: exercise.name,
                                 before: "'\(exercise.name)' stays \(exercise.kind.rawValue): ",
                                 then: "Change or delete those sets first, or give \(kind.rawValue) sets an exercise of their own, "
                                    + "e.g. `gymlog exercises add NAME --kind \(kind.rawValue)`.")
        }
        return (KindChange(exercise: exercise, kind: kind, conversions: reading.conversions), reading)
    }

    /// What a merge moves and converts (`newAliases` left empty), how `from`'s sets read in
    /// the kind they get, and the kind to give `into` when it has none yet; a refusal naming
    /// every live set of `from` with no reading in `into`'s kind.
    static func mergePlan(_ fromName: String, into intoName: String, in w: ChangeWriter) throws -> (merge: ExerciseMerge, reading: KindReading, setKind: ExerciseKind?) {
        let from = try existing(fromName, wholeName: true, in: w)
        let into = try existing(intoName, wholeName: true, in: w)
        guard from.id != into.id else {
            throw UserError("'\(fromName)' and '\(intoName)' are the same exercise, '\(into.name)'; nothing to merge.")
        }
        // An exercise added without a kind and with no sets yet takes the kind of the sets it gets.
        var kind = into.kind, setKind: ExerciseKind?
        if try storedKind(into.id, in: w) == "", try liveSetCount(exerciseID: into.id, in: w) == 0,
           let fromKind = try storedKind(from.id, in: w).flatMap(ExerciseKind.init(rawValue:)) {
            kind = fromKind
            setKind = fromKind
        }
        let reading = try KindConversion.reading(from, as: kind, in: w)
        if !reading.misfits.isEmpty {
            let kinds = from.kind == kind ? "" : "'\(from.name)' is \(from.kind.phrase) and '\(into.name)' is \(kind.phrase), and "
            throw KindConversion.noReading(reading.misfits, of: from, in: kind, exampleName: into.name,
                                 before: "Cannot merge '\(from.name)' into '\(into.name)': \(kinds)",
                                 then: "Both exercises stay as they are.")
        }
        let merge = ExerciseMerge(from: from, into: into, movedSets: try liveSetCount(exerciseID: from.id, in: w), newAliases: [],
                                  kind: kind, conversions: reading.conversions)
        return (merge, reading, setKind)
    }

    static func resolver(in w: ChangeWriter) throws -> ExerciseResolver {
        var exercises: [Exercise] = []
        var links: [UUID: ExerciseLinkFields] = [:]
        for row in try Row.fetchAll(w.db, sql: """
            SELECT id, name, kind, catalog_id, primary_muscles, secondary_muscles, equipment FROM exercises WHERE deleted_at IS NULL
            """) {
            let exercise = Rows.exercise(row)
            exercises.append(exercise)
            let fields = linkFields(row)
            if !fields.isFromName { links[exercise.id] = fields }
        }
        let aliases = try Row.fetchAll(w.db, sql: "SELECT alias, exercise_id FROM aliases WHERE deleted_at IS NULL").map {
            Alias(alias: $0["alias"], exerciseID: UUID(uuidString: $0["exercise_id"]) ?? UUID())
        }
        return ExerciseResolver(exercises: exercises, aliases: aliases, links: links)
    }

    static func exercise(id: UUID, in w: ChangeWriter) throws -> Exercise? {
        try Row.fetchOne(w.db.cachedStatement(sql: "SELECT id, name, kind FROM exercises WHERE id = ?"), arguments: [id.key]).map { Rows.exercise($0) }
    }

    /// The exercise a name stands for as a whole (exact, alias, or folded: `pull-up` is
    /// `Pullup`), nil when none. The indexed exact lookup goes first: it is what almost every
    /// logged line types, and it finds what the resolver's first step would.
    static func exercise(named name: String, in w: ChangeWriter) throws -> Exercise? {
        if let e = try indexedExercise(named: name, in: w) { return e }
        return try resolver(in: w).exactMatches(name).first
    }

    /// Exact, case-insensitive name or alias match through the indexes.
    private static func indexedExercise(named name: String, in w: ChangeWriter) throws -> Exercise? {
        if let row = try Row.fetchOne(w.db.cachedStatement(sql: """
            SELECT id, name, kind FROM exercises WHERE name = ? COLLATE NOCASE AND deleted_at IS NULL ORDER BY id LIMIT 1
            """), arguments: [name]) { return Rows.exercise(row) }
        if let row = try Row.fetchOne(w.db.cachedStatement(sql: """
            SELECT e.id, e.name, e.kind FROM aliases a JOIN exercises e ON e.id = a.exercise_id
            WHERE a.alias = ? COLLATE NOCASE AND a.deleted_at IS NULL AND e.deleted_at IS NULL ORDER BY a.id LIMIT 1
            """), arguments: [name]) { return Rows.exercise(row) }
        return nil
    }

    /// The existing exercise a typed name means, or an error saying what to type. With
    /// `wholeName` (merge, delete) a prefix is not enough: the whole name or an alias is.
    static func existing(_ name: String, wholeName: Bool = false, in w: ChangeWriter) throws -> Exercise {
        if let e = try indexedExercise(named: name, in: w) { return e }
        let resolver = try resolver(in: w)
        switch resolver.resolve(name) {
        case .found(let e):
            if wholeName && resolver.exactMatches(name).isEmpty {
                throw UserError("'\(name)' is only the start of '\(e.name)'; type the whole name (or an alias) for this.")
            }
            return e
        case .ambiguous(let list):
            throw UserError(ExerciseResolution.severalMatches(typed: name, list, setCounts: try liveSetCounts(list, in: w)))
        case .nearMiss(let e): throw UserError("No exercise is called '\(name)'. Did you mean '\(e.name)'?")
        case .create:
            // A name no exercise has may still be words of some (`dumbbell bench`): one such
            // exercise is the one meant, several are listed to choose from.
            let candidates = resolver.candidates(name)
            if candidates.count == 1, !wholeName { return candidates[0] }
            if !candidates.isEmpty {
                throw UserError(ExerciseResolution.severalMatches(typed: name, candidates, setCounts: try liveSetCounts(candidates, in: w)))
            }
            throw UserError("No exercise is called '\(name)'; list them with `gymlog exercises`.")
        }
    }

    /// Live sets of each of these exercises, for a list the lifter chooses from.
    static func liveSetCounts(_ exercises: [Exercise], in w: ChangeWriter) throws -> [UUID: Int] {
        var counts: [UUID: Int] = [:]
        for e in exercises { counts[e.id] = try liveSetCount(exerciseID: e.id, in: w) }
        return counts
    }

    /// Refuses sets that do not fit the exercise's kind, naming the kind and what to type
    /// instead; an edit of a set that never fitted (logged before kinds were enforced) may
    /// keep its shape.
    static func requireFit(_ values: [SetValues], exercise: Exercise, was old: SetValues? = nil, in w: inout ChangeWriter) throws {
        if let old, !exercise.kind.fits(old) { return }
        guard let misfit = values.first(where: { !exercise.kind.fits($0) }) else { return }
        // An exercise added without a kind takes the kind of its first sets (checked only
        // here, off the common path where the sets fit).
        if try storedKind(exercise.id, in: w) == "", let kind = values.first?.exerciseKind, values.allSatisfy(kind.fits),
           try liveSets(exerciseID: exercise.id, in: w).allSatisfy({ kind.fits($0.values) }) {
            try w.write(.exercises, id: exercise.id, op: .update, fields: [("kind", .text(kind.rawValue))])
            return
        }
        let refusal = exercise.kind.refusal(of: misfit, exercise: exercise.name, defaultUnit: w.settings.defaultUnit, editing: old != nil)
        throw UserError((refusal ?? "\(exercise.name) is \(exercise.kind.phrase)") + ".")
    }

    /// The kind as stored: empty for an exercise added without one and not yet given a set
    /// of another shape than weight and reps.
    static func storedKind(_ id: UUID, in w: ChangeWriter) throws -> String? {
        try String.fetchOne(w.db, sql: "SELECT kind FROM exercises WHERE id = ?", arguments: [id.key])
    }

    /// `requireFit` for a set of the exercise with this id.
    static func requireFit(_ values: [SetValues], exerciseID: UUID, was old: SetValues? = nil, in w: inout ChangeWriter) throws {
        guard let exercise = try exercise(id: exerciseID, in: w) else { return }
        try requireFit(values, exercise: exercise, was: old, in: &w)
    }

    static func liveSetCount(exerciseID: UUID, in w: ChangeWriter) throws -> Int {
        try Int.fetchOne(w.db, sql: "SELECT COUNT(*) FROM sets WHERE exercise_id = ? AND deleted_at IS NULL", arguments: [exerciseID.key]) ?? 0
    }

    private static func liveSets(exerciseID: UUID, in w: ChangeWriter) throws -> [LoggedSet] {
        try Row.fetchAll(w.db, sql: """
            SELECT \(Rows.setColumns) FROM sets s WHERE s.exercise_id = ? AND s.deleted_at IS NULL ORDER BY s.performed_at
            """, arguments: [exerciseID.key]).map { Rows.set($0) }
    }

    /// The live aliases of one exercise: id and alias.
    static func liveAliases(of exerciseID: UUID, in w: ChangeWriter) throws -> [(UUID, String)] {
        try Row.fetchAll(w.db, sql: "SELECT id, alias FROM aliases WHERE exercise_id = ? AND deleted_at IS NULL ORDER BY alias",
                         arguments: [exerciseID.key]).compactMap { row in parseUUID(row["id"]).map { ($0, row["alias"]) } }
    }

    static func liveAliasExists(_ id: UUID, in w: ChangeWriter) throws -> Bool {
        try Int.fetchOne(w.db, sql: "SELECT 1 FROM aliases WHERE id = ? AND deleted_at IS NULL", arguments: [id.key]) != nil
    }

    /// Writes (or re-points, or brings back) the alias of this name: its id derives from the
    /// name, so two devices adding the same alias write one row.
    static func writeAlias(_ alias: String, for exerciseID: UUID, in w: inout ChangeWriter) throws {
        try w.write(.aliases, id: w.derivedID(namespace: "alias", key: nameKey(alias)), op: .create, fields: [
            ("alias", .text(alias)), ("exercise_id", .text(exerciseID.key)), (tombstoneField, .null),
        ])
    }

    static func resolveOrCreate(_ mention: ExerciseMention, firstSet: SetValues?, in w: inout ChangeWriter) throws -> (Exercise, Bool) {
        if let e = try indexedExercise(named: mention.name, in: w) { return (e, false) }
        let resolution = try resolver(in: w).resolve(mention.name)
        let counts = if case .ambiguous(let list) = resolution { try liveSetCounts(list, in: w) } else { [UUID: Int]() }
        if let refusal = resolution.refusal(typed: mention.name, setCounts: counts) { throw UserError(refusal, at: mention.span) }
        switch resolution {
        case .found(let e): return (e, false)
        case .create(let name): return (try create(name: name, kind: firstSet?.exerciseKind ?? .weighted, in: &w), true)
        case .ambiguous, .nearMiss: preconditionFailure("refused above")
        }
    }

    /// A new exercise of `kind`; nil stores no kind yet (shown as weighted until a set of
    /// another shape sets it).
    static func create(name: String, kind: ExerciseKind?, in w: inout ChangeWriter) throws -> Exercise {
        var id = w.derivedID(namespace: "exercise", key: nameKey(name))
        // The name-derived id is taken by an exercise since renamed: this is a new one.
        if let existing = try Row.fetchOne(w.db, sql: "SELECT name FROM exercises WHERE id = ?", arguments: [id.key]),
           nameKey(existing[0]) != nameKey(name) {
            id = w.environment.newID()
        }
        try w.write(.exercises, id: id, op: .create, fields: [("name", .text(name)), ("kind", .text(kind?.rawValue ?? "")), (tombstoneField, .null)])
        return Exercise(id: id, name: name, kind: kind ?? .weighted)
    }

    /// See `GymLogDatabase.addExercise`.
    static func add(name: String, kind: ExerciseKind?, in w: inout ChangeWriter) throws -> Exercise {
        w.describeAction("added the exercise '\(displayName(forNew: name))'", workout: nil)
        let clean = displayName(forNew: name)
        guard !clean.isEmpty else { throw UserError("An exercise needs a name, e.g. `gymlog exercises add \"Front Squat\"`.") }
        if let existing = try Exercises.exercise(named: clean, in: w) {
            throw UserError("An exercise named '\(existing.name)' already exists (names match ignoring case, accents "
                + "and punctuation); log it as `\(nameKey(existing.name)) ...`, or pick another name.")
        }
        return try Exercises.create(name: clean, kind: kind, in: &w)
    }

    /// See `GymLogDatabase.addAlias`.
    static func addAlias(_ alias: String, for exerciseName: String, in w: inout ChangeWriter) throws -> Exercise {
        w.describeAction("'\(alias)' became another name of '\(exerciseName)'", workout: nil)
        let key = nameKey(alias)
        guard !key.isEmpty, !key.contains(where: { $0.isNumber && key.count == 1 }) else {
            throw UserError("An alias needs at least one letter, e.g. `gymlog exercises alias bp \"Bench Press\"`.")
        }
        let exercise = try Exercises.existing(exerciseName, in: w)
        if let taken = try Exercises.exercise(named: alias, in: w), taken.id != exercise.id {
            throw UserError("'\(alias)' already means the exercise '\(taken.name)' (names match ignoring case, accents "
                + "and punctuation); pick another alias.")
        }
        try Exercises.writeAlias(key, for: exercise.id, in: &w)
        return exercise
    }

    /// See `GymLogDatabase.renameExercise`.
    static func rename(_ name: String, to newName: String, in w: inout ChangeWriter) throws -> Exercise {
        w.describeAction("renamed '\(name)' to '\(newName)'", workout: nil)
        var exercise = try Exercises.existing(name, in: w)
        let clean = displayName(forNew: newName)
        guard !clean.isEmpty else { throw UserError("The new name is empty; type it after the old one, e.g. `gymlog exercises rename pullup Pull-up`.") }
        let others = try Exercises.resolver(in: w).exactMatches(clean).filter { $0.id != exercise.id }
        if let other = others.first {
            throw UserError("'\(clean)' already means the exercise '\(other.name)'; to put both under one name, "
                + "`gymlog exercises merge \"\(exercise.name)\" \"\(other.name)\"`.")
        }
        let old = exercise.name
        try w.write(.exercises, id: exercise.id, op: .update, fields: [("name", .text(clean))])
        // The new name no longer needs an alias of the same spelling.
        let newAlias = w.derivedID(namespace: "alias", key: nameKey(clean))
        if try Exercises.liveAliasExists(newAlias, in: w) {
            try w.write(.aliases, id: newAlias, op: .delete, fields: [(tombstoneField, .int(w.now))])
        }
        if nameKey(old) != nameKey(clean) { try Exercises.writeAlias(old, for: exercise.id, in: &w) }
        exercise.name = clean
        return exercise
    }

    /// See `GymLogDatabase.setExerciseRest`.
    static func setRest(_ name: String, seconds: Int?, in w: inout ChangeWriter) throws -> Exercise {
        let exercise = try Exercises.existing(name, in: w)
        _ = try w.write(.exercises, id: exercise.id, op: .update, fields: [("rest_seconds", seconds.map { .int(Int64($0)) } ?? .null)])
        w.describeAction("the rest of '\(exercise.name)'", workout: nil)
        return exercise
    }

    /// See `GymLogDatabase.setExerciseKind`.
    static func setKind(_ name: String, to kind: ExerciseKind, confirming: KindChange?, in w: inout ChangeWriter) throws -> KindChange {
        let (change, reading) = try Exercises.kindChange(name, to: kind, in: w)
        if let confirming, confirming != change {
            throw UserError("The sets of '\(change.exercise.name)' changed while you were asked (another gymlog or a sync wrote them); "
                + "nothing was changed. Run the command again to see what it converts now.")
        }
        let exercise = change.exercise
        let sameKind = try exercise.kind == kind && Exercises.storedKind(exercise.id, in: w) == kind.rawValue
        if sameKind && reading.conversions.isEmpty { return change }
        for c in reading.conversions {
            try w.write(.sets, id: c.set.id, op: .update, fields: KindConversion.changedFields(c))
        }
        if !sameKind { try w.write(.exercises, id: exercise.id, op: .update, fields: [("kind", .text(kind.rawValue))]) }
        try RecordBook(w).rebuildRecords(exerciseID: exercise.id)
        let n = change.conversions.count
        w.describeAction("made '\(exercise.name)' \(kind.rawValue)" + (n == 0 ? "" : ", converting \(plural(n, "set"))"), workout: nil)
        return change
    }

    /// See `GymLogDatabase.mergeExercises`.
    static func merge(_ fromName: String, into intoName: String, confirming: ExerciseMerge?, in w: inout ChangeWriter) throws -> ExerciseMerge {
        w.describeAction("moved the sets of '\(fromName)' to '\(intoName)'", workout: nil)
        let (merge, reading, setKind) = try Exercises.mergePlan(fromName, into: intoName, in: w)
        if let confirming, confirming != merge {
            throw UserError("The sets of '\(merge.from.name)' changed while you were asked (another gymlog or a sync wrote them); "
                + "nothing was changed. Run the command again to see what it moves now.")
        }
        let (from, into) = (merge.from, merge.into)
        // One write per set: its move and, when its kind changes, its new values.
        var converted: [String: SetConversion] = [:]
        for c in reading.conversions { converted[c.set.id.key] = c }
        // Deleted sets move too, so nothing left behind points at a removed exercise.
        let setIDs = try String.fetchAll(w.db, sql: "SELECT id FROM sets WHERE exercise_id = ?", arguments: [from.id.key])
        for id in setIDs.compactMap(parseUUID) {
            let move: [(String, FieldValue)] = [("exercise_id", .text(into.id.key))]
            let fields = converted[id.key].map { KindConversion.changedFields($0, extra: move) } ?? move
            try w.write(.sets, id: id, op: .update, fields: fields)
        }
        if let setKind { try w.write(.exercises, id: into.id, op: .update, fields: [("kind", .text(setKind.rawValue))]) }
        var names: [String] = []
        for (id, alias) in try Exercises.liveAliases(of: from.id, in: w) {
            try w.write(.aliases, id: id, op: .update, fields: [("exercise_id", .text(into.id.key))])
            names.append(alias)
        }
        try w.write(.exercises, id: from.id, op: .delete, fields: [(tombstoneField, .int(w.now))])
        if nameKey(from.name) != nameKey(into.name) {
            try Exercises.writeAlias(from.name, for: into.id, in: &w)
            names.insert(from.name, at: 0)
        }
        try RecordBook(w).rebuildRecords(exerciseID: from.id)
        try RecordBook(w).rebuildRecords(exerciseID: into.id)
        var done = merge
        done.newAliases = names
        return done
    }

    /// See `GymLogDatabase.deleteExercise`.
    static func delete(_ name: String, in w: inout ChangeWriter) throws -> Exercise {
        w.describeAction("deleted the exercise '\(name)'", workout: nil)
        let exercise = try Exercises.existing(name, wholeName: true, in: w)
        let live = try Exercises.liveSetCount(exerciseID: exercise.id, in: w)
        guard live == 0 else {
            throw UserError("'\(exercise.name)' has \(plural(live, "set")), so it stays; to move \(live == 1 ? "it" : "them") to another "
                + "exercise and keep this name as its alias: `gymlog exercises merge \"\(exercise.name)\" OTHER`.")
        }
        for (id, _) in try Exercises.liveAliases(of: exercise.id, in: w) {
            try w.write(.aliases, id: id, op: .delete, fields: [(tombstoneField, .int(w.now))])
        }
        try w.write(.exercises, id: exercise.id, op: .delete, fields: [(tombstoneField, .int(w.now))])
        try RecordBook(w).rebuildRecords(exerciseID: exercise.id)
        return exercise
    }
}
