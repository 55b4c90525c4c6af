import Foundation

/// Reads Strong's CSV exports in every layout seen over the years: comma or semicolon
/// separated (semicolon files may write `102,5`), with or without `Duration`, `RPE` and
/// `Workout Notes`, a per-row `Weight Unit` / `Distance Unit` or units in the header
/// (`Weight (kg)`, `Distance (meters)`) or none at all (then the assumed unit), and
/// `Set Order` as a number, `W`/`D`/`F`, `WARM_UP`/`FAILURE`, `Rest Timer` or `Note`.
struct StrongReader {
    let header: [String]
    let decimalComma: Bool
    let date, workoutName, duration, exercise, setOrder: Int?
    let weight, weightUnitColumn, reps, rpe, distance, distanceUnitColumn, seconds, notes, workoutNotes: Int?
    let headerWeightUnit: WeightUnit?
    let headerDistanceUnit: DistanceUnit?

    init(header: [String], delimiter: Character) throws {
        self.header = header
        decimalComma = delimiter == ";"
        let c = ImportColumns(header)
        date = try c.required("Date", in: .strong)
        exercise = try c.required("Exercise Name", in: .strong)
        setOrder = try c.required("Set Order", in: .strong)
        workoutName = c.index("workout name")
        duration = c.index("duration", "workout duration", "duration (sec)", "duration (seconds)", "duration (s)")
        reps = c.index("reps")
        rpe = c.index("rpe")
        seconds = c.index("seconds")
        notes = c.index("notes")
        workoutNotes = c.index("workout notes")
        weightUnitColumn = c.index("weight unit")
        distanceUnitColumn = c.index("distance unit")
        (weight, headerWeightUnit) = c.measured("weight", unit: WeightUnit.init(importSpelling:))
        (distance, headerDistanceUnit) = c.measured("distance", unit: DistanceUnit.init(importSpelling:))
    }

    enum RowKind { case set(SetKind), restTimer, note }

    /// How long a workout lasted, in milliseconds, from its written duration (`1h 5m`, `55s`,
    /// `4680`); nil when none is written. Strong cuts a duration down to what it shows, so a
    /// zero one (`0s`: a workout logged without its timer, or one gymlog exported with no end)
    /// lasted under a second: the workout ends within the second it started, its sets in
    /// order inside it, and it exports as `0s` again. Read as no duration, its sets would be
    /// spread a minute apart and it would come back as long as they are.
    static func workoutLength(_ text: String) throws -> Int64? {
        guard !text.isEmpty else { return nil }
        guard let seconds = try ImportValue.seconds(text, column: "Duration") else { return 999 }
        return Int64(seconds) * 1000
    }

    static func rowKind(_ text: String) -> RowKind? {
        switch text.lowercased() {
        case "", "n", "normal": return .set(.working)
        case "w", "warm_up", "warmup", "warm-up", "warm up": return .set(.warmup)
        case "d", "drop", "dropset", "drop_set", "drop set": return .set(.drop)
        case "f", "failure": return .set(.failure)
        case "rest timer", "rest_timer", "resttimer": return .restTimer
        case "note", "notes": return .note
        default: return ImportValue.count(text) != nil ? .set(.working) : nil
        }
    }

    func read(_ cursor: inout ImportCSVCursor, into a: inout WorkoutAssembler) throws {
        let weightFallback = a.options.weightUnit
        let distanceFallback: DistanceUnit = weightFallback == .lb ? .mi : .km
        try a.readRows(&cursor, fieldCount: header.count) { a, line, f in
            let dateText = f.field(date)
            guard let local = ImportValue.localDateTime(dateText) else {
                throw ImportRowError("Date '\(dateText)' is not a date and time like 2024-01-31 10:15:00")
            }
            let exerciseName = cleanName(f.field(exercise))
            guard !exerciseName.isEmpty else { throw ImportRowError("Exercise Name is empty") }
            let orderText = f.field(setOrder)
            guard let kind = Self.rowKind(orderText) else {
                throw ImportRowError("Set Order '\(orderText)' is not a set number, W, D, F, Rest Timer or Note")
            }
            let workoutMillis = try Self.workoutLength(f.field(duration))
            let name = nonEmpty(f.field(workoutName))
            let workoutNote = noteAsWritten(f.untrimmedField(workoutNotes))
            // Every row carries its workout's columns, so a row is checked whole before
            // its workout is made.
            var set: RowSet?
            switch kind {
            case .restTimer:
                break
            case .note:
                break
            case .set(let setKind):
                let w = try ImportValue.weight(f.field(weight), unit: headerWeightUnit, unitText: f.field(weightUnitColumn),
                                               decimalComma: decimalComma, assumed: &a.assumedWeightUnit, fallback: weightFallback)
                let r = try ImportValue.reps(f.field(reps))
                let e = try ImportValue.rpe(f.field(rpe), decimalComma: decimalComma).get()
                let d = try ImportValue.distance(f.field(distance), unit: headerDistanceUnit,
                                                 unitText: f.field(distanceUnitColumn), decimalComma: decimalComma,
                                                 assumed: &a.assumedDistanceUnit, fallback: distanceFallback)
                let s = try ImportValue.seconds(f.field(seconds), column: "Seconds")
                set = try a.values(kind: setKind, weight: w, reps: r, rpe: e, duration: s, distance: d,
                                   note: noteAsWritten(f.untrimmedField(notes)), loadLeftBlank: f.field(weight).isEmpty)
            }
            let w = a.workout(line: line, local: local, name: name, note: workoutNote) { start in
                workoutMillis.map { start + $0 }
            }
            a.keepNote(workoutNote, of: w)
            switch kind {
            case .restTimer:
                a.ignore(line, .restTimer)
            case .note:
                if let text = nonEmpty(f.field(notes)) {
                    a.addNote("\(exerciseName): \(text)", to: w)
                } else {
                    a.ignore(line, .emptyNote)
                }
            case .set:
                a.addSet(set, note: nonEmpty(f.field(notes)), line: line, exerciseName: exerciseName, to: w)
            }
        }
    }
}
