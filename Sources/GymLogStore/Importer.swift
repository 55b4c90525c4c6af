import Foundation
import GRDB
import GymLogCore

/// What an import wrote (or, for a dry run, would write).
public struct ImportReport: Equatable, Sendable {
    /// Workouts written (or that would be, in a dry run).
    public var workoutsCreated = 0
    /// Workouts whose id was already in the database (an earlier import of the same file or
    /// an overlapping export); their rows are left as they are.
    public var workoutsExisting = 0
    /// Sets written (or that would be).
    public var setsCreated = 0
    /// Sets whose id was already stored (live or deleted): left as they are.
    public var setsExisting = 0
    /// Lines of a native file's sets whose id is stored (or came earlier in the file) with
    /// other values: left as they are, and said, for they are not the same set.
    public var setsDiffering: [Int] = []
    /// Names of the exercises the import created, in the order first met.
    public var exercisesCreated: [String] = []
    /// Exercises of the file that matched an existing exercise or alias.
    public var exercisesMatched = 0
    /// Aliases of a native file's exercises written (or that would be).
    public var aliasesCreated = 0
    /// Aliases of a native file left out because the name already belongs to another exercise.
    public var aliasesTaken: [String] = []
    /// Bodyweight entries written (or that would be).
    public var bodyweightsCreated = 0
    /// Bodyweight entries whose id was already stored: left as they are.
    public var bodyweightsExisting = 0
    /// Routines written (or that would be).
    public var routinesCreated = 0
    /// Routines of a name the database has already: left as they are.
    public var routinesExisting = 0
    /// How many transactions the writes were split into.
    public var transactions = 0

    /// An empty report.
    public init() {}
}

extension GymLogDatabase {
    /// Writes an imported file whose workouts are all in memory (`ImportParser.parse`); see
    /// `importFile(_:dryRun:batchSize:progress:workouts:)`.
    public func importFile(_ file: ImportedFile, dryRun: Bool = false, batchSize: Int = 2000, label: String = "import",
                           progress: ((_ setsDone: Int, _ setsTotal: Int) -> Void)? = nil) throws -> ImportReport {
        try importFile(file, dryRun: dryRun, batchSize: batchSize, label: label, progress: progress) { each in
            for workout in file.workouts { try each(workout) }
        }
    }

