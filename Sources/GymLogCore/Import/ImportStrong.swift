import Foundation

/// Reads Strong's CSV exports in every layout seen over the years: comma or semicolon
/// separated (semicolon files may write `102,5`), with or without `Duration`, `RPE` and
/// `Workout Notes`, a per-row `Weight Unit` / `Distance Unit` or units in the header
/// (`Weight (kg)`, `Distance (meters)`) or none at all (then the assumed unit), and
/// `Set Order` as a number (0-based in 2016), `W`/`D`/`F`, `WARM_UP`/`FAILURE`, `Rest Timer`
/// (`Ruhezeit`, `Temporizador de descanso`, `Minuteur de repos`) or `Note`. Headers come in
/// English, German, Spanish and French (`table`); the 2016 layout names the unit as the
/// column (`kg`, `km`); a spreadsheet's re-save writes `DD/MM/YYYY HH:MM`, read in the
/// order `ImportParser.dateOrder` settled for the file. Names and notes are read as
/// typed text (`ImportRow.text`): the `'` a gymlog export puts before a formula is dropped.
struct StrongReader {
    let columns: ImportColumns
    let decimalComma: Bool
    /// The file's day-month order when its dates are a spreadsheet's re-save (`DD/MM/YYYY HH:MM`).
    let dateOrder: DateOrder?

    /// Strong's columns in every language and age: English, German, Spanish and French
    /// headers; `Weight (kg)`, a per-row `Weight Unit`, or (2016) a column named `kg` or `lbs`.
    static let table = ColumnTable(.strong, [
        ColumnRule(.date, "Date", "datum", "fecha", required: true),
        ColumnRule(.exercise, "Exercise Name", "übungsname", "name der übung", "nombre del ejercicio", "nom de l'exercice",
                   "nom de l’exercice", required: true),
        ColumnRule(.setOrder, "Set Order", "satzreihenfolge", "satz-reihenfolge", "reihenfolge der sätze", "orden de la serie",
                   "orden de series", "ordre des séries", "ordre de la série", required: true),
        ColumnRule(.workoutName, "workout name", "workout-name", "trainingsname", "nombre del entrenamiento",
                   "nombre de entrenamiento", "nom de l'entraînement", "nom de l’entraînement", "nom de la séance"),
        ColumnRule(.duration, "duration", "workout duration", "duration (sec)", "duration (seconds)", "duration (s)",
                   "dauer", "trainingsdauer", "duración", "durée"),
        ColumnRule(.weight, "weight", "gewicht", "peso", "poids", measure: .weight, unitAlone: true),
        ColumnRule(.weightUnit, "weight unit", "gewichtseinheit", "unidad de peso", "unité de poids"),
        ColumnRule(.reps, "reps", "wiederholungen", "wdh", "repeticiones", "rep.", "répétitions", "reps."),
        ColumnRule(.rpe, "rpe"),
        ColumnRule(.distance, "distance", "distanz", "entfernung", "distancia", measure: .distance, unitAlone: true),
        ColumnRule(.distanceUnit, "distance unit", "distanzeinheit", "entfernungseinheit", "unidad de distancia", "unité de distance"),
        ColumnRule(.seconds, "seconds", "sekunden", "segundos", "secondes"),
        ColumnRule(.notes, "notes", "notizen", "notas", "remarques"),
        ColumnRule(.workoutNotes, "workout notes", "workout-notizen", "trainingsnotizen", "notas del entrenamiento",
                   "notes d'entraînement", "notes d’entraînement", "notes de la séance"),
    ])

    init(header: [String], delimiter: Character, dateOrder: DateOrder?) throws {
        columns = try Self.table.find(in: header)
        decimalComma = delimiter == ";"
        self.dateOrder = dateOrder
    }

    enum RowKind { case set(SetKind), restTimer, note }

    /// Strong's columns in the order every UI language writes them; only their names are translated.
    static let englishHeader = ["Date", "Workout Name", "Duration", "Exercise Name", "Set Order", "Weight", "Reps", "Distance",
                                "Seconds", "Notes", "Workout Notes", "RPE"]

