import Testing
@testable import GymLogCore

/// Every progression rule from example histories: success, miss, three misses, the top of a
/// rep range, the 5/3/1 wave over a full cycle, kg and lb, no history.
@Suite struct ProgressionTests {
    // MARK: Helpers

    static func kg(_ value: Double) -> Weight { Weight(Fixed(rounding: value), .kg) }
    static func lb(_ value: Double) -> Weight { Weight(Fixed(rounding: value), .lb) }

    /// Working sets at one weight, one per reps value.
    static func sets(_ weight: Weight, _ reps: Int...) -> [SetValues] {
        reps.map { SetValues(weight: weight, reps: $0) }
    }

    /// Sessions a day apart, oldest first.
    static func history(_ sessions: [SetValues]...) -> [PastSession] {
        sessions.enumerated().map { PastSession(startedAt: Int64($0.offset) * 86_400_000, sets: $0.element) }
    }

    static func line(_ text: String) throws -> PlannedExercise {
        try RoutineParser.parse("# R\n" + text).get().lines[0]
    }

    static func suggest(_ text: String, _ history: [PastSession], unit: WeightUnit = .kg,
                        rounding: any LoadRounding = StepRounding.standard) throws -> Suggestion {
        Progression.suggest(for: try line(text), history: history, unit: unit, rounding: rounding)
    }

    /// `100kg x 5, 100kg x 5, ...` for comparing whole suggestions at a glance.
    static func shown(_ s: Suggestion) -> String { s.sets.map(\.summary).joined(separator: ", ") }

    // MARK: The plan's unit (issue 44, defect 3)

    @Test func aHistoryInTheOtherUnitIsSuggestedInTheLinesUnitAtAMakeableLoad() throws {
        // Given a bench history imported in kg, for a lifter in lb
        let history = Self.history(Self.sets(Self.kg(100), 12, 12, 12))
        // When a routine line of bare numbers is suggested in lb
        let double = try Self.suggest("bench 3x8-12 double +5", history, unit: .lb)
        let none = try Self.suggest("bench 3x8-12", history, unit: .lb)
        let linear = try Self.suggest("bench 3x5 linear +5", Self.history(Self.sets(Self.kg(60), 5, 5, 4)), unit: .lb)
        // Then every load is in lb, rounded to 5 lb: 100 kg is 220 lb, and +5 is 5 lb
        #expect(Self.shown(double) == "225lb x 8 (8-12), 225lb x 8 (8-12), 225lb x 8 (8-12)", "\(Self.shown(double))")
        #expect(double.reason == "last time 100kg x 12,12,12 (220lb): every set reached 12, +5lb and back to 8 reps")
        #expect(Self.shown(none) == "220lb x 12 (8-12), 220lb x 12 (8-12), 220lb x 12 (8-12)", "\(Self.shown(none))")
        #expect(Self.shown(linear) == "130lb x 5, 130lb x 5, 130lb x 5", "60 kg is 132.3 lb: \(Self.shown(linear))")
    }

    @Test func aLineThatNamesAUnitIsPlannedInItWhateverTheHistorysUnit() throws {
        // Given a history in lb
        let history = Self.history(Self.sets(Self.lb(225), 5, 5, 5))
        // When the line names kg in its increment, in a routine of lb
        let kg = try Self.suggest("bench 3x5 linear +2.5kg", history, unit: .lb)
        // Then the plan is in kg: 225 lb is 102.5 kg, +2.5 kg
        #expect(Self.shown(kg) == "105kg x 5, 105kg x 5, 105kg x 5", "\(Self.shown(kg))")
        // And a history in the line's own unit is kept exactly as lifted (no rounding to plates)
        let same = try Self.suggest("bench 3x5", Self.history(Self.sets(Self.lb(222), 5, 5, 5)), unit: .lb)
        #expect(Self.shown(same) == "222lb x 5, 222lb x 5, 222lb x 5")
    }

