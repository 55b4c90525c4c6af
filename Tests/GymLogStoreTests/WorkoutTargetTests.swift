import Foundation
import GRDB
import GymLogCore
@testable import GymLogStore
import GymLogTestSupport
import Testing

/// Every command acts on the workout it is meant for: the open one, the past one being filled
/// in, or any workout named by reference; and any workout can be fixed, renamed, moved or
/// deleted as one action.
@Suite struct WorkoutTargetTests {
    /// A local moment `daysAgo` days before the fake world's today (UTC+1), at `hour:minute`.
    private func local(_ world: FakeWorld, daysAgo: Int64, _ hour: Int, _ minute: Int) -> Int64 {
        let today = WorkoutReference.day(startedAt: world.now(), utcOffsetSeconds: 3600)
        return instant(day: today - daysAgo, minute: hour * 60 + minute) { _ in 3600 }
    }

    private func liveSets(_ db: GymLogDatabase, workout: UUID) throws -> [String] {
        try db.workoutDetail(workout)?.sets.map { "\($0.exercise.name) \($0.set.summary)" } ?? []
    }

    @Test func plusInAPastWorkoutRepeatsThatWorkoutsLastSet() throws {
        // Given bench today (finished), and a past workout yesterday at 12:00 with a curl
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        let today = try log(db, "bench 100x5")
        _ = try db.finishWorkout()
        world.advance(minutes: 10)
        let arms = try db.startWorkout(name: "Arms", at: local(world, daysAgo: 1, 12, 0)).workout
        try log(db, "curl 20x10", typed: "curl 20x10", at: arms.startedAt)
        // When `+` is logged at that past workout's time
        let repeated = try log(db, "+", typed: "+", at: local(world, daysAgo: 1, 12, 5))
        // Then the curl is repeated, in Arms, with no record announced, and today's workout is untouched
        #expect(repeated.exercise.name == "curl" && repeated.workout.id == arms.id)
        #expect(repeated.sets.allSatisfy { $0.records.isEmpty })
        #expect(try liveSets(db, workout: arms.id) == ["curl 20kg x 10", "curl 20kg x 10"])
        #expect(try liveSets(db, workout: today.workout.id) == ["bench 100kg x 5"])
    }

    /// Issue 50: a workout dated after now (an import from a clock set wrong, or whose file
    /// carries later dates; here one set of it, as a sync cut short brings it) took the place
    /// of the workout the lifter sees: each line started a workout of its own, and `edit 1`
    /// and `delete 2` addressed the dated one ("There is no set #2: the current workout has 1 set").
    @Test func aWorkoutDatedAfterNowIsNeverTheCurrentOne() throws {
        // Given a history holding one set of a workout a year from now
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        let later = localDateTime(millis: world.now() + 365 * 86_400_000, utcOffsetSeconds: 0).prefix(19)
        _ = try db.importFile(try ImportParser.parse(Array(("Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes\n"
            + "\(later),Later,Squat,1,150,3,0,0,\n").utf8), options: ImportOptions()))
        let dated = try #require(try db.read { try String.fetchOne($0, sql: "SELECT id FROM workouts") }.flatMap(parseUUID))
        // When a set is logged, repeated with `+`, set 1 edited and set 2 deleted, line after line
        let first = try log(db, "row 60x10")
        world.advance(minutes: 2)
        let repeated = try log(db, "+", typed: "+")
        world.advance(minutes: 2)
        let edited = try db.editSet(.number(1), patch: SetPatch(reps: 7))
        let deleted = try db.deleteSet(.number(2))
        // Then all four address one new workout, the one the prompt shows, and the dated one is untouched
        #expect(repeated.workout.id == first.workout.id && first.workout.id != dated)
        #expect(edited.set.summary == "60kg x 7" && edited.set.workoutID == first.workout.id)
        #expect(deleted.summary == "60kg x 10" && deleted.workoutID == first.workout.id)
        #expect(try db.openWorkout()?.workout.id == first.workout.id)
        #expect(try liveSets(db, workout: first.workout.id) == ["row 60kg x 7"])
        #expect(try liveSets(db, workout: dated) == ["Squat 150kg x 3"])
        #expect(try count(db, "SELECT COUNT(*) FROM workouts WHERE deleted_at IS NULL") == 2)
    }

