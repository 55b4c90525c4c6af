import Foundation
import GymLogCore
import GymLogStore

/// A JSON value with keys kept in the order written, so `--json` output is stable and
/// diffable, and numbers written as exact text (a typed `102.5` is `102.5`, never
/// `102.49999999999999`). The README documents every key.
enum JSON: Equatable {
    case null
    case bool(Bool)
    /// A number already in JSON syntax.
    case number(String)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    static func == (a: JSON, b: JSON) -> Bool { a.rendered() == b.rendered() }

    static func int<I: BinaryInteger>(_ value: I) -> JSON { .number(String(value)) }
    static func int<I: BinaryInteger>(_ value: I?) -> JSON { value.map { .number(String($0)) } ?? .null }
    /// Exactly as typed.
    static func fixed(_ value: Fixed?) -> JSON { value.map { .number($0.description) } ?? .null }
    static func string(_ value: String?) -> JSON { value.map { .string($0) } ?? .null }
    /// A computed number rounded to 3 decimals (the precision of anything typed).
    static func double(_ value: Double) -> JSON {
        Fixed(roundingWithinRange: value).map { .number($0.description) } ?? .null
    }
    /// ISO 8601 with the offset the instant was recorded at: `2026-03-02T18:04:00+01:00`.
    static func time(_ millis: Int64?, _ offset: Int) -> JSON {
        millis.map { .string(iso8601(millis: $0, utcOffsetSeconds: offset)) } ?? .null
    }

    /// Two-space indented text ending without a newline.
    func rendered() -> String {
        var out = ""
        write(to: &out, indent: 0)
        return out
    }

    private func write(to out: inout String, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): JSON.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                item.write(to: &out, indent: indent + 2)
                out += i == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .object(let fields):
            if fields.isEmpty { out += "{}"; return }
            out += "{\n"
            for (i, (key, value)) in fields.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                JSON.quote(key, into: &out)
                out += ": "
                value.write(to: &out, indent: indent + 2)
                out += i == fields.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        }
    }

    private static func quote(_ s: String, into out: inout String) {
        appendJSONString(s, to: &out)
    }
}

extension JSON {
    /// A set's field: decimals as numbers exactly as typed, flags as booleans.
    init(_ value: SetFieldValue) {
        switch value {
        case .null: self = .null
        case .text(let text): self = .string(text)
        case .int(let i): self = .int(i)
        case .fixed(let f): self = .fixed(f)
        case .bool(let b): self = .bool(b)
        }
    }
}

/// The JSON shapes shared by the read commands (documented in the README, "Look back").
enum JSONShapes {
    /// A set exactly as typed: `weight` is the typed number, `weight_unit` its unit.
    static func set(_ s: LoggedSet, exercise: Exercise, number: Int? = nil) -> JSON {
        var fields: [(String, JSON)] = []
        if let number { fields.append(("number", .int(number))) }
        fields += [
            ("id", .string(s.id.key)),
            ("workout_id", .string(s.workoutID.key)),
            ("exercise_id", .string(exercise.id.key)),
            ("exercise", .string(exercise.name)),
        ]
        fields += SetField.allCases.map { ($0.rawValue, JSON(s.values[$0])) }
        fields += [
            ("performed_at", .time(s.performedAt, s.utcOffsetSeconds)),
            ("superset_id", .string(s.supersetID?.key)),
            ("summary", .string(s.summary)),
        ]
        return .object(fields)
    }

    /// A workout with its sets; `numbered` adds the `number` that `edit N` and `delete N` take.
    /// `ended_at` follows `status`, the rule the prompt and the headers use: a workout the idle
    /// gap has closed ended at its last set, though nothing has written `ended_at` yet.
    static func workout(_ d: WorkoutDetail, status: WorkoutStatus, numbered: Bool = false) -> JSON {
        let w = d.workout
        let ended = status.end(of: w, lastActivity: d.sets.map(\.set.performedAt).max())
        return .object([
            ("id", .string(w.id.key)),
            ("ref", .string(d.reference)),
            ("name", .string(w.name)),
            ("started_at", .time(w.startedAt, w.utcOffsetSeconds)),
            ("ended_at", .time(ended, w.utcOffsetSeconds)),
            ("note", .string(w.note)),
            ("set_count", .int(d.sets.count)),
            ("sets", .array(d.sets.enumerated().map { set($0.element.set, exercise: $0.element.exercise, number: numbered ? $0.offset + 1 : nil) })),
        ])
    }

    /// An exercise as `exercises --json` lists it: kind, aliases, live set count, last set.
    static func exercise(_ s: ExerciseSummary) -> JSON {
        .object([
            ("id", .string(s.exercise.id.key)),
            ("name", .string(s.exercise.name)),
            ("kind", .string(s.exercise.kind.rawValue)),
            ("aliases", .array(s.aliases.map { .string($0) })),
            ("set_count", .int(s.setCount)),
            ("last_performed_at", .time(s.lastPerformedAt, s.lastPerformedOffset)),
            ("link", link(s.link)),
        ])
    }

    /// What an exercise trains: where that comes from (`automatic`, `by hand`, `custom`,
    /// `unlinked by hand`, `unlinked`), the catalog entry if linked, muscles and equipment.
    static func link(_ l: ExerciseLink) -> JSON {
        .object([
            ("source", .string(l.source.rawValue)),
            ("catalog_id", .string(l.entry?.id)), ("catalog_name", .string(l.entry?.name)),
            ("primary_muscles", .array(l.primaryMuscles.map { .string($0) })),
            ("secondary_muscles", .array(l.secondaryMuscles.map { .string($0) })),
            ("equipment", .string(l.equipment)),
        ])
    }

    /// A record: `value` in `unit` (loads in the user's default unit; `s` for times, `m` for
    /// distance, `s/km` or `s/mi` for pace, `reps` for reps) and the set holding it, exactly as
    /// typed; `reps` is the rep count of a rep max and the distance in metres of a fastest time.
    static func record(_ r: RecordEntry, exercise: Exercise, settings: Settings) -> JSON {
        let unit: String, value: Double
        switch r.metric {
        case .weight, .repMax, .e1rm, .setVolume, .sessionVolume:
            unit = settings.defaultUnit.rawValue
            value = Render.loadValue(kilograms: r.value, settings)
        case .reps: unit = "reps"; value = r.value
        case .duration, .fastest: unit = "s"; value = r.value
        case .distance: unit = "m"; value = r.value
        case .pace: unit = "s/" + Render.paceUnit(settings).rawValue; value = Render.paceValue(secondsPerKilometre: r.value, settings)
        }
        return .object([
            ("metric", .string(r.metric.rawValue)),
            ("reps", r.metric == .repMax || r.metric == .fastest ? .int(r.reps) : .null),
            ("value", .double(value)),
            ("unit", .string(unit)),
            ("set", set(r.set, exercise: exercise)),
        ])
    }
}

extension CLIContext {
    /// Prints a JSON document on standard output.
    func printJSON(_ value: JSON) { print(value.rendered()) }
}
