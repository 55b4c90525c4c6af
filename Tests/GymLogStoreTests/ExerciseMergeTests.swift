import Foundation
import GRDB
import GymLogCore
@testable import GymLogStore
import Testing

/// What a refused write must leave alone: every row and every outbox event.
private func footprint(_ db: GymLogDatabase) throws -> [Int] {
    try ["sets", "exercises", "aliases", "workouts", "outbox"].map { try count(db, "SELECT COUNT(*) FROM \($0)") }
}

/// Sends everything `from` has written to `to`, as a sync would.
private func replay(_ from: GymLogDatabase, into to: GymLogDatabase) throws {
    let events = try from.pendingEvents(after: 0, limit: 10_000)
    try to.applyPulled(events.map { RemoteChange(entity: $0.entity, entityID: $0.entityID, fields: $0.fields) },
                       epoch: "test", cursor: Int64(events.count))
}

@Suite struct ExerciseKindStoreTests {
    @Test func aSetOfAnotherShapeIsRefusedAndWritesNothing() throws {
        // Given a rowing exercise made distance by its first set
        let db = try temporaryDatabase()
        try log(db, "row 2000m 7:41")
        let before = try footprint(db)
        // When a weighted set is logged under the same name
        let error = #expect(throws: UserError.self) { try log(db, "row 70x8") }
        // Then it is refused with the kind and another name to use, and nothing is written
        #expect(error?.message == "row is a distance exercise (distance and time, e.g. `row 2000m 7:41`); "
            + "for a weight-and-reps row use another name, e.g. `barbell row 70x8`.")
        #expect(try footprint(db) == before)
        // And the suggested name logs
        #expect(try log(db, "barbell row 70x8").exercise.kind == .weighted)
    }

    @Test func weightAndRepsOnABodyweightExerciseSuggestsAddedLoad() throws {
        let db = try temporaryDatabase()
        try log(db, "Pullup bw x8")
        let before = try footprint(db)
        let error = #expect(throws: UserError.self) { try log(db, "pullup 10x5") }
        #expect(error?.message == "Pullup is a bodyweight exercise: type `pullup bw+10x5` for 10 kg added, or `pullup bw x5` for 5 reps.")
        #expect(try footprint(db) == before)
        #expect(try log(db, "pullup bw+10x5").sets.first?.set.values.bodyweight == true)
        #expect(try log(db, "pullup bw-20x8").sets.first?.set.weight?.value == Fixed(-20))
    }

    @Test func editAndRepeatCannotChangeASetsShape() throws {
        // Given a run
        let db = try temporaryDatabase()
        try log(db, "run 5km 25:00")
        let before = try footprint(db)
        // When `edit x9` or `+ x9` would give it reps
        let edit = #expect(throws: UserError.self) { try db.editSet(.last, patch: SetPatch(reps: 9)) }
        let repeated = #expect(throws: UserError.self) { try log(db, "+ x9") }
        // Then both are refused, naming the kind, and nothing changed
        #expect(edit?.message.hasPrefix("run is a distance exercise") == true)
        #expect(edit?.message.contains("has no reps") == true)
        #expect(repeated?.message == edit?.message)
        #expect(try footprint(db) == before)
        // While an edit that keeps the shape goes through
        #expect(try db.editSet(.last, patch: SetPatch(durationSeconds: 1490)).set.durationSeconds == 1490)
    }

    @Test func anEditThatDoesNotFitSaysWhatTheSetLacksNotAnotherName() throws {
        // Given a plank (timed), which `edit x9` would turn into a bodyweight set
        let db = try temporaryDatabase()
        try log(db, "plank 60s")
        // When the edit is refused
        let edit = #expect(throws: UserError.self) { try db.editSet(.last, patch: SetPatch(reps: 9)) }
        // Then it says what a plank's set has, and does not suggest logging under another name
        // (an edit cannot move a set to another exercise)
        #expect(edit?.message.hasPrefix("plank is a timed exercise") == true, "\(edit?.message ?? "")")
        #expect(edit?.message.contains("has no reps") == true, "\(edit?.message ?? "")")
        #expect(edit?.message.contains("another name") == false, "\(edit?.message ?? "")")
    }

    @Test func aLineWhoseLaterSetDoesNotFitCreatesNoExercise() throws {
        let db = try temporaryDatabase()
        let before = try footprint(db)
        // The first set makes `sled` weighted; the second is a carry: the whole line is refused
        #expect(throws: UserError.self) { try log(db, "sled 100x5 100kg 20m") }
        #expect(try footprint(db) == before)
    }

    @Test func addWithAKindSetsWhatTheFirstSetMayBe() throws {
        let db = try temporaryDatabase()
        _ = try db.addExercise(name: "Plank", kind: .timed)
        #expect(throws: UserError.self) { try log(db, "plank bw x8") }
        #expect(try log(db, "plank 60s").exercise.kind == .timed)
    }

    @Test func addWithoutAKindLeavesItToTheFirstSet() throws {
        // Given two exercises added without a kind
        let db = try temporaryDatabase()
        _ = try db.addExercise(name: "Farmer Walk")
        _ = try db.addExercise(name: "Curl")
        // When their first sets are a carry and weight x reps
        try log(db, "farmer walk 40kg 50m")
        try log(db, "curl 20x10")
        // Then each took its first set's kind, and a set of another shape is refused from then on
        #expect(try db.existingExercise("farmer walk").kind == .carry)
        #expect(throws: UserError.self) { try log(db, "farmer walk 40x5") }
        let curl = #expect(throws: UserError.self) { try log(db, "curl 60s") }
        #expect(curl?.message.hasPrefix("Curl is a weight-and-reps exercise") == true)
    }

    @Test func theKindChangesOnlyWhileEverySetFitsTheNewKind() throws {
        // Given a "weighted" exercise that only has bodyweight reps (as an import makes them)
        let db = try temporaryDatabase()
        _ = try db.addExercise(name: "Dip", kind: .carry)
        let carry = #expect(throws: UserError.self) { try log(db, "dip bw x8") }
        #expect(carry?.message.contains("Dip is a weight-and-distance exercise") == true)
        _ = try db.setExerciseKind("dip", to: .bodyweight)
        try log(db, "dip bw x8")
        try log(db, "dip bw+20x5")
        // When it is changed to a kind its sets do not fit
        let before = try footprint(db)
        let error = #expect(throws: UserError.self) { try db.setExerciseKind("dip", to: .weighted) }
        // Then it is refused with how many sets are in the way
        #expect(error?.message.hasPrefix("Dip has 2 sets that do not fit a weight-and-reps exercise") == true)
        #expect(try footprint(db) == before)
        // And a kind they fit is taken
        _ = try db.addExercise(name: "Hang", kind: .weighted)
        #expect(try db.setExerciseKind("hang", to: .timed).kind == .timed)
        #expect(try db.exerciseSummaries().first { $0.exercise.name == "Hang" }?.exercise.kind == .timed)
    }
}

