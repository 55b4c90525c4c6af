import Foundation

/// Reads GymBook's `GymBook-Logs-YYYY-MM-DD.csv`: one row per set, headers and values in the
/// app's language (English or Italian; `table` lists every spelling read). Each row has the
/// date (`31/01/24`, day first in an Italian export), the program (the workout's name), the
/// time of the set, the exercise, its area and muscles (gymlog has no field for them: left
/// out), the set's kind (set, warm-up or cool-down: `Serie`, `Riscaldamento`,
/// `Defaticamento`), reps or a time with a unit word (`10`, `10 rip.`, `45 s`, `1:30`), a
/// weight or a distance with its unit and a decimal comma (`80,00 kg`, `5,00 km`), notes, and
/// whether it was skipped (`yes`/`no`, `sì`/`no`). A skipped set carries its planned values
/// and was not done: it is left out and counted. The sets of one date and program are one
/// workout, starting at its first set's time and ending at its last; each set keeps its own
/// time (one before the one above it is put just after it, keeping the file's order); a cool-down is kept as a warm-up (it never
/// counts towards a record) with `cool-down` in its note.
struct GymBookReader {
    let columns: ImportColumns
    let dateOrder: DateOrder?

    /// GymBook's columns in English and Italian, with the spellings seen and the likely others.
    static let table = ColumnTable(.gymbook, [
        ColumnRule(.date, "Date", "data", required: true),
        ColumnRule(.exercise, "Exercise", "esercizio", required: true),
        ColumnRule(.skipped, "Skipped", "skipped?", "skip", "saltato", "saltata", "saltato?", "saltata?", "saltati", "saltate",
                   required: true),
        ColumnRule(.workoutName, "program", "programme", "workout", "routine", "programma", "allenamento", "scheda"),
        ColumnRule(.setTime, "time", "time of set", "set time", "ora", "orario", "ora della serie", "orario della serie"),
        ColumnRule(.setType, "set type", "type", "kind", "set kind", "set / warm-up / cool-down", "tipo", "tipo di serie",
                   "tipo serie", "serie"),
        ColumnRule(.reps, "reps", "repetitions", "reps / time", "reps/time", "repetitions / time", "reps or time",
                   "ripetizioni", "ripetizioni / tempo", "ripetizioni/tempo", "rip.", "ripetizioni o tempo"),
        ColumnRule(.weight, "weight", "weight / distance", "weight/distance", "weight or distance", "peso",
                   "peso / distanza", "peso/distanza", "peso o distanza", "carico"),
        ColumnRule(.notes, "notes", "note", "nota", "commento", "commenti"),
    ])

    /// The date column's Italian name: an Italian export writes its dates day first.
    static let italianDate = "data"

    init(header: [String], dateOrder: DateOrder?) throws {
        columns = try Self.table.find(in: header)
        self.dateOrder = dateOrder
    }

    /// The set's kind, and the note a cool-down gets; nil for a word GymBook does not write.
    static func kind(_ text: String) -> (SetKind, String?)? {
        switch ImportValue.plain(text) {
        case "", "set", "sets", "working", "working set", "normal", "serie", "serie allenante", "allenamento": (.working, nil)
        case "warm-up", "warmup", "warm up", "riscaldamento": (.warmup, nil)
        case "cool-down", "cooldown", "cool down", "defaticamento", "raffreddamento": (.warmup, "cool-down")
        case "drop", "drop set", "dropset", "drop-set": (.drop, nil)
        case "failure", "cedimento": (.failure, nil)
        case let word where ImportValue.count(word) != nil: (.working, nil)
        default: nil
        }
    }

    /// Whether a set was skipped: `yes`/`no`, `sì`/`no`, `true`/`false`; nil for anything else.
    static func skipped(_ text: String) -> Bool? {
        switch ImportValue.plain(text) {
        case "sì", "si", "s", "y": true
        case let word: ImportValue.flag(word)
        }
    }

    /// Words for a count of reps after the number.
    static let repWords: Set<String> = ["rep", "reps", "rep.", "rip", "rip.", "ripetizione", "ripetizioni", "x", "×"]
    /// Italian time words, as `ImportValue.duration` reads them.
    static let timeWords = ["secondi": "s", "secondo": "s", "minuti": "min", "minuto": "min", "ore": "h", "ora": "h"]

