import Foundation
import GRDB
import GymLogCore

/// The catalog fields of exercises: linking by hand, unlinking, a lifter's own muscles, and
/// reading what each exercise trains (`ExerciseLink`).
extension Exercises {
    /// The stored catalog fields of exercise rows, selected as `catalog_id, primary_muscles,
    /// secondary_muscles, equipment` (with `prefix`).
    static func linkFields(_ row: Row, prefix: String = "") -> ExerciseLinkFields {
        ExerciseLinkFields(catalogID: row[prefix + "catalog_id"] as String?,
                           primaryMuscles: ExerciseLinkFields.muscles(row[prefix + "primary_muscles"] as String?),
                           secondaryMuscles: ExerciseLinkFields.muscles(row[prefix + "secondary_muscles"] as String?),
                           equipment: row[prefix + "equipment"] as String?)
    }

    /// See `GymLogDatabase.linkExercise`: `catalogID` as `ExerciseLinkFields.catalogID` means
    /// it (nil: from the name, "": never); a description of the lifter's own goes.
    static func link(_ name: String, to catalogID: String?, in w: inout ChangeWriter) throws -> Exercise {
        let exercise = try existing(name, in: w)
        try w.write(.exercises, id: exercise.id, op: .update, fields: [
            ("catalog_id", catalogID.map { .text($0) } ?? .null), ("primary_muscles", .null), ("secondary_muscles", .null), ("equipment", .null),
        ])
        let done = switch catalogID {
        case nil: "linked '\(exercise.name)' from its name"
        case "": "unlinked '\(exercise.name)'"
        case let id?: "linked '\(exercise.name)' to \(ExerciseCatalog.entry(id: id)?.name ?? id)"
        }
        w.describeAction(done, workout: nil)
        return exercise
    }

    /// Gives an exercise the catalog fields an import file stores for it, unless it has its own
    /// already (the lifter's choice on this device wins).
    static func importLink(_ fields: ExerciseLinkFields, to exerciseID: UUID, in w: inout ChangeWriter) throws {
        guard !fields.isFromName, let row = try Row.fetchOne(w.db, sql: """
            SELECT catalog_id, primary_muscles, secondary_muscles, equipment FROM exercises WHERE id = ?
            """, arguments: [exerciseID.key]), linkFields(row).isFromName else { return }
        try w.write(.exercises, id: exerciseID, op: .update, fields: [
            ("catalog_id", fields.catalogID.map { .text($0) } ?? .null),
            ("primary_muscles", ExerciseLinkFields.stored(fields.primaryMuscles).map { .text($0) } ?? .null),
            ("secondary_muscles", ExerciseLinkFields.stored(fields.secondaryMuscles).map { .text($0) } ?? .null),
            ("equipment", fields.equipment.map { .text($0) } ?? .null),
        ])
    }

    /// See `GymLogDatabase.describeExercise`.
    static func describe(_ name: String, as fields: ExerciseLinkFields, in w: inout ChangeWriter) throws -> Exercise {
        let exercise = try existing(name, in: w)
        try w.write(.exercises, id: exercise.id, op: .update, fields: [
            ("primary_muscles", ExerciseLinkFields.stored(fields.primaryMuscles).map { .text($0) } ?? .null),
            ("secondary_muscles", ExerciseLinkFields.stored(fields.secondaryMuscles).map { .text($0) } ?? .null),
            ("equipment", fields.equipment.map { .text($0) } ?? .null),
        ])
        w.describeAction("described the muscles of '\(exercise.name)'", workout: nil)
        return exercise
    }
}

extension GymLogDatabase {
    /// Links an exercise to a catalog entry by hand; it stays linked to it whatever its name
    /// becomes, and a description of its own (`describeExercise`) is cleared. Synced; one `undo`.
    public func linkExercise(_ name: String, to entry: CatalogEntry, typed: String) throws -> Exercise {
        try commit(action: typed) { w in try Exercises.link(name, to: entry.id, in: &w) }
    }

    /// Links an exercise from its name again, as a new one is (undoing `linkExercise`,
    /// `unlinkExercise` and `describeExercise` for good). Synced; one `undo`.
    public func linkExerciseByName(_ name: String, typed: String) throws -> Exercise {
        try commit(action: typed) { w in try Exercises.link(name, to: nil, in: &w) }
    }

    /// Unlinks an exercise for good: it is never linked from its name again, until linked by hand.
    public func unlinkExercise(_ name: String, typed: String) throws -> Exercise {
        try commit(action: typed) { w in try Exercises.link(name, to: "", in: &w) }
    }

    /// Gives an exercise muscles and equipment of its own (`ExerciseLinkFields.custom`), which
    /// win over any link. Synced; one `undo`.
    public func describeExercise(_ name: String, as fields: ExerciseLinkFields, typed: String) throws -> Exercise {
        try commit(action: typed) { w in try Exercises.describe(name, as: fields, in: &w) }
    }

    /// What every live exercise trains, by id: its catalog fields read with its name and aliases.
    public func exerciseLinks() throws -> [UUID: ExerciseLink] {
        try read { db in try exerciseLinks(db) }
    }

    /// What one exercise trains and is done with; nil when there is no such exercise.
    public func exerciseLink(_ id: UUID) throws -> ExerciseLink? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT name, catalog_id, primary_muscles, secondary_muscles, equipment FROM exercises WHERE id = ?
                """, arguments: [id.key]) else { return nil }
            let aliases = try String.fetchAll(db, sql: "SELECT alias FROM aliases WHERE exercise_id = ? AND deleted_at IS NULL ORDER BY alias",
                                              arguments: [id.key])
            return ExerciseLink(name: row["name"], aliases: aliases, fields: Exercises.linkFields(row))
        }
    }

    func exerciseLinks(_ db: Database) throws -> [UUID: ExerciseLink] {
        let aliases = try liveAliases(db)
        var links: [UUID: ExerciseLink] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT id, name, catalog_id, primary_muscles, secondary_muscles, equipment FROM exercises WHERE deleted_at IS NULL
            """) {
            guard let id = parseUUID(row["id"]) else { continue }
            links[id] = ExerciseLink(name: row["name"], aliases: aliases[row["id"]] ?? [], fields: Exercises.linkFields(row))
        }
        return links
    }
}
