import Foundation
import GRDB
import GymLogCore
@testable import GymLogStore
import GymLogTestSupport
import Testing

/// `undo` and `redo` walk a stack of this device's own actions: nothing else comes back.
@Suite struct UndoStackTests {
    private func liveSummaries(_ db: GymLogDatabase) throws -> [String] {
        try db.read { db in
            var decode = SetDecoder()
            return try Row.fetchAll(db, sql: "SELECT \(Rows.setColumns) FROM sets s WHERE s.deleted_at IS NULL ORDER BY s.performed_at")
                .map { decode($0).summary }
        }
    }

    /// Applies, as sync would, a delete of `set` made on another device a minute later.
    private func pullDeleteFromAnotherDevice(_ set: LoggedSet, into db: GymLogDatabase, _ world: FakeWorld) throws {
        world.advance(minutes: 1)
        let remote = HLC(millis: world.now(), counter: 0, node: "other-device")
        try db.applyPulled([RemoteChange(entity: "sets", entityID: set.id.key,
                                         fields: [FieldChange(tombstoneField, .int(world.now()), remote)])], epoch: "e", cursor: 1)
    }

    private func done(_ outcome: UndoOutcome, sourceLocation: SourceLocation = #_sourceLocation) -> UndoableAction? {
        guard case .done(let action) = outcome else {
            Issue.record("expected the step to be taken, got \(outcome)", sourceLocation: sourceLocation)
            return nil
        }
        return action
    }

    @Test func redoAfterANewActionBringsNothingBack() throws {
        // Given `row 70x8`, `undo`, `row 65x8`
        let db = try temporaryDatabase()
        try log(db, "row 70x8", typed: "row 70x8")
        #expect(done(try db.undo())?.label == "row 70x8")
        try log(db, "row 65x8", typed: "row 65x8")
        // When `redo` is typed
        #expect(throws: UserError.self) { try db.redo() }
        // Then 65x8 stays and 70x8 stays deleted
        #expect(try liveSummaries(db) == ["65kg x 8"])
    }

    @Test func undoOfAMultiSetLineRevertsTheWholeLineAndTheExerciseItCreated() throws {
        // Given a three-set line that created an exercise (and started the workout)
        let db = try temporaryDatabase()
        try log(db, "Benchpress 100x5x3", typed: "Benchpress 100x5x3")
        // When it is undone once
        let action = done(try db.undo())
        // Then every set, the new exercise and the workout it started are gone, and the message says so
        #expect(action?.label == "Benchpress 100x5x3")
        #expect(action?.summary == "Benchpress 100kg x 5 (3 sets), and the new exercise 'Benchpress'")
        #expect(try liveSummaries(db).isEmpty)
        #expect(try count(db, "SELECT COUNT(*) FROM exercises WHERE deleted_at IS NULL") == 0)
        #expect(try count(db, "SELECT COUNT(*) FROM workouts WHERE deleted_at IS NULL") == 0)
        #expect(try db.exerciseNames().isEmpty)
        // And `redo` brings the whole line back, with its records
        _ = done(try db.redo())
        #expect(try liveSummaries(db) == Array(repeating: "100kg x 5", count: 3))
        #expect(try count(db, "SELECT COUNT(*) FROM records") > 0)
        #expect(try db.openWorkout()?.setCount == 3)
    }