    /// Writes the workouts `workouts` hands over one at a time (the second pass over a file
    /// `file` is the first pass's summary of) through the write pipeline (`ChangeWriter.write`,
    /// so every row gets its outbox event and syncs), then the file's bodyweight entries, then
    /// it rebuilds the records of every exercise that got sets: all in ONE transaction, as one
    /// action named `label` that `undo` reverts whole and `redo` brings back. Killed or failed
    /// half way, it leaves the history as it was. `progress` is told after about `batchSize`
    /// sets, whole workouts at a time.
    ///
    /// Rows already held are skipped without writing anything (`Importer.importWorkout`: by id,
    /// or a set the history holds in a workout started within a minute), so importing a file
    /// twice, a later export that overlaps an earlier one, or the account's own export in
    /// another database adds only what is new. With `dryRun` nothing is written and the report
    /// says what would be.
    public func importFile(_ file: ImportedFile, dryRun: Bool = false, batchSize: Int = 2000, label: String = "import",
                           progress: ((_ setsDone: Int, _ setsTotal: Int) -> Void)? = nil,
                           workouts: (_ each: (ImportedWorkout) throws -> Void) throws -> Void) throws -> ImportReport {
        // The ids the file's rows get here (keyed for an encrypted account), before any is looked up.
        let keying = idKeying
        let file = keying.isKeyed ? file.mappingIDs(keying.stored) : file
        func stored(_ workout: ImportedWorkout) -> ImportedWorkout { keying.isKeyed ? workout.mappingIDs(keying.stored) : workout }
        var state = ImportState(file: file, dryRun: dryRun)
        if dryRun {
            try read { db in
                var w = try ChangeWriter(db: db, now: environment.now(), environment: environment, settings: settings, idKeying: idKeying, fault: nil)
                try workouts { try Importer.importWorkout(stored($0), state: &state, in: &w) }
                try Importer.importBodyweights(file.bodyweights, state: &state, in: &w)
                try Importer.importRoutines(file.routines, state: &state, in: &w)
            }
            return state.finished()
        }
        return try commit(action: label) { w in
            // The rows a few hundred thousand created are journalled in the database as they
            // are written, by id: the import's memory stays flat.
            try w.journal?.journalCreatesInDatabase(w.db)
            var batchSets = 0, done = 0
            try workouts { read in
                let workout = stored(read)
                if batchSets > 0 && batchSets + workout.sets.count > batchSize {
                    done += batchSets
                    batchSets = 0
                    progress?(done, file.setCount)
                }
                try Importer.importWorkout(workout, state: &state, in: &w)
                batchSets += workout.sets.count
            }
            if batchSets > 0 { progress?(done + batchSets, file.setCount) }
            try Importer.importBodyweights(file.bodyweights, state: &state, in: &w)
            try Importer.importRoutines(file.routines, state: &state, in: &w)
            if !state.touched.isEmpty {
                try RecordBook(w).ensureRecordsFormula()
                for id in state.touched.sorted(by: { $0.uuidString < $1.uuidString }) { try RecordBook(w).rebuildRecords(exerciseID: id) }
            }
            state.report.transactions = 1
            let report = state.finished()
            // What `undo` takes back, named: an import of routines or bodyweights alone is not
            // "the import of 0 sets".
            var made = [plural(report.setsCreated, "set") + (report.workoutsCreated > 0 ? " in \(plural(report.workoutsCreated, "workout"))" : "")]
            if report.routinesCreated > 0 { made.append(plural(report.routinesCreated, "routine")) }
            if report.bodyweightsCreated > 0 { made.append("\(report.bodyweightsCreated) bodyweight entr\(report.bodyweightsCreated == 1 ? "y" : "ies")") }
            w.describeAction("the import of " + made.joined(separator: ", "), workout: nil)
            return report
        }
    }
}

/// Bookkeeping carried across an import's transactions.
struct ImportState {
    let file: ImportedFile
    let dryRun: Bool
    var report = ImportReport()
    /// The stored exercise id for each of the file's exercises, once resolved.
    var resolved: [UUID?]
    /// How each of the file's exercises' sets are read once resolved: as the stored exercise's
    /// kind when it exists, else as the kind the file gives it.
    var readings: [ImportedKind?]
    /// Exercises that got new sets: their records are rebuilt at the end.
    var touched = Set<UUID>()
    /// The workouts this import made (or would): never taken for one the history held.
    var createdWorkouts = Set<UUID>()
    /// Dry run: names that would be created, so each is counted once.
    var wouldCreate = Set<String>()
    /// Dry run: workout and set ids that would be written, so an id met twice in one file
    /// counts as already there the second time, as it does when the first was written.
    var wouldWrite = Set<UUID>()
    /// Dry run, native files: the values of each set that would be written, so a second row
    /// with its id and other values is told apart as the real import tells it.
    var wouldWriteSets: [UUID: SetValues] = [:]
    /// The file's exercises created (or that would be), by index: the report lists them in
    /// the order of their first sets (`ImportedFile.exerciseRanks`), whatever order the
    /// workouts are written in.
    var created: [(index: Int, name: String)] = []

    /// The report, its new exercises in the order of their first sets, oldest workout first.
    func finished() -> ImportReport {
        var report = self.report
        let rank = file.exerciseRanks
        report.exercisesCreated = created.sorted { (rank[$0.index], $0.index) < (rank[$1.index], $1.index) }.map(\.name)
        return report
    }

