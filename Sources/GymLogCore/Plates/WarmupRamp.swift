/// One step of a warm-up ramp as configured: the empty bar, or a percentage of the working
/// weight, for some reps (`bar x10`, `60% x3`).
public struct WarmupStep: Equatable, Sendable, CustomStringConvertible {
    /// The share of the working weight, in percent; nil for the empty bar.
    public var percent: Fixed?
    public var reps: Int

    public init(percent: Fixed?, reps: Int) { self.percent = percent; self.reps = reps }

    /// `bar x10`, `60% x3`: the config's spelling.
    public var description: String { (percent.map { "\($0)%" } ?? "bar") + " x\(reps)" }
}

/// One warm-up set to do: its load, its reps and, on a barbell, the plates that make it.
public struct WarmupSet: Equatable, Sendable {
    public var weight: Fixed
    public var reps: Int
    /// The bar and plates (`loading.total` is `weight`); nil for dumbbells, a stack, a kettlebell.
    public var loading: PlateLoading?

    public init(loading: PlateLoading, reps: Int) { weight = loading.total; self.reps = reps; self.loading = loading }
    public init(weight: Fixed, reps: Int) { self.weight = weight; self.reps = reps; loading = nil }

    /// The empty bar.
    public var isBarOnly: Bool { loading?.perSide.isEmpty ?? false }
}

/// What a ramp's loads are made with.
public enum WarmupLoads: Equatable, Sendable {
    /// A bar and plates, from the empty bar; each step is rounded to what the plates make, or to
    /// `roundTo` when the config rounds programs (`[plates] lb_round = 5`) and the plates make it.
    case plates(PlateInventory, roundTo: Fixed?)
    /// Dumbbells, a kettlebell, a stack: no bar; each step is rounded to a multiple of the step.
    case steps(Fixed)

    /// The loads for an exercise of `equipment` in `unit` (nil equipment: a barbell, as before;
    /// an EZ or trap bar ramps from its own bar).
    public static func of(_ equipment: Equipment?, unit: WeightUnit, settings: Settings) -> WarmupLoads {
        guard let equipment, !equipment.usesBarAndPlates else {
            return .plates(settings.plates(unit, for: equipment), roundTo: settings.roundTo(unit))
        }
        return .steps(equipment.isDumbbells ? settings.dumbbellStep(unit) : settings.roundTo(unit) ?? StepRounding.standard.step(unit))
    }

    /// The empty bar, when there is one.
    public var bar: Fixed? {
        if case .plates(let inventory, _) = self { return inventory.bar }
        return nil
    }
}

/// The warm-up ramp from the empty bar to a working weight (`warmup squat 140`).
public enum WarmupRamp {
    /// The default ramp: the empty bar for 10, then 45%, 60%, 75% and 85% of the working weight
    /// for 5, 3, 2 and 1. For 140 kg on standard plates: bar x10, 62.5x5, 85x3, 105x2, 120x1.
    public static let defaultSteps = [
        WarmupStep(percent: nil, reps: 10), WarmupStep(percent: Fixed(45), reps: 5), WarmupStep(percent: Fixed(60), reps: 3),
        WarmupStep(percent: Fixed(75), reps: 2), WarmupStep(percent: Fixed(85), reps: 1),
    ]

    /// The sets to do before `working`: each step's share of it rounded to the nearest load
    /// `loads` make (the lighter on a tie), kept only when heavier than the set before it and
    /// lighter than `working`, so a light working weight gets a shorter ramp. The bar step is
    /// kept when there is a bar and `working` is heavier than it. Empty when nothing is lighter.
    public static func sets(to working: Fixed, steps: [WarmupStep], loads: WarmupLoads) -> [WarmupSet] {
        var out: [WarmupSet] = []
        var last: Fixed?
        for step in steps {
            let set: WarmupSet
            switch (loads, step.percent) {
            case (.plates(let inventory, _), nil): set = WarmupSet(loading: PlateLoading(bar: inventory.bar, perSide: []), reps: step.reps)
            case (.steps, nil): continue
            case (.plates(let inventory, let roundTo), let percent?):
                let stepped = roundTo.flatMap { nearestMultiple(working, percent: percent, step: $0) }
                    .flatMap { PlateCalculator.loading(for: $0, with: inventory) }
                guard let loading = stepped ?? round(working, percent: percent, inventory: inventory) else { continue }
                set = WarmupSet(loading: loading, reps: step.reps)
            case (.steps(let size), let percent?):
                guard let weight = nearestMultiple(working, percent: percent, step: size), weight.thousandths > 0 else { continue }
                set = WarmupSet(weight: weight, reps: step.reps)
            }
            guard set.weight < working, last.map({ set.weight > $0 }) ?? true else { continue }
            out.append(set)
            last = set.weight
        }
        return out
    }

