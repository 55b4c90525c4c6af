import Foundation
import Testing
@testable import GymLogCore
import SplitMix

/// RepCount's CSV: Swedish headers, semicolons and decimal commas, cardio with kcal, and the
/// bodyweight on every row offered to the bodyweight log once a workout; plus generated
/// workouts written as RepCount writes them and read back.
@Suite struct ImportRepCountTests {
    @Test func swedishHeadersDecimalCommasCardioAndBodyweight() throws {
        let bytes = try [UInt8](Data(contentsOf: ImportParserTests.directory.appendingPathComponent("repcount-swedish.csv")))
        let file = try ImportParser.parse(bytes, options: ImportOptions())
        #expect(file.source == .repcount && file.badRows.isEmpty, "\(file.badRows)")
        #expect(ImportParserTests.summaries(file) == [
            "Bänkpress: 80kg x 8", "Bänkpress: 82.5kg x 6  # tungt", "Löpning: 5.2km in 30:00  # 310 kcal", "Chins: bw x 10",
        ])
        #expect(file.workouts.map(\.name) == ["Pass A", "Pass B"])
        #expect(file.workouts[0].endedAt == ImportParserTests.at(2024, 2, 5, 18, 10))
        #expect(file.bodyweights.map(\.weight) == [Weight(Fixed(thousandths: 82_500), .kg), Weight(Fixed(82), .kg)])
        #expect(file.bodyweights.map(\.measuredAt) == [ImportParserTests.at(2024, 2, 5, 17, 0), ImportParserTests.at(2024, 2, 7, 7, 30)])
        #expect(file.assumedWeightUnit == .kg, "RepCount writes no unit")
    }

    @Test("generated workouts written as RepCount writes them read back as they were", arguments: 0..<40)
    func generatedWorkoutsReadBack(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
        func comma(_ f: Fixed) -> String { "\(f)".replacingOccurrences(of: ".", with: ",") }
        var rows: [String] = [], expected: [[String]] = [], bodyweights: [Fixed] = []
        var day = epochMillis(year: 2024, month: 1, day: 1, utcOffsetSeconds: 0) / 86_400_000
        for w in 0..<Int.random(in: 1...6, using: &rng) {
            day += Int64.random(in: 1...3, using: &rng)
            let d = civilFromDays(day)
            let start = String(format: "%04d-%02d-%02d %02d:00:00", d.year, d.month, d.day, Int.random(in: 5...20, using: &rng))
            let end = String(format: "%04d-%02d-%02d %02d:59:00", d.year, d.month, d.day, 21)
            let bodyweight = Fixed(thousandths: Int64.random(in: 1200...2400, using: &rng) * 50)
            bodyweights.append(bodyweight)
            var sets: [String] = []
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let name = pick(["Knäböj", "Bänkpress", "Marklyft"])
                let load = Fixed(thousandths: Int64.random(in: 4...120, using: &rng) * 2500)
                let reps = Int.random(in: 1...15, using: &rng)
                let note = pick(["", "lätt", "tungt"])
                rows.append("\(start);\(end);\(name);\(comma(load));\(reps);\(note);;;;Ben;Pass \(w);\(comma(bodyweight))")
                sets.append("\(name): \(load)kg x \(reps)" + (note.isEmpty ? "" : "  # \(note)"))
            }
            expected.append(sets)
        }
        let text = "Starttid;Sluttid;Övning;Vikt;Reps;Anteckningar;Kcal;Distans;Tid;Kategori;Namn;Kroppsvikt\n" + rows.joined(separator: "\n")
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions(), chunkSize: 53)
        #expect(file.source == .repcount && file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.workouts.map { w in w.sets.map { file.exercises[$0.exercise].name + ": " + $0.values.summary } } == expected,
                "seed \(seed)\n\(text)")
        #expect(file.bodyweights.map(\.weight.value) == bodyweights)
    }
}
