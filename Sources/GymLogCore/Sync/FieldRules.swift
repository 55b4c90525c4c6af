import Foundation

/// What each synced field of the entities gymlog knows may hold, judged one field at a time:
/// its type, its range, whether it may be null. The one table of it: the sync server refuses
/// a pushed value outside it (the event is rejected `invalid_value`), so one raw client cannot
/// store a `"reps": 1e30` that every device would then pull.
///
/// A field or entity not listed is accepted as it is (a newer client's addition); what a
/// row needs as a whole (a set's reps or time, its workout existing) is the client's to judge,
/// since a push carries only the fields that changed.
public enum FieldRules {
    /// One field's rule.
    public struct Rule: Sendable {
        public enum Shape: Sendable {
            /// A whole number in the range.
            case integer(ClosedRange<Int64>)
            /// A decimal stored as its text (`"102.5"`), or a number, in the range; in whole
            /// steps when a step is given (RPE 8.5, never 8.3).
            case decimal(ClosedRange<Fixed>, step: Fixed? = nil)
            /// One of these words.
            case word(Set<String>)
            /// Any text (its length is checked for every field).
            case text
            /// A reference to a row: its id, a UUID (every id gymlog makes is one).
            case id
        }

        public var shape: Shape
        public var nullable: Bool
        /// What the field is, for the rejection message: "reps", "a set's weight".
        public var described: String
    }

    /// Epoch milliseconds from 1970 to the end of year 9999: any moment gymlog can show.
    public static let timestamps: ClosedRange<Int64> = 0...253_402_300_799_999
    /// A UTC offset in seconds: the widest real offsets are -12 h and +14 h; ±18 h is ISO 8601's bound.
    public static let utcOffsets: ClosedRange<Int64> = -64_800...64_800

    /// The rule of `field` of `entity`; nil when gymlog does not know the pair.
    public static func rule(entity: String, field: String) -> Rule? {
        if field == tombstoneField { return Rule(shape: .integer(timestamps), nullable: true, described: "a deletion time") }
        return table[entity]?[field]
    }

    /// Every synced field of `entity`, its tombstone included: the one list of an entity's
    /// fields, which the client's tables have as columns (`RowWriter`); empty when unknown.
    public static func fields(of entity: String) -> Set<String> {
        guard let fields = table[entity] else { return [] }
        return Set(fields.keys).union([tombstoneField])
    }

    /// The fields of `entity` that hold another row's id (`Rule.Shape.id`), by name.
    public static func idFields(of entity: String) -> [String] { idFieldsByEntity[entity] ?? [] }

    private static let idFieldsByEntity: [String: [String]] = table.mapValues { fields in
        fields.compactMap { name, rule in if case .id = rule.shape { name } else { nil } }.sorted()
    }

