import Foundation
import GRDB
import GymLogCore

/// Maintains the derived `records` table: checked incrementally when a set is logged, here or
/// (as the newest of its exercise) on another device (a primary-key lookup, never a history
/// scan), and rebuilt for one exercise when a set is deleted, edited or merged from another
/// device, or arrives from before the exercise's newest set. A service on the caller's transaction:
/// it reads and writes `records` only, never a synced row.
struct RecordBook {
    let db: Database
    let settings: Settings
    /// Whether this process has checked the records' formula (`ensureRecordsFormula`).
    let formulaChecked: FlagBox

    init(_ w: ChangeWriter) {
        db = w.db; settings = w.settings; formulaChecked = w.formulaChecked
    }

    /// Compares a new set against the stored records of its exercise and raises those it beats.
    /// `session` is the exercise's volume in the set's workout, this set included.
    func checkRecords(_ set: LoggedSet, session: VolumeTally) throws -> [RecordBreak] {
        guard set.values.kind.countsForRecords else { return [] }
        try ensureRecordsFormula()
        var (current, sessionRecordIsThisWorkout) = try storedRecords(of: set)
        func stored(_ metric: RecordMetric, _ reps: Int) -> Double? { current.first { $0.key == RecordKey(metric: metric, reps: reps) }?.value }
        var candidates = recordValues(of: set, formula: settings.e1rmFormula)
        // Records kept by a gymlog from before fastest times and paces have a longest
        // distance and no pace: rebuild them once without this set, so it is compared with
        // the times already logged rather than setting its records unannounced.
        // Likewise records from before a run near a standard distance counted for it (a 5.07 km
        // run is a 5 km): rebuilt once, when the set is the first at that distance since.
        let standardUnseen = candidates.contains { c in
            c.metric == .fastest && stored(.fastest, c.reps) == nil && RunningRecords.distances.contains { RecordMetric.distanceKey(meters: $0.meters) == c.reps }
        }
        if standardUnseen && current.contains(where: { $0.key.metric == .fastest })
            || candidates.contains(where: { $0.metric == .pace }) && stored(.distance, 0) != nil && stored(.pace, 0) == nil {
            try rebuildRecords(exerciseID: set.exerciseID, excluding: set.id)
            (current, sessionRecordIsThisWorkout) = try storedRecords(of: set)
        }
        if workingVolume(of: set) > 0 { candidates.append(RecordValue(.sessionVolume, session.kilograms)) }
        var breaks: [RecordBreak] = []
        for c in candidates {
            let previous = stored(c.metric, c.reps)
            guard c.metric.improves(c.value, on: previous) else { continue }
            try storeRecord(c, set: set)
            // Growing this workout's own session-volume record is not news; crossing the
            // best of an earlier workout is, once.
            if c.metric == .sessionVolume && sessionRecordIsThisWorkout { continue }
            breaks.append(RecordBreak(metric: c.metric, reps: c.reps, value: c.value, previous: previous))
        }
        return breaks
    }

