import Foundation
import Testing
@testable import GymLogCore
import SplitMix

/// Pages of Hevy's API saved to a file: one page or a list of them, told from the content,
/// read a page at a time; plus generated workouts written as the API writes them and read back.
@Suite struct ImportHevyJSONTests {
    static func parse(_ name: String, offset: @escaping @Sendable (Int64) -> Int = { _ in 0 }, chunkSize: Int = 1 << 16) throws -> ImportedFile {
        let bytes = try [UInt8](Data(contentsOf: ImportParserTests.directory.appendingPathComponent(name)))
        return try ImportParser.parse(bytes, options: ImportOptions(utcOffset: offset), chunkSize: chunkSize)
    }

    @Test func onePageWithWarmUpsSupersetsRPEMissedAttemptsCardioAndNotes() throws {
        let file = try Self.parse("hevy-api-one-page.json")
        #expect(file.source == .hevyJSON)
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(ImportParserTests.summaries(file) == [
            "Bench Press (Barbell): warm-up 60kg x 10", "Bench Press (Barbell): 102.5kg x 5 @8.5",
            "Bench Press (Barbell): 102.5kg x 0 (missed)", "Lat Pulldown (Cable): 22.68kg x 12", "Pull Up: bw x 8",
            "Running: 5000m in 25:00", "Plank: 1:00",
        ])
        #expect(file.ignoredRows == [LeftOutRow(line: 1, reason: .emptySet)])
        let upper = file.workouts[0], run = file.workouts[1]
        #expect(upper.name == "Upper" && upper.note == "Felt good\nBench Press (Barbell): Elbows in")
        #expect(upper.startedAt == ImportParserTests.at(2024, 8, 14, 17, 0) && upper.endedAt == ImportParserTests.at(2024, 8, 14, 18, 5))
        #expect(run.startedAt == ImportParserTests.at(2024, 8, 16, 4, 30), "+02:00 is an instant")
        // superset_id 0 groups the pulldown and the pull-up; the bench is on its own.
        let supersets = upper.sets.map(\.supersetID)
        #expect(supersets[0] == nil && supersets[3] != nil && supersets[3] == supersets[4])
    }

