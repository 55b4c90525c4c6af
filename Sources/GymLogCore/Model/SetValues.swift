import Foundation

/// What one set is, units resolved and exactly as typed: the one declaration of a set's shape.
///
/// A new field is added here (the property, its `SetField` case and the two switches
/// below); the store's column table, export, JSON output and import build on it.
public struct SetValues: Equatable, Sendable {
    /// Working, warm-up, drop or failure.
    public var kind: SetKind
    /// External load, or added/assisted load when `bodyweight` is true.
    public var weight: Weight?
    /// True for bodyweight sets (`bw x8`, `bw+20x6`).
    public var bodyweight: Bool
    /// Repetitions, if counted.
    public var reps: Int?
    /// Rate of perceived exertion as typed (`8`, `8.5`).
    public var rpe: Fixed?
    /// Reps in reserve as typed (`2`, `1.5`): a lifter's other way of saying how hard a set was.
    public var rir: Fixed?
    /// Time under load or on the clock, in seconds.
    public var durationSeconds: Int?
    /// Distance as typed, with its unit.
    public var distance: Distance?
    /// The note on this set.
    public var note: String?

    /// Values from their parts; every part is optional except the kind.
    public init(kind: SetKind = .working, weight: Weight? = nil, bodyweight: Bool = false, reps: Int? = nil,
                rpe: Fixed? = nil, rir: Fixed? = nil, durationSeconds: Int? = nil, distance: Distance? = nil,
                note: String? = nil) {
        self.kind = kind; self.weight = weight; self.bodyweight = bodyweight; self.reps = reps
        self.rpe = rpe; self.rir = rir; self.durationSeconds = durationSeconds; self.distance = distance; self.note = note
    }

    /// The kind of exercise a set of this shape belongs to, for a new exercise's first set:
    /// a load over a distance is a carry, reps with no load are bodyweight reps, a time with
    /// no reps is a timed hold.
    public var exerciseKind: ExerciseKind {
        if distance != nil { return weight != nil && !bodyweight ? .carry : .distance }
        if reps == nil && durationSeconds != nil { return .timed }
        if bodyweight || (weight == nil && reps != nil) { return .bodyweight }
        return .weighted
    }

    /// Whether `other` records the same performance, as two exports of one set do whatever app
    /// wrote them: the same reps, time and distance (to the metre), warm-up or not alike, and
    /// the same load to 0.05 kg (an export rounds a pound load converted to kilograms, or back;
    /// the smallest plate is 0.25 kg), no load counting as 0. Notes, RPE, RIR and drop or
    /// failure marks are left out: not every app keeps them.
    public func isSamePerformance(as other: SetValues) -> Bool {
        guard reps == other.reps, durationSeconds == other.durationSeconds,
              (kind == .warmup) == (other.kind == .warmup) else { return false }
        switch (distance, other.distance) {
        case (nil, nil): break
        case (let a?, let b?): guard abs(a.meters - b.meters) < 1 else { return false }
        default: return false
        }
        return abs((weight?.kilograms ?? 0) - (other.weight?.kilograms ?? 0)) < 0.05
    }

    /// A load taken and not lifted: 0 reps (`deadlift 150x0 f`). Kept and shown, never a
    /// record, and no volume.
    public var isMissedAttempt: Bool { reps == 0 }

    /// How hard the set was, as typed: `@8`, `rir2` (both, `@8 rir2`, only when a set holds
    /// both, as a merge of two devices' edits can); nil when neither was given.
    public var effort: String? {
        switch (rpe, rir) {
        case (nil, nil): nil
        case (let rpe?, nil): "@\(rpe)"
        case (nil, let rir?): "rir\(rir)"
        case (let rpe?, let rir?): "@\(rpe) rir\(rir)"
        }
    }

    /// `100kg x 5 @8`, `315lb x 3 rir2`, `bw+20kg x 6`, `60s`, `2000m in 7:41`, `150kg x 0 (missed)`, prefixed by
    /// the kind when tagged (a missed attempt is a failure by its nature: `(missed)` says it).
    public var summary: String {
        var parts: [String] = []
        switch kind {
        case .working: break
        case .warmup: parts.append("warm-up")
        case .drop: parts.append("drop")
        case .failure: if !isMissedAttempt { parts.append("failure") }
        }
        var load = ""
        if bodyweight {
            load = "bw"
            if let w = weight { load += (w.value.thousandths >= 0 ? "+" : "") + w.description }
        } else if let w = weight {
            load = w.description
        }
        if let reps { parts.append((load.isEmpty ? "\(reps) reps" : "\(load) x \(reps)") + (reps == 0 ? " (missed)" : "")) }
        else if !load.isEmpty { parts.append(load) }
        if let distance { parts.append(distance.description) }
        if let d = durationSeconds { parts.append(distance == nil ? formatDuration(d) : "in \(formatDuration(d))") }
        if let effort { parts.append(effort) }
        var text = parts.joined(separator: " ")
        if let note, !note.isEmpty { text += "  # \(note)" }
        return text
    }
}