@Suite struct ExerciseNameStoreTests {
    @Test func aRenamedExerciseKeepsItsOldNameAsAnAliasOnEveryDevice() throws {
        // Given Pullup on two devices
        let a = try temporaryDatabase(), b = try temporaryDatabase()
        let original = try log(a, "Pullup bw x8").exercise
        // When it is renamed and the change synced
        #expect(try a.renameExercise("pullup", to: "Pull-up").name == "Pull-up")
        try replay(a, into: b)
        // Then on both the old name logs to the renamed exercise, and the id never moved
        for db in [a, b] {
            let logged = try log(db, "pullup bw x5").exercise
            #expect(logged.id == original.id && logged.name == "Pull-up")
            #expect(try db.exerciseSummaries().map(\.aliases) == [["Pullup"]])
        }
    }

    @Test func namesMatchIgnoringCasePunctuationAndAccentsAndAreKeptAsTyped() throws {
        let db = try temporaryDatabase()
        #expect(try log(db, "Pullup bw x8").exercise.name == "Pullup")
        #expect(try log(db, "pull-up bw x8").exercise.name == "Pullup")
        #expect(try log(db, "Développé couché 80x5").exercise.name == "Développé couché")
        #expect(try log(db, "developpe couche 80x5").exercise.name == "Développé couché")
        #expect(try log(db, "RDL 100x8").exercise.name == "RDL")
        #expect(try log(db, "ohp 50x5").exercise.name == "ohp")
        #expect(try count(db, "SELECT COUNT(*) FROM exercises") == 4)
        // A look-alike is refused rather than created beside the original
        let error = #expect(throws: UserError.self) { try db.addExercise(name: "Pull Up") }
        #expect(error?.message.contains("'Pullup' already exists") == true)
    }

    @Test func namesTypedInAnyCaseGiveTheSameIDOnEveryDevice() throws {
        let a = try temporaryDatabase(), b = try temporaryDatabase()
        let ea = try log(a, "rdl 100x5").exercise, eb = try log(b, "RDL 100x5").exercise
        #expect(ea.id == eb.id && ea.name == "rdl" && eb.name == "RDL")
    }
}