    init(file: ImportedFile, dryRun: Bool) {
        self.file = file; self.dryRun = dryRun
        resolved = Array(repeating: nil, count: file.exercises.count)
        readings = Array(repeating: nil, count: file.exercises.count)
    }
}

/// The import service: writes an imported file's rows inside the caller's write transaction
/// (or, in a dry run, only counts them), skipping rows already stored.
enum Importer {
    /// How far apart two workouts' starts may be and still be one workout in two files (an
    /// export writes the start to the minute, or moves it to the first set).
    static let sameWorkoutWithinMs: Int64 = 60_000

    /// Writes one imported workout and its sets, skipping rows that are already stored: by id
    /// (the same file again), or by content, since a set is the same set whatever file it came
    /// from. Each of the file's sets that a workout of the history started within a minute
    /// holds, of the same exercise with the same performance (`SetValues.isSamePerformance`),
    /// is left out, a deleted set included (it stays deleted, as a set deleted after an import
    /// does when the file comes again): the account's own export in another format, or another
    /// app's export of the same session, adds nothing. The nearest live such workout takes the
    /// file's workout's place: a set the file has and the history lacks joins it.
    static func importWorkout(_ workout: ImportedWorkout, state: inout ImportState, in w: inout ChangeWriter) throws {
        var into = workout.id
        let near = try workouts(startingNear: workout.workout.startedAt, besides: state.createdWorkouts, in: w)
        var held = HeldSets(try sets(of: near.map(\.id), in: w))
        if try stored("workouts", workout.id, state: &state, in: w) {
            state.report.workoutsExisting += 1
        } else if let existing = near.first(where: \.live) {
            state.report.workoutsExisting += 1
            into = existing.id
        } else {
            state.report.workoutsCreated += 1
            state.createdWorkouts.insert(workout.id)
            if !state.dryRun { try WorkoutSteps.create(workout.workout, in: &w) }
        }
        for set in workout.sets {
            if try stored("sets", set.id, state: &state, in: w) {
                // A native file names its sets by id: the same id with other values is another
                // set (an edit, or a file put together by hand), not one already here.
                if state.file.source == .native, let held = try heldValues(of: set.id, state: state, in: w), held != set.values {
                    state.report.setsDiffering.append(set.line)
                } else {
                    state.report.setsExisting += 1
                }
                continue
            }
            if state.dryRun && state.file.source == .native { state.wouldWriteSets[set.id] = set.values }
            let exerciseID = try importedExercise(set.exercise, state: &state, in: &w)
            var values = set.values
            // An exercise has one kind: a file without a bodyweight column (every app but
            // gymlog) is read as the stored exercise's (a plain load on a bodyweight exercise is
            // added load, reps with no load on a loaded one are at a load of 0).
            if state.file.source != .native, let reading = state.readings[set.exercise] { values = values.readingImported(as: reading) }
            if let exerciseID, held.take(exerciseID, values) {
                state.report.setsExisting += 1
                continue
            }
            state.report.setsCreated += 1
            guard let exerciseID, !state.dryRun else { continue }
            try w.write(.sets, id: set.id, op: .create, fields: SetColumns.createFields(
                workoutID: into, exerciseID: exerciseID, values: values, performedAt: set.performedAt,
                utcOffsetSeconds: set.utcOffsetSeconds, superset: set.supersetID))
            state.touched.insert(exerciseID)
        }
    }

    /// The workouts, live or deleted, that started within `sameWorkoutWithinMs` of `start`,
    /// nearest first, leaving out those this import made (two of one file a few seconds apart
    /// stay two).
    private static func workouts(startingNear start: Int64, besides created: Set<UUID>, in w: ChangeWriter) throws -> [(id: UUID, live: Bool)] {
        try Row.fetchAll(w.db.cachedStatement(sql: """
            SELECT id, deleted_at IS NULL AS live FROM workouts WHERE started_at BETWEEN ? AND ?
            ORDER BY abs(started_at - ?), id
            """), arguments: [start - sameWorkoutWithinMs, start + sameWorkoutWithinMs, start])
            .compactMap { row in parseUUID(row["id"]).map { (id: $0, live: row["live"] as Bool) } }
            .filter { !created.contains($0.id) }
    }

