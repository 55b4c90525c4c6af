import Foundation

// The one rule for which sets an exercise takes: logging, `+`, `edit`, import and
// `exercises kind` all ask it, so a row never ends up with a weighted set and a run never
// gets reps.

extension ExerciseKind {
    /// The kind named on the command line: a raw value or a plain word for it
    /// (`weight`, `bw`, `duration`, `cardio`, `sled`...).
    public init?(typed: String) {
        switch typed.lowercased() {
        case "weighted", "weight", "weights", "reps": self = .weighted
        case "bodyweight", "bw", "body-weight", "calisthenics": self = .bodyweight
        case "timed", "time", "duration", "hold": self = .timed
        case "distance", "cardio", "run": self = .distance
        case "carry", "carries", "sled", "weight-distance": self = .carry
        default: return nil
        }
    }

    /// `weighted, bodyweight, timed, distance or carry`, for help and error texts.
    public static let typedNames = allCases.map(\.rawValue).dropLast().joined(separator: ", ")
        + " or " + (allCases.last?.rawValue ?? "")

    /// `a distance`: the kind as it qualifies a name in a sentence.
    var adjective: String {
        switch self {
        case .weighted: "a weight-and-reps"
        case .bodyweight: "a bodyweight"
        case .timed: "a timed"
        case .distance: "a distance"
        case .carry: "a weight-and-distance"
        }
    }

    /// `a distance exercise`: the kind as a sentence names it.
    public var phrase: String { adjective + " exercise" }

    /// What a set of this kind holds, with an example line for exercise `name` (lower case).
    public func shape(_ name: String) -> String {
        switch self {
        case .weighted: "e.g. `\(name) 100x5`"
        case .bodyweight: "reps with optional added or assisted load, e.g. `\(name) bw x8`, `\(name) bw+10x5`, `\(name) bw-20x8`"
        case .timed: "a duration, e.g. `\(name) 60s` or `\(name) 1:30`"
        case .distance: "distance and time, e.g. `\(name) 2000m 7:41`"
        case .carry: "e.g. `\(name) 40kg 50m`"
        }
    }

    /// The word that turns a name into another exercise of this kind (`barbell row`).
    var qualifier: String {
        switch self {
        case .weighted: "barbell"
        case .bodyweight: "bodyweight"
        case .timed: "timed"
        case .distance: "cardio"
        case .carry: "loaded"
        }
    }

    /// Whether a set of this shape belongs to an exercise of this kind.
    public func fits(_ v: SetValues) -> Bool {
        let externalLoad = v.weight != nil && !v.bodyweight
        switch self {
        case .weighted:
            return externalLoad && v.reps != nil && v.distance == nil
        case .bodyweight:
            guard v.distance == nil else { return false }
            return v.bodyweight ? (v.reps != nil || v.durationSeconds != nil) : (v.weight == nil && v.reps != nil)
        case .timed:
            return v.durationSeconds != nil && v.reps == nil && v.distance == nil
        case .distance:
            return (v.distance != nil || v.durationSeconds != nil) && v.reps == nil && !externalLoad
        case .carry:
            return v.distance != nil && externalLoad && v.reps == nil
        }
    }

    /// The set as an exercise of this kind holds it, when a reading loses nothing: the set
    /// itself when it fits already, nil when it has no such reading. `exercises kind` and
    /// `exercises merge` convert with it.
    ///
    /// Only what the load means moves, never a number: the kind says whether the body is part
    /// of the load. A bodyweight set's added load becomes the external load (`bw+70x5` ->
    /// `70x5`, `bw+10 60s` -> `10kg 60s`) and an external load becomes added load (`70x5` ->
    /// `bw+70x5`; a hold with none is a bodyweight hold, `60s` -> `bw 60s`). A bodyweight set
    /// with no load becomes a weighted set at 0 load in `unit` (`bw x12` -> `0x12`: the empty
    /// bar or machine the lifter typed as 0), and a 0 load on a bodyweight exercise is no load
    /// (`0x12` -> `bw x12`). Assistance (`bw-20x8`) has no reading outside bodyweight; reps,
    /// times and distances never appear or vanish, so a `plank 60s` has no weight-and-reps
    /// reading and a run none as a bodyweight set.
    public func converting(_ v: SetValues, unit: WeightUnit) -> SetValues? {
        if fits(v) { return v }
        var c = v
        if self == .bodyweight {
            guard !v.bodyweight else { return nil }
            c.bodyweight = true
            if let w = v.weight, w.value.isZero { c.weight = nil }
        } else {
            // Only a bodyweight set (flagged, or reps with no load as imports read them) moves.
            guard v.bodyweight || v.weight == nil else { return nil }
            if let w = v.weight, w.value.thousandths < 0 { return nil }
            c.bodyweight = false
            if c.weight == nil && self == .weighted && c.reps != nil { c.weight = Weight(Fixed(0), unit) }
        }
        return fits(c) ? c : nil
    }

