import Foundation

/// Reads Hevy's workout CSV: one row per set under the quoted header
/// `"title","start_time","end_time","description","exercise_title","superset_id",...`,
/// loads in `weight_kg` or `weight_lbs` and distances in `distance_km` or `distance_miles`
/// (chosen independently), times like `15 Sep 2025, 07:48`, a 0-based `set_index`, a
/// `set_type` of normal, warmup, failure or dropset, and blank or 0 for a missing number.
/// `superset_id` numbers a workout's supersets (0, 1, ...): rows of one workout with the same
/// number are one superset, blank is a set done on its own. Names and notes are read as typed
/// text (`ImportRow.text`): the `'` a gymlog export puts before a formula is dropped.
struct HevyReader {
    let columns: ImportColumns
    let weightColumn: String
    let weightUnit: WeightUnit
    let distanceUnit: DistanceUnit
    /// The file's day-month order for dates written as numbers alone (`ImportParser.dateOrder`).
    let dateOrder: DateOrder?

    static let table = ColumnTable(.hevy, [
        ColumnRule(.workoutName, "title", required: true),
        ColumnRule(.start, "start_time", required: true),
        ColumnRule(.exercise, "exercise_title", required: true),
        ColumnRule(.end, "end_time"),
        ColumnRule(.workoutNotes, "description"),
        ColumnRule(.exerciseNotes, "exercise_notes"),
        ColumnRule(.setOrder, "set_index"),
        ColumnRule(.setType, "set_type"),
        ColumnRule(.superset, "superset_id"),
        ColumnRule(.reps, "reps"),
        ColumnRule(.seconds, "duration_seconds"),
        ColumnRule(.rpe, "rpe"),
        // The unit is in the name: weight_kg or weight_lbs, distance_km, _miles or _meters.
        ColumnRule(.weight, "weight_lbs", "weight_lb", "weight_kg"),
        ColumnRule(.distance, "distance_miles", "distance_mi", "distance_meters", "distance_m", "distance_km"),
    ])

    /// Hevy's columns in the order it writes them.
    static let englishHeader = ["title", "start_time", "end_time", "description", "exercise_title", "superset_id", "exercise_notes",
                                "set_index", "set_type", "weight_kg", "reps", "distance_km", "duration_seconds", "rpe"]

    /// Hevy's rows by their shape: a title, a start and an end, the exercise fifth, a set
    /// index eighth, numbers where Hevy writes numbers.
    static let shape = LayoutShape(source: .hevy, header: englishHeader,
                                   cells: [.any, .date, .optionalDate, .any, .text, .count, .any, .setNumber, .any,
                                           .number, .number, .number, .number, .number],
                                   described: "a start and an end time, a set index, numbers")

    /// The English header for a header of unknown words in Hevy's order: the weight and
    /// distance columns keep the unit their own name writes (`waga_lbs`, `mesafe_miles`).
    static func englishNames(_ original: [String]) -> [String] {
        var english = englishHeader
        let names = ColumnTable.names(original)
        if names[9].contains("lb") { english[9] = "weight_lbs" }
        if names[11].contains("mile") || names[11].hasSuffix("_mi") { english[11] = "distance_miles" }
        else if names[11].contains("meter") || names[11].contains("metre") || names[11].hasSuffix("_m") { english[11] = "distance_meters" }
        return english
    }

    init(header: [String], dateOrder: DateOrder? = nil) throws {
        self.dateOrder = dateOrder
        columns = try Self.table.find(in: header)
        weightColumn = columns.names[.weight] ?? "weight_kg"
        weightUnit = weightColumn.hasPrefix("weight_lb") ? .lb : .kg
        switch columns.names[.distance] {
        case "distance_miles", "distance_mi": distanceUnit = .mi
        case "distance_meters", "distance_m": distanceUnit = .m
        default: distanceUnit = .km
        }
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `15 Sep 2025, 07:48` or `5 Sep 2025, 7:48` (also ISO `2025-09-15 07:48:00`, and any
    /// locale's way, `WrittenDate`, in `order`) as wall-clock milliseconds (as if UTC).
    static func time(_ text: String, order: DateOrder? = nil) -> Int64? {
        if let english = englishTime(text) { return english }
        if let iso = ImportValue.localDateTime(text) { return iso }
        // Hevy writes a time with every date: a date alone is not its.
        guard let date = WrittenDate.read(text), date.clock != nil else { return nil }
        return date.local(order: order)
    }

    /// The English form Hevy has always written, read without the locale data.
    static func englishTime(_ text: String) -> Int64? {
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
        try a.readRows(&cursor, columns: columns) { a, line, f in
            let startText = f[.start]
            guard let local = Self.time(startText, order: dateOrder) else {
                throw ImportRowError("start_time '\(startText)' is not a time like 15 Sep 2025, 07:48"
                                     + (dateOrder.map { " or \($0.example)" } ?? ""))
            }
            let localEnd = try ImportValue.optionalTime(f[.end], column: "end_time", like: "15 Sep 2025, 08:55") {
                Self.time($0, order: dateOrder)
            }
            let exerciseName = a.exerciseName(cleanName(f.text(.exercise)), line: line, column: "exercise_title")
            let typeText = f[.setType]
            guard let kind = Self.kind(typeText) else {
                throw ImportRowError("set_type '\(typeText)' is not normal, warmup, failure or dropset")
            }
            let indexText = f[.setOrder]
            if !indexText.isEmpty && ImportValue.count(indexText) == nil {
                throw ImportRowError("set_index '\(indexText)' is not a whole number")
            }
            // A comma in a number is a decimal one: Hevy writes no thousands separator.
            let w = try ImportValue.weight(f[.weight], unit: weightUnit, decimalComma: true, assumed: &assumedWeight,
                                           fallback: weightUnit, column: weightColumn)
            let r = try ImportValue.reps(f[.reps], column: "reps")
            let e = try ImportValue.rpe(f[.rpe], decimalComma: true).get()
            let d = try ImportValue.distance(f[.distance], unit: distanceUnit, decimalComma: true, assumed: &assumedDistance,
                                             fallback: distanceUnit)
            let s = try ImportValue.seconds(f[.seconds], column: "duration_seconds")
            let set = try a.values(kind: kind, weight: w, reps: r, rpe: e, duration: s, distance: d, note: nil,
                                   loadLeftBlank: f[.weight].isEmpty)

            let name = nonEmpty(f.text(.workoutName))
            let wi = a.workout(line: line, local: local, name: name, note: nonEmpty(f.text(.workoutNotes))) { startedAt in
                localEnd.flatMap { $0 > local ? startedAt + ($0 - local) : nil }
            }
            if let text = nonEmpty(f.text(.exerciseNotes)) { a.addNote("\(exerciseName): \(text)", to: wi) }
            a.addSet(set, line: line, exerciseName: exerciseName, superset: a.superset(f[.superset], in: wi), to: wi)
        }
    }
}