    /// Reps (`10`, `10 reps`, `10 rip.`) or a time (`45 s`, `45 secondi`, `1 min 30 s`, `1:30`).
    static func repsOrTime(_ text: String) throws -> (reps: Int?, seconds: Int?) {
        var words = ImportValue.plain(text).split(separator: " ").map(String.init)
        guard !words.isEmpty else { return (nil, nil) }
        if let last = words.last, repWords.contains(last), words.count == 2 { words.removeLast() }
        if words.count == 1, let reps = ImportValue.count(words[0]) { return (reps, nil) }
        words = words.map { timeWords[$0] ?? $0 }
        // `1:30 min`: the clock form says it all.
        if words.count == 2, words[0].contains(":") { words.removeLast() }
        guard let seconds = ImportValue.duration(words.joined(separator: " ")) else {
            throw ImportRowError("reps or time '\(text)' is not reps or a time like 10, 10 reps, 45 s or 1:30")
        }
        return (nil, seconds == 0 ? nil : seconds)
    }

    /// Italian distance words, as `DistanceUnit(importSpelling:)` reads them.
    static let distanceWords = ["metri": "m", "metro": "m", "chilometri": "km", "chilometro": "km", "miglia": "mi", "iarde": "yd"]

    /// A weight (`80,00 kg`, `176.5 lb`) or a distance (`5,00 km`, `400 m`), decimal comma or
    /// point; 0 is none. A number without a unit is a weight in the assumed unit.
    static func weightOrDistance(_ text: String, assumed: inout WeightUnit?, fallback: WeightUnit) throws -> (Weight?, Distance?) {
        var words = ImportValue.plain(text).split(separator: " ").map(String.init)
        guard !words.isEmpty else { return (nil, nil) }
        // `80kg`, written without a space.
        if words.count == 1, let cut = words[0].firstIndex(where: \.isLetter), cut > words[0].startIndex {
            words = [String(words[0][..<cut]), String(words[0][cut...])]
        }
        // `1,000.00` or `1.000,00`: the first of two separators groups thousands.
        if let comma = words[0].firstIndex(of: ","), let point = words[0].firstIndex(of: ".") {
            words[0].removeAll { $0 == (comma < point ? "," : ".") }
        }
        guard words.count <= 2, let value = ImportValue.number(words[0], decimalComma: true, signed: true) else {
            throw ImportRowError("weight or distance '\(text)' is not a number with a unit like 80,00 kg or 5,00 km")
        }
        guard words.count == 2 else {
            if value.isZero { return (nil, nil) }
            assumed = fallback
            return (Weight(value, fallback), nil)
        }
        let unit = distanceWords[words[1]] ?? words[1]
        if let w = WeightUnit(importSpelling: Substring(unit)) { return (value.isZero ? nil : Weight(value, w), nil) }
        if let d = DistanceUnit(importSpelling: Substring(unit)) { return (nil, value.isZero ? nil : Distance(value, d)) }
        throw ImportRowError("weight or distance '\(text)' has the unit '\(words[1])', which is not kg, lb, m, km or mi")
    }

    func read(_ cursor: inout ImportCSVCursor, into a: inout WorkoutAssembler) throws {
        let fallback = a.options.weightUnit
        try a.readRows(&cursor, columns: columns) { a, line, f in
            let dateText = f[.date]
            guard let day = ImportValue.localDateTime(dateText, order: dateOrder) else {
                throw ImportRowError("Date '\(dateText)' is not a date like \(dateOrder == .mdy ? "01/31/24" : "31/01/24")")
            }
            let clock = try ImportValue.optionalTime(f[.setTime], column: "the time of the set", like: "18:30") {
                ImportValue.clock($0).map(Int64.init)
            }
            let exerciseName = a.exerciseName(cleanName(f[.exercise]), line: line, column: "the exercise")
            guard let skipped = Self.skipped(f[.skipped]) else { throw ImportRowError("skipped '\(f[.skipped])' is not yes or no") }
            let name = nonEmpty(f[.workoutName])
            let local = day + (clock ?? 12 * 3600) * 1000
            let wi = a.workout(line: line, local: local, name: name, key: "\(day)|\(name ?? "")", note: nil) { _ in nil }
            // Skipped: the plan's values, never done.
            guard !skipped else { return a.ignore(line, .notDone) }
            guard let (kind, kindNote) = Self.kind(f[.setType]) else {
                throw ImportRowError("set kind '\(f[.setType])' is not set, warm-up or cool-down")
            }
            let (reps, seconds) = try Self.repsOrTime(f[.reps])
            let (weight, distance) = try Self.weightOrDistance(f[.weight], assumed: &a.assumedWeightUnit, fallback: fallback)
            let note = [kindNote, nonEmpty(f.untrimmed(.notes))].compactMap { $0 }.joined(separator: "; ")
            let set = try a.values(kind: kind, weight: weight, reps: reps, rpe: nil, duration: seconds, distance: distance,
                                   note: nonEmpty(note), loadLeftBlank: f[.weight].isEmpty)
            a.addSet(set, note: nonEmpty(note), line: line, exerciseName: exerciseName, at: clock.map { _ in a.instant(local: local).millis },
                     to: wi)
        }
    }
}
