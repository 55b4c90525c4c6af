/// What `gymlog chart` plots: one value per workout for one exercise.
public enum ChartMetric: String, CaseIterable, Sendable {
    /// Best estimated 1RM of the workout's working sets (kg).
    case e1rm
    /// Heaviest working weight (kg); for bodyweight sets, the heaviest added weight.
    case weight
    /// Session volume: the sum of weight x reps over working sets (kg).
    case volume
    /// Most reps in one working set (assisted bodyweight sets excluded).
    case reps
    /// Longest time of one set (seconds): a plank's hold, a run's time.
    case time
    /// Longest distance of one set (metres).
    case distance
    /// Best pace of a set with a distance and a time (seconds per kilometre; lower is better).
    case pace

    /// What a metric's values measure, so they can be shown in the user's units.
    public enum Quantity: Sendable {
        case kilograms, count, seconds, meters, secondsPerKilometre
    }

    /// The stored unit of the metric's values.
    public var quantity: Quantity {
        switch self {
        case .e1rm, .weight, .volume: .kilograms
        case .reps: .count
        case .time: .seconds
        case .distance: .meters
        case .pace: .secondsPerKilometre
        }
    }

    /// True where a smaller value is the better one.
    public var lowerIsBetter: Bool { self == .pace }

    /// How the metric is named in titles: `best e1RM`.
    public var label: String {
        switch self {
        case .e1rm: "best e1RM"
        case .weight: "heaviest weight"
        case .volume: "session volume"
        case .reps: "most reps"
        case .time: "longest time"
        case .distance: "longest distance"
        case .pace: "best pace"
        }
    }

    /// The metrics worth charting for an exercise of `kind`, best first; `gymlog chart`
    /// without `--metric` shows the first one that has data, then tries the rest.
    public static func preferred(for kind: ExerciseKind) -> [ChartMetric] {
        let first: [ChartMetric]
        switch kind {
        case .bodyweight: first = [.weight, .reps]
        case .timed: first = [.time]
        case .distance: first = [.pace, .time, .distance]
        default: first = [.e1rm, .weight, .volume]
        }
        return first + allCases.filter { !first.contains($0) }
    }

    /// The metric's value for one workout's sets of one exercise, in its `quantity`, or nil
    /// when no set contributes (warm-ups never do).
    public func value(of sets: [LoggedSet], formula: E1RMFormula) -> Double? {
        switch self {
        case .volume:
            // The session-volume record's own quantity (external load only), so the chart's
            // best point is the record `prs` shows.
            var tally = VolumeTally()
            for set in sets { tally.add(set.values) }
            return tally.kilograms > 0 ? tally.kilograms : nil
        case .time:
            // Distance sets' times are not `duration` records, so they are read here directly.
            return sets.filter(\.kind.countsForRecords).compactMap(\.durationSeconds).filter { $0 > 0 }.max().map(Double.init)
        case .reps:
            // Any working set's reps, except assisted bodyweight sets (easier than the real thing).
            return sets.filter { $0.kind.countsForRecords && !($0.bodyweight && ($0.weight?.value.thousandths ?? 0) < 0) }
                .compactMap(\.reps).filter { $0 > 0 }.max().map(Double.init)
        case .e1rm, .weight, .distance, .pace:
            let wanted: RecordMetric = switch self {
            case .e1rm: .e1rm
            case .weight: .weight
            case .distance: .distance
            default: .pace
            }
            var best: Double?
            for set in sets {
                for v in recordValues(of: set, formula: formula) where v.metric == wanted && wanted.improves(v.value, on: best) {
                    best = v.value
                }
            }
            return best
        }
    }
}
