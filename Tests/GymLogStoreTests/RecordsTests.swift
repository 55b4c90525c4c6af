import Foundation
import GymLogCore
@testable import GymLogStore
import Testing

@Suite struct RecordsTests {
    @Test func aHeavierSetIsAnnouncedAndAWarmUpNeverCounts() throws {
        let db = try temporaryDatabase()
        let first = try log(db, "bench 100x5")
        #expect(first.sets[0].records.allSatisfy { $0.previous == nil }, "the first set sets records quietly")
        let warmup = try log(db, "bench w120x5")
        #expect(warmup.sets[0].records.isEmpty)
        let heavier = try log(db, "bench 102.5x5")
        let metrics = Set(heavier.sets[0].records.map(\.metric))
        #expect(metrics.isSuperset(of: [.weight, .e1rm, .repMax, .setVolume]))
        let weight = try #require(heavier.sets[0].records.first { $0.metric == .weight })
        #expect(weight.previous == 100)
    }

    @Test func poundsAndKilogramsCompareInOneUnitButDisplayAsTyped() throws {
        let db = try temporaryDatabase()
        try log(db, "bench 100kg x5")
        let lb = try log(db, "bench 225lb x5")   // 102.06 kg
        #expect(lb.sets[0].set.weight == Weight(Fixed(225), .lb))
        #expect(lb.sets[0].records.contains { $0.metric == .weight && $0.previous == 100 })
        let lighter = try log(db, "bench 220lb x5")   // 99.79 kg
        #expect(!lighter.sets[0].records.contains { $0.metric == .weight })
        let records = try db.records()
        let heaviest = try #require(records.first?.records.first { $0.metric == .weight })
        #expect(heaviest.set.weight?.description == "225lb")
    }

    @Test func repMaxTableKeepsTheBestWeightPerRepCount() throws {
        let db = try temporaryDatabase()
        try log(db, "squat 140x5 150x3 160x1 120x12 100x13")
        let table = try db.records().first!.records.filter { $0.metric == .repMax }
        #expect(table.map(\.reps) == [1, 3, 5, 12], "13 reps is outside the 1-12 table")
        #expect(table.first { $0.reps == 3 }?.value == 150)
    }

    @Test func undoingTheRecordSetRestoresThePreviousRecord() throws {
        let db = try temporaryDatabase()
        try log(db, "deadlift 180x5")
        try log(db, "deadlift 200x5")
        #expect(try heaviest(db) == 200)
        _ = try db.undo(confirmed: true)
        #expect(try heaviest(db) == 180)
        _ = try db.redo(confirmed: true)
        #expect(try heaviest(db) == 200)
    }

    @Test func editingASetRecomputesItsRecords() throws {
        let db = try temporaryDatabase()
        try log(db, "press 60x5")
        try log(db, "press 65x5")
        _ = try db.editSet(.last, patch: SetPatch(load: .weight(Fixed(55), nil)))
        #expect(try heaviest(db) == 60)
    }

    @Test func sessionVolumeIsAnnouncedOnceWhenItPassesAnEarlierWorkout() throws {
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        try log(db, "row 50x10x3")   // 1500 in workout 1
        world.advance(minutes: 24 * 60)
        let announcements = try (1...4).map { _ in try log(db, "row 50x10").sets[0].records.filter { $0.metric == .sessionVolume && $0.previous != nil } }
        // 500, 1000, 1500 (tie), 2000: only the fourth set beats workout 1
        #expect(announcements.map(\.count) == [0, 0, 0, 1])
    }

    @Test func brzyckiFormulaIsUsedWhenConfigured() throws {
        let db = try temporaryDatabase(settings: Settings(e1rmFormula: .brzycki))
        try log(db, "bench 100x10")
        let e1rm = try #require(try db.records().first?.records.first { $0.metric == .e1rm })
        #expect(abs(e1rm.value - 100 * 36 / 27) < 1e-9)
    }

    @Test func bodyweightSetsRecordRepsAndAddedWeight() throws {
        let db = try temporaryDatabase()
        try log(db, "dip bw x10")
        let added = try log(db, "dip +20x6")
        #expect(added.sets[0].set.bodyweight)
        let recs = try db.records().first!.records
        #expect(recs.first { $0.metric == .reps }?.value == 10)
        #expect(recs.first { $0.metric == .weight }?.value == 20)
    }

