import Foundation
import Testing
@testable import GymLogCore
import SplitMix

/// Fitbod's WorkoutExport.csv: unquoted notes, the start as an instant grouping the sets,
/// kilograms with pound-conversion dust, warm-ups, cardio, holds and carries, and a
/// spreadsheet's re-save; plus generated workouts written as Fitbod writes them and read back.
@Suite struct ImportFitbodTests {
    static func parse(_ name: String, unit: WeightUnit = .kg, offset: @escaping @Sendable (Int64) -> Int = { _ in 0 }) throws -> ImportedFile {
        let bytes = try [UInt8](Data(contentsOf: ImportParserTests.directory.appendingPathComponent(name)))
        return try ImportParser.parse(bytes, options: ImportOptions(weightUnit: unit, utcOffset: offset))
    }

    @Test func unquotedNotesCardioHoldsCarriesAndWarmUps() throws {
        let file = try Self.parse("fitbod-kg-crlf-unquoted-notes.csv")
        #expect(file.source == .fitbod)
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        // Oldest first, grouped by the start written on every row; the note's comma stays in the note.
        #expect(file.workouts.map(\.startedAt) == [ImportParserTests.at(2024, 2, 1, 7, 30), ImportParserTests.at(2024, 2, 3, 17, 0)])
        #expect(ImportParserTests.summaries(file) == [
            "Bench Press (Dumbbell): 22.5kg x 10  # slow, paused at the bottom", "Plank: 1:00", "Farmer's Carry: 32kg 40m",
            "Stationary Bike: 5000m in 15:00  # resistance 7",
            "Squat (Barbell): warm-up 60kg x 8", "Squat (Barbell): 100kg x 5", "Treadmill Running: 1500m in 10:00  # incline 2.5",
        ])
        #expect(file.assumedWeightUnit == nil && file.assumedDistanceUnit == nil, "Weight(kg) and Distance(m) say their units")
        #expect(file.workouts.allSatisfy { $0.name == nil })
    }

    @Test func poundDustIsPoundsForAPoundLifterAndKilogramsOtherwise() throws {
        let lb = try Self.parse("fitbod-lb-spreadsheet-resave.csv", unit: .lb)
        #expect(lb.badRows.isEmpty, "\(lb.badRows)")
        #expect(ImportParserTests.summaries(lb) == [
            "Bench Press (Barbell): warm-up 45lb x 10", "Bench Press (Barbell): 135lb x 5", "Bench Press (Barbell): 137.5lb x 3",
            "Bench Press (Barbell): 60kg x 5",
        ])
        let kg = try Self.parse("fitbod-lb-spreadsheet-resave.csv", unit: .kg)
        #expect(kg.workouts[0].sets.map { $0.values.weight } == [
            Weight(Fixed(thousandths: 20_412), .kg), Weight(Fixed(thousandths: 61_235), .kg),
            Weight(Fixed(thousandths: 62_369), .kg), Weight(Fixed(60), .kg),
        ])
    }

    @Test(arguments: [
        // Fitbod's full precision, and a copy cut to about ten significant digits.
        ("15.87575183024739", Weight(Fixed(35), .lb)), ("4.535929094", Weight(Fixed(10), .lb)), ("43.0913264", Weight(Fixed(95), .lb)),
        // Cut to hundredths, rounded (35 lb is 15.8757 kg) or truncated (55 lb is 24.9476 kg),
        // and with the trailing zero a spreadsheet drops (15 lb is 6.8039 kg, 30 lb 13.6078 kg).
        ("15.88", Weight(Fixed(35), .lb)), ("24.94", Weight(Fixed(55), .lb)), ("24.95", Weight(Fixed(55), .lb)),
        ("6.8", Weight(Fixed(15), .lb)), ("13.6", Weight(Fixed(30), .lb)), ("31.75", Weight(Fixed(70), .lb)),
        ("1.13", Weight(Fixed(thousandths: 2500), .lb)),
        // Round kilograms stay kilograms, even where a pound load cuts to them (37.5 lb is 17.0097 kg).
        ("17.0", Weight(Fixed(17), .kg)), ("47.5", Weight(Fixed(thousandths: 47_500), .kg)), ("100", Weight(Fixed(100), .kg)),
        // Hundredths that no whole quarter pound cuts to are kilograms as written.
        ("15.89", Weight(Fixed(thousandths: 15_890), .kg)), ("15.86", Weight(Fixed(thousandths: 15_860), .kg)),
        ("3.25", Weight(Fixed(thousandths: 3_250), .kg)), ("37.75", Weight(Fixed(thousandths: 37_750), .kg)),
        // Three decimals are no cut the corpus shows: kilograms to the gram.
        ("15.876", Weight(Fixed(thousandths: 15_876), .kg)),
    ])
    func aPoundLiftersLoadComesBackAsThePoundsTyped(written: String, typed: Weight) throws {
        // Given a load as a pound lifter's Fitbod file writes it, whole or cut by a spreadsheet
        // When it is read for a lifter who logs in pounds
        let load = try FitbodReader.load(written, lifterUnit: .lb)
        // Then it is the pounds typed, unless it is a kilogram load
        #expect(load == typed, "\(written)")
    }

    @Test func aKilogramLifterKeepsEveryLoadInKilograms() throws {
        // Given loads that would be pounds for a pound lifter
        for (written, kilograms) in [("15.88", 15_880), ("6.8", 6_800), ("15.87575183024739", 15_876)] {
            // When they are read for a lifter who logs in kilograms
            let load = try FitbodReader.load(written, lifterUnit: .kg)
            // Then they are the kilograms written, to the gram
            #expect(load == Weight(Fixed(thousandths: Int64(kilograms)), .kg), "\(written)")
        }
    }

    @Test func theStartIsAnInstantShownInTheChosenZone() throws {
        let utc = try Self.parse("fitbod-lb-spreadsheet-resave.csv")
        let berlin = try Self.parse("fitbod-lb-spreadsheet-resave.csv", offset: { _ in 3600 })
        #expect(utc.workouts[0].startedAt == berlin.workouts[0].startedAt, "one instant whatever the zone")
        #expect(utc.workouts[0].id == berlin.workouts[0].id, "a re-import with another --timezone finds the same workout")
        #expect(utc.workouts[0].sets.map(\.id) == berlin.workouts[0].sets.map(\.id))
        #expect(berlin.workouts[0].utcOffsetSeconds == 3600)
        #expect(FitbodReader.instant("2024-01-31 10:15:00 -0500") == ImportParserTests.at(2024, 1, 31, 15, 15))
        #expect(FitbodReader.instant("2024-01-31 10:15:00") == nil)
    }

    @Test func aBadValueIsNamedWithItsLine() throws {
        let text = "Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier\n"
            + "2024-01-31 10:15:00 +0000,Squat, 5,100,0,0,0,0,maybe,, 1\n"
            + "31/01/2024,Squat, 5,100,0,0,0,0,false,, 1\n"
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        #expect(file.badRows.map(\.line) == [2, 3])
        #expect(file.badRows[0].reason.contains("isWarmup 'maybe'"))
        #expect(file.badRows[1].reason.contains("Date '31/01/2024'"))
    }

    // MARK: - Generated workouts, written as Fitbod writes them

    typealias Expected = ReadBackSet

    static let exercises: [(String, ExerciseKind)] = [
        ("Barbell Bench Press", .weighted), ("Dumbbell Curl", .weighted), ("Plank", .timed),
        ("Treadmill Running", .distance), ("Farmer's Carry", .carry), ("Pull Up", .bodyweight),
    ]

    /// `workouts` workouts for a lifter using `unit`, as Fitbod's file and as what should be read.
    static func generate(seed: UInt64, unit: WeightUnit) -> (text: String, expected: [[Expected]]) {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
        let lineBreak = pick(["\n", "\r\n"]), padded = Bool.random(using: &rng)
        var workouts: [(start: String, rows: [String], expected: [Expected])] = []
        var day = epochMillis(year: 2025, month: 1, day: 6, utcOffsetSeconds: 0) / 86_400_000
        for _ in 0..<Int.random(in: 1...5, using: &rng) {
            day += Int64.random(in: 1...3, using: &rng)
            let d = civilFromDays(day)
            let startText = String(format: "%04d-%02d-%02d %02d:%02d:00 +0000", d.year, d.month, d.day,
                                   Int.random(in: 6...20, using: &rng), Int.random(in: 0...59, using: &rng))
            var rows: [String] = [], expected: [Expected] = []
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let (name, kind) = pick(exercises)
                let note = pick([nil, nil, "slow", "left, then right"])
                // Fitbod's names are brought to Strong's (`Barbell Bench Press` is `Bench Press (Barbell)`).
                var e = Expected(ExerciseSpellings.canonical(name), SetValues(note: note))
                var kg = "0.0", reps = 0, seconds = 0, meters = 0
                let multiplier = pick([" 1", " 2"])
                switch kind {
                case .weighted, .carry:
                    let load = Int.random(in: 2...120, using: &rng) * (unit == .lb ? 5 : 1) // whole 2.5 kg / 5 lb steps below
                    let typed = Fixed(thousandths: Int64(load) * (unit == .lb ? 1000 : 2500))
                    kg = unit == .lb ? String(format: "%.16g", typed.doubleValue / FitbodReader.poundsPerKilogram) : "\(typed)"
                    e.weight = Weight(typed, unit)
                    if kind == .carry { meters = Int.random(in: 10...100, using: &rng); e.distance = Distance(Fixed(meters), .m) } else {
                        reps = Int.random(in: 1...20, using: &rng); e.reps = reps
                        e.kind = Bool.random(using: &rng) ? .warmup : .working
                    }
                case .bodyweight:
                    reps = Int.random(in: 1...20, using: &rng); e.reps = reps; e.bodyweight = true
                case .timed:
                    seconds = Int.random(in: 10...300, using: &rng); e.durationSeconds = seconds
                case .distance:
                    seconds = Int.random(in: 300...3600, using: &rng); e.durationSeconds = seconds
                    meters = Int.random(in: 500...10_000, using: &rng); e.distance = Distance(Fixed(meters), .m)
                }
                let warm = e.kind == .warmup ? pick(["true", "TRUE"]) : pick(["false", "FALSE"])
                rows.append("\(startText),\(name), \(reps),\(kg),\(seconds).0,\(meters).0,0.0,0.0,\(warm),\(note ?? ""),\(multiplier)"
                            + (padded ? "," : ""))
                expected.append(e)
            }
            workouts.append((startText, rows, expected))
        }
        // Newest first, runs of empty lines between workouts, no final line break.
        let header = "Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier"
        let body = workouts.reversed().map { $0.rows.joined(separator: lineBreak) }
            .joined(separator: lineBreak + String(repeating: lineBreak, count: Int.random(in: 0...2, using: &rng)))
        return (header + lineBreak + body, workouts.map(\.expected))
    }

    @Test("generated workouts written as Fitbod writes them read back as they were", arguments: 0..<40)
    func generatedWorkoutsReadBack(seed: UInt64) throws {
        for unit in WeightUnit.allCases {
            let (text, expected) = Self.generate(seed: seed, unit: unit)
            let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions(weightUnit: unit))
            #expect(file.source == .fitbod && file.badRows.isEmpty, "\(file.badRows)\n\(text)")
            #expect(file.readBack == expected, "seed \(seed), \(unit)\n\(text)")
            // Read again, nothing changes: the ids come from the content.
            let again = try ImportParser.parse(Array(text.utf8), options: ImportOptions(weightUnit: unit))
            #expect(again.workouts.flatMap { $0.sets.map(\.id) } == file.workouts.flatMap { $0.sets.map(\.id) })
        }
    }
}

