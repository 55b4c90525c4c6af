import Foundation
import GRDB
import GymLogCore

/// A workout with its live sets in logged order, each with its exercise.
public struct WorkoutDetail: Equatable, Sendable {
    public var workout: Workout
    public var sets: [(set: LoggedSet, exercise: Exercise)]
    /// Its short reference for `--workout` (`2026-11-20`, `2026-11-20#2`).
    public var reference: String

    public static func == (a: WorkoutDetail, b: WorkoutDetail) -> Bool {
        a.workout == b.workout && a.sets.map(\.set) == b.sets.map(\.set)
    }
}

/// One stored record with the set that holds it.
public struct RecordEntry: Equatable, Sendable {
    public var metric: RecordMetric
    public var reps: Int
    public var value: Double
    public var set: LoggedSet
}

/// An exercise with what the `exercises` list shows.
public struct ExerciseSummary: Equatable, Sendable {
    public var exercise: Exercise
    public var aliases: [String]
    public var setCount: Int
    public var lastPerformedAt: Int64?
    /// The UTC offset the last set was logged at (for showing its local date).
    public var lastPerformedOffset: Int = 0
    /// What it trains and is done with, and where that comes from.
    public var link: ExerciseLink
    /// The first set's time and UTC offset (`exercises info`); nil with no sets.
    public var firstPerformedAt: Int64?
    public var firstPerformedOffset: Int = 0
}

/// What was done for one exercise in one earlier workout: what "last time" shows.
public struct LastSession: Equatable, Sendable {
    public var workout: Workout
    /// The exercise's live sets in that workout, warm-ups included, in the order done.
    public var sets: [LoggedSet]
}

/// What the export can be narrowed to.
public struct ExportFilter: Sendable {
    public var since: Int64?
    public var until: Int64?
    public var exerciseID: UUID?
    public init(since: Int64? = nil, until: Int64? = nil, exerciseID: UUID? = nil) {
        self.since = since; self.until = until; self.exerciseID = exerciseID
    }

    /// The query `forEachExportRow` runs: live sets joined with their workout and exercise,
    /// workout by workout, each workout's sets in the order they were done (then by id, so
    /// sets logged in the same millisecond keep one order); the benchmark's `sqlite3`
    /// baseline runs it too.
    public var query: (sql: String, arguments: StatementArguments) {
        var conditions = ["s.deleted_at IS NULL", "w.deleted_at IS NULL"]
        var args: [DatabaseValueConvertible] = []
        if let since { conditions.append("s.performed_at >= ?"); args.append(since) }
        if let until { conditions.append("s.performed_at < ?"); args.append(until) }
        if let exerciseID { conditions.append("s.exercise_id = ?"); args.append(exerciseID.key) }
        let sql = """
            SELECT \(Rows.setColumns), \(Rows.workoutColumns), e.name AS e_name
            FROM sets s JOIN workouts w ON w.id = s.workout_id JOIN exercises e ON e.id = s.exercise_id
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY w.started_at, s.workout_id, s.performed_at, s.id
            """
        return (sql, StatementArguments(args))
    }
}

extension GymLogDatabase {
    /// The open workout (within the idle gap) and its set count, for the REPL prompt.
    /// `lastSet`: when its last live set was done (nil with none yet), for the rest timer.
    public func openWorkout() throws -> (workout: Workout, setCount: Int, lastSet: Int64?)? {
        try read { db in
            try inReadOnlyWriter(db) { w in
                guard let open = try Workouts(w).openWorkout() else { return nil }
                return (open.workout, try Workouts(w).setCount(workoutID: open.workout.id), try Workouts(w).lastSetTime(workoutID: open.workout.id))
            }
        }
    }

    /// The newest workout never finished when none is open: a past session the REPL was filling
    /// in when it closed, or one that idled out; what `finish` would end.
    public func unfinishedWorkout() throws -> Workout? {
        try read { db in
            try inReadOnlyWriter(db) { w in try Workouts(w).openWorkout() == nil ? Workouts(w).newestNeverFinished() : nil }
        }
    }

    /// Runs read-only `ChangeWriter` helpers outside a write (they never write when only read).
    func inReadOnlyWriter<T>(_ db: Database, _ body: (ChangeWriter) throws -> T) throws -> T {
        let w = try ChangeWriter(db: db, now: environment.now(), environment: environment, settings: settings, idKeying: idKeying, fault: nil)
        return try body(w)
    }

    /// What a name typed in a set line would log under (without creating anything): what a
    /// routine's lines are checked with before it is saved.
    public func resolution(ofExercise name: String) throws -> ExerciseResolution {
        try read { db in
            try inReadOnlyWriter(db) { w in
                try Exercises.exercise(named: name, in: w).map { .found($0) } ?? Exercises.resolver(in: w).resolve(name)
            }
        }
    }

    /// Resolves a name typed to a read command; unknown or ambiguous names are errors.
    public func existingExercise(_ name: String) throws -> Exercise {
        try read { db in
            try inReadOnlyWriter(db) { try Exercises.existing(name, in: $0) }
        }
    }

