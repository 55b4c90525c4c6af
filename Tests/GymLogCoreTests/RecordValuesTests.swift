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

    @Test("bodyweight sets: reps unless assisted, added load as weight and rep max, assisted load never")
    func bodyweight() {
        // Given a plain, a weighted and an assisted pull-up set
        let plain = recordValues(of: Self.set(SetValues(bodyweight: true, reps: 12)), formula: .epley)
        let added = recordValues(of: Self.set(SetValues(weight: Weight(Fixed(20), .kg), bodyweight: true, reps: 6)), formula: .epley)
        let assisted = recordValues(of: Self.set(SetValues(weight: Weight(Fixed(-20), .kg), bodyweight: true, reps: 6)), formula: .epley)
        // Then
        #expect(plain == [RecordValue(.reps, 12)])
        #expect(added == [RecordValue(.reps, 6), RecordValue(.weight, 20), RecordValue(.repMax, reps: 6, 20)])
        #expect(assisted.isEmpty, "an assisted set is easier than bodyweight: its reps are no record")
    }

    @Test("timed sets hold a duration; distance sets a distance, the fastest time for it and a pace")
    func timedAndDistance() {
        #expect(recordValues(of: Self.set(SetValues(durationSeconds: 90)), formula: .epley) == [RecordValue(.duration, 90)])
        // Given 2 km in 7:41
        let run = recordValues(of: Self.set(SetValues(durationSeconds: 461, distance: Distance(Fixed(2), .km))), formula: .epley)
        // Then its time is the fastest for 2000 m and its pace is 3:50.5 per km
        #expect(run == [RecordValue(.distance, 2000), RecordValue(.fastest, reps: 2000, 461), RecordValue(.pace, 230.5)])
        // A distance without a time has no speed
        #expect(recordValues(of: Self.set(SetValues(distance: Distance(Fixed(5), .km))), formula: .epley) == [RecordValue(.distance, 5000)])
        #expect(recordValues(of: Self.set(SetValues(weight: Weight(Fixed(0), .kg), reps: 5)), formula: .epley).isEmpty)
    }

    @Test("the same distance typed in another unit shares one fastest-time record")
    func distanceKeys() {
        let metres = recordValues(of: Self.set(SetValues(durationSeconds: 1500, distance: Distance(Fixed(5000), .m))), formula: .epley)
        let km = recordValues(of: Self.set(SetValues(durationSeconds: 1500, distance: Distance(Fixed(5), .km))), formula: .epley)
        #expect(metres.first { $0.metric == .fastest }?.reps == km.first { $0.metric == .fastest }?.reps)
        #expect(RecordMetric.distanceKey(meters: Distance(Fixed(1), .mi).meters) == 1609)
    }

    @Test("times and paces improve downwards, everything else upwards")
    func improvement() {
        #expect(RecordMetric.fastest.improves(1490, on: 1510))
        #expect(!RecordMetric.fastest.improves(1520, on: 1510), "a slower 5 km is no record")
        #expect(RecordMetric.pace.improves(290, on: 300) && !RecordMetric.pace.improves(300, on: 300))
        #expect(RecordMetric.weight.improves(101, on: 100) && !RecordMetric.weight.improves(99, on: 100))
        // Issue 26, item 12: 100 kg after 220.46 lb (99.9998 kg) ties; a quarter kilo beats it
        let pounds = Weight(Fixed(thousandths: 220_460), .lb).kilograms
        #expect(!RecordMetric.weight.improves(100, on: pounds) && !RecordMetric.weight.improves(pounds, on: 100))
        #expect(RecordMetric.weight.improves(100.25, on: pounds) && RecordMetric.repMax.improves(100.25, on: 100))
        #expect(!RecordMetric.setVolume.improves(500, on: pounds * 5) && RecordMetric.setVolume.improves(505, on: 500))
        #expect(RecordMetric.fastest.improves(1510, on: nil) && !RecordMetric.fastest.improves(0, on: nil))
    }

    @Test("distances and paces read as a runner writes them")
    func formats() {
        #expect(formatMeters(5000) == "5km" && formatMeters(21100) == "21.1km" && formatMeters(400) == "400m")
        #expect(formatMeters(1609.344) == "1609.3m" && formatMeters(2000) == "2km")
        #expect(formatPace(secondsPerUnit: 292) == "4:52" && formatPace(secondsPerUnit: 45.4) == "0:45")
        #expect(RecordMetric.fastest.label(reps: 5000) == "fastest 5km")
    }

    @Test("a load in kilograms reads back in either unit")
    func conversion() {
        #expect(WeightUnit.kg.fromKilograms(102.5) == 102.5)
        #expect(abs(WeightUnit.lb.fromKilograms(Weight(Fixed(225), .lb).kilograms) - 225) < 1e-9)
        #expect(DistanceUnit.mi.metersPerUnit == 1609.344 && DistanceUnit.mi.meters(Fixed(2)) == 3218.688)
    }

    @Test("working volume: weighted, non-warm-up sets only")
    func volume() {
        #expect(workingVolume(of: Self.set(SetValues(weight: Weight(Fixed(100), .kg), reps: 5))) == 500)
        #expect(workingVolume(of: Self.set(SetValues(kind: .warmup, weight: Weight(Fixed(100), .kg), reps: 5))) == 0)
        // Without the day's bodyweight, a bodyweight set counts its added load at least (issue 26,
        // item 20: a Hevy lifter's tonnage fell 5 %), an assisted or plain one nothing
        #expect(workingVolume(of: Self.set(SetValues(weight: Weight(Fixed(20), .kg), bodyweight: true, reps: 5))) == 100)
        #expect(workingVolume(of: Self.set(SetValues(weight: Weight(Fixed(-20), .kg), bodyweight: true, reps: 5))) == 0)
        #expect(workingVolume(of: Self.set(SetValues(bodyweight: true, reps: 5))) == 0)
        // With the day's bodyweight a bodyweight set counts its total; assistance takes off
        #expect(workingVolume(of: Self.set(SetValues(weight: Weight(Fixed(20), .kg), bodyweight: true, reps: 5)),
                              bodyweight: Weight(Fixed(80), .kg)) == 500)
        #expect(workingVolume(of: Self.set(SetValues(weight: Weight(Fixed(-20), .kg), bodyweight: true, reps: 5)),
                              bodyweight: Weight(Fixed(80), .kg)) == 300)
        #expect(workingVolume(of: Self.set(SetValues(bodyweight: true, reps: 10)), bodyweight: Weight(Fixed(176), .lb)) > 798)
    }

    @Test func aSetTakesTheLastBodyweightOnOrBeforeIt() {
        let timeline = BodyweightTimeline([(at: 3_000, weight: Weight(Fixed(82), .kg)), (at: 1_000, weight: Weight(Fixed(80), .kg))])
        #expect(timeline.weight(at: 999) == nil)
        #expect(timeline.weight(at: 1_000) == Weight(Fixed(80), .kg))
        #expect(timeline.weight(at: 2_999) == Weight(Fixed(80), .kg))
        #expect(timeline.weight(at: 5_000) == Weight(Fixed(82), .kg))
        #expect(BodyweightTimeline([]).weight(at: 5_000) == nil)
    }
}
