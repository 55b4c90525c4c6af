import Foundation
import GRDB
import GymLogCore

/// Column lists and row decoding shared by every query, so they cannot drift apart.
enum Rows {
    static let setColumns = """
        s.id, s.workout_id, s.exercise_id, s.kind, s.weight, s.weight_unit, s.bodyweight, s.reps, s.rpe, \
        s.duration_s, s.distance, s.distance_unit, s.note, s.performed_at, s.utc_offset
        """
    static let workoutColumns = "w.id, w.name, w.started_at, w.ended_at, w.utc_offset, w.note"

    static func set(_ row: Row, from i: Int = 0) -> LoggedSet {
        var weight: Weight?
        if let text: String = row[i + 4], let value = Fixed(parsingSigned: text) {
            weight = Weight(value, WeightUnit(rawValue: row[i + 5] ?? "kg") ?? .kg)
        }
        var distance: Distance?
        if let text: String = row[i + 10], let value = Fixed(parsing: text) {
            distance = Distance(value, DistanceUnit(rawValue: row[i + 11] ?? "m") ?? .m)
        }
        return LoggedSet(
            id: parseUUID(row[i]) ?? UUID(), workoutID: parseUUID(row[i + 1]) ?? UUID(),
            exerciseID: parseUUID(row[i + 2]) ?? UUID(), kind: SetKind(rawValue: row[i + 3]) ?? .working,
            weight: weight, bodyweight: row[i + 6], reps: row[i + 7],
            rpe: (row[i + 8] as String?).flatMap { Fixed(parsing: $0) }, durationSeconds: row[i + 9],
            distance: distance, note: row[i + 12], performedAt: row[i + 13], utcOffsetSeconds: row[i + 14])
    }

    static func workout(_ row: Row, from i: Int = 0) -> Workout {
        Workout(id: parseUUID(row[i]) ?? UUID(), name: row[i + 1], startedAt: row[i + 2], endedAt: row[i + 3],
                utcOffsetSeconds: row[i + 4], note: row[i + 5])
    }

    static func exercise(_ row: Row) -> Exercise {
        Exercise(id: parseUUID(row[0]) ?? UUID(), name: row[1], kind: ExerciseKind(rawValue: row[2]) ?? .weighted)
    }

    /// The fields a set's values are stored as.
    static func fields(of v: SetValues) -> [(String, FieldValue)] {
        [
            ("kind", .text(v.kind.rawValue)),
            ("weight", v.weight.map { .text($0.value.description) } ?? .null),
            ("weight_unit", v.weight.map { .text($0.unit.rawValue) } ?? .null),
            ("bodyweight", .int(v.bodyweight ? 1 : 0)),
            ("reps", v.reps.map { .int(Int64($0)) } ?? .null),
            ("rpe", v.rpe.map { .text($0.description) } ?? .null),
            ("duration_s", v.durationSeconds.map { .int(Int64($0)) } ?? .null),
            ("distance", v.distance.map { .text($0.value.description) } ?? .null),
            ("distance_unit", v.distance.map { .text($0.unit.rawValue) } ?? .null),
            ("note", v.note.map { .text($0) } ?? .null),
        ]
    }
}