    @Test func aListOfPagesPrettyPrintedWithBracesInsideStrings() throws {
        let file = try Self.parse("hevy-api-pages-list.json")
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.workouts.map(\.name) == ["Legs {heavy} \"A\"", "Legs {heavy} \"A\""])
        #expect(ImportParserTests.summaries(file) == [
            "Squat (Barbell): drop 100kg x 10", "Squat (Barbell): warm-up 60kg x 5", "Squat (Barbell): 140kg x 3 @9",
        ])
        #expect(file.workouts[1].note == "squat day ] [")
        #expect(file.workouts[0].note == "Squat (Barbell): belt")
        // A page's problems are named at the line it starts on.
        #expect(try Self.parse("hevy-api-pages-list.json", chunkSize: 3).workouts == file.workouts)
    }

    @Test func aPageThatIsNotHevysIsABadRowAtItsLineAndACutFileIsRefused() throws {
        let text = "[\n{\"workouts\":[]},\n{\"page\":2,\"workouts\":[{\"title\":\"x\"}]}\n]"
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        #expect(file.badRows.map(\.line) == [3])
        #expect(file.badRows.first?.reason.contains("start_time") == true)
        let cut = #expect(throws: UserError.self) {
            try ImportParser.parse(Array("[{\"workouts\":[]},{\"workouts\":[".utf8), options: ImportOptions())
        }
        #expect(cut?.message.contains("cut short") == true)
    }

    // MARK: - Generated workouts, written as the API writes them

    typealias Expected = ReadBackSet

    static let exercises: [(String, ExerciseKind)] = [
        ("Bench Press (Barbell)", .weighted), ("Squat (Barbell)", .weighted), ("Plank", .timed),
        ("Running", .distance), ("Farmers Walk", .carry),
    ]

    static func generate(seed: UInt64) -> (text: String, expected: [[Expected]]) {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
        func json(_ value: Fixed?) -> String { value.map { "\($0)" } ?? "null" }
        var workouts: [(json: String, expected: [Expected])] = []
        var day = epochMillis(year: 2025, month: 1, day: 6, utcOffsetSeconds: 0) / 86_400_000
        for w in 0..<Int.random(in: 1...25, using: &rng) {
            day += Int64.random(in: 1...3, using: &rng)
            let d = civilFromDays(day)
            let start = String(format: "%04d-%02d-%02dT%02d:%02d:00Z", d.year, d.month, d.day, Int.random(in: 6...20, using: &rng), 5)
            var exercisesJSON: [String] = [], expected: [Expected] = []
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let (name, shape) = pick(exercises)
                let superset = pick([Int?.none, 0, 1])
                var sets: [String] = []
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    var e = Expected(name, SetValues(kind: pick([.working, .working, .warmup, .drop, .failure])), superset: superset)
                    var kg: Fixed?, meters: Fixed?
                    switch shape {
                    case .weighted, .bodyweight:
                        kg = Fixed(thousandths: Int64.random(in: 1...400, using: &rng) * 500)
                        e.reps = Int.random(in: 1...20, using: &rng)
                        e.rpe = pick([nil, Fixed(8), Fixed(thousandths: 9500)])
                    case .timed: e.durationSeconds = Int.random(in: 10...300, using: &rng); e.kind = .working
                    case .distance:
                        e.durationSeconds = Int.random(in: 300...3600, using: &rng); meters = Fixed(Int.random(in: 100...20_000, using: &rng))
                        e.kind = .working
                    case .carry:
                        kg = Fixed(Int.random(in: 10...100, using: &rng)); meters = Fixed(Int.random(in: 10...100, using: &rng))
                        e.kind = .working
                    }
                    e.weight = kg.map { Weight($0, .kg) }
                    e.distance = meters.map { Distance($0, .m) }
                    let type = ["working": "normal", "warmup": "warmup", "drop": "dropset", "failure": "failure"][e.kind.rawValue] ?? "normal"
                    sets.append("{\"index\":\(sets.count),\"type\":\"\(type)\",\"weight_kg\":\(json(kg)),\"reps\":\(e.reps.map(String.init) ?? "null"),"
                                + "\"distance_meters\":\(json(meters)),\"duration_seconds\":\(e.durationSeconds.map(String.init) ?? "null"),"
                                + "\"rpe\":\(json(e.rpe))}")
                    expected.append(e)
                }
                exercisesJSON.append("{\"title\":\"\(name)\",\"notes\":null,\"superset_id\":\(superset.map(String.init) ?? "null"),"
                                     + "\"sets\":[\(sets.joined(separator: ","))]}")
            }
            workouts.append(("{\"id\":\"w\(w)\",\"title\":\"Workout \(w)\",\"description\":null,\"start_time\":\"\(start)\","
                             + "\"end_time\":null,\"exercises\":[\(exercisesJSON.joined(separator: ","))]}", expected))
        }
        // Newest first, ten a page, as the API pages them; one page alone, or a list.
        let newest = Array(workouts.reversed())
        let pages = stride(from: 0, to: newest.count, by: 10).map { i in
            "{\"page\":\(i / 10 + 1),\"page_count\":\((newest.count + 9) / 10),\"workouts\":["
                + newest[i..<min(i + 10, newest.count)].map(\.json).joined(separator: ",") + "]}"
        }
        let text = pages.count == 1 && Bool.random(using: &rng) ? pages[0] : "[" + pages.joined(separator: ",\n") + "]"
        return (text, workouts.map(\.expected))
    }

    @Test("generated workouts written as Hevy's API writes them read back as they were", arguments: 0..<40)
    func generatedWorkoutsReadBack(seed: UInt64) throws {
        let (text, expected) = Self.generate(seed: seed)
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions(), chunkSize: 97)
        #expect(file.source == .hevyJSON && file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.readBack == Expected.renumbered(expected), "seed \(seed)\n\(text)")
        let again = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        #expect(again.workouts.flatMap { $0.sets.map(\.id) } == file.workouts.flatMap { $0.sets.map(\.id) })
    }
}