    @Test func undoRedoPairsNeverRestoreAnEarlierDeleteUnlessThatDeleteIsUndone() throws {
        // Given a set removed with `delete 1` in yesterday's workout, and sets today
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        try log(db, "squat 100x5")
        try log(db, "squat 105x5")
        _ = try db.deleteSet(.number(1), typed: "delete 1")
        _ = try db.finishWorkout()
        world.advance(minutes: 24 * 60)
        try log(db, "bench 80x8")
        try log(db, "bench 82.5x8")
        // When undo and redo alternate several times
        for _ in 0..<4 {
            _ = done(try db.undo())
            _ = done(try db.redo())
        }
        // Then the deleted set stays deleted
        #expect(try liveSummaries(db) == ["105kg x 5", "80kg x 8", "82.5kg x 8"])
        // And only undoing down to the delete itself brings it back
        for _ in 0..<3 { _ = done(try db.undo(confirmed: true)) }  // both bench lines, the finish
        #expect(try liveSummaries(db) == ["105kg x 5"])
        #expect(done(try db.undo(confirmed: true))?.label == "delete 1")
        #expect(try liveSummaries(db) == ["100kg x 5", "105kg x 5"])
    }

    @Test func undoOfAnActionInAnotherWorkoutAsksAndDoesNothing() throws {
        // Given a set logged yesterday, a workout since and nothing open now
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        try log(db, "deadlift 180x5", typed: "deadlift 180x5")
        world.advance(minutes: 24 * 60)
        try log(db, "bench 100x5")
        _ = done(try db.undo())  // today's line: its workout is the open one
        // When `undo` reaches yesterday's line
        guard case .needsConfirmation(let action) = try db.undo() else { Issue.record("did not ask"); return }
        // Then it names that workout and undid nothing
        #expect(action.label == "deadlift 180x5")
        #expect(action.workout?.startedAt == world.now() - 24 * 60 * 60_000)
        #expect(try liveSummaries(db) == ["180kg x 5"])
        // And confirmed, it is undone
        _ = done(try db.undo(confirmed: true))
        #expect(try liveSummaries(db).isEmpty)
    }

    @Test func anUndoneCreateDeletedOnAnotherDeviceIsNeverBroughtBack() throws {
        // Given a set this device logged, then deleted on another device (a pulled, newer tombstone)
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        try log(db, "Bench 100x5")
        let set = try log(db, "Bench 100x6", typed: "Bench 100x6").sets[0].set
        try pullDeleteFromAnotherDevice(set, into: db, world)
        // When `undo` (this device's last action logged that set) and then `redo` are typed
        guard case .refused(let action, let reason) = try db.undo() else { Issue.record("undo was not refused"); return }
        // Then undo says what changed and does nothing; redo has nothing; the set stays deleted
        #expect(action.label == "Bench 100x6")
        #expect(reason == "the set Bench 100kg x 6 was deleted on another device since")
        #expect(throws: UserError.self) { try db.redo() }
        #expect(try liveSummaries(db) == ["100kg x 5"])
        // And the refused action left the stack: the next `undo` reverts the line before it
        #expect(done(try db.undo())?.summary == "Bench 100kg x 5, and the new exercise 'Bench'")
    }

    @Test func undoOfAnEditRefusesWhenAnotherDeviceDeletedTheSetSince() throws {
        // Given an edit here, then the set deleted on another device
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        let set = try log(db, "Bench 100x5").sets[0].set
        _ = try db.editSet(.last, patch: SetPatch(reps: 6), typed: "edit x6")
        try pullDeleteFromAnotherDevice(set, into: db, world)
        // When `undo` is typed, it refuses and says what changed
        guard case .refused(let action, let reason) = try db.undo() else { Issue.record("undo was not refused"); return }
        #expect(action.label == "edit x6")
        #expect(reason == "the set Bench 100kg x 6 was deleted on another device since")
        // Then nothing was written: the set keeps its reps and stays deleted
        #expect(try count(db, "SELECT COUNT(*) FROM sets WHERE reps = 6 AND deleted_at IS NOT NULL") == 1)
    }

