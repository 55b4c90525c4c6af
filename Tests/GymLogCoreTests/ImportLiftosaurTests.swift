import Foundation
import Testing
@testable import GymLogCore
import SplitMix

/// Liftosaur's history CSV: what was completed (never the plan), planned sets not done left
/// out, units per set, `Name, Equipment` names, notes with line breaks; the older 15-column
/// header; plus generated workouts written as Liftosaur writes them and read back.
@Suite struct ImportLiftosaurTests {
    static func parse(_ name: String) throws -> ImportedFile {
        let bytes = try [UInt8](Data(contentsOf: ImportParserTests.directory.appendingPathComponent(name)))
        return try ImportParser.parse(bytes, options: ImportOptions())
    }

    @Test func completedValuesUnitsPerSetAndPlannedSetsNotDone() throws {
        let file = try Self.parse("liftosaur-20-columns.csv")
        #expect(file.source == .liftosaur)
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(ImportParserTests.summaries(file) == [
            "Squat (Barbell): warm-up 40kg x 5", "Squat (Barbell): 100kg x 3 @8.5", "Bench Press (Dumbbell): 50lb x 12",
            "Pull Up: bw x 8", "Bench Press (Barbell): 80kg x 0 (missed)",
        ])
        #expect(file.ignoredRows == [LeftOutRow(line: 5, reason: .notDone)])
        #expect(file.workouts.map(\.name) == ["Day 1", "Day 2"])
        #expect(file.workouts[0].note == "Squat (Barbell): Felt heavy\nknees ok")
        #expect(file.workouts[0].startedAt == ImportParserTests.at(2024, 3, 4, 17, 2) + 11_123)
    }

    @Test func theOlderFifteenColumnHeader() throws {
        let file = try Self.parse("liftosaur-older-15-columns.csv")
        #expect(file.source == .liftosaur && file.badRows.isEmpty)
        #expect(ImportParserTests.summaries(file) == ["Overhead Press (Barbell): 40kg x 5", "Overhead Press (Barbell): 45kg x 7"])
    }

    @Test func plannedSetsNotDoneAreNamedInTheSummary() {
        #expect(LeftOutReason.notDone.counted(2) == "2 planned sets not done")
    }

    // MARK: - Generated workouts, written as Liftosaur writes them

    typealias Expected = ReadBackSet

    static let lifts = [("Bench Press", "Barbell", "Bench Press (Barbell)"), ("Squat", "Barbell", "Squat (Barbell)"),
                        ("Bicep Curl", "Dumbbell", "Bicep Curl (Dumbbell)"), ("Lat Pulldown", "Cable", "Lat Pulldown (Cable)")]

    static func generate(seed: UInt64) -> (text: String, expected: [[Expected]], notDone: Int) {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
        var rows: [String] = [], expected: [[Expected]] = [], notDone = 0
        var day = epochMillis(year: 2024, month: 1, day: 1, utcOffsetSeconds: 0) / 86_400_000
        for w in 0..<Int.random(in: 1...6, using: &rng) {
            day += Int64.random(in: 1...3, using: &rng)
            let d = civilFromDays(day)
            let start = String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", d.year, d.month, d.day, Int.random(in: 5...21, using: &rng),
                               Int.random(in: 0...59, using: &rng), Int.random(in: 0...59, using: &rng), Int.random(in: 0...999, using: &rng))
            var sets: [Expected] = []
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let (lift, equipment, canonical) = pick(lifts)
                let unit = pick(WeightUnit.allCases)
                let load = Fixed(thousandths: Int64.random(in: 4...120, using: &rng) * 2500)
                let warmup = Int.random(in: 0..<4, using: &rng) == 0
                let reps = Int.random(in: 1...15, using: &rng)
                let rpe = warmup ? nil : pick([nil, Fixed(7), Fixed(thousandths: 8500), Fixed(10)])
                let note = pick(["", "", "paused", "slow, controlled", "grip\nchalk next time"])
                let done = Int.random(in: 0..<6, using: &rng) != 0
                let completed = done ? "\(reps),false,8,\(rpe.map { "\($0)" } ?? ""),false,\(load),\(unit),\(load),\(unit)"
                    : ",false,8,,false,\(load),\(unit),,"
                rows.append("\(start),My Program,Day \(w),\"\(lift), \(equipment)\",\(warmup),\(reps),\(completed),false,,Chest,Triceps,\(note.isEmpty || note == "paused" ? note : "\"\(note)\"")")
                if done { sets.append(Expected(canonical, SetValues(kind: warmup ? .warmup : .working, weight: Weight(load, unit), reps: reps, rpe: rpe))) } else { notDone += 1 }
            }
            expected.append(sets)
        }
        let header = "Workout DateTime,Program,Day Name,Exercise,Is Warmup Set?,Required Reps,Completed Reps,Is AMRAP?,Required RPE,"
            + "Completed RPE,Log RPE?,Required Weight Value,Required Weight Unit,Completed Weight Value,Completed Weight Unit,"
            + "Ask Weight?,Completed Reps Time,Target Muscles,Synergist Muscles,Notes"
        return (([header] + rows).joined(separator: "\n") + "\n", expected.filter { !$0.isEmpty }, notDone)
    }

    @Test("generated workouts written as Liftosaur writes them read back as they were", arguments: 0..<40)
    func generatedWorkoutsReadBack(seed: UInt64) throws {
        let (text, expected, notDone) = Self.generate(seed: seed)
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions(), chunkSize: 61)
        #expect(file.source == .liftosaur && file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.readBack == expected, "seed \(seed)\n\(text)")
        #expect(file.ignoredRows.count == notDone)
    }
}
