import Foundation
import GRDB
import GymLogCore

/// One set that changes shape to fit another kind (`exercises kind`, `exercises merge`).
public struct SetConversion: Equatable, Sendable {
    /// The set as it is stored.
    public var set: LoggedSet
    /// Its values as the exercise's new kind holds them (`ExerciseKind.converting`).
    public var converted: SetValues

    /// A conversion of `set` to `converted`.
    public init(set: LoggedSet, converted: SetValues) { self.set = set; self.converted = converted }
}

/// What `exercises kind` does, or would do: the exercise, its new kind and the sets that change.
public struct KindChange: Equatable, Sendable {
    /// The exercise, with the kind it had.
    public var exercise: Exercise
    /// The kind it gets.
    public var kind: ExerciseKind
    /// Its live sets that change to fit `kind`, oldest first; the others fit it as they are.
    public var conversions: [SetConversion]
}

/// How one exercise's sets read as another kind, worked out in a transaction.
struct KindReading {
    /// Live sets that change, oldest first.
    var conversions: [SetConversion] = []
    /// Live sets with no reading, named as the user finds them: `2026-03-01 Squat bw-20kg x 8`.
    var misfits: [String] = []
}

/// Converting an exercise's sets to another kind, worked out inside the caller's write
/// transaction: how they read, which fields change, and the refusal when some cannot.
enum KindConversion {
    /// How the live sets of `exercise` read as `kind`, by the one rule (`ExerciseKind.converting`,
    /// a made-up 0 load in the user's unit). Reads only. Deleted sets are left as they are:
    /// they are no set of the exercise's now, and an update of a deleted row could never be
    /// undone (`undo` expects a row it only updated to be live still).
    static func reading(_ exercise: Exercise, as kind: ExerciseKind, in w: ChangeWriter) throws -> KindReading {
        var reading = KindReading()
        let rows = try Row.fetchAll(w.db, sql: """
            SELECT \(Rows.setColumns), w.started_at AS w_started_at, w.utc_offset AS w_utc_offset
            FROM sets s LEFT JOIN workouts w ON w.id = s.workout_id
            WHERE s.exercise_id = ? AND s.deleted_at IS NULL ORDER BY s.performed_at, s.id
            """, arguments: [exercise.id.key])
        var decode = SetDecoder()
        for row in rows {
            let set = decode(row)
            guard let converted = kind.converting(set.values, unit: w.settings.defaultUnit) else {
                // The workout's date (a set past midnight still belongs to the day it started).
                let started = (row["w_started_at"] as Int64?) ?? set.performedAt
                let offset = (row["w_utc_offset"] as Int?) ?? set.utcOffsetSeconds
                reading.misfits.append("\(localDate(millis: started, utcOffsetSeconds: offset)) \(exercise.name) \(set.summary)")
                continue
            }
            if converted != set.values { reading.conversions.append(SetConversion(set: set, converted: converted)) }
        }
        return reading
    }

    /// The fields of a set that a conversion changes, as `write` takes them (plus `extra`).
    static func changedFields(_ c: SetConversion, extra: [(String, FieldValue)] = []) -> [(String, FieldValue)] {
        extra + zip(SetColumns.fields(of: c.set.values), SetColumns.fields(of: c.converted)).filter { $0.0.1 != $0.1.1 }.map(\.1)
    }

    /// The refusal for sets of `exercise` with no reading in `kind` (its example typed with
    /// `exampleName`): each named (up to ten), then `then`.
    static func noReading(_ misfits: [String], of exercise: Exercise, in kind: ExerciseKind, exampleName: String,
                          before: String, then: String) -> UserError {
        let n = misfits.count
        var lines = ["\(before)\(plural(n, "set")) of '\(exercise.name)' \(n == 1 ? "has" : "have") no reading as \(kind.phrase) "
            + "(\(kind.shape(nameKey(exampleName)))), so nothing was changed:"]
        lines += misfits.prefix(10).map { "  " + $0 }
        if n > 10 { lines.append("  and \(n - 10) more") }
        lines.append(then)
        return UserError(lines.joined(separator: "\n"))
    }
}
