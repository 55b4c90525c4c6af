import Foundation
import Testing
@testable import GymLogCore

/// Quirks of real exports that have a faithful reading (issue 14): they are read, never
/// refused. Each class has a fixture under fixtures/import written for it.
@Suite struct ImportQuirksTests {
    static func parse(_ name: String) throws -> ImportedFile { try ImportParserTests.parse(name) }

    static func parse(text: String) throws -> ImportedFile {
        try ImportParser.parse(Array(text.utf8), options: ImportOptions())
    }

    /// Parses fixture `name`, expecting no bad row and exactly these sets (`Exercise: summary`).
    @discardableResult
    static func expectSets(_ name: String, _ sets: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> ImportedFile {
        let file = try parse(name)
        #expect(file.badRows.isEmpty, "\(file.badRows)", sourceLocation: sourceLocation)
        #expect(ImportParserTests.summaries(file) == sets, sourceLocation: sourceLocation)
        return file
    }

    // MARK: Unit spellings

    @Test(arguments: [
        ("kg", WeightUnit.kg), ("kgs", .kg), ("KGS", .kg), ("kg.", .kg), ("kgs.", .kg), ("kilograms", .kg), ("Kilogrammes", .kg),
        ("lb", .lb), ("lbs", .lb), ("Lbs", .lb), ("lbs.", .lb), ("LB.", .lb), ("pounds", .lb), (" lbs ", .lb),
    ])
    func weightUnitsAsExportsWriteThem(text: String, unit: WeightUnit) {
        #expect(WeightUnit(importSpelling: Substring(text)) == unit)
    }

    @Test(arguments: [
        ("m", DistanceUnit.m), ("meters", .m), ("Metres", .m), ("meter", .m), ("m.", .m),
        ("km", .km), ("km.", .km), ("kms", .km), ("kilometers", .km), ("kilometres", .km),
        ("mi", .mi), ("mi.", .mi), ("miles", .mi), ("Mile", .mi), ("yd", .yd), ("yds.", .yd), ("yards", .yd),
    ])
    func distanceUnitsAsExportsWriteThem(text: String, unit: DistanceUnit) {
        #expect(DistanceUnit(importSpelling: Substring(text)) == unit)
    }

    @Test func theEntryLanguageKeepsItsOwnSpellings() {
        // The lenient spellings are import-only: a typed line does not start reading them.
        for text in ["kg.", "lbs.", "kilograms"] { #expect(WeightUnit(spelling: Substring(text)) == nil, "\(text)") }
        for text in ["mi.", "km.", "meters", "kms"] { #expect(DistanceUnit(spelling: Substring(text)) == nil, "\(text)") }
        // And still nothing that is not a unit reads as one.
        for text in ["stone", "kgz", "..", "", "k.g"] { #expect(WeightUnit(importSpelling: Substring(text)) == nil, "\(text)") }
        for text in ["furlongs", "ft", "kmh"] { #expect(DistanceUnit(importSpelling: Substring(text)) == nil, "\(text)") }
    }

    @Test func strongRowUnitsInEverySpellingAreRead() throws {
        let file = try Self.expectSets("strong-unit-spellings.csv", [
            "Bench Press (Barbell): 225lb x 5", "Bench Press (Barbell): 100kg x 5", "Bench Press (Barbell): 135lb x 8",
            "Bench Press (Barbell): 60kg x 10", "Running: 3.1mi in 25:00", "Running: 5km in 30:00", "Running: 2mi in 15:00",
            "Rowing (Machine): 2000m in 7:41",
        ])
        #expect(file.assumedWeightUnit == nil && file.assumedDistanceUnit == nil)
    }

    @Test func fitNotesRowUnitsInEverySpellingAreRead() throws {
        try Self.expectSets("fitnotes-unit-spellings.csv", [
            "Deadlift: 315lb x 5", "Deadlift: 140kg x 3", "Treadmill: 2mi in 18:00", "Rowing Machine: 1500m in 6:10",
        ])
    }

    @Test func unitsInHeadersAreReadInTheSameSpellings() throws {
        // Given Strong and FitNotes headers that put the unit in the column name
        let strong = try Self.parse(text: """
            Date,Workout Name,Exercise Name,Set Order,Weight (lbs.),Reps,Distance (mi.),Seconds
            2024-05-06 18:00:00,A,Squat,1,225,5,,
            2024-05-06 18:00:00,A,Run,1,,,3.1,1500
            """)
        let fitnotes = try Self.parse(text: """
            Date,Exercise,Category,Weight (Kgs.),Reps,Distance (km),Time
            2025-06-02,Squat,Legs,100.0,5,,
            2025-06-02,Run,Cardio,,,5.0,0:30:00
            """)
        // Then the header's unit is every row's unit
        #expect(strong.badRows.isEmpty && fitnotes.badRows.isEmpty)
        #expect(ImportParserTests.summaries(strong) == ["Squat: 225lb x 5", "Run: 3.1mi in 25:00"])
        #expect(ImportParserTests.summaries(fitnotes) == ["Squat: 100kg x 5", "Run: 5km in 30:00"])
        #expect(strong.assumedWeightUnit == nil && fitnotes.assumedDistanceUnit == nil)
    }

    @Test func aUnitThatIsNoUnitIsStillABadRowWithItsLine() throws {
        let file = try Self.parse(text: """
            Date,Workout Name,Exercise Name,Set Order,Weight,Weight Unit,Reps,Distance,Distance Unit
            2024-05-06 18:00:00,A,Squat,1,100,stone,5,,
            2024-05-06 18:00:00,A,Run,1,,,,5,furlongs
            """)
        #expect(file.badRows == [
            ImportProblem(line: 2, reason: "weight unit 'stone' is not kg or lbs"),
            ImportProblem(line: 3, reason: "distance unit 'furlongs' is not m, km, mi or yd"),
        ])
    }

    // MARK: The unit of a missing value

    @Test func strongUnitsOfBlankOrZeroValuesDoNotMatter() throws {
        try Self.expectSets("strong-units-of-missing-values.csv", [
            "Pull Up: bw x 8", "Pull Up: bw x 6", "Plank: 1:00", "Squat (Barbell): 120kg x 5",
        ])
    }

    @Test func fitNotesLoadUnitsInDistanceColumnsOfZeroDistancesDoNotMatter() throws {
        try Self.expectSets("fitnotes-units-of-missing-values.csv", [
            "Squat: 100kg x 5", "Squat: 100kg x 5", "Plank: 1:00", "Cycling: 10km in 25:00",
        ])
        // A load unit beside a real distance is still unreadable.
        let bad = try Self.parse(text: "Date,Exercise,Category,Weight,Weight Unit,Reps,Distance,Distance Unit,Time\n"
                                 + "2025-06-09,Cycling,Cardio,,,,10.0,kg,0:25:00\n")
        #expect(bad.badRows == [ImportProblem(line: 2, reason: "distance unit 'kg' is not m, km, mi or yd")])
    }

    // MARK: Workout timers left running

    @Test func aStrongDurationOfAMillionSecondsIsCappedNotRefused() throws {
        let file = try Self.parse("strong-timer-left-running.csv")
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.cappedDurations == [ImportProblem(line: 2, reason: "342:56:07")])
        let forgot = file.workouts[0], normal = file.workouts[1]
        // The capped workout reads as one without a duration: of unknown length, its sets in
        // order within its first second (not an invented minute apart).
        #expect(forgot.sets.map(\.performedAt) == [0, 333, 666].map { forgot.startedAt + $0 })
        #expect(forgot.endedAt == forgot.startedAt + 999)
        #expect(normal.endedAt == normal.startedAt + 3_600_000, "an hour is kept")
    }

    @Test func strongDurationsInHoursAndHevyEndTimesAreCappedToo() throws {
        let strong = try Self.parse(text: """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps
            2024-05-06 18:00:00,A,512h 3m,Squat,1,100,5
            2024-05-07 18:00:00,B,23h 59m,Squat,1,100,5
            """)
        #expect(strong.badRows.isEmpty)
        #expect(strong.cappedDurations == [ImportProblem(line: 2, reason: "512:03:00")], "a day or less is kept")
        let hevy = try Self.parse("hevy-timer-left-running.csv")
        #expect(hevy.badRows.isEmpty)
        #expect(hevy.cappedDurations.map(\.line) == [2])
        #expect(hevy.workouts[0].endedAt == hevy.workouts[0].startedAt + 999, "capped: a workout of unknown length")
    }

    @Test func aSetTimeOverADayIsStillABadRowNamingTheLimit() throws {
        // Set times keep the limits logging keeps, however large the number written.
        let file = try Self.parse(text: """
            Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Seconds
            2024-05-06 18:00:00,A,Plank,1,,,1234567
            """)
        #expect(file.badRows == [ImportProblem(line: 2, reason: "duration 1234567s is more than 24h, the longest a set can be")])
    }

    // MARK: Sets never filled in

    @Test func strongEmptySetsAreLeftOutAndCountedAndANoteIsKept() throws {
        let file = try Self.expectSets("strong-empty-sets.csv", ["Bench Press (Barbell): 100kg x 5", "Overhead Press (Barbell): 45kg x 8"])
        #expect(file.ignoredRows == [LeftOutRow(line: 3, reason: .restTimer), LeftOutRow(line: 4, reason: .emptySet),
                                     LeftOutRow(line: 5, reason: .emptySet)])
        // A row with only a note keeps its note, in the workout's.
        #expect(file.workouts[0].note == "Overhead Press (Barbell): try 50 next time")
    }

