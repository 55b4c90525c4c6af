import Foundation
import Testing
@testable import GymLogCore
import SplitMix

/// Lyfta's CSV: a header starting with a space, no unit anywhere (read in the assumed unit,
/// and said), supersets numbered per workout, `NORMAL_SET`-style set types, newest first;
/// plus generated workouts written as Lyfta writes them and read back.
@Suite struct ImportLyftaTests {
    @Test func noUnitsSupersetsSetTypesAndDurations() throws {
        let bytes = try [UInt8](Data(contentsOf: ImportParserTests.directory.appendingPathComponent("lyfta-no-units-supersets.csv")))
        let file = try ImportParser.parse(bytes, options: ImportOptions(weightUnit: .lb))
        #expect(file.source == .lyfta && file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.assumedWeightUnit == .lb, "Lyfta writes no unit: the summary names the one assumed")
        #expect(ImportParserTests.summaries(file) == [
            "Bench Press (Barbell): 100lb x 5", "Bench Press (Barbell): 100lb x 0 (missed)",
            "Bent Over Row (Barbell): warm-up 60lb x 10", "Bent Over Row (Barbell): 80lb x 8",
            "Lat Pulldown (Cable): 55lb x 12", "Face Pull (Cable): drop 20lb x 15",
        ])
        #expect(file.workouts.map(\.name) == ["Push", "Pull"])
        #expect(file.workouts[0].endedAt == ImportParserTests.at(2024, 7, 1, 19, 5), "1h 5m")
        let pull = file.workouts[1].sets.map(\.supersetID)
        #expect(pull[0] == nil && pull[1] == nil && pull[2] != nil && pull[2] == pull[3])
    }

    @Test func anUnknownSetTypeIsABadRowNamingIt() throws {
        let text = " Title,Date,Duration,Exercise,\"Superset id\",Weight,Reps,Distance,Time,\"Set Type\"\n"
            + "A,2024-07-01 18:00:00,,Squat,,100,5,,,HEAVY_SET\n"
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        #expect(file.badRows.map(\.line) == [2])
        #expect(file.badRows.first?.reason.contains("Set Type 'HEAVY_SET'") == true)
    }

    typealias Expected = ReadBackSet

    @Test("generated workouts written as Lyfta writes them read back as they were", arguments: 0..<40)
    func generatedWorkoutsReadBack(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
        let types: [(SetKind, String)] = [(.working, "NORMAL_SET"), (.warmup, "WARMUP_SET"), (.drop, "DROP_SET"), (.failure, "FAILURE_SET")]
        var workouts: [(rows: [String], expected: [Expected])] = []
        var day = epochMillis(year: 2024, month: 1, day: 1, utcOffsetSeconds: 0) / 86_400_000
        for w in 0..<Int.random(in: 1...6, using: &rng) {
            day += Int64.random(in: 1...3, using: &rng)
            let d = civilFromDays(day)
            let date = String(format: "%04d-%02d-%02d %02d:%02d:00", d.year, d.month, d.day, Int.random(in: 5...21, using: &rng), 0)
            var rows: [String] = [], expected: [Expected] = []
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let name = pick(["Bench Press (Barbell)", "Squat (Barbell)", "Lat Pulldown (Cable)"])
                let (kind, type) = pick(types)
                let load = Fixed(thousandths: Int64.random(in: 4...120, using: &rng) * 2500)
                let reps = Int.random(in: 1...15, using: &rng)
                let superset = pick([Int?.none, 1, 2])
                rows.append("Workout \(w),\(date),1h,\(name),\(superset.map(String.init) ?? ""),\(load),\(reps),,,\(type)")
                expected.append(Expected(name, SetValues(kind: kind, weight: Weight(load, ImportOptions().weightUnit), reps: reps), superset: superset))
            }
            workouts.append((rows, expected))
        }
        let text = " Title,Date,Duration,Exercise,\"Superset id\",Weight,Reps,Distance,Time,\"Set Type\"\n"
            + workouts.reversed().flatMap(\.rows).joined(separator: "\n")
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        #expect(file.source == .lyfta && file.badRows.isEmpty, "\(file.badRows)")
        // Superset ids compared as groups: numbered by first appearance within each workout.
        #expect(file.readBack == Expected.renumbered(workouts.map(\.expected)), "seed \(seed)\n\(text)")
    }
}