    @Test func aDeleteUndoneHereIsNotRestoredOverARemoteDelete() throws {
        // Given `delete 1` here, then undone, then the same set deleted on another device
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        let set = try log(db, "bench 100x5").sets[0].set
        try log(db, "bench 100x6")
        _ = try db.deleteSet(.number(1), typed: "delete 1")
        _ = done(try db.undo())
        try pullDeleteFromAnotherDevice(set, into: db, world)
        // When `redo` (of the delete) and `undo` run
        guard case .refused = try db.redo() else { Issue.record("redo was not refused"); return }
        _ = done(try db.undo())  // the `bench 100x6` line
        // Then set 1 stays deleted, as the other device wants
        #expect(try liveSummaries(db) == [])
        #expect(try db.read { try Int64?.fetchOne($0, sql: "SELECT deleted_at FROM sets WHERE id = ?", arguments: [set.id.key]) } != nil)
    }

    @Test func editsStartsFinishesAndNotesAreUndoneAndRedoneExactly() throws {
        // Given a workout with an edit, a note and a finish
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        try log(db, "Bench 100x5")
        _ = try db.editSet(.last, patch: SetPatch(reps: 6), typed: "edit x6")
        _ = try db.noteWorkout("felt strong", typed: "note felt strong")
        guard case .finished = try db.finishWorkout(typed: "finish") else { Issue.record("not finished"); return }
        // When the finish is undone right away, the workout is open again (no question asked)
        #expect(done(try db.undo())?.label == "finish")
        #expect(try db.openWorkout()?.setCount == 1)
        // And the note and the edit come off in turn
        #expect(done(try db.undo())?.label == "note felt strong")
        #expect(try db.workoutDetail()?.workout.note == nil)
        #expect(done(try db.undo())?.summary == "Bench 100kg x 5 -> 100kg x 6")
        #expect(try liveSummaries(db) == ["100kg x 5"])
        // And redo replays them in order
        _ = done(try db.redo())
        _ = done(try db.redo())
        #expect(try liveSummaries(db) == ["100kg x 6"])
        #expect(try db.workoutDetail()?.workout.note == "felt strong")
    }

    @Test func theJournalKeepsTheWritePipelineInvariant() throws {
        // Given a mix of actions, undos and redos
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        try log(db, "bench 100x5x3")
        try log(db, "+ x4")
        _ = try db.deleteSet(.number(2))
        _ = try db.undo(); _ = try db.undo(); _ = try db.redo()
        _ = try db.startWorkout(name: "Legs")
        try log(db, "squat 140x5")
        _ = try db.undo(); _ = try db.undo(); _ = try db.undo(confirmed: true)
        // Then every row change has its outbox event, and the journal is in no synced table
        let dump = try #require(try ClientDatabaseDump.read(db.path))
        #expect(WritePipelineInvariant.violations(dump, acknowledgedThrough: nil, synced: false) == [])
        #expect(try count(db, "SELECT COUNT(*) FROM outbox WHERE entity NOT IN ('exercises', 'aliases', 'workouts', 'sets')") == 0)
        #expect(try count(db, "SELECT COUNT(*) FROM undo_actions") > 0)
    }
}

/// The lifecycle of a workout: `start` finishes an open one, empty workouts are not kept,
/// one rule says whether a workout is open.
@Suite struct WorkoutLifecycleStoreTests {
    @Test func startFinishesAnOpenWorkoutWithSetsAndReportsItsSummary() throws {
        // Given an open workout with sets
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        let first = try log(db, "bench 100x5x3")
        world.advance(minutes: 40)
        // When `start Legs` is typed
        let result = try db.startWorkout(name: "Legs")
        // Then the open workout was finished, with its summary, and Legs is open
        let finished = try #require(result.finished)
        #expect(finished.workout.id == first.workout.id && finished.sets.working == 3)
        #expect(finished.workout.endedAt == world.now() && finished.workingVolume == 1500)
        #expect(try db.openWorkout()?.workout.name == "Legs")
    }

