import Foundation
import GRDB
import GymLogCore
@testable import GymLogStore
import GymLogTestSupport
import GymLogWire
import Testing

/// An exercise's catalog link as stored (issue 30, item 2): synced fields of the exercise,
/// written through the pipeline (row, outbox event, undo) like its name and kind.
@Suite struct ExerciseLinkStoreTests {
    let world = FakeWorld()

    /// The fields of the last outbox event about exercises.
    func lastExerciseEvent(_ db: GymLogDatabase) throws -> [String: FieldValue] {
        let payload = try #require(try db.read {
            try String.fetchOne($0, sql: "SELECT payload FROM outbox WHERE entity = 'exercises' ORDER BY seq DESC LIMIT 1")
        })
        return Dictionary(try decodePayload(payload).map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    func link(_ db: GymLogDatabase, _ name: String) throws -> ExerciseLink {
        let id = try db.existingExercise(name).id
        return try #require(try db.exerciseLinks()[id])
    }

    @Test func anExerciseLinksByItsNameUntilLinkedByHandAndUndoBringsTheNameBack() throws {
        // Given a squat logged as lifters type it
        let db = try temporaryDatabase(world)
        try log(db, "squat 140x5")
        #expect(try link(db, "squat").source == .automatic)
        #expect(try link(db, "squat").primaryMuscles == ["quadriceps"])
        // When it is linked by hand to the front squat
        let front = try #require(ExerciseCatalog.entry(named: "front barbell squat"))
        _ = try db.linkExercise("squat", to: front, typed: "exercises link squat front barbell squat")
        // Then the row holds the id, its event carries it as a field the server accepts, and the link is by hand
        #expect(try db.read { try String.fetchOne($0, sql: "SELECT catalog_id FROM exercises") } == "Front_Barbell_Squat")
        let event = try lastExerciseEvent(db)
        #expect(event["catalog_id"] == .text("Front_Barbell_Squat") && event["primary_muscles"] == .null)
        #expect(FieldRules.problem(entity: "exercises", field: "catalog_id", value: .text("Front_Barbell_Squat")) == nil)
        #expect(try link(db, "squat").source == .byHand && link(db, "squat").entry?.id == "Front_Barbell_Squat")
        // When it is undone
        _ = try db.undo()
        // Then the name decides again, and the undo went out as an event too
        #expect(try link(db, "squat").source == .automatic && link(db, "squat").entry?.id == "Barbell_Squat")
        #expect(try lastExerciseEvent(db)["catalog_id"] == .null)
    }

    @Test func anUnlinkedExerciseIsNeverLinkedByItsNameUntilLinkedAgain() throws {
        // Given a bench press, linked from its name
        let db = try temporaryDatabase(world)
        _ = try db.addExercise(name: "Bench Press (Barbell)", kind: .weighted)
        // When it is unlinked
        _ = try db.unlinkExercise("bench press", typed: "exercises unlink bench press")
        // Then nothing links it, even after a rename to a name that matches
        #expect(try link(db, "bench press").source == .unlinkedByHand && !link(db, "bench press").isLinked)
        _ = try db.renameExercise("Bench Press (Barbell)", to: "Barbell Bench Press")
        #expect(try link(db, "Barbell Bench Press").source == .unlinkedByHand)
        // When it is linked again by hand
        let bench = try #require(ExerciseCatalog.entry(id: "Barbell_Bench_Press_-_Medium_Grip"))
        _ = try db.linkExercise("Barbell Bench Press", to: bench, typed: "exercises link")
        #expect(try link(db, "Barbell Bench Press").source == .byHand)
    }

    @Test func aLiftersOwnMusclesWinAndALinkClearsThem() throws {
        // Given an exercise the catalog lacks
        let db = try temporaryDatabase(world)
        try log(db, "Landmine Thing 40x10")
        #expect(try link(db, "Landmine Thing").source == .unlinked)
        // When the lifter describes it
        let fields = try ExerciseLinkFields.custom(primary: ["shoulders"], secondary: ["triceps", "chest"], equipment: "barbell")
        _ = try db.describeExercise("Landmine Thing", as: fields, typed: "exercises muscles")
        // Then it trains those muscles, synced as fields
        let custom = try link(db, "Landmine Thing")
        #expect(custom.source == .custom && custom.primaryMuscles == ["shoulders"] && custom.secondaryMuscles == ["triceps", "chest"])
        #expect(custom.equipment == "barbell")
        #expect(try lastExerciseEvent(db)["secondary_muscles"] == .text("triceps,chest"))
        // When it is then linked by hand, the description goes
        _ = try db.linkExercise("Landmine Thing", to: try #require(ExerciseCatalog.entry(id: "Push_Press")), typed: "exercises link")
        #expect(try link(db, "Landmine Thing").source == .byHand)
        #expect(try db.read { try String.fetchOne($0, sql: "SELECT primary_muscles FROM exercises") } == nil)
    }

    @Test func aLinkMadeOnAnotherDeviceArrivesWithThePull() throws {
        // Given a squat on this device
        let db = try temporaryDatabase(world)
        try log(db, "squat 140x5")
        let id = try db.existingExercise("squat").id.key
        // When another device's unlink and muscles arrive
        let clock = HLC(millis: world.now() + 1000, counter: 0, node: "other-device")
        _ = try db.applyPulled([RemoteChange(entity: "exercises", entityID: id, fields: [
            FieldChange("catalog_id", .text(""), clock), FieldChange("primary_muscles", .text("glutes"), clock),
        ])], epoch: "e", cursor: 1)
        // Then they are the exercise's, in their columns
        let pulled = try link(db, "squat")
        #expect(pulled.source == .custom && pulled.primaryMuscles == ["glutes"])
        #expect(try db.read { try String.fetchOne($0, sql: "SELECT extra FROM exercises") } == nil)
    }
}