    @Test func okOfABareNumberIsInTheUnitTheSetIsShownIn() throws {
        // Given a set suggested in lb, and one with no load to suggest on a line in lb
        let shown = SuggestedSet(weight: Self.lb(225), reps: 8, targetRPE: Fixed(8))
        let none = SuggestedSet(weight: nil, reps: 8)
        guard case .success(.repeatLast(let number)) = EntryParser.parse("+ 135"),
              case .success(.repeatLast(let kilograms)) = EntryParser.parse("+ 60kg"),
              case .success(.repeatLast(let rir)) = EntryParser.parse("+ rir2") else { Issue.record("a change did not parse"); return }
        // Then `ok 135` is 135 lb either way, `ok 60kg` is kg, and the planned RPE is logged unless another is typed
        #expect(shown.logged(with: number, unit: .kg).weight == Self.lb(135))
        #expect(shown.logged(with: number, unit: .kg).rpe == Fixed(8))
        #expect(none.logged(with: number, unit: .lb).weight == Self.lb(135))
        #expect(shown.logged(with: kilograms, unit: .lb).weight == Self.kg(60))
        #expect(shown.logged(with: rir, unit: .lb).rpe == nil)
    }

    // MARK: linear

    @Test func linearAddsTheIncrementWhenEveryPlannedRepWasDone() throws {
        // Given 3x5 done at 100kg, after ramp-up sets logged as working sets and a heavier warm-up
        let last = [SetValues(kind: .warmup, weight: Self.kg(120), reps: 1)] + Self.sets(Self.kg(60), 5)
            + Self.sets(Self.kg(100), 5, 5, 5)
        // When today is suggested
        let s = try Self.suggest("bench 3x5 @8 linear +2.5", Self.history(Self.sets(Self.kg(97.5), 5, 5, 5), last))
        // Then it is 2.5kg more for 3x5, with the target RPE, and says why
        #expect(Self.shown(s) == "102.5kg x 5 @8, 102.5kg x 5 @8, 102.5kg x 5 @8")
        #expect(s.reason == "last time 100kg x 5,5,5: all reps done, +2.5kg")
        #expect(s.sets[0].values == SetValues(weight: Self.kg(102.5), reps: 5))
    }

    @Test func linearRepeatsTheWeightAfterAMiss() throws {
        // Given the last session one rep short
        let s = try Self.suggest("bench 3x5 linear +2.5", Self.history(Self.sets(Self.kg(100), 5, 5, 4)))
        // Then the same weight again
        #expect(Self.shown(s) == "100kg x 5, 100kg x 5, 100kg x 5")
        #expect(s.reason == "last time 100kg x 5,5,4: missed reps (1 in a row), same weight")
    }

    @Test func linearCountsFewerSetsThanPlannedAsAMiss() throws {
        let s = try Self.suggest("bench 3x5 linear +2.5", Self.history(Self.sets(Self.kg(100), 5, 5)))
        #expect(s.sets.map(\.weight) == [Self.kg(100), Self.kg(100), Self.kg(100)])
    }

    @Test func linearTakesTenPercentOffAfterThreeMissesInARowRoundedDown() throws {
        // Given a success, then three sessions at 102.5kg each with a rep missing
        let miss = Self.sets(Self.kg(102.5), 5, 5, 3)
        let history = Self.history(Self.sets(Self.kg(100), 5, 5, 5), miss, miss, miss)
        // When today is suggested
        let s = try Self.suggest("bench 3x5 linear +2.5", history)
        // Then 90% of 102.5 (92.25) rounded down to the plates: 90kg
        #expect(Self.shown(s) == "90kg x 5, 90kg x 5, 90kg x 5")
        #expect(s.reason == "missed 3 sessions in a row (last time 102.5kg x 5,5,3): -10%")
    }

    @Test func aDeloadGetsThreeTriesOfItsOwn() throws {
        // Given three misses at 100, then one and then three at the deloaded 90
        let miss100 = Self.sets(Self.kg(100), 5, 4, 4), miss90 = Self.sets(Self.kg(90), 5, 5, 4)
        let fourth = try Self.suggest("squat 3x5 linear +5", Self.history(miss100, miss100, miss100, miss90))
        let sixth = try Self.suggest("squat 3x5 linear +5", Self.history(miss100, miss100, miss100, miss90, miss90, miss90))
        // Then the fourth miss repeats 90; the sixth takes 10% off again (81 -> 80)
        #expect(fourth.sets[0].weight == Self.kg(90))
        #expect(fourth.reason.contains("4 in a row"))
        #expect(sixth.sets[0].weight == Self.kg(80))
        #expect(sixth.reason.hasPrefix("missed 6 sessions in a row"))
    }

    @Test func aSuccessEndsTheMissStreak() throws {
        let miss = Self.sets(Self.kg(100), 5, 5, 4), done = Self.sets(Self.kg(100), 5, 5, 5)
        let s = try Self.suggest("bench 3x5 linear +2.5", Self.history(miss, miss, done, miss, miss))
        #expect(s.sets[0].weight == Self.kg(100))
        #expect(s.reason.contains("2 in a row"))
    }

