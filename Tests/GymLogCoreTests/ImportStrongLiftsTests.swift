import Foundation
import Testing
@testable import GymLogCore
import SplitMix

/// StrongLifts 5x5's spreadsheet export: a row per workout with repeated exercise blocks, an
/// empty set cell a set not done, units in cells or headers, the bodyweight offered to the log;
/// plus generated workouts written in that layout and read back.
@Suite struct ImportStrongLiftsTests {
    static func parse(_ name: String, unit: WeightUnit = .kg) throws -> ImportedFile {
        let bytes = try [UInt8](Data(contentsOf: ImportParserTests.directory.appendingPathComponent(name)))
        return try ImportParser.parse(bytes, options: ImportOptions(weightUnit: unit))
    }

    @Test func blocksSetsNotDoneUnitsInCellsAndBodyweight() throws {
        let file = try Self.parse("stronglifts-blocks-sets-not-done.csv", unit: .lb)
        #expect(file.source == .stronglifts)
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.assumedWeightUnit == nil, "every weight says kg")
        let squats = (0..<5).map { _ in "Squat (Barbell): 60kg x 5" }
        #expect(Array(ImportParserTests.summaries(file).prefix(14)) == squats + [
            "Bench Press (Barbell): 40kg x 5", "Bench Press (Barbell): 40kg x 5", "Bench Press (Barbell): 40kg x 5",
            "Bench Press (Barbell): 40kg x 4",
        ] + (0..<5).map { _ in "Bent Over Row (Barbell): 40kg x 5" })
        #expect(file.workouts.map(\.sets.count) == [14, 11, 10])
        #expect(file.workouts[1].sets.last.map { file.exercises[$0.exercise].name + ": " + $0.values.summary } == "Deadlift (Barbell): 70kg x 5")
        // One set of bench on day 1, four of deadlift on day 2: not done, left out and counted.
        #expect(file.ignoredRows == [LeftOutRow(line: 2, reason: .notDone)] + Array(repeating: LeftOutRow(line: 3, reason: .notDone), count: 4))
        #expect(file.workouts.map(\.name) == ["A", "B", "A"])
        #expect(file.workouts[0].note == "first day")
        #expect(file.workouts[0].startedAt == ImportParserTests.at(2024, 1, 8, 12, 0))
        #expect(file.bodyweights.map(\.weight) == [Weight(Fixed(thousandths: 80_500), .kg), Weight(Fixed(thousandths: 80_200), .kg)])
        #expect(file.bodyweights.map(\.measuredAt) == [ImportParserTests.at(2024, 1, 8, 12, 0), ImportParserTests.at(2024, 1, 10, 12, 0)])
    }

    @Test func unitsInTheHeaderTimesAndABodyweightBlock() throws {
        let file = try Self.parse("stronglifts-header-units-two-blocks.csv", unit: .kg)
        #expect(file.source == .stronglifts && file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.assumedWeightUnit == nil, "Weight 1 (lb) says pounds")
        #expect(ImportParserTests.summaries(file) == [
            "Squat (Barbell): 135lb x 5", "Squat (Barbell): 135lb x 5", "Squat (Barbell): 135lb x 5",
            "Bench Press (Barbell): 95lb x 5", "Bench Press (Barbell): 95lb x 5", "Bench Press (Barbell): 95lb x 0 (missed)",
            "Squat (Barbell): 140lb x 5", "Squat (Barbell): 140lb x 5", "Squat (Barbell): 140lb x 5",
            "Pull Up: bw x 8", "Pull Up: bw x 6",
        ])
        #expect(file.ignoredRows == [LeftOutRow(line: 3, reason: .notDone)])
        #expect(file.workouts.map(\.startedAt) == [ImportParserTests.at(2023, 6, 1, 7, 30), ImportParserTests.at(2023, 6, 3, 7, 45)])
        #expect(file.bodyweights.map(\.weight) == [Weight(Fixed(185), .lb), Weight(Fixed(thousandths: 184_500), .lb)])
    }

    @Test func theHeaderIsReadAsBlocksWhateverTheirCount() {
        let names = ColumnTable.names(["Date", "Workout", "Exercise 1", "Weight 1 (kg)", "Set 1", "Set 2", "Exercise 2", "Weight 2",
                                       "Reps 1", "Note"])
        let blocks = StrongLiftsReader.blocks(names)
        #expect(blocks.map(\.exercise) == [2, 6])
        #expect(blocks.map(\.weight) == [3, 7])
        #expect(blocks.map(\.weightUnit) == [.kg, nil])
        #expect(blocks.map(\.sets) == [[4, 5], [8]])
    }

    @Test func badCellsAreNamedWithTheirLine() throws {
        let text = "Date,Workout,Body Weight,Exercise 1,Weight 1,Set 1,Set 2\n"
            + "2024-01-08,A,80,Squat,sixty,5,5\n"
            + "2024-01-09,A,80,Squat,60,5,five\n"
            + "2024-01-10,A,80,,,5,5\n"
            + "yesterday,A,80,Squat,60,5,5\n"
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        #expect(file.source == .stronglifts)
        #expect(file.badRows.map(\.line) == [2, 3, 4, 5])
        #expect(file.badRows[0].reason.contains("Weight 1 'sixty' is not a weight"))
        #expect(file.badRows[1].reason.contains("Set 2 'five' is not a whole number"))
        #expect(file.badRows[2].reason.contains("Exercise 1 is empty but its sets are filled in"))
        #expect(file.badRows[3].reason.contains("Date 'yesterday'"))
    }

    // MARK: - Generated workouts, written in StrongLifts' layout

    typealias Expected = ReadBackSet

    static let lifts = [("Squat", "Squat (Barbell)"), ("Bench Press", "Bench Press (Barbell)"), ("Barbell Row", "Bent Over Row (Barbell)"),
                        ("Overhead Press", "Overhead Press (Barbell)"), ("Deadlift", "Deadlift (Barbell)")]

    static func generate(seed: UInt64) -> (text: String, unit: WeightUnit, expected: [[Expected]], notDone: Int) {
        var rng = SplitMix64(seed: seed)
        let unit = WeightUnit.allCases[Int.random(in: 0...1, using: &rng)]
        let blocks = Int.random(in: 1...4, using: &rng), setColumns = Int.random(in: 1...5, using: &rng)
        var header = ["Date", "Workout", "Body Weight"]
        for b in 1...blocks { header += ["Exercise \(b)", "Weight \(b)"] + (1...setColumns).map { "Set \($0)" } }
        var rows: [String] = [], expected: [[Expected]] = [], notDone = 0
        var day = epochMillis(year: 2024, month: 2, day: 1, utcOffsetSeconds: 0) / 86_400_000
        for w in 0..<Int.random(in: 1...6, using: &rng) {
            day += Int64.random(in: 1...3, using: &rng)
            let d = civilFromDays(day)
            var cells = [String(format: "%04d-%02d-%02d", d.year, d.month, d.day), w % 2 == 0 ? "A" : "B", ""]
            var sets: [Expected] = []
            for (written, canonical) in lifts.shuffled(using: &rng).prefix(blocks) {
                let load = Fixed(thousandths: Int64.random(in: 8...80, using: &rng) * 2500)
                cells += [written, "\(load)" + (Bool.random(using: &rng) ? unit.rawValue : "")]
                for _ in 0..<setColumns {
                    if Int.random(in: 0..<5, using: &rng) == 0 { cells.append(""); notDone += 1; continue }
                    let reps = Int.random(in: 1...5, using: &rng)
                    cells.append("\(reps)")
                    sets.append(Expected(canonical, SetValues(weight: Weight(load, unit), reps: reps)))
                }
            }
            rows.append(cells.joined(separator: ","))
            if !sets.isEmpty { expected.append(sets) }
        }
        return (([header.joined(separator: ",")] + rows).joined(separator: "\n") + "\n", unit, expected, notDone)
    }

    @Test("generated workouts written in StrongLifts' layout read back as they were", arguments: 0..<40)
    func generatedWorkoutsReadBack(seed: UInt64) throws {
        let (text, unit, expected, notDone) = Self.generate(seed: seed)
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions(weightUnit: unit), chunkSize: 41)
        #expect(file.source == .stronglifts && file.badRows.isEmpty, "\(file.badRows)\n\(text)")
        #expect(file.readBack == expected, "seed \(seed)\n\(text)")
        #expect(file.ignoredRows.count == notDone)
        let again = try ImportParser.parse(Array(text.utf8), options: ImportOptions(weightUnit: unit))
        #expect(again.workouts.flatMap { $0.sets.map(\.id) } == file.workouts.flatMap { $0.sets.map(\.id) })
    }
}
