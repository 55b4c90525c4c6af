import Foundation

// Which column holds what, for every CSV format gymlog reads. A format is a table of rules (the
// header names each field goes by, in every language and age of the app) plus the quirks its
// reader handles; the lookup, the units written in headers and the error for a missing column
// are here, once.

/// What a column of an export holds, whichever app wrote it.
enum ImportField: Hashable, Sendable {
    case date, workoutName, duration, exercise, setOrder, weight, weightUnit, reps, rpe, rir
    case distance, distanceUnit, seconds, notes, workoutNotes
    case start, end, exerciseNotes, setType, superset
    case category, warmup, multiplier, incline, resistance, program, bodyweight, kcal
    case id, session, exerciseLog, packedSets
    case skipped, setTime
}

/// How a format finds one field's column.
struct ColumnRule: Sendable {
    enum Measure: Sendable { case weight, distance }

    let field: ImportField
    /// The header names it goes by, lower case.
    let names: [String]
    /// The first name as the app writes it: how an error names the column.
    let shown: String
    let required: Bool
    /// The column may name the unit of its values: `Weight (kg)`, `Weight(kg)`, or (with
    /// `unitAlone`) the unit alone, as Strong's 2016 layout does (`kg`, `km`).
    let measure: Measure?
    let unitAlone: Bool

    init(_ field: ImportField, _ names: String..., required: Bool = false, measure: Measure? = nil, unitAlone: Bool = false) {
        self.field = field; self.names = names.map { $0.lowercased() }; shown = names.first ?? ""; self.required = required
        self.measure = measure; self.unitAlone = unitAlone
    }
}

/// One format's columns: a rule per field, looked up in a header by `find`.
struct ColumnTable: Sendable {
    let source: ImportSource
    let rules: [ColumnRule]

    init(_ source: ImportSource, _ rules: [ColumnRule]) { self.source = source; self.rules = rules }

    static func names(_ header: [String]) -> [String] { header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } }

    /// Whether a header has every column the format cannot do without (detection).
    func matches(_ header: [String]) -> Bool {
        let names = Self.names(header)
        return rules.allSatisfy { !$0.required || Self.locate($0, in: names) != nil }
    }

    /// Where each field is in `header`, with the units the header names; throws naming the
    /// first column the format cannot do without that is missing.
    func find(in header: [String]) throws -> ImportColumns {
        let names = Self.names(header)
        var found = ImportColumns(count: header.count)
        for rule in rules {
            guard let (index, unit) = Self.locate(rule, in: names) else {
                if rule.required {
                    throw UserError("This \(source.displayName) file has no '\(rule.shown)' column; "
                                    + "check that it is an unmodified export, or pass the right --from.")
                }
                continue
            }
            found.index[rule.field] = index
            found.names[rule.field] = names[index]
            if let unit { found.headerUnits[rule.field] = unit }
        }
        return found
    }

    /// The first column a rule's names find: plain names first, then `name (unit)`, then the unit alone.
    static func locate(_ rule: ColumnRule, in names: [String]) -> (Int, String?)? {
        for name in rule.names { if let i = names.firstIndex(of: name) { return (i, nil) } }
        guard let measure = rule.measure else { return nil }
        for base in rule.names {
            for (i, column) in names.enumerated() where column.hasPrefix(base) && column.hasSuffix(")") {
                let rest = column.dropFirst(base.count).trimmingCharacters(in: .whitespaces)
                guard rest.hasPrefix("(") else { continue }
                let unit = String(rest.dropFirst().dropLast())
                if Self.isUnit(unit, measure) { return (i, unit) }
            }
        }
        if rule.unitAlone, let i = names.firstIndex(where: { isUnit($0, measure) }) { return (i, names[i]) }
        return nil
    }

    static func isUnit(_ text: String, _ measure: ColumnRule.Measure) -> Bool {
        switch measure {
        case .weight: WeightUnit(importSpelling: Substring(text)) != nil
        case .distance: DistanceUnit(importSpelling: Substring(text)) != nil
        }
    }
}

/// Where a header put each field, and the units it names.
struct ImportColumns: Sendable {
    /// How many columns the header has.
    let count: Int
    var index: [ImportField: Int] = [:]
    /// The header name each field was found under, lower case.
    var names: [ImportField: String] = [:]
    /// The unit a header names for a field's values (`Weight (kg)` gives `kg`).
    var headerUnits: [ImportField: String] = [:]

    init(count: Int) { self.count = count }

    subscript(field: ImportField) -> Int? { index[field] }

    /// The weight unit the header names for `field`.
    func weightUnit(_ field: ImportField = .weight) -> WeightUnit? {
        headerUnits[field].flatMap { WeightUnit(importSpelling: Substring($0)) }
    }

    /// The distance unit the header names for `field`.
    func distanceUnit(_ field: ImportField = .distance) -> DistanceUnit? {
        headerUnits[field].flatMap { DistanceUnit(importSpelling: Substring($0)) }
    }
}

/// One row's fields, read by what they hold.
struct ImportRow {
    let fields: [String]
    let columns: ImportColumns

    /// The trimmed field, "" when the format's header has no such column.
    subscript(field: ImportField) -> String { fields.field(columns[field]) }

    /// The field exactly as written, spaces kept: for notes, which a gymlog export quotes when
    /// they start or end with a space.
    func untrimmed(_ field: ImportField) -> String { fields.untrimmedField(columns[field]) }

    /// Text a person typed (a name, a note), trimmed, with the `'` a gymlog export puts before
    /// a value a spreadsheet would run dropped (`FormulaGuard`): before trimming, as it was written.
    func text(_ field: ImportField) -> String {
        FormulaGuard.unguarded(fields.untrimmedField(columns[field])).trimmingCharacters(in: .whitespaces)
    }

    /// Typed text exactly as written, spaces kept (`untrimmed`), unguarded as `text` is.
    func untrimmedText(_ field: ImportField) -> String { FormulaGuard.unguarded(fields.untrimmedField(columns[field])) }

    /// Whether the header has the column.
    func has(_ field: ImportField) -> Bool { columns[field] != nil }
}