    @Test func squatsLiftedInPoundsArePlannedInTheRoutinesKilograms() throws {
        // Given squats in pounds, a routine in kg and an increment with no unit
        let s = try Self.suggest("squat 3x5 linear +5", Self.history(Self.sets(Self.lb(225), 5, 5, 5)), unit: .kg)
        // Then the plan is in kg, the unit `ok 100` would be read in: 225lb is 102.5kg, and +5 is kg
        #expect(Self.shown(s) == "107.5kg x 5, 107.5kg x 5, 107.5kg x 5")
        #expect(s.reason == "last time 225lb x 5,5,5 (102.5kg): all reps done, +5kg")
    }

    @Test func anIncrementInAnotherUnitIsConvertedThenRounded() throws {
        // Given 100kg done on a line in kg with `+5lb` (2.27kg)
        let s = try Self.suggest("squat 3x5 100kg linear +5lb", Self.history(Self.sets(Self.kg(100), 5, 5, 5)), unit: .lb)
        // Then 102.27kg rounds to the 2.5kg plates: 102.5kg
        #expect(s.sets[0].weight == Self.kg(102.5))
    }

    @Test func threeMissesInPoundsRoundDownToFivePounds() throws {
        let miss = Self.sets(Self.lb(185), 5, 5, 4)
        let s = try Self.suggest("bench 3x5 linear +5", Self.history(miss, miss, miss), unit: .lb)
        // 166.5lb, rounded down to 165
        #expect(s.sets[0].weight == Self.lb(165))
    }

    @Test func anIncrementSmallerThanThePlatesStillMovesTheBar() throws {
        // +1kg on 20kg would round back to 20 with 2.5kg steps; the next load up is taken instead
        let s = try Self.suggest("curl 3x10 linear +1", Self.history(Self.sets(Self.kg(20), 10, 10, 10)))
        #expect(s.sets[0].weight == Self.kg(22.5))
    }

    @Test func theRoundingIsAParameter() throws {
        // Given plates that make 1kg steps
        let s = try Self.suggest("curl 3x10 linear +1", Self.history(Self.sets(Self.kg(20), 10, 10, 10)),
                                 rounding: StepRounding(kilogramStep: Fixed(1)))
        #expect(s.sets[0].weight == Self.kg(21))
    }

    @Test func linearWithARangeCountsTheBottomOfTheRangeAsDone() throws {
        let s = try Self.suggest("row 3x8-12 linear +2.5", Self.history(Self.sets(Self.kg(60), 9, 8, 8)))
        #expect(Self.shown(s) == "62.5kg x 8 (8-12), 62.5kg x 8 (8-12), 62.5kg x 8 (8-12)")
    }

    @Test func linearWithNoHistoryStartsFromTheRoutinesWeightOrAsks() throws {
        // Given no history
        let given = try Self.suggest("squat 3x5 100 linear +5", [], unit: .lb)
        let none = try Self.suggest("squat 3x5 linear +5", [PastSession(startedAt: 0, sets: [
            SetValues(kind: .warmup, weight: Self.kg(60), reps: 5),
        ])])
        // Then the routine's weight in the user's unit, or no weight for the user to pick
        #expect(Self.shown(given) == "100lb x 5, 100lb x 5, 100lb x 5")
        #expect(given.reason == "no session of this line yet: the routine's 100lb")
        #expect(none.sets.count == 3 && none.sets.allSatisfy { $0.needsLoad })
        #expect(Self.shown(none) == "? x 5, ? x 5, ? x 5")
        #expect(none.reason == "no session of this line yet and no weight in the routine: pick a weight")
    }

    @Test func historyIsReadOldestFirstWhateverOrderItCameIn() throws {
        let old = PastSession(startedAt: 1_000, sets: Self.sets(Self.kg(80), 5, 5, 5))
        let new = PastSession(startedAt: 2_000, sets: Self.sets(Self.kg(100), 5, 5, 2))
        let s = Progression.suggest(for: try Self.line("bench 3x5 linear +2.5"), history: [new, old], unit: .kg)
        #expect(s.sets[0].weight == Self.kg(100))
    }

    // MARK: double

