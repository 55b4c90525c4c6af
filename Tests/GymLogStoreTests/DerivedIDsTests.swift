import Foundation
import GRDB
import GymLogCore
@testable import GymLogStore
import GymLogTestSupport
import GymLogWire
import Testing

/// Ids derived from content (exercise, alias and routine names, imported rows) are keyed with
/// the account key when the account is encrypted end to end (issue 29), so the server cannot
/// test a guessed name against them; a log made before the key is keyed whole.
@Suite struct DerivedIDsTests {
    private static let strong = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
        + "2024-01-02 06:00:00,W,1h,Zercher Squat,1,60,10,0,0,,,\n2024-01-02 06:00:00,W,1h,Zercher Squat,2,90,5,0,0,,,\n"
        + "2024-01-02 06:00:00,W,1h,Curl,1,25,12,0,0,,,\n"

    /// Every place an id is kept locally, as `table.column`.
    private static let idColumns = [
        "exercises.id", "aliases.id", "aliases.exercise_id", "workouts.id", "workouts.routine_id", "sets.id", "sets.workout_id",
        "sets.exercise_id", "sets.superset_id", "routines.id", "bodyweights.id", "records.exercise_id", "records.set_id",
        "records.workout_id", "session_tallies.workout_id", "session_tallies.exercise_id", "outbox.entity_id", "outbox.payload",
        "undo_actions.workout_id", "undo_actions.writes", "undo_created.id", "parked_changes.entity_id", "parked_changes.payload",
    ]

    /// How many values of each id column hold a plain derived id, where any does.
    private func plainDerivedIDs(_ db: GymLogDatabase) throws -> [String: Int] {
        try db.read { d in
            var found: [String: Int] = [:]
            for place in Self.idColumns {
                let parts = place.split(separator: ".")
                let n = try Int.fetchOne(d, sql: "SELECT count(*) FROM \(parts[0]) WHERE \(parts[1]) GLOB '*' || ? || '*'",
                                         arguments: [GymLogDatabase.derivedIDPattern]) ?? 0
                if n > 0 { found[place] = n }
            }
            return found
        }
    }

    /// The log as a lifter reads it: every set with its exercise's name and workout, the
    /// records and the tallies, by name, not by id.
    private func readable(_ db: GymLogDatabase) throws -> [String] {
        try db.read { d in
            try String.fetchAll(d, sql: """
                SELECT 'set ' || e.name || ' ' || w.started_at || ' ' || coalesce(s.weight, '-') || 'x' || coalesce(s.reps, '-')
                    || (CASE WHEN s.deleted_at IS NULL THEN '' ELSE ' deleted' END)
                    || (CASE WHEN s.superset_id IS NULL THEN '' ELSE ' superset' END)
                FROM sets s JOIN exercises e ON e.id = s.exercise_id JOIN workouts w ON w.id = s.workout_id
                UNION ALL SELECT 'record ' || e.name || ' ' || r.metric || ' ' || r.reps || ' ' || r.value
                FROM records r JOIN exercises e ON e.id = r.exercise_id
                UNION ALL SELECT 'tally ' || e.name || ' ' || t.live_sets || ' ' || t.kg_volume
                FROM session_tallies t JOIN exercises e ON e.id = t.exercise_id WHERE t.live_sets > 0
                UNION ALL SELECT 'alias ' || a.alias || ' of ' || e.name FROM aliases a JOIN exercises e ON e.id = a.exercise_id
                UNION ALL SELECT 'routine ' || name FROM routines
                UNION ALL SELECT 'exercise ' || name || (CASE WHEN deleted_at IS NULL THEN '' ELSE ' deleted' END) FROM exercises
                ORDER BY 1
                """)
        }
    }