    /// Why `value` cannot be `field` of `entity`, naming what it should be; nil when it can
    /// (or when the pair is unknown).
    public static func problem(entity: String, field: String, value: FieldValue) -> String? {
        guard let rule = rule(entity: entity, field: field) else { return nil }
        if value == .null { return rule.nullable ? nil : "\(rule.described) cannot be null" }
        switch rule.shape {
        case .integer(let range):
            guard let n = value.int, range.contains(n) else {
                return "\(rule.described) is a whole number from \(range.lowerBound) to \(range.upperBound)"
            }
        case .decimal(let range, let step):
            guard let d = decimal(value), range.contains(d), step.map({ d.thousandths % $0.thousandths == 0 }) ?? true else {
                let steps = step.map { " in steps of \($0)" } ?? " with at most 3 decimal places"
                return "\(rule.described) is a decimal from \(range.lowerBound) to \(range.upperBound)\(steps), sent as text (\"\(range.upperBound)\")"
            }
        case .word(let words):
            guard case .text(let s) = value, words.contains(s) else {
                return "\(rule.described) is one of \(words.sorted().map { "\"\($0)\"" }.joined(separator: ", "))"
            }
        case .text:
            guard case .text = value else { return "\(rule.described) is text" }
        case .id:
            guard case .text(let s) = value, UUID(uuidString: s) != nil else {
                return "\(rule.described) is a row id, a UUID"
            }
        }
        return nil
    }

    /// A decimal as the client stores it (`"102.5"`), or a number that is one exactly.
    private static func decimal(_ value: FieldValue) -> Fixed? {
        switch value {
        case .text(let s): return Fixed(parsingSigned: s)
        case .int(let i): return i.magnitude <= Int64.max / 1000 ? Fixed(thousandths: i * 1000) : nil
        case .real(let d):
            guard let thousandths = Int64(exactly: (d * 1000).rounded()) else { return nil }
            let fixed = Fixed(thousandths: thousandths)
            return fixed.doubleValue == d ? fixed : nil
        case .null: return nil
        }
    }

    private static func rule(_ shape: Rule.Shape, nullable: Bool = false, _ described: String) -> Rule {
        Rule(shape: shape, nullable: nullable, described: described)
    }

    private static let load = Fixed(thousandths: -SetLimits.maxLoad.thousandths)...SetLimits.maxLoad
    private static let weightUnits = Set(WeightUnit.allCases.map(\.rawValue))

    private static let table: [String: [String: Rule]] = [
        EntityKind.exercises.rawValue: [
            "name": rule(.text, "an exercise's name"),
            // "" is an exercise whose kind is not known yet (a create before its first set).
            "kind": rule(.word(Set(ExerciseKind.allCases.map(\.rawValue) + [""])), "an exercise's kind"),
            "rest_seconds": rule(.integer(0...Int64(PlannedExercise.maxRestSeconds)), nullable: true, "an exercise's rest_seconds"),
            // Text, not words: a newer catalog may name ids, muscles or equipment this one does not.
            "catalog_id": rule(.text, nullable: true, "an exercise's catalog_id"),
            "primary_muscles": rule(.text, nullable: true, "an exercise's primary_muscles"),
            "secondary_muscles": rule(.text, nullable: true, "an exercise's secondary_muscles"),
            "equipment": rule(.text, nullable: true, "an exercise's equipment"),
        ],
        EntityKind.aliases.rawValue: [
            "alias": rule(.text, "an alias"),
            "exercise_id": rule(.id, "an alias's exercise_id"),
        ],
        EntityKind.workouts.rawValue: [
            "name": rule(.text, nullable: true, "a workout's name"),
            "started_at": rule(.integer(timestamps), "a workout's started_at"),
            "ended_at": rule(.integer(timestamps), nullable: true, "a workout's ended_at"),
            "utc_offset": rule(.integer(utcOffsets), "a workout's utc_offset"),
            "note": rule(.text, nullable: true, "a workout's note"),
            "routine_id": rule(.id, nullable: true, "a workout's routine_id"),
            "skipped": rule(.text, nullable: true, "a workout's skipped lines"),
        ],
        EntityKind.sets.rawValue: [
            "workout_id": rule(.id, "a set's workout_id"),
            "exercise_id": rule(.id, "a set's exercise_id"),
            "kind": rule(.word(Set(SetKind.allCases.map(\.rawValue))), "a set's kind"),
            "weight": rule(.decimal(load), nullable: true, "a set's weight"),
            "weight_unit": rule(.word(weightUnits), nullable: true, "a set's weight_unit"),
            "bodyweight": rule(.integer(0...1), "a set's bodyweight flag"),
            "reps": rule(.integer(Int64(SetLimits.performedReps.lowerBound)...Int64(SetLimits.performedReps.upperBound)), nullable: true, "a set's reps"),
            "rpe": rule(.decimal(SetLimits.rpe, step: SetLimits.rpeStep), nullable: true, "a set's rpe"),
            "rir": rule(.decimal(SetLimits.rir, step: SetLimits.rpeStep), nullable: true, "a set's rir"),
            "duration_s": rule(.integer(1...Int64(SetLimits.maxDurationSeconds)), nullable: true, "a set's duration_s"),
            "distance": rule(.decimal(Fixed(thousandths: 1)...SetLimits.maxDistance), nullable: true, "a set's distance"),
            "distance_unit": rule(.word(Set(DistanceUnit.allCases.map(\.rawValue))), nullable: true, "a set's distance_unit"),
            "note": rule(.text, nullable: true, "a set's note"),
            "performed_at": rule(.integer(timestamps), "a set's performed_at"),
            "utc_offset": rule(.integer(utcOffsets), "a set's utc_offset"),
            "superset_id": rule(.id, nullable: true, "a set's superset_id"),
        ],
        EntityKind.routines.rawValue: [
            "name": rule(.text, "a routine's name"),
            "body": rule(.text, "a routine's text"),
            "line_since": rule(.text, nullable: true, "a routine's line_since"),
            "unit": rule(.word(weightUnits), nullable: true, "a routine's unit"),
        ],
        EntityKind.bodyweights.rawValue: [
            "measured_at": rule(.integer(timestamps), "a bodyweight's measured_at"),
            "utc_offset": rule(.integer(utcOffsets), "a bodyweight's utc_offset"),
            "weight": rule(.decimal(Fixed(thousandths: 1)...SetLimits.maxLoad), nullable: true, "a bodyweight's weight"),
            "weight_unit": rule(.word(weightUnits), nullable: true, "a bodyweight's weight_unit"),
        ],
    ]
}
