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
    /// The number Strong gives the set: 1-based position among this exercise's working and
    /// failure sets in this workout (a failure set takes its number and is written `F` in its
    /// place, as Strong does); nil for warm-up and drop sets, which take none.
    public var workingSetNumber: Int?
    /// True for the first row of its workout in the export: Strong writes the workout's note there only.
    public var firstOfWorkout: Bool
    /// The exercise's other names (`bp` for Bench Press), as stored, in alphabetical order.
    public var exerciseAliases: [String]
    /// 0-based position of the set's superset among this workout's supersets, in the order
    /// first met (Hevy's `superset_id`); nil for a set done on its own.
    public var supersetNumber: Int?
    /// The exercise's catalog fields as stored (`exercise_link`); empty when linked from its name.
    public var exerciseLink = ExerciseLinkFields()
    /// True when an earlier workout of the export has the same title and starts in the same
    /// minute: a layout that writes starts to the minute (Hevy's) writes this one's seconds
    /// too, or the two would read back as one workout.
    public var startToTheSecond = false

    /// A row from stored values; the caller numbers the set within its exercise and workout
    /// (`ExportNumbering`).
    public init(set: LoggedSet, workout: Workout, exercise: Exercise, setOrder: Int, workingSetNumber: Int?,
                exerciseAliases: [String] = [], supersetNumber: Int? = nil, firstOfWorkout: Bool = false) {
        self.set = set; self.workout = workout; self.exercise = exercise
        self.setOrder = setOrder; self.workingSetNumber = workingSetNumber; self.exerciseAliases = exerciseAliases
        self.supersetNumber = supersetNumber; self.firstOfWorkout = firstOfWorkout
    }
}

/// A routine as the native export carries it, so a history rebuilt from the file has its
/// routines: its id, name and text, the unit its bare weights are in, and when each planned
/// line was first saved (`line_since`, stored JSON, kept as it is so 5/3/1 waves count on).
public struct RoutineRecord: Equatable, Sendable {
    public var id: UUID
    public var name: String
    public var text: String
    public var unit: WeightUnit?
    public var lineSince: String?
    public init(id: UUID, name: String, text: String, unit: WeightUnit?, lineSince: String?) {
        self.id = id; self.name = name; self.text = text; self.unit = unit; self.lineSince = lineSince
    }
}

/// Numbers sets as the export lists them, workout by workout in the order they were done:
/// each exercise's sets (all, and the working and failure ones Strong numbers) and each
/// superset, counted within the workout.
/// Sets come in the order they were done, so exercises interleave (supersets): each
/// exercise's numbering is kept apart.
public struct ExportNumbering: Sendable {
    var workout: UUID?
    var exercises: [UUID: (order: Int, working: Int)] = [:]
    var supersets: [UUID: Int] = [:]
    /// The local minute the last workout started in, and the titles started in it so far.
    var minute: Int64?
    var titlesInMinute: Set<String> = []
    var startToTheSecond = false

    public init() {}

    /// The numbers of `set`, the next set in export order.
    public mutating func number(_ set: LoggedSet)
        -> (setOrder: Int, workingSetNumber: Int?, supersetNumber: Int?, firstOfWorkout: Bool) {
        let first = workout != set.workoutID
        if first {
            workout = set.workoutID
            exercises.removeAll(keepingCapacity: true)
            supersets.removeAll(keepingCapacity: true)
        }
        var n = exercises[set.exerciseID] ?? (0, 0)
        n.order += 1
        // Strong counts a failure set among the numbered ones (`1 F 3`); warm-ups and drops take no number.
        let numbered = set.values.kind == .working || set.values.kind == .failure
        if numbered { n.working += 1 }
        exercises[set.exerciseID] = n
        var superset: Int?
        if let id = set.supersetID {
            superset = supersets[id] ?? supersets.count
            supersets[id] = superset
        }
        return (n.order, numbered ? n.working : nil, superset, first)
    }

