/// A bar and the plates there are to load on it, in one unit: what `plates` and `warmup`
/// load from (`[plates]` in the config).
public struct PlateInventory: Equatable, Sendable {
    /// The bar's own weight.
    public var bar: Fixed
    /// The plate sizes, heaviest first, each with how many fit on ONE side (half the pairs a
    /// gym owns for the bar).
    public private(set) var plates: [PlateCount]

    /// `plates` in any order; sizes given twice are added up, and sizes with no plates dropped.
    public init(bar: Fixed, plates: [PlateCount]) {
        self.bar = bar
        // Sorted, then runs of one size added up: no `[Fixed: Int]`, whose first use costs every
        // one-shot `gymlog` a runtime conformance lookup (the settings make two inventories).
        var merged: [PlateCount] = []
        for p in plates.filter({ $0.perSide > 0 }).sorted(by: { $0.weight > $1.weight }) {
            if let last = merged.last, last.weight == p.weight {
                merged[merged.count - 1] = PlateCount(p.weight, perSide: last.perSide + p.perSide)
            } else {
                merged.append(p)
            }
        }
        self.plates = merged
    }

    /// A commercial gym's kilogram plates: 20kg bar; per side 6 x 25, then 2 of each smaller size.
    public static let kilograms = PlateInventory(bar: Fixed(20), plates: [
        PlateCount(Fixed(25), perSide: 6), PlateCount(Fixed(20), perSide: 2), PlateCount(Fixed(15), perSide: 2),
        PlateCount(Fixed(10), perSide: 2), PlateCount(Fixed(5), perSide: 2),
        PlateCount(Fixed(thousandths: 2500), perSide: 2), PlateCount(Fixed(thousandths: 1250), perSide: 2),
    ])

    /// A commercial gym's pound plates: 45lb bar; per side 6 x 45, then 2 of each smaller size.
    public static let pounds = PlateInventory(bar: Fixed(45), plates: [
        PlateCount(Fixed(45), perSide: 6), PlateCount(Fixed(35), perSide: 2), PlateCount(Fixed(25), perSide: 2),
        PlateCount(Fixed(10), perSide: 2), PlateCount(Fixed(5), perSide: 2), PlateCount(Fixed(thousandths: 2500), perSide: 2),
    ])

    /// The default inventory for a unit.
    public static func standard(_ unit: WeightUnit) -> PlateInventory {
        switch unit {
        case .kg: kilograms
        case .lb: pounds
        }
    }

    /// The most plates on one side may weigh.
    public var heaviestSide: Fixed {
        Fixed(thousandths: plates.reduce(0) { $0 + $1.weight.thousandths * Int64($1.perSide) })
    }

    /// The heaviest load this inventory makes: the bar with every plate on it.
    public var heaviestLoad: Fixed { Fixed(thousandths: bar.thousandths + 2 * heaviestSide.thousandths) }

    /// The plates as the config spells them: `25x6, 20x2, 2.5x2`.
    public var platesText: String {
        plates.map { "\($0.weight)x\($0.perSide)" }.joined(separator: ", ")
    }

    /// Limits the config holds an inventory to, so the exact search stays small.
    public enum Limits {
        /// The heaviest bar or plate.
        public static let heaviestItem = Fixed(100)
        /// The most plates of one size on one side.
        public static let perSide = 1...20
        /// The most plate sizes.
        public static let sizes = 12
    }

    /// Reads the config's plate list, `25x6, 20x2, 15x2, 1.25x2` (a plate's weight, `x`, how many
    /// go on one side; commas or spaces between), or says what is wrong with it.
    public static func parsePlates(_ text: String) -> Result<[PlateCount], PlateInputError> {
        let items = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" })
        guard !items.isEmpty else { return .failure(PlateInputError("is empty; list the plates, e.g. \"25x6, 20x2, 10x2\"")) }
        guard items.count <= Limits.sizes else {
            return .failure(PlateInputError("lists \(items.count) plate sizes; at most \(Limits.sizes) are supported"))
        }
        var seen: Set<Fixed> = []
        var plates: [PlateCount] = []
        for item in items {
            let parts = item.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let weight = Fixed(parsing: parts[0]), let count = Int(parts[1]) else {
                return .failure(PlateInputError("has '\(item)', which is not a plate and a count; write the weight, `x` and how many per side, e.g. \"25x6\""))
            }
            guard weight.thousandths > 0, weight <= Limits.heaviestItem else {
                return .failure(PlateInputError("has a plate of \(weight); plates weigh more than 0 and at most \(Limits.heaviestItem)"))
            }
            guard Limits.perSide.contains(count) else {
                return .failure(PlateInputError("has \(count) plates of \(weight) per side; give \(Limits.perSide.lowerBound) to \(Limits.perSide.upperBound) (leave a size out to have none)"))
            }
            guard seen.insert(weight).inserted else {
                return .failure(PlateInputError("lists \(weight) twice; give each size once with its count"))
            }
            plates.append(PlateCount(weight, perSide: count))
        }
        return .success(plates)
    }
}

/// One plate size and how many of it go on one side of the bar.
public struct PlateCount: Equatable, Hashable, Sendable {
    public var weight: Fixed
    public var perSide: Int
    public init(_ weight: Fixed, perSide: Int) { self.weight = weight; self.perSide = perSide }
}

/// Why a plate list, a warm-up ramp (config) or typed loads were refused: the end of a
/// sentence that starts with the config key, or a whole sentence about the typed word.
public struct PlateInputError: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
