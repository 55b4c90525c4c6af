import Testing
@testable import GymLogCore

/// The warm-up ramp: shares of the working weight rounded to the plates, from the empty bar up,
/// strictly rising and lighter than the working weight, and the one line that logs it.
@Suite struct WarmupRampTests {
    static func f(_ text: String) -> Fixed { Fixed(parsing: text)! }

    /// The ramp as `weight x reps` texts.
    static func ramp(_ working: String, _ steps: [WarmupStep] = WarmupRamp.defaultSteps, _ inventory: PlateInventory = .kilograms) -> [String] {
        WarmupRamp.sets(to: f(working), steps: steps, loads: .plates(inventory, roundTo: nil)).map { "\($0.weight)x\($0.reps)" }
    }

    @Test func theDefaultRampRisesFromTheBarInLoadsThePlatesMake() {
        // 45%, 60%, 75%, 85% of 140 are 63, 84, 105, 119: the nearest loads are 62.5, 85, 105, 120
        #expect(Self.ramp("140") == ["20x10", "62.5x5", "85x3", "105x2", "120x1"])
        // Pounds start from the 45lb bar: 101.25 -> 100, 135, 168.75 -> 170, 191.25 -> 190
        #expect(Self.ramp("225", WarmupRamp.defaultSteps, .pounds) == ["45x10", "100x5", "135x3", "170x2", "190x1"])
        let sets = WarmupRamp.sets(to: Fixed(140), steps: WarmupRamp.defaultSteps, loads: .plates(.kilograms, roundTo: nil))
        #expect(sets.first?.isBarOnly == true && sets.dropFirst().allSatisfy { !$0.isBarOnly })
        #expect(sets[1].loading?.perSide == [Fixed(20), Self.f("1.25")])
    }

    @Test func configuredPercentagesGiveTheirOwnRamp() throws {
        // Given the steps of the issue's example (3/7, 4/7, 5/7, 6/7 of 140, near enough)
        let steps = try WarmupRamp.parseSteps("bar x10, 43% x5, 57% x3, 71% x2, 86% x1").get()
        // Then 140 ramps bar x10, 60x5, 80x3, 100x2, 120x1
        #expect(Self.ramp("140", steps) == ["20x10", "60x5", "80x3", "100x2", "120x1"])
        // And with no bar step, the ramp starts at the first share
        #expect(Self.ramp("100", try WarmupRamp.parseSteps("50%x5,80%x2").get()) == ["50x5", "80x2"])
    }

    @Test func aLightWorkingWeightGetsAShorterRampAndTheBarNone() {
        // Shares under the bar drop out, and a share that rounds onto the one before it too
        #expect(Self.ramp("40") == ["20x10", "25x3", "30x2", "35x1"])
        #expect(Self.ramp("25") == ["20x10"])
        #expect(Self.ramp("20") == [])
        #expect(Self.ramp("15") == [])
        // And nothing reaches the working weight, even when it cannot be made itself
        #expect(Self.ramp("21") == ["20x10"])
    }

