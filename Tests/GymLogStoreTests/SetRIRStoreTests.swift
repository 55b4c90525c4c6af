import Foundation
import GRDB
import GymLogCore
@testable import GymLogStore
import GymLogTestSupport
import GymLogWire
import Testing

/// Reps in reserve (issue 26, item 9) as stored: its own column, synced as a field, kept as typed.
@Suite struct SetRIRStoreTests {
    @Test func anRIRIsStoredAsTypedSyncedAndReadBackAfterReopening() throws {
        // Given a set logged with an RIR
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        let logged = try log(db, "squat 140x3 rir1.5").sets[0].set
        #expect(logged.values.rir == Fixed(thousandths: 1500) && logged.values.rpe == nil)
        // Then its row holds the RIR as typed, and its create event carries it as a field the server accepts
        #expect(try db.read { try String.fetchOne($0, sql: "SELECT rir FROM sets") } == "1.5")
        let payload = try #require(try db.read { try String.fetchOne($0, sql: "SELECT payload FROM outbox WHERE entity = 'sets'") })
        let rir = try #require(try decodePayload(payload).first { $0.name == "rir" })
        #expect(rir.value == .text("1.5"))
        #expect(FieldRules.problem(entity: "sets", field: "rir", value: rir.value) == nil)
        #expect(FieldRules.problem(entity: "sets", field: "rir", value: .text("10.5")) != nil)
        #expect(FieldRules.problem(entity: "sets", field: "rir", value: .text("-1")) != nil)
        // When the database is opened again
        let again = try GymLogDatabase(path: db.path, environment: world.environment)
        // Then the set reads back as it was logged
        #expect(try again.workoutDetail()?.sets.first?.set == logged)
        #expect(try again.workoutDetail()?.sets.first?.set.summary == "140kg x 3 rir1.5")
    }

    @Test func anRPETypedOnARepeatReplacesTheRIRAndTheChangeIsSynced() throws {
        // Given a set with an RIR
        let db = try temporaryDatabase()
        try log(db, "squat 140x3 rir2")
        // When the next set is the same at RPE 9, and the one after it repeats that
        try log(db, "+ @9")
        try log(db, "+ rir1")
        // Then each set holds the one it was given
        let sets = try #require(try db.workoutDetail()).sets.map(\.set.values)
        #expect(sets.map(\.rpe) == [nil, Fixed(9), nil])
        #expect(sets.map(\.rir) == [Fixed(2), nil, Fixed(1)])
    }

    @Test func theMigrationMovesAnRIRANewerClientSentOutOfExtra() throws {
        // Given a database of the schema before `v7-set-rir`, holding a set pulled from a newer
        // client with its RIR kept in `extra`, and one without
        let path = try temporaryDirectory("gymlog-tests") + "/gymlog.sqlite"
        let exercise = UUID().key, workout = UUID().key
        do {
            let queue = try DatabaseQueue(path: path)
            try Schema.migrator.migrate(queue, upTo: "v6-routine-unit")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO exercises (id, name) VALUES ('\(exercise)', 'Squat');
                    INSERT INTO workouts (id, started_at) VALUES ('\(workout)', 1000);
                    INSERT INTO sets (id, workout_id, exercise_id, weight, weight_unit, reps, performed_at, extra) VALUES
                        ('\(UUID().key)', '\(workout)', '\(exercise)', '140', 'kg', 3, 2000, '{"rir":"2","future":1}'),
                        ('\(UUID().key)', '\(workout)', '\(exercise)', '140', 'kg', 3, 3000, NULL);
                    """)
            }
        }
        // When gymlog opens it
        let db = try GymLogDatabase(path: path, environment: FakeWorld().environment)
        // Then the RIR is in its column, the rest of `extra` kept, and the other set has none
        let rows = try db.read { try Row.fetchAll($0, sql: "SELECT rir, extra FROM sets ORDER BY performed_at") }
        #expect(rows.map { $0["rir"] as String? } == ["2", nil])
        #expect(rows.map { $0["extra"] as String? } == [#"{"future":1}"#, nil])
    }
}
