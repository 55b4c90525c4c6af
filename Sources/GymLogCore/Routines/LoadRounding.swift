import Foundation

/// Which makeable load to take for a computed target.
public enum RoundingDirection: Sendable {
    /// The heaviest makeable load at or below the target (a deload never asks for more).
    case down
    /// The closest makeable load; halfway goes up.
    case nearest
    /// The lightest makeable load at or above the target (an increment smaller than the plates
    /// allow still moves the bar).
    case up
}

/// The loads a lifter can actually make, for turning a computed target (90 % of 102.5 kg)
/// into a weight to put on the bar. A parameter of `Progression` so the plate calculator
/// (the user's bar and plates from the config file) can stand in for `StepRounding`.
public protocol LoadRounding: Sendable {
    /// The makeable load nearest `target` in `direction`, both in `unit`.
    ///
    /// `target` may be negative (an assisted bodyweight set's load) or zero; the answer is
    /// then the makeable value by the same rule, and the caller decides what zero means.
    func makeable(_ target: Double, in unit: WeightUnit, _ direction: RoundingDirection) -> Fixed
}

/// Loads in fixed steps per unit: the default is 2.5 kg and 5 lb (the smallest pair of
/// common plates, 1.25 kg and 2.5 lb, on each side).
public struct StepRounding: LoadRounding, Equatable {
    /// The smallest change a kilogram load can make.
    public var kilogramStep: Fixed
    /// The smallest change a pound load can make.
    public var poundStep: Fixed

    /// Steps of `kilogramStep` for kilogram loads and `poundStep` for pound loads.
    public init(kilogramStep: Fixed = Fixed(thousandths: 2500), poundStep: Fixed = Fixed(5)) {
        self.kilogramStep = kilogramStep; self.poundStep = poundStep
    }

    /// 2.5 kg / 5 lb.
    public static let standard = StepRounding()

    /// The step in `unit`, never below a thousandth (a zero step from a bad config cannot divide by zero).
    public func step(_ unit: WeightUnit) -> Fixed {
        let step = unit == .kg ? kilogramStep : poundStep
        return Fixed(thousandths: max(step.thousandths, 1))
    }

    /// The multiple of the unit's step nearest `target` in `direction`.
    public func makeable(_ target: Double, in unit: WeightUnit, _ direction: RoundingDirection) -> Fixed {
        let step = step(unit).thousandths
        guard target.isFinite else { return Fixed(0) }
        // Snap to a millionth of a step first, so a computed 97.49999... counts as the 97.5 it means.
        let steps = (min(max(target, -1e9), 1e9) * 1000 / Double(step) * 1e6).rounded() / 1e6
        let count: Double
        switch direction {
        case .down: count = steps.rounded(.down)
        case .up: count = steps.rounded(.up)
        case .nearest: count = (steps + 0.5).rounded(.down)
        }
        return Fixed(thousandths: Int64(count) * step)
    }
}
