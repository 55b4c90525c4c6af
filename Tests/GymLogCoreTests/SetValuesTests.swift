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
            .reps: .int(8), .rpe: .text("9.5"), .distance: .text("-3"), .note: .null,
        ]
        // When
        let values = SetValues(reading: { stored[$0] ?? .null })
        // Then a weight may be negative (assisted), a distance may not, a missing kind defaults
        #expect(values == SetValues(kind: .drop, weight: Weight(Fixed(thousandths: -22_500), .lb), bodyweight: true, reps: 8,
                                    rpe: Fixed(thousandths: 9500)))
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
}
