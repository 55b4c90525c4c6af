import Foundation
import GRDB
import GymLogCore

/// The `sets` table's columns: the one table the write pipeline (row and outbox fields), the
/// row decoder, export and the benchmark share. A set's values map onto columns through
/// `SetField`, so a new field is its `SetValues` declaration, one entry here and a migration.
public enum SetColumns {
    /// The columns holding a set's values, in the order a write lists them, each with its field.
    public static let values: [(name: String, field: SetField)] = [
        ("kind", .kind), ("weight", .weight), ("weight_unit", .weightUnit), ("bodyweight", .bodyweight),
        ("reps", .reps), ("rpe", .rpe), ("rir", .rir), ("duration_s", .durationSeconds),
        ("distance", .distance), ("distance_unit", .distanceUnit), ("note", .note),
    ]

    /// Every synced column of `sets` (all but `id`, `clocks` and `extra`), as a create writes them.
    public static let synced: [String] = ["workout_id", "exercise_id"] + values.map(\.name)
        + ["performed_at", "utc_offset", "superset_id", tombstoneField]

    /// The fields a set's values are stored as.
    public static func fields(of v: SetValues) -> [(String, FieldValue)] {
        values.map { ($0.name, FieldValue(v[$0.field])) }
    }

    /// Every field of a new set, in `synced` order, as `ChangeWriter.write(.sets, op: .create)` takes them.
    public static func createFields(workoutID: UUID, exerciseID: UUID, values v: SetValues, performedAt: Int64,
                                    utcOffsetSeconds: Int, superset: UUID? = nil) -> [(String, FieldValue)] {
        var fields: [(String, FieldValue)] = [("workout_id", .text(workoutID.key)), ("exercise_id", .text(exerciseID.key))]
        fields.reserveCapacity(synced.count)
        fields += Self.fields(of: v)
        fields += [("performed_at", .int(performedAt)), ("utc_offset", .int(Int64(utcOffsetSeconds))),
                   ("superset_id", superset.map { .text($0.key) } ?? .null), (tombstoneField, .null)]
        return fields
    }

    /// The columns a `LoggedSet` is decoded from.
    static let decoded = ["id", "workout_id", "exercise_id", "performed_at", "utc_offset"] + values.map(\.name) + ["superset_id"]

    /// `s.id, s.workout_id, ...`: a SELECT list for `SetDecoder` over a table aliased `s`.
    static let select = decoded.map { "s." + $0 }.joined(separator: ", ")
}

extension FieldValue {
    /// How a set's field is stored: decimals as their typed text (exact), flags as 0 or 1.
    init(_ value: SetFieldValue) {
        switch value {
        case .null: self = .null
        case .text(let s): self = .text(s)
        case .int(let i): self = .int(Int64(i))
        case .fixed(let f): self = .text(f.description)
        case .bool(let b): self = .int(b ? 1 : 0)
        }
    }
}

extension SetFieldValue {
    /// A stored column's value; `SetValues(reading:)` parses text into decimals where it expects them.
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let i): self = .int(Int(i))
        // A REAL that fits no decimal (a `1e30` stored by an older version) reads as absent.
        case .double(let d): self = Fixed(roundingWithinRange: d).map { .fixed($0) } ?? .null
        case .string(let s): self = .text(s)
        case .blob(let data): self = .text(String(decoding: data, as: UTF8.self))
        }
    }
}

/// Where a query's columns are, looked up by name on its first row and reused for the rest,
/// so decoding never depends on a column's position and costs no name lookup per row.
/// (GRDB's `row["name"]` lower-cases every column name of a fetched row on each lookup.)
struct ColumnPositions {
    let names: [String]
    private var found: [Int]?

    init(_ names: [String]) { self.names = names }

    /// The position of each of `names` in `row` (the leftmost column of that name).
    mutating func callAsFunction(_ row: Row) -> [Int] {
        if let found { return found }
        let columns = Array(row.columnNames)
        let positions = names.map { name in
            guard let i = columns.firstIndex(of: name) else { preconditionFailure("query has no column '\(name)': \(columns)") }
            return i
        }
        found = positions
        return positions
    }
}

/// Decodes `LoggedSet`s from rows selecting `SetColumns.select`, by column name.
struct SetDecoder {
    private var columns = ColumnPositions(SetColumns.decoded)
    /// Each value column's field and position; a scan of ten pairs costs less than hashing.
    private var byField: [(field: SetField, position: Int)] = []

    mutating func callAsFunction(_ row: Row) -> LoggedSet {
        let p = columns(row)
        if byField.isEmpty {
            byField = SetColumns.values.enumerated().map { ($0.element.field, p[5 + $0.offset]) }
        }
        let byField = self.byField
        return LoggedSet(
            id: parseUUID(row[p[0]]) ?? UUID(), workoutID: parseUUID(row[p[1]]) ?? UUID(),
            exerciseID: parseUUID(row[p[2]]) ?? UUID(),
            values: SetValues { field in
                let position = byField.first { $0.field == field }!.position
                return SetFieldValue(row[position] as DatabaseValue)
            },
            performedAt: row[p[3]], utcOffsetSeconds: row[p[4]],
            supersetID: (row[p[5 + SetColumns.values.count]] as String?).flatMap(parseUUID))
    }
}

/// Decodes `Workout`s from rows selecting `Rows.workoutColumns`, by column name.
struct WorkoutDecoder {
    private var columns = ColumnPositions(["w_id", "w_name", "w_started_at", "w_ended_at", "w_utc_offset", "w_note"])

    mutating func callAsFunction(_ row: Row) -> Workout {
        let p = columns(row)
        return Workout(id: parseUUID(row[p[0]]) ?? UUID(), name: row[p[1]], startedAt: row[p[2]], endedAt: row[p[3]],
                       utcOffsetSeconds: row[p[4]], note: row[p[5]])
    }
}

/// SELECT lists and one-off decoders shared by every query, so they cannot drift apart.
enum Rows {
    static let setColumns = SetColumns.select
    /// A workout aliased `w`, its columns prefixed `w_` so they never clash with a joined set's.
    static let workoutColumns = "w.id AS w_id, w.name AS w_name, w.started_at AS w_started_at, w.ended_at AS w_ended_at, "
        + "w.utc_offset AS w_utc_offset, w.note AS w_note"

    /// One set (for queries that fetch a single row).
    static func set(_ row: Row) -> LoggedSet {
        var decode = SetDecoder()
        return decode(row)
    }

    /// One workout (for queries that fetch a single row).
    static func workout(_ row: Row) -> Workout {
        var decode = WorkoutDecoder()
        return decode(row)
    }

    /// An exercise from `id`, `name` and `kind` columns, prefixed by `prefix` in joins.
    static func exercise(_ row: Row, prefix: String = "") -> Exercise {
        var columns = ColumnPositions([prefix + "id", prefix + "name", prefix + "kind"])
        let p = columns(row)
        return Exercise(id: parseUUID(row[p[0]]) ?? UUID(), name: row[p[1]], kind: ExerciseKind(rawValue: row[p[2]]) ?? .weighted)
    }
}
