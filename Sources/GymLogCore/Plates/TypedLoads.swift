/// Loads typed after `plates` or `warmup EXERCISE`: numbers, each maybe with a unit
/// (`142.5`, `315lb`, `315 lb`, `25 20`, `45lb 45lb`). One unit for all of them, or none.
public struct TypedLoads: Equatable, Sendable {
    public var values: [Fixed]
    /// The unit typed, if any: it picks the plate inventory; otherwise the configured unit does.
    public var unit: WeightUnit?

    public init(values: [Fixed], unit: WeightUnit?) { self.values = values; self.unit = unit }

    /// Reads `words`, or says which word is not a load and what to type. `example` ends the
    /// message: the command as it should have been typed.
    public static func parse(_ words: [String], example: String) -> Result<TypedLoads, PlateInputError> {
        var values: [Fixed] = []
        var unit: WeightUnit?
        func setUnit(_ u: WeightUnit, _ word: String) -> PlateInputError? {
            if let unit, unit != u {
                return PlateInputError("'\(word)' is in \(u.rawValue) but an earlier load is in \(unit.rawValue); use one unit, e.g. \(example)")
            }
            unit = u
            return nil
        }
        for word in words {
            if let u = WeightUnit(spelling: Substring(word)) {
                guard !values.isEmpty else { return .failure(PlateInputError("'\(word)' needs a number before it, e.g. \(example)")) }
                if let e = setUnit(u, word) { return .failure(e) }
                continue
            }
            let digits = word.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            let rest = word.dropFirst(digits.count)
            guard let value = Fixed(parsing: digits), rest.isEmpty || WeightUnit(spelling: rest) != nil else {
                // `317,5`: a decimal comma, said as the entry language says it.
                let fraction = rest.first == "," ? rest.dropFirst().prefix { $0.isASCII && $0.isNumber } : ""
                if !digits.isEmpty, !fraction.isEmpty, Fixed(parsing: digits + "." + fraction) != nil {
                    return .failure(PlateInputError("'\(word)': use a decimal point: \(digits).\(fraction)\(rest.dropFirst(1 + fraction.count))"))
                }
                return .failure(PlateInputError("'\(word)' is not a load; type a weight like \(example)"))
            }
            guard value.thousandths > 0, value <= SetLimits.maxLoad else {
                return .failure(PlateInputError("'\(word)' must be more than 0 and at most \(SetLimits.maxLoad); type e.g. \(example)"))
            }
            if let u = WeightUnit(spelling: rest), let e = setUnit(u, word) { return .failure(e) }
            values.append(value)
        }
        guard !values.isEmpty else { return .failure(PlateInputError("a load is missing; type e.g. \(example)")) }
        return .success(TypedLoads(values: values, unit: unit))
    }
}