    @Test func doubleAddsARepPerSetWithinTheRange() throws {
        // Given 10, 9, 8 at 80kg in 8-12
        let s = try Self.suggest("incline db press 3x8-12 double +2", Self.history(Self.sets(Self.kg(80), 10, 9, 8)))
        // Then the same weight, one more rep each
        #expect(Self.shown(s) == "80kg x 11 (8-12), 80kg x 10 (8-12), 80kg x 9 (8-12)")
        #expect(s.reason == "last time 80kg x 10,9,8: same weight, one more rep per set up to 12")
    }

    @Test func doubleStopsAtTheTopForSetsThatReachedIt() throws {
        let s = try Self.suggest("press 3x8-12 double +2", Self.history(Self.sets(Self.kg(40), 12, 12, 10)))
        #expect(s.sets.map(\.reps) == [12, 12, 11])
        #expect(s.sets.allSatisfy { $0.weight == Self.kg(40) })
    }

    @Test func doubleAddsTheIncrementOnceEverySetReachedTheTopAndGoesBackToTheBottom() throws {
        // Given every set at 12 of 8-12, with 1kg plates
        let s = try Self.suggest("incline db press 3x8-12 double +2", Self.history(Self.sets(Self.kg(30), 12, 12, 12)),
                                 rounding: StepRounding(kilogramStep: Fixed(1)))
        // Then +2kg and 8 reps
        #expect(Self.shown(s) == "32kg x 8 (8-12), 32kg x 8 (8-12), 32kg x 8 (8-12)")
        #expect(s.reason == "last time 30kg x 12,12,12: every set reached 12, +2kg and back to 8 reps")
    }

    @Test func doubleWithATypedRangeUsesItAndWithMissingSetsFollowsTheLastSetDone() throws {
        // Given `3x10 double 8-12` and a session of two sets at 12
        let s = try Self.suggest("curl 3x10 double 8-12 +5lb", Self.history(Self.sets(Self.lb(50), 12, 12)))
        // Then not every planned set was done at 12: same weight, the missing set from the last one done
        #expect(Self.shown(s) == "50lb x 12 (8-12), 50lb x 12 (8-12), 50lb x 12 (8-12)")
        #expect(s.reason == "last time 50lb x 12,12: same weight, one more rep per set up to 12; 1 set not done last time from its last set")
    }

    @Test func doubleFollowsEachSetsOwnLastTimeAndASetAboveTheTopStaysAtIt() throws {
        // Given issue 48: `90lb x 15,15` with a top of 12, and `60kg x 9` on `3x8-12 double +5`
        let over = try Self.suggest("db press 3x8-12 double +5", Self.history(Self.sets(Self.lb(90), 15, 15)), unit: .lb)
        let one = try Self.suggest("bench 3x8-12 double +5", Self.history(Self.sets(Self.kg(60), 9)))
        // Then no set drops to the bottom: the top for all three, and 10 for all three
        #expect(Self.shown(over) == "90lb x 12 (8-12), 90lb x 12 (8-12), 90lb x 12 (8-12)", "\(Self.shown(over))")
        #expect(Self.shown(one) == "60kg x 10 (8-12), 60kg x 10 (8-12), 60kg x 10 (8-12)", "\(Self.shown(one))")
        // And once all three were done at the top, the weight goes up
        let up = try Self.suggest("db press 3x8-12 double +5", Self.history(Self.sets(Self.lb(90), 15, 12, 12)), unit: .lb)
        #expect(Self.shown(up) == "95lb x 8 (8-12), 95lb x 8 (8-12), 95lb x 8 (8-12)", "\(Self.shown(up))")
    }

    @Test func doubleOnBodyweightAddsWeightToTheBody() throws {
        let top = Self.history([SetValues(bodyweight: true, reps: 12), SetValues(bodyweight: true, reps: 12),
                                SetValues(bodyweight: true, reps: 12)])
        let s = try Self.suggest("dip bw 3x8-12 double +2.5", top)
        #expect(Self.shown(s) == "bw+2.5kg x 8 (8-12), bw+2.5kg x 8 (8-12), bw+2.5kg x 8 (8-12)")
        #expect(s.sets[0].values == SetValues(weight: Self.kg(2.5), bodyweight: true, reps: 8))
    }

    @Test func doubleWithNoHistoryStartsAtTheBottomOfTheRange() throws {
        let s = try Self.suggest("dip bw 3x8-12 double +2.5", [])
        #expect(Self.shown(s) == "bw x 8 (8-12), bw x 8 (8-12), bw x 8 (8-12)")
        #expect(s.reason == "no session of this line yet: the routine's bw")
    }

