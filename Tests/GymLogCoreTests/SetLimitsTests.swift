import Foundation
import Testing
@testable import GymLogCore

/// One set of limits for every way a set enters: what the entry language refuses, no import
/// takes either, and an import row outside them is a bad row with its line.
@Suite struct SetLimitsTests {
    @Test("values outside the limits are named with the limit", arguments: [
        (SetValues(weight: Weight(Fixed(100_000), .kg), reps: 5), "weight 100000kg is more than 2000kg"),
        (SetValues(reps: 0), "0 reps with no load; a missed attempt needs the load that was missed"),
        (SetValues(weight: Weight(Fixed(0), .kg), reps: 0), "0 reps with no load"),
        (SetValues(weight: Weight(Fixed(100), .kg), reps: 0, durationSeconds: 30), "0 reps with a time or distance"),
        (SetValues(weight: Weight(Fixed(100), .kg), reps: 10000), "reps 10000 is not between 0 and 9999"),
        (SetValues(weight: Weight(Fixed(-100), .kg), reps: 5), "weight -100kg is negative"),
        (SetValues(weight: Weight(Fixed(-2500), .lb), bodyweight: true, reps: 5), "assistance -2500lb is more than 2000lb"),
        (SetValues(weight: Weight(Fixed(0), .kg), bodyweight: true, reps: 5), "weight 0kg must be more than 0"),
        (SetValues(weight: Weight(Fixed(0), .kg), durationSeconds: 60), "weight 0kg must be more than 0"),
        (SetValues(weight: Weight(Fixed(100), .kg), reps: 5, rpe: Fixed(thousandths: 7300)), "RPE 7.3 is not between 1 and 10"),
        (SetValues(weight: Weight(Fixed(100), .kg), reps: 5, rpe: Fixed(11)), "RPE 11 is not between 1 and 10"),
        (SetValues(durationSeconds: 86_401), "duration 86401s is more than 24h"),
        (SetValues(durationSeconds: 0), "duration 0s must be more than 0"),
        (SetValues(distance: Distance(Fixed(10_000_001), .m)), "distance 10000001m is more than 10000000m"),
        (SetValues(weight: Weight(Fixed(100), .kg)), "weight 100kg with no reps, time or distance; a set needs one, e.g. `100x5`"),
        (SetValues(bodyweight: true, rpe: Fixed(8)), "a bodyweight set with no reps, time or distance"),
    ])
    func violations(values: SetValues, reason: String) {
        #expect(SetLimits.violation(values)?.hasPrefix(reason) == true, "\(SetLimits.violation(values) ?? "nil")")
    }

    @Test("values at the limits are fine", arguments: [
        SetValues(weight: Weight(Fixed(2000), .lb), reps: 9999, rpe: Fixed(10)),
        SetValues(weight: Weight(Fixed(-2000), .kg), bodyweight: true, reps: 1, rpe: Fixed(1)),
        SetValues(bodyweight: true, reps: 8, rpe: Fixed(thousandths: 8500)),
        SetValues(durationSeconds: 86_400, distance: Distance(Fixed(100_000), .m)),
        // Real, however long: a 122 km ride in metres, a 1,000-rep set, a 10-hour hike.
        SetValues(distance: Distance(Fixed(122_467), .m)), SetValues(reps: 1000), SetValues(durationSeconds: 36_000, distance: Distance(Fixed(42), .km)),
        SetValues(distance: Distance(Fixed(10_000), .km)),
        // A missed attempt: the load, 0 reps (Strong's `F,150.0,0.0`); bodyweight is a load too.
        SetValues(kind: .failure, weight: Weight(Fixed(150), .kg), reps: 0),
        SetValues(weight: Weight(Fixed(150), .kg), reps: 0),
        SetValues(bodyweight: true, reps: 0),
        // A loaded exercise's set at no load (an empty machine): 0kg for reps.
        SetValues(weight: Weight(Fixed(0), .kg), reps: 12),
    ])
    func inside(values: SetValues) {
        #expect(SetLimits.violation(values) == nil)
    }

    @Test("the entry language refuses what the limits refuse", arguments: [
        ("bench 2000.001x5", false), ("bench 2000x5", true), ("bench 100x0", true), ("bench 0x5", false), ("bench 100x9999", true),
        ("bench 100x10000", false), ("bench 100x5 @10.5", false), ("bench 100x5 @7.3", false), ("bench 100x5 @9.5", true),
        ("plank 86401s", false), ("plank 86400s", true), ("run 10000001m", false), ("run 10000km", true), ("run 122467m", true),
        ("pullup bw-2001x5", false), ("pullup bw+2000x5", true), ("bench 100x5x51", false), ("bench 100x5x50", true),
    ])
    func theParserAgrees(line: String, accepted: Bool) {
        let ok: Bool
        if case .success = EntryParser.parse(line) { ok = true } else { ok = false }
        #expect(ok == accepted, "\(line)")
    }

    /// One Strong row of workout A: the note is written raw, so a test can leave a quote open.
    static func row(_ order: Int, _ exercise: String = "Bench Press", weight: String = "100", reps: String = "5",
                    seconds: String = "0", note: String = "", rpe: String = "") -> String {
        "2024-05-01 10:00:00,A,30m,\(exercise),\(order),\(weight),\(reps),0,\(seconds),\(note),,\(rpe)"
    }

    static func strongFile(_ rows: [String]) -> [UInt8] {
        Array((["Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"] + rows)
            .joined(separator: "\n").utf8)
    }

