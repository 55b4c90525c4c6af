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
}

extension WeightUnit {
    /// The numbers a hint types in this unit, so a pounds lifter is not told to type `bw 82.5`
    /// or `ok 20`: a bodyweight, a light load (the bar), a working load.
    public var hintBodyweight: String { self == .kg ? "82.5" : "180" }
    public var hintLightLoad: String { self == .kg ? "20" : "45" }
    public var hintLoad: String { self == .kg ? "100" : "225" }
    /// The other unit, which a hint shows with its unit typed (`bw 180lb` for a kg lifter).
    public var other: WeightUnit { self == .kg ? .lb : .kg }
    /// `bw 82.5` or `bw 180lb` (kg), `bw 180` or `bw 82.5kg` (lb).
    public var bodyweightExamples: String { "`bw \(hintBodyweight)` or `bw \(other.hintBodyweight)\(other.rawValue)`" }
}

extension WeightUnit: SpelledUnit {
    /// `kg`, `kgs`, `kilo(s)`, `lb`, `lbs`, `pound(s)`.
    public static let spellings: [String: WeightUnit] = [
        "kg": .kg, "kgs": .kg, "kilo": .kg, "kilos": .kg,
        "lb": .lb, "lbs": .lb, "pound": .lb, "pounds": .lb,
    ]
    /// The long forms (`kilograms`, `kilogrammes`).
    public static let importOnlySpellings: [String: WeightUnit] = [
        "kilogram": .kg, "kilograms": .kg, "kilogramme": .kg, "kilogrammes": .kg,
    ]
}

/// A unit read from the words people write for it: the entry language's spellings, in any
/// case, and on import also the long forms other apps' exports write, with a trailing period.
///
/// Two readers on purpose: a period or a long word in a typed line would change what it means
/// (`bench 100kg. x5`), and `row 2000 meters` is not part of the typed-line grammar.
public protocol SpelledUnit {
    /// Lower-case spellings the entry language (and the config) reads.
    static var spellings: [String: Self] { get }
    /// Lower-case spellings read only from other apps' exports.
    static var importOnlySpellings: [String: Self] { get }
}

extension SpelledUnit {
    /// Reads one of `spellings` in any case.
    public init?(spelling: Substring) {
        guard let unit = Self.spellings[spelling.lowercased()] else { return nil }
        self = unit
    }

    /// Reads a unit as other apps' exports write it: every `init(spelling:)` spelling, plus
    /// surrounding spaces, a trailing period (`lbs.`, `mi.`) and the long forms.
    public init?(importSpelling text: Substring) {
        var word = text.trimmingCharacters(in: .whitespaces).lowercased()
        if word.hasSuffix(".") { word.removeLast() }
        guard let unit = Self.importOnlySpellings[word] ?? Self.spellings[word] else { return nil }
        self = unit
    }
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
}

extension DistanceUnit: SpelledUnit {
    /// `m`, `km`, `mi`, `mile(s)`, `yd`, `yds`, `yard(s)`.
    public static let spellings: [String: DistanceUnit] = [
        "m": .m, "km": .km, "mi": .mi, "mile": .mi, "miles": .mi,
        "yd": .yd, "yds": .yd, "yard": .yd, "yards": .yd,
    ]
    /// The long forms (`meters`, `kilometres`) and `kms`.
    public static let importOnlySpellings: [String: DistanceUnit] = [
        "meter": .m, "meters": .m, "metre": .m, "metres": .m,
        "kms": .km, "kilometer": .km, "kilometers": .km, "kilometre": .km, "kilometres": .km,
    ]
}

/// A unit whose size is a whole number of one small common unit, so that converting between
/// two of them is integer arithmetic and never picks up `Double` noise.
public protocol ExactUnit: Hashable, Sendable, RawRepresentable<String> {
    /// How many of the common unit one of this unit is.
    var exactSize: Int64 { get }
}

extension WeightUnit: ExactUnit {
    /// In hundred-millionths of a kilogram: the pound is exactly 0.45359237 kg.
    public var exactSize: Int64 { self == .kg ? 100_000_000 : 45_359_237 }
}

extension DistanceUnit: ExactUnit {
    /// In tenths of a millimetre: the mile and the yard are whole numbers of them.
    public var exactSize: Int64 {
        switch self {
        case .m: 10_000
        case .km: 10_000_000
        case .mi: 16_093_440
        case .yd: 9_144
        }
    }
}

/// A weight exactly as typed (`102.5kg`).
public typealias Weight = Quantity<WeightUnit>
/// A distance exactly as typed (`2000m`, `3.1mi`).
public typealias Distance = Quantity<DistanceUnit>

/// An amount exactly as typed, in the unit it was typed in.
public struct Quantity<Unit: ExactUnit>: Hashable, Sendable, CustomStringConvertible {
    public var value: Fixed
    public var unit: Unit
    public init(_ value: Fixed, _ unit: Unit) { self.value = value; self.unit = unit }
    public var description: String { "\(value)\(unit.rawValue)" }

    /// This amount in `unit`, exact to the nearest thousandth (halves away from zero): `225lb`
    /// is `102.058kg`, `100kg` is `220.462lb`, `3.1mi` is `4.989km`, `2000m` is `2km`. The one
    /// conversion for values written out in another unit than typed.
    public func converted(to unit: Unit) -> Self {
        guard unit != self.unit else { return self }
        let (product, overflow) = value.thousandths.multipliedReportingOverflow(by: self.unit.exactSize)
        // Only an amount far past `SetLimits` (stored from elsewhere) overflows: convert it inexactly.
        guard !overflow else {
            return Self(Fixed(rounding: value.doubleValue * Double(self.unit.exactSize) / Double(unit.exactSize)), unit)
        }
        return Self(Fixed(thousandths: roundedQuotient(product, unit.exactSize)), unit)
    }
}

extension Quantity where Unit == WeightUnit {
    public var kilograms: Double { unit.kilograms(value) }
}

extension Quantity where Unit == DistanceUnit {
    public var meters: Double { unit.meters(value) }
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

/// One value for each weight unit, both always there (a bar's own weight in kg and in lb).
/// Not a `[WeightUnit: Value]`: a dictionary keyed by a type of our own costs a one-shot
/// `gymlog` a runtime conformance lookup the first time it is made (about 0.6 M instructions
/// of a 25 M start-up), and this one was made for every settings value.
public struct PerUnit<Value: Equatable & Sendable>: Equatable, Sendable {
    public var kg: Value
    public var lb: Value

    public init(kg: Value, lb: Value) { self.kg = kg; self.lb = lb }

    public subscript(unit: WeightUnit) -> Value {
        get {
            switch unit {
            case .kg: kg
            case .lb: lb
            }
        }
        set {
            switch unit {
            case .kg: kg = newValue
            case .lb: lb = newValue
            }
        }
    }
}
