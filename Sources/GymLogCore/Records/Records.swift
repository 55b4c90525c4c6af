/// How the estimated one-rep max is computed. Epley by default, Brzycki selectable in the config.
public enum E1RMFormula: String, CaseIterable, Sendable {
    case epley, brzycki

    /// Sets above this many reps give estimates too far apart between formulas to trust, so
    /// they count for the rep-max table's neighbours and volume but not for e1RM.
    public static let maxReps = 12

    /// The estimated 1RM for `weight` lifted `reps` times (in whatever unit `weight` is in).
    public func estimate(weight: Double, reps: Int) -> Double? {
        guard reps >= 1, reps <= Self.maxReps, weight > 0 else { return nil }
        if reps == 1 { return weight }
        switch self {
        case .epley: return weight * (1 + Double(reps) / 30)
        case .brzycki: return weight * 36 / (37 - Double(reps))
        }
    }
}

/// The kinds of personal record gymlog keeps for each exercise.
public enum RecordMetric: String, CaseIterable, Sendable, Codable {
    /// Heaviest load (kg), any rep count.
    case weight
    /// Best estimated 1RM (kg).
    case e1rm
    /// Heaviest load (kg) for exactly N reps, N in 1...12 (the rep-max table).
    case repMax = "rep_max"
    /// Best weight x reps in one set (kg).
    case setVolume = "set_volume"
    /// Best total working volume of the exercise in one workout (kg).
    case sessionVolume = "session_volume"
    /// Most reps in one bodyweight set.
    case reps
    /// Longest timed set (seconds).
    case duration
    /// Longest distance in one set (metres).
    case distance

    public static let repMaxRange = 1...12

    public func label(reps: Int) -> String {
        switch self {
        case .weight: "heaviest weight"
        case .e1rm: "best e1RM"
        case .repMax: "\(reps)RM"
        case .setVolume: "best set volume"
        case .sessionVolume: "best session volume"
        case .reps: "most reps"
        case .duration: "longest time"
        case .distance: "longest distance"
        }
    }
}

/// A value a set achieves on one metric; `reps` is the rep count for `.repMax`, else 0.
public struct RecordValue: Hashable, Sendable {
    public var metric: RecordMetric
    public var reps: Int
    public var value: Double
    public init(_ metric: RecordMetric, reps: Int = 0, _ value: Double) { self.metric = metric; self.reps = reps; self.value = value }
}

/// The per-set record values of a set (everything but session volume, which depends on the
/// workout). Warm-ups achieve nothing. Loads compare in kilograms whatever unit was typed.
public func recordValues(of set: LoggedSet, formula: E1RMFormula) -> [RecordValue] {
    let set = set.values
    guard set.kind.countsForRecords else { return [] }
    var values: [RecordValue] = []
    if set.bodyweight {
        if let reps = set.reps, reps > 0 { values.append(RecordValue(.reps, Double(reps))) }
        if let added = set.weight, added.value.thousandths > 0, let reps = set.reps, reps > 0 {
            values.append(RecordValue(.weight, added.kilograms))
            if RecordMetric.repMaxRange.contains(reps) { values.append(RecordValue(.repMax, reps: reps, added.kilograms)) }
        }
    } else if let w = set.weight, w.value.thousandths > 0, let reps = set.reps, reps > 0 {
        let kg = w.kilograms
        values.append(RecordValue(.weight, kg))
        if let e = formula.estimate(weight: kg, reps: reps) { values.append(RecordValue(.e1rm, e)) }
        if RecordMetric.repMaxRange.contains(reps) { values.append(RecordValue(.repMax, reps: reps, kg)) }
        values.append(RecordValue(.setVolume, kg * Double(reps)))
    }
    if let d = set.durationSeconds, d > 0, set.distance == nil { values.append(RecordValue(.duration, Double(d))) }
    if let dist = set.distance, dist.meters > 0 { values.append(RecordValue(.distance, dist.meters)) }
    return values
}

/// The working volume a set adds to its workout's session volume, in kg.
public func workingVolume(of set: LoggedSet) -> Double {
    let set = set.values
    guard set.kind.countsForRecords, !set.bodyweight, let w = set.weight, let reps = set.reps else { return 0 }
    return w.kilograms * Double(reps)
}

/// True when `candidate` beats `current` by more than floating-point noise.
@inlinable
public func beats(_ candidate: Double, _ current: Double?) -> Bool {
    guard let current else { return candidate > 0 }
    return candidate > current + 1e-9
}
