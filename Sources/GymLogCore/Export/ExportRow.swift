import Foundation

/// One logged set joined with its workout and exercise: the unit of `gymlog export`.
public struct ExportRow: Sendable, Equatable {
    /// The set as stored (its time and offset are the set's own).
    public var set: LoggedSet
    /// The set's workout; its own UTC offset is used for its start and end times.
    public var workout: Workout
    /// The set's exercise (its id and display name are exported).
    public var exercise: Exercise
    /// 1-based position among all of this exercise's sets in this workout, warm-ups included.
    public var setOrder: Int
    /// 1-based position among this exercise's `.working` sets in this workout; nil for tagged sets.
    public var workingSetNumber: Int?
    /// The exercise's other names (`bp` for Bench Press), as stored, in alphabetical order.
    public var exerciseAliases: [String]
    /// 0-based position of the set's superset among this workout's supersets, in the order
    /// first met (Hevy's `superset_id`); nil for a set done on its own.
    public var supersetNumber: Int?

    /// A row from stored values; the caller numbers the set within its exercise and workout
    /// (`ExportNumbering`).
    public init(set: LoggedSet, workout: Workout, exercise: Exercise, setOrder: Int, workingSetNumber: Int?,
                exerciseAliases: [String] = [], supersetNumber: Int? = nil) {
        self.set = set; self.workout = workout; self.exercise = exercise
        self.setOrder = setOrder; self.workingSetNumber = workingSetNumber; self.exerciseAliases = exerciseAliases
        self.supersetNumber = supersetNumber
    }
}

/// Numbers sets as the export lists them, workout by workout in the order they were done:
/// each exercise's sets (all, and working ones) and each superset, counted within the workout.
/// Sets come in the order they were done, so exercises interleave (supersets): each
/// exercise's numbering is kept apart.
public struct ExportNumbering: Sendable {
    var workout: UUID?
    var exercises: [UUID: (order: Int, working: Int)] = [:]
    var supersets: [UUID: Int] = [:]

    public init() {}

    /// The numbers of `set`, the next set in export order.
    public mutating func number(_ set: LoggedSet) -> (setOrder: Int, workingSetNumber: Int?, supersetNumber: Int?) {
        if workout != set.workoutID {
            workout = set.workoutID
            exercises.removeAll(keepingCapacity: true)
            supersets.removeAll(keepingCapacity: true)
        }
        var n = exercises[set.exerciseID] ?? (0, 0)
        n.order += 1
        if set.values.kind == .working { n.working += 1 }
        exercises[set.exerciseID] = n
        var superset: Int?
        if let id = set.supersetID {
            superset = supersets[id] ?? supersets.count
            supersets[id] = superset
        }
        return (n.order, set.values.kind == .working ? n.working : nil, superset)
    }

    /// The export row of `set`, numbered.
    public mutating func row(_ set: LoggedSet, workout: Workout, exercise: Exercise, aliases: [String] = []) -> ExportRow {
        let n = number(set)
        return ExportRow(set: set, workout: workout, exercise: exercise, setOrder: n.setOrder, workingSetNumber: n.workingSetNumber,
                         exerciseAliases: aliases, supersetNumber: n.supersetNumber)
    }
}

