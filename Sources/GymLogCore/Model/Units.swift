/// Units a load can be typed in. Comparisons happen in kilograms; display keeps the typed unit.
public enum WeightUnit: String, CaseIterable, Sendable, Codable {
    case kg, lb

    /// Exact international pound.
    public static let kilogramsPerPound = 0.45359237

    public func kilograms(_ value: Fixed) -> Double {
        switch self {
        case .kg: value.doubleValue
        case .lb: value.doubleValue * Self.kilogramsPerPound
        }
    }

    /// A load held in kilograms (records, e1RM, volume) expressed in this unit, for display.
    public func fromKilograms(_ kilograms: Double) -> Double {
        switch self {
        case .kg: kilograms
        case .lb: kilograms / Self.kilogramsPerPound
        }
    }

    /// Reads `kg`, `kgs`, `kilo(s)`, `lb`, `lbs`, `pound(s)` in any case.
    public init?(spelling: Substring) {
        switch spelling.lowercased() {
        case "kg", "kgs", "kilo", "kilos": self = .kg
        case "lb", "lbs", "pound", "pounds": self = .lb
        default: return nil
        }
    }

    /// Reads a unit as other apps' exports write it: every `init(spelling:)` spelling, plus a
    /// trailing period (`lbs.`, `kg.`) and the long forms (`kilograms`, `kilogrammes`).
    ///
    /// Import-only on purpose: the entry language reads units with `init(spelling:)`, and a
    /// period or a long word there would change what a typed line means (`bench 100kg. x5`).
    public init?(importSpelling text: Substring) {
        let word = unitWord(text)
        switch word {
        case "kilogram", "kilograms", "kilogramme", "kilogrammes": self = .kg
        default: self.init(spelling: Substring(word))
        }
    }
}

/// A unit as an export writes it, lower-cased and without surrounding spaces or one trailing period.
private func unitWord(_ text: Substring) -> String {
    var word = text.trimmingCharacters(in: .whitespaces).lowercased()
    if word.hasSuffix(".") { word.removeLast() }
    return word
}

/// Units a distance can be typed in; compared in metres.
public enum DistanceUnit: String, CaseIterable, Sendable, Codable {
    case m, km, mi, yd

    /// Metres in one of this unit (the international mile and yard, exactly).
    public var metersPerUnit: Double {
        switch self {
        case .m: 1
        case .km: 1000
        case .mi: 1609.344
        case .yd: 0.9144
        }
    }

    public func meters(_ value: Fixed) -> Double { value.doubleValue * metersPerUnit }

    public init?(spelling: Substring) {
        switch spelling.lowercased() {
        case "m": self = .m
        case "km": self = .km
        case "mi", "mile", "miles": self = .mi
        case "yd", "yds", "yard", "yards": self = .yd
        default: return nil
        }
    }

    /// Reads a unit as other apps' exports write it: every `init(spelling:)` spelling, plus a
    /// trailing period (`mi.`, `km.`) and the long forms (`meters`, `kilometres`, `kms`).
    ///
    /// Import-only on purpose, like `WeightUnit(importSpelling:)`: the entry language reads
    /// `init(spelling:)`, and `row 2000 meters` is not part of the typed-line grammar.
    public init?(importSpelling text: Substring) {
        let word = unitWord(text)
        switch word {
        case "meter", "meters", "metre", "metres": self = .m
        case "kms", "kilometer", "kilometers", "kilometre", "kilometres": self = .km
        default: self.init(spelling: Substring(word))
        }
    }
}

/// A weight exactly as typed.
public struct Weight: Hashable, Sendable, CustomStringConvertible {
    public var value: Fixed
    public var unit: WeightUnit
    public init(_ value: Fixed, _ unit: WeightUnit) { self.value = value; self.unit = unit }
    public var kilograms: Double { unit.kilograms(value) }
    public var description: String { "\(value)\(unit.rawValue)" }

    /// This load in `unit`, exact to the nearest thousandth (halves away from zero): `225lb`
    /// is `102.058kg`, `100kg` is `220.462lb`. The one conversion for values written out in
    /// another unit than typed; integer arithmetic on the exact pound (0.45359237 kg), so it
    /// never picks up `Double` noise.
    public func converted(to unit: WeightUnit) -> Weight {
        guard unit != self.unit else { return self }
        let poundInHundredMillionthsKg: Int64 = 45_359_237, hundredMillion: Int64 = 100_000_000
        let t = value.thousandths
        let converted = unit == .kg
            ? roundedQuotient(t * poundInHundredMillionthsKg, hundredMillion)
            : roundedQuotient(t * hundredMillion, poundInHundredMillionthsKg)
        return Weight(Fixed(thousandths: converted), unit)
    }
}

/// A distance exactly as typed.
public struct Distance: Hashable, Sendable, CustomStringConvertible {
    public var value: Fixed
    public var unit: DistanceUnit
    public init(_ value: Fixed, _ unit: DistanceUnit) { self.value = value; self.unit = unit }
    public var meters: Double { unit.meters(value) }
    public var description: String { "\(value)\(unit.rawValue)" }

    /// This distance in `unit`, exact to the nearest thousandth (halves away from zero):
    /// `3.1mi` is `4.989km`, `2000m` is `2km`. Integer arithmetic on the exact mile and yard.
    public func converted(to unit: DistanceUnit) -> Distance {
        guard unit != self.unit else { return self }
        // Tenths of a millimetre in one of each unit: every factor is a whole number.
        func tenthsOfMillimetre(_ u: DistanceUnit) -> Int64 {
            switch u {
            case .m: 10_000
            case .km: 10_000_000
            case .mi: 16_093_440
            case .yd: 9_144
            }
        }
        let t = roundedQuotient(value.thousandths * tenthsOfMillimetre(self.unit), tenthsOfMillimetre(unit))
        return Distance(Fixed(thousandths: t), unit)
    }
}

/// `n / d` rounded to the nearest whole number, halves away from zero (`d` > 0).
func roundedQuotient(_ n: Int64, _ d: Int64) -> Int64 {
    let q = n / d, r = n % d
    guard 2 * abs(r) >= d else { return q }
    return n < 0 ? q - 1 : q + 1
}

/// Formats seconds as `45s`, `7:41` or `1:02:03`.
public func formatDuration(_ seconds: Int) -> String {
    if seconds < 60 { return "\(seconds)s" }
    let h = seconds / 3600, m = (seconds % 3600) / 60, s = seconds % 60
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
}
