import Foundation
import GymLogCore

/// What a pulled change must be before it is applied, so nothing a server sends can make a
/// row that a later read, record rebuild, `stats` or `export` cannot hold (a set with
/// `"reps": 1e30`, a set with no workout): each field keeps its rule (`FieldRules`, the one
/// table the sync server also refuses pushes by), and a row this device does not have yet
/// arrives with the columns it cannot be stored without.
enum PulledChangeRules {
    /// The columns a row must have before it can be stored (NOT NULL with no default): a
    /// change to a row not stored yet must carry them.
    static let required: [EntityKind: [String]] = [.sets: ["workout_id", "exercise_id"], .aliases: ["exercise_id"]]

    /// Why `fields` cannot be applied to `entity`'s row, naming the field and the value; nil
    /// when every field keeps its rule. `rowExists` says whether the row is stored already.
    static func problem(_ entity: EntityKind, _ fields: [FieldChange], rowExists: Bool) -> String? {
        for field in fields {
            if let reason = FieldRules.problem(entity: entity.rawValue, field: field.name, value: field.value) {
                return "\(field.name) \(shown(field.value)): \(reason)"
            }
        }
        if !rowExists, let missing = required[entity]?.first(where: { name in !fields.contains { $0.name == name } }) {
            return "\(missing) is missing on a row this device does not have"
        }
        return nil
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
