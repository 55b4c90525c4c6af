import Foundation
import Testing
import GymLogCore

@Suite("recordValues: what one set achieves")
struct RecordValuesTests {
    static func set(_ values: SetValues) -> LoggedSet {
        LoggedSet(id: UUID(), workoutID: UUID(), exerciseID: UUID(), values: values, performedAt: 0)
    }

    @Test("a weighted set: top weight, e1RM, rep max and set volume, in kilograms")
    func weightedSet() {
        // Given 100 kg x 5
        let values = recordValues(of: Self.set(SetValues(weight: Weight(Fixed(100), .kg), reps: 5)), formula: .epley)
        // Then
        #expect(values == [RecordValue(.weight, 100), RecordValue(.e1rm, 100 * (1 + 5.0 / 30)),
                           RecordValue(.repMax, reps: 5, 100), RecordValue(.setVolume, 500)])
    }

    @Test("pounds compare in kilograms; above 12 reps there is no e1RM, above the rep-max range no rep max")
    func poundsAndHighReps() {
        let kg = 225 * WeightUnit.kilogramsPerPound
        let values = recordValues(of: Self.set(SetValues(weight: Weight(Fixed(225), .lb), reps: 20)), formula: .brzycki)
        #expect(values.map(\.metric) == [.weight, .setVolume])
        #expect(values.first?.value == kg && values.last?.value == kg * 20)
    }

    @Test("warm-ups achieve nothing; drop and failure sets count")
    func kinds() {
        #expect(recordValues(of: Self.set(SetValues(kind: .warmup, weight: Weight(Fixed(60), .kg), reps: 8)), formula: .epley).isEmpty)
        #expect(!recordValues(of: Self.set(SetValues(kind: .drop, weight: Weight(Fixed(60), .kg), reps: 8)), formula: .epley).isEmpty)
        #expect(!recordValues(of: Self.set(SetValues(kind: .failure, weight: Weight(Fixed(60), .kg), reps: 8)), formula: .epley).isEmpty)
    }

    @Test("bodyweight sets: reps always, added load as weight and rep max, assisted load never")
    func bodyweight() {
        // Given a plain, a weighted and an assisted pull-up set
        let plain = recordValues(of: Self.set(SetValues(bodyweight: true, reps: 12)), formula: .epley)
        let added = recordValues(of: Self.set(SetValues(weight: Weight(Fixed(20), .kg), bodyweight: true, reps: 6)), formula: .epley)
        let assisted = recordValues(of: Self.set(SetValues(weight: Weight(Fixed(-20), .kg), bodyweight: true, reps: 6)), formula: .epley)
        // Then
        #expect(plain == [RecordValue(.reps, 12)])
        #expect(added == [RecordValue(.reps, 6), RecordValue(.weight, 20), RecordValue(.repMax, reps: 6, 20)])
        #expect(assisted == [RecordValue(.reps, 6)])
    }

    @Test("timed sets hold a duration; distance sets a distance in metres (not their time)")
    func timedAndDistance() {
        #expect(recordValues(of: Self.set(SetValues(durationSeconds: 90)), formula: .epley) == [RecordValue(.duration, 90)])
        let run = recordValues(of: Self.set(SetValues(durationSeconds: 461, distance: Distance(Fixed(2), .km))), formula: .epley)
        #expect(run == [RecordValue(.distance, 2000)])
        #expect(recordValues(of: Self.set(SetValues(weight: Weight(Fixed(0), .kg), reps: 5)), formula: .epley).isEmpty)
    }

    @Test("working volume: weighted, non-warm-up sets only")
    func volume() {
        #expect(workingVolume(of: Self.set(SetValues(weight: Weight(Fixed(100), .kg), reps: 5))) == 500)
        #expect(workingVolume(of: Self.set(SetValues(kind: .warmup, weight: Weight(Fixed(100), .kg), reps: 5))) == 0)
        #expect(workingVolume(of: Self.set(SetValues(weight: Weight(Fixed(20), .kg), bodyweight: true, reps: 5))) == 0)
    }
}