    /// A workout with its sets in logged order: the current one (the open one, else the
    /// latest; nil when there is none), or the one `target` names (an error when it names none).
    public func workoutDetail(_ target: WorkoutTarget = .current) throws -> WorkoutDetail? {
        try read { db in
            try inReadOnlyWriter(db) { w in
                guard let workout = try Workouts(w).resolveWorkout(target) else { return nil }
                return try detail(of: workout, w)
            }
        }
    }

    /// The workout with this id and its sets, or nil when it is gone.
    public func workoutDetail(_ id: UUID) throws -> WorkoutDetail? {
        try read { db in
            try inReadOnlyWriter(db) { w in
                guard let row = try Row.fetchOne(db, sql: "SELECT \(Rows.workoutColumns) FROM workouts w WHERE w.id = ? AND w.deleted_at IS NULL",
                                                 arguments: [id.key]) else { return nil }
                return try detail(of: Rows.workout(row), w)
            }
        }
    }

    private func detail(of workout: Workout, _ w: ChangeWriter, exercise: Exercise? = nil) throws -> WorkoutDetail {
        let sets = try exercise.map { try setsWithExercises(w.db, where: "s.workout_id = ? AND s.exercise_id = ?", [workout.id.key, $0.id.key]) }
            ?? setsWithExercises(w.db, where: "s.workout_id = ?", [workout.id.key])
        return WorkoutDetail(workout: workout, sets: sets, reference: try Workouts(w).reference(of: workout))
    }

    private func setsWithExercises(_ db: Database, where condition: String, _ args: StatementArguments) throws -> [(set: LoggedSet, exercise: Exercise)] {
        var decode = SetDecoder()
        return try Row.fetchAll(db, sql: """
            SELECT \(Rows.setColumns), e.id AS e_id, e.name AS e_name, e.kind AS e_kind
            FROM sets s JOIN exercises e ON e.id = s.exercise_id
            WHERE \(condition) AND s.deleted_at IS NULL ORDER BY s.performed_at, s.id
            """, arguments: args).map { row in (decode(row), Rows.exercise(row, prefix: "e_")) }
    }

