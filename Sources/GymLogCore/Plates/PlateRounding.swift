/// Rounds computed loads (a progression's 90 % of 102.5 kg) to what the user's bar and plates
/// make (`[plates]` in the config). Loads below the bar (dumbbells, a belt's added weight)
/// and loads past what the plates reach fall back to plain steps, since no barbell makes them.
/// A rounding step in the config (`[plates] lb_round = 5`) wins: programs are rounded to it.
public struct PlateRounding: LoadRounding {
    public var settings: Settings
    public var fallback: StepRounding

    public init(settings: Settings, fallback: StepRounding = .standard) {
        self.settings = settings; self.fallback = fallback
    }

    public func makeable(_ target: Double, in unit: WeightUnit, _ direction: RoundingDirection) -> Fixed {
        if let step = settings.roundTo(unit) {
            return StepRounding(kilogramStep: step, poundStep: step).makeable(target, in: unit, direction)
        }
        let inventory = settings.plates(unit)
        let wanted = Fixed(rounding: target)
        guard target.isFinite, wanted >= inventory.bar else { return fallback.makeable(target, in: unit, direction) }
        let near = PlateCalculator.nearestLoads(to: wanted, with: inventory)
        let pick: PlateLoading?
        switch direction {
        case .down: pick = near.exact ?? near.below
        case .up: pick = near.exact ?? near.above
        case .nearest:
            // Halfway goes up, as `StepRounding` rounds.
            if let b = near.below, let a = near.above, b.total != wanted,
               a.total.thousandths - wanted.thousandths == wanted.thousandths - b.total.thousandths { pick = a } else { pick = near.exact ?? near.nearest }
        }
        return pick?.total ?? fallback.makeable(target, in: unit, direction)
    }
}
