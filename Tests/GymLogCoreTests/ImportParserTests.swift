import Foundation
import Testing
@testable import GymLogCore

/// Every fixture under fixtures/import parses with the expected workouts, sets and values.
@Suite struct ImportParserTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fixtures/import")

    static func parse(_ name: String, source: ImportSource? = nil, unit: WeightUnit = .kg,
                      offset: @escaping @Sendable (Int64) -> Int = { _ in 0 }) throws -> ImportedFile {
        let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
        return try ImportParser.parse(bytes, options: ImportOptions(source: source, weightUnit: unit, utcOffset: offset))
    }

    static func at(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, offset: Int = 0) -> Int64 {
        epochMillis(year: y, month: mo, day: d, utcOffsetSeconds: offset) + Int64((h * 3600 + mi * 60) * 1000)
    }

    /// Group ids (supersets) as numbers from 0 in the order first met, so groupings compare
    /// whatever their ids: nil stays nil.
    static func firstMetNumbers<ID: Hashable>(_ ids: [ID?]) -> [Int?] {
        var numbers: [ID: Int] = [:]
        return ids.map { id in
            id.map { id in
                if let n = numbers[id] { return n }
                numbers[id] = numbers.count
                return numbers.count - 1
            }
        }
    }

    /// name -> summary of each set, in order, for compact expectations.
    static func summaries(_ file: ImportedFile) -> [String] {
        file.workouts.flatMap { w in
            w.sets.map { file.exercises[$0.exercise].name + ": " + $0.values.summary }
        }
    }

    @Test(arguments: [
        ("strong-comma-newest-first.csv", ImportSource.strong), ("strong-comma-later-overlapping.csv", .strong),
        ("strong-semicolon-units.csv", .strong), ("strong-quoted-kg.csv", .strong),
        ("strong-minimal-no-duration-rpe-notes.csv", .strong), ("strong-bad-rows.csv", .strong),
        ("hevy-kg-km.csv", .hevy), ("hevy-lbs-miles.csv", .hevy), ("hevy-kg-miles.csv", .hevy),
        ("fitnotes-kgs.csv", .fitnotes), ("fitnotes-weight-unit-column.csv", .fitnotes),
        ("fitnotes-lbs-comment.csv", .fitnotes),
    ])
    func theFormatIsDetectedFromTheHeader(name: String, source: ImportSource) throws {
        #expect(try Self.parse(name).source == source)
    }

    @Test func anUnknownHeaderIsRefusedWithAHint() throws {
        #expect(throws: UserError.self) { try Self.parse("unknown-layout.csv") }
        #expect(throws: UserError.self) { try ImportParser.parse([], options: ImportOptions()) }
        // A header that lacks a column the chosen format needs is named.
        let error = #expect(throws: UserError.self) { try Self.parse("fitnotes-kgs.csv", source: .strong) }
        #expect(error?.message.contains("'Exercise Name'") == true)
    }

    @Test func strongCommaNewestFirstWithFloatNoiseNotesAndNoFinalNewline() throws {
        let file = try Self.parse("strong-comma-newest-first.csv")
        #expect(file.badRows.isEmpty && file.ignoredRows.isEmpty)
        // Oldest first whatever the file's order.
        #expect(file.workouts.map(\.name) == ["Push Day", "Pull Day"])
        #expect(file.workouts.map(\.sets.count) == [5, 6])
        let push = file.workouts[0], pull = file.workouts[1]
        #expect(push.startedAt == Self.at(2024, 3, 1, 7, 15))
        #expect(push.endedAt == Self.at(2024, 3, 1, 8, 33), "1h 18m")
        #expect(pull.endedAt == Self.at(2024, 3, 5, 19, 25), "55m")
        #expect(push.note == "Felt strong, slept 8h")
        #expect(Self.summaries(file) == [
            "Bench Press (Barbell): warm-up 40kg x 10", "Bench Press (Barbell): 102.5kg x 5 @8.5",
            "Bench Press (Barbell): 102.5kg x 5", "Bench Press (Barbell): drop 70.25kg x 10",
            "Rowing (Machine): 2km in 8:00",
            "Deadlift (Barbell): warm-up 60kg x 5", "Deadlift (Barbell): 150kg x 5 @8",
            "Deadlift (Barbell): 150kg x 5 @9  # grip slipped\nlast rep",
            "Pull Up: bw x 8", "Pull Up: failure bw x 6", "Plank: 1:00",
        ])
        #expect(file.assumedWeightUnit == .kg)
        #expect(file.assumedDistanceUnit == .km)
        // The embedded newline moves the following rows' line numbers on.
        #expect(pull.sets.map(\.line) == [2, 3, 4, 6, 7, 8])
        // Sets are spread over the workout, strictly increasing.
        let times = file.workouts.flatMap { $0.sets.map(\.performedAt) }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(push.sets.allSatisfy { $0.performedAt >= push.startedAt && $0.performedAt <= push.endedAt! })
    }

    @Test func anAssumedUnitComesFromTheOptions() throws {
        let file = try Self.parse("strong-comma-newest-first.csv", unit: .lb)
        #expect(file.assumedWeightUnit == .lb)
        #expect(file.assumedDistanceUnit == .mi)
        #expect(file.workouts[0].sets[1].values.weight == Weight(Fixed(thousandths: 102_500), .lb))
    }

    @Test func idsAreDerivedFromContentSoAReadIsRepeatable() throws {
        let a = try Self.parse("strong-comma-newest-first.csv")
        let b = try Self.parse("strong-comma-newest-first.csv", offset: { _ in -5 * 3600 })
        #expect(a.workouts.map(\.id) == b.workouts.map(\.id), "another --timezone finds the same workouts")
        #expect(a.workouts.flatMap { $0.sets.map(\.id) } == b.workouts.flatMap { $0.sets.map(\.id) })
        #expect(Set(a.workouts.flatMap { $0.sets.map(\.id) }).count == 11)
        #expect(b.workouts[0].startedAt == a.workouts[0].startedAt + 5 * 3_600_000)
        #expect(b.workouts[0].utcOffsetSeconds == -5 * 3600)
        // A later export holding the same workouts (and a newer one) gives the same ids for them.
        let later = try Self.parse("strong-comma-later-overlapping.csv")
        #expect(Set(a.workouts.flatMap { $0.sets.map(\.id) }).isSubset(of: later.workouts.flatMap { $0.sets.map(\.id) }))
        #expect(later.setCount == 13)
    }

    @Test func strongSemicolonWithPerRowUnitsAndDecimalCommas() throws {
        let file = try Self.parse("strong-semicolon-units.csv")
        #expect(file.delimiter == ";")
        #expect(file.badRows.isEmpty)
        #expect(Self.summaries(file) == [
            "Squat (Barbell): warm-up 60kg x 5", "Squat (Barbell): 102.5kg x 5 @8", "Squat (Barbell): 225lb x 3 @9.5",
            "Squat (Barbell): failure 100kg x 4", "Running: 5km in 25:00",
            "Bicep Curl (Dumbbell): 12.5kg x 12  # left arm; then right",
        ])
        #expect(file.assumedWeightUnit == .kg, "the FAILURE row has an empty Weight Unit")
        #expect(file.assumedDistanceUnit == nil)
        #expect(file.workouts[0].endedAt == Self.at(2019, 6, 1, 9, 38), "38min")
        #expect(file.workouts[1].endedAt == Self.at(2019, 6, 3, 17, 45) + 55_000, "55s")
        #expect(file.workouts[0].note == "Knees OK")
    }

    @Test func strongAllQuotedWithUnitHeadersRestTimersAndNotes() throws {
        let file = try Self.parse("strong-quoted-kg.csv")
        #expect(Self.summaries(file) == [
            "Overhead Press (Barbell): 50kg x 5", "Overhead Press (Barbell): 52.5kg x 5", "Rowing (Machine): 2000m in 7:41",
        ])
        #expect(file.assumedWeightUnit == nil && file.assumedDistanceUnit == nil)
        #expect(file.ignoredRows == [LeftOutRow(line: 3, reason: .restTimer), LeftOutRow(line: 7, reason: .emptySet)])
        #expect(file.workouts[0].note == "Overhead Press (Barbell): Elbows in")
        #expect(file.workouts[0].endedAt == Self.at(2025, 1, 10, 7, 18), "4680 seconds")
    }

    @Test func strongWithoutDurationRPEOrWorkoutNotes() throws {
        let file = try Self.parse("strong-minimal-no-duration-rpe-notes.csv")
        #expect(file.exercises.map(\.name) == ["Bench Press (Barbell)", "Dip"], "names differing in case and spaces are one")
        #expect(Self.summaries(file) == ["Bench Press (Barbell): 80kg x 8", "Bench Press (Barbell): 80kg x 8", "Dip: bw x 10"])
        let w = file.workouts[0]
        // No duration: a workout of unknown length, within its first second, its sets inside it
        #expect(w.endedAt == w.startedAt + 999, "no duration is no length, not a minute per set")
        #expect(w.sets.allSatisfy { $0.performedAt >= w.startedAt && $0.performedAt <= w.endedAt! })
        #expect(Set(w.sets.map(\.id)).count == 3, "two identical sets still get two ids")
    }

    @Test func strongBadRowsAreAllReportedWithTheirLines() throws {
        let file = try Self.parse("strong-bad-rows.csv")
        #expect(file.badRows == [
            ImportProblem(line: 3, reason: "Weight '1OO' is not a number"),
            ImportProblem(line: 4, reason: "Set Order 'X' is not a set number, W, D, F, Rest Timer or Note"),
            ImportProblem(line: 5, reason: "Date '2024-13-01 10:00:00' is not a date and time like 2024-01-31 10:15:00"),
            ImportProblem(line: 6, reason: "Reps '5.5' is not a whole number"),
        ])
        #expect(Self.summaries(file) == ["Bench Press (Barbell): 100kg x 5", "Squat (Barbell): 140kg x 5"])
    }

    @Test func aRowWithTheWrongNumberOfFieldsIsBad() throws {
        let text = "Date,Workout Name,Exercise Name,Set Order,Weight,Reps\n2024-01-01 10:00,A,Bench,1,100\n2024-01-01 10:00,A,Bench,1,100,5\n"
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        #expect(file.badRows == [ImportProblem(line: 2, reason: "has 5 fields but the header has 6")])
        #expect(file.setCount == 1)
    }

    @Test func hevyKilogramsKilometresTypesAndARepeatedExercise() throws {
        let file = try Self.parse("hevy-kg-km.csv")
        #expect(file.badRows.isEmpty && file.ignoredRows.isEmpty)
        #expect(file.workouts.map(\.name) == ["Push A", "Cardio"])
        #expect(Self.summaries(file) == [
            "Bench Press (Barbell): warm-up 60kg x 10", "Bench Press (Barbell): 100kg x 5 @8",
            "Bench Press (Barbell): failure 100kg x 4 @10", "Triceps Pushdown: 30kg x 12", "Triceps Pushdown: drop 20kg x 10",
            "Bench Press (Barbell): 80kg x 10", "Treadmill: 5.2km in 30:00", "Plank: 1:30",
        ])
        let push = file.workouts[0]
        #expect(push.startedAt == Self.at(2025, 9, 15, 7, 48) && push.endedAt == Self.at(2025, 9, 15, 8, 55))
        #expect(push.note == "Good session\nBench Press (Barbell): Pause at chest")
        #expect(file.exercises.count == 4)
        #expect(Set(push.sets.map(\.id)).count == 6, "the second Bench block gets its own ids")
        #expect(file.workouts[1].note == nil)
    }

    @Test func hevyPoundsAndMilesOrKilogramsAndMilesChosenIndependently() throws {
        let lbs = try Self.parse("hevy-lbs-miles.csv")
        #expect(Self.summaries(lbs) == ["Squat (Barbell): 225lb x 5 @8.5", "Squat (Barbell): 225lb x 5", "Walking: 1.5mi in 25:00"])
        #expect(lbs.workouts[0].startedAt == Self.at(2025, 9, 5, 7, 5))
        #expect(lbs.assumedWeightUnit == nil && lbs.assumedDistanceUnit == nil)
        let mixed = try Self.parse("hevy-kg-miles.csv")
        #expect(Self.summaries(mixed) == ["Running: 3.1mi in 30:00", "Farmer's Walk: 40kg 0.05mi in 1:00"])
    }

    @Test func hevyTimesAreReadInTheGivenZone() throws {
        let file = try Self.parse("hevy-lbs-miles.csv", offset: { _ in 2 * 3600 })
        #expect(file.workouts[0].startedAt == Self.at(2025, 9, 5, 7, 5, offset: 2 * 3600))
        #expect(file.workouts[0].utcOffsetSeconds == 7200)
    }

    @Test func fitNotesNamesWithUnquotedCommasAreAnchoredFromTheRight() throws {
        let file = try Self.parse("fitnotes-kgs.csv")
        #expect(file.badRows.isEmpty)
        #expect(file.workouts.count == 2, "one workout per day")
        #expect(Self.summaries(file) == [
            "Flat Barbell Bench Press: 80kg x 8", "Flat Barbell Bench Press: 82.5kg x 6", "Curl, Hammer, Dumbbell: 14kg x 10",
            "Plank: 1:30", "Running (Treadmill): 5km in 28:10",
        ])
        #expect(file.workouts[0].startedAt == Self.at(2025, 2, 3, 12, 0), "days start at noon")
    }

    @Test func fitNotesWeightUnitColumnAndComments() throws {
        let file = try Self.parse("fitnotes-weight-unit-column.csv")
        #expect(Self.summaries(file) == [
            "Deadlift: 315lb x 5  # Belt, straps", "Deadlift: 140kg x 3", "Pull Up, Weighted: 10kg x 6",
        ])
        #expect(file.assumedWeightUnit == nil)
        let lbs = try Self.parse("fitnotes-lbs-comment.csv")
        #expect(Self.summaries(lbs) == ["Overhead Press: 95lb x 5  # felt heavy", "Overhead Press: 95lb x 5"])
    }

    @Test func nativeExportParsesBackToTheRowsItWasWrittenFrom() throws {
        // Given every kind of row the native export writes
        var writer = CSVWriter()
        ExportFormat.native.appendHeader(to: &writer, unit: .kg)
        let rows = ExportFixtures.rows
        for row in rows { ExportFormat.native.append(row, to: &writer, unit: .kg) }
        // When it is read back
        let file = try ImportParser.parse(writer.buffer, options: ImportOptions())
        // Then every field (ids, times to the millisecond, offsets, values, aliases) is as written
        #expect(file.source == .native && file.badRows.isEmpty)
        #expect(file.setCount == rows.count)
        let byID = Dictionary(uniqueKeysWithValues: file.workouts.flatMap { w in w.sets.map { ($0.id, (w, $0)) } })
        for row in rows {
            let (w, s) = try #require(byID[row.set.id])
            #expect(w.id == row.workout.id && w.name == row.workout.name && w.note == row.workout.note)
            #expect(w.startedAt == row.workout.startedAt)
            #expect(w.endedAt == row.workout.endedAt)
            #expect(w.utcOffsetSeconds == row.workout.utcOffsetSeconds / 60 * 60)
            var exercise = ImportedExercise(name: row.exercise.name, id: row.exercise.id, aliases: row.exerciseAliases)
            exercise.link = row.exerciseLink
            #expect(file.exercises[s.exercise] == exercise)
            #expect(s.values == row.set.values)
            #expect(s.performedAt == row.set.performedAt)
            #expect(s.utcOffsetSeconds == row.set.utcOffsetSeconds / 60 * 60)
        }
    }

    @Test func nativeRejectsAnotherHeaderAndBadFields() throws {
        #expect(throws: UserError.self) {
            try ImportParser.parse(Array("Date,Exercise Name,Set Order\n".utf8), options: ImportOptions(source: .native))
        }
        // (A file from before aliases were exported: no exercise_aliases column, whole seconds.)
        var text = ExportFormat.nativeHeaderWithoutAliases.joined(separator: ",") + "\n"
        text += "not-an-id,a1b2c3d4-e5f6-4a7b-8c9d-000000000100,,2026-11-21T10:15:00+01:00,,,a1b2c3d4-e5f6-4a7b-8c9d-000000000010,Bench,1,working,100,kg,false,5,,,,,,2026-11-21T10:17:00+01:00\n"
        text += "a1b2c3d4-e5f6-4a7b-8c9d-000000000001,a1b2c3d4-e5f6-4a7b-8c9d-000000000100,,2026-11-21T10:15:00+01:00,,,a1b2c3d4-e5f6-4a7b-8c9d-000000000010,Bench,1,heavy,100,kg,false,5,,,,,,2026-11-21T10:17:00+01:00\n"
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        #expect(file.badRows.map(\.line) == [2, 3])
        #expect(file.badRows[0].reason == "set_id 'not-an-id' is not an id")
        #expect(file.badRows[1].reason.hasPrefix("kind 'heavy'"))
    }

    @Test func hevySupersetNumbersGroupSetsWithinTheirWorkout() throws {
        // Given a Hevy file whose two workouts both number their supersets from 0
        let file = try Self.parse("hevy-supersets.csv")
        #expect(file.badRows.isEmpty && file.workouts.count == 2)
        let upper = file.workouts[0].sets.map(\.supersetID), lower = file.workouts[1].sets.map(\.supersetID)
        // Then the rows of one number in one workout share one superset, and a blank is a set on its own
        let a = try #require(upper[0]), b = try #require(upper[5])
        #expect(upper == [a, a, a, a, nil, b, b])
        #expect(a != b)
        // And the same number in another workout is another superset
        let c = try #require(lower[0])
        #expect(lower == [c, c, c] && c != a)
        // And the ids are derived, so a second read (a re-import) gives the same
        #expect(try Self.parse("hevy-supersets.csv").workouts.map { $0.sets.map(\.supersetID) } == [upper, lower])
    }

    @Test func nativeFilesFromBeforeSupersetsStillRead() throws {
        // Given a native file with aliases but no superset_id column
        var text = ExportFormat.nativeHeaderWithoutSupersets.joined(separator: ",") + "\n"
        text += "a1b2c3d4-e5f6-4a7b-8c9d-000000000001,a1b2c3d4-e5f6-4a7b-8c9d-000000000100,,2026-11-21T10:15:00.000+01:00,,,a1b2c3d4-e5f6-4a7b-8c9d-000000000010,Bench,1,working,100,kg,false,5,,,,,,2026-11-21T10:17:00.000+01:00,bp\n"
        // When it is read
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        // Then its set is there, in no superset, with its alias
        #expect(file.source == .native && file.badRows.isEmpty)
        #expect(file.workouts.flatMap(\.sets).map(\.supersetID) == [nil])
        #expect(file.exercises.map(\.aliases) == [["bp"]])
    }

    @Test func nativeBodyweightRowsAreCheckedStrictly() throws {
        // Given bodyweight entry rows: one good, one with a workout, one with no unit, one with a bad superset id on a set
        let id = "a1b2c3d4-e5f6-4a7b-8c9d-0000000009"
        func entry(_ n: String, workout: String = "", weight: String = "82.5", unit: String = "kg") -> String {
            "\(id)0\(n),\(workout),,,,,,,,bodyweight_entry,\(weight),\(unit),,,,,,,,,2026-11-21T07:05:00.000+01:00,,,\n"
        }
        var text = ExportFormat.nativeHeader.joined(separator: ",") + "\n"
        text += entry("1")
        text += entry("2", workout: "a1b2c3d4-e5f6-4a7b-8c9d-000000000100")
        text += entry("3", unit: "")
        text += entry("4", weight: "-3")
        text += "a1b2c3d4-e5f6-4a7b-8c9d-000000000001,a1b2c3d4-e5f6-4a7b-8c9d-000000000100,,2026-11-21T10:15:00.000+01:00,,,a1b2c3d4-e5f6-4a7b-8c9d-000000000010,Bench,1,working,100,kg,false,5,,,,,,,2026-11-21T10:17:00.000+01:00,,AB,\n"
        // When it is read
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        // Then the good entry is read exactly, and each bad row names its field
        #expect(file.bodyweights == [BodyweightEntry(id: try #require(UUID(uuidString: id + "01")), weight: Weight(Fixed(thousandths: 82_500), .kg),
                                                     measuredAt: epochMillis(year: 2026, month: 11, day: 21, utcOffsetSeconds: 3600) + 7 * 3_600_000 + 5 * 60_000,
                                                     utcOffsetSeconds: 3600)])
        #expect(file.badRows.map(\.line) == [3, 4, 5, 6])
        #expect(file.badRows[0].reason.hasPrefix("a bodyweight_entry row has workout_id"))
        #expect(file.badRows[1].reason == "weight_unit '' is not kg or lb")
        #expect(file.badRows[2].reason == "bodyweight weight '-3' is not a positive number")
        #expect(file.badRows[3].reason == "superset_id 'AB' is not an id")
    }

    @Test(arguments: [1, 2, 3, 5, 1 << 16])
    func theCursorCountsLinesInsideQuotedFieldsAndSkipsBlankLines(chunkSize: Int) throws {
        var cursor = ImportCSVCursor(Array("a,b\r\n\r\n\"x\ny\",2\n\n3,\"q\"\"\"".utf8), delimiter: nil, chunkSize: chunkSize)
        #expect(try cursor.next()! == (1, ["a", "b"]))
        #expect(try cursor.next()! == (3, ["x\ny", "2"]))
        #expect(try cursor.next()! == (6, ["3", "q\""]))
        #expect(try cursor.next() == nil)
    }
}