    /// The stored records of a set's exercise (a handful, looked up by scanning: a
    /// `[RecordKey: Double]` cost each one-shot `gymlog log` a runtime conformance lookup),
    /// and whether its session-volume record is the set's own workout.
    private func storedRecords(of set: LoggedSet) throws -> ([(key: RecordKey, value: Double)], Bool) {
        var current: [(key: RecordKey, value: Double)] = []
        var sessionRecordIsThisWorkout = false
        let workoutKey = set.workoutID.key
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT metric, reps, value, workout_id FROM records WHERE exercise_id = ?"),
                                       arguments: [set.exerciseID.key])
        var columns = ColumnPositions(["metric", "reps", "value", "workout_id"])
        while let row = try rows.next() {
            let p = columns(row)
            guard let metric = RecordMetric(rawValue: row[p[0]]) else { continue }
            current.append((RecordKey(metric: metric, reps: row[p[1]]), row[p[2]]))
            if metric == .sessionVolume { sessionRecordIsThisWorkout = row[p[3]] == workoutKey }
        }
        return (current, sessionRecordIsThisWorkout)
    }

    private func storeRecord(_ c: RecordValue, set: LoggedSet) throws {
        try db.cachedStatement(sql: """
            INSERT INTO records (exercise_id, metric, reps, value, set_id, workout_id, achieved_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (exercise_id, metric, reps) DO UPDATE SET value = excluded.value, set_id = excluded.set_id,
                workout_id = excluded.workout_id, achieved_at = excluded.achieved_at
            """).execute(arguments: [set.exerciseID.key, c.metric.rawValue, c.reps, c.value, set.id.key, set.workoutID.key, set.performedAt])
    }

    /// Recomputes every record of one exercise from its live sets, oldest first, so a tie
    /// keeps the set that reached the value first; `excluding` leaves one set out (a set
    /// just written, about to be checked against the rest).
    func rebuildRecords(exerciseID: UUID, excluding: UUID? = nil) throws {
        try db.execute(sql: "DELETE FROM records WHERE exercise_id = ?", arguments: [exerciseID.key])
        var best: [RecordKey: (RecordValue, LoggedSet)] = [:]
        let cursor = try Row.fetchCursor(db, sql: """
            SELECT \(Rows.setColumns) FROM sets s WHERE s.exercise_id = ? AND s.deleted_at IS NULL AND s.id <> ?
            ORDER BY s.performed_at, s.id
            """, arguments: [exerciseID.key, excluding?.key ?? ""])
        var decode = SetDecoder()
        while let row = try cursor.next() {
            let set = decode(row)
            for v in recordValues(of: set, formula: settings.e1rmFormula) {
                let key = RecordKey(metric: v.metric, reps: v.reps)
                if v.metric.improves(v.value, on: best[key]?.0.value) { best[key] = (v, set) }
            }
        }
        if let session = try bestSession(exerciseID: exerciseID, excluding: excluding) {
            best[RecordKey(metric: .sessionVolume, reps: 0)] = (RecordValue(.sessionVolume, session.total), session.set)
        }
        for (value, set) in best.values { try storeRecord(value, set: set) }
    }

    /// The best value of each record among the exercise's live sets done before `time` (the
    /// session volume of workouts other than `workout`): the records as they stood on a
    /// back-dated set's date, which it is announced against (a set done after it is no record
    /// it beat).
    func recordsAsOf(exerciseID: UUID, before time: Int64, workout: UUID) throws -> [RecordKey: Double] {
        var best: [RecordKey: Double] = [:]
        var sessions: [UUID: Double] = [:]
        let cursor = try Row.fetchCursor(db, sql: """
            SELECT \(Rows.setColumns) FROM sets s WHERE s.exercise_id = ? AND s.deleted_at IS NULL AND s.performed_at < ?
            """, arguments: [exerciseID.key, time])
        var decode = SetDecoder()
        while let row = try cursor.next() {
            let set = decode(row)
            for v in recordValues(of: set, formula: settings.e1rmFormula) {
                let key = RecordKey(metric: v.metric, reps: v.reps)
                if v.metric.improves(v.value, on: best[key]) { best[key] = v.value }
            }
            if set.workoutID != workout { sessions[set.workoutID, default: 0] += workingVolume(of: set) }
        }
        if let volume = sessions.values.filter({ $0 > 0 }).max() { best[RecordKey(metric: .sessionVolume, reps: 0)] = volume }
        return best
    }

    /// The exercise's best workout by working volume, held by its last set with volume: the
    /// highest total, and of totals that tie the one done first. Read workout by workout, so
    /// memory holds one workout's running total, not one for every workout (an import of a
    /// long history rebuilds this for every exercise).
    func bestSession(exerciseID: UUID, excluding: UUID?) throws -> (total: Double, set: LoggedSet)? {
        let cursor = try Row.fetchCursor(db, sql: """
            SELECT \(Rows.setColumns) FROM sets s WHERE s.exercise_id = ? AND s.deleted_at IS NULL AND s.id <> ?
            ORDER BY s.workout_id, s.performed_at, s.id
            """, arguments: [exerciseID.key, excluding?.key ?? ""])
        var decode = SetDecoder()
        var best: (total: Double, set: LoggedSet)?
        // The workout being read: its tally (as `session_tallies` keeps it, so a rebuild and
        // the check on log agree to the last bit) and its last set with volume.
        var tally = VolumeTally(), holder: LoggedSet?
        func close() {
            defer { tally = VolumeTally(); holder = nil }
            guard let set = holder else { return }
            let c = (total: tally.kilograms, set: set)
            let metric = RecordMetric.sessionVolume
            guard let b = best else { if metric.improves(c.total, on: nil) { best = c }; return }
            let tie = !metric.improves(c.total, on: b.total) && !metric.improves(b.total, on: c.total)
            if metric.improves(c.total, on: b.total) || (tie && c.set.performedAt < b.set.performedAt) { best = c }
        }
        var workoutID: UUID?
        while let row = try cursor.next() {
            let set = decode(row)
            if set.workoutID != workoutID { close(); workoutID = set.workoutID }
            tally.add(set.values)
            if workingVolume(of: set) > 0 { holder = set }
        }
        close()
        return best
    }

    /// Set `id` when it is live and later than every other live set of its exercise: what
    /// `checkRecords` may take into the records without a rebuild, because with a newest set
    /// records only rise, a tie stays with the earlier holder and the set ends its workout's
    /// run, exactly as `rebuildRecords` orders them. Nil for any other set.
    func newestLiveSet(id: String) throws -> LoggedSet? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Rows.setColumns) FROM sets s WHERE s.id = ? AND s.deleted_at IS NULL"),
                                         arguments: [id]) else { return nil }
        var decode = SetDecoder()
        let set = decode(row)
        let later = try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM sets WHERE exercise_id = ? AND performed_at >= ? AND id <> ? AND deleted_at IS NULL)
            """), arguments: [set.exerciseID.key, set.performedAt, id]) ?? true
        return later ? nil : set
    }

    /// The stored record values of one exercise.
    func storedRecordValues(exerciseID: UUID) throws -> [RecordKey: Double] {
        var values: [RecordKey: Double] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT metric, reps, value FROM records WHERE exercise_id = ?", arguments: [exerciseID.key]) {
            if let metric = RecordMetric(rawValue: row["metric"]) { values[RecordKey(metric: metric, reps: row["reps"])] = row["value"] }
        }
        return values
    }

    /// The records each of these sets holds.
    func recordsHeld(by sets: [UUID]) throws -> [UUID: [RecordValue]] {
        var held: [UUID: [RecordValue]] = [:]
        for id in sets {
            for row in try Row.fetchAll(db, sql: "SELECT metric, reps, value FROM records WHERE set_id = ?", arguments: [id.key]) {
                if let metric = RecordMetric(rawValue: row["metric"]) { held[id, default: []].append(RecordValue(metric, reps: row["reps"], row["value"])) }
            }
        }
        // In the order a live line reports them (`checkRecords`: the metrics' own order).
        let order = Dictionary(uniqueKeysWithValues: RecordMetric.allCases.enumerated().map { ($1, $0) })
        return held.mapValues { $0.sorted { (order[$0.metric]!, $0.reps) < (order[$1.metric]!, $1.reps) } }
    }

    /// Records hold e1RM values of one formula; a changed setting rebuilds them once.
    func ensureRecordsFormula() throws {
        // Settings do not change during a process: check once, not on every logged set.
        if formulaChecked.isSet { return }
        let stored = try String.fetchOne(db.cachedStatement(sql: "SELECT formula FROM records_meta")) ?? ""
        guard stored != settings.e1rmFormula.rawValue else { formulaChecked.set(); return }
        for id in try String.fetchAll(db, sql: "SELECT id FROM exercises") {
            if let uuid = UUID(uuidString: id) { try rebuildRecords(exerciseID: uuid) }
        }
        try db.execute(sql: "UPDATE records_meta SET formula = ?", arguments: [settings.e1rmFormula.rawValue])
        formulaChecked.set()
    }
}

/// A records row's identity within one exercise.
struct RecordKey: Hashable {
    var metric: RecordMetric
    var reps: Int
}
