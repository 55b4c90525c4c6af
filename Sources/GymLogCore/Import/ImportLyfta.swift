import Foundation

/// Reads Lyfta's CSV: ` Title,Date,Duration,Exercise,"Superset id",Weight,Reps,Distance,Time,
/// "Set Type"` (the header starts with a space), one row per set, newest first. No unit is
/// written anywhere: weights are read in `--unit` (and distances in km, or miles with
/// `--unit lb`), and the summary says so. `Superset id` numbers a workout's supersets, as
/// Hevy's does; `Set Type` is `NORMAL_SET`, `WARMUP_SET`, `DROP_SET` or `FAILURE_SET`.
struct LyftaReader {
    let columns: ImportColumns

    static let table = ColumnTable(.lyfta, [
        ColumnRule(.workoutName, "Title", required: true),
        ColumnRule(.date, "Date", required: true),
        ColumnRule(.exercise, "Exercise", required: true),
        ColumnRule(.superset, "Superset id", required: true),
        ColumnRule(.setType, "Set Type", required: true),
        ColumnRule(.duration, "Duration"),
        ColumnRule(.weight, "Weight"),
        ColumnRule(.reps, "Reps"),
        ColumnRule(.distance, "Distance"),
        ColumnRule(.seconds, "Time"),
    ])

    init(header: [String]) throws {
        columns = try Self.table.find(in: header)
    }

    static func kind(_ text: String) -> SetKind? {
        var word = text.lowercased()
        if word.hasSuffix("_set") { word.removeLast(4) }
        switch word {
        case "", "normal", "working": return .working
        case "warmup", "warm_up", "warm-up": return .warmup
        case "drop", "dropset", "drop_set": return .drop
        case "failure": return .failure
        default: return nil
        }
    }

    func read(_ cursor: inout ImportCSVCursor, into a: inout WorkoutAssembler) throws {
        let weightFallback = a.options.weightUnit
        let distanceFallback: DistanceUnit = weightFallback == .lb ? .mi : .km
        try a.readRows(&cursor, columns: columns) { a, line, f in
            let dateText = f[.date]
            let instant = NativeReader.instant(dateText)?.millis
            guard let local = ImportValue.localDateTime(dateText) ?? instant else {
                throw ImportRowError("Date '\(dateText)' is not a date and time like 2024-01-31 10:15:00")
            }
            let exerciseName = a.exerciseName(cleanName(f[.exercise]), line: line, column: "Exercise")
            guard let kind = Self.kind(f[.setType]) else {
                throw ImportRowError("Set Type '\(f[.setType])' is not NORMAL_SET, WARMUP_SET, DROP_SET or FAILURE_SET")
            }
            let length = try ImportValue.seconds(f[.duration], column: "Duration")
            let w = try ImportValue.weight(f[.weight], unit: nil, assumed: &a.assumedWeightUnit, fallback: weightFallback)
            let r = try ImportValue.reps(f[.reps])
            let d = try ImportValue.distance(f[.distance], unit: nil, assumed: &a.assumedDistanceUnit, fallback: distanceFallback)
            let s = try ImportValue.seconds(f[.seconds], column: "Time")
            let set = try a.values(kind: kind, weight: w, reps: r, rpe: nil, duration: s, distance: d, note: nil,
                                   loadLeftBlank: f[.weight].isEmpty)
            let name = nonEmpty(f[.workoutName])
            let end: (Int64) -> Int64? = { start in length.map { start + Int64($0) * 1000 } }
            let wi = instant.map { a.workout(line: line, instant: $0, name: name, key: dateText + "|" + (name ?? ""), note: nil, endedAt: end) }
                ?? a.workout(line: line, local: local, name: name, note: nil, endedAt: end)
            a.addSet(set, line: line, exerciseName: exerciseName, superset: a.superset(f[.superset], in: wi), to: wi)
        }
    }
}
