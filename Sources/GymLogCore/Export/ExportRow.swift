import Foundation

/// One logged set joined with its workout and exercise: the unit of `gymlog export`.
public struct ExportRow: Sendable, Equatable {
    /// The set's id.
    public var setID: UUID
    /// The workout's id.
    public var workoutID: UUID
    /// The workout's name, nil when never named.
    public var workoutName: String?
    /// Milliseconds since 1970 (UTC).
    public var workoutStartedAt: Int64
    /// Milliseconds since 1970 (UTC); nil while the workout is still open.
    public var workoutEndedAt: Int64?
    /// The note on the workout as a whole.
    public var workoutNote: String?
    /// The workout's own UTC offset, used for its start and end times.
    public var workoutUTCOffsetSeconds: Int
    /// The exercise's id.
    public var exerciseID: UUID
    /// The exercise's display name.
    public var exerciseName: String
    /// 1-based position among all of this exercise's sets in this workout, warm-ups included.
    public var setOrder: Int
    /// 1-based position among this exercise's `.working` sets in this workout; nil for tagged sets.
    public var workingSetNumber: Int?
    /// Working, warm-up, drop or failure.
    public var kind: SetKind
    /// External load, or added (assisted when negative) load when `bodyweight` is true.
    public var weight: Weight?
    /// True for bodyweight sets (`bw x8`, `bw+20x6`).
    public var bodyweight: Bool
    /// Repetitions, if counted.
    public var reps: Int?
    /// Rate of perceived exertion as typed (`8`, `8.5`).
    public var rpe: Fixed?
    /// Time under load or on the clock, in seconds.
    public var durationSeconds: Int?
    /// Distance as typed, with its unit.
    public var distance: Distance?
    /// The note on this set.
    public var note: String?
    /// Milliseconds since 1970 (UTC) when the set was logged.
    public var performedAt: Int64
    /// The set's UTC offset, used for `performedAt`.
    public var utcOffsetSeconds: Int

    /// A row from its parts; `workoutUTCOffsetSeconds` defaults to the set's offset.
    public init(setID: UUID, workoutID: UUID, workoutName: String? = nil, workoutStartedAt: Int64,
                workoutEndedAt: Int64? = nil, workoutNote: String? = nil, workoutUTCOffsetSeconds: Int? = nil,
                exerciseID: UUID, exerciseName: String, setOrder: Int, workingSetNumber: Int?,
                kind: SetKind = .working, weight: Weight? = nil, bodyweight: Bool = false, reps: Int? = nil,
                rpe: Fixed? = nil, durationSeconds: Int? = nil, distance: Distance? = nil, note: String? = nil,
                performedAt: Int64, utcOffsetSeconds: Int) {
        self.setID = setID; self.workoutID = workoutID; self.workoutName = workoutName
        self.workoutStartedAt = workoutStartedAt; self.workoutEndedAt = workoutEndedAt
        self.workoutNote = workoutNote; self.workoutUTCOffsetSeconds = workoutUTCOffsetSeconds ?? utcOffsetSeconds
        self.exerciseID = exerciseID; self.exerciseName = exerciseName
        self.setOrder = setOrder; self.workingSetNumber = workingSetNumber; self.kind = kind
        self.weight = weight; self.bodyweight = bodyweight; self.reps = reps; self.rpe = rpe
        self.durationSeconds = durationSeconds; self.distance = distance; self.note = note
        self.performedAt = performedAt; self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// A row from stored values; the caller numbers the set within its exercise and workout.
    public init(set: LoggedSet, workout: Workout, exercise: Exercise, setOrder: Int, workingSetNumber: Int?) {
        self.init(setID: set.id, workoutID: workout.id, workoutName: workout.name,
                  workoutStartedAt: workout.startedAt, workoutEndedAt: workout.endedAt, workoutNote: workout.note,
                  workoutUTCOffsetSeconds: workout.utcOffsetSeconds, exerciseID: exercise.id,
                  exerciseName: exercise.name, setOrder: setOrder, workingSetNumber: workingSetNumber,
                  kind: set.kind, weight: set.weight, bodyweight: set.bodyweight, reps: set.reps, rpe: set.rpe,
                  durationSeconds: set.durationSeconds, distance: set.distance, note: set.note,
                  performedAt: set.performedAt, utcOffsetSeconds: set.utcOffsetSeconds)
    }
}

/// The column layouts `gymlog export --format` can write.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// Every field gymlog stores, lossless: ids, kinds, units, ISO 8601 times with offsets.
    case native
    /// The layout of the Strong app's CSV export, so the file opens in tools built for it.
    ///
    /// Strong's layout carries no unit columns: Weight and Distance are the numbers as typed
    /// (a mix of kg and lb sets is written as is), and readers assume the user's unit.
    /// Like Strong, absent Weight, Reps, Distance and Seconds are written as `0` and an absent
    /// RPE as an empty field; Date is the workout's local start with no offset, and an
    /// unfinished workout's Duration is `0m`.
    case strong

