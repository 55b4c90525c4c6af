import Testing
@testable import GymLogCore
import SplitMix

/// Plate math is exact and exhaustive: the fewest plates for a load, limited counts that greedy
/// gets wrong, the nearest loads when a target cannot be made, and pounds as well as kilograms.
@Suite struct PlateCalculatorTests {
    static func f(_ text: String) -> Fixed { Fixed(parsing: text)! }
    static func side(_ texts: String...) -> [Fixed] { texts.map(f) }

    /// A 20kg bar with `plates` as (weight, per side).
    static func inventory(bar: String = "20", _ plates: [(String, Int)]) -> PlateInventory {
        PlateInventory(bar: f(bar), plates: plates.map { PlateCount(f($0.0), perSide: $0.1) })
    }

    @Test("standard kilogram and pound plates make the usual loads", arguments: [
        ("142.5", WeightUnit.kg, ["25", "25", "10", "1.25"]),
        ("100", .kg, ["25", "15"]),
        ("60", .kg, ["20"]),
        ("22.5", .kg, ["1.25"]),
        ("20", .kg, []),
        ("315", .lb, ["45", "45", "45"]),
        ("225", .lb, ["45", "45"]),
        ("185", .lb, ["45", "25"]),
        ("50", .lb, ["2.5"]),
    ])
    func exactLoads(target: String, unit: WeightUnit, perSide: [String]) throws {
        // When a load the standard plates make is asked for
        let loading = try #require(PlateCalculator.loading(for: Self.f(target), with: .standard(unit)))
        // Then the bar is the unit's and each side holds the fewest plates, heaviest first
        #expect(loading.bar == PlateInventory.standard(unit).bar)
        #expect(loading.perSide == perSide.map(Self.f), "\(loading.perSide)")
        #expect(loading.total == Self.f(target))
    }

    @Test func limitedCountsThatGreedyGetsWrongAreStillMade() throws {
        // Given one 15 and two 10s a side: greedy takes the 15 for 20 a side and is stuck
        let inventory = Self.inventory([("15", 1), ("10", 2)])
        // When 60 kg (20 a side) is asked for
        let loading = try #require(PlateCalculator.loading(for: Self.f("60"), with: inventory))
        // Then it is two 10s
        #expect(loading.perSide == Self.side("10", "10"))
        // And with one 25 and two 20s, 40 a side is 20 20, not 25 and a missing 15
        let other = Self.inventory([("25", 1), ("20", 2)])
        #expect(PlateCalculator.loading(for: Self.f("100"), with: other)?.perSide == Self.side("20", "20"))
    }

    @Test func theFewestPlatesWinAndTiesTakeTheHeavierPlates() throws {
        // Given plates where a side of 20 is one 20 or two 10s or four 5s
        let inventory = Self.inventory([("20", 1), ("10", 4), ("5", 4)])
        // Then the one plate wins
        #expect(PlateCalculator.loading(for: Self.f("60"), with: inventory)?.perSide == Self.side("20"))
        // And 25 a side, two plates either way (20 5 or 15 10), takes the 20
        let tie = Self.inventory([("20", 1), ("15", 1), ("10", 1), ("5", 1)])
        #expect(PlateCalculator.loading(for: Self.f("70"), with: tie)?.perSide == Self.side("20", "5"))
    }

    @Test func aLoadThatCannotBeMadeHasTheNearestLoadsOnEitherSide() throws {
        // When 143 kg is asked of the standard plates
        let nearest = PlateCalculator.nearestLoads(to: Self.f("143"), with: .kilograms)
        // Then there is no exact load, and 142.5 and 145 are the nearest
        #expect(nearest.exact == nil)
        #expect(nearest.below == PlateLoading(bar: Fixed(20), perSide: Self.side("25", "25", "10", "1.25")))
        #expect(nearest.above == PlateLoading(bar: Fixed(20), perSide: Self.side("25", "25", "10", "2.5")))
        #expect(nearest.nearest?.total == Self.f("142.5"))
        // And an odd load needing half a thousandth a side is not made (20.001 is 0.0005 a side)
        let odd = PlateCalculator.nearestLoads(to: Self.f("20.001"), with: .kilograms)
        #expect(odd.below?.total == Fixed(20) && odd.above?.total == Self.f("22.5"))
        // And on a tie the nearer load is the lighter one
        let tie = PlateCalculator.nearestLoads(to: Self.f("21.25"), with: .kilograms)
        #expect(tie.nearest?.total == Fixed(20))
    }

    @Test func underTheBarOrOverEveryPlateHasOneSideOnly() {
        // When the target is lighter than the bar, only the bare bar is above it
        let light = PlateCalculator.nearestLoads(to: Fixed(15), with: .kilograms)
        #expect(light.below == nil && light.above == PlateLoading(bar: Fixed(20), perSide: []))
        // When it is heavier than the bar with every plate, only that full bar is below it
        let inventory = Self.inventory([("20", 1), ("10", 1)])
        let heavy = PlateCalculator.nearestLoads(to: Fixed(100), with: inventory)
        #expect(heavy.above == nil && heavy.below?.perSide == Self.side("20", "10") && heavy.below?.total == Fixed(80))
        #expect(inventory.heaviestLoad == Fixed(80))
        // And the bar itself is made with no plates
        #expect(PlateCalculator.loading(for: Fixed(20), with: inventory) == PlateLoading(bar: Fixed(20), perSide: []))
    }

