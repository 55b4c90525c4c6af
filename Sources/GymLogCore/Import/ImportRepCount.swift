import Foundation

/// Reads RepCount's CSV: semicolon-separated, one row per set, headers in the app's language
/// (Swedish `Starttid;Sluttid;Övning;Vikt;Reps;Anteckningar;Kcal;Distans;Tid;Kategori;Namn;
/// Kroppsvikt`, or English): the workout's start and end on every row, exercise, weight, reps,
/// notes, kcal, distance in km, time in seconds, category, workout name and the lifter's
/// bodyweight. Decimals may be written with a comma. No unit is written: weights are read in
/// `--unit`, and said. Each workout's bodyweight goes to the bodyweight log, one entry at
/// the workout's start (its id derived from the start and the weight, so a re-import adds
/// nothing); kcal, which gymlog has no field for, goes into the set's note.
struct RepCountReader {
    let columns: ImportColumns
    let decimalComma: Bool

    static let table = ColumnTable(.repcount, [
        ColumnRule(.start, "Starttid", "start time", "start", required: true),
        ColumnRule(.exercise, "Övning", "exercise", required: true),
        ColumnRule(.bodyweight, "Kroppsvikt", "bodyweight", "body weight", required: true),
        ColumnRule(.end, "Sluttid", "end time", "end"),
        ColumnRule(.weight, "Vikt", "weight"),
        ColumnRule(.reps, "Reps", "repetitioner"),
        ColumnRule(.notes, "Anteckningar", "notes"),
        ColumnRule(.kcal, "Kcal"),
        ColumnRule(.distance, "Distans", "distance"),
        ColumnRule(.seconds, "Tid", "time"),
        ColumnRule(.category, "Kategori", "category"),
        ColumnRule(.workoutName, "Namn", "name"),
    ])

    init(header: [String], delimiter: Character) throws {
        columns = try Self.table.find(in: header)
        decimalComma = delimiter == ";"
    }

    func read(_ cursor: inout ImportCSVCursor, into a: inout WorkoutAssembler) throws {
        let fallback = a.options.weightUnit
        var lastBodyweight = ""
        try a.readRows(&cursor, columns: columns) { a, line, f in
            let startText = f[.start]
            guard let local = ImportValue.localDateTime(startText) else {
                throw ImportRowError("Starttid '\(startText)' is not a date and time like 2024-01-31 10:15:00")
            }
            let localEnd = try ImportValue.optionalTime(f[.end], column: "Sluttid", like: "2024-01-31 11:15:00") {
                ImportValue.localDateTime($0)
            }
            let exerciseName = a.exerciseName(cleanName(f[.exercise]), line: line, column: "Övning", category: f[.category])
            let w = try ImportValue.weight(f[.weight], unit: nil, decimalComma: decimalComma, assumed: &a.assumedWeightUnit, fallback: fallback)
            let r = try ImportValue.reps(f[.reps])
            var km: DistanceUnit?
            let d = try ImportValue.distance(f[.distance], unit: .km, decimalComma: decimalComma, assumed: &km, fallback: .km)
            let s = try ImportValue.wholeSeconds(f[.seconds].replacingOccurrences(of: ",", with: "."), column: "Tid")
            let bodyweight = try ImportValue.weight(f[.bodyweight], unit: nil, decimalComma: decimalComma, assumed: &a.assumedWeightUnit,
                                                    fallback: fallback, column: "Kroppsvikt")
            var note = nonEmpty(f.untrimmed(.notes))
            if let kcal = ImportValue.number(f[.kcal], decimalComma: decimalComma), !kcal.isZero {
                note = [note, "\(kcal) kcal"].compactMap { $0 }.joined(separator: "; ")
            }
            let set = try a.values(kind: .working, weight: w, reps: r, rpe: nil, duration: s, distance: d, note: note,
                                   loadLeftBlank: f[.weight].isEmpty)
            let name = nonEmpty(f[.workoutName])
            let wi = a.workout(line: line, local: local, name: name, note: nil) { startedAt in
                localEnd.flatMap { $0 > local ? startedAt + ($0 - local) : nil }
            }
            // Every row repeats the bodyweight: one entry a workout (its rows come together).
            let key = startText + "|" + f[.bodyweight]
            if let bodyweight, key != lastBodyweight {
                lastBodyweight = key
                a.addBodyweight(bodyweight, local: local)
            }
            a.addSet(set, note: note, line: line, exerciseName: exerciseName, to: wi)
        }
    }
}