    @Test func anEmptyWorkoutIsNotKeptWhenFinishedOrClosed() throws {
        // Given a workout started without sets
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        _ = try db.startWorkout(name: "Push")
        // When it is finished, it is discarded: `show` and `history` do not list it
        guard case .discarded = try db.finishWorkout() else { Issue.record("not discarded"); return }
        #expect(try db.workoutDetail() == nil)
        // And an empty workout closed by the idle gap is not kept either
        _ = try db.startWorkout(name: "Pull")
        world.advance(minutes: 180)
        try log(db, "row 60x10")
        #expect(try count(db, "SELECT COUNT(*) FROM workouts WHERE deleted_at IS NULL") == 1)
        #expect(try db.workoutDetail()?.sets.count == 1)
    }

    @Test func finishSummarisesVolumeAndThePRsOfTheWorkout() throws {
        // Given bench done before, and a heavier bench today
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        try log(db, "Bench 100x5")
        _ = try db.finishWorkout()
        world.advance(minutes: 2 * 24 * 60)
        try log(db, "Bench 105x5")
        try log(db, "squat 140x5")
        world.advance(minutes: 50)
        // When it is finished
        guard case .finished(let summary) = try db.finishWorkout() else { Issue.record("not finished"); return }
        // Then the summary has its sets, volume and the bench PRs (not squat's first records)
        #expect(summary.sets.working == 2 && summary.workingVolume == 105 * 5 + 140 * 5)
        #expect(summary.records.map(\.exercise.name) == ["Bench"])
        #expect(summary.records.first?.records.contains { $0.metric == .repMax && $0.reps == 5 && $0.value == 105 } == true)
    }

    @Test func oneRuleSaysWhetherAWorkoutIsOpen() throws {
        // Given a workout whose last set is older than the idle gap
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        try log(db, "bench 100x5")
        world.advance(minutes: 121)
        // Then the prompt's query and the rule applied to `show`'s workout agree: it is over
        let detail = try #require(try db.workoutDetail())
        let status = WorkoutStatus(now: world.now(), idleGapMinutes: 120)
        #expect(try db.openWorkout() == nil)
        #expect(!status.isOpen(detail.workout, lastActivity: detail.sets.last?.set.performedAt))
        #expect(status.end(of: detail.workout, lastActivity: detail.sets.last?.set.performedAt) == detail.sets[0].set.performedAt)
    }
}

@Suite struct JournalFieldsTests {
    @Test func everyValueReadsBackExactlyFromTheHandWrittenJSON() {
        // Given fields of every kind, with text that needs escaping and reals without a short decimal
        let fields: [(String, FieldValue)] = [
            ("note", .text("says \"hi\"\n\ttab \\ back, 深蹲 💪 \u{1}")), ("reps", .int(-9_223_372_036_854_775_808)),
            ("weight", .real(0.1)), ("tiny", .real(1e-7)), ("big", .real(1.5e300)), ("whole", .real(100)),
            ("deleted_at", .null), ("empty", .text("")),
        ]
        // When encoded and decoded
        let text = JournalFields.encode(fields)
        let back = JournalFields.decode(text)
        // Then names, kinds and values are the same, in order
        #expect(back.map(\.0) == fields.map(\.0), "\(text)")
        #expect(back.map(\.1) == fields.map(\.1), "\(text)")
        #expect(JournalFields.decode(JournalFields.encode([] as [(String, FieldValue)])).isEmpty)
    }
}

@Suite struct JournalWritesTests {
    @Test func anActionsWritesReadBackInOrderWithTheirBeforeAndAfter() throws {
        // Given a create (nothing before) and an update of another entity
        let writes = [
            JournalWrite(entity: .sets, id: "a", op: .create, before: nil, after: [("reps", .int(5)), ("note", .text("x\"y"))]),
            JournalWrite(entity: .workouts, id: "b", op: .update, before: [("ended_at", .null)], after: [("ended_at", .int(7))]),
        ]
        // When stored as one text and read back
        let back = try #require(JournalFields.decodeWrites(JournalFields.encode(writes as [JournalWrite])))
        // Then entity, id, op, before and after are the same, in write order
        #expect(back.map(\.entity) == [.sets, .workouts] && back.map(\.id) == ["a", "b"] && back.map(\.op) == [.create, .update])
        #expect(back[0].before == nil && back[1].before?.map(\.1) == [.null])
        #expect(back[0].after.map(\.1) == [.int(5), .text("x\"y")] && back[1].after.map(\.0) == ["ended_at"])
        #expect(JournalFields.decodeWrites("not json") == nil)
    }

