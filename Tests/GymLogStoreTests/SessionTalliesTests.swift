import Foundation
import GRDB
import GymLogCore
@testable import GymLogStore
import GymLogTestSupport
import Testing

/// `session_tallies` (derived, kept by triggers on `sets`) must always equal a recount of
/// the live sets, whoever wrote them: logging, edit, delete, undo, redo, sync, import, merge, migration.
@Suite struct SessionTalliesTests {
    /// Each tally that is not empty, by "workout/exercise".
    private typealias Tallies = [String: (liveSets: Int, volume: VolumeTally)]

    private func stored(_ db: Database) throws -> Tallies {
        var tallies: Tallies = [:]
        for row in try Row.fetchAll(db, sql: "SELECT workout_id, exercise_id, live_sets, kg_volume, lb_volume FROM session_tallies") {
            let volume = VolumeTally(kilogramThousandths: row["kg_volume"], poundThousandths: row["lb_volume"])
            let liveSets: Int = row["live_sets"]
            if liveSets != 0 || volume != VolumeTally() {
                tallies["\(row["workout_id"] as String)/\(row["exercise_id"] as String)"] = (liveSets, volume)
            }
        }
        return tallies
    }

    /// The same, counted from the live sets as the store decodes them.
    private func recount(_ db: Database) throws -> Tallies {
        var tallies: Tallies = [:]
        var decode = SetDecoder()
        for row in try Row.fetchAll(db, sql: "SELECT \(Rows.setColumns) FROM sets s WHERE s.deleted_at IS NULL") {
            let set = decode(row)
            var tally = tallies["\(set.workoutID.key)/\(set.exerciseID.key)", default: (0, VolumeTally())]
            tally.liveSets += 1
            tally.volume.add(set.values)
            tallies["\(set.workoutID.key)/\(set.exerciseID.key)"] = tally
        }
        return tallies.filter { $0.value.liveSets != 0 || $0.value.volume != VolumeTally() }
    }

    private func expectTalliesMatchRecount(_ db: GymLogDatabase, after step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (tallies, counted) = try db.read { (try stored($0), try recount($0)) }
        let describe = { (t: Tallies) in t.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.liveSets) sets, \($0.value.volume)" } }
        #expect(describe(tallies) == describe(counted), "after \(step)", sourceLocation: sourceLocation)
    }

    private func done(_ outcome: UndoOutcome, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .done = outcome else { Issue.record("expected the step to be taken, got \(outcome)", sourceLocation: sourceLocation); return }
    }

