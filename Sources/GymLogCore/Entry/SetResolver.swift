import Foundation

/// Resolves parsed specs into stored values. A typed unit wins; an omitted unit is the
/// unit of the set being repeated (so `+ 230` after `225lb x5` stays in pounds), else the
/// user's default unit.
public enum SetResolver {
    public static func values(of spec: SetSpec, defaultUnit: WeightUnit) -> SetValues {
        var v = SetValues(kind: spec.kind, reps: spec.reps, rpe: spec.rpe, rir: spec.rir, durationSeconds: spec.durationSeconds,
                          distance: spec.distance, note: spec.note)
        apply(spec.load, to: &v, fallbackUnit: defaultUnit)
        return v
    }

    /// The last set with the patch's changes. The note is not carried over unless retyped; an
    /// RPE or RIR typed replaces the other, so a set says how hard it was one way.
    public static func values(repeating last: SetValues, with patch: SetPatch, defaultUnit: WeightUnit = .kg) -> SetValues {
        var v = last
        v.note = patch.note
        if let kind = patch.kind { v.kind = kind }
        if let reps = patch.reps { v.reps = reps }
        if let rpe = patch.rpe { v.rpe = rpe; v.rir = nil }
        if let rir = patch.rir { v.rir = rir; v.rpe = nil }
        if let d = patch.durationSeconds { v.durationSeconds = d }
        if let d = patch.distance { v.distance = d }
        if patch.load != nil { apply(patch.load, to: &v, fallbackUnit: last.weight?.unit ?? defaultUnit) }
        return v
    }

    /// Like `values(repeating:with:)` but for `edit`: an omitted note keeps the stored one.
    public static func values(editing current: SetValues, with patch: SetPatch, defaultUnit: WeightUnit = .kg) -> SetValues {
        var v = values(repeating: current, with: patch, defaultUnit: defaultUnit)
        if patch.note == nil { v.note = current.note }
        return v
    }

    private static func apply(_ load: LoadSpec?, to v: inout SetValues, fallbackUnit: WeightUnit) {
        switch load {
        case nil: break
        case .weight(let value, let unit)?:
            v.weight = Weight(value, unit ?? fallbackUnit); v.bodyweight = false
        case .bodyweight?:
            v.weight = nil; v.bodyweight = true
        case .bodyweightPlus(let value, let unit)?:
            v.weight = Weight(value, unit ?? fallbackUnit); v.bodyweight = true
        }
    }
}
