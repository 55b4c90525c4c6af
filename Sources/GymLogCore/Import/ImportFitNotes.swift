import Foundation

/// Reads FitNotes' CSV: `Date,Exercise,Category,...` with `Weight (kgs)` / `Weight (lbs)`
/// or `Weight` plus a `Weight Unit` column of `kgs`/`lbs`, `Time` as `H:MM:SS`, an optional
/// `Comment`. FitNotes does not quote exercise names, so a name with commas spills into
/// extra fields: the columns after the name are anchored from the right.
///
/// FitNotes records days, not times: each day is one workout starting at 12:00 local time,
/// its sets a minute apart.
struct FitNotesReader {
    let columns: ImportColumns

    static let table = ColumnTable(.fitnotes, [
        ColumnRule(.date, "Date", required: true),
        ColumnRule(.exercise, "Exercise", required: true),
        ColumnRule(.category, "Category", required: true),
        ColumnRule(.weight, "weight", measure: .weight),
        ColumnRule(.weightUnit, "weight unit"),
        ColumnRule(.reps, "reps"),
        ColumnRule(.distance, "distance", measure: .distance),
        ColumnRule(.distanceUnit, "distance unit"),
        ColumnRule(.seconds, "time"),
        ColumnRule(.notes, "comment"),
    ])

    init(header: [String]) throws {
        columns = try Self.table.find(in: header)
    }

    func read(_ cursor: inout ImportCSVCursor, into a: inout WorkoutAssembler) throws {
        let weightFallback = a.options.weightUnit
        let weightUnit = columns.weightUnit(), distanceUnit = columns.distanceUnit()
        try a.readRows(&cursor, columns: columns, spillInto: .exercise) { a, line, f in
            let dateText = f[.date]
            guard let day = parseDay(dateText) else { throw ImportRowError("Date '\(dateText)' is not a date like 2025-09-15") }
            let exerciseName = a.exerciseName(cleanName(f[.exercise]), line: line, column: "Exercise", category: f[.category])
            let w = try ImportValue.weight(f[.weight], unit: weightUnit, unitText: f[.weightUnit],
                                           assumed: &a.assumedWeightUnit, fallback: weightFallback)
            let r = try ImportValue.reps(f[.reps])
            let d = try ImportValue.distance(f[.distance], unit: distanceUnit, unitText: f[.distanceUnit],
                                             assumed: &a.assumedDistanceUnit, fallback: .km)
            let s = try ImportValue.seconds(f[.seconds], column: "Time")
            let set = try a.values(kind: .working, weight: w, reps: r, rpe: nil, duration: s, distance: d,
                                   note: nonEmpty(f[.notes]), loadLeftBlank: f[.weight].isEmpty)

            let local = epochMillis(year: day.year, month: day.month, day: day.day, utcOffsetSeconds: 0) + ImportValue.dayOnlyStart
            let wi = a.workout(line: line, local: local, name: nil, key: dateText, note: nil) { _ in nil }
            a.addSet(set, note: nonEmpty(f[.notes]), line: line, exerciseName: exerciseName, to: wi)
        }
    }
}