    @Test func anotherBarChangesEveryLoad() {
        let inventory = Self.inventory(bar: "15", [("20", 2), ("2.5", 1)])
        #expect(PlateCalculator.loading(for: Fixed(60), with: inventory)?.perSide == Self.side("20", "2.5"))
        #expect(PlateCalculator.total(bar: Fixed(20), perSide: Self.side("25", "20")) == Fixed(110))
    }

    @Test("the search agrees with trying every combination", arguments: 0..<40)
    func agreesWithExhaustiveSearch(seed: Int) {
        // Given a random small inventory and target (seeded, so a failure replays)
        var random = SplitMix64(seed: UInt64(seed) &* 7919 &+ 1)
        let sizes = ["0.5", "1.25", "2.5", "5", "7.5", "10", "15", "20", "25"].map(Self.f)
        var plates: [PlateCount] = []
        for size in sizes where random.next() % 3 == 0 { plates.append(PlateCount(size, perSide: Int(random.next() % 3) + 1)) }
        let inventory = PlateInventory(bar: Fixed(20), plates: plates)
        let target = Fixed(thousandths: 15_000 + Int64(random.next() % 200_000 / 250) * 250)

        // When every combination of counts is tried
        var best: [Int64: Int] = [:]   // side thousandths -> fewest plates
        func walk(_ i: Int, _ side: Int64, _ count: Int) {
            if i == inventory.plates.count { best[side] = min(best[side] ?? .max, count); return }
            for k in 0...inventory.plates[i].perSide { walk(i + 1, side + Int64(k) * inventory.plates[i].weight.thousandths, count + k) }
        }
        walk(0, 0, 0)
        let totals = best.keys.map { 20_000 + 2 * $0 }
        let expectedBelow = totals.filter { $0 <= target.thousandths }.max()
        let expectedAbove = totals.filter { $0 >= target.thousandths }.min()

        // Then the calculator finds the same nearest loads, each with the fewest plates it can
        let nearest = PlateCalculator.nearestLoads(to: target, with: inventory)
        #expect(nearest.below?.total.thousandths == expectedBelow, "\(inventory) \(target)")
        #expect(nearest.above?.total.thousandths == expectedAbove, "\(inventory) \(target)")
        for loading in [nearest.below, nearest.above].compactMap({ $0 }) {
            let side = (loading.total.thousandths - 20_000) / 2
            #expect(loading.perSide.count == best[side], "\(inventory) \(loading)")
            // And never uses more of a plate than there is
            for p in inventory.plates { #expect(loading.perSide.filter { $0 == p.weight }.count <= p.perSide) }
            #expect(loading.perSide.allSatisfy { w in inventory.plates.contains { $0.weight == w } })
        }
    }

    @Test func plateListsReadFromTheConfigOrSayWhatIsWrong() throws {
        let good = try PlateInventory.parsePlates("25x6, 20x2 15X1 1.25x2").get()
        #expect(good == [PlateCount(Fixed(25), perSide: 6), PlateCount(Fixed(20), perSide: 2), PlateCount(Fixed(15), perSide: 1),
                         PlateCount(Self.f("1.25"), perSide: 2)])
        #expect(PlateInventory(bar: Fixed(20), plates: good).platesText == "25x6, 20x2, 15x1, 1.25x2")
        for (text, says) in [("", "is empty"), ("25", "'25', which is not a plate and a count"), ("25x0", "0 plates of 25 per side"),
                             ("25x21", "21 plates of 25"), ("0x2", "a plate of 0"), ("101x1", "a plate of 101"),
                             ("25x2, 25x1", "lists 25 twice"), ("abc", "'abc'"),
                             (Array(repeating: "", count: 13).enumerated().map { "\($0.offset + 1)x1" }.joined(separator: ","), "13 plate sizes")] {
            guard case .failure(let e) = PlateInventory.parsePlates(text) else { Issue.record("\(text) was read"); continue }
            #expect(e.message.contains(says), "\(text): \(e.message)")
        }
    }

    @Test func typedLoadsTakeOneUnitOrNone() throws {
        let example = "`plates 142.5`"
        #expect(try TypedLoads.parse(["142.5"], example: example).get() == TypedLoads(values: [Self.f("142.5")], unit: nil))
        #expect(try TypedLoads.parse(["315lb"], example: example).get() == TypedLoads(values: [Fixed(315)], unit: .lb))
        #expect(try TypedLoads.parse(["315", "LBS"], example: example).get() == TypedLoads(values: [Fixed(315)], unit: .lb))
        #expect(try TypedLoads.parse(["25", "20kg"], example: example).get() == TypedLoads(values: [Fixed(25), Fixed(20)], unit: .kg))
        for (words, says) in [(["abc"], "'abc' is not a load"), (["lb"], "'lb' needs a number before it"),
                              (["45lb", "20kg"], "'20kg' is in kg but an earlier load is in lb"), (["0"], "'0' must be more than 0"),
                              (["2000.5"], "at most 2000"), (["100x5"], "'100x5' is not a load"), ([], "a load is missing")] {
            guard case .failure(let e) = TypedLoads.parse(words, example: example) else { Issue.record("\(words) was read"); continue }
            #expect(e.message.contains(says) && e.message.hasSuffix(example), "\(words): \(e.message)")
        }
    }
}
