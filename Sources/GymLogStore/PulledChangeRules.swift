import Foundation
import GymLogCore

/// What a pulled change must be before it is applied: each synced column's value checked
/// against the rules a local write keeps (types, ranges, required fields, references), so
/// nothing a server sends can make a row that a later read, record rebuild, `stats` or
/// `export` cannot hold (a set with `"reps": 1e30`, a set with no workout).
enum PulledChangeRules {
    /// How one synced column's value must look.
    enum Rule {
        /// Any text.
        case text
        /// One of the given words.
        case word(Set<String>)
        /// A row id (a UUID): what a reference points at.
        case id
        /// A whole number in the range.
        case integer(ClosedRange<Int64>)
        /// 0 or 1.
        case flag
        /// A decimal as typed, checked by `accepts` (its range and steps).
        case decimal(signed: Bool, accepts: @Sendable (Fixed) -> Bool)
    }

    /// A column's rule and whether it may be null.
    struct Column {
        var rule: Rule
        var nullable: Bool
    }

    /// Unix milliseconds from 1970 to the end of year 9999: any moment gymlog can show.
    static let moments: ClosedRange<Int64> = 0...253_402_300_799_999
    /// A UTC offset in seconds, as far as any zone goes (±18 h).
    static let offsets: ClosedRange<Int64> = -64_800...64_800

    static let load = Rule.decimal(signed: true) { abs($0.thousandths) <= SetLimits.maxLoad.thousandths }
    static let positiveLoad = Rule.decimal(signed: false) { $0.thousandths > 0 && $0 <= SetLimits.maxLoad }

    /// Every synced column of every entity: `RowWriter.columns`, each with its rule. A field
    /// named here by no entry is a newer client's, kept in `extra` whatever it holds.
    static let columns: [EntityKind: [String: Column]] = [
        .exercises: [
            "name": Column(rule: .text, nullable: false),
            "kind": Column(rule: .word(Set(ExerciseKind.allCases.map(\.rawValue))), nullable: false),
            "rest_seconds": Column(rule: .integer(0...Int64(PlannedExercise.maxRestSeconds)), nullable: true),
            tombstoneField: Column(rule: .integer(moments), nullable: true),
        ],
        .aliases: [
            "alias": Column(rule: .text, nullable: false),
            "exercise_id": Column(rule: .id, nullable: false),
            tombstoneField: Column(rule: .integer(moments), nullable: true),
        ],
        .workouts: [
            "name": Column(rule: .text, nullable: true),
            "started_at": Column(rule: .integer(moments), nullable: false),
            "ended_at": Column(rule: .integer(moments), nullable: true),
            "utc_offset": Column(rule: .integer(offsets), nullable: false),
            "note": Column(rule: .text, nullable: true),
            "routine_id": Column(rule: .id, nullable: true),
            "skipped": Column(rule: .text, nullable: true),
            tombstoneField: Column(rule: .integer(moments), nullable: true),
        ],
        .sets: [
            "workout_id": Column(rule: .id, nullable: false),
            "exercise_id": Column(rule: .id, nullable: false),
            "kind": Column(rule: .word(Set(SetKind.allCases.map(\.rawValue))), nullable: false),
            "weight": Column(rule: load, nullable: true),
            "weight_unit": Column(rule: .word(Set(WeightUnit.allCases.map(\.rawValue))), nullable: true),
            "bodyweight": Column(rule: .flag, nullable: false),
            "reps": Column(rule: .integer(Int64(SetLimits.performedReps.lowerBound)...Int64(SetLimits.performedReps.upperBound)),
                           nullable: true),
            "rpe": Column(rule: .decimal(signed: false, accepts: SetLimits.isValidRPE), nullable: true),
            "duration_s": Column(rule: .integer(1...Int64(SetLimits.maxDurationSeconds)), nullable: true),
            "distance": Column(rule: .decimal(signed: false) { $0.thousandths > 0 && $0 <= SetLimits.maxDistance }, nullable: true),
            "distance_unit": Column(rule: .word(Set(DistanceUnit.allCases.map(\.rawValue))), nullable: true),
            "note": Column(rule: .text, nullable: true),
            "performed_at": Column(rule: .integer(moments), nullable: false),
            "utc_offset": Column(rule: .integer(offsets), nullable: false),
            "superset_id": Column(rule: .id, nullable: true),
            tombstoneField: Column(rule: .integer(moments), nullable: true),
        ],
        .routines: [
            "name": Column(rule: .text, nullable: false),
            "body": Column(rule: .text, nullable: false),
            "line_since": Column(rule: .text, nullable: true),
            tombstoneField: Column(rule: .integer(moments), nullable: true),
        ],
        .bodyweights: [
            "measured_at": Column(rule: .integer(moments), nullable: false),
            "utc_offset": Column(rule: .integer(offsets), nullable: false),
            "weight": Column(rule: positiveLoad, nullable: true),
            "weight_unit": Column(rule: .word(Set(WeightUnit.allCases.map(\.rawValue))), nullable: true),
            tombstoneField: Column(rule: .integer(moments), nullable: true),
        ],
    ]