    // MARK: no rule

    @Test func noRuleSuggestsLastTimesWeightAtThePlannedReps() throws {
        // Given 100kg x 5, 5, 4 after a ramp, and a plan of four sets of 5
        let last = Self.sets(Self.kg(60), 8) + Self.sets(Self.kg(100), 5, 5, 4)
        let s = try Self.suggest("bench 4x5", Self.history(last))
        // Then last time's top weight, at the reps the plan says
        #expect(Self.shown(s) == "100kg x 5, 100kg x 5, 100kg x 5, 100kg x 5")
        #expect(s.reason == "last time 100kg x 5,5,4")
        // And 15 reps last time does not make a plan of 10 a plan of 15 (issue 26 item 4)
        let curls = try Self.suggest("hammer curl 3x10", Self.history(Self.sets(Self.kg(24), 15, 15, 15)))
        #expect(Self.shown(curls) == "24kg x 10, 24kg x 10, 24kg x 10", "\(Self.shown(curls))")
        // Within a planned range, last time's reps stay, kept in the range
        let range = try Self.suggest("dip 3x8-12", Self.history(Self.sets(Self.kg(10), 14, 9, 7)))
        #expect(Self.shown(range) == "10kg x 12 (8-12), 10kg x 9 (8-12), 10kg x 8 (8-12)", "\(Self.shown(range))")
    }

    @Test func noRuleAndNoHistoryUsesTheRoutinesLoadOrAsks() throws {
        let given = try Self.suggest("pullup bw+10 3x6", [])
        let none = try Self.suggest("bench 3x5", [])
        #expect(Self.shown(given) == "bw+10kg x 6, bw+10kg x 6, bw+10kg x 6")
        #expect(none.sets.allSatisfy { $0.needsLoad })
    }

    // MARK: 5/3/1

    /// One 5/3/1 session: its sets are whatever was lifted; only the count matters.
    static func sessions(_ count: Int, from start: Int64 = 0) -> [PastSession] {
        (0..<count).map { PastSession(startedAt: start + Int64($0) * 86_400_000, sets: sets(kg(50), 5, 5, 5)) }
    }

    @Test("5/3/1 waves through a full cycle, deloads, then raises the training max", arguments: [
        // sessions done, week, sets (TM 60kg, 2.5kg plates, nearest)
        (0, 1, "40kg x 5, 45kg x 5, 50kg x 5+"),        // 39, 45, 51
        (1, 2, "42.5kg x 3, 47.5kg x 3, 55kg x 3+"),    // 42, 48, 54
        (2, 3, "45kg x 5, 50kg x 3, 57.5kg x 1+"),      // 45, 51, 57
        (3, 4, "25kg x 5, 30kg x 5, 35kg x 5"),         // 24, 30, 36: deload, no AMRAP
        (4, 1, "40kg x 5, 47.5kg x 5, 52.5kg x 5+"),    // TM 62.5: 40.6, 46.9, 53.1
        (8, 1, "42.5kg x 5, 50kg x 5, 55kg x 5+"),      // TM 65: 42.25, 48.75, 55.25
    ])
    func fiveThreeOneWave(done: Int, week: Int, expected: String) throws {
        // Given `done` sessions of OHP since the training max was set
        let s = try Self.suggest("ohp 5/3/1 tm 60", Self.sessions(done))
        // Then today is that week of that cycle, the last set AMRAP outside the deload
        #expect(Self.shown(s) == expected)
        #expect(s.wave?.week == week)
        #expect(s.wave?.cycle == done / 4 + 1)
        #expect(s.sets.map(\.amrap) == [false, false, week != 4])
    }