    @Test func hevyAndFitNotesEmptySetsAreLeftOutAndCounted() throws {
        let hevy = try Self.parse("hevy-empty-sets.csv")
        #expect(hevy.badRows.isEmpty && hevy.setCount == 1)
        #expect(hevy.ignoredRows == [LeftOutRow(line: 3, reason: .emptySet), LeftOutRow(line: 4, reason: .emptySet)])
        let fitnotes = try Self.parse(text: """
            Date,Exercise,Category,Weight,Weight Unit,Reps,Distance,Distance Unit,Time,Comment
            2025-06-09,Squat,Legs,100.0,kgs,5,,,,
            2025-06-09,Squat,Legs,0.0,kgs,0,0.0,kg,,
            """)
        #expect(fitnotes.badRows.isEmpty && fitnotes.setCount == 1)
        #expect(fitnotes.ignoredRows == [LeftOutRow(line: 3, reason: .emptySet)])
    }

    @Test func leftOutRowsAreNamedForTheSummary() {
        #expect(LeftOutReason.emptySet.counted(2) == "2 empty sets (never filled in)")
        #expect(LeftOutReason.emptySet.counted(1) == "1 empty set (never filled in)")
        #expect(LeftOutReason.restTimer.counted(1) == "1 rest-timer row")
        #expect(LeftOutReason.emptyNote.counted(3) == "3 empty note rows")
    }
}