    @Test func editDeleteShowAndNoteActOnThePastWorkoutBeingFilledIn() throws {
        // Given today's finished bench and a past Arms workout with two curls
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        let today = try log(db, "bench 100x5")
        _ = try db.finishWorkout()
        let arms = try db.startWorkout(name: "Arms", at: local(world, daysAgo: 1, 12, 0)).workout
        try log(db, "curl 20x10 22x8", typed: "curl 20x10 22x8", at: arms.startedAt)
        let before = try count(db, "SELECT COUNT(*) FROM workouts")
        // When set 1 is edited, then deleted, and a note is written, in that past workout
        #expect(try db.workoutDetail(.past(arms.id))?.workout.name == "Arms")
        #expect(try db.editSet(.number(1), in: .past(arms.id), patch: SetPatch(reps: 6)).set.summary == "20kg x 6")
        #expect(try db.deleteSet(.last, in: .past(arms.id)).summary == "22kg x 8")
        #expect(try db.noteWorkout("arms day", in: .past(arms.id)).id == arms.id)
        // Then Arms changed, today's bench did not, and no workout was opened
        #expect(try liveSets(db, workout: arms.id) == ["curl 20kg x 6"])
        #expect(try db.workoutDetail(arms.id)?.workout.note == "arms day")
        #expect(try liveSets(db, workout: today.workout.id) == ["bench 100kg x 5"])
        #expect(try count(db, "SELECT COUNT(*) FROM workouts") == before)
        #expect(try db.openWorkout() == nil)
        // And a set number it does not have is named with the reference that shows its sets
        let missing = #expect(throws: UserError.self) { try db.deleteSet(.number(9), in: .reference(.recent(2))) }
        #expect(missing?.message == "There is no set #9: the workout 'Arms' of \(localDateTime(millis: arms.startedAt, utcOffsetSeconds: 3600).prefix(16)) has 1 set; "
            + "`show --workout \(WorkoutReference.dayText(WorkoutReference.day(startedAt: arms.startedAt, utcOffsetSeconds: 3600)))` numbers them.")
    }

    @Test func aBackDatedWorkoutEndsAtItsLastSetWhenFinished() throws {
        // Given a finished workout today, then a session yesterday logged at 18:00, 18:10 and 18:30
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        try log(db, "row 70x8")
        _ = try db.finishWorkout()
        let first = try log(db, "bench 100x5", typed: "bench 100x5", at: local(world, daysAgo: 1, 18, 0))
        try log(db, "bench 100x5", typed: "bench 100x5", at: local(world, daysAgo: 1, 18, 10))
        let last = try log(db, "bench 100x5", typed: "bench 100x5", at: local(world, daysAgo: 1, 18, 30))
        #expect(last.workout.id == first.workout.id)
        // When `finish` is run (no workout is open)
        guard case .finished(let summary) = try db.finishWorkout() else { Issue.record("not finished"); return }
        // Then that session ends at its last set, not now and not a second after its start
        #expect(summary.workout.id == first.workout.id)
        #expect(summary.workout.endedAt == last.sets[0].set.performedAt)
        #expect(try db.workoutDetail(first.workout.id)?.workout.endedAt == last.sets[0].set.performedAt)
        // And the REPL's past workout (`.past`) ends at its last set too, even within the idle gap
        let past = try db.startWorkout(name: "Legs", at: world.now() - 30 * 60_000).workout
        let squat = try log(db, "squat 140x5", typed: "squat 140x5", at: past.startedAt)
        world.advance(minutes: 5)
        guard case .finished(let legs) = try db.finishWorkout(.past(past.id)) else { Issue.record("not finished"); return }
        #expect(legs.workout.endedAt == squat.sets[0].set.performedAt)
    }

    @Test func aReferenceNamesADayTheNthWorkoutOfADayOrTheNthMostRecent() throws {
        // Given two workouts on the day before yesterday, one yesterday and one today
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        let early = try log(db, "bench 100x5", typed: "bench 100x5", at: local(world, daysAgo: 2, 7, 0)).workout
        _ = try db.finishWorkout(.id(early.id))
        let late = try log(db, "squat 140x5", typed: "squat 140x5", at: local(world, daysAgo: 2, 19, 0)).workout
        _ = try db.finishWorkout(.id(late.id))
        let yesterday = try log(db, "row 70x8", typed: "row 70x8", at: local(world, daysAgo: 1, 12, 0)).workout
        _ = try db.finishWorkout(.id(yesterday.id))
        let today = try log(db, "curl 20x10").workout
        let day = WorkoutReference.day(startedAt: early.startedAt, utcOffsetSeconds: early.utcOffsetSeconds)
        let dayText = WorkoutReference.dayText(day)
        func resolve(_ text: String) throws -> UUID? {
            try db.workoutDetail(.reference(#require(WorkoutReference.parse(text, today: day + 2))))?.workout.id
        }
        // Then a day with one workout names it, `#N` picks among several, and `-N` counts back
        #expect(try resolve("yesterday") == yesterday.id && resolve("today") == today.id)
        #expect(try resolve(dayText + "#1") == early.id && resolve(dayText + "#2") == late.id)
        #expect(try resolve("-1") == today.id && resolve("-2") == yesterday.id && resolve("-4") == early.id)
        // And the references are what `history` shows
        #expect(try db.history().map(\.reference) == [WorkoutReference.dayText(day + 2), WorkoutReference.dayText(day + 1), dayText + "#2", dayText + "#1"])
        // And a day with several lists them with their references; a day with none says where to look
        let several = #expect(throws: UserError.self) { try resolve(dayText) }
        #expect(several?.message == "\(dayText) has 2 workouts: \(dayText)#1 (07:00, 1 set), \(dayText)#2 (19:00, 1 set). "
            + "Give one of these references, e.g. --workout \(dayText)#1.")
        let none = #expect(throws: UserError.self) { try resolve(WorkoutReference.dayText(day - 1)) }
        #expect(none?.message == "No workout on \(WorkoutReference.dayText(day - 1)). `gymlog history` lists workouts with their references.")
        #expect((#expect(throws: UserError.self) { try resolve("-5") })?.message.contains("There are 4 workouts, so there is no workout -5") == true)
        #expect((#expect(throws: UserError.self) { try resolve(dayText + "#3") })?.message.contains("has 2 workouts, so there is no \(dayText)#3") == true)
    }

    @Test func aBackDatedSetThatTiesALaterRecordIsNoPR() throws {
        // Given bench 100x5 logged today
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        try log(db, "bench 100x5", typed: "bench 100x5")
        // When the same set is filled in for three days ago, then a heavier one
        let tie = try log(db, "bench 100x5", typed: "bench 100x5", at: local(world, daysAgo: 3, 18, 0))
        // Then the tie takes the records (it came first) but is announced as beating nothing
        #expect(tie.sets[0].records == [], "\(tie.sets[0].records)")
        #expect(try db.records().first { $0.exercise.name == "bench" }?.records.first { $0.metric == .weight }?.set.id == tie.sets[0].set.id)
        let heavier = try log(db, "bench 105x5", typed: "bench 105x5", at: local(world, daysAgo: 3, 18, 5))
        // And the heavier one beats the 100kg held
        #expect(heavier.sets[0].records.first { $0.metric == .weight } == RecordBreak(metric: .weight, reps: 0, value: 105, previous: 100))
    }

    @Test func deletingAWholeWorkoutIsOneUndoAndRecomputesItsRecords() throws {
        // Given bench 100x5 two days ago, and a heavier bench and a row yesterday (holding the records)
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        let old = try log(db, "bench 100x5", typed: "bench 100x5", at: local(world, daysAgo: 2, 18, 0)).workout
        let heavy = try log(db, "bench 110x5", typed: "bench 110x5", at: local(world, daysAgo: 1, 18, 0))
        try log(db, "row 70x8", typed: "row 70x8", at: local(world, daysAgo: 1, 18, 10))
        #expect(heavy.sets[0].records.contains { $0.metric == .weight })
        let events = try count(db, "SELECT COUNT(*) FROM outbox")
        // When yesterday's workout is deleted as a whole
        let deleted = try db.deleteWorkout(.reference(.recent(1)), typed: "delete --workout -1")
        // Then it and its sets are tombstoned, each with its outbox event, and bench's record is the older set again
        #expect(deleted.workout.id == heavy.workout.id && deleted.setCount == 2)
        #expect(try count(db, "SELECT COUNT(*) FROM outbox") == events + 3)
        #expect(try count(db, "SELECT COUNT(*) FROM sets WHERE deleted_at IS NULL") == 1)
        #expect(try count(db, "SELECT COUNT(*) FROM workouts WHERE deleted_at IS NULL") == 1)
        #expect(try db.records().first { $0.exercise.name == "bench" }?.records.first { $0.metric == .weight }?.value == 100)
        #expect(try db.records().contains { $0.exercise.name == "row" } == false)
        #expect(try db.history().map(\.workout.id) == [old.id])
        // And ONE undo (confirmed: it is yesterday's workout) brings the workout, its sets and its records back
        guard case .needsConfirmation = try db.undo() else { Issue.record("did not ask"); return }
        guard case .done(let action) = try db.undo(confirmed: true) else { Issue.record("not undone"); return }
        #expect(action.label == "delete --workout -1")
        #expect(try liveSets(db, workout: heavy.workout.id) == ["bench 110kg x 5", "row 70kg x 8"])
        #expect(try db.records().first { $0.exercise.name == "bench" }?.records.first { $0.metric == .weight }?.value == 110)
        #expect(try db.records().contains { $0.exercise.name == "row" })
        // And the write pipeline's invariant holds
        #expect(WritePipelineInvariant.violations(try #require(try ClientDatabaseDump.read(db.path)), acknowledgedThrough: nil, synced: false) == [])
    }

    @Test func aWorkoutIsRenamedAndMovedWithItsSetsAsOneAction() throws {
        // Given bench 100x5 yesterday at 18:00, and the same set on a workout logged today
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        let yesterday = try log(db, "bench 100x5", typed: "bench 100x5", at: local(world, daysAgo: 1, 18, 0))
        let today = try log(db, "bench 100x5")
        _ = try db.finishWorkout()
        #expect(try db.records().first?.records.first { $0.metric == .weight }?.set.workoutID == yesterday.workout.id)
        // When today's workout is renamed and moved to two days ago, 17:00
        let start = local(world, daysAgo: 2, 17, 0)
        let moved = try db.editWorkout(.reference(.recent(1)), name: "Push A", start: start, typed: "edit --workout -1")
        // Then it has the name and start, its set moved by as much, and it holds the record now (it came first)
        #expect(moved.name == "Push A" && moved.startedAt == start)
        let detail = try #require(try db.workoutDetail(today.workout.id))
        #expect(detail.sets[0].set.performedAt == start + (today.sets[0].set.performedAt - today.workout.startedAt))
        #expect(detail.workout.endedAt == today.sets[0].set.performedAt - today.workout.startedAt + start)
        #expect(try db.records().first?.records.first { $0.metric == .weight }?.set.workoutID == today.workout.id)
        #expect(try db.history().map(\.workout.id) == [yesterday.workout.id, today.workout.id])
        // And one undo puts it all back (confirmed: the workout is two days ago's now)
        guard case .done = try db.undo(confirmed: true) else { Issue.record("not undone"); return }
        let back = try #require(try db.workoutDetail(today.workout.id))
        #expect(back.workout.name == nil && back.workout.startedAt == today.workout.startedAt)
        #expect(back.sets[0].set.performedAt == today.sets[0].set.performedAt)
        #expect(try db.records().first?.records.first { $0.metric == .weight }?.set.workoutID == yesterday.workout.id)
        // And a start that would put its sets in the future is refused, changing nothing
        let refused = #expect(throws: UserError.self) { try db.editWorkout(.id(today.workout.id), name: nil, start: world.now() + 60_000) }
        #expect(refused?.message.contains("Nothing was changed") == true)
        #expect(WritePipelineInvariant.violations(try #require(try ClientDatabaseDump.read(db.path)), acknowledgedThrough: nil, synced: false) == [])
    }
}