    /// Strong's rows by their shape, for a header whose words name no app: a date and time
    /// first, the exercise fourth, a set order fifth (a number, or a word: a translated rest
    /// timer or note), numbers where Strong writes numbers.
    static let shape = LayoutShape(source: .strong, header: englishHeader,
                                   cells: [.date, .any, .any, .text, .setNumber, .number, .number, .number, .number, .any, .any, .number],
                                   described: "a date and time, a set order, numbers")

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
        case "rest timer", "rest_timer", "resttimer", "ruhezeit", "ruhe-timer", "pausen-timer", "pausentimer",
             "temporizador de descanso", "minuteur de repos", "chronomètre de repos", "minuterie de repos":
            return .restTimer
        case "note", "notes", "notiz", "nota", "notas": return .note
        default: return ImportValue.count(text) != nil ? .set(.working) : nil
        }
    }

    func read(_ cursor: inout ImportCSVCursor, into a: inout WorkoutAssembler) throws {
        let weightFallback = a.options.weightUnit
        let distanceFallback: DistanceUnit = weightFallback == .lb ? .mi : .km
        let weightUnit = columns.weightUnit(), distanceUnit = columns.distanceUnit()
        try a.readRows(&cursor, columns: columns) { a, line, f in
            let dateText = f[.date]
            guard let local = ImportValue.localDateTime(dateText, order: dateOrder) else {
                throw ImportRowError("Date '\(dateText)' is not a date and time like 2024-01-31 10:15:00"
                                     + (dateOrder.map { " or \($0.example)" } ?? ""))
            }
            let exerciseName = a.exerciseName(cleanName(f.text(.exercise)), line: line, column: "Exercise Name")
            let orderText = f[.setOrder]
            // A word Strong writes for its rest timer in a language gymlog has no table for:
            // a row of seconds alone, no set number.
            let restTimer = !orderText.contains(where: \.isNumber) && [f[.weight], f[.reps], f[.distance]].allSatisfy {
                $0.isEmpty || ImportValue.number($0, decimalComma: decimalComma)?.isZero == true
            } && ImportValue.number(f[.seconds], decimalComma: decimalComma).map { !$0.isZero } == true
            guard let kind = Self.rowKind(orderText) ?? (restTimer ? .restTimer : nil) else {
                throw ImportRowError("Set Order '\(orderText)' is not a set number, W, D, F, Rest Timer or Note")
            }
            let workoutMillis = try Self.workoutLength(f[.duration])
            let name = nonEmpty(f.text(.workoutName))
            let workoutNote = noteAsWritten(f.untrimmedText(.workoutNotes))
            // Every row carries its workout's columns, so a row is checked whole before
            // its workout is made.
            var set: RowSet?
            switch kind {
            case .restTimer:
                break
            case .note:
                break
            case .set(let setKind):
                let w = try ImportValue.weight(f[.weight], unit: weightUnit, unitText: f[.weightUnit],
                                               decimalComma: decimalComma, assumed: &a.assumedWeightUnit, fallback: weightFallback)
                let r = try ImportValue.reps(f[.reps])
                let e = try ImportValue.rpe(f[.rpe], decimalComma: decimalComma).get()
                let d = try ImportValue.distance(f[.distance], unit: distanceUnit,
                                                 unitText: f[.distanceUnit], decimalComma: decimalComma,
                                                 assumed: &a.assumedDistanceUnit, fallback: distanceFallback)
                let s = try ImportValue.seconds(f[.seconds], column: "Seconds")
                set = try a.values(kind: setKind, weight: w, reps: r, rpe: e, duration: s, distance: d,
                                   note: noteAsWritten(f.untrimmedText(.notes)), loadLeftBlank: f[.weight].isEmpty)
            }
            let w = a.workout(line: line, local: local, name: name, note: workoutNote) { start in
                workoutMillis.map { start + $0 }
            }
            a.keepNote(workoutNote, of: w)
            switch kind {
            case .restTimer:
                a.ignore(line, .restTimer)
            case .note:
                if let text = nonEmpty(f.text(.notes)) {
                    a.addNote("\(exerciseName): \(text)", to: w)
                } else {
                    a.ignore(line, .emptyNote)
                }
            case .set:
                a.addSet(set, note: nonEmpty(f.text(.notes)), line: line, exerciseName: exerciseName, to: w)
            }
        }
    }
}