    /// The most recent workout before `before` (other than `excluding`) with a working set of
    /// the exercise, and its sets of that exercise. Two index lookups, whatever the history.
    public func lastSession(of exerciseID: UUID, before: Int64, excluding: UUID? = nil) throws -> LastSession? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT \(Rows.workoutColumns) FROM sets s JOIN workouts w ON w.id = s.workout_id
                WHERE s.exercise_id = ? AND s.deleted_at IS NULL AND s.kind <> 'warmup' AND s.performed_at < ?
                  AND s.workout_id <> ? AND w.deleted_at IS NULL
                ORDER BY s.performed_at DESC LIMIT 1
                """, arguments: [exerciseID.key, before, excluding?.key ?? ""]) else { return nil }
            let workout = Rows.workout(row)
            var decode = SetDecoder()
            let sets = try Row.fetchAll(db, sql: """
                SELECT \(Rows.setColumns) FROM sets s WHERE s.workout_id = ? AND s.exercise_id = ? AND s.deleted_at IS NULL
                ORDER BY s.performed_at, s.id
                """, arguments: [workout.id.key, exerciseID.key]).map { decode($0) }
            return LastSession(workout: workout, sets: sets)
        }
    }

    /// The newest workouts first, each with its sets (only those of `exercise` when given).
    public func history(exercise: Exercise? = nil, limit: Int = 10) throws -> [WorkoutDetail] {
        try read { db in try inReadOnlyWriter(db) { w in
            let workouts: [Workout]
            var decode = WorkoutDecoder()
            if let exercise {
                workouts = try Row.fetchAll(db, sql: """
                    SELECT \(Rows.workoutColumns) FROM workouts w WHERE w.deleted_at IS NULL AND w.id IN
                    (SELECT workout_id FROM sets WHERE exercise_id = ? AND deleted_at IS NULL)
                    ORDER BY w.started_at DESC LIMIT ?
                    """, arguments: [exercise.id.key, limit]).map { decode($0) }
            } else {
                workouts = try Row.fetchAll(db, sql: """
                    SELECT \(Rows.workoutColumns) FROM workouts w WHERE w.deleted_at IS NULL
                    AND EXISTS (SELECT 1 FROM sets WHERE workout_id = w.id AND deleted_at IS NULL)
                    ORDER BY w.started_at DESC LIMIT ?
                    """, arguments: [limit]).map { decode($0) }
            }
            return try workouts.map { try detail(of: $0, w, exercise: exercise) }
        } }
    }

    /// The records of every exercise (or one), each with the set that holds it.
    public func records(exercise: Exercise? = nil) throws -> [(exercise: Exercise, records: [RecordEntry])] {
        try queue.writeWithoutTransaction { db in
            // A changed e1RM formula rebuilds the records before they are shown.
            if try String.fetchOne(db, sql: "SELECT formula FROM records_meta") != settings.e1rmFormula.rawValue {
                try db.inTransaction(.immediate) {
                    let w = try ChangeWriter(db: db, now: environment.now(), environment: environment, settings: settings, idKeying: idKeying, fault: nil)
                    try RecordBook(w).ensureRecordsFormula()
                    return .commit
                }
            }
            let rows = try Row.fetchAll(db, sql: """
                SELECT e.id AS e_id, e.name AS e_name, e.kind AS e_kind, r.metric AS r_metric, r.reps AS r_reps,
                       r.value AS r_value, \(Rows.setColumns)
                FROM records r JOIN exercises e ON e.id = r.exercise_id JOIN sets s ON s.id = r.set_id
                WHERE e.deleted_at IS NULL \(exercise == nil ? "" : "AND e.id = ?")
                ORDER BY e.name COLLATE NOCASE, r.metric, r.reps
                """, arguments: exercise.map { [$0.id.key] } ?? [])
            return RecordEntry.grouped(rows)
        }
    }

    /// Every live exercise with its aliases and use.
    public func exerciseSummaries() throws -> [ExerciseSummary] {
        try read { db in
            let aliases = try liveAliases(db)
            return try Row.fetchAll(db, sql: """
                SELECT e.id, e.name, e.kind, e.catalog_id, e.primary_muscles, e.secondary_muscles, e.equipment,
                  (SELECT COUNT(*) FROM sets WHERE exercise_id = e.id AND deleted_at IS NULL) AS set_count,
                  (SELECT MAX(performed_at) FROM sets WHERE exercise_id = e.id AND deleted_at IS NULL) AS last_performed_at,
                  (SELECT utc_offset FROM sets WHERE exercise_id = e.id AND deleted_at IS NULL
                   ORDER BY performed_at DESC LIMIT 1) AS last_offset,
                  (SELECT MIN(performed_at) FROM sets WHERE exercise_id = e.id AND deleted_at IS NULL) AS first_performed_at,
                  (SELECT utc_offset FROM sets WHERE exercise_id = e.id AND deleted_at IS NULL
                   ORDER BY performed_at LIMIT 1) AS first_offset
                FROM exercises e WHERE e.deleted_at IS NULL ORDER BY e.name COLLATE NOCASE
                """).map { row in
                let exercise = Rows.exercise(row), names = aliases[row["id"]] ?? []
                return ExerciseSummary(exercise: exercise, aliases: names, setCount: row["set_count"],
                               lastPerformedAt: row["last_performed_at"], lastPerformedOffset: row["last_offset"] ?? 0,
                               link: ExerciseLink(name: exercise.name, aliases: names, fields: Exercises.linkFields(row)),
                               firstPerformedAt: row["first_performed_at"], firstPerformedOffset: row["first_offset"] ?? 0)
            }
        }
    }

    /// Every live alias by the stored id of its exercise, each exercise's in alphabetical order.
    func liveAliases(_ db: Database) throws -> [String: [String]] {
        var aliases: [String: [String]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT exercise_id, alias FROM aliases WHERE deleted_at IS NULL ORDER BY alias") {
            aliases[row["exercise_id"], default: []].append(row["alias"])
        }
        return aliases
    }

    /// The catalog fields stored for exercises (linked or described by hand, or unlinked), by
    /// stored id; an exercise linked from its name has none.
    func storedLinkFields(_ db: Database) throws -> [String: ExerciseLinkFields] {
        var links: [String: ExerciseLinkFields] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT id, catalog_id, primary_muscles, secondary_muscles, equipment FROM exercises
            WHERE catalog_id IS NOT NULL OR primary_muscles IS NOT NULL OR secondary_muscles IS NOT NULL OR equipment IS NOT NULL
            """) {
            links[row["id"]] = Exercises.linkFields(row)
        }
        return links
    }

    /// All exercise names and aliases, for tab completion.
    public func exerciseNames() throws -> [String] {
        try read { db in
            try String.fetchAll(db, sql: """
                SELECT name FROM exercises WHERE deleted_at IS NULL UNION SELECT alias FROM aliases WHERE deleted_at IS NULL
                """)
        }
    }

    /// Streams every live set matching `filter`, oldest first, one row at a time (constant memory).
    public func forEachExportRow(_ filter: ExportFilter, _ body: (ExportRow) throws -> Void) throws {
        let query = filter.query
        try read { db in
            // Aliases and links set by hand are few; reading them first keeps the set cursor a plain join.
            let aliases = try liveAliases(db)
            let links = try storedLinkFields(db)
            let cursor = try Row.fetchCursor(db, sql: query.sql, arguments: query.arguments)
            var decodeSet = SetDecoder(), decodeWorkout = WorkoutDecoder()
            var exerciseName = ColumnPositions(["e_name"])
            var numbering = ExportNumbering()
            while let row = try cursor.next() {
                let set = decodeSet(row)
                let exercise = Exercise(id: set.exerciseID, name: row[exerciseName(row)[0]], kind: .weighted)
                try body(numbering.row(set, workout: decodeWorkout(row), exercise: exercise,
                                       aliases: aliases[set.exerciseID.key] ?? [], link: links[set.exerciseID.key] ?? ExerciseLinkFields()))
            }
        }
    }
}
