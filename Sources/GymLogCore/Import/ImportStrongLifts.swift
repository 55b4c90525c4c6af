import Foundation

/// Reads StrongLifts 5x5's spreadsheet export: one row per workout, `Date,Workout,Body
/// Weight,` then a block per exercise, `Exercise N,Weight N,Set 1,…,Set K`, repeated as many
/// times as the file needs (any number of blocks, any number of set columns in each; `Reps`
/// columns are read as sets too), and an optional `Note` column. Each set cell holds the reps
/// done; an empty one is a set not done, left out and counted. A weight cell may carry its
/// unit (`60kg`, `135 lb`), its header may name it (`Weight 1 (kg)`); else it is read in
/// `--unit`, and said. `Date` is a date (`2024-01-31`, the workout at 12:00) or a date and
/// time, or in the phone's way (`19/11/18`, day or month first as the file settles:
/// `WrittenDate`); `Workout` (A or B) is kept as the workout's name; the bodyweight goes to
/// the bodyweight log, an entry at the workout's start. The old export writes each weight
/// twice, `Weight (KG),Weight (LB)`, filling one: a block's load is its first filled weight.
struct StrongLiftsReader {
    /// One exercise's columns in the header.
    struct Block {
        var exercise: Int
        /// The block's weight columns, each with the unit its header names.
        var weights: [(column: Int, unit: WeightUnit?)] = []
        var sets: [Int]

        var weight: Int? { weights.first?.column }
        var weightUnit: WeightUnit? { weights.first?.unit }
    }

    let columns: ImportColumns
    let blocks: [Block]
    let header: [String]
    let dateOrder: DateOrder?

    static let table = ColumnTable(.stronglifts, [
        ColumnRule(.date, "Date", required: true),
        ColumnRule(.exercise, "Exercise 1", required: true),
        ColumnRule(.weight, "Weight 1", measure: .weight),
        ColumnRule(.workoutName, "Workout"),
        ColumnRule(.bodyweight, "Body Weight", "Bodyweight", measure: .weight),
        ColumnRule(.notes, "Note", "Notes"),
    ])

    init(header: [String], dateOrder: DateOrder? = nil) throws {
        columns = try Self.table.find(in: header)
        self.header = header.map { $0.trimmingCharacters(in: .whitespaces) }
        blocks = Self.blocks(ColumnTable.names(header))
        self.dateOrder = dateOrder
        guard blocks.contains(where: { $0.weight != nil && !$0.sets.isEmpty }) else {
            throw UserError("This StrongLifts 5x5 file has no block of an exercise, its weight and its sets after 'Exercise 1'; "
                            + "check that it is an unmodified export, or pass the right --from.")
        }
    }

    /// The exercise blocks of a header (lower case): each `Exercise N` column with the weight
    /// and set columns after it, up to the next exercise or a column of neither kind.
    static func blocks(_ names: [String]) -> [Block] {
        var blocks: [Block] = []
        var open = false
        for (i, name) in names.enumerated() {
            let words = name.split(separator: " ")
            if words.first == "exercise" && (words.count == 1 || (words.count == 2 && Int(words[1]) != nil)) {
                blocks.append(Block(exercise: i, sets: []))
                open = true
            } else if open && name.hasPrefix("weight") && blocks[blocks.count - 1].sets.isEmpty {
                // `Weight (KG)` then `Weight (LB)`: the same load in either unit.
                let rule = ColumnRule(.weight, name.components(separatedBy: " (").first ?? name, measure: .weight)
                let unit = ColumnTable.locate(rule, in: [name])?.1.flatMap { WeightUnit(importSpelling: Substring($0)) }
                blocks[blocks.count - 1].weights.append((i, unit))
            } else if open && (words.first == "set" || words.first == "reps") {
                blocks[blocks.count - 1].sets.append(i)
            } else {
                open = false
            }
        }
        return blocks
    }