    /// Nil when the set fits this kind; otherwise the sentence refusing it, naming the kind
    /// and what to type instead. `defaultUnit` is the unit a typed load needs no suffix in.
    /// An `edit` cannot move a set to another exercise, so `editing` says what the set lacks
    /// or has too many of instead of suggesting another name.
    public func refusal(of v: SetValues, exercise name: String, defaultUnit: WeightUnit = .kg, editing: Bool = false) -> String? {
        if fits(v) { return nil }
        let typedName = nameKey(name)
        // A weight and reps on a bodyweight exercise is the classic slip: say both readings.
        if self == .bodyweight, !v.bodyweight, let w = v.weight, let reps = v.reps, v.distance == nil {
            let load = Self.loadText(w, defaultUnit)
            return "\(name) is a bodyweight exercise: type `\(typedName) bw+\(load)x\(reps)` for \(w.value) \(w.unit.rawValue) added, "
                + "or `\(typedName) bw x\(reps)` for \(reps) reps"
        }
        var text = "\(name) is \(phrase) (\(shape(typedName)))"
        let other = v.exerciseKind
        if !editing, other != self, other.fits(v), let entry = Self.entryText(v, defaultUnit) {
            text += "; for \(other.adjective) \(typedName) use another name, "
                + "e.g. `\(other.qualifier) \(typedName) \(entry)`"
        } else {
            text += ": a set of it \(mismatch(v))"
        }
        return text
    }

    /// Why a set does not fit: the first thing it has that this kind has not, or lacks.
    func mismatch(_ v: SetValues) -> String {
        let externalLoad = v.weight != nil && !v.bodyweight
        switch self {
        case .weighted:
            if v.distance != nil { return "has no distance" }
            return externalLoad ? "needs reps" : "needs a weight"
        case .bodyweight:
            if v.distance != nil { return "has no distance" }
            return externalLoad ? "writes its load `bw+20` or `bw-20`" : "needs reps"
        case .timed:
            if v.reps != nil { return "has no reps" }
            return v.distance != nil ? "has no distance" : "needs a duration"
        case .distance:
            if v.reps != nil { return "has no reps" }
            return externalLoad ? "has no weight" : "needs a distance or a time"
        case .carry:
            if v.reps != nil { return "has no reps" }
            return externalLoad ? "needs a distance" : "needs a weight"
        }
    }

    /// The set as it would be typed (`70x8`, `bw+10x5`, `2000m 7:41`), nil when it has no measure.
    static func entryText(_ v: SetValues, _ defaultUnit: WeightUnit) -> String? {
        var parts: [String] = []
        var load = v.weight.map { loadText($0, defaultUnit) } ?? ""
        if v.bodyweight {
            load = "bw" + (v.weight.map { ($0.value.thousandths >= 0 ? "+" : "") + load } ?? "")
        }
        if let reps = v.reps {
            // `70x8` glued after a number, `bw x8` spaced after a word (as the README writes them).
            parts.append(load.isEmpty || load == "bw" ? "bw x\(reps)" : "\(load)x\(reps)")
        } else if !load.isEmpty {
            // Without reps a bare number would read as ambiguous, so the unit is always written.
            parts.append(v.bodyweight ? load : (v.weight?.description ?? load))
        }
        if let d = v.distance { parts.append(d.description) }
        if let s = v.durationSeconds { parts.append(formatDuration(s)) }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// `70` in the default unit, `155lb` otherwise.
    static func loadText(_ w: Weight, _ defaultUnit: WeightUnit) -> String {
        w.unit == defaultUnit ? w.value.description : w.description
    }
}