    @Test func talliesMatchARecountAfterEveryKindOfWrite() throws {
        // Given a device and another one that syncs into it
        let world = FakeWorld(), otherWorld = FakeWorld(idVersion: 7)
        let db = try temporaryDatabase(world)
        let other = try temporaryDatabase(otherWorld)
        var step = 0
        func check(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            step += 1
            try expectTalliesMatchRecount(db, after: "step \(step): \(what)", sourceLocation: sourceLocation)
        }
        // When sets are logged, edited, deleted, undone, redone, pulled, imported and merged
        try log(db, "bench 100x5x3", typed: "bench 100x5x3"); try check("log")
        try log(db, "row 150lb x8", typed: "row 150lb x8"); try check("log in lb")
        try log(db, "pullup bw+10x5", typed: "pullup bw+10x5"); try check("bodyweight set")
        _ = try db.editSet(.number(1), patch: SetPatch(kind: .warmup)); try check("edit into a warm-up")
        _ = try db.editSet(.number(4), patch: SetPatch(load: .weight(Fixed(140), .lb), reps: 6)); try check("edit load and reps")
        _ = try db.deleteSet(.number(2)); try check("delete")
        done(try db.undo()); try check("undo the delete")
        done(try db.undo()); try check("undo the edit")
        done(try db.redo()); try check("redo the edit")
        done(try db.undo()); done(try db.undo()); try check("undo two more")
        try log(db, "+", typed: "+"); try check("repeat")
        // A set deleted and one edited on another device, and sets it logged, pulled here
        let bench = try db.read { try String.fetchOne($0, sql: "SELECT id FROM sets WHERE deleted_at IS NULL ORDER BY performed_at LIMIT 1")! }
        world.advance(minutes: 1)
        let remote = HLC(millis: world.now(), counter: 0, node: "other-device")
        try db.applyPulled([RemoteChange(entity: "sets", entityID: bench, fields: [FieldChange(tombstoneField, .int(world.now()), remote)])],
                           epoch: "e", cursor: 1)
        try check("pulled delete")
        let last = try db.read { try String.fetchOne($0, sql: "SELECT id FROM sets WHERE deleted_at IS NULL ORDER BY performed_at DESC LIMIT 1")! }
        try db.applyPulled([RemoteChange(entity: "sets", entityID: last, fields: [FieldChange("reps", .int(3), remote.tick(now: world.now(), node: "other-device"))])],
                           epoch: "e", cursor: 2)
        try check("pulled edit")
        try log(other, "bench 80x5x2"); try log(other, "curl 30lb x12")
        let events = try other.pendingEvents(after: 0, limit: 1000)
        try db.applyPulled(try events.map { RemoteChange(entity: $0.entity, entityID: $0.entityID, fields: try $0.fields.changes) }, epoch: "e", cursor: 3)
        try check("pulled sets of another workout")
        let strong = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
            + "2024-01-02 06:00:00,W,1h,Bench,1,60,10,0,0,,,\n2024-01-02 06:00:00,W,1h,Bench,2,90,5,0,0,,,\n"
            + "2024-01-02 06:00:00,W,1h,Curl,1,25,12,0,0,,,\n"
        _ = try db.importFile(try ImportParser.parse(Array(strong.utf8), options: ImportOptions())); try check("import")
        _ = try db.mergeExercises("curl", into: "row"); try check("merge")
        done(try db.undo()); try check("undo the merge")
        _ = try db.setExerciseKind("bench", to: .bodyweight); try check("a kind change converting sets")
        done(try db.undo()); try check("undo the kind change")
        world.advance(minutes: 180)
        try log(db, "bench 105x3", typed: "bench 105x3"); try check("a new workout after the idle gap")
        _ = try db.finishWorkout(); try check("finish")
        // Then the tallies still count what is there
        #expect(try db.read { try Int.fetchOne($0, sql: "SELECT SUM(live_sets) FROM session_tallies") }
                == count(db, "SELECT COUNT(*) FROM sets WHERE deleted_at IS NULL"))
    }

    @Test func theMigrationTalliesAnExistingDatabase() throws {
        // Given a database of the schema before `v4-session-tallies`, holding sets
        let path = try temporaryDirectory("gymlog-tests") + "/gymlog.sqlite"
        let bench = UUID().key, row = UUID().key, monday = UUID().key, friday = UUID().key
        do {
            let queue = try DatabaseQueue(path: path)
            try Schema.migrator.migrate(queue, upTo: "v3-routines")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO exercises (id, name) VALUES ('\(bench)', 'Bench'), ('\(row)', 'Row');
                    INSERT INTO workouts (id, started_at) VALUES ('\(monday)', 1), ('\(friday)', 2);
                    INSERT INTO sets (id, workout_id, exercise_id, kind, weight, weight_unit, bodyweight, reps, performed_at, deleted_at) VALUES
                        ('\(UUID().key)', '\(monday)', '\(bench)', 'working', '100', 'kg', 0, 5, 10, NULL),
                        ('\(UUID().key)', '\(monday)', '\(bench)', 'working', '102.5', 'kg', 0, 3, 11, NULL),
                        ('\(UUID().key)', '\(monday)', '\(bench)', 'warmup', '60', 'kg', 0, 10, 12, NULL),
                        ('\(UUID().key)', '\(monday)', '\(row)', 'working', '135', 'lb', 0, 8, 13, NULL),
                        ('\(UUID().key)', '\(monday)', '\(row)', 'working', '10', 'kg', 1, 8, 14, NULL),
                        ('\(UUID().key)', '\(friday)', '\(bench)', 'working', '110', 'kg', 0, 1, 15, 99);
                    """)
            }
        }
        // When gymlog opens it
        let db = try GymLogDatabase(path: path, environment: FakeWorld().environment)
        // Then its tallies are filled from the sets already there
        #expect(try db.schemaVersion().contains("v4-session-tallies"))
        try expectTalliesMatchRecount(db, after: "the migration")
        let tallies = try db.read { try stored($0) }
        #expect(tallies["\(monday)/\(bench)"]?.liveSets == 3)
        #expect(tallies["\(monday)/\(bench)"]?.volume == VolumeTally(kilogramThousandths: 100_000 * 5 + 102_500 * 3))
        #expect(tallies["\(monday)/\(row)"]?.volume == VolumeTally(poundThousandths: 135_000 * 8))
        #expect(tallies["\(friday)/\(bench)"] == nil)
    }
}
