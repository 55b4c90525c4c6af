import Foundation

/// Reads Hevy's workout CSV: one row per set under the quoted header
/// `"title","start_time","end_time","description","exercise_title","superset_id",...`,
/// loads in `weight_kg` or `weight_lbs` and distances in `distance_km` or `distance_miles`
/// (chosen independently), times like `15 Sep 2025, 07:48`, a 0-based `set_index`, a
/// `set_type` of normal, warmup, failure or dropset, and blank or 0 for a missing number.
/// `superset_id` numbers a workout's supersets (0, 1, ...): rows of one workout with the same
/// number are one superset, blank is a set done on its own.
struct HevyReader {
    let header: [String]
    let title, start, end, description, exercise, exerciseNotes, setIndex, setType, superset: Int?
    let weight, reps, distance, duration, rpe: Int?
    let weightUnit: WeightUnit
    let distanceUnit: DistanceUnit

    init(header: [String]) throws {
        self.header = header
        let c = ImportColumns(header)
        title = try c.required("title", in: .hevy)
        start = try c.required("start_time", in: .hevy)
        exercise = try c.required("exercise_title", in: .hevy)
        end = c.index("end_time")
        description = c.index("description")
        exerciseNotes = c.index("exercise_notes")
        setIndex = c.index("set_index")
        setType = c.index("set_type")
        superset = c.index("superset_id")
        reps = c.index("reps")
        duration = c.index("duration_seconds")
        rpe = c.index("rpe")
        if let i = c.index("weight_lbs", "weight_lb") { weight = i; weightUnit = .lb } else { weight = c.index("weight_kg"); weightUnit = .kg }
        if let i = c.index("distance_miles", "distance_mi") { distance = i; distanceUnit = .mi }
        else if let i = c.index("distance_meters", "distance_m") { distance = i; distanceUnit = .m }
        else { distance = c.index("distance_km"); distanceUnit = .km }
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `15 Sep 2025, 07:48` or `5 Sep 2025, 7:48` (also ISO `2025-09-15 07:48:00`) as
    /// wall-clock milliseconds (as if UTC).
    static func time(_ text: String) -> Int64? {
        if let iso = ImportValue.localDateTime(text) { return iso }
        let parts = text.split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2 else { return nil }
        let date = parts[0].split(separator: " ")
        guard date.count == 3, let day = Int(date[0]), let year = Int(date[2]), (1...9999).contains(year),
              let m = months.firstIndex(of: String(date[1].prefix(3)).lowercased()),
              date[1].count == 3 || date[1].lowercased().hasPrefix(months[m]),
              day >= 1, day <= daysInMonth(year: year, month: m + 1),
              let clock = ImportValue.timeOfDay(parts[1]) else { return nil }
        return epochMillis(year: year, month: m + 1, day: day, utcOffsetSeconds: 0) + Int64(clock) * 1000
    }

    static func kind(_ text: String) -> SetKind? {
        switch text.lowercased() {
        case "", "normal": .working
        case "warmup", "warm_up", "warm-up": .warmup
        case "failure": .failure
        case "dropset", "drop_set", "drop": .drop
        default: nil
        }
    }

    func read(_ cursor: inout ImportCSVCursor, into a: inout WorkoutAssembler) throws {
        var assumedDistance: DistanceUnit?, assumedWeight: WeightUnit?
        try a.readRows(&cursor, fieldCount: header.count) { a, line, f in
            let startText = f.field(start)
            guard let local = Self.time(startText) else {
                throw ImportRowError("start_time '\(startText)' is not a time like 15 Sep 2025, 07:48")
            }
            let endText = f.field(end)
            var localEnd: Int64?
            if !endText.isEmpty {
                guard let t = Self.time(endText) else { throw ImportRowError("end_time '\(endText)' is not a time like 15 Sep 2025, 08:55") }
                localEnd = t
            }
            let exerciseName = cleanName(f.field(exercise))
            guard !exerciseName.isEmpty else { throw ImportRowError("exercise_title is empty") }
            let typeText = f.field(setType)
            guard let kind = Self.kind(typeText) else {
                throw ImportRowError("set_type '\(typeText)' is not normal, warmup, failure or dropset")
            }
            let indexText = f.field(setIndex)
            if !indexText.isEmpty && ImportValue.count(indexText) == nil {
                throw ImportRowError("set_index '\(indexText)' is not a whole number")
            }
            let w = try ImportValue.weight(f.field(weight), unit: weightUnit, assumed: &assumedWeight, fallback: weightUnit,
                                           column: weight.map { header[$0] } ?? "weight")
            let r = try ImportValue.reps(f.field(reps), column: "reps")
            let e = try ImportValue.rpe(f.field(rpe)).get()
            let d = try ImportValue.distance(f.field(distance), unit: distanceUnit, assumed: &assumedDistance, fallback: distanceUnit)
            let s = try ImportValue.seconds(f.field(duration), column: "duration_seconds")
            let set = try a.values(kind: kind, weight: w, reps: r, rpe: e, duration: s, distance: d, note: nil,
                                   loadLeftBlank: f.field(weight).isEmpty)

            let name = nonEmpty(f.field(title))
            let wi = a.workout(line: line, local: local, name: name, note: nonEmpty(f.field(description))) { startedAt in
                localEnd.flatMap { $0 > local ? startedAt + ($0 - local) : nil }
            }
            if let text = nonEmpty(f.field(exerciseNotes)) { a.addNote("\(exerciseName): \(text)", to: wi) }
            a.addSet(set, line: line, exerciseName: exerciseName, superset: a.superset(f.field(superset), in: wi), to: wi)
        }
    }
}
