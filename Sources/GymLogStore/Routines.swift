import Foundation
import GRDB
import GymLogCore

/// A routine as stored: its name and its plain text (`# Name` and one planned exercise a line).
public struct StoredRoutine: Equatable, Sendable {
    public var id: UUID
    public var name: String
    public var text: String
    /// The unit its weights without one are in (the unit it was written in); nil for a
    /// routine saved before this was kept: the reader's unit.
    public var unit: WeightUnit?
}

extension GymLogDatabase {
    // MARK: Routines (a synced entity: every change goes through the write pipeline)

    /// Every live routine, by name.
    public func routines() throws -> [StoredRoutine] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, body, unit FROM routines WHERE deleted_at IS NULL ORDER BY name COLLATE NOCASE")
                .compactMap(Self.routine)
        }
    }

    /// Every live routine as the native export carries it, by name.
    public func exportRoutines() throws -> [RoutineRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, body, unit, line_since FROM routines WHERE deleted_at IS NULL ORDER BY name COLLATE NOCASE, id")
                .compactMap { (row: Row) -> RoutineRecord? in
                    guard let routine = Self.routine(row) else { return nil }
                    return RoutineRecord(id: routine.id, name: routine.name, text: routine.text, unit: routine.unit, lineSince: row["line_since"])
                }
        }
    }

    /// The routine a typed name means: its whole name (case, accents and punctuation aside)
    /// or an unambiguous start of it (`push` for "Push A" when there is no "Push B").
    public func routine(named name: String) throws -> StoredRoutine {
        let all = try routines()
        guard !all.isEmpty else { throw UserError("There are no routines yet; add one with `gymlog routine add NAME`.") }
        let key = matchKey(name)
        if let exact = all.first(where: { matchKey($0.name) == key }) { return exact }
        let started = all.filter { matchKey($0.name).hasPrefix(key) && !key.isEmpty }
        if started.count == 1 { return started[0] }
        let names = (started.isEmpty ? all : started).prefix(8).map { "'\($0.name)'" }.joined(separator: ", ")
        throw UserError(started.isEmpty ? "No routine is called '\(name)'; the routines are \(names)."
                                        : "'\(name)' starts several routines: \(names). Type more of the name.")
    }

    /// Saves a routine's text under its name: creates it, or replaces the text of the routine
    /// of that name (one deleted earlier comes back). `lines` are its planned lines in
    /// canonical form: each keeps the time it was first saved (`lineSince`). Returns the
    /// routine and whether it is new.
    public func saveRoutine(name: String, text: String, lines: [String], typed: String) throws -> (routine: StoredRoutine, created: Bool) {
        try commit(action: typed) { w in try RoutineSteps.save(name: name, text: text, lines: lines, in: &w) }
    }

    /// Deletes a routine (a tombstone; `undo` brings it back). Past workouts keep their sets.
    public func deleteRoutine(named name: String, typed: String) throws -> StoredRoutine {
        let routine = try routine(named: name)
        return try commit(action: typed) { w in
            _ = try w.write(.routines, id: routine.id, op: .delete, fields: [(tombstoneField, .int(w.now))])
            w.describeAction("the routine '\(routine.name)' (deleted)", workout: nil)
            return routine
        }
    }

    /// The routine a workout was started from and the routine lines skipped in it.
    public func plan(of workoutID: UUID) throws -> (routine: StoredRoutine, skipped: SkippedLines)? {
        try read { db in
            // Cached: the REPL asks this for every line it prints.
            guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT r.id, r.name, r.body, r.unit, w.skipped FROM workouts w JOIN routines r ON r.id = w.routine_id
                WHERE w.id = ? AND r.deleted_at IS NULL
                """), arguments: [workoutID.key]), let routine = Self.routine(row) else { return nil }
            return (routine, SkippedLines(parsing: row["skipped"]))
        }
    }

    /// Drops routine lines (1-based; a planned superset's together) from the workout's plan for today.
    public func skipPlanned(lines: [(line: Int, done: Int)], workoutID: UUID, typed: String, what: String) throws {
        try commit(action: typed) { w in try RoutineSteps.skip(lines: lines, workoutID: workoutID, what: what, in: &w) }
    }

    /// When each planned line of a routine (by its canonical text) was first saved, and when
    /// the text as a whole was last saved (for lines saved before this was kept): a 5/3/1
    /// wave counts the sessions from its line's time.
    public func lineSince(_ id: UUID) throws -> (lines: [String: Int64], saved: Int64?) {
        try read { db in
            let row = try Row.fetchOne(db, sql: "SELECT line_since, json_extract(clocks, '$.body') AS body_clock FROM routines WHERE id = ?",
                                       arguments: [id.key])
            return (Self.lineSince(row?["line_since"]), (row?["body_clock"] as String?).flatMap(HLC.init)?.millis)
        }
    }

    static func lineSince(_ text: String?) -> [String: Int64] {
        guard let data = text?.data(using: .utf8) else { return [:] }
        return (try? JSONDecoder().decode([String: Int64].self, from: data)) ?? [:]
    }

    static func lineSinceText(_ since: [String: Int64]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(since)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// The sessions of an exercise before `before`, oldest first, at most `limit` (the newest
    /// ones): what a progression rule reads.
    public func pastSessions(of exerciseID: UUID, before: Int64, excluding: UUID? = nil, limit: Int = 40) throws -> [PastSession] {
        try read { db in
            let workouts = try Row.fetchAll(db, sql: """
                SELECT w.id, w.started_at FROM workouts w
                WHERE w.deleted_at IS NULL AND w.started_at < ? AND w.id <> ? AND EXISTS (SELECT 1 FROM sets s
                    WHERE s.workout_id = w.id AND s.exercise_id = ? AND s.deleted_at IS NULL)
                ORDER BY w.started_at DESC LIMIT ?
                """, arguments: [before, excluding?.key ?? "", exerciseID.key, limit])
            var decode = SetDecoder()
            return try workouts.reversed().map { w in
                let sets = try Row.fetchAll(db, sql: """
                    SELECT \(Rows.setColumns) FROM sets s WHERE s.workout_id = ? AND s.exercise_id = ? AND s.deleted_at IS NULL
                    ORDER BY s.performed_at, s.id
                    """, arguments: [w["id"] as String, exerciseID.key]).map { decode($0).values }
                return PastSession(startedAt: w["started_at"], sets: sets)
            }
        }
    }

    /// The sessions of an exercise in the workouts of a routine started before `before`, oldest
    /// first, all of them (a 5/3/1 wave counts every one), with every set of the exercise in
    /// each: `LineHistory` shares them out among the routine's lines. A session is entered when
    /// its workout was linked to the routine (the clock of its `routine_id`), which a back-dated
    /// workout is after its start.
    public func routineSessions(of exerciseID: UUID, routine: UUID, before: Int64, excluding: UUID? = nil) throws -> [PastSession] {
        try read { db in
            var decode = SetDecoder()
            var sessions: [PastSession] = []
            var current: String?
            for row in try Row.fetchAll(db, sql: """
                SELECT \(Rows.setColumns), w.started_at AS w_started_at, json_extract(w.clocks, '$.routine_id') AS w_linked
                FROM sets s JOIN workouts w ON w.id = s.workout_id
                WHERE w.routine_id = ? AND w.deleted_at IS NULL AND w.started_at < ? AND w.id <> ?
                    AND s.exercise_id = ? AND s.deleted_at IS NULL
                ORDER BY w.started_at, w.id, s.performed_at, s.id
                """, arguments: [routine.key, before, excluding?.key ?? "", exerciseID.key]) {
                let set = decode(row)
                if current != set.workoutID.key {
                    current = set.workoutID.key
                    let started: Int64 = row["w_started_at"]
                    let linked = (row["w_linked"] as String?).flatMap(HLC.init)?.millis
                    sessions.append(PastSession(startedAt: started, enteredAt: linked ?? started, sets: []))
                }
                sessions[sessions.count - 1].sets.append(set.values)
            }
            return sessions
        }
    }

    private static func routine(_ row: Row) -> StoredRoutine? {
        guard let id = parseUUID(row["id"]) else { return nil }
        return StoredRoutine(id: id, name: row["name"], text: row["body"], unit: (row["unit"] as String?).flatMap(WeightUnit.init(rawValue:)))
    }
}