    /// `percent` of `working` rounded to the nearest multiple of `step`, the lighter on a tie.
    static func nearestMultiple(_ working: Fixed, percent: Fixed, step: Fixed) -> Fixed? {
        guard step.thousandths > 0 else { return nil }
        // target = working * percent / 100 in thousandths = numerator / 100_000; in steps: / (100_000 * step).
        let numerator = working.thousandths * percent.thousandths, denominator = 100_000 * step.thousandths
        let below = numerator / denominator, remainder = numerator - below * denominator
        let steps = remainder * 2 > denominator ? below + 1 : below
        return Fixed(thousandths: steps * step.thousandths)
    }

    /// `percent` of `working`, exactly (a rational number of thousandths), rounded to the
    /// nearest load the plates make; the lighter on a tie; nil under the bar.
    static func round(_ working: Fixed, percent: Fixed, inventory: PlateInventory) -> PlateLoading? {
        // target = working * percent / 100, in thousandths: numerator / 100_000.
        let numerator = working.thousandths * percent.thousandths
        let scale: Int64 = 100_000
        let floor = Fixed(thousandths: numerator / scale)
        let ceiling = Fixed(thousandths: (numerator + scale - 1) / scale)
        let below = PlateCalculator.nearestLoads(to: floor, with: inventory).below
        let above = PlateCalculator.nearestLoads(to: ceiling, with: inventory).above
        guard let below else { return nil }
        guard let above else { return below }
        let down = numerator - below.total.thousandths * scale, up = above.total.thousandths * scale - numerator
        return up < down ? above : below
    }

    /// The entry line that logs `sets` as warm-ups of `exercise`: `squat w20x10 w60x5`. The
    /// unit is written only when it is not the configured one, as a lifter would type it.
    public static func entryLine(exercise: String, sets: [WarmupSet], unit: WeightUnit, defaultUnit: WeightUnit) -> String {
        let suffix = unit == defaultUnit ? "" : unit.rawValue
        return ([exercise] + sets.map { "w\($0.weight)\(suffix)x\($0.reps)" }).joined(separator: " ")
    }

    /// The most steps a ramp may have.
    public static let maxSteps = 12

    /// Reads the config's ramp, `bar x10, 45% x5, 60% x3` (commas between steps; a step is `bar`
    /// or a percentage under 100, then `x` and reps), or says what is wrong with it.
    public static func parseSteps(_ text: String) -> Result<[WarmupStep], PlateInputError> {
        let items = text.split(separator: ",").map { $0.filter { !$0.isWhitespace } }.filter { !$0.isEmpty }
        guard !items.isEmpty else { return .failure(PlateInputError("is empty; list the steps, e.g. \"bar x10, 50% x5, 75% x3\"")) }
        guard items.count <= maxSteps else {
            return .failure(PlateInputError("has \(items.count) steps; at most \(maxSteps) are supported"))
        }
        var steps: [WarmupStep] = []
        for item in items {
            let parts = item.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            let example = "write `bar x10` or a percentage and reps like `60% x3`"
            guard parts.count == 2, let reps = Int(parts[1]) else {
                return .failure(PlateInputError("has '\(item)', which is not a step; \(example)"))
            }
            guard SetLimits.reps.contains(reps) else {
                return .failure(PlateInputError("has '\(item)': reps must be between \(SetLimits.reps.lowerBound) and \(SetLimits.reps.upperBound)"))
            }
            if parts[0] == "bar" {
                steps.append(WarmupStep(percent: nil, reps: reps))
                continue
            }
            guard parts[0].hasSuffix("%"), let percent = Fixed(parsing: parts[0].dropLast()) else {
                return .failure(PlateInputError("has '\(item)', which is not a step; \(example)"))
            }
            guard percent.thousandths > 0, percent < Fixed(100) else {
                return .failure(PlateInputError("has '\(item)': a warm-up is more than 0% and less than 100% of the working weight"))
            }
            steps.append(WarmupStep(percent: percent, reps: reps))
        }
        return .success(steps)
    }
}