/// The column layouts `gymlog export --format` can write.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// Every field gymlog stores, lossless: ids, kinds, units, aliases, supersets, ISO 8601
    /// times to the millisecond with offsets, and bodyweight entries.
    ///
    /// Bodyweight entries follow the sets as rows of their own, oldest first: `kind` is
    /// `bodyweight_entry`, `set_id` the entry's id, `weight` and `weight_unit` the weight as
    /// typed, `performed_at` when it was measured; every other field is empty. One file holds
    /// the whole log, and a row with no workout or exercise cannot be mistaken for a set.
    case native
    /// The layout of the Strong app's CSV export, so the file opens in tools built for it.
    ///
    /// Written in Strong's layout that carries a unit on every row (`Weight Unit` `kg` or
    /// `lbs`, `Distance Unit` `m`, `km`, `mi` or `yd`), so a mix of kg and lb sets, or of
    /// metres and kilometres, reads back exactly as typed. Like Strong, absent Weight, Reps,
    /// Distance and Seconds are written as `0` (with an empty unit) and an absent RPE as an
    /// empty field; Date is the workout's local start with no offset, and an unfinished
    /// workout's Duration is `0m`. Strong has no bodyweight column: `bw x8` is Weight 0,
    /// assistance a negative Weight, and added load a plain Weight. Strong's layout has no
    /// supersets and no bodyweight log: both are left out.
    case strong
    /// The layout of Hevy's workout CSV export, so Hevy (and gymlog) can import the file.
    ///
    /// Hevy has one unit per file, named in its header: loads go in `weight_kg` or `weight_lbs`
    /// and distances in `distance_km` or `distance_miles`, following the configured unit, each
    /// value converted to the nearest thousandth (`Weight.converted(to:)`). Times are Hevy's
    /// `21 Nov 2026, 10:15` (local, to the minute); `set_index` is 0-based over all of the
    /// exercise's sets; `set_type` is normal, warmup, dropset or failure; absent numbers are
    /// empty. Hevy's notes are per exercise, not per set: a set's note goes in its row's
    /// `exercise_notes`. `superset_id` numbers a workout's supersets from 0, as Hevy does, and
    /// is empty for a set done on its own. Hevy has no bodyweight log: entries are left out.
    case hevy

    /// The native columns before aliases were exported; such files still import.
    static let nativeHeaderWithoutAliases: [String] = [
        "set_id", "workout_id", "workout_name", "workout_started_at", "workout_ended_at", "workout_note",
        "exercise_id", "exercise", "set_order",
    ] + setFields.map(\.rawValue) + ["performed_at"]

    /// The native columns before supersets were exported; such files still import.
    static let nativeHeaderWithoutSupersets: [String] = nativeHeaderWithoutAliases + ["exercise_aliases"]

    static let nativeHeader: [String] = nativeHeaderWithoutSupersets + ["superset_id"]

    /// Every native header gymlog has written, oldest first.
    static let nativeHeaders = [nativeHeaderWithoutAliases, nativeHeaderWithoutSupersets, nativeHeader]

    /// The native `kind` of a row that is a bodyweight entry, not a set.
    static let bodyweightEntryKind = "bodyweight_entry"

    static let strongHeader = [
        "Date", "Workout Name", "Duration", "Exercise Name", "Set Order", "Weight", "Weight Unit", "Reps", "Distance",
        "Distance Unit", "Seconds", "Notes", "Workout Notes", "RPE",
    ]

    /// Hevy's columns; the load and distance columns are named for `unit` (kg: `weight_kg`,
    /// `distance_km`; lb: `weight_lbs`, `distance_miles`).
    static func hevyHeader(_ unit: WeightUnit) -> [String] {
        ["title", "start_time", "end_time", "description", "exercise_title", "superset_id", "exercise_notes", "set_index",
         "set_type", unit == .kg ? "weight_kg" : "weight_lbs", "reps", unit == .kg ? "distance_km" : "distance_miles",
         "duration_seconds", "rpe"]
    }

    /// The distance unit Hevy's layout writes beside loads in `unit`.
    static func hevyDistanceUnit(_ unit: WeightUnit) -> DistanceUnit { unit == .kg ? .km : .mi }

    /// How Strong spells a weight unit in its `Weight Unit` column.
    static func strongSpelling(_ unit: WeightUnit) -> String {
        switch unit {
        case .kg: "kg"
        case .lb: "lbs"
        }
    }

    /// The separator between aliases in the native `exercise_aliases` field; an alias that
    /// holds it is quoted, CSV-style, so any alias reads back.
    static let aliasSeparator = UInt8(ascii: ";")

    /// The set's fields in native column order (`allCases` would build an array per row).
    static let setFields = SetField.allCases

    /// Workout Name for workouts that were never named.
    public static let defaultWorkoutName = "Workout"

    /// The column names, in order; `unit` is the configured unit, which names Hevy's columns.
    public func header(unit: WeightUnit) -> [String] {
        switch self {
        case .native: Self.nativeHeader
        case .strong: Self.strongHeader
        case .hevy: Self.hevyHeader(unit)
        }
    }

    /// Writes the header row.
    public func appendHeader(to writer: inout CSVWriter, unit: WeightUnit) {
        writer.fields(header(unit: unit))
        writer.endRow()
    }

    /// Writes one row for `row` in this layout; `unit` is the configured unit, which Hevy's
    /// layout converts loads (and distances, to km or miles) into. The others write values as typed.
    public func append(_ row: ExportRow, to writer: inout CSVWriter, unit: WeightUnit) {
        switch self {
        case .native: Self.appendNative(row, to: &writer)
        case .strong: Self.appendStrong(row, to: &writer)
        case .hevy: Self.appendHevy(row, to: &writer, unit: unit)
        }
    }

    /// Writes one bodyweight entry; only the native layout has a place for it (Strong's and
    /// Hevy's have no bodyweight log), so the others write nothing.
    public func append(_ entry: BodyweightEntry, to writer: inout CSVWriter) {
        guard self == .native else { return }
        writer.fieldUUID(entry.id)
        for _ in 1...8 { writer.emptyField() }  // workout_id ... set_order
        for field in Self.setFields {
            switch field {
            case .kind: writer.field(Self.bodyweightEntryKind)
            case .weight: writer.fieldFixed(entry.weight.value)
            case .weightUnit: writer.field(entry.weight.unit.rawValue)
            default: writer.emptyField()
            }
        }
        writer.fieldISO8601(millis: entry.measuredAt, utcOffsetSeconds: entry.utcOffsetSeconds, milliseconds: true)
        writer.emptyField()  // exercise_aliases
        writer.emptyField()  // superset_id
        writer.endRow()
    }

    /// Whether this layout carries bodyweight entries.
    public var carriesBodyweight: Bool { self == .native }

    static func appendNative(_ row: ExportRow, to w: inout CSVWriter) {
        let set = row.set, workout = row.workout
        w.fieldUUID(set.id)
        w.fieldUUID(workout.id)
        w.optionalField(workout.name)
        // Milliseconds, so sets logged within one second keep their order when read back.
        w.fieldISO8601(millis: workout.startedAt, utcOffsetSeconds: workout.utcOffsetSeconds, milliseconds: true)
        if let ended = workout.endedAt {
            w.fieldISO8601(millis: ended, utcOffsetSeconds: workout.utcOffsetSeconds, milliseconds: true)
        } else {
            w.emptyField()
        }
        w.optionalField(workout.note)
        w.fieldUUID(row.exercise.id)
        w.field(row.exercise.name)
        w.fieldInt(row.setOrder)
        for field in setFields {
            switch set.values[field] {
            case .null: w.emptyField()
            case .text(let text): w.field(text)
            case .int(let value): w.fieldInt(value)
            case .fixed(let value): w.fieldFixed(value)
            case .bool(let flag): w.field(flag ? "true" : "false")
            }
        }
        w.fieldISO8601(millis: set.performedAt, utcOffsetSeconds: set.utcOffsetSeconds, milliseconds: true)
        w.field(encodeAliases(row.exerciseAliases))
        if let superset = set.supersetID { w.fieldUUID(superset) } else { w.emptyField() }
        w.endRow()
    }

    static func appendStrong(_ row: ExportRow, to w: inout CSVWriter) {
        let v = row.set.values, workout = row.workout
        w.fieldLocalDateTime(millis: workout.startedAt, utcOffsetSeconds: workout.utcOffsetSeconds)
        if let name = workout.name, !name.isEmpty { w.field(name) } else { w.field(defaultWorkoutName) }
        w.fieldStrongDuration(from: workout.startedAt, to: workout.endedAt)
        w.field(row.exercise.name)
        switch v.kind {
        case .working: w.fieldInt(row.workingSetNumber ?? row.setOrder)
        case .warmup: w.field("W")
        case .drop: w.field("D")
        case .failure: w.field("F")
        }
        if let weight = v.weight {
            w.fieldFixed(weight.value); w.field(strongSpelling(weight.unit))
        } else {
            w.fieldInt(0); w.emptyField()
        }
        w.fieldInt(v.reps ?? 0)
        if let distance = v.distance {
            w.fieldFixed(distance.value); w.field(distance.unit.rawValue)
        } else {
            w.fieldInt(0); w.emptyField()
        }
        w.fieldInt(v.durationSeconds ?? 0)
        w.optionalField(v.note)
        w.optionalField(workout.note)
        w.optionalFixed(v.rpe)
        w.endRow()
    }

    static func appendHevy(_ row: ExportRow, to w: inout CSVWriter, unit: WeightUnit) {
        let v = row.set.values, workout = row.workout
        if let name = workout.name, !name.isEmpty { w.field(name) } else { w.field(defaultWorkoutName) }
        w.fieldHevyTime(millis: workout.startedAt, utcOffsetSeconds: workout.utcOffsetSeconds)
        if let ended = workout.endedAt {
            w.fieldHevyTime(millis: ended, utcOffsetSeconds: workout.utcOffsetSeconds)
        } else {
            w.emptyField()
        }
        w.optionalField(workout.note)
        w.field(row.exercise.name)
        w.optionalInt(row.supersetNumber)
        w.optionalField(v.note)
        w.fieldInt(row.setOrder - 1)
        switch v.kind {
        case .working: w.field("normal")
        case .warmup: w.field("warmup")
        case .drop: w.field("dropset")
        case .failure: w.field("failure")
        }
        w.optionalFixed(v.weight.map { $0.converted(to: unit).value })
        w.optionalInt(v.reps)
        w.optionalFixed(v.distance.map { $0.converted(to: hevyDistanceUnit(unit)).value })
        w.optionalInt(v.durationSeconds)
        w.optionalFixed(v.rpe)
        w.endRow()
    }
}