    static let nativeHeader = [
        "set_id", "workout_id", "workout_name", "workout_started_at", "workout_ended_at", "workout_note",
        "exercise_id", "exercise", "set_order", "kind", "weight", "weight_unit", "bodyweight", "reps", "rpe",
        "distance", "distance_unit", "duration_seconds", "note", "performed_at",
    ]

    static let strongHeader = [
        "Date", "Workout Name", "Duration", "Exercise Name", "Set Order", "Weight", "Reps", "Distance",
        "Seconds", "Notes", "Workout Notes", "RPE",
    ]

    /// Workout Name for workouts that were never named.
    public static let defaultWorkoutName = "Workout"

    /// The column names, in order.
    public var header: [String] {
        switch self {
        case .native: Self.nativeHeader
        case .strong: Self.strongHeader
        }
    }

    /// Writes the header row.
    public func appendHeader(to writer: inout CSVWriter) {
        writer.fields(header)
        writer.endRow()
    }

    /// Writes one row for `row` in this layout.
    public func append(_ row: ExportRow, to writer: inout CSVWriter) {
        switch self {
        case .native: Self.appendNative(row, to: &writer)
        case .strong: Self.appendStrong(row, to: &writer)
        }
    }

    static func appendNative(_ row: ExportRow, to w: inout CSVWriter) {
        w.fieldUUID(row.setID)
        w.fieldUUID(row.workoutID)
        w.optionalField(row.workoutName)
        w.fieldISO8601(millis: row.workoutStartedAt, utcOffsetSeconds: row.workoutUTCOffsetSeconds)
        if let ended = row.workoutEndedAt {
            w.fieldISO8601(millis: ended, utcOffsetSeconds: row.workoutUTCOffsetSeconds)
        } else {
            w.emptyField()
        }
        w.optionalField(row.workoutNote)
        w.fieldUUID(row.exerciseID)
        w.field(row.exerciseName)
        w.fieldInt(row.setOrder)
        w.field(row.kind.rawValue)
        if let weight = row.weight {
            w.fieldFixed(weight.value)
            w.field(weight.unit.rawValue)
        } else {
            w.emptyField(); w.emptyField()
        }
        w.field(row.bodyweight ? "true" : "false")
        w.optionalInt(row.reps)
        w.optionalFixed(row.rpe)
        if let distance = row.distance {
            w.fieldFixed(distance.value)
            w.field(distance.unit.rawValue)
        } else {
            w.emptyField(); w.emptyField()
        }
        w.optionalInt(row.durationSeconds)
        w.optionalField(row.note)
        w.fieldISO8601(millis: row.performedAt, utcOffsetSeconds: row.utcOffsetSeconds)
        w.endRow()
    }

    static func appendStrong(_ row: ExportRow, to w: inout CSVWriter) {
        w.fieldLocalDateTime(millis: row.workoutStartedAt, utcOffsetSeconds: row.workoutUTCOffsetSeconds)
        if let name = row.workoutName, !name.isEmpty { w.field(name) } else { w.field(defaultWorkoutName) }
        w.fieldStrongDuration(from: row.workoutStartedAt, to: row.workoutEndedAt)
        w.field(row.exerciseName)
        switch row.kind {
        case .working: w.fieldInt(row.workingSetNumber ?? row.setOrder)
        case .warmup: w.field("W")
        case .drop: w.field("D")
        case .failure: w.field("F")
        }
        if let weight = row.weight { w.fieldFixed(weight.value) } else { w.fieldInt(0) }
        w.fieldInt(row.reps ?? 0)
        if let distance = row.distance { w.fieldFixed(distance.value) } else { w.fieldInt(0) }
        w.fieldInt(row.durationSeconds ?? 0)
        w.optionalField(row.note)
        w.optionalField(row.workoutNote)
        w.optionalFixed(row.rpe)
        w.endRow()
    }
}

extension CSVWriter {
    @inlinable
    mutating func optionalField(_ value: String?) {
        if let value { field(value) } else { emptyField() }
    }

    @inlinable
    mutating func optionalInt(_ value: Int?) {
        if let value { fieldInt(value) } else { emptyField() }
    }

    @inlinable
    mutating func optionalFixed(_ value: Fixed?) {
        if let value { fieldFixed(value) } else { emptyField() }
    }

    /// Strong's duration spelling: `1h 5m`, `45m`; `0m` when unfinished or under a minute.
    mutating func fieldStrongDuration(from start: Int64, to end: Int64?) {
        beginField(empty: false)
        let minutes = max(0, ((end ?? start) - start) / 60_000)
        if minutes >= 60 {
            appendDecimal(minutes / 60, to: &buffer)
            buffer.append(UInt8(ascii: "h"))
            buffer.append(UInt8(ascii: " "))
        }
        appendDecimal(minutes % 60, to: &buffer)
        buffer.append(UInt8(ascii: "m"))
    }
}

/// Strong's duration spelling for a workout: `1h 5m`, `45m`, `0m`.
public func strongDuration(from start: Int64, to end: Int64?) -> String {
    var w = CSVWriter(reservingCapacity: 16)
    w.fieldStrongDuration(from: start, to: end)
    return String(decoding: w.buffer, as: UTF8.self)
}