/// One flat field of `SetValues` (a weight is its number and its unit), in the order the
/// native export and `--json` list them. The raw value is the field's public name there.
public enum SetField: String, CaseIterable, Sendable {
    case kind, weight
    case weightUnit = "weight_unit"
    case bodyweight, reps, rpe, rir, distance
    case distanceUnit = "distance_unit"
    case durationSeconds = "duration_seconds"
    case note
}

/// A set field's value in a neutral form that each format (SQLite, CSV, JSON) spells its own way.
public enum SetFieldValue: Equatable, Sendable {
    case null
    case text(String)
    case int(Int)
    /// A decimal number exactly as typed.
    case fixed(Fixed)
    case bool(Bool)

    /// The text, when this is text.
    @inlinable public var text: String? {
        if case .text(let s) = self { return s }
        return nil
    }

    /// The integer, read leniently from any form that holds a whole number.
    @inlinable public var int: Int? {
        switch self {
        case .int(let i): return i
        case .text(let s): return Int(s)
        case .fixed(let f): return f.thousandths % 1000 == 0 ? Int(f.thousandths / 1000) : nil
        case .bool(let b): return b ? 1 : 0
        case .null: return nil
        }
    }

    /// The flag: an integer is true when not zero (SQLite has no booleans).
    @inlinable public var bool: Bool? {
        switch self {
        case .bool(let b): return b
        case .int(let i): return i != 0
        case .text, .fixed, .null: return nil
        }
    }

    /// The decimal, parsed from text as typed; negative values only when `signed`.
    @inlinable public func fixed(signed: Bool) -> Fixed? {
        switch self {
        case .fixed(let f): return signed || f.thousandths >= 0 ? f : nil
        case .text(let s): return signed ? Fixed(parsingSigned: s) : Fixed(parsing: s)
        case .int(let i): return signed || i >= 0 ? Fixed(i) : nil
        case .bool, .null: return nil
        }
    }
}

extension SetValues {
    /// The value of one field.
    @inlinable
    public subscript(field: SetField) -> SetFieldValue {
        switch field {
        case .kind: .text(kind.rawValue)
        case .weight: weight.map { .fixed($0.value) } ?? .null
        case .weightUnit: weight.map { .text($0.unit.rawValue) } ?? .null
        case .bodyweight: .bool(bodyweight)
        case .reps: reps.map { .int($0) } ?? .null
        case .rpe: rpe.map { .fixed($0) } ?? .null
        case .rir: rir.map { .fixed($0) } ?? .null
        case .distance: distance.map { .fixed($0.value) } ?? .null
        case .distanceUnit: distance.map { .text($0.unit.rawValue) } ?? .null
        case .durationSeconds: durationSeconds.map { .int($0) } ?? .null
        case .note: note.map { .text($0) } ?? .null
        }
    }

    /// Values read field by field (from a stored row or a file). A field that cannot be read
    /// is absent; an unknown kind is a working set, a missing unit kilograms or metres.
    @inlinable
    public init(reading read: (SetField) -> SetFieldValue) {
        self.init(kind: read(.kind).text.flatMap(SetKind.init(rawValue:)) ?? .working)
        if let value = read(.weight).fixed(signed: true) {
            weight = Weight(value, read(.weightUnit).text.flatMap(WeightUnit.init(rawValue:)) ?? .kg)
        }
        bodyweight = read(.bodyweight).bool ?? false
        reps = read(.reps).int
        rpe = read(.rpe).fixed(signed: false)
        rir = read(.rir).fixed(signed: false)
        durationSeconds = read(.durationSeconds).int
        if let value = read(.distance).fixed(signed: false) {
            distance = Distance(value, read(.distanceUnit).text.flatMap(DistanceUnit.init(rawValue:)) ?? .m)
        }
        note = read(.note).text
    }
}