    /// The columns a row must have before it can be stored (NOT NULL with no default): a
    /// change to a row not stored yet must carry them.
    static let required: [EntityKind: [String]] = [.sets: ["workout_id", "exercise_id"], .aliases: ["exercise_id"]]

    /// Why `fields` cannot be applied to `entity`'s row, naming the field and the value; nil
    /// when every field keeps the rules. `rowExists` says whether the row is stored already.
    static func problem(_ entity: EntityKind, _ fields: [FieldChange], rowExists: Bool) -> String? {
        let rules = columns[entity] ?? [:]
        for field in fields {
            guard let column = rules[field.name] else { continue }
            if let reason = problem(field.value, column) { return "\(field.name) \(shown(field.value)) \(reason)" }
        }
        if !rowExists, let missing = required[entity]?.first(where: { name in !fields.contains { $0.name == name } }) {
            return "\(missing) is missing on a row this device does not have"
        }
        return nil
    }

    /// Why `value` breaks `column`, worded to follow the value; nil when it keeps it.
    static func problem(_ value: FieldValue, _ column: Column) -> String? {
        if value == .null { return column.nullable ? nil : "must not be null" }
        switch column.rule {
        case .text:
            return value.text == nil ? "is not text" : nil
        case .word(let words):
            guard let text = value.text, words.contains(text) else { return "is not one of \(words.sorted().joined(separator: ", "))" }
            return nil
        case .id:
            guard let text = value.text, UUID(uuidString: text) != nil else { return "is not a row id" }
            return nil
        case .integer(let range):
            guard let number = wholeNumber(value) else { return "is not a whole number" }
            return range.contains(number) ? nil : "is not between \(range.lowerBound) and \(range.upperBound)"
        case .flag:
            return wholeNumber(value).map { $0 == 0 || $0 == 1 } == true ? nil : "is not 0 or 1"
        case .decimal(let signed, let accepts):
            let number: Fixed? = switch value {
            case .text(let text): signed ? Fixed(parsingSigned: text) : Fixed(parsing: text)
            case .int(let i) where i > -1_000_000_000 && i < 1_000_000_000: signed || i >= 0 ? Fixed(Int(i)) : nil
            default: nil
            }
            guard let number else { return "is not a decimal number as gymlog writes them" }
            return accepts(number) ? nil : "is out of range"
        }
    }

    /// An integer value; a JSON number with a fraction part of zero counts (`5.0`), one too
    /// big for 64 bits does not.
    static func wholeNumber(_ value: FieldValue) -> Int64? {
        switch value {
        case .int(let i): i
        case .real(let d): Int64(exactly: d)
        default: nil
        }
    }

    /// The value as a message shows it: short, and text in quotes.
    static func shown(_ value: FieldValue) -> String {
        switch value {
        case .null: "null"
        case .int(let i): String(i)
        case .real(let d): String(d)
        case .text(let s): "\"" + (s.count > 40 ? String(s.prefix(40)) + "…" : s) + "\""
        }
    }
}
