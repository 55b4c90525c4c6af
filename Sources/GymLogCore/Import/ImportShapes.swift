import Foundation

// Telling a layout by its shape when its header's words are in no table: an app writes the
// same columns in the same order in every UI language and translates only their names, so a
// header of unknown words whose rows hold a layout's values in its order is read as that
// layout, under the English names its columns take by position; the import says so.

/// One app's layout as its rows show it: its columns in order, with what each holds.
struct LayoutShape {
    /// What a column's cells hold, as far as telling the layout goes.
    enum Cell {
        /// Anything, blank included.
        case any
        /// Text that is not blank (a name).
        case text
        /// A date, with or without a time, in any locale's way (`WrittenDate`).
        case date
        /// A date, or blank.
        case optionalDate
        /// A time of day (`18:30`, `6:30 pm`).
        case time
        /// A number (a decimal point or comma, a sign), or blank.
        case number
        /// A whole number, or blank.
        case count
        /// A set's number (what makes a row a set), or a word for a row that is not one.
        case setNumber
    }

    let source: ImportSource
    /// The columns as the English app names them, in its order.
    let header: [String]
    let cells: [Cell]
    /// What the rows are said to hold, for the explanation: `a date and time, a set order, numbers`.
    let described: String

    /// The layouts that can be told by their shape.
    static let known: [LayoutShape] = [StrongReader.shape, HevyReader.shape, GymRunReader.shape]

    /// Whether a row's cell fits its column.
    static func fits(_ text: String, _ cell: Cell) -> Bool {
        let t = text.trimmingCharacters(in: .whitespaces)
        switch cell {
        case .any: return true
        case .text: return !t.isEmpty && ImportValue.number(t, decimalComma: true, signed: true) == nil
        case .date: return ImportValue.localDateTime(t) != nil || WrittenDate.read(t) != nil
        case .optionalDate: return t.isEmpty || fits(t, .date)
        case .time: return ImportValue.clock(t) != nil
        case .number: return t.isEmpty || ImportValue.number(t, decimalComma: true, signed: true) != nil
        case .count: return t.isEmpty || ImportValue.count(t) != nil
        case .setNumber: return !t.isEmpty
        }
    }

    /// Whether the sampled rows have this shape: nine in ten of them fit every column, and one
    /// is a numbered set. A file of another app with as many columns does not: its dates,
    /// names and numbers would have to stand where this app's do.
    func matches(header fields: [String], rows: [[String]]) -> Bool {
        guard fields.count == header.count, !rows.isEmpty else { return false }
        var fit = 0, numbered = 0
        for row in rows where row.count == header.count {
            guard zip(row, cells).allSatisfy({ Self.fits($0, $1) }) else { continue }
            fit += 1
            if zip(row, cells).allSatisfy({ $1 != .setNumber || ImportValue.count($0.trimmingCharacters(in: .whitespaces)) != nil }) {
                numbered += 1
            }
        }
        return numbered > 0 && fit * 10 >= rows.count * 9
    }

    /// What the import says when it read a header by its shape: which column took which name.
    static func explanation(_ source: ImportSource, original: [String], english: [String], described: String) -> String {
        let pairs = zip(original, english).filter { $0.0.trimmingCharacters(in: .whitespaces).lowercased() != $0.1.lowercased() }
            .map { "\($0.0.trimmingCharacters(in: .whitespaces)) as \($0.1)" }
        return "Read as \(source.displayName) by its shape: the header's words are not ones gymlog knows, but its "
            + "\(original.count) columns are in \(source.displayName)'s order and its rows have \(source.displayName)'s values "
            + "(\(described)); so " + (pairs.isEmpty ? "every column as named" : pairs.joined(separator: ", "))
            + ". Pass --from if it is another app's."
    }

    /// The layout a header of unknown words has by the shape of its first rows (`only`: the
    /// app the user named), with the English header to read it by and the explanation; nil
    /// when none fits.
    static func tell(header fields: [String], rows: [[String]], only: ImportSource?)
        -> (source: ImportSource, header: [String], explanation: String)? {
        for shape in known where only == nil || only == shape.source {
            guard shape.matches(header: fields, rows: rows) else { continue }
            let english = shape.source == .hevy ? HevyReader.englishNames(fields) : shape.header
            return (shape.source, english, explanation(shape.source, original: fields, english: english, described: shape.described))
        }
        if only == nil || only == .stronglifts, let english = StrongLiftsReader.englishHeader(fields, rows: rows) {
            return (.stronglifts, english, explanation(.stronglifts, original: fields, english: english,
                                                       described: "a date, then blocks of an exercise, its weight and its sets' reps"))
        }
        return nil
    }
}
