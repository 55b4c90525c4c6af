import Foundation
import Testing
@testable import GymLogCore
import SplitMix

/// A text cell a spreadsheet would run as a formula (CSV injection, issue 45) is written as
/// text, and gymlog's import reads it back as it was typed.
@Suite struct ExportFormulaTests {
    /// The characters that make a spreadsheet read a cell as a formula (OWASP's list).
    static let triggers: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    /// A workout whose names and notes are formulas, a name that already starts with `'=`, an
    /// alias that is one, and an assisted set whose load is the number -10. (No stored text
    /// begins with a carriage return: import and entry turn one into a line break; the guard
    /// for it is checked in `guardIsReversible`.)
    static var rows: [ExportRow] {
        let start = ExportFixtures.at(2026, 11, 21, 10, 15, offset: 0)
        let workout = Workout(id: ExportFixtures.id(0x100), name: "@SUM(A1)", startedAt: start, endedAt: start + 3_600_000,
                              utcOffsetSeconds: 0, note: #"=HYPERLINK("http://x","y")"#)
        let sets: [(Int, String, SetValues, [String])] = [
            (0x10, "+1+1 Press", SetValues(weight: Weight(Fixed(100), .kg), reps: 5, note: "=cmd|'/c calc'!A1"), ["-bp", "flat"]),
            (0x11, "-2+3 Row", SetValues(weight: Weight(Fixed(60), .kg), reps: 8, note: "\tindented"), []),
            (0x12, "@Curl", SetValues(weight: Weight(Fixed(20), .kg), reps: 10, note: "- felt easy"), []),
            (0x13, "'=Quoted already", SetValues(weight: Weight(Fixed(30), .kg), reps: 10, note: "'+kept as typed"), []),
            (0x14, "Dip", SetValues(weight: Weight(Fixed(-10), .kg), bodyweight: true, reps: 8, note: "+ one more next time"), []),
        ]
        var numbering = ExportNumbering()
        return sets.enumerated().map { i, s in
            let set = LoggedSet(id: ExportFixtures.id(0x1000 + i), workoutID: workout.id, exerciseID: ExportFixtures.id(s.0), values: s.2,
                                performedAt: start + Int64(i + 1) * 60_000, utcOffsetSeconds: 0)
            return numbering.row(set, workout: workout, exercise: Exercise(id: ExportFixtures.id(s.0), name: s.1, kind: .weighted),
                                 aliases: s.3)
        }
    }

    /// The columns of each layout that hold text a lifter typed.
    static func textColumns(_ format: ExportFormat) -> [String] {
        switch format {
        case .native: ["workout_name", "workout_note", "exercise", "note", "exercise_aliases"]
        case .strong: ["Workout Name", "Exercise Name", "Notes", "Workout Notes"]
        case .hevy: ["title", "description", "exercise_title", "exercise_notes"]
        }
    }

    @Test("formula text is written as text in every layout, numbers are not, and it reads back as typed",
          arguments: ExportFormat.allCases)
    func formulasAreWrittenAsText(format: ExportFormat) throws {
        // Given names and notes that begin with =, +, -, @, a tab or a carriage return, and a load of -10 kg
        let rows = Self.rows
        // When they are exported
        let bytes = ExportRoundTripTests.export(rows, format, unit: .kg)
        let cells = ImportCSVCursor.rows(String(decoding: bytes, as: UTF8.self), delimiter: nil)
        let header = try #require(cells.first)
        // Then no text cell begins with one of those characters: each such value begins with `'`
        var guarded = 0
        for name in Self.textColumns(format) {
            let column = try #require(header.firstIndex(of: name), "\(format) has no \(name)")
            for row in cells.dropFirst() {
                let cell = row[column]
                #expect(cell.first.map { !Self.triggers.contains($0) } ?? true, "\(format) \(name): \(cell.debugDescription)")
                if cell.hasPrefix("'") { guarded += 1 }
            }
        }
        #expect(guarded >= 6, "\(format): \(guarded) cells begin with '")
        // And a number stays a number: the assisted load is -10, not '-10
        let weight = try #require(header.firstIndex { $0 == "weight" || $0 == "Weight" || $0 == "weight_kg" })
        #expect(cells.dropFirst().map { $0[weight] }.contains("-10"), "\(cells.map { $0[weight] })")

        // When the file is imported
        let file = try ExportRoundTripTests.importBack(bytes, of: rows, assumedUnit: .kg)
        // Then every name, note and value is back exactly as typed (as the layout carries it)
        try ExportRoundTripTests.expectCarried(file, rows, bodyweights: [], format, unit: .kg, "\(format)")
        #expect(file.exercises.map(\.name) == rows.map(\.exercise.name))
        if format == .native { #expect(file.exercises.first?.aliases == ["-bp", "flat"]) }
        // And native and Strong files export again byte for byte
        if format != .hevy {
            #expect(ExportRoundTripTests.export(ExportRoundTripTests.rowsAsStored(file), format, unit: .kg) == bytes)
        }
    }

    @Test("the guard reads back exactly for every string, and no guarded text begins like a formula")
    func guardIsReversible() {
        // Given strings built from quotes, formula characters and plain text
        let pieces = ["'", "''", "=", "+", "-", "@", "\t", "\r", " ", "a", "1", "é", "\"", ";", ","]
        var rng = SplitMix64(seed: 45)
        var texts = ["", "'", "''", "'90s mix", "=1+1", "'=1+1", "''=1+1", "-10", "'-'", "a=b"]
        for _ in 0..<5000 {
            texts.append((0..<Int.random(in: 1...5, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined())
        }
        for text in texts {
            // When each is guarded, written as a text cell and read back
            let guarded = FormulaGuard.guarded(text)
            var writer = CSVWriter()
            writer.textField(text)
            writer.endRow()
            let cell = ImportCSVCursor.rows(String(decoding: writer.buffer, as: UTF8.self)).first?.first ?? ""
            // Then the cell is the guarded text, unguarding gives the text back, and no cell begins with a trigger
            #expect(cell == guarded, "\(text.debugDescription)")
            #expect(FormulaGuard.unguarded(guarded) == text, "\(text.debugDescription)")
            #expect(guarded.utf8.first.map { !FormulaGuard.isTrigger($0) } ?? true, "\(text.debugDescription)")
            // And a text that needs no guard is left alone either way
            if !FormulaGuard.needsGuard(text.utf8) { #expect(guarded == text && FormulaGuard.unguarded(text) == text) }
        }
    }
}
