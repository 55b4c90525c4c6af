/// What `gymlog chart` plots: one value per workout for one exercise.
public enum ChartMetric: String, CaseIterable, Sendable {
    /// Best estimated 1RM of the workout's working sets (kg).
    case e1rm
    /// Heaviest working weight (kg); for bodyweight sets, the heaviest added weight.
    case weight
    /// Session volume: the sum of weight x reps over working sets (kg).
    case volume

    /// How the metric is named in titles: `best e1RM`.
    public var label: String {
        switch self {
        case .e1rm: "best e1RM"
        case .weight: "heaviest weight"
        case .volume: "session volume"
        }
    }

    /// The metric's value for one workout's sets of one exercise, in kilograms, or nil when
    /// no set contributes (warm-ups never do; timed sets have no load).
    public func value(of sets: [LoggedSet], formula: E1RMFormula) -> Double? {
        switch self {
        case .volume:
            let total = sets.reduce(0) { $0 + workingVolume(of: $1) }
            return total > 0 ? total : nil
        case .e1rm, .weight:
            let wanted: RecordMetric = self == .e1rm ? .e1rm : .weight
            var best: Double?
            for set in sets {
                for v in recordValues(of: set, formula: formula) where v.metric == wanted {
                    if best == nil || v.value > best! { best = v.value }
                }
            }
            return best
        }
    }
}
