import Foundation
import Testing
@testable import GymLogCore
import SplitMix

/// GymBook's CSV: headers and values in English or Italian, `DD/MM/YY` dates (month first in
/// a US export), reps or a time with unit words, a weight or a distance with its unit and a
/// decimal comma, warm-ups and cool-downs, and skipped sets (planned, not done) left out and
/// counted; plus generated workouts written as GymBook writes them and read back.
@Suite struct ImportGymBookTests {
    @Test func italianHeadersDecimalCommasCoolDownsAndSkippedSets() throws {
        let file = try ImportParserTests.parse("gymbook-italian.csv")
        #expect(file.source == .gymbook && file.badRows.isEmpty, "\(file.badRows)")
        #expect(ImportParserTests.summaries(file) == [
            "Panca piana: warm-up 40kg x 12", "Panca piana: 80kg x 8  # buona", "Plank: 45s",
            "Tapis roulant: warm-up 1.5km in 10:00  # cool-down", "Trazioni: bw x 10", "Trazioni: bw x 8",
        ])
        // Then the skipped set (its planned 82,50 kg) is left out and counted as not done
        #expect(file.ignoredRows == [LeftOutRow(line: 4, reason: .notDone)])
        #expect(file.workouts.map(\.name) == ["Petto e tricipiti", "Schiena"])
        #expect(file.workouts.map(\.startedAt) == [ImportParserTests.at(2024, 3, 15, 18, 2), ImportParserTests.at(2024, 3, 16, 9, 30)])
        #expect(file.dateOrder == .dmy)
        #expect(file.assumedWeightUnit == nil, "every weight has its unit")
        // And every set keeps the time GymBook wrote; the workout ends at its last
        #expect(file.workouts[0].sets.map(\.performedAt) == [2, 5, 15, 20].map { ImportParserTests.at(2024, 3, 15, 18, $0) })
        #expect(file.workouts[0].endedAt == ImportParserTests.at(2024, 3, 15, 18, 20))
    }

    @Test func englishHeadersMonthFirstDatesTwelveHourTimesAndGroupedThousands() throws {
        let file = try ImportParserTests.parse("gymbook-english-month-first.csv")
        #expect(file.source == .gymbook && file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.dateOrder == .mdy, "25 is no month")
        #expect(ImportParserTests.summaries(file) == [
            "Bench Press (Barbell): warm-up 95lb x 10", "Bench Press (Barbell): 185lb x 5",
            "Rowing Machine: warm-up 1000m in 5:00  # cool-down; easy",
        ])
        #expect(file.ignoredRows.map(\.reason) == [.notDone])
        #expect(file.workouts.first?.startedAt == ImportParserTests.at(2024, 1, 25, 18, 2), "6:02 PM")
    }

    static let italianHeader = "Data,Programma,Ora,Esercizio,Area,Muscoli primari,Muscoli secondari,Tipo,Ripetizioni / Tempo,Peso / Distanza,Note,Saltato\n"
    static let englishHeader = "Date,Program,Time,Exercise,Area,Primary Muscles,Secondary Muscles,Set Type,Reps / Time,Weight / Distance,Notes,Skipped\n"

    @Test func anItalianExportIsDayFirstEvenWhenNoDayIsAboveTwelve() throws {
        let text = Self.italianHeader + "05/03/24,A,18:00,Squat,Gambe,,,Serie,5,\"100,00 kg\",,No\n"
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        #expect(file.workouts.first?.startedAt == ImportParserTests.at(2024, 3, 5, 18, 0))
        // An English one could be either: refused, naming the option
        let english = Self.englishHeader + "05/03/24,A,6:00 PM,Squat,Legs,,,Set,5,100 kg,,No\n"
        let error = #expect(throws: UserError.self) { try ImportParser.parse(Array(english.utf8), options: ImportOptions()) }
        #expect(error?.message.contains("--date-order") == true)
    }

    @Test func aValueThatCannotBeReadIsNamedWithItsLine() throws {
        let text = Self.italianHeader
            + "15/03/24,A,18:00,Squat,Gambe,,,Serie,5,\"100,00 kg\",,forse\n"
            + "15/03/24,A,18:05,Squat,Gambe,,,Serie,5,\"100,00 stone\",,No\n"
            + "15/03/24,A,18:09,Squat,Gambe,,,Stretching,5,\"100,00 kg\",,No\n"
            + "15/03/24,A,18:12,Squat,Gambe,,,Serie,tante,\"100,00 kg\",,No\n"
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        #expect(file.badRows.map(\.line) == [2, 3, 4, 5], "\(file.badRows)")
        #expect(file.badRows.map { $0.reason.contains("'forse'") || $0.reason.contains("'stone'") || $0.reason.contains("'Stretching'")
            || $0.reason.contains("'tante'") } == [true, true, true, true])
    }

    @Test("generated workouts written as GymBook writes them read back as they were", arguments: 0..<40)
    func generatedWorkoutsReadBack(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
        let italian = Bool.random(using: &rng)
        let kinds: [(String, String?, String)] = italian
            ? [("Serie", nil, ""), ("Riscaldamento", nil, "warm-up "), ("Defaticamento", "cool-down", "warm-up ")]
            : [("Set", nil, ""), ("Warm-up", nil, "warm-up "), ("Cool-down", "cool-down", "warm-up ")]
        var rows: [String] = [], expected: [[String]] = [], notDone = 0
        var day = epochMillis(year: 2024, month: 1, day: 12, utcOffsetSeconds: 0) / 86_400_000
        for w in 0..<Int.random(in: 1...5, using: &rng) {
            day += Int64.random(in: 1...3, using: &rng)
            let d = civilFromDays(day)
            let date = italian ? String(format: "%02d/%02d/%02d", d.day, d.month, d.year % 100)
                               : String(format: "%02d/%02d/%02d", d.month, d.day, d.year % 100)
            var sets: [String] = []
            for i in 0..<Int.random(in: 1...6, using: &rng) {
                let name = pick(["Squat", "Panca piana", "Stacco"])
                let (kind, kindNote, shown) = pick(kinds)
                let load = Fixed(thousandths: Int64.random(in: 8...100, using: &rng) * 2500)
                let reps = Int.random(in: 1...15, using: &rng)
                let skipped = Int.random(in: 0..<5, using: &rng) == 0
                let written = "\(load)".replacingOccurrences(of: ".", with: ",")
                let time = String(format: "%02d:%02d", 8 + w, i * 3)
                let yes = skipped ? (italian ? "Sì" : "Yes") : "No"
                rows.append("\(date),Workout \(w),\(time),\(name),,,,\(kind),\(reps)\(italian ? " rip." : " reps"),\"\(written) kg\",,\(yes)")
                if skipped { notDone += 1; continue }
                sets.append("\(ExerciseSpellings.canonical(name)): \(shown)\(load)kg x \(reps)" + (kindNote.map { "  # \($0)" } ?? ""))
            }
            if !sets.isEmpty { expected.append(sets) }
        }
        let text = (italian ? Self.italianHeader : Self.englishHeader) + rows.joined(separator: "\n")
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions(dateOrder: italian ? nil : .mdy), chunkSize: 59)
        #expect(file.source == .gymbook && file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.workouts.map { w in w.sets.map { file.exercises[$0.exercise].name + ": " + $0.values.summary } } == expected,
                "seed \(seed)\n\(text)")
        #expect(file.ignoredRows.count == notDone)
    }
}
