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
    try to.applyPulled(try events.map { RemoteChange(entity: $0.entity, entityID: $0.entityID, fields: try $0.fields.changes) },
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

    @Test func theKindChangesOnlyWhileEverySetHasAReadingInTheNewKind() throws {
        // Given a dip made bodyweight, with an assisted set and a hold besides added load
        let db = try temporaryDatabase()
        _ = try db.addExercise(name: "Dip", kind: .carry)
        let carry = #expect(throws: UserError.self) { try log(db, "dip bw x8") }
        #expect(carry?.message.contains("Dip is a weight-and-distance exercise") == true)
        _ = try db.setExerciseKind("dip", to: .bodyweight)
        try log(db, "dip bw+20x5")
        try log(db, "dip bw-20x8")
        try log(db, "dip bw 30s")
        // When it is changed to weight and reps, which has no reading of assistance or of a hold
        let before = try footprint(db)
        let error = #expect(throws: UserError.self) { try db.setExerciseKind("dip", to: .weighted) }
        // Then it is refused, naming each such set by its workout's date, the exercise and the set
        #expect(error?.message == """
            'Dip' stays bodyweight: 2 sets of 'Dip' have no reading as a weight-and-reps exercise (e.g. `dip 100x5`), so nothing was changed:
              2025-11-21 Dip bw-20kg x 8
              2025-11-21 Dip bw 30s
            Change or delete those sets first, or give weighted sets an exercise of their own, e.g. `gymlog exercises add NAME --kind weighted`.
            """)
        #expect(try footprint(db) == before)
        // And the preview the command shows first refuses alike
        let preview = #expect(throws: UserError.self) { try db.exerciseKindChange("dip", to: .weighted) }
        #expect(preview?.message == error?.message)
        // And a kind they fit is taken
        _ = try db.addExercise(name: "Hang", kind: .weighted)
        #expect(try db.setExerciseKind("hang", to: .timed).kind == .timed)
        #expect(try db.exerciseSummaries().first { $0.exercise.name == "Hang" }?.exercise.kind == .timed)
    }
}

/// Every set of one exercise, oldest first.
private func sets(_ db: GymLogDatabase, of name: String) throws -> [SetValues] {
    try db.read { try Row.fetchAll($0, sql: """
        SELECT \(Rows.setColumns) FROM sets s JOIN exercises e ON e.id = s.exercise_id
        WHERE e.name = ? AND s.deleted_at IS NULL ORDER BY s.performed_at
        """, arguments: [name]).map { Rows.set($0).values } }
}

/// The records of one exercise: metric (and reps) -> value.
private func records(_ db: GymLogDatabase, of name: String) throws -> [String: Double] {
    try db.read { try Row.fetchAll($0, sql: """
        SELECT r.metric, r.reps, r.value FROM records r JOIN exercises e ON e.id = r.exercise_id WHERE e.name = ?
        """, arguments: [name]) }.reduce(into: [:]) { $0["\($1["metric"] as String)\($1["reps"] as Int == 0 ? "" : "@\($1["reps"] as Int)")"] = $1["value"] }
}

/// A Squat (Barbell) as an earlier import made it from a Strong file whose warm-ups had no
/// load: bodyweight, its loaded sets `bw+70kg`, its warm-ups `bw x12`.
private func wronglyImportedSquat(_ db: GymLogDatabase) throws {
    _ = try db.addExercise(name: "Squat (Barbell)", kind: .bodyweight)
    try log(db, "squat (barbell) bw x12 w", typed: "squat (barbell) bw x12 w")
    try log(db, "squat (barbell) bw x12 w", typed: "squat (barbell) bw x12 w")
    try log(db, "squat (barbell) bw+60x5", typed: "squat (barbell) bw+60x5")
    try log(db, "squat (barbell) bw+70x5x3", typed: "squat (barbell) bw+70x5x3")
}

@Suite struct KindConversionStoreTests {
    @Test func aWronglyImportedBodyweightSquatIsRepairedByItsKindAsOneUndoableSyncedChange() throws {
        // Given the squat as the import made it, synced to another device
        let db = try temporaryDatabase(), other = try temporaryDatabase()
        try wronglyImportedSquat(db)
        try replay(db, into: other)
        let refused = #expect(throws: UserError.self) { try log(db, "squat (barbell) 80x5") }
        #expect(refused?.message.contains("`squat (barbell) bw+80x5`") == true)
        #expect(try records(db, of: "Squat (Barbell)")["e1rm"] == nil)
        let pushed = try count(db, "SELECT MAX(seq) FROM outbox")
        // When it is made weighted
        let change = try db.setExerciseKind("Squat (Barbell)", to: .weighted)
        // Then every set is a weighted set of its load; the warm-ups are sets at 0 kg
        #expect(change.conversions.count == 6 && change.exercise.kind == .bodyweight && change.kind == .weighted)
        let zero = Weight(Fixed(0), .kg), seventy = Weight(Fixed(70), .kg)
        let weighted = [SetValues(kind: .warmup, weight: zero, reps: 12), SetValues(kind: .warmup, weight: zero, reps: 12),
                        SetValues(weight: Weight(Fixed(60), .kg), reps: 5)] + Array(repeating: SetValues(weight: seventy, reps: 5), count: 3)
        #expect(try sets(db, of: "Squat (Barbell)") == weighted)
        // And each changed set is one field change in the outbox (its load fields only), as any edit
        #expect(try count(db, "SELECT COUNT(*) FROM outbox WHERE seq > \(pushed) AND entity = 'sets' AND op = 'update'") == 6)
        #expect(try count(db, "SELECT COUNT(*) FROM outbox WHERE seq > \(pushed) AND entity = 'sets' AND payload LIKE '%\"reps\"%'") == 0)
        #expect(try count(db, "SELECT COUNT(*) FROM outbox WHERE seq > \(pushed) AND entity = 'exercises'") == 1)
        // And the records are a weighted exercise's: heaviest weight, e1RM, no most-reps
        let held = try records(db, of: "Squat (Barbell)")
        #expect(held["weight"] == 70 && held["rep_max@5"] == 70 && held["reps"] == nil)
        #expect(abs((held["e1rm"] ?? 0) - 70 * (1 + 5.0 / 30)) < 1e-9)
        // And `squat 80x5` logs, beating them
        let logged = try log(db, "squat (barbell) 80x5", typed: "squat (barbell) 80x5")
        #expect(logged.sets.first?.records.map(\.metric).contains(.weight) == true)
        // And another device gets the same sets and kind by sync
        try replay(db, into: other)
        #expect(try sets(other, of: "Squat (Barbell)") == weighted + [SetValues(weight: Weight(Fixed(80), .kg), reps: 5)])
        #expect(try other.existingExercise("squat (barbell)").kind == .weighted)
        #expect(try records(other, of: "Squat (Barbell)")["weight"] == 80 && records(other, of: "Squat (Barbell)")["e1rm"] != nil)
        // When the 80x5 and then the conversion are undone: one undo takes the whole conversion back
        guard case .done = try db.undo(), case .done(let action) = try db.undo() else { Issue.record("undo refused"); return }
        #expect(action.label == "exercises kind Squat (Barbell) weighted")
        let bodyweight = try sets(db, of: "Squat (Barbell)")
        #expect(bodyweight.allSatisfy(\.bodyweight) && bodyweight.map(\.weight) == [nil, nil, Weight(Fixed(60), .kg), seventy, seventy, seventy])
        #expect(try db.existingExercise("squat (barbell)").kind == .bodyweight)
        #expect(try records(db, of: "Squat (Barbell)")["e1rm"] == nil)
        // And one redo brings it all back, records included
        guard case .done = try db.redo() else { Issue.record("redo refused"); return }
        #expect(try sets(db, of: "Squat (Barbell)") == weighted)
        #expect(try records(db, of: "Squat (Barbell)")["weight"] == 70)
    }

    @Test func aDeletedSetStaysAsItIsAndTheChangeCanStillBeUndone() throws {
        // Given a bodyweight squat with a set deleted (on this device, as on another)
        let db = try temporaryDatabase()
        _ = try db.addExercise(name: "Squat", kind: .bodyweight)
        try log(db, "squat bw+70x5", typed: "squat bw+70x5")
        try log(db, "squat bw+75x5", typed: "squat bw+75x5")
        _ = try db.deleteSet(.last)
        // When made weighted, then only the live set converts
        #expect(try db.setExerciseKind("squat", to: .weighted).conversions.count == 1)
        #expect(try count(db, "SELECT COUNT(*) FROM sets WHERE bodyweight = 1 AND deleted_at IS NOT NULL") == 1)
        // And the change is undone whole
        guard case .done = try db.undo() else { Issue.record("undo refused"); return }
        #expect(try sets(db, of: "Squat") == [SetValues(weight: Weight(Fixed(70), .kg), bodyweight: true, reps: 5)])
    }

    @Test func theUsersUnitIsTheUnitOfAMadeUpZeroLoad() throws {
        // Given a pound user's bodyweight squat with an empty-bar warm-up
        var settings = Settings()
        settings.defaultUnit = .lb
        let db = try temporaryDatabase(settings: settings)
        _ = try db.addExercise(name: "Squat", kind: .bodyweight)
        try log(db, "squat bw x10 w")
        try log(db, "squat bw+135x5")
        // When made weighted, then the warm-up is 0 lb and the load keeps its number and unit
        _ = try db.setExerciseKind("squat", to: .weighted)
        #expect(try sets(db, of: "Squat") == [SetValues(kind: .warmup, weight: Weight(Fixed(0), .lb), reps: 10),
                                                SetValues(weight: Weight(Fixed(135), .lb), reps: 5)])
    }

    @Test func whatTheUserConfirmedIsWhatIsWritten() throws {
        // Given the conversion shown to the user
        let db = try temporaryDatabase()
        try wronglyImportedSquat(db)
        let preview = try db.exerciseKindChange("squat (barbell)", to: .weighted)
        #expect(preview.conversions.count == 6)
        #expect(try count(db, "SELECT COUNT(*) FROM sets WHERE bodyweight = 0") == 0)
        // When another set is logged before the answer
        try log(db, "squat (barbell) bw+75x3")
        let before = try footprint(db)
        // Then the confirmed change is refused as stale, and nothing is written
        let error = #expect(throws: UserError.self) { try db.setExerciseKind("squat (barbell)", to: .weighted, confirming: preview) }
        #expect(error?.message.contains("changed while you were asked") == true)
        #expect(try footprint(db) == before)
        // While a fresh preview goes through
        let fresh = try db.exerciseKindChange("squat (barbell)", to: .weighted)
        #expect(try db.setExerciseKind("squat (barbell)", to: .weighted, confirming: fresh).conversions.count == 7)
    }

    @Test func weightedBackToBodyweightMakesLoadsAddedAndZeroLoadsNone() throws {
        // Given a weighted pull-up logged with its belt load
        let db = try temporaryDatabase()
        try log(db, "weighted pullup 20x5")
        try log(db, "weighted pullup 25x3 @9")
        // When made bodyweight
        _ = try db.setExerciseKind("weighted pullup", to: .bodyweight)
        // Then the loads are added load and the records those of added load
        #expect(try sets(db, of: "weighted pullup") == [SetValues(weight: Weight(Fixed(20), .kg), bodyweight: true, reps: 5),
                                                        SetValues(weight: Weight(Fixed(25), .kg), bodyweight: true, reps: 3, rpe: Fixed(9))])
        #expect(try log(db, "weighted pullup bw x8").exercise.kind == .bodyweight)
        #expect(try records(db, of: "weighted pullup")["reps"] == 8)
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
        // Given a stray "old gym bench" with three sets, one heavier than Bench Press's best
        let a = try temporaryDatabase(), b = try temporaryDatabase()
        try log(a, "Bench Press 100x5")
        let stray = try log(a, "old gym bench 110x5 100x5x2").exercise
        _ = try a.addAlias("bpx", for: "old gym bench")
        try replay(a, into: b)
        let pushed = try count(a, "SELECT COUNT(*) FROM outbox")
        // When it is merged into Bench Press
        let merge = try a.mergeExercises("old gym bench", into: "Bench Press")
        // Then every set moved through the write pipeline, the old name and alias now mean Bench Press
        #expect(merge.movedSets == 3 && merge.into.name == "Bench Press")
        #expect(merge.newAliases == ["old gym bench", "bpx"])
        #expect(try count(a, "SELECT COUNT(*) FROM outbox WHERE entity = 'sets'") == 4 + 3)
        #expect(try count(a, "SELECT COUNT(*) FROM outbox") > pushed)
        try replay(a, into: b)
        for db in [a, b] {
            let summaries = try db.exerciseSummaries()
            #expect(summaries.map(\.exercise.name) == ["Bench Press"])
            #expect(summaries.first?.setCount == 4)
            #expect(summaries.first?.aliases.sorted() == ["bpx", "old gym bench"])
            #expect(try count(db, "SELECT COUNT(*) FROM exercises WHERE id = '\(stray.id.key)' AND deleted_at IS NOT NULL") == 1)
            #expect(try log(db, "old gym bench 90x5").exercise.name == "Bench Press")
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

    @Test func mergeIsRefusedForSetsWithNoReadingAndForPrefixesAndWritesNothing() throws {
        let db = try temporaryDatabase()
        try log(db, "row 2000m 7:41")
        try log(db, "barbell row 70x8")
        try log(db, "bench press 100x5")
        let before = try footprint(db)
        let kinds = #expect(throws: UserError.self) { try db.mergeExercises("barbell row", into: "row") }
        #expect(kinds?.message == """
            Cannot merge 'barbell row' into 'row': 'barbell row' is a weight-and-reps exercise and 'row' is a distance exercise, \
            and 1 set of 'barbell row' has no reading as a distance exercise (distance and time, e.g. `row 2000m 7:41`), so nothing was changed:
              2025-11-21 barbell row 70kg x 8
            Both exercises stay as they are.
            """)
        // Never a suggestion that would be refused too
        #expect(kinds?.message.contains("exercises kind") == false)
        let prefix = #expect(throws: UserError.self) { try db.mergeExercises("bench", into: "barbell row") }
        #expect(prefix?.message.contains("type the whole name") == true)
        #expect(throws: UserError.self) { try db.mergeExercises("row", into: "ROW") }
        #expect(try footprint(db) == before)
    }

    @Test func mergeConvertsSetsOfAnotherKindByTheSameRule() throws {
        // Given sets logged as bodyweight under a stray name, and the real weighted squat
        let db = try temporaryDatabase(), other = try temporaryDatabase()
        try log(db, "Squat 100x5")
        try log(db, "bodyweight squat bw+110x3", typed: "bodyweight squat bw+110x3")
        try log(db, "bodyweight squat bw x15 w", typed: "bodyweight squat bw x15 w")
        try replay(db, into: other)
        // When merged into the weighted one
        var preview = try db.exerciseMergePreview("bodyweight squat", into: "Squat")
        #expect(preview.conversions.count == 2 && preview.kind == .weighted)
        // (a merge confirmed before another set was logged is refused, writing nothing)
        try log(db, "bodyweight squat bw+100x3", typed: "bodyweight squat bw+100x3")
        let before = try footprint(db)
        #expect(throws: UserError.self) { try db.mergeExercises("bodyweight squat", into: "Squat", confirming: preview) }
        #expect(try footprint(db) == before)
        guard case .done = try db.undo() else { Issue.record("undo refused"); return }
        preview = try db.exerciseMergePreview("bodyweight squat", into: "Squat")
        let merge = try db.mergeExercises("bodyweight squat", into: "Squat", confirming: preview)
        // Then the sets are converted as `exercises kind` converts them, in the moving write
        #expect(merge.movedSets == 2 && merge.conversions == preview.conversions)
        let expected = [SetValues(weight: Weight(Fixed(100), .kg), reps: 5), SetValues(weight: Weight(Fixed(110), .kg), reps: 3),
                        SetValues(kind: .warmup, weight: Weight(Fixed(0), .kg), reps: 15)]
        #expect(try sets(db, of: "Squat") == expected)
        // And the records count the 110 on every device
        try replay(db, into: other)
        for d in [db, other] {
            #expect(try sets(d, of: "Squat") == expected)
            #expect(try records(d, of: "Squat")["weight"] == 110)
        }
        // And one undo takes the merge and its conversions back
        guard case .done = try db.undo() else { Issue.record("undo refused"); return }
        #expect(try sets(db, of: "bodyweight squat").map(\.bodyweight) == [true, true])
        #expect(try records(db, of: "Squat")["weight"] == 100)
    }

    @Test func aMergeOfAnExerciseWithADeletedSetCanBeUndone() throws {
        // Given a stray exercise with a live set and a deleted one
        let db = try temporaryDatabase()
        try log(db, "Bench Press 100x5", typed: "Bench Press 100x5")
        try log(db, "old gym bench 90x5x2", typed: "old gym bench 90x5x2")
        _ = try db.deleteSet(.last)
        // When it is merged (the deleted set moves too) and the merge undone
        _ = try db.mergeExercises("old gym bench", into: "Bench Press")
        let outcome = try db.undo()
        // Then the undo is taken (it was refused: the deleted set was expected live), both sets
        // are back, the deleted one still deleted, and redo moves them again
        guard case .done = outcome else { Issue.record("undo: \(outcome)"); return }
        #expect(try sets(db, of: "old gym bench").count == 1)
        #expect(try count(db, "SELECT COUNT(*) FROM sets s JOIN exercises e ON e.id = s.exercise_id WHERE e.name = 'old gym bench' AND s.deleted_at IS NOT NULL") == 1)
        guard case .done = try db.redo() else { Issue.record("redo refused"); return }
        #expect(try sets(db, of: "Bench Press").count == 2)
    }

    @Test func anExerciseWithNoKindAndNoSetsTakesTheKindOfTheSetsMergedIntoIt() throws {
        let db = try temporaryDatabase()
        _ = try db.addExercise(name: "Pull-up")
        try log(db, "chinup bw+10x5")
        let merge = try db.mergeExercises("chinup", into: "Pull-up")
        #expect(merge.kind == .bodyweight && merge.conversions.isEmpty)
        #expect(try db.existingExercise("pull-up").kind == .bodyweight)
        #expect(try sets(db, of: "Pull-up") == [SetValues(weight: Weight(Fixed(10), .kg), bodyweight: true, reps: 5)])
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
