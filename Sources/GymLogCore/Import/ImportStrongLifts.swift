import Foundation

/// Reads StrongLifts 5x5's spreadsheet export: one row per workout, `Date,Workout,Body
/// Weight,` then a block per exercise, `Exercise N,Weight N,Set 1,…,Set K`, repeated as many
/// times as the file needs (any number of blocks, any number of set columns in each; `Reps`
/// columns are read as sets too), and an optional `Note` column. Each set cell holds the reps
/// done; an empty one is a set not done, left out and counted. A weight cell may carry its
/// unit (`60kg`, `135 lb`), its header may name it (`Weight 1 (kg)`); else it is read in
/// `--unit`, and said. `Date` is a date (`2024-01-31`, the workout at 12:00) or a date and
/// time; `Workout` (A or B) is kept as the workout's name; the bodyweight goes to the
/// bodyweight log, an entry at the workout's start.
struct StrongLiftsReader {
    /// One exercise's columns in the header.
    struct Block {
        var exercise: Int
        var weight: Int?
        var weightUnit: WeightUnit?
        var sets: [Int]
    }

    let columns: ImportColumns
    let blocks: [Block]
    let header: [String]

    static let table = ColumnTable(.stronglifts, [
        ColumnRule(.date, "Date", required: true),
        ColumnRule(.exercise, "Exercise 1", required: true),
        ColumnRule(.weight, "Weight 1", required: true, measure: .weight),
        ColumnRule(.workoutName, "Workout"),
        ColumnRule(.bodyweight, "Body Weight", "Bodyweight", measure: .weight),
        ColumnRule(.notes, "Note", "Notes"),
    ])

    init(header: [String]) throws {
        columns = try Self.table.find(in: header)
        self.header = header.map { $0.trimmingCharacters(in: .whitespaces) }
        blocks = Self.blocks(ColumnTable.names(header))
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
            } else if open && name.hasPrefix("weight") && blocks[blocks.count - 1].weight == nil {
                let rule = ColumnRule(.weight, name.components(separatedBy: " (").first ?? name, measure: .weight)
                blocks[blocks.count - 1].weight = i
                blocks[blocks.count - 1].weightUnit = ColumnTable.locate(rule, in: [name])?.1
                    .flatMap { WeightUnit(importSpelling: Substring($0)) }
            } else if open && (words.first == "set" || words.first == "reps") {
                blocks[blocks.count - 1].sets.append(i)
            } else {
                open = false
            }
        }
        return blocks
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
        try a.readRows(&cursor, columns: columns, padded: true) { a, line, f in
            let dateText = f[.date]
            guard let local = ImportValue.localDateTimeOrNoon(dateText) else {
                throw ImportRowError("Date '\(dateText)' is not a date like 2024-01-31 or 2024-01-31 18:30")
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
                let load = f.fields.field(block.weight)
                let weight = try Self.weight(load, headerUnit: block.weightUnit, column: block.weight.map { header[$0] } ?? "Weight", into: &a)
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