    @Test func importRowsOutsideTheLimitsAreBadRowsWithTheirLines() throws {
        // Given a Strong file whose rows 3 to 6 hold what logging refuses, and a missed attempt
        let bytes = Self.strongFile([
            Self.row(1),
            Self.row(2, weight: "100000"),
            Self.row(3, reps: "10000"),
            Self.row(4, rpe: "7.3"),
            Self.row(1, "Plank", weight: "0", reps: "0", seconds: "90000"),
            Self.row(5, weight: "102.5", reps: "3", rpe: "9"),
            Self.row(6, reps: "0"),
        ])
        // When it is read
        let file = try ImportParser.parse(bytes, options: ImportOptions())
        // Then each is a bad row naming its line and the value, and the others are read:
        // the load with 0 reps is a missed attempt, not a bad row
        #expect(file.badRows.map(\.line) == [3, 4, 5, 6])
        #expect(file.badRows[0].reason.contains("100000kg is more than 2000kg"))
        #expect(file.badRows[1].reason.contains("reps 10000"))
        #expect(file.badRows[2].reason.contains("RPE 7.3"))
        #expect(file.badRows[3].reason.contains("90000s is more than 24h"))
        #expect(file.setCount == 3)
        #expect(file.workouts.flatMap(\.sets).last?.values.summary == "100kg x 0 (missed)")
    }

    @Test func aNativeRowOutsideTheLimitsIsABadRow() throws {
        // Given native rows with 0 reps and no load, and a negative load on a set that is not bodyweight
        var text = ExportFormat.nativeHeaderWithoutSupersets.joined(separator: ",") + "\n"
        for (n, weight, bodyweight, reps) in [(1, "", "false", "0"), (2, "-100", "false", "5"), (3, "-20", "true", "5")] {
            text += "a1b2c3d4-e5f6-4a7b-8c9d-00000000000\(n),a1b2c3d4-e5f6-4a7b-8c9d-000000000100,,2026-11-21T10:15:00.000+01:00,,,"
                + "a1b2c3d4-e5f6-4a7b-8c9d-000000000010,Dip,\(n),working,\(weight),kg,\(bodyweight),\(reps),,,,,,2026-11-21T10:17:00.00\(n)+01:00,\n"
        }
        // When it is read
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        // Then the first two are refused, the assisted set is read
        #expect(file.badRows.map(\.line) == [2, 3])
        #expect(file.badRows[0].reason.contains("0 reps with no load"))
        #expect(file.badRows[1].reason.contains("weight -100kg is negative"))
        #expect(file.setCount == 1)
    }

    @Test func anUnclosedQuoteIsReportedWhereItOpensAndTheLinesAfterItAreRead() throws {
        // Given a note whose quote is never closed on line 3, with three good rows after it
        let bytes = Self.strongFile([
            Self.row(1),
            Self.row(2, note: "\"felt heavy"),
            Self.row(3),
            Self.row(4),
            Self.row(1, "Squat", weight: "140"),
        ])
        // When it is read
        let file = try ImportParser.parse(bytes, options: ImportOptions())
        // Then line 3 is the bad row, saying how many lines the quote would have swallowed,
        // and those lines are sets of their own
        #expect(file.badRows.map(\.line) == [3])
        #expect(file.badRows.first?.reason.contains("never closed") == true)
        #expect(file.badRows.first?.reason.contains("the 3 lines after it are read on their own") == true)
        #expect(file.setCount == 4)
        #expect(file.workouts[0].sets.map(\.line) == [2, 4, 5, 6])
    }

    @Test func aStrayQuoteThatPairsWithALaterOneNamesTheLinesItTookIn() throws {
        // Given a quote left open on line 3 that the quote opening a note on line 5 closes
        let bytes = Self.strongFile([
            Self.row(1),
            Self.row(2, note: "\"felt heavy"),
            Self.row(3),
            "2024-05-01 10:00:00,A,30m,Squat,1,140,5,0,0,\"two",
            "lines\",,",
            Self.row(2, "Squat", weight: "140"),
        ])
        // When it is read
        let file = try ImportParser.parse(bytes, options: ImportOptions())
        // Then the row that took in lines 4 and 5 says so, and the rest is read
        #expect(file.badRows.map(\.line) == [3, 6])
        #expect(file.badRows.first?.reason.contains("a quoted field runs on to line 5, taking in 2 lines") == true,
                "\(file.badRows)")
        #expect(file.workouts.flatMap(\.sets).map(\.line) == [2, 7])
    }

    @Test("an unclosed quote is flagged and reading resumes on the next line, whatever the chunk size",
          arguments: [1, 2, 3, 4, 7, 1 << 16])
    func theCursorFlagsAnUnclosedQuoteAndResumesOnTheNextLine(chunkSize: Int) throws {
        // Given a quoted field that spans a line and is closed, then one that never closes
        var cursor = ImportCSVCursor(Array("a,\"x\ny\"\nb,\"open\r\nc,d\r\ne,f".utf8), delimiter: ",", chunkSize: chunkSize)
        // Then the closed one is one row, the open one is cut at its line, and reading goes on
        #expect(try cursor.next()! == (1, ["a", "x\ny"]))
        #expect(cursor.unclosedQuote == nil && cursor.rowEndLine == 2)
        #expect(try cursor.next()! == (3, ["b", "open"]))
        #expect(cursor.unclosedQuote == ImportCSVCursor.UnclosedQuote(line: 3, swallowedLines: 2))
        #expect(try cursor.next()! == (4, ["c", "d"]))
        #expect(cursor.unclosedQuote == nil)
        #expect(try cursor.next()! == (5, ["e", "f"]))
        #expect(try cursor.next() == nil)
    }

    @Test func anUnclosedQuoteInTheHeaderIsRefusedWithItsLine() {
        let error = #expect(throws: UserError.self) {
            try ImportParser.parse(Array("Date,\"Exercise Name,Set Order\n2024-05-01,a,1\n".utf8), options: ImportOptions())
        }
        #expect(error?.message.contains("Line 1") == true)
    }
}