    @Test func theStackKeepsTheNewestActionsAndUndoStillWorksAfterPruning() throws {
        // Given more actions than the stack keeps
        let db = try temporaryDatabase()
        for i in 0..<(Int(ActionJournal.depth + ActionJournal.pruneEvery) + 3) { try log(db, "bench \(100 + i % 5)x5") }
        // Then at most depth + pruneEvery are kept, and at least depth
        let kept = try count(db, "SELECT COUNT(*) FROM undo_actions")
        #expect(kept >= Int(ActionJournal.depth) && kept <= Int(ActionJournal.depth + ActionJournal.pruneEvery), "\(kept)")
        // And the newest is still undone as a whole
        let sets = try count(db, "SELECT COUNT(*) FROM sets WHERE deleted_at IS NULL")
        _ = try db.undo(confirmed: true)
        #expect(try count(db, "SELECT COUNT(*) FROM sets WHERE deleted_at IS NULL") == sets - 1)
    }

    /// An import's created rows are journalled in `undo_created` as they are written, not in
    /// the action's `writes` built in memory (a 200,000-set import took 130 MiB): undo reads them
    /// a page at a time, and they leave with their action.
    @Test func anImportOfManyPagesIsJournalledInTheDatabaseAndUndoneAndRedoneWhole() throws {
        // Given a history of one logged set, and a Strong file of more sets than a page holds
        let db = try temporaryDatabase()
        try log(db, "row 60x10")
        var text = "Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes\n"
        let days = CreatedRows.pageSize / 5 + 100
        for day in 0..<days {
            let date = localDateTime(millis: 1_500_000_000_000 + Int64(day) * 86_400_000, utcOffsetSeconds: 0).prefix(10)
            for set in 1...5 { text += "\(date) 06:00:00,W,\(["Squat", "Bench"][set % 2]),\(set),\(60 + set),5,0,0,\n" }
        }
        let report = try db.importFile(try ImportParser.parse(Array(text.utf8), options: ImportOptions()))
        #expect(report.setsCreated == days * 5)

        // Then its creates are rows of undo_created, and its journal holds none of them
        let created = try count(db, "SELECT COUNT(*) FROM undo_created")
        #expect(created == days * 5 + days + 2, "sets, workouts and two exercises: \(created)")
        #expect(try count(db, "SELECT length(writes) FROM undo_actions ORDER BY id DESC LIMIT 1") < 100)

        // When the import is undone: every row it made is deleted, the logged set stays
        guard case .done(let undone) = try db.undo(confirmed: true) else { Issue.record("the import was not undone"); return }
        #expect(undone.label == "import")
        #expect(try count(db, "SELECT COUNT(*) FROM sets WHERE deleted_at IS NULL") == 1)
        #expect(try count(db, "SELECT COUNT(*) FROM workouts WHERE deleted_at IS NULL") == 1)
        // And redo brings every one back
        guard case .done = try db.redo(confirmed: true) else { Issue.record("the import was not redone"); return }
        #expect(try count(db, "SELECT COUNT(*) FROM sets WHERE deleted_at IS NULL") == days * 5 + 1)

        // When it is undone again and a new action clears the redo side, its rows go with it
        _ = try db.undo(confirmed: true)
        try log(db, "row 62x10")
        #expect(try count(db, "SELECT COUNT(*) FROM undo_created") == 0)
        #expect(throws: UserError.self) { try db.redo() }
    }
}