    /// The English header for a header of unknown words with the wide layout's shape: a column
    /// of dates, then the same run of names repeated (numbers and units aside), each run an
    /// exercise's name, its weight columns and, last, its set columns (the trailing names
    /// that repeat within the run: `Satz 1, Satz 2, ...`); the rows hold a date, and in each
    /// run a name, then numbers. Columns outside the runs keep their names. Nil when the
    /// header or the first rows do not fit.
    static func englishHeader(_ original: [String], rows: [[String]]) -> [String]? {
        // Names with their digits and `(unit)` dropped: `Übung 2` and `Übung 1` are one.
        let bare = ColumnTable.names(original).map { name in
            (name.components(separatedBy: "(").first ?? name).filter { !$0.isNumber }.trimmingCharacters(in: .whitespaces)
        }
        guard let (start, period) = repeatedRun(bare), start > 0 else { return nil }
        // Within a run: the exercise, the weights, then the trailing names that are all alike: the sets.
        var setCount = 1
        while setCount < period - 2, bare[start + period - 1 - setCount] == bare[start + period - 1] { setCount += 1 }
        let weightCount = period - 1 - setCount
        guard weightCount >= 1 else { return nil }
        var blocks = 0
        while start + (blocks + 1) * period <= original.count { blocks += 1 }
        guard let dateColumn = (0..<start).first(where: { c in
            rows.filter { $0.count > c }.allSatisfy { LayoutShape.fits($0[c], .date) } && rows.contains { $0.count > c }
        }) else { return nil }
        // The rows: a date, and in each block a name (or nothing) and numbers.
        var fit = 0
        for row in rows {
            let cell = { (i: Int) in i < row.count ? row[i].trimmingCharacters(in: .whitespaces) : "" }
            let ok = LayoutShape.fits(cell(dateColumn), .date) && (0..<blocks).allSatisfy { b in
                let s = start + b * period
                return (cell(s).isEmpty || LayoutShape.fits(cell(s), .text))
                    && (1..<period).allSatisfy { i in cell(s + i).isEmpty || cell(s + i).first?.isNumber == true }
            }
            if ok { fit += 1 }
        }
        guard !rows.isEmpty, fit * 10 >= rows.count * 9, rows.contains(where: { $0.count > start && !$0[start].isEmpty }) else { return nil }
        var english = original.map { $0.trimmingCharacters(in: .whitespaces) }
        english[dateColumn] = "Date"
        for b in 0..<blocks {
            let s = start + b * period
            english[s] = "Exercise \(b + 1)"
            for w in 0..<weightCount {
                // The unit a weight column names, `(kg)`, is the same in every language.
                let written = ColumnTable.names([original[s + 1 + w]])[0]
                let unit = written.split(separator: "(").dropFirst().first.map { " (" + $0 } ?? ""
                english[s + 1 + w] = "Weight \(b + 1)" + unit
            }
            for k in 0..<setCount { english[s + 1 + weightCount + k] = "Set \(k + 1)" }
        }
        return english
    }

    /// The first column from which the names run in one block repeated at least twice, and the
    /// block's length (three columns at least: a name, a weight, a set).
    static func repeatedRun(_ names: [String]) -> (start: Int, period: Int)? {
        for start in 0..<names.count {
            var period = 3
            while start + 2 * period <= names.count {
                if (0..<period).allSatisfy({ names[start + $0] == names[start + period + $0] }), !names[start].isEmpty,
                   names[start] != names[start + 1] {
                    return (start, period)
                }
                period += 1
            }
        }
        return nil
    }

    /// A weight cell: a number with its unit after it (`60kg`, `135 lb`) or alone, in the unit
    /// its header names or else the assumed one; nil when blank or 0.
    static func weight(_ cell: String, headerUnit: WeightUnit?, column: String, into a: inout WorkoutAssembler) throws -> Weight? {
        let number = cell.prefix { $0.isNumber || $0 == "." || $0 == "-" }
        guard number.isEmpty == cell.isEmpty else { throw ImportRowError("\(column) '\(cell)' is not a weight like 60, 60kg or 135 lb") }
        return try ImportValue.weight(String(number), unit: headerUnit, unitText: cell.dropFirst(number.count).trimmingCharacters(in: .whitespaces),
                                      assumed: &a.assumedWeightUnit, fallback: a.options.weightUnit, column: column)
    }

    func read(_ cursor: inout ImportCSVCursor, into a: inout WorkoutAssembler) throws {
        try a.readRows(&cursor, columns: columns, padded: true, ragged: true) { a, line, f in
            let dateText = f[.date]
            guard let local = ImportValue.localDateTimeOrNoon(dateText, order: dateOrder) else {
                throw ImportRowError("Date '\(dateText)' is not a date like 2024-01-31 or 2024-01-31 18:30"
                                     + (dateOrder.map { " or \($0 == .dmy ? "31/01/24" : "01/31/24")" } ?? ""))
            }
            let bodyweight = try Self.weight(f[.bodyweight], headerUnit: columns.weightUnit(.bodyweight), column: "Body Weight", into: &a)
            var sets: [(name: String, set: RowSet?)] = []
            var notDone = 0
            for block in blocks {
                let name = cleanName(f.fields.field(block.exercise))
                let cells = block.sets.map { f.fields.field($0) }
                guard !name.isEmpty else {
                    if cells.contains(where: { !$0.isEmpty }) {
                        throw ImportRowError("\(header[block.exercise]) is empty but its sets are filled in")
                    }
                    continue
                }
                let filled = block.weights.first { !f.fields.field($0.column).isEmpty } ?? block.weights.first
                let load = f.fields.field(filled?.column)
                let weight = try Self.weight(load, headerUnit: filled?.unit, column: filled.map { header[$0.column] } ?? "Weight", into: &a)
                for (cell, column) in zip(cells, block.sets) {
                    if cell.isEmpty { notDone += 1; continue }
                    let reps = try ImportValue.reps(cell, column: header[column])
                    sets.append((name, try a.values(kind: .working, weight: weight, reps: reps, rpe: nil, duration: nil, distance: nil,
                                                    note: nil, loadLeftBlank: load.isEmpty)))
                }
            }
            let workout = a.workout(line: line, local: local, name: nonEmpty(f[.workoutName]), note: nonEmpty(f.untrimmed(.notes))) { _ in nil }
            if let bodyweight { a.addBodyweight(bodyweight, local: local) }
            for _ in 0..<notDone { a.ignore(line, .notDone) }
            for (name, set) in sets { a.addSet(set, line: line, exerciseName: name, to: workout) }
        }
    }
}