extension ExportFormat {
    /// The aliases as one field: `bp;flat bench` (an alias holding `;`, `"` or a line break is quoted).
    static func encodeAliases(_ aliases: [String]) -> [UInt8] {
        var inner = CSVWriter(delimiter: aliasSeparator, reservingCapacity: 64)
        inner.fields(aliases)
        return inner.buffer
    }

    /// The aliases written by `encodeAliases`.
    static func decodeAliases(_ field: String) -> [String] {
        guard !field.isEmpty else { return [] }
        return ImportCSVCursor.rows(field, delimiter: Character(UnicodeScalar(aliasSeparator))).first ?? []
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

extension CSVWriter {
    /// Hevy's time spelling, local and to the minute: `21 Nov 2026, 10:15`, `5 Sep 2025, 07:05`.
    mutating func fieldHevyTime(millis: Int64, utcOffsetSeconds: Int) {
        beginField(empty: false)
        let t = CivilDateTime(millis: millis, utcOffsetSeconds: utcOffsetSeconds)
        // Quoted, as Hevy writes it: the comma is part of the value.
        buffer.append(UInt8(ascii: "\""))
        appendDecimal(Int64(t.day), to: &buffer)
        buffer.append(UInt8(ascii: " "))
        buffer.append(contentsOf: Self.monthAbbreviations[t.month - 1].utf8)
        buffer.append(UInt8(ascii: " "))
        appendYear(t.year, to: &buffer)
        buffer.append(UInt8(ascii: ","))
        buffer.append(UInt8(ascii: " "))
        appendTwoDigits(t.hour, to: &buffer)
        appendTwoDigits(t.minute, after: ":", to: &buffer)
        buffer.append(UInt8(ascii: "\""))
    }

    static let monthAbbreviations = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}

/// Strong's duration spelling for a workout: `1h 5m`, `45m`, `0m`.
public func strongDuration(from start: Int64, to end: Int64?) -> String {
    var w = CSVWriter(reservingCapacity: 16)
    w.fieldStrongDuration(from: start, to: end)
    return String(decoding: w.buffer, as: UTF8.self)
}
