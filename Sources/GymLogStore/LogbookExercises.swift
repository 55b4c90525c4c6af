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
    /// The kind `into` has after the merge (it takes `from`'s when it had none and no sets).
    public var kind: ExerciseKind
    /// The moved live sets whose values change to fit `kind`, oldest first.
    public var conversions: [SetConversion]
}

extension GymLogDatabase {
    // MARK: Exercises

    /// Creates an exercise explicitly (even when its name is close to an existing one). With
    /// no kind, its first set sets it.
    public func addExercise(name: String, kind: ExerciseKind? = nil) throws -> Exercise {
        try commit(action: "exercises add \(name)") { w in try Exercises.add(name: name, kind: kind, in: &w) }
    }

    /// Makes `alias` another name for an exercise (`bp` -> Bench Press).
    public func addAlias(_ alias: String, for exerciseName: String) throws -> Exercise {
        try commit(action: "exercises alias \(alias) \(exerciseName)") { w in try Exercises.addAlias(alias, for: exerciseName, in: &w) }
    }

    /// Renames an exercise everywhere (its id, and so its history and records, stay); the
    /// old name stays an alias, so `pullup 8` still logs to `Pull-up` on every device.
    public func renameExercise(_ name: String, to newName: String) throws -> Exercise {
        try commit(action: "exercises rename \(name) \(newName)") { w in try Exercises.rename(name, to: newName, in: &w) }
    }

    /// Sets (or with nil clears) the target rest between sets of an exercise; synced.
    public func setExerciseRest(_ name: String, seconds: Int?, typed: String) throws -> Exercise {
        try commit(action: typed) { w in try Exercises.setRest(name, seconds: seconds, in: &w) }
    }

    /// The target rest between sets of an exercise, if it has one.
    public func exerciseRest(_ id: UUID) throws -> Int? {
        try read { try Int.fetchOne($0, sql: "SELECT rest_seconds FROM exercises WHERE id = ?", arguments: [id.key]) }
    }

    /// What `setExerciseKind` would do, writing nothing: the sets it converts (a refusal
    /// naming every set that has no reading in `kind`, as the change itself would throw).
    public func exerciseKindChange(_ name: String, to kind: ExerciseKind) throws -> KindChange {
        try read { db in try inReadOnlyWriter(db) { try Exercises.kindChange(name, to: kind, in: $0).change } }
    }

    /// Changes an exercise's kind, converting its sets by `ExerciseKind.converting`
    /// (`bw+70x5` -> `70x5`) when every live set has a reading in the new kind, and refusing,
    /// with each set that has none named, otherwise. Every changed set is a field change with
    /// its outbox event, the records are rebuilt, and the whole change is one `undo`.
    /// `confirming` is the change the user agreed to (`exerciseKindChange`): if the sets
    /// changed since, nothing is written.
    @discardableResult
    public func setExerciseKind(_ name: String, to kind: ExerciseKind, confirming: KindChange? = nil) throws -> KindChange {
        try commit(action: "exercises kind \(name) \(kind.rawValue)") { w in try Exercises.setKind(name, to: kind, confirming: confirming, in: &w) }
    }

    /// What `mergeExercises` would do, writing nothing: the sets it moves and converts.
    public func exerciseMergePreview(_ fromName: String, into intoName: String) throws -> ExerciseMerge {
        try read { db in try inReadOnlyWriter(db) { try Exercises.mergePlan(fromName, into: intoName, in: $0).merge } }
    }

    /// Moves every set of `from` to `into`, keeps `from`'s name and aliases as aliases of
    /// `into`, removes `from` and rebuilds `into`'s records: ordinary writes, so it syncs.
    /// Sets of another kind are converted to `into`'s by `ExerciseKind.converting` (as
    /// `exercises kind` converts them); a set with no reading refuses the merge, named.
    /// `confirming` is the merge the user agreed to (`exerciseMergePreview`): if its sets
    /// changed since, nothing is written.
    public func mergeExercises(_ fromName: String, into intoName: String, confirming: ExerciseMerge? = nil) throws -> ExerciseMerge {
        try commit(action: "exercises merge \(fromName) \(intoName)") { w in try Exercises.merge(fromName, into: intoName, confirming: confirming, in: &w) }
    }

    /// Removes an exercise that has no live sets, with its aliases.
    public func deleteExercise(_ name: String) throws -> Exercise {
        try commit(action: "exercises delete \(name)") { w in try Exercises.delete(name, in: &w) }
    }
}
