/// One way to load a bar: the bar and the plates on each side, heaviest first.
public struct PlateLoading: Equatable, Sendable {
    /// The bar's weight.
    public var bar: Fixed
    /// The plates on ONE side, heaviest first (the other side holds the same).
    public var perSide: [Fixed]

    public init(bar: Fixed, perSide: [Fixed]) { self.bar = bar; self.perSide = perSide.sorted(by: >) }

    /// The bar plus both sides.
    public var total: Fixed {
        Fixed(thousandths: bar.thousandths + 2 * perSide.reduce(0) { $0 + $1.thousandths })
    }
}

/// The loads an inventory can make on either side of a target: what `plates` shows when a
/// load cannot be made, and what rounds a suggested weight to the plates.
public struct NearestLoads: Equatable, Sendable {
    /// The load asked for.
    public var target: Fixed
    /// The heaviest load at or under the target; nil when the target is lighter than the bar.
    public var below: PlateLoading?
    /// The lightest load at or over the target; nil when the target is heavier than every plate
    /// on the bar.
    public var above: PlateLoading?

    public init(target: Fixed, below: PlateLoading?, above: PlateLoading?) {
        self.target = target; self.below = below; self.above = above
    }

    /// The loading that makes the target exactly, if one does.
    public var exact: PlateLoading? {
        if let below, below.total == target { return below }
        return nil
    }

    /// The nearer of the two (the lighter on a tie), or nil when neither exists.
    public var nearest: PlateLoading? {
        guard let below else { return above }
        guard let above else { return below }
        let down = target.thousandths - below.total.thousandths, up = above.total.thousandths - target.thousandths
        return up < down ? above : below
    }
}

/// Plate math: which plates make a load, and which loads an inventory can make.
///
/// Exact: loads are `Fixed` thousandths, never floating point, so 142.5 is made of 1.25s and
/// not of 1.2499999s. Greedy (heaviest plate that fits, repeat) is wrong with limited counts:
/// with one 15 and two 10s per side, 20 a side is 10 10, which greedy misses after taking the
/// 15. So the search is a bounded knapsack over side weights in units of the plates' greatest
/// common divisor (1.25 kg for the standard kilogram plates): small and exhaustive.
public enum PlateCalculator {
    /// The loads nearest `target` that `inventory` makes, each with the fewest plates that
    /// make it (ties: the more heavy plates).
    ///
    /// The bar is always on: a target under the bar has no load below it and the bare bar
    /// above it. Both sides carry the same plates, so a load is the bar plus twice a side.
    public static func nearestLoads(to target: Fixed, with inventory: PlateInventory) -> NearestLoads {
        let bar = inventory.bar
        let barOnly = PlateLoading(bar: bar, perSide: [])
        guard target >= bar else { return NearestLoads(target: target, below: nil, above: barOnly) }
        // Both sides together must weigh `need`; one side weighs half of it (maybe half a thousandth).
        let need = target.thousandths - bar.thousandths
        let plates = inventory.plates
        guard !plates.isEmpty, need > 0 else {
            return NearestLoads(target: target, below: barOnly, above: need == 0 ? barOnly : nil)
        }
        let unit = plates.reduce(Int64(0)) { gcd($0, $1.weight.thousandths) }
        let weights = plates.map { Int($0.weight.thousandths / unit) }   // heaviest first
        // A side weighing at least half of `need` exists iff the whole inventory does, and the
        // lightest such side is under half of `need` plus the heaviest plate: take plates off a
        // full side one by one and one of the steps lands in that window. Nothing heavier matters.
        let halfNeedUp = Int(((need + 1) / 2 + unit - 1) / unit)  // the lightest side, in units, that reaches the target
        let limit = min(Int(inventory.heaviestSide.thousandths / unit), halfNeedUp + weights[0])
        let search = SideSearch(weights: weights, counts: plates.map(\.perSide), limit: limit)

        // In units: a side `u` stays at or under the target while 2 * u * unit <= need.
        func loading(_ u: Int) -> PlateLoading {
            PlateLoading(bar: bar, perSide: search.plates(for: u).map { Fixed(thousandths: Int64($0) * unit) })
        }
        let below = stride(from: min(limit, Int(need / 2 / unit)), through: 0, by: -1).first(where: search.reachable).map(loading)
        let above = halfNeedUp <= limit ? (halfNeedUp...limit).first(where: search.reachable).map(loading) : nil
        return NearestLoads(target: target, below: below, above: above)
    }

    /// The plates that make `target` exactly, or nil when none do.
    public static func loading(for target: Fixed, with inventory: PlateInventory) -> PlateLoading? {
        nearestLoads(to: target, with: inventory).exact
    }

    /// The load a bar with `perSide` on each side weighs (`plates 25 20`).
    public static func total(bar: Fixed, perSide: [Fixed]) -> Fixed {
        PlateLoading(bar: bar, perSide: perSide).total
    }

    private static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}

/// The bounded knapsack behind `nearestLoads`: for every side weight up to `limit` (in plate
/// units), the fewest plates that make it, and on a tie the most of the heaviest size.
private struct SideSearch {
    let weights: [Int]            // heaviest first
    /// `fewest[u]`: the fewest plates that make `u`, or -1.
    private var fewest: [Int32]
    /// `taken[size][u]`: how many of `weights[size]` the best side of `u` holds, given the
    /// sizes lighter than it were searched first.
    private var taken: [[UInt16]]

    init(weights: [Int], counts: [Int], limit: Int) {
        self.weights = weights
        var fewest = [Int32](repeating: -1, count: limit + 1)
        fewest[0] = 0
        var taken = [[UInt16]](repeating: [], count: weights.count)
        // Lightest size first, so the heaviest size is decided last and wins ties.
        for size in weights.indices.reversed() {
            // More of a size than fit under `limit` never matter (and a choice must fit in 16 bits).
            let w = weights[size], c = min(counts[size], limit / w, Int(UInt16.max))
            var next = fewest
            var choice = [UInt16](repeating: 0, count: limit + 1)
            for u in 0...limit {
                var k = 1
                while k <= c && k * w <= u {
                    let before = fewest[u - k * w]
                    if before >= 0 {
                        let plates = before + Int32(k)
                        // `>=` on a tie: more of this (heavier) size.
                        if next[u] < 0 || plates <= next[u] { next[u] = plates; choice[u] = UInt16(k) }
                    }
                    k += 1
                }
            }
            fewest = next
            taken[size] = choice
        }
        self.fewest = fewest
        self.taken = taken
    }

    func reachable(_ u: Int) -> Bool { u >= 0 && u < fewest.count && fewest[u] >= 0 }

    /// The plates of the best side of `u`, in units, heaviest first.
    func plates(for u: Int) -> [Int] {
        var rest = u
        var out: [Int] = []
        for size in weights.indices {
            let k = Int(taken[size][rest])
            out += Array(repeating: weights[size], count: k)
            rest -= k * weights[size]
        }
        return out
    }
}
