import Foundation

/// Reads FitNotes' CSV: `Date,Exercise,Category,...` with `Weight (kgs)` / `Weight (lbs)`
/// or `Weight` plus a `Weight Unit` column of `kgs`/`lbs`, `Time` as `H:MM:SS`, an optional
/// `Comment`. FitNotes does not quote exercise names, so a name with commas spills into
/// extra fields: the columns after the name are anchored from the right.
///
/// FitNotes records days, not times: each day is one workout starting at 12:00 local time,
/// its sets a minute apart.
struct FitNotesReader {
    let header: [String]
    let weight, weightUnitColumn, reps, distance, distanceUnitColumn, time, comment: Int?
    let headerWeightUnit: WeightUnit?
    let headerDistanceUnit: DistanceUnit?

    init(header: [String]) throws {
        self.header = header
        let c = ImportColumns(header)
        _ = try c.required("Date", in: .fitnotes)
        _ = try c.required("Exercise", in: .fitnotes)
        (weight, headerWeightUnit) = c.measured("weight", unit: WeightUnit.init(importSpelling:))
        (distance, headerDistanceUnit) = c.measured("distance", unit: DistanceUnit.init(importSpelling:))
        weightUnitColumn = c.index("weight unit")
        reps = c.index("reps")
        distanceUnitColumn = c.index("distance unit")
        time = c.index("time")
        comment = c.index("comment")
    }

    func read(_ cursor: inout ImportCSVCursor, into a: inout WorkoutAssembler) throws {
        let weightFallback = a.options.weightUnit
        let delimiter = String(cursor.delimiterCharacter)
        try a.readRows(&cursor, fieldCount: header.count, extraFields: true) { a, line, raw in
            // Fields beyond the header's count belong to the exercise name (column 1).
            let extra = raw.count - header.count
            var f = raw
            if extra > 0 {
                f = [raw[0], raw[1...(1 + extra)].joined(separator: delimiter)] + raw[(2 + extra)...]
            }
            let dateText = f.field(0)
            guard let day = parseDay(dateText) else { throw ImportRowError("Date '\(dateText)' is not a date like 2025-09-15") }
            let exerciseName = cleanName(f.field(1))
            guard !exerciseName.isEmpty else { throw ImportRowError("Exercise is empty") }
            let w = try ImportValue.weight(f.field(weight), unit: headerWeightUnit, unitText: f.field(weightUnitColumn),
                                           assumed: &a.assumedWeightUnit, fallback: weightFallback)
            let r = try ImportValue.reps(f.field(reps))
            let d = try ImportValue.distance(f.field(distance), unit: headerDistanceUnit, unitText: f.field(distanceUnitColumn),
                                             assumed: &a.assumedDistanceUnit, fallback: .km)
            let s = try ImportValue.seconds(f.field(time), column: "Time")
            let set = try a.values(kind: .working, weight: w, reps: r, rpe: nil, duration: s, distance: d,
                                   note: nonEmpty(f.field(comment)), loadLeftBlank: f.field(weight).isEmpty)

            let local = epochMillis(year: day.year, month: day.month, day: day.day, utcOffsetSeconds: 0) + 12 * 3_600_000
            let wi = a.workout(line: line, local: local, name: nil, key: dateText, note: nil) { _ in nil }
            a.addSet(set, note: nonEmpty(f.field(comment)), line: line, exerciseName: exerciseName, to: wi)
        }
    }
}
