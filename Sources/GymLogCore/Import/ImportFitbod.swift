import Foundation

/// Reads Fitbod's `WorkoutExport.csv`: `Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),
/// Incline,Resistance,isWarmup,Note,multiplier`, one row per set, newest first. Fitbod quotes
/// nothing, so a comma in a note spills into the fields after it: the note takes the extra
/// fields and `multiplier` is anchored from the right. `Date` is the workout's start with its
/// offset (`2024-01-31 10:15:00 +0000`), repeated on every set: the sets of one start are one
/// workout. There is no workout name, RPE or superset.
///
/// Weights are always kilograms, converted from what a pound user typed (`20.41168092460379`
/// is 45 lb): when the lifter's unit is lb, a load that is a whole 0.05 lb to within conversion
/// dust, or whose kilograms were cut to hundredths (`15.88` is 35 lb) from a whole 0.25 lb, is
/// stored in pounds as typed; round kilograms and any other load keep their kilograms, to the gram.
/// `multiplier` is Fitbod's volume factor (2 when the load is per hand or per side): the load is
/// kept as written, per hand. A spreadsheet's re-save writes `TRUE`/`FALSE` and pads each row
/// with a trailing comma; both read.
struct FitbodReader {
    let columns: ImportColumns

    static let table = ColumnTable(.fitbod, [
        ColumnRule(.date, "Date", required: true),
        ColumnRule(.exercise, "Exercise", required: true),
        ColumnRule(.reps, "Reps", required: true),
        ColumnRule(.weight, "weight", measure: .weight),
        ColumnRule(.seconds, "duration(s)", "duration (s)", "duration"),
        ColumnRule(.distance, "distance", measure: .distance),
        ColumnRule(.incline, "incline"),
        ColumnRule(.resistance, "resistance"),
        ColumnRule(.warmup, "isWarmup", required: true),
        ColumnRule(.notes, "note", "notes"),
        ColumnRule(.multiplier, "multiplier", required: true),
    ])

    init(header: [String]) throws {
        // A spreadsheet's re-save pads the header with an empty column when some row (a note
        // Fitbod wrote with an unquoted comma) has one field more: the header is its names, and
        // the rows' padding and spills are read as such (`readRows(padded:spillInto:)`).
        var names = header
        while names.count > 1, names.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { names.removeLast() }
        columns = try Self.table.find(in: names)
    }

    /// `2024-01-31 10:15:00 +0000` (or `-0500`, `+01:00`) as UTC milliseconds.
    static func instant(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 3, let local = ImportValue.localDateTime(parts[0] + " " + parts[1]) else { return nil }
        let zone = parts[2].replacingOccurrences(of: ":", with: "")
        guard zone.count == 5, let sign = zone.first, sign == "+" || sign == "-",
              let hours = Int(zone.dropFirst().prefix(2)), let minutes = Int(zone.suffix(2)), hours < 24, minutes < 60 else { return nil }
        return local - Int64((sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)) * 1000
    }

    /// Pounds in a kilogram as Fitbod converts them (`45 / 2.20462` is its `20.41168092460379`).
    static let poundsPerKilogram = 2.20462

    /// A load as Fitbod writes it, in kilograms: pounds when the lifter's unit is lb and it is
    /// a whole 0.05 lb to within float dust (by Fitbod's factor or the exact one) or a whole
    /// 0.25 lb cut to hundredths of a kilogram (`poundsCut`), else kilograms to the gram. Nil
    /// when zero or blank.
    static func load(_ text: String, lifterUnit: WeightUnit) throws -> Weight? {
        guard !text.isEmpty else { return nil }
        guard let kg = ImportValue.number(text), let exact = Double(text) else {
            throw ImportRowError("Weight(kg) '\(text)' is not a number")
        }
        if kg.isZero { return nil }
        if lifterUnit == .lb {
            for pounds in [exact * poundsPerKilogram, exact / WeightUnit.kilogramsPerPound] {
                if let typed = ImportValue.typedLoad(pounds, in: .lb, within: 1e-6) { return typed }
            }
            // Hundredths are what a spreadsheet's re-save (or the app, in some versions) leaves:
            // `15.88`, or `6.8` once the trailing zero is dropped.
            let decimals = text.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first?.count ?? 0
            if decimals <= 2, let typed = poundsCut(toHundredths: kg.thousandths / 10) { return typed }
        }
        return Weight(kg, .kg)
    }