@Suite struct ExerciseMergeTests {
    @Test func mergeMovesTheSetsKeepsTheNameAndRebuildsRecordsOnEveryDevice() throws {
        // Given a stray "flat bench" with three sets, one heavier than Bench Press's best
        let a = try temporaryDatabase(), b = try temporaryDatabase()
        try log(a, "Bench Press 100x5")
        let stray = try log(a, "flat bench 110x5 100x5x2").exercise
        _ = try a.addAlias("bpx", for: "flat bench")
        try replay(a, into: b)
        let pushed = try count(a, "SELECT COUNT(*) FROM outbox")
        // When it is merged into Bench Press
        let merge = try a.mergeExercises("flat bench", into: "Bench Press")
        // Then every set moved through the write pipeline, the old name and alias now mean Bench Press
        #expect(merge.movedSets == 3 && merge.into.name == "Bench Press")
        #expect(merge.newAliases == ["flat bench", "bpx"])
        #expect(try count(a, "SELECT COUNT(*) FROM outbox WHERE entity = 'sets'") == 4 + 3)
        #expect(try count(a, "SELECT COUNT(*) FROM outbox") > pushed)
        try replay(a, into: b)
        for db in [a, b] {
            let summaries = try db.exerciseSummaries()
            #expect(summaries.map(\.exercise.name) == ["Bench Press"])
            #expect(summaries.first?.setCount == 4)
            #expect(summaries.first?.aliases.sorted() == ["bpx", "flat bench"])
            #expect(try count(db, "SELECT COUNT(*) FROM exercises WHERE id = '\(stray.id.key)' AND deleted_at IS NOT NULL") == 1)
            #expect(try log(db, "flat bench 90x5").exercise.name == "Bench Press")
        }
        // And Bench Press's records include the moved 110
        let best = try a.read { try Double.fetchOne($0, sql: """
            SELECT value FROM records r JOIN exercises e ON e.id = r.exercise_id WHERE e.name = 'Bench Press' AND r.metric = 'weight'
            """) }
        #expect(best == 110)
        for db in [a, b] {
            #expect(try count(db, "SELECT COUNT(*) FROM records WHERE exercise_id = '\(stray.id.key)'") == 0)
        }
    }

    @Test func mergeIsRefusedAcrossKindsAndForPrefixesAndWritesNothing() throws {
        let db = try temporaryDatabase()
        try log(db, "row 2000m 7:41")
        try log(db, "barbell row 70x8")
        try log(db, "bench press 100x5")
        let before = try footprint(db)
        let kinds = #expect(throws: UserError.self) { try db.mergeExercises("barbell row", into: "row") }
        #expect(kinds?.message.contains("'barbell row' is a weight-and-reps exercise and 'row' is a distance exercise") == true)
        let prefix = #expect(throws: UserError.self) { try db.mergeExercises("bench", into: "barbell row") }
        #expect(prefix?.message.contains("type the whole name") == true)
        #expect(throws: UserError.self) { try db.mergeExercises("row", into: "ROW") }
        #expect(try footprint(db) == before)
    }

    @Test func deleteTakesOnlyAnExerciseWithNoSets() throws {
        // Given a stray exercise with one set, and an alias
        let db = try temporaryDatabase()
        try log(db, "benchpres 100x5")
        _ = try db.addAlias("bpp", for: "benchpres")
        let before = try footprint(db)
        // When it is deleted while it has a set: refused, saying how many and suggesting merge
        let error = #expect(throws: UserError.self) { try db.deleteExercise("benchpres") }
        #expect(error?.message.contains("has 1 set") == true)
        #expect(error?.message.contains("gymlog exercises merge") == true)
        #expect(try footprint(db) == before)
        // When its set is deleted, the exercise can go, with its alias
        _ = try db.deleteSet(.last)
        #expect(try db.deleteExercise("benchpres").name == "benchpres")
        #expect(try db.exerciseSummaries().isEmpty)
        #expect(try count(db, "SELECT COUNT(*) FROM aliases WHERE deleted_at IS NULL") == 0)
        #expect(try count(db, "SELECT COUNT(*) FROM outbox WHERE entity = 'exercises' AND op = 'delete'") == 1)
        // And the name is free for a new exercise
        #expect(try log(db, "benchpres 100x5").createdExercise)
    }
}
