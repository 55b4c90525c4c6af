import Foundation

/// The one set of limits a set meets however it enters gymlog: typed in the entry language,
/// edited, or read from an export. The entry parser checks them token by token (to point at
/// the bad number); importers check whole values with `violation(_:)`.
public enum SetLimits {
    /// The heaviest load, added load or assistance, in the unit it was given in.
    public static let maxLoad = Fixed(2000)
    /// The fewest and most reps in one counted set (a routine's plan, a warm-up ramp). The most
    /// is above anything lifted, and above what real exports hold (1000 reps on a hip adductor).
    public static let reps: ClosedRange<Int> = 1...9999
    /// The reps a performed set may have: 0 is a missed attempt (`deadlift 150x0 f`), which
    /// needs a load to have been missed.
    public static let performedReps: ClosedRange<Int> = 0...reps.upperBound
    /// The lowest and highest RPE; RPE goes in steps of `rpeStep`.
    public static let rpe: ClosedRange<Fixed> = Fixed(1)...Fixed(10)
    /// RPE is 8 or 8.5, never 8.3; RIR goes in the same steps (`rir1.5`).
    public static let rpeStep = Fixed(thousandths: 500)
    /// The fewest and most reps in reserve: 0 is a set taken to the last rep.
    public static let rir: ClosedRange<Fixed> = Fixed(0)...Fixed(10)
    /// The longest set: a day.
    public static let maxDurationSeconds = 86_400
    /// The longest distance, in the unit it was given in: 10,000 km in metres. Only the
    /// impossible is refused; a 122 km ride written in metres is real.
    public static let maxDistance = Fixed(10_000_000)
    /// The most sets a count (`100x5x3`) may ask for.
    public static let setCount: ClosedRange<Int> = 1...50

    /// Whether `value` is a valid RPE.
    public static func isValidRPE(_ value: Fixed) -> Bool {
        rpe.contains(value) && value.thousandths % rpeStep.thousandths == 0
    }

    /// Whether `value` is a valid RIR.
    public static func isValidRIR(_ value: Fixed) -> Bool {
        rir.contains(value) && value.thousandths % rpeStep.thousandths == 0
    }

    /// Why `values` is outside the limits, naming the value and the limit; nil when it is inside.
    ///
    /// A negative load is assistance, so it needs a bodyweight set (`bw-20x8`); a load alone
    /// is not a set (`100` needs reps: `100x5`). A load with 0 reps is a missed attempt, and
    /// 0 reps need a load (the bar's or the lifter's own) and nothing timed or measured. A
    /// weight of 0 with reps is a set at no load (an empty machine) of a loaded exercise; a
    /// zero added load, distance or duration is not a value but an absence, refused here
    /// because a reader that meant "none" leaves the field out.
    public static func violation(_ v: SetValues) -> String? {
        if v.reps == nil && v.durationSeconds == nil && v.distance == nil {
            let load = v.bodyweight ? "a bodyweight set" : v.weight.map { "weight \($0)" } ?? "a set"
            return "\(load) with no reps, time or distance; a set needs one, e.g. `\(v.bodyweight ? "bw" : v.weight.map { "\($0.value)" } ?? "100")x5`"
        }
        if let w = v.weight {
            if w.value.isZero && (v.bodyweight || v.reps == nil) {
                return "weight \(w) must be more than 0; leave it empty for none"
            }
            if w.value.thousandths < 0 && !v.bodyweight {
                return "weight \(w) is negative, which only an assisted bodyweight set can be (e.g. `bw-20x8`)"
            }
            let magnitude = Fixed(thousandths: abs(w.value.thousandths))
            if magnitude > maxLoad {
                return "\(w.value.thousandths < 0 ? "assistance" : "weight") \(w) is more than \(maxLoad)\(w.unit.rawValue), the most a set can hold"
            }
        }
        if let r = v.reps, !performedReps.contains(r) {
            return "reps \(r) is not between \(performedReps.lowerBound) and \(performedReps.upperBound)"
        }
        if v.reps == 0 {
            if v.durationSeconds != nil || v.distance != nil {
                return "0 reps with a time or distance; leave reps empty for a timed or distance set"
            }
            if !v.bodyweight && (v.weight?.value.isZero ?? true) {
                return "0 reps with no load; a missed attempt needs the load that was missed, e.g. `150x0 f`"
            }
        }
        if let e = v.rpe, !isValidRPE(e) {
            return "RPE \(e) is not between \(rpe.lowerBound) and \(rpe.upperBound) in steps of \(rpeStep)"
        }
        if let r = v.rir, !isValidRIR(r) {
            return "RIR \(r) is not between \(rir.lowerBound) and \(rir.upperBound) in steps of \(rpeStep)"
        }
        if let d = v.durationSeconds {
            if d <= 0 { return "duration \(d)s must be more than 0" }
            if d > maxDurationSeconds { return "duration \(d)s is more than 24h, the longest a set can be" }
        }
        if let d = v.distance {
            if d.value.thousandths <= 0 { return "distance \(d) must be more than 0" }
            if d.value > maxDistance { return "distance \(d) is more than \(maxDistance)\(d.unit.rawValue), the longest a set can be" }
        }
        return nil
    }
}