    @Test func aFasterRunIsARecordForItsDistanceAndASlowerOneIsNot() throws {
        // Given a 5 km run in 25:10
        let db = try temporaryDatabase()
        try log(db, "run 5km 25:10")
        // When a slower 5 km, a faster 5000 m and a first 10 km follow
        let slower = try log(db, "run 5km 26:00")
        let faster = try log(db, "run 5000m 24:20")
        let tenK = try log(db, "run 10km 52:00")
        // Then only the faster 5 km beats the 5 km time and the pace (lower is better)
        #expect(!slower.sets[0].records.contains { $0.metric == .fastest || $0.metric == .pace })
        let fastest = try #require(faster.sets[0].records.first { $0.metric == .fastest })
        #expect(fastest.reps == 5000 && fastest.value == 1460 && fastest.previous == 1510)
        #expect(faster.sets[0].records.first { $0.metric == .pace }?.previous == 302)
        // A new distance has its own record, set quietly; its slower pace is no record
        #expect(tenK.sets[0].records.filter { $0.previous != nil }.map(\.metric) == [.distance])
        let table = try db.records().first!.records
        #expect(table.filter { $0.metric == .fastest }.map(\.reps).sorted() == [5000, 10000])
        #expect(table.first { $0.metric == .pace }?.value == 292)
    }

    @Test func deletingTheFastestRunRestoresTheSlowerTime() throws {
        let db = try temporaryDatabase()
        try log(db, "run 5km 25:10")
        try log(db, "run 5km 24:00")
        _ = try db.undo(confirmed: true)
        let table = try db.records().first!.records
        #expect(table.first { $0.metric == .fastest }?.value == 1510, "a rebuild keeps the lowest time, not the highest")
    }

    @Test func recordsKeptBeforeFastestTimesAreRebuiltOnTheNextRun() throws {
        // Given a 5 km run whose records were kept by an older gymlog (a longest distance, no time or pace)
        let db = try temporaryDatabase()
        try log(db, "run 5km 25:10")
        try db.queue.write { try $0.execute(sql: "DELETE FROM records WHERE metric IN ('fastest_time', 'best_pace')") }
        // When a faster 5 km is logged
        let faster = try log(db, "run 5km 24:20")
        // Then it is compared with the earlier run and announced
        #expect(faster.sets[0].records.first { $0.metric == .fastest }?.previous == 1510)
        #expect(faster.sets[0].records.first { $0.metric == .pace }?.previous == 302)
    }

    @Test func assistedRepsAreNoRepsRecord() throws {
        let db = try temporaryDatabase()
        try log(db, "pullup bw x8")
        let assisted = try log(db, "pullup bw-30x15")
        #expect(!assisted.sets[0].records.contains { $0.metric == .reps })
        #expect(try db.records().first!.records.first { $0.metric == .reps }?.value == 8)
    }

    @Test func aSessionVolumeRecordNamesItsWorkout() throws {
        // Given a workout of three working sets and a warm-up, and a lighter one the next day
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        try log(db, "row w40x10")
        let best = try log(db, "row 50x10x3")
        world.advance(minutes: 24 * 60)
        try log(db, "row 50x10")
        // Then the record belongs to the first workout, with its three working sets
        let record = try #require(try db.records().first?.records.first { $0.metric == .sessionVolume })
        #expect(record.value == 1500 && record.set.workoutID == best.workout.id)
        let size = try #require(try db.sessionSize(workoutID: record.set.workoutID, exerciseID: record.set.exerciseID))
        #expect(size.sets == 3 && size.startedAt == best.workout.startedAt)
    }

    @Test func theFirstTrainingDayIgnoresWarmUps() throws {
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        #expect(try db.firstTrainingDay() == nil)
        try log(db, "bench w60x10")
        world.advance(minutes: 3 * 24 * 60)
        let working = try log(db, "bench 100x5")
        #expect(try db.firstTrainingDay() == LineChart.day(millis: working.sets[0].set.performedAt, utcOffsetSeconds: working.sets[0].set.utcOffsetSeconds))
    }

    private func heaviest(_ db: GymLogDatabase) throws -> Double? {
        try db.records().first?.records.first { $0.metric == .weight }?.value
    }
}