    /// Every set, live or deleted, of the workouts, in the order they were done.
    private static func sets(of workouts: [UUID], in w: ChangeWriter) throws -> [LoggedSet] {
        guard !workouts.isEmpty else { return [] }
        return try Row.fetchAll(w.db, sql: """
            SELECT \(Rows.setColumns) FROM sets s WHERE s.workout_id IN (\(workouts.map { _ in "?" }.joined(separator: ", ")))
            ORDER BY s.performed_at, s.id
            """, arguments: StatementArguments(workouts.map(\.key))).map { Rows.set($0) }
    }

    /// The sets of the held workouts not yet matched by one of the file's, by exercise, in the
    /// order they were done.
    struct HeldSets {
        private var byExercise: [UUID: [SetValues]] = [:]

        init(_ sets: [LoggedSet] = []) {
            for set in sets { byExercise[set.exerciseID, default: []].append(set.values) }
        }

        /// Whether a held set of the exercise records `values`' performance: the first such,
        /// which is then matched (so a file with one more set than the history adds that one).
        mutating func take(_ exercise: UUID, _ values: SetValues) -> Bool {
            guard let index = byExercise[exercise]?.firstIndex(where: { $0.isSamePerformance(as: values) }) else { return false }
            byExercise[exercise]!.remove(at: index)
            return true
        }
    }

    /// Writes the file's bodyweight entries, skipping those already stored.
    static func importBodyweights(_ entries: [BodyweightEntry], state: inout ImportState, in w: inout ChangeWriter) throws {
        for entry in entries {
            if try stored("bodyweights", entry.id, state: &state, in: w) {
                state.report.bodyweightsExisting += 1
                continue
            }
            state.report.bodyweightsCreated += 1
            guard !state.dryRun else { continue }
            try w.write(.bodyweights, id: entry.id, op: .create, fields: entry.createFields)
        }
    }

    /// Writes the file's routines as they were stored (text, unit, `line_since`), skipping a
    /// name the database has a routine of already. The id derives from the name, as
    /// `RoutineSteps.save` derives it, so the history's devices agree on it.
    static func importRoutines(_ routines: [RoutineRecord], state: inout ImportState, in w: inout ChangeWriter) throws {
        for routine in routines {
            let name = displayName(forNew: routine.name)
            let id = w.derivedID(namespace: "routine", key: nameKey(name))
            if try stored("routines", id, state: &state, in: w) {
                state.report.routinesExisting += 1
                continue
            }
            state.report.routinesCreated += 1
            guard !state.dryRun else { continue }
            var fields: [(String, FieldValue)] = [("name", .text(name)), ("body", .text(routine.text))]
            if let since = routine.lineSince { fields.append(("line_since", .text(since))) }
            if let unit = routine.unit { fields.append(("unit", .text(unit.rawValue))) }
            try w.write(.routines, id: id, op: .create, fields: fields + [(tombstoneField, .null)])
        }
    }

    /// The values stored under a set's id (or, in a dry run, that would be by now).
    private static func heldValues(of id: UUID, state: ImportState, in w: ChangeWriter) throws -> SetValues? {
        if let values = state.wouldWriteSets[id] { return values }
        return try Row.fetchOne(w.db, sql: "SELECT \(Rows.setColumns) FROM sets s WHERE s.id = ?", arguments: [id.key])
            .map { Rows.set($0).values }
    }

    /// Whether the row is in the database, or (dry run) would be by now.
    private static func stored(_ table: String, _ id: UUID, state: inout ImportState, in w: ChangeWriter) throws -> Bool {
        if try rowExists(table, id, in: w) { return true }
        return state.dryRun && !state.wouldWrite.insert(id).inserted
    }

