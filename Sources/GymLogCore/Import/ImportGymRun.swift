import Foundation

/// Reads GymRun's CSV: semicolon-separated, one row per set,
/// `Date;Time;Routine;Exercise;Set;Weight;Reps;Duration;Distance;Para6;…;Para10;Note;Type;Book;Version1`.
/// The date is written in the phone's way (`29.04.2025`: `WrittenDate`, day or month first as
/// the file settles), the set's time apart (`12:05:00`). The sets of one date and routine are
/// one workout, starting at its first set and each set at its own time, as GymBook's are.
/// No unit is written: weights are read in `--unit` and distances in km (miles with
/// `--unit lb`), and said; decimals may have a comma. The extra parameters, the type, the book
/// and the version have no field in gymlog and are left out.
struct GymRunReader {
    let columns: ImportColumns
    let decimalComma: Bool
    let dateOrder: DateOrder?

    static let table = ColumnTable(.gymrun, [
        ColumnRule(.date, "Date", required: true),
        ColumnRule(.setTime, "Time", required: true),
        ColumnRule(.exercise, "Exercise", required: true),
        ColumnRule(.setOrder, "Set", required: true),
        ColumnRule(.reps, "Reps", required: true),
        ColumnRule(.workoutName, "Routine"),
        ColumnRule(.weight, "Weight", measure: .weight),
        ColumnRule(.seconds, "Duration"),
        ColumnRule(.distance, "Distance", measure: .distance),
        ColumnRule(.notes, "Note", "Notes"),
    ])

    /// GymRun's columns in the order it writes them.
    static let englishHeader = ["Date", "Time", "Routine", "Exercise", "Set", "Weight", "Reps", "Duration", "Distance",
                                "Para6", "Para7", "Para8", "Para9", "Para10", "Note", "Type", "Book", "Version1"]

    /// GymRun's rows by their shape: a date, a time of day, the exercise fourth, a set number
    /// fifth, numbers for the weight, reps and distance.
    static let shape = LayoutShape(source: .gymrun, header: englishHeader,
                                   cells: [.date, .time, .any, .text, .setNumber, .number, .number, .any, .number]
                                       + Array(repeating: .any, count: 9),
                                   described: "a date, a time of day, a set number, numbers")

    init(header: [String], delimiter: Character, dateOrder: DateOrder?) throws {
        columns = try Self.table.find(in: header)
        decimalComma = delimiter == ";"
        self.dateOrder = dateOrder
    }

    func read(_ cursor: inout ImportCSVCursor, into a: inout WorkoutAssembler) throws {
        let weightFallback = a.options.weightUnit
        let distanceFallback: DistanceUnit = weightFallback == .lb ? .mi : .km
        let weightUnit = columns.weightUnit(), distanceUnit = columns.distanceUnit()
        try a.readRows(&cursor, columns: columns) { a, line, f in
            let dateText = f[.date]
            guard let date = WrittenDate.read(dateText), date.clock == nil, let day = date.local(order: dateOrder) else {
                throw ImportRowError("Date '\(dateText)' is not a date like \(dateOrder == .mdy ? "04/29/2025" : "29.04.2025")")
            }
            let clock = try ImportValue.optionalTime(f[.setTime], column: "Time", like: "12:05:00") { ImportValue.clock($0).map(Int64.init) }
            let exerciseName = a.exerciseName(cleanName(f.text(.exercise)), line: line, column: "Exercise")
            let order = f[.setOrder]
            if !order.isEmpty && ImportValue.count(order) == nil { throw ImportRowError("Set '\(order)' is not a whole number") }
            let w = try ImportValue.weight(f[.weight], unit: weightUnit, decimalComma: decimalComma, assumed: &a.assumedWeightUnit,
                                           fallback: weightFallback)
            let r = try ImportValue.reps(f[.reps])
            let s = try ImportValue.seconds(f[.seconds], column: "Duration")
            let d = try ImportValue.distance(f[.distance], unit: distanceUnit, decimalComma: decimalComma,
                                             assumed: &a.assumedDistanceUnit, fallback: distanceFallback)
            let note = nonEmpty(f.untrimmed(.notes))
            let set = try a.values(kind: .working, weight: w, reps: r, rpe: nil, duration: s, distance: d, note: note,
                                   loadLeftBlank: f[.weight].isEmpty)
            let name = nonEmpty(f.text(.workoutName))
            let local = day + (clock ?? 12 * 3600) * 1000
            let wi = a.workout(line: line, local: local, name: name, key: "\(day)|\(name ?? "")", note: nil) { _ in nil }
            a.addSet(set, note: note, line: line, exerciseName: exerciseName, at: clock.map { _ in a.instant(local: local).millis }, to: wi)
        }
    }
}
