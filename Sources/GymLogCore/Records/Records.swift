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
///
/// Values are stored in one unit per quantity (kilograms, seconds, metres, seconds per
/// kilometre) and converted to the user's unit only for display.
public enum RecordMetric: String, CaseIterable, Sendable, Codable {
    /// Heaviest load (kg), any rep count; for bodyweight sets, the heaviest added load.
    case weight
    /// Best estimated 1RM (kg).
    case e1rm
    /// Heaviest load (kg) for exactly N reps, N in 1...12 (the rep-max table).
    case repMax = "rep_max"
    /// Best weight x reps in one set (kg).
    case setVolume = "set_volume"
    /// Best total working volume of the exercise in one workout (kg); it belongs to the workout.
    case sessionVolume = "session_volume"
    /// Most reps in one bodyweight set (assisted sets excluded).
    case reps
    /// Longest timed set (seconds).
    case duration
    /// Longest distance in one set (metres).
    case distance
    /// Fastest time (seconds) for one distance; `reps` holds the distance in whole metres,
    /// so every distance logged has its own record, as every rep count has a rep max.
    case fastest = "fastest_time"
    /// Best pace of any set with a distance and a time (seconds per kilometre).
    case pace = "best_pace"

    public static let repMaxRange = 1...12

    /// True where a smaller value is the better one (times and paces).
    public var lowerIsBetter: Bool { self == .fastest || self == .pace }

    /// True when `candidate` beats `current` for this metric (any value beats none). A record
    /// is beaten, not equalled: a value within `tie(with:)` of it is the same record.
    public func improves(_ candidate: Double, on current: Double?) -> Bool {
        guard candidate > 0 else { return false }
        guard let current else { return true }
        let tie = tie(with: current)
        return lowerIsBetter ? candidate < current - tie : candidate > current + tie
    }

    /// How close to `current` a value ties with it. A load typed in the other unit is the
    /// load it converts to (`220.46lb` is 99.9998 kg, `220.5lb` 100.017 kg: both are 100 kg
    /// on the bar), so loads tie within 50 g, less than any plate, and volumes within 0.05 %;
    /// counts, times and distances are exact.
    func tie(with current: Double) -> Double {
        switch self {
        case .weight, .e1rm, .repMax: 0.05
        case .setVolume, .sessionVolume: max(0.05, current * 0.0005)
        case .pace: 0.05
        case .reps, .duration, .distance, .fastest: 1e-9
        }
    }

    /// How the record is named: `5RM`, `best e1RM`, `fastest 5km`; `reps` is the rep count of
    /// a rep max or the distance key (metres) of a fastest time.
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
        case .fastest: "fastest \(formatMeters(Double(reps)))"
        case .pace: "best pace"
        }
    }

    /// The key under which a distance's fastest time is kept: whole metres.
    public static func distanceKey(meters: Double) -> Int { Int(meters.rounded()) }
}

/// A value a set achieves on one metric; `reps` is the rep count for `.repMax`, the distance
/// key for `.fastest`, else 0.
public struct RecordValue: Hashable, Sendable {
    public var metric: RecordMetric
    public var reps: Int
    public var value: Double
    public init(_ metric: RecordMetric, reps: Int = 0, _ value: Double) { self.metric = metric; self.reps = reps; self.value = value }
}