    private static func rowExists(_ table: String, _ id: UUID, in w: ChangeWriter) throws -> Bool {
        try Int.fetchOne(w.db.cachedStatement(sql: "SELECT 1 FROM \(table) WHERE id = ?"), arguments: [id.key]) != nil
    }

    /// The stored exercise for the file's exercise `index`: the native file's own id when it
    /// is stored, else an exact name or alias match, else a new exercise named as in the
    /// file. Near-misses of existing names are created too: they are the user's own names
    /// from another app, and an import must not stop to ask. Nil only in a dry run when the
    /// exercise would be created.
    private static func importedExercise(_ index: Int, state: inout ImportState, in w: inout ChangeWriter) throws -> UUID? {
        if let id = state.resolved[index] { return id }
        if state.dryRun && state.wouldCreate.contains(nameKey(state.file.exercises[index].name)) { return nil }
        let wanted = state.file.exercises[index]
        var found: UUID?
        let inFile = state.file.exerciseKinds[index]
        if let id = wanted.id,
           let kind = try String.fetchOne(w.db.cachedStatement(sql: "SELECT kind FROM exercises WHERE id = ? AND deleted_at IS NULL"),
                                          arguments: [id.key]).flatMap(ExerciseKind.init(rawValue:)) {
            found = id
            state.readings[index] = ImportedKind(kind: kind, unit: inFile.unit, assisted: inFile.assisted)
        } else if let existing = try Exercises.exercise(named: wanted.name, in: w) {
            found = existing.id
            state.readings[index] = ImportedKind(kind: existing.kind, unit: inFile.unit, assisted: inFile.assisted)
        }
        if let found {
            state.report.exercisesMatched += 1
            state.resolved[index] = found
            try importAliases(of: wanted, to: found, state: &state, in: &w)
            if !state.dryRun { try Exercises.importLink(wanted.link, to: found, in: &w) }
            return found
        }
        if state.dryRun {
            if state.wouldCreate.insert(nameKey(wanted.name)).inserted { state.created.append((index, wanted.name)) }
            try importAliases(of: wanted, to: nil, state: &state, in: &w)
            return nil
        }
        // Its kind is decided from all of its sets in the file and its name (`ImportedKind`).
        let kind = inFile.kind
        state.readings[index] = inFile
        let created: Exercise
        if let id = wanted.id, try !rowExists("exercises", id, in: w) {
            try w.write(.exercises, id: id, op: .create, fields: [
                ("name", .text(wanted.name)), ("kind", .text(kind.rawValue)), (tombstoneField, .null),
            ])
            created = Exercise(id: id, name: wanted.name, kind: kind)
        } else {
            created = try Exercises.create(name: wanted.name, kind: kind, in: &w)
        }
        state.created.append((index, wanted.name))
        state.resolved[index] = created.id
        try importAliases(of: wanted, to: created.id, state: &state, in: &w)
        try Exercises.importLink(wanted.link, to: created.id, in: &w)
        return created.id
    }

    /// Gives the stored exercise `exerciseID` (nil: one a dry run would create) the aliases the
    /// file lists for it. An alias it already has is left alone; one that names another
    /// exercise, or is another's alias, is left out and reported.
    private static func importAliases(of wanted: ImportedExercise, to exerciseID: UUID?, state: inout ImportState, in w: inout ChangeWriter) throws {
        for alias in wanted.aliases {
            let key = nameKey(alias)
            guard !key.isEmpty else { continue }
            if let owner = try Exercises.exercise(named: key, in: w) {
                if owner.id != exerciseID { state.report.aliasesTaken.append(key) }
                continue
            }
            state.report.aliasesCreated += 1
            if !state.dryRun, let exerciseID { try Exercises.writeAlias(key, for: exerciseID, in: &w) }
        }
    }
}
