import Foundation

/// Reads Alpha Progression's export, a block format rather than a table. Sessions follow each
/// other (blank lines between them): a title, a date line `"2023-03-23 6:59 pm",1:10 hr` (the
/// app puts no-break spaces, U+00A0 or U+202F, before `pm` and `hr`; a newer version writes
/// `"2026-02-19 4:54 h"`, 24-hour), a plan line `Day 2 · Week 1 · Plan`; then per exercise a
/// header `"1. Name"` with an optional second field (`Superset 1`, `2 dropsets`, or the
/// warm-ups as `W x R` lines in one quoted field), a target line, a column header (`#,KG,REPS`
/// or `#,LBS,REPS`) and numbered set rows. A newer dialect separates with `;`, writes decimal
/// commas and `#;KG;REPS;RIR`, may put title, date and duration on one line
/// (`"Legs · Day 2";"2026-02-19 4:54 h";"1:02 hr"`), the equipment and target in the exercise
/// header (`"1. Hack Squats · Machine · 8 reps"`) and warm-ups as `WU1 · 37,5 kg · 9 reps`
/// joined by `<br>`. The file starts with a UTF-8 byte-order mark (`ImportCSVCursor` drops it).
///
/// What is kept: the title as the workout's name, the plan line as its note, the duration as
/// its end; warm-ups as warm-up sets before the exercise's sets; the last N sets of an
/// exercise with `N dropsets` as drop sets; `Superset N` as one superset per workout; RIR as
/// written (`rir2`); a load written `+35` as bodyweight plus 35. The target line is the plan, not
/// what was done, and is left out.
struct AlphaProgressionReader {
    let delimiter: Character
    var decimalComma: Bool { delimiter == ";" }

    /// The columns a set row may have, as its block's column header names them.
    static let setColumns = ColumnTable(.alphaProgression, [
        ColumnRule(.setOrder, "#"),
        ColumnRule(.weight, "weight", measure: .weight, unitAlone: true),
        ColumnRule(.reps, "reps", "wdh"),
        ColumnRule(.rir, "rir"),
        ColumnRule(.rpe, "rpe"),
        ColumnRule(.seconds, "time", "sec", "seconds", "duration"),
        ColumnRule(.distance, "distance", measure: .distance, unitAlone: true),
    ])

    /// How much of a file's start `delimiter(of:)` reads.
    static let sniffBytes = 16 * 1024