    @Test func fiveThreeOneSaysWhereItIs() throws {
        let first = try Self.suggest("ohp 5/3/1 tm 60", [])
        let deload = try Self.suggest("ohp 5/3/1 tm 60", Self.sessions(3))
        let second = try Self.suggest("ohp 5/3/1 tm 60", Self.sessions(5))
        #expect(first.reason == "5/3/1 cycle 1 week 1: 65/75/85% of TM 60kg, last set as many reps as you can")
        #expect(deload.reason == "5/3/1 cycle 1 week 4 (deload): 40/50/60% of TM 60kg")
        #expect(second.reason == "5/3/1 cycle 2 week 2: 70/80/90% of TM 62.5kg, last set as many reps as you can "
            + "(60kg + 2.5kg per cycle, upper body)")
        #expect(second.wave == WavePosition(cycle: 2, week: 2, trainingMax: Self.kg(62.5)))
    }

    @Test("the training max rises by body region and unit", arguments: [
        ("ohp 5/3/1 tm 60kg", Weight(Fixed(thousandths: 62_500), .kg)),
        ("bench press 5/3/1 tm 100kg", Weight(Fixed(thousandths: 102_500), .kg)),
        ("squat 5/3/1 tm 100kg", Weight(Fixed(105), .kg)),
        ("Sumo Deadlift 5/3/1 tm 180kg", Weight(Fixed(185), .kg)),
        ("bench 5/3/1 tm 200lb", Weight(Fixed(205), .lb)),
        ("front squat 5/3/1 tm 300", Weight(Fixed(310), .lb)),  // no unit: the user's, lb here
    ])
    func trainingMaxRise(text: String, afterOneCycle: Weight) throws {
        let s = try Self.suggest(text, Self.sessions(4), unit: .lb)
        #expect(s.wave?.trainingMax == afterOneCycle)
    }

    @Test func fiveThreeOneInPoundsRoundsToFivePounds() throws {
        // TM 200lb, week 1: 130, 150, 170
        let s = try Self.suggest("bench 5/3/1 tm 200lb", [])
        #expect(Self.shown(s) == "130lb x 5, 150lb x 5, 170lb x 5+")
    }

    @Test func fiveThreeOneCountsOnlySessionsSinceTheTrainingMaxWasSet() throws {
        // Given five sessions under an older training max and two entered since the line was saved
        let older = Self.sessions(5, from: 0)
        let since = Self.sessions(2, from: 10 * 86_400_000)
        let line = try Self.line("ohp 5/3/1 tm 60")
        let counted = LineHistory.basis(for: line, lineSessions: older + since, since: 10 * 86_400_000, exerciseSessions: nil)
        // Then it is week 3 of cycle 1, counted from the first session since
        let s = Progression.suggest(for: line, history: counted.sessions, unit: .kg)
        #expect(s.wave == WavePosition(cycle: 1, week: 3, trainingMax: Self.kg(60)))
        #expect(counted.basis == .line(sessions: 2, first: 10 * 86_400_000, since: 10 * 86_400_000))
        // And sessions with only warm-ups do not move the wave
        let warmupsOnly = PastSession(startedAt: 20 * 86_400_000, sets: [SetValues(kind: .warmup, weight: Self.kg(20), reps: 5)])
        let t = Progression.suggest(for: line, history: counted.sessions + [warmupsOnly], unit: .kg)
        #expect(t.wave?.week == 3)
    }

    @Test("lower-body lifts are told by their names", arguments: [
        ("squat", LiftRegion.lower), ("Back-Squat", .lower), ("front squats", .lower), ("Romanian Deadlift", .lower),
        ("RDL", .lower), ("leg press", .lower), ("walking lunges", .lower), ("hip thrust", .lower),
        ("good morning", .lower), ("trap bar deadlift", .lower),
        ("bench", .upper), ("ohp", .upper), ("overhead press", .upper), ("pull-up", .upper), ("barbell row", .upper),
    ])
    func regions(name: String, region: LiftRegion) {
        #expect(LiftRegion.of(exerciseName: name) == region)
    }

    @Test("step rounding goes down, up or to the nearest step", arguments: [
        (92.25, WeightUnit.kg, RoundingDirection.down, Fixed(90)),
        (92.25, .kg, .up, Fixed(thousandths: 92_500)),
        (91.25, .kg, .nearest, Fixed(thousandths: 92_500)),      // halfway goes up
        (91.2, .kg, .nearest, Fixed(90)),
        (97.49999999, .kg, .down, Fixed(thousandths: 97_500)),   // a computed 97.5 is 97.5
        (166.5, .lb, .down, Fixed(165)),
        (167.5, .lb, .nearest, Fixed(170)),
        (-18.0, .kg, .down, Fixed(-20)),
        (-18.0, .kg, .up, Fixed(thousandths: -17_500)),
    ])
    func stepRounding(target: Double, unit: WeightUnit, direction: RoundingDirection, expected: Fixed) {
        #expect(StepRounding.standard.makeable(target, in: unit, direction) == expected)
    }

    @Test func aZeroStepCannotDivideByZero() {
        #expect(StepRounding(kilogramStep: Fixed(0)).makeable(92.2345, in: .kg, .nearest) == Fixed(thousandths: 92_235))
    }
}
