import Foundation
import GymLogCore
@testable import GymLogStore
import Testing

@Suite struct LogbookTests {
    @Test func exercisesResolveByAliasAndPrefixAndNearMissesWriteNothing() throws {
        let db = try temporaryDatabase()
        try log(db, "Bench Press 100x5")
        _ = try db.addAlias("bp", for: "bench press")
        #expect(try log(db, "bp 100x5").exercise.name == "Bench Press")
        #expect(try log(db, "bench 100x5").exercise.name == "Bench Press")
        let before = try count(db, "SELECT COUNT(*) FROM outbox")
        let error = #expect(throws: UserError.self) { try log(db, "bench prss 100x5") }
        #expect(error?.message.contains("Did you mean 'Bench Press'") == true)
        #expect(error?.span == Span(0, 10))
        #expect(try count(db, "SELECT COUNT(*) FROM outbox") == before)
        #expect(try count(db, "SELECT COUNT(*) FROM exercises") == 1)
    }

    @Test func aParsedSupersetLineLogsOneRoundAndPlusRepeatsTheRound() throws {
        // Given a superset line logged through the one dispatch of a parsed line
        let db = try temporaryDatabase()
        guard case .success(let round) = EntryParser.parse("bench 100x5 & row 70x8"),
              case .success(let plus) = EntryParser.parse("+ x6") else { Issue.record("did not parse"); return }
        let logged = try db.logEntry(round, typed: "bench 100x5 & row 70x8")
        // When `+` is logged the same way
        let repeated = try db.logEntry(plus, typed: "+ x6")
        // Then both exercises were logged, in one superset, and `+` logged the whole round again
        #expect(logged.map(\.exercise.name) == ["bench", "row"])
        #expect(repeated.map(\.exercise.name) == ["bench", "row"])
        #expect(repeated.map { $0.sets[0].set.values.reps } == [6, 6])
        let supersets = Set((logged + repeated).map { $0.sets[0].set.supersetID })
        #expect(supersets.count == 1 && supersets.first! != nil)
        #expect(try count(db, "SELECT COUNT(*) FROM sets") == 4)
    }

    @Test func anAmbiguousPrefixListsTheCandidates() throws {
        let db = try temporaryDatabase()
        try log(db, "Incline Press 60x8")
        try log(db, "Incline Curl 12x10")
        let error = #expect(throws: UserError.self) { try log(db, "incline 60x8") }
        #expect(error?.message.contains("'Incline Curl'") == true)
        #expect(error?.message.contains("'Incline Press'") == true)
    }

    @Test func twoDevicesCreatingTheSameExerciseAgreeOnItsID() throws {
        let a = try temporaryDatabase(), b = try temporaryDatabase()
        let ea = try log(a, "front squat 100x5").exercise, eb = try log(b, "Front Squat 90x5").exercise
        #expect(ea.id == eb.id)
    }

    @Test func theIdleGapStartsANewWorkoutAndClosesTheOldOneAtItsLastSet() throws {
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        let first = try log(db, "bench 100x5")
        world.advance(minutes: 30)
        let second = try log(db, "bench 100x5")
        #expect(second.workout.id == first.workout.id)
        world.advance(minutes: 121)
        let third = try log(db, "bench 100x5")
        #expect(third.startedWorkout && third.workout.id != first.workout.id)
        let old = try #require(try db.workoutDetail(first.workout.id))
        #expect(old.workout.endedAt == second.sets[0].set.performedAt)
    }

    @Test func finishEndsTheWorkoutAndTheNextSetStartsAnother() throws {
        let db = try temporaryDatabase()
        let first = try log(db, "bench 100x5")
        guard case .finished(let summary) = try db.finishWorkout() else { Issue.record("not finished"); return }
        #expect(summary.workout.id == first.workout.id)
        #expect(try db.openWorkout() == nil)
        #expect(try log(db, "bench 100x5").startedWorkout)
    }

    @Test func repeatKeepsTheTypedUnitAndAppliesChanges() throws {
        let db = try temporaryDatabase()
        try log(db, "bench 225lb x5 @8")
        let repeated = try log(db, "+ 230 x4")
        #expect(repeated.sets[0].set.weight == Weight(Fixed(230), .lb))
        #expect(repeated.sets[0].set.reps == 4)
        #expect(repeated.sets[0].set.rpe == Fixed(8))
        #expect(try log(db, "+").sets[0].set.weight?.description == "230lb")
    }

    @Test func theNumberTypedIsTheNumberShown() throws {
        let db = try temporaryDatabase()
        for typed in ["224.999", "102.5", "0.125", "1000"] {
            try log(db, "curl \(typed)x5")
        }
        let shown = try db.workoutDetail()!.sets.map { $0.set.weight!.value.description }
        #expect(shown == ["224.999", "102.5", "0.125", "1000"])
    }

    @Test func editAndDeleteByNumberTargetTheWorkoutsNthSet() throws {
        let db = try temporaryDatabase()
        try log(db, "bench 100x5 105x3 110x1")
        let edited = try db.editSet(.number(2), patch: SetPatch(reps: 4))
        #expect(edited.set.reps == 4 && edited.set.weight?.value == Fixed(105))
        _ = try db.deleteSet(.number(1))
        #expect(try db.workoutDetail()!.sets.map { $0.set.weight!.value } == [Fixed(105), Fixed(110)])
        #expect(throws: UserError.self) { try db.deleteSet(.number(9)) }
    }
}