    /// The export row of `set`, numbered.
    public mutating func row(_ set: LoggedSet, workout: Workout, exercise: Exercise, aliases: [String] = [],
                             link: ExerciseLinkFields = ExerciseLinkFields()) -> ExportRow {
        let n = number(set)
        if n.firstOfWorkout {
            // Workouts come in the order they started, so those of one minute are together.
            let local = workout.startedAt + Int64(workout.utcOffsetSeconds) * 1000
            let minute = local >= 0 ? local / 60_000 : (local - 59_999) / 60_000
            if minute != self.minute { self.minute = minute; titlesInMinute.removeAll() }
            startToTheSecond = !titlesInMinute.insert(workout.name.flatMap { $0.isEmpty ? nil : $0 } ?? ExportFormat.defaultWorkoutName).inserted
        }
        var row = ExportRow(set: set, workout: workout, exercise: exercise, setOrder: n.setOrder, workingSetNumber: n.workingSetNumber,
                            exerciseAliases: aliases, supersetNumber: n.supersetNumber, firstOfWorkout: n.firstOfWorkout)
        row.exerciseLink = link
        row.startToTheSecond = startToTheSecond
        return row
    }
}

/// The column layouts `gymlog export --format` can write. In every one, text a person typed
/// (names, notes, aliases) is written through `CSVWriter.textField`, so a spreadsheet never
/// runs it as a formula (`FormulaGuard`), and numbers never are.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// Every field gymlog stores, lossless: ids, kinds, units, aliases, supersets, ISO 8601
    /// times to the millisecond with offsets, and bodyweight entries.
    ///
    /// Bodyweight entries follow the sets as rows of their own, oldest first: `kind` is
    /// `bodyweight_entry`, `set_id` the entry's id, `weight` and `weight_unit` the weight as
    /// typed, `performed_at` when it was measured; every other field is empty. A whole-history
    /// export (no date range, no exercise) ends with the routines, kind `routine`
    /// (`append(_:RoutineRecord)`). One file holds the whole log, and a row with no workout
    /// or exercise cannot be mistaken for a set.
    case native
    /// The layout of the Strong app's CSV export, so the file opens in tools built for it.
    ///
    /// Strong's own layout that carries a unit on every row, written as Strong writes it:
    /// `Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes;Workout Duration`,
    /// `;`-separated, LF line ends (the last line too), no BOM, the header unquoted. Date is
    /// the workout's local start with no offset (`2026-11-21 10:15:00`); the text fields
    /// (Workout Name, Exercise Name, Notes, Workout Notes) are always quoted, and as Strong
    /// does, Notes is written `""` on the first set of each exercise in the workout and
    /// Workout Notes `""` on the workout's first row when there is none, both left unquoted
    /// and empty on the other rows (a set's own note is written on its row, quoted). Set Order
    /// is `W`, `D` or `F`, or the set's number among the exercise's working and failure sets
    /// (Strong numbers a failure set and writes `F` in its place: `1 F 3`). Numbers are
    /// written as typed with a decimal point (`100`, `102.5`, RPE `8.5`); an absent Weight,
    /// Reps, RPE or Distance is an empty field with an empty unit, an absent Seconds `0`.
    /// Units are Strong's `kg`, `lbs`, `km`, `mi.`, and gymlog's `m` and `yd`, which Strong
    /// has no spelling for. Workout Duration is Strong's `45m`, `1h`, `1h 5m`, `55s` under a
    /// minute, and `0s` for a workout with no end. Strong has no bodyweight column: `bw x8` is
    /// an empty Weight, assistance a negative Weight, and added load a plain Weight. Strong's
    /// layout has no supersets, no bodyweight log and no RIR (RPE is its only effort column):
    /// all three are left out.
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
    /// is empty for a set done on its own. Hevy has no bodyweight log and no RIR column (its
    /// `rpe` holds RPE only): both are left out.
    case hevy

    /// The native columns with `fields` as the set's values, and the exercise's catalog link last.
    static func nativeColumns(_ fields: [SetField], link: Bool = true) -> [String] {
        ["set_id", "workout_id", "workout_name", "workout_started_at", "workout_ended_at", "workout_note",
         "exercise_id", "exercise", "set_order"]
            + fields.map(\.rawValue) + ["performed_at", "exercise_aliases", "superset_id"] + (link ? ["exercise_link"] : [])
    }

    static let nativeHeader: [String] = nativeColumns(setFields)

    /// The native columns before catalog links were exported; such files still import.
    static let nativeHeaderWithoutLinks: [String] = nativeColumns(setFields, link: false)

    /// The native columns before RIR was kept (no `rir` after `rpe`); such files still import.
    static let nativeHeaderWithoutRIR: [String] = nativeColumns(setFields.filter { $0 != .rir }, link: false)

    /// The native columns before supersets were exported; such files still import.
    static let nativeHeaderWithoutSupersets: [String] = nativeHeaderWithoutRIR.dropLast()

    /// The native columns before aliases were exported; such files still import.
    static let nativeHeaderWithoutAliases: [String] = nativeHeaderWithoutSupersets.dropLast()

    /// Every native header gymlog has written, oldest first.
    static let nativeHeaders = [nativeHeaderWithoutAliases, nativeHeaderWithoutSupersets, nativeHeaderWithoutRIR, nativeHeaderWithoutLinks,
                                nativeHeader]

    /// The native `kind` of a row that is a bodyweight entry, not a set.
    static let bodyweightEntryKind = "bodyweight_entry"
    /// The `kind` of a native row that holds a routine.
    static let routineKind = "routine"

    static let strongHeader = [
        "Date", "Workout Name", "Exercise Name", "Set Order", "Weight", "Weight Unit", "Reps", "RPE", "Distance",
        "Distance Unit", "Seconds", "Notes", "Workout Notes", "Workout Duration",
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

    /// How Strong spells a distance unit in its `Distance Unit` column (`km`, `mi.`); Strong
    /// has no metres or yards, which are written as gymlog spells them so they read back.
    static func strongSpelling(_ unit: DistanceUnit) -> String {
        switch unit {
        case .mi: "mi."
        case .km, .m, .yd: unit.rawValue
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

    /// The field separator of this layout: `;` for Strong's, `,` for the others.
    public var delimiter: UInt8 { self == .strong ? UInt8(ascii: ";") : UInt8(ascii: ",") }

    /// A writer for this layout (its separator), with a 64 KiB buffer.
    public func makeWriter() -> CSVWriter { CSVWriter(delimiter: delimiter) }

    /// Writes the header row.
    public func appendHeader(to writer: inout CSVWriter, unit: WeightUnit) {
        writer.fields(header(unit: unit))
        if self == .strong { writer.endLine() } else { writer.endRow() }
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
        writer.emptyField()  // exercise_link
        writer.endRow()
    }

    /// Whether this layout carries bodyweight entries (and routines).
    public var carriesBodyweight: Bool { self == .native }

    /// Writes one routine; only the native layout has a place for it. `set_id` is the
    /// routine's id, `workout_name` its name, `workout_note` its text, `kind` is `routine`,
    /// `weight_unit` the unit its bare weights are in and `note` its `line_since`; every
    /// other field is empty.
    public func append(_ routine: RoutineRecord, to writer: inout CSVWriter) {
        guard self == .native else { return }
        writer.fieldUUID(routine.id)
        writer.emptyField()  // workout_id
        writer.textField(routine.name)
        writer.emptyField()  // workout_started_at
        writer.emptyField()  // workout_ended_at
        writer.textField(routine.text)
        for _ in 1...3 { writer.emptyField() }  // exercise_id, exercise, set_order
        for field in Self.setFields {
            switch field {
            case .kind: writer.field(Self.routineKind)
            case .weightUnit: if let unit = routine.unit { writer.field(unit.rawValue) } else { writer.emptyField() }
            case .note: writer.optionalTextField(routine.lineSince)
            default: writer.emptyField()
            }
        }
        for _ in 1...4 { writer.emptyField() }  // performed_at, exercise_aliases, superset_id, exercise_link
        writer.endRow()
    }

    static func appendNative(_ row: ExportRow, to w: inout CSVWriter) {
        let set = row.set, workout = row.workout
        w.fieldUUID(set.id)
        w.fieldUUID(workout.id)
        w.optionalTextField(workout.name)
        // Milliseconds, so sets logged within one second keep their order when read back.
        w.fieldISO8601(millis: workout.startedAt, utcOffsetSeconds: workout.utcOffsetSeconds, milliseconds: true)
        if let ended = workout.endedAt {
            w.fieldISO8601(millis: ended, utcOffsetSeconds: workout.utcOffsetSeconds, milliseconds: true)
        } else {
            w.emptyField()
        }
        w.optionalTextField(workout.note)
        w.fieldUUID(row.exercise.id)
        w.textField(row.exercise.name)
        w.fieldInt(row.setOrder)
        for field in setFields {
            switch set.values[field] {
            case .null: w.emptyField()
            // A note; the kind and the units never begin like a formula.
            case .text(let text): w.textField(text)
            case .int(let value): w.fieldInt(value)
            case .fixed(let value): w.fieldFixed(value)
            case .bool(let flag): w.field(flag ? "true" : "false")
            }
        }
        w.fieldISO8601(millis: set.performedAt, utcOffsetSeconds: set.utcOffsetSeconds, milliseconds: true)
        w.textField(encodeAliases(row.exerciseAliases))
        if let superset = set.supersetID { w.fieldUUID(superset) } else { w.emptyField() }
        w.field(row.exerciseLink.exportText)
        w.endRow()
    }

    static func appendStrong(_ row: ExportRow, to w: inout CSVWriter) {
        let v = row.set.values, workout = row.workout
        w.fieldLocalDateTime(millis: workout.startedAt, utcOffsetSeconds: workout.utcOffsetSeconds)
        if let name = workout.name, !name.isEmpty { w.quotedField(name) } else { w.quotedField(defaultWorkoutName) }
        w.quotedField(row.exercise.name)
        switch v.kind {
        case .working: w.fieldInt(row.workingSetNumber ?? row.setOrder)
        case .warmup: w.field("W")
        case .drop: w.field("D")
        case .failure: w.field("F")
        }
        if let weight = v.weight {
            w.fieldFixed(weight.value); w.field(strongSpelling(weight.unit))
        } else {
            w.emptyField(); w.emptyField()
        }
        w.optionalInt(v.reps)
        w.optionalFixed(v.rpe)
        if let distance = v.distance {
            w.fieldFixed(distance.value); w.field(strongSpelling(distance.unit))
        } else {
            w.emptyField(); w.emptyField()
        }
        w.fieldInt(v.durationSeconds ?? 0)
        // Strong quotes Notes on an exercise's first row and Workout Notes on the workout's
        // first, empty or not, and leaves both bare and empty elsewhere.
        if let note = v.note, !note.isEmpty {
            w.quotedField(note)
        } else if row.setOrder == 1 {
            w.quotedField("")
        } else {
            w.emptyField()
        }
        if row.firstOfWorkout { w.quotedField(workout.note ?? "") } else { w.emptyField() }
        w.fieldStrongDuration(from: workout.startedAt, to: workout.endedAt)
        w.endLine()
    }

    static func appendHevy(_ row: ExportRow, to w: inout CSVWriter, unit: WeightUnit) {
        let v = row.set.values, workout = row.workout
        if let name = workout.name, !name.isEmpty { w.textField(name) } else { w.field(defaultWorkoutName) }
        w.fieldHevyTime(millis: workout.startedAt, utcOffsetSeconds: workout.utcOffsetSeconds, seconds: row.startToTheSecond)
        if let ended = workout.endedAt {
            w.fieldHevyTime(millis: ended, utcOffsetSeconds: workout.utcOffsetSeconds)
        } else {
            w.emptyField()
        }
        w.optionalTextField(workout.note)
        w.textField(row.exercise.name)
        w.optionalInt(row.supersetNumber)
        w.optionalTextField(v.note)
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