/// The per-set record values of a set (everything but session volume, which depends on the
/// workout). Warm-ups achieve nothing. Loads compare in kilograms whatever unit was typed,
/// distances in metres, paces in seconds per kilometre.
public func recordValues(of set: LoggedSet, formula: E1RMFormula) -> [RecordValue] {
    let set = set.values
    guard set.kind.countsForRecords else { return [] }
    var values: [RecordValue] = []
    if set.bodyweight {
        // An assisted set (bw-20) is easier than bodyweight: its reps are no record.
        let assisted = (set.weight?.value.thousandths ?? 0) < 0
        if let reps = set.reps, reps > 0, !assisted { values.append(RecordValue(.reps, Double(reps))) }
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
    if let dist = set.distance, dist.meters > 0 {
        values.append(RecordValue(.distance, dist.meters))
        if let d = set.durationSeconds, d > 0, RecordMetric.distanceKey(meters: dist.meters) > 0 {
            let key = RecordMetric.distanceKey(meters: dist.meters)
            values.append(RecordValue(.fastest, reps: key, Double(d)))
            // A GPS 5.07 km run is a 5 km, with its own time: kept under the standard distance
            // too, so it is a `fastest 5km` record (issue 48). Not at a speed no one covers on
            // foot (a glitch, or a bike, whose standard distances are not a runner's).
            if let standard = RunningRecords.standardDistance(of: dist.meters), RecordMetric.distanceKey(meters: standard.meters) != key,
               RunningRecords.humanlyPossible(meters: standard.meters, seconds: Double(d)) {
                values.append(RecordValue(.fastest, reps: RecordMetric.distanceKey(meters: standard.meters), Double(d)))
            }
            if let pace = secondsPerKilometre(of: set) { values.append(RecordValue(.pace, pace)) }
        }
    }
    return values
}

/// Seconds per kilometre of a set with a distance and a time, or nil.
public func secondsPerKilometre(of set: SetValues) -> Double? {
    guard let dist = set.distance, dist.meters > 0, let d = set.durationSeconds, d > 0 else { return nil }
    return Double(d) / (dist.meters / 1000)
}

/// The load a bodyweight set moved, in kg: the bodyweight of that day plus the added load
/// (minus an assisted one); nil for other sets or with no bodyweight known.
public func totalKilograms(of set: SetValues, bodyweight: Weight?) -> Double? {
    guard set.bodyweight, let bodyweight else { return nil }
    return bodyweight.kilograms + (set.weight?.kilograms ?? 0)
}

/// The working volume a set adds to its workout, in kg: weight x reps of a working set. A
/// bodyweight set counts its total (`totalKilograms`) when `bodyweight` (that day's) is given,
/// else its added load at least (an assisted set, nothing): the workout's volume in `finish`
/// and `stats` counts what was moved, as far as it is known (`stats` says when a bodyweight
/// was missing). The session-volume record keeps to external load (`VolumeTally`).
public func workingVolume(of set: LoggedSet, bodyweight: Weight? = nil) -> Double {
    let set = set.values
    guard set.kind.countsForRecords, let reps = set.reps else { return 0 }
    if set.bodyweight {
        guard let total = totalKilograms(of: set, bodyweight: bodyweight) else { return max(0, set.weight?.kilograms ?? 0) * Double(reps) }
        return total * Double(reps)
    }
    guard let w = set.weight else { return 0 }
    return w.kilograms * Double(reps)
}

/// The working volume of one exercise in one workout (the session-volume record's quantity),
/// kept as exact sums: weight in thousandths of its unit times reps, kilograms and pounds
/// apart. Sets added and removed in any order leave the same total, so a running tally (the
/// store's `session_tallies`) and a recount from the sets agree to the last bit.
public struct VolumeTally: Equatable, Sendable {
    public var kilogramThousandths: Int64
    public var poundThousandths: Int64

    public init(kilogramThousandths: Int64 = 0, poundThousandths: Int64 = 0) {
        self.kilogramThousandths = kilogramThousandths; self.poundThousandths = poundThousandths
    }

    /// Adds what `set` counts: `workingVolume(of:)` without a bodyweight, i.e. a working
    /// set's added load (records keep to added load, see `workingVolume`).
    public mutating func add(_ set: SetValues) {
        guard set.kind.countsForRecords, !set.bodyweight, let reps = set.reps, let weight = set.weight else { return }
        // A set inside `SetLimits` never overflows; one stored from elsewhere past them (an
        // older version kept what a server sent) adds nothing rather than trapping.
        let (volume, overflow) = weight.value.thousandths.multipliedReportingOverflow(by: Int64(reps))
        guard !overflow else { return }
        switch weight.unit {
        case .kg: Self.add(volume, to: &kilogramThousandths)
        case .lb: Self.add(volume, to: &poundThousandths)
        }
    }

    private static func add(_ volume: Int64, to total: inout Int64) {
        let (sum, overflow) = total.addingReportingOverflow(volume)
        if !overflow { total = sum }
    }

    /// The total in kg.
    public var kilograms: Double {
        (Double(kilogramThousandths) + Double(poundThousandths) * WeightUnit.kilogramsPerPound) / 1000
    }
}

/// Bodyweight over time, for the bodyweight of the day of a set: the last entry on or before it.
public struct BodyweightTimeline: Sendable {
    /// Entries oldest first: when measured (ms since the epoch) and the weight as typed.
    public private(set) var entries: [(at: Int64, weight: Weight)]

    /// A timeline from entries in any order.
    public init(_ entries: [(at: Int64, weight: Weight)]) { self.entries = entries.sorted { $0.at < $1.at } }

    /// The weight of the last entry on or before `millis`; nil before the first.
    public func weight(at millis: Int64) -> Weight? {
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].at <= millis { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : entries[low - 1].weight
    }

    /// The working volume of `sets`, each bodyweight set on that day's total.
    public func workingVolume(of sets: [LoggedSet]) -> Double {
        sets.reduce(0) { $0 + GymLogCore.workingVolume(of: $1, bodyweight: $1.values.bodyweight ? weight(at: $1.performedAt) : nil) }
    }
}

/// `5km`, `400m`, `1.5km`, `1609.3m`: a distance in metres as a runner reads it (kilometres
/// from 1000 m on when they are whole hundreds of metres).
public func formatMeters(_ meters: Double) -> String {
    let decimetres = (meters * 10).rounded()
    if decimetres >= 10_000, decimetres.truncatingRemainder(dividingBy: 1000) == 0 {
        let hundreds = Int64(decimetres / 1000)
        return "\(hundreds / 10)" + (hundreds % 10 == 0 ? "" : ".\(hundreds % 10)") + "km"
    }
    let tenths = Int64(decimetres)
    return "\(tenths / 10)" + (tenths % 10 == 0 ? "" : ".\(tenths % 10)") + "m"
}

/// `4:52` for a pace or time in seconds, to the nearest second.
public func formatPace(secondsPerUnit: Double) -> String { formatClock(Int(secondsPerUnit.rounded())) }

/// `0:45`, `7:41`, `1:02:03`: a clock reading, never bare seconds (a pace of `45s/km` reads oddly).
public func formatClock(_ seconds: Int) -> String {
    seconds < 60 ? "0:\(seconds < 10 ? "0" : "")\(seconds)" : formatDuration(seconds)
}