    /// The field separator of an Alpha Progression export, nil when `source` is not one: its
    /// start has a session's date line and a set block's column header (`#,KG,REPS`; `#;` for
    /// the semicolon dialect). Told from the content, never the file name.
    static func delimiter(of source: any ImportByteSource) throws -> Character? {
        var source = source
        var bytes: [UInt8] = []
        while bytes.count < sniffBytes, try source.read(into: &bytes, count: sniffBytes - bytes.count) > 0 {}
        var sawDate = false
        var separator: Character?
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let text = line.trimmingCharacters(in: CharacterSet(charactersIn: "\u{FEFF}\" "))
            if separator == nil, text.hasPrefix("#,") || text.hasPrefix("#;") { separator = text.dropFirst().first }
            if !sawDate {
                let fields = text.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "\"" })
                sawDate = fields.contains { sessionStart(String($0)) != nil }
            }
            if sawDate, let separator { return separator }
        }
        return nil
    }

    /// A session's start as written (`2023-03-23 6:59 pm`, `2023-03-23 18:59`,
    /// `2026-02-19 4:54 h`), as wall-clock milliseconds; nil for anything else.
    static func sessionStart(_ text: String) -> Int64? {
        let words = ImportValue.plain(text).split(separator: " ", maxSplits: 1).map(String.init)
        guard words.count == 2, words[0].count == 10, let day = ImportValue.localDateTime(words[0]),
              let clock = ImportValue.clock(words[1]) else { return nil }
        return day + Int64(clock) * 1000
    }

    /// A session's length as written: `1:10 hr` (hours and minutes), `1:02:05 hr`, `45 min`.
    static func sessionSeconds(_ text: String) -> Int? {
        var t = ImportValue.plain(text)
        for unit in [" hrs", " hr", " h", "hrs", "hr"] where t.hasSuffix(unit) { t.removeLast(unit.count); break }
        let parts = t.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return ImportValue.duration(t) }
        // `H:MM`: a whole session, not a minute of one.
        guard parts.count <= 3, parts.dropFirst().allSatisfy({ $0.count == 2 }) else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, numbers.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        return numbers[0] * 3600 + numbers[1] * 60 + (numbers.count == 3 ? numbers[2] : 0)
    }

    /// A session opened by its date line: its title, start, length and plan line.
    struct Session {
        var line: Int
        var name: String?
        var local: Int64
        var seconds: Int?
        var plan: String?
        var exercises = 0
    }

    /// One exercise's block, held until it ends: its sets' kinds and unit come from lines
    /// below its header (the column header) and from its set count (`N dropsets`).
    struct Block {
        var line: Int
        var header: String
        var name: String
        var superset: String?
        var dropsets = 0
        var warmups: String?
        var note: String?
        var columns: ImportColumns?
        var columnsLine = 0
        var rows: [(line: Int, fields: [String])] = []
    }

    /// The exercise header `1. Name` (or `1. Name · Machine · 8 reps · 2 dropsets`) with its
    /// second field; nil when the row is not one.
    static func block(_ fields: [String], line: Int) -> Block? {
        let first = fields.first?.trimmingCharacters(in: .whitespaces) ?? ""
        let digits = first.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, first.dropFirst(digits.count).hasPrefix(". ") else { return nil }
        let parts = first.dropFirst(digits.count + 2).components(separatedBy: "·").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let lift = parts.first, !lift.isEmpty else { return nil }
        var block = Block(line: line, header: first, name: lift)
        var equipment: String?
        for part in parts.dropFirst() + fields.dropFirst().map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }) where !part.isEmpty {
            let words = ImportValue.plain(part).split(separator: " ")
            if words.count == 2, words[0] == "superset" {
                block.superset = String(words[1])
            } else if words.count == 2, words[1].hasPrefix("dropset"), let n = Int(words[0]) {
                block.dropsets = n
            } else if words.last?.hasPrefix("rep") == true && words.count == 2 {
                continue  // the target, not what was done
            } else if warmupLines(part) != nil {
                block.warmups = part
            } else if equipment == nil && ExerciseSpellings.equipment[ImportValue.plain(part)] != nil {
                equipment = part
            } else {
                block.note = [block.note, part].compactMap { $0 }.joined(separator: "; ")
            }
        }
        if let equipment { block.name = ExerciseSpellings.canonical("\(lift), \(equipment)") }
        return block
    }

    /// The warm-up field's sets, one a line (`40 x 10`, `40 kg × 10`, `WU1 · 37,5 kg · 9 reps`,
    /// lines joined by `<br>` in the newer dialect), each as its load text (`+` kept), unit text
    /// and reps; nil when a line is none of these.
    static func warmupLines(_ text: String) -> [(load: String, unit: String, reps: String)]? {
        let lines = text.replacingOccurrences(of: "<br>", with: "\n").split(whereSeparator: \.isNewline)
        var sets: [(String, String, String)] = []
        for line in lines {
            var words = ImportValue.plain(String(line)).replacingOccurrences(of: "×", with: " x ").replacingOccurrences(of: "·", with: " ")
                .split(separator: " ").map(String.init)
            if let wu = words.first, wu.hasPrefix("wu"), wu.dropFirst(2).allSatisfy(\.isNumber) { words.removeFirst() }
            // `40x10` written without spaces.
            words = words.flatMap { w -> [String] in
                let pieces = w.split(separator: "x", omittingEmptySubsequences: false)
                let numbers = pieces.allSatisfy { $0.first.map { $0.isNumber || $0 == "+" } ?? false }
                return pieces.count == 2 && numbers ? [String(pieces[0]), "x", String(pieces[1])] : [w]
            }
            words.removeAll { $0 == "x" || $0 == "reps" || $0 == "rep" || $0 == "wdh" }
            if words.first == "bw" { words[0] = "+0" }
            guard words.count == 2 || words.count == 3 else { return nil }
            let unit = words.count == 3 ? words[1] : ""
            guard unit.isEmpty || WeightUnit(importSpelling: Substring(unit)) != nil,
                  words[0].contains(where: \.isNumber), words.last!.allSatisfy(\.isNumber) else { return nil }
            sets.append((words[0], unit, words.last!))
        }
        return sets.isEmpty ? nil : sets
    }

    func read(_ cursor: inout ImportCSVCursor, into a: inout WorkoutAssembler) throws {
        var session: Session?
        var block: Block?
        // The last row that was plain text (not a date line, header or set), and the line: the
        // next session's title when a date line follows it.
        var text: (line: Int, value: String)?
        while let (line, fields) = try cursor.next() {
            if let quote = cursor.unclosedQuote {
                a.bad(quote.line, WorkoutAssembler.unclosedQuoteReason(quote))
                text = nil
                continue
            }
            let trimmed = fields.map { $0.trimmingCharacters(in: .whitespaces) }
            // A set row: numbered, under its block's column header.
            if let columns = block?.columns, let first = trimmed.first, first.allSatisfy(\.isNumber),
               !first.isEmpty || (fields.count > 1 && fields.count >= columns.count) {
                block?.rows.append((line, fields))
                text = nil
                continue
            }
            if let start = trimmed.prefix(2).lastIndex(where: { Self.sessionStart($0) != nil }) {
                // The title is the plain-text row above (or, older dialect, a title that reads like `1. Push`).
                var name = start == 1 ? nonEmpty(trimmed[0]) : text?.value
                var titleLine = start == 1 ? line : text?.line ?? line
                if start == 0, name == nil, let b = block, b.rows.isEmpty, b.columns == nil { name = b.header; titleLine = b.line; block = nil }
                try flush(&block, session, into: &a)
                let length = trimmed.count > start + 1 ? trimmed[start + 1] : ""
                let seconds = Self.sessionSeconds(length)
                if seconds == nil && !length.isEmpty {
                    a.bad(line, "the session length '\(length)' is not hours and minutes like 1:10 hr")
                }
                session = Session(line: titleLine, name: name.map(cleanName), local: Self.sessionStart(trimmed[start])!, seconds: seconds)
                text = nil
                continue
            }
            if trimmed.first == "#" {
                text = nil
                guard block != nil else { a.bad(line, "a column header (#,KG,REPS) with no exercise header (\"1. Name\") above it"); continue }
                block?.columns = try Self.setColumns.find(in: fields)
                block?.columnsLine = line
                if block?.columns?[.reps] == nil && block?.columns?[.seconds] == nil && block?.columns?[.distance] == nil {
                    a.bad(line, "the column header '\(fields.joined(separator: String(delimiter)))' names no REPS, TIME or distance column")
                }
                continue
            }
            if let next = Self.block(fields, line: line) {
                try flush(&block, session, into: &a)
                block = next
                session?.exercises += 1
                text = nil
                continue
            }
            // Plain text: the plan line right after a date line, a target line, or a title.
            let value = fields.joined(separator: String(delimiter)).trimmingCharacters(in: .whitespaces)
            if var s = session, s.exercises == 0, s.plan == nil, block == nil {
                s.plan = nonEmpty(value)
                session = s
            }
            text = (line, value)
            if block?.columns != nil { try flush(&block, session, into: &a) }
        }
        try flush(&block, session, into: &a)
    }

    /// Reads an exercise's block into its session's workout: warm-ups first, then the sets,
    /// the last `dropsets` of them drop sets.
    func flush(_ block: inout Block?, _ session: Session?, into a: inout WorkoutAssembler) throws {
        guard let b = block else { return }
        block = nil
        let unit = b.columns?.weightUnit()
        guard let session else {
            for row in b.rows { a.bad(row.line, "a set before any session's date line (like \"2023-03-23 6:59 pm\",1:10 hr)") }
            return
        }
        func workout(_ a: inout WorkoutAssembler) -> Int {
            a.workout(line: session.line, local: session.local, name: session.name, note: session.plan) { start in
                session.seconds.map { start + Int64($0) * 1000 }
            }
        }
        if let note = b.note, !b.rows.isEmpty {
            try a.row(b.line) { a in a.addNote("\(ExerciseSpellings.canonical(b.name)): \(note)", to: workout(&a)) }
        }
        for warmup in Self.warmupLines(b.warmups ?? "") ?? [] {
            try a.row(b.line) { a in
                let (weight, plus) = try load(warmup.load, unit: unit, unitText: warmup.unit, a: &a)
                let reps = try ImportValue.reps(warmup.reps)
                try add(kind: .warmup, weight: weight, plus: plus, reps: reps, rpe: nil, rir: nil, seconds: nil, distance: nil,
                        line: b.line, block: b, workout: workout, into: &a)
            }
        }
        guard let columns = b.columns else { return }
        let firstDrop = b.rows.count - min(b.dropsets, max(0, b.rows.count - 1))
        for (i, row) in b.rows.enumerated() {
            try a.row(row.line) { a in
                var fields = row.fields
                while fields.count > columns.count, fields.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { fields.removeLast() }
                guard fields.count == columns.count else {
                    throw ImportRowError("has \(fields.count) fields but the column header on line \(b.columnsLine) has \(columns.count)")
                }
                let f = ImportRow(fields: fields, columns: columns)
                let (weight, plus) = try load(f[.weight], unit: unit, unitText: "", a: &a)
                let reps = try ImportValue.reps(f[.reps], column: "REPS")
                let rpe = try ImportValue.rpe(f[.rpe], decimalComma: decimalComma).get()
                let rir = try ImportValue.rir(f[.rir], decimalComma: decimalComma).get()
                let seconds = try ImportValue.seconds(f[.seconds].replacingOccurrences(of: ",", with: "."), column: "TIME")
                var unused: DistanceUnit?
                let distance = try ImportValue.distance(f[.distance], unit: columns.distanceUnit() ?? .km, decimalComma: decimalComma,
                                                        assumed: &unused, fallback: .km)
                try add(kind: i >= firstDrop ? .drop : .working, weight: weight, plus: plus, reps: reps, rpe: rpe, rir: rir, seconds: seconds,
                        distance: distance, line: row.line, block: b, workout: workout, into: &a)
            }
        }
    }

    /// A load as written in a set row or the warm-up field: `60`, `102,5`, `+35` (bodyweight
    /// plus 35: `plus`), `-20` (assistance).
    func load(_ text: String, unit: WeightUnit?, unitText: String, a: inout WorkoutAssembler) throws -> (Weight?, Bool) {
        let plus = text.hasPrefix("+")
        let fallback = a.options.weightUnit
        let weight = try ImportValue.weight(plus ? String(text.dropFirst()) : text, unit: ImportValue.weightUnit(unitText) ?? unit,
                                            decimalComma: true, assumed: &a.assumedWeightUnit, fallback: fallback, column: "load")
        return (weight, plus)
    }

    /// Adds one set of block `b` to its session's workout.
    func add(kind: SetKind, weight: Weight?, plus: Bool, reps: Int?, rpe: Fixed?, rir: Fixed?, seconds: Int?, distance: Distance?, line: Int, block b: Block,
             workout: (inout WorkoutAssembler) -> Int, into a: inout WorkoutAssembler) throws {
        var set = try a.values(kind: kind, weight: weight, reps: reps, rpe: rpe, rir: rir, duration: seconds, distance: distance, note: nil,
                               loadLeftBlank: plus && weight == nil)
        if plus, weight != nil { set?.values.bodyweight = true }
        let slot = workout(&a)
        a.addSet(set, line: line, exerciseName: b.name, superset: b.superset.flatMap { a.superset($0, in: slot) }, to: slot)
    }
}