/// Apps spell one lift differently; gymlog keeps Strong's spelling so two apps give one history.
@Suite struct ExerciseSpellingsTests {
    @Test(arguments: [
        ("Barbell Bench Press", "Bench Press (Barbell)"), ("Bench Press, Barbell", "Bench Press (Barbell)"),
        ("Bench Press (Barbell)", "Bench Press (Barbell)"), ("Dumbbell Bench Press", "Bench Press (Dumbbell)"),
        ("Bench Press, Dumbbell", "Bench Press (Dumbbell)"), ("Back Squat", "Squat (Barbell)"),
        ("Squat, Barbell", "Squat (Barbell)"), ("Overhead Press, Dumbbell", "Overhead Press (Dumbbell)"),
        ("Cable Fly", "Fly (Cable)"), ("Pull-Up", "Pull Up"), ("Plank", "Plank"), ("Farmer's Carry", "Farmer's Carry"),
        ("Squat, paused", "Squat, paused"), ("Barbell", "Barbell"),
    ])
    func namesComeToStrongsSpelling(written: String, canonical: String) {
        #expect(ExerciseSpellings.canonical(written) == canonical)
    }

    @Test func theSameLiftFromTwoAppsIsOneExerciseWithAKindFromItsEquipment() throws {
        let fitbod = "Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier\n"
            + "2024-01-31 10:15:00 +0000,Barbell Bench Press, 5,100,0,0,0,0,false,, 1\n"
            + "2024-01-31 10:15:00 +0000,Barbell Bench Press, 8,0,0,0,0,0,true,, 1\n"
        let file = try ImportParser.parse(Array(fitbod.utf8), options: ImportOptions())
        #expect(file.exercises.map(\.name) == ["Bench Press (Barbell)"])
        // The equipment makes it loaded: the warm-up with no load is a set at 0, not a bodyweight set.
        #expect(file.exerciseKinds.map(\.kind) == [.weighted])
    }
}
