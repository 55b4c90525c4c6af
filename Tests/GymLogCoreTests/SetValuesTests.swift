import Foundation
import Testing
import GymLogCore

@Suite("SetValues: the one declaration of a set's fields")
struct SetValuesTests {
    static let samples = [
        SetValues(),
        SetValues(kind: .drop, weight: Weight(Fixed(thousandths: 102_500), .lb), reps: 5, rpe: Fixed(thousandths: 8500),
                  note: "paused, \"touch and go\""),
        SetValues(kind: .warmup, weight: Weight(Fixed(-20), .kg), bodyweight: true, reps: 8),
        SetValues(kind: .failure, durationSeconds: 461, distance: Distance(Fixed(thousandths: 3100), .mi)),
        SetValues(weight: Weight(Fixed(315), .lb), reps: 3, rir: Fixed(thousandths: 1500)),
    ]

    @Test("every field read back from its neutral value gives the same set", arguments: samples)
    func roundTrip(values: SetValues) {
        #expect(SetValues(reading: { values[$0] }) == values)
    }

    @Test("reading from stored text and integers parses decimals, flags and units")
    func readsStoredForms() {
        // Given the forms SQLite hands back: decimals as text, flags as 0/1
        let stored: [SetField: SetFieldValue] = [
            .kind: .text("drop"), .weight: .text("-22.5"), .weightUnit: .text("lb"), .bodyweight: .int(1),
            .reps: .int(8), .rpe: .text("9.5"), .rir: .text("0"), .distance: .text("-3"), .note: .null,
        ]
        // When
        let values = SetValues(reading: { stored[$0] ?? .null })
        // Then a weight may be negative (assisted), a distance may not, a missing kind defaults; RIR 0 is a value
        #expect(values == SetValues(kind: .drop, weight: Weight(Fixed(thousandths: -22_500), .lb), bodyweight: true, reps: 8,
                                    rpe: Fixed(thousandths: 9500), rir: Fixed(0)))
        #expect(SetValues(reading: { $0 == .rir ? .text("-1") : .null }).rir == nil, "a negative RIR is not read")
        #expect(SetValues(reading: { _ in .null }) == SetValues())
        #expect(SetValues(reading: { $0 == .kind ? .text("nonsense") : .null }).kind == .working)
    }

    @Test("a logged set reads and writes its values' fields through key paths")
    func loggedSetForwardsFields() {
        var set = LoggedSet(id: UUID(), workoutID: UUID(), exerciseID: UUID(), values: Self.samples[1], performedAt: 0)
        set.reps = 6
        #expect(set.values.reps == 6 && set.weight == Self.samples[1].weight)
        #expect(set.summary == set.values.summary)
    }

    @Test("RIR is a field of its own, right after RPE, named rir")
    func rirIsAField() {
        let names = SetField.allCases.map(\.rawValue)
        #expect(names.firstIndex(of: "rir") == names.firstIndex(of: "rpe").map { $0 + 1 })
        #expect(SetValues(rir: Fixed(2))[.rir] == .fixed(Fixed(2)))
        #expect(SetValues()[.rir] == .null)
    }

    @Test("a set shows its RIR as typed, where an RPE would go", arguments: [
        (SetValues(weight: Weight(Fixed(315), .lb), reps: 3, rir: Fixed(2)), "315lb x 3 rir2"),
        (SetValues(weight: Weight(Fixed(140), .kg), reps: 5, rir: Fixed(thousandths: 1500)), "140kg x 5 rir1.5"),
        (SetValues(kind: .failure, weight: Weight(Fixed(100), .kg), reps: 3, rir: Fixed(0)), "failure 100kg x 3 rir0"),
        (SetValues(weight: Weight(Fixed(100), .kg), reps: 5, rpe: Fixed(8)), "100kg x 5 @8"),
        // Two devices' edits merged field by field can leave both: both are shown, nothing hidden.
        (SetValues(weight: Weight(Fixed(100), .kg), reps: 5, rpe: Fixed(8), rir: Fixed(2)), "100kg x 5 @8 rir2"),
    ])
    func summaryShowsRIR(values: SetValues, shown: String) {
        #expect(values.summary == shown)
    }

    @Test("an RIR typed on `+` or `edit` replaces the RPE, and an RPE the RIR")
    func patchesReplaceTheOtherEffort() {
        let rpe8 = SetValues(weight: Weight(Fixed(100), .kg), reps: 5, rpe: Fixed(8))
        let withRIR = SetResolver.values(repeating: rpe8, with: SetPatch(rir: Fixed(2)))
        #expect(withRIR.rir == Fixed(2) && withRIR.rpe == nil)
        let back = SetResolver.values(editing: withRIR, with: SetPatch(rpe: Fixed(9)))
        #expect(back.rpe == Fixed(9) && back.rir == nil)
        let kept = SetResolver.values(repeating: withRIR, with: SetPatch(reps: 4))
        #expect(kept.rir == Fixed(2) && kept.reps == 4)
    }

    @Test("RIR is held to 0...10 in steps of 0.5 wherever a set comes from")
    func rirLimits() {
        let set = SetValues(weight: Weight(Fixed(100), .kg), reps: 5)
        for ok in [Fixed(0), Fixed(thousandths: 1500), Fixed(10)] {
            var v = set; v.rir = ok
            #expect(SetLimits.violation(v) == nil, "\(ok)")
        }
        for bad in [Fixed(thousandths: 10_500), Fixed(thousandths: 1250)] {
            var v = set; v.rir = bad
            #expect(SetLimits.violation(v) == "RIR \(bad) is not between 0 and 10 in steps of 0.5")
        }
    }
}
