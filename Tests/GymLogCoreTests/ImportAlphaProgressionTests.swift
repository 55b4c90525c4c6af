import Foundation
import Testing
@testable import GymLogCore
import SplitMix

/// Alpha Progression's block export: a byte-order mark, no-break spaces in the date line,
/// lbs and kg blocks, the comma dialect and the semicolon one (decimal commas, RIR), warm-ups
/// in the exercise header's second field, supersets and dropsets; plus generated sessions
/// written as the app writes them and read back.
@Suite struct ImportAlphaProgressionTests {
    @Test func lbsCommaDialectWithWarmupsSupersetsDropsetsAndNoBreakSpaces() throws {
        let file = try ImportParserTests.parse("alpha-progression-lbs-comma.csv")
        #expect(file.source == .alphaProgression && file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.delimiter == ",")
        #expect(ImportParserTests.summaries(file) == [
            "Bench Press (Barbell): warm-up 95lb x 10", "Bench Press (Barbell): warm-up 135lb x 5",
            "Bench Press (Barbell): 185lb x 8", "Bench Press (Barbell): 185lb x 7", "Bench Press (Barbell): 185lb x 6",
            "Incline Dumbbell Press: 60lb x 10", "Incline Dumbbell Press: 60lb x 9",
            "Fly (Cable): 30lb x 15", "Fly (Cable): 30lb x 12",
            "Triceps Pushdown: 70lb x 12", "Triceps Pushdown: drop 50lb x 10", "Triceps Pushdown: drop 40lb x 8",
            "Pull Up: bw x 10", "Pull Up: bw+25lb x 6",
        ])
        #expect(file.assumedWeightUnit == nil, "every block names its unit")
        // Then the title is the name, the plan line the note, the duration the end
        #expect(file.workouts.map(\.name) == ["Push Day", "Pull Day"])
        #expect(file.workouts.map(\.note) == ["Day 2 · Week 1 · Upper/Lower", "Day 3 · Week 1 · Upper/Lower"])
        #expect(file.workouts[0].startedAt == ImportParserTests.at(2023, 3, 23, 18, 59), "6:59 pm, a narrow no-break space before pm")
        #expect(file.workouts[0].endedAt == ImportParserTests.at(2023, 3, 23, 20, 9), "1:10 hr")
        #expect(file.workouts[1].startedAt == ImportParserTests.at(2023, 3, 25, 7, 5))
        // And the two exercises marked Superset 1 are one superset; the others none
        let groups = ImportParserTests.firstMetNumbers(file.workouts[0].sets.map(\.supersetID))
        #expect(groups == [nil, nil, nil, nil, nil, 0, 0, 0, 0, nil, nil, nil])
    }

    @Test func semicolonDialectDecimalCommasRirAndOneLineSessionHeaders() throws {
        let file = try ImportParserTests.parse("alpha-progression-kg-semicolon-rir.csv")
        #expect(file.source == .alphaProgression && file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.delimiter == ";")
        #expect(ImportParserTests.summaries(file) == [
            "Bankdrücken: warm-up 40kg x 10", "Bankdrücken: warm-up 60kg x 5",
            "Bankdrücken: 82.5kg x 8 rir2", "Bankdrücken: 82.5kg x 7 rir0.5",
            "Hack Squats (Machine): warm-up 37.5kg x 9", "Hack Squats (Machine): warm-up 72.5kg x 7",
            "Hack Squats (Machine): 115kg x 8 rir1", "Hack Squats (Machine): 102.5kg x 6 rir0",
            "Leg Extension (Machine): 60kg x 12 rir0", "Leg Extension (Machine): drop 45kg x 10 rir0",
            "Leg Extension (Machine): drop 30kg x 9 rir0",
            "Dips (Bodyweight): bw x 12 rir1", "Dips (Bodyweight): bw+10kg x 8 rir1",
        ])
        #expect(file.workouts.map(\.name) == ["Oberkörper", "Legs · Day 2 · Week 4 · Push-Pull-Legs"])
        #expect(file.workouts[0].note == "Day 1 · Week 2 · Kraft")
        #expect(file.workouts[1].startedAt == ImportParserTests.at(2024, 5, 4, 4, 54), "24-hour, `h` after it")
        #expect(file.workouts[1].endedAt == ImportParserTests.at(2024, 5, 4, 5, 56), "1:02 hr")
    }

    @Test func kgCommaDialectAndATitleInAnotherZone() throws {
        let file = try ImportParserTests.parse("alpha-progression-kg-comma.csv", offset: { _ in 3600 })
        #expect(file.source == .alphaProgression && file.badRows.isEmpty, "\(file.badRows)")
        #expect(ImportParserTests.summaries(file) == ["Squat (Barbell): warm-up 20kg x 10", "Squat (Barbell): 100kg x 5", "Squat (Barbell): 102.5kg x 5"])
        #expect(file.workouts.first?.startedAt == ImportParserTests.at(2023, 11, 2, 12, 15, offset: 3600), "12:15 pm is noon")
    }

    @Test func aSetRowThatCannotBeReadIsNamedWithItsLine() throws {
        let text = "\"A\"\n\"2024-01-02 6:00 pm\",1:00 hr\nPlan\n\"1. Squat\"\n#,KG,REPS\n1,100,5\n2,heavy,5\n3,100\n"
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        #expect(file.source == .alphaProgression)
        #expect(file.badRows.map(\.line) == [7, 8], "\(file.badRows)")
        #expect(file.badRows.first?.reason.contains("'heavy'") == true)
        #expect(file.badRows.last?.reason.contains("column header on line 5") == true)
    }

    @Test func anRIRIsKeptAsWrittenFrom0To10AndOneOutsideIsABadRowNamingIt() throws {
        // Given RIRs of 0, 10 (which RPE 10 - RIR could not hold), a half step, one over 10 and one off the steps
        let text = "\"A\"\n\"2024-01-02 18:00\";1:00 hr\nPlan\n\"1. Squat\"\n#;KG;REPS;RIR\n"
            + "1;100;5;0\n2;80;12;10\n3;90;8;1,5\n4;90;8;11\n5;90;8;1,3\n"
        // When it is read
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        // Then the RIRs are the sets' own, not an RPE, and the two bad ones are refused with their value
        #expect(file.workouts.flatMap(\.sets).map(\.values.summary) == ["100kg x 5 rir0", "80kg x 12 rir10", "90kg x 8 rir1.5"])
        #expect(file.workouts.flatMap(\.sets).allSatisfy { $0.values.rpe == nil })
        #expect(file.badRows.map(\.line) == [9, 10], "\(file.badRows)")
        #expect(file.badRows.first?.reason == "RIR '11' is not between 0 and 10")
        #expect(file.badRows.last?.reason == "RIR 1.3 is not between 0 and 10 in steps of 0.5")
    }

    @Test func aSetImportedWhenRIRWasKeptAsRPEKeepsItsIdSoItIsNotImportedTwice() {
        // Given a set as imported before RIR was kept (RIR 2 stored as RPE 8) and as imported now
        let before = SetValues(weight: Weight(Fixed(100), .kg), reps: 5, rpe: Fixed(8))
        let now = SetValues(weight: Weight(Fixed(100), .kg), reps: 5, rir: Fixed(2))
        // Then both derive the same id, so importing the file again finds the first
        #expect(canonicalValues(now) == canonicalValues(before))
        #expect(canonicalValues(now) != canonicalValues(SetValues(weight: Weight(Fixed(100), .kg), reps: 5, rir: Fixed(3))))
    }

    @Test func aFileOfAnotherShapeIsNotReadAsAlphaProgression() throws {
        #expect(try ImportParserTests.parse("strong-comma-newest-first.csv").source == .strong)
        let error = #expect(throws: UserError.self) { try ImportParserTests.parse("strong-comma-newest-first.csv", source: .alphaProgression) }
        #expect(error?.message.contains("#,KG,REPS") == true)
    }

    @Test("generated sessions written as Alpha Progression writes them read back as they were", arguments: 0..<40)
    func generatedSessionsReadBack(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
        let semicolon = Bool.random(using: &rng)
        let d = semicolon ? ";" : ","
        let unit = pick(["KG", "LBS"]), suffix = unit == "KG" ? "kg" : "lb"
        func written(_ f: Fixed) -> String { semicolon ? "\(f)".replacingOccurrences(of: ".", with: ",") : "\(f)" }
        var lines = ["\u{FEFF}"], expected: [[String]] = [], names: [String] = [], groups: [[Int?]] = []
        var day = epochMillis(year: 2023, month: 1, day: 1, utcOffsetSeconds: 0) / 86_400_000
        for w in 0..<Int.random(in: 1...5, using: &rng) {
            day += Int64.random(in: 1...3, using: &rng)
            let c = civilFromDays(day)
            let hour = Int.random(in: 1...12, using: &rng)
            let space = pick(["\u{00A0}", "\u{202F}", " "])
            names.append("Session \(w)")
            lines += ["\"Session \(w)\"", String(format: "\"%04d-%02d-%02d %d:%02d", c.year, c.month, c.day, hour, 5)
                      + "\(space)\(pick(["am", "pm"]))\"\(d)1:00\u{00A0}hr", "Day \(w) · Week 1 · Plan", ""]
            var sets: [String] = [], grouped: [Int?] = []
            for (n, name) in ["Squat", "Bench Press (Barbell)", "Row"].shuffled(using: &rng).prefix(Int.random(in: 1...3, using: &rng)).enumerated() {
                let warmups = (0..<Int.random(in: 0...2, using: &rng)).map { _ in (Fixed(Int.random(in: 4...20, using: &rng) * 5), Int.random(in: 3...10, using: &rng)) }
                let drops = Int.random(in: 0...2, using: &rng)
                let superset = warmups.isEmpty && drops == 0 ? pick([Int?.none, 1, 2]) : nil
                var header = "\"\(n + 1). \(name)\""
                if !warmups.isEmpty { header += d + "\"" + warmups.map { "\(written($0.0)) x \($0.1)" }.joined(separator: "\n") + "\"" }
                else if drops > 0 { header += "\(d)\"\(drops) dropsets\"" }
                else if let superset { header += "\(d)\"Superset \(superset)\"" }
                lines += [header, "\"3 sets · 8 reps\"", "#\(d)\(unit)\(d)REPS" + (semicolon ? "\(d)RIR" : "")]
                let shown = ExerciseSpellings.canonical(name)  // `Squat` is `Squat (Barbell)` in every app's history
                sets += warmups.map { "\(shown): warm-up \($0.0)\(suffix) x \($0.1)" }
                let count = Int.random(in: 1...4, using: &rng)
                grouped += Array(repeating: superset, count: warmups.count + count)
                for i in 1...count {
                    let load = Fixed(thousandths: Int64.random(in: 8...100, using: &rng) * 2500)
                    let reps = Int.random(in: 1...15, using: &rng)
                    let rir = Fixed(thousandths: Int64.random(in: 0...20, using: &rng) * 500)
                    lines.append("\(i)\(d)\(written(load))\(d)\(reps)" + (semicolon ? "\(d)\(written(rir))" : ""))
                    let drop = warmups.isEmpty && i > count - min(drops, count - 1)
                    sets.append("\(shown): \(drop ? "drop " : "")\(load)\(suffix) x \(reps)" + (semicolon ? " rir\(rir)" : ""))
                }
                lines.append("")
            }
            expected.append(sets)
            groups.append(ImportParserTests.firstMetNumbers(grouped))
        }
        let text = lines.joined(separator: "\n")
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions(), chunkSize: 61)
        #expect(file.source == .alphaProgression && file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.workouts.map(\.name) == names.map { Optional($0) }, "seed \(seed)\n\(text)")
        #expect(file.workouts.map { w in w.sets.map { file.exercises[$0.exercise].name + ": " + $0.values.summary } } == expected,
                "seed \(seed)\n\(text)")
        // And the exercises marked with one superset number are one superset, in their workout only
        #expect(file.workouts.map { ImportParserTests.firstMetNumbers($0.sets.map(\.supersetID)) } == groups, "seed \(seed)\n\(text)")
        let supersets: Set<UUID> = Set(file.workouts.flatMap { $0.sets.compactMap(\.supersetID) })
        let written: Int = groups.map { Set($0.compactMap { $0 }).count }.reduce(0, +)
        #expect(supersets.count == written, "a superset number belongs to its workout")
    }
}