    @Test func dumbbellsRampByTheStepBetweenThemWithNoBar() {
        // 45, 60, 75, 85 % of 30 kg are 13.5, 18, 22.5, 25.5: in 2.5 kg dumbbells 12.5, 17.5, 22.5, 25
        let sets = WarmupRamp.sets(to: Fixed(30), steps: WarmupRamp.defaultSteps, loads: .steps(Self.f("2.5")))
        #expect(sets.map { "\($0.weight)x\($0.reps)" } == ["12.5x5", "17.5x3", "22.5x2", "25x1"])
        #expect(sets.allSatisfy { $0.loading == nil && !$0.isBarOnly })
        // A 2 kg rack: 13.5 -> 14, 18, 22.5 -> 22 (the lighter on a tie), 25.5 -> 26
        #expect(WarmupRamp.sets(to: Fixed(30), steps: WarmupRamp.defaultSteps, loads: .steps(Fixed(2))).map(\.weight)
                == [Fixed(14), Fixed(18), Fixed(22), Fixed(26)])
    }

    @Test func aConfiguredRoundingStepWinsOverMicroplates() {
        // Given pound plates down to 0.25 lb, warm-ups are what they make (the issue's 182, 243, 303.5)
        let micro = PlateInventory(bar: Fixed(45), plates: PlateInventory.pounds.plates + [
            PlateCount(Self.f("1.25"), perSide: 2), PlateCount(Self.f("0.5"), perSide: 2), PlateCount(Self.f("0.25"), perSide: 2),
        ])
        #expect(WarmupRamp.sets(to: Fixed(405), steps: WarmupRamp.defaultSteps, loads: .plates(micro, roundTo: nil)).map(\.weight)
                == [Fixed(45), Fixed(182), Fixed(243), Self.f("303.5"), Fixed(344)])
        // When programs round to 5 lb, the warm-ups do too, and the plates still make each
        let sets = WarmupRamp.sets(to: Fixed(405), steps: WarmupRamp.defaultSteps, loads: .plates(micro, roundTo: Fixed(5)))
        #expect(sets.map(\.weight) == [Fixed(45), Fixed(180), Fixed(245), Fixed(305), Fixed(345)])
        #expect(sets.allSatisfy { $0.loading?.total == $0.weight })
    }

    @Test func theEquipmentInANameDecidesTheBar() {
        let cases: [(String, Equipment?)] = [
            ("Squat (Barbell)", .barbell), ("Curl (Dumbbell)", .dumbbell), ("incline db press", .dumbbell),
            ("Lat Pulldown (Cable)", .cable), ("Leg Press (Machine)", .machine), ("Smith Squat", .machine),
            ("Goblet Squat (Kettlebell)", .kettlebell), ("Curl (EZ Bar)", .ezBar), ("Deadlift (Trap Bar)", .trapBar), ("Pull Up (Assisted)", .bodyweight),
            ("squat", nil), ("Bench Press", nil), ("Dubbel", nil),
            // Machine and cable stations named without the word: never a bar
            ("leg curl", .machine), ("Seated Leg Curl", .machine), ("lat pull-down", .cable), ("pushdown", .cable),
            ("face pull", .cable), ("Leg Press", .machine), ("legcurl", nil), ("Barbell Leg Curl", .barbell),
        ]
        for (name, equipment) in cases { #expect(Equipment(exerciseName: name) == equipment, "\(name)") }
        // And only a barbell (or a name that says nothing) ramps from the bar
        var settings = Settings()
        settings.poundDumbbellStep = Fixed(10)
        #expect(WarmupLoads.of(nil, unit: .kg, settings: settings) == .plates(.kilograms, roundTo: nil))
        #expect(WarmupLoads.of(.dumbbell, unit: .lb, settings: settings) == .steps(Fixed(10)))
        #expect(WarmupLoads.of(.dumbbell, unit: .kg, settings: settings) == .steps(Self.f("2.5")))
        #expect(WarmupLoads.of(.cable, unit: .lb, settings: settings) == .steps(Fixed(5)))
    }

    @Test func roundingIsExactAndTakesTheLighterLoadOnATie() {
        // 50% of 142.5 is 71.25, exactly halfway between 70 and 72.5
        let steps = [WarmupStep(percent: Fixed(50), reps: 5)]
        #expect(Self.ramp("142.5", steps) == ["70x5"])
        // 33.333% of 150 is 49.9995, a hair under 50: rounds to 50, not 47.5
        #expect(Self.ramp("150", [WarmupStep(percent: Self.f("33.333"), reps: 5)]) == ["50x5"])
    }

    @Test func theEntryLineLogsWarmUpsInTheTypedUnit() throws {
        let sets = WarmupRamp.sets(to: Fixed(140), steps: WarmupRamp.defaultSteps, loads: .plates(.kilograms, roundTo: nil))
        // When the line is built in the configured unit, no unit is written
        let line = WarmupRamp.entryLine(exercise: "squat", sets: sets, unit: .kg, defaultUnit: .kg)
        #expect(line == "squat w20x10 w62.5x5 w85x3 w105x2 w120x1")
        // And the entry parser reads it back as exactly those warm-ups
        guard case .success(.log(let mention, let specs)) = EntryParser.parse(line) else { Issue.record("\(line) does not parse"); return }
        #expect(mention.name == "squat")
        #expect(specs == sets.map { SetSpec(kind: .warmup, load: .weight($0.weight, nil), reps: $0.reps) })
        // And in another unit than the configured one, each load carries it
        let pounds = WarmupRamp.sets(to: Fixed(225), steps: WarmupRamp.defaultSteps, loads: .plates(.pounds, roundTo: nil))
        let lbLine = WarmupRamp.entryLine(exercise: "bench press", sets: pounds, unit: .lb, defaultUnit: .kg)
        #expect(lbLine == "bench press w45lbx10 w100lbx5 w135lbx3 w170lbx2 w190lbx1")
        guard case .success(.log(_, let lbSpecs)) = EntryParser.parse(lbLine) else { Issue.record("\(lbLine) does not parse"); return }
        #expect(lbSpecs == pounds.map { SetSpec(kind: .warmup, load: .weight($0.weight, .lb), reps: $0.reps) })
    }

    @Test func rampStepsReadFromTheConfigOrSayWhatIsWrong() throws {
        #expect(try WarmupRamp.parseSteps("bar x10, 45% x5, 60% x3, 75% x2, 85% x1").get() == WarmupRamp.defaultSteps)
        #expect(WarmupRamp.defaultSteps.map(\.description).joined(separator: ", ") == "bar x10, 45% x5, 60% x3, 75% x2, 85% x1")
        for (text, says) in [("", "is empty"), ("bar", "'bar', which is not a step"), ("60 x3", "'60x3', which is not a step"),
                             ("100% x1", "less than 100%"), ("0% x5", "more than 0%"), ("50% x0", "reps must be between 1 and 9999"),
                             ("bar x10, 50%x", "'50%x'"), (Array(repeating: "50%x1", count: 13).joined(separator: ","), "13 steps")] {
            guard case .failure(let e) = WarmupRamp.parseSteps(text) else { Issue.record("\(text) was read"); continue }
            #expect(e.message.contains(says), "\(text): \(e.message)")
        }
    }
}