    @Test func aLogMadeBeforeTheKeyIsKeyedWholeAndReadsTheSame() throws {
        // Given a log made in the clear: named exercises, an alias, a routine, a superset, a Strong file imported
        let db = try temporaryDatabase()
        try log(db, "zercher squat 100x5")
        try log(db, "bench 80x8 & row 70x8")
        _ = try db.addAlias("zs", for: "zercher squat")
        _ = try db.saveRoutine(name: "Push A", text: "bench 3x5 80", lines: ["bench 3x5 80"], typed: "routine add")
        _ = try db.importFile(try ImportParser.parse(Array(Self.strong.utf8), options: ImportOptions()))
        try log(db, "zs 105x3")
        #expect(try plainDerivedIDs(db)["outbox.entity_id"] ?? 0 > 0)
        let before = try readable(db)

        // When the account's key comes
        let key = AccountKey.random()
        let changed = try db.keyDerivedIDs(with: key)

        // Then no plain derived id is left anywhere, the exercises have their keyed ids
        #expect(changed > 0)
        #expect(try plainDerivedIDs(db) == [:])
        let zercher = key.keyedID(derivedID(namespace: "exercise", key: "zercher squat"))
        #expect(try count(db, "SELECT count(*) FROM exercises WHERE id = '\(zercher.key)' AND name = 'zercher squat'") == 1)
        #expect(try count(db, "SELECT count(*) FROM sets WHERE exercise_id = '\(zercher.key)'") == 4)
        // And the log reads exactly as before, foreign keys whole
        #expect(try readable(db) == before)
        #expect(try count(db, "SELECT count(*) FROM pragma_foreign_key_check") == 0)
        // And undo still reverts the last set, found under its keyed exercise
        guard case .done = try db.undo() else { Issue.record("undo did not revert the last set"); return }
        #expect(try count(db, "SELECT count(*) FROM sets WHERE exercise_id = '\(zercher.key)' AND deleted_at IS NULL") == 3)
        // And keying again finds nothing to change
        #expect(try db.keyDerivedIDs(with: key) == 0)
    }

    @Test func aDatabaseWithTheKeyDerivesKeyedIDsAndAReimportAddsNothing() throws {
        // Given a database whose settings hold the account's key
        let key = AccountKey.random()
        var settings = Settings()
        settings.account = "alice"
        settings.accountKey = key.phrase.joined(separator: " ")
        let db = try temporaryDatabase(settings: settings)
        // When exercises, aliases and routines are named and a file imported, twice
        try log(db, "zercher squat 100x5")
        _ = try db.addAlias("zs", for: "zercher squat")
        _ = try db.saveRoutine(name: "Push A", text: "bench 3x5 80", lines: ["bench 3x5 80"], typed: "routine add")
        let first = try db.importFile(try ImportParser.parse(Array(Self.strong.utf8), options: ImportOptions()))
        let again = try db.importFile(try ImportParser.parse(Array(Self.strong.utf8), options: ImportOptions()))
        // Then every id is keyed from the start, and the second import finds the first's rows
        #expect(try plainDerivedIDs(db) == [:])
        #expect(try count(db, "SELECT count(*) FROM exercises WHERE id = '\(key.keyedID(derivedID(namespace: "exercise", key: "zercher squat")).key)'") == 1)
        #expect(try count(db, "SELECT count(*) FROM routines WHERE id = '\(key.keyedID(derivedID(namespace: "routine", key: "push a")).key)'") == 1)
        #expect(first.setsCreated == 3 && again.setsCreated == 0 && again.setsExisting == 3 && again.workoutsExisting == 1)
    }

    @Test func aDeletedExerciseUnderItsPlainIDFoldsIntoItsKeyedNamesake() throws {
        // Given an exercise made and deleted in the clear, then made again by name once the key is held
        let world = FakeWorld()
        let key = AccountKey.random()
        let plain = try temporaryDatabase(world)
        try log(plain, "zercher squat 100x5")
        // (undoing the set that made it deletes the exercise too)
        guard case .done = try plain.undo() else { Issue.record("undo did not remove the set"); return }
        #expect(try count(plain, "SELECT count(*) FROM exercises WHERE deleted_at IS NOT NULL") == 1)
        world.advance(minutes: 1)
        var settings = Settings()
        settings.account = "alice"
        settings.accountKey = key.phrase.joined(separator: " ")
        let keyed = try GymLogDatabase(path: plain.path, environment: world.environment, settings: settings)
        try log(keyed, "zercher squat 90x5")
        #expect(try count(keyed, "SELECT count(*) FROM exercises") == 2)

        // When the plain ids are keyed
        try keyed.keyDerivedIDs(with: key)

        // Then the two rows are one, live (the later write wins), holding both sets' exercise
        let id = key.keyedID(derivedID(namespace: "exercise", key: "zercher squat")).key
        #expect(try count(keyed, "SELECT count(*) FROM exercises") == 1)
        #expect(try count(keyed, "SELECT count(*) FROM exercises WHERE id = '\(id)' AND deleted_at IS NULL") == 1)
        #expect(try count(keyed, "SELECT count(*) FROM sets WHERE exercise_id = '\(id)'") == 2)
        #expect(try count(keyed, "SELECT count(*) FROM pragma_foreign_key_check") == 0)
        #expect(try plainDerivedIDs(keyed) == [:])
    }
}
