import Foundation
import GymLogCore
import GymLogStore

/// How sets, records and PR messages are shown.
extension Render {
    /// e1RM of a set in the unit it was typed in, or nil when it has none.
    static func e1rm(_ set: LoggedSet, _ formula: E1RMFormula) -> String? {
        guard set.kind.countsForRecords, !set.bodyweight, let w = set.weight, let reps = set.reps,
              let e = formula.estimate(weight: w.value.doubleValue, reps: reps) else { return nil }
        return number(e) + w.unit.rawValue
    }

    /// A record value for display, in the unit of the set that holds it where it is a load.
    static func recordValue(metric: RecordMetric, value: Double, set: LoggedSet, settings: Settings) -> String {
        let unit = set.weight?.unit ?? settings.defaultUnit
        func load(_ kg: Double, _ u: WeightUnit) -> String { number(u == .kg ? kg : kg / WeightUnit.kilogramsPerPound) + u.rawValue }
        switch metric {
        case .weight, .repMax:
            if let w = set.weight { return w.description }
            return load(value, unit)
        case .e1rm, .setVolume: return load(value, unit)
        case .sessionVolume: return load(value, settings.defaultUnit)
        case .reps: return "\(Int(value)) reps"
        case .duration: return formatDuration(Int(value))
        case .distance: return set.distance?.description ?? "\(number(value))m"
        }
    }

    /// The echo of one stored set: `Bench Press #2  100kg x 5 @8  e1RM 116.7kg  PR! 5RM, e1RM`.
    /// `style` highlights the PR (colour on a terminal only).
    static func stored(_ s: StoredSet, exercise: Exercise, settings: Settings, style: Style = .stdout) -> String {
        var line = "  \(exercise.name) #\(s.order)  \(s.set.summary)"
        if let e = e1rm(s.set, settings.e1rmFormula) { line += style.dim("  e1RM \(e)") }
        let beaten = s.records.filter { $0.previous != nil }
        if !beaten.isEmpty {
            let labels = beaten.map { b in
                let was = b.previous.map { " (was \(previousText(b.metric, $0, s.set, settings)))" } ?? ""
                return b.metric.label(reps: b.reps) + was
            }
            line += "  " + style.record("PR! " + labels.joined(separator: ", "))
        }
        return line
    }

    private static func previousText(_ metric: RecordMetric, _ value: Double, _ set: LoggedSet, _ settings: Settings) -> String {
        var probe = set
        probe.weight = nil
        return recordValue(metric: metric, value: value, set: probe, settings: settings)
    }

    /// The records table; on a terminal the record values stand out and where they were set is dim.
    static func records(_ list: [(exercise: Exercise, records: [RecordEntry])], settings: Settings, style: Style = .plain) -> [String] {
        var lines: [String] = []
        for (exercise, records) in list {
            lines.append(style.bold(exercise.name))
            let dated = { (r: RecordEntry) in
                style.record(recordValue(metric: r.metric, value: r.value, set: r.set, settings: settings))
                    + style.dim("  (\(r.set.summary), \(String(localDateTime(millis: r.set.performedAt, utcOffsetSeconds: r.set.utcOffsetSeconds).prefix(10))))")
            }
            for metric in [RecordMetric.weight, .e1rm, .setVolume, .sessionVolume, .reps, .duration, .distance] {
                if let r = records.first(where: { $0.metric == metric }) {
                    lines.append("  " + TerminalText.pad(metric.label(reps: 0), to: 20) + dated(r))
                }
            }
            let repMaxes = records.filter { $0.metric == .repMax }.sorted { $0.reps < $1.reps }
            if !repMaxes.isEmpty {
                lines.append("  rep maxes           " + repMaxes.map { "\($0.reps)RM " + style.record(recordValue(metric: .repMax, value: $0.value, set: $0.set, settings: settings)) }.joined(separator: style.dim(" · ")))
            }
        }
        return lines
    }
}