    /// The pounds a lifter typed, read back from their kilograms cut to `hundredths` of a
    /// kilogram: the whole 0.25 lb (the smallest plate step) whose kilograms, by the exact
    /// factor or Fitbod's, round or truncate to exactly `hundredths` (`15.88` and `15.87` are
    /// 35 lb, which is 15.8757 kg). Quarter pounds are 0.113 kg apart, so at most one does.
    /// Nil for round kilograms, a whole 0.5 kg (`17.0` stays 17 kg, though 37.5 lb truncates
    /// to it), and for hundredths no quarter pound gives (`15.89`, `3.25`).
    static func poundsCut(toHundredths hundredths: Int64) -> Weight? {
        guard hundredths > 0, hundredths % 50 != 0 else { return nil }
        // Kilograms in hundredths as a fraction of whole quarter pounds: exactly 0.45359237 kg
        // a pound, or Fitbod's 1 / 2.20462.
        let factors: [(numerator: Int64, denominator: Int64)] = [(45_359_237, 4_000_000), (10_000_000, 881_848)]
        let nearest = Int64((Double(hundredths) * 4 / (100 * WeightUnit.kilogramsPerPound)).rounded())
        for quarters in max(1, nearest - 1)...(nearest + 1) {
            for (numerator, denominator) in factors {
                let scaled = quarters * numerator
                let truncated = scaled / denominator, rounded = (2 * scaled + denominator) / (2 * denominator)
                if truncated == hundredths || rounded == hundredths { return Weight(Fixed(thousandths: quarters * 250), .lb) }
            }
        }
        return nil
    }

    func read(_ cursor: inout ImportCSVCursor, into a: inout WorkoutAssembler) throws {
        let distanceUnit = columns.distanceUnit() ?? .m
        try a.readRows(&cursor, columns: columns, spillInto: .notes, padded: true) { a, line, f in
            let dateText = f[.date]
            guard let start = Self.instant(dateText) else {
                throw ImportRowError("Date '\(dateText)' is not a time like 2024-01-31 10:15:00 +0000")
            }
            let exerciseName = a.exerciseName(cleanName(f[.exercise]), line: line, column: "Exercise")
            guard let warmup = ImportValue.flag(f[.warmup]) else { throw ImportRowError("isWarmup '\(f[.warmup])' is not true or false") }
            let multiplier = f[.multiplier]
            guard multiplier.isEmpty || ImportValue.number(multiplier) != nil else {
                throw ImportRowError("multiplier '\(multiplier)' is not a number")
            }
            let w = try Self.load(f[.weight], lifterUnit: a.options.weightUnit)
            let r = try ImportValue.reps(f[.reps])
            var unused: DistanceUnit?
            let d = try ImportValue.distance(f[.distance], unit: distanceUnit, assumed: &unused, fallback: distanceUnit)
            let s = try ImportValue.wholeSeconds(f[.seconds], column: "Duration(s)")
            // Incline and resistance have no field of their own: the set's note keeps them.
            let machine = [("incline", f[.incline]), ("resistance", f[.resistance])].compactMap { name, text -> String? in
                guard let n = ImportValue.number(text), !n.isZero else { return nil }
                return "\(name) \(n)"
            }
            let note = ([nonEmpty(f.untrimmed(.notes))].compactMap { $0 } + machine).joined(separator: "; ")
            let set = try a.values(kind: warmup ? .warmup : .working, weight: w, reps: r, rpe: nil, duration: s, distance: d,
                                   note: nonEmpty(note), loadLeftBlank: f[.weight].isEmpty)
            let wi = a.workout(line: line, instant: start, name: nil, key: dateText, note: nil) { _ in nil }
            a.addSet(set, note: nonEmpty(note), line: line, exerciseName: exerciseName, to: wi)
        }
    }
}
