import Foundation
import GRDB
import GymLogCore
@testable import GymLogCLI
import GymLogTestSupport
import Testing

/// `prs running` as a runner reads it (issue 48): the standard distances, not one line per
/// GPS distance, and no record from a pace no human runs.
@Suite struct RunningRecordsTests {
    @Test func prsOfARunAreTheStandardDistancesAndAGlitchIsNoRecord() throws {
        // Given runs at GPS distances, a rowing piece, and a glitch (3 km in 3 minutes)
        let home = try TemporaryHome()
        defer { home.remove() }
        for line in ["run 1.65km 8:10", "run 1.61km 7:40", "run 3022.712m 25:25", "run 5.07km 28:31", "run 5km 30:00",
                     "run 10.2km 1:01:00", "run 3km 3:00", "row 2000m 7:41", "row 2107m 8:00"] {
            #expect(try home.gymlog(["log", line, "--at", "2026-11-01 08:00"]).status == 0, "\(line)")
        }
        // When `prs running` is asked
        let prs = try home.gymlog(["prs", "run"]).stdout
        let lines = prs.split(separator: "\n").map(String.init)
        // Then it names the mile, 5 km and 10 km, each from the fastest run that covered it
        #expect(lines.contains { $0.hasPrefix("  fastest mile") && $0.contains("7:40") }, "\(prs)")
        #expect(lines.contains { $0.hasPrefix("  fastest 5km") && $0.contains("28:31") }, "\(prs)")
        #expect(lines.contains { $0.hasPrefix("  fastest 10km") && $0.contains("1:01:00") }, "\(prs)")
        // And no line per GPS distance, nor a record from the glitch
        #expect(!prs.contains("fastest 3022") && !prs.contains("fastest 1.6") && !prs.contains("3km in 3:00"), "\(prs)")
        #expect(lines.contains { $0.hasPrefix("  best pace") && $0.contains("(1.61km in 7:40") }, "\(prs)")
        // And a row keeps a record per distance (2000 m is a rower's distance)
        #expect(try home.gymlog(["prs", "row"]).stdout.contains("fastest 2000m"))
    }

    @Test func aPoundsLiftersRecordsNameDistancesInMiles() throws {
        // Given a lifter who weighs in pounds, a mile run last week and a faster one today
        let home = try TemporaryHome()
        defer { home.remove() }
        #expect(try home.gymlog(["config", "set", "unit", "lb"]).status == 0)
        #expect(try home.gymlog(["log", "run 1mi 8:30", "--at", "2026-11-01 08:00"]).status == 0)
        #expect(try home.gymlog(["log", "run 3022.712m 25:25", "--at", "2026-11-02 08:00"]).status == 0)
        #expect(try home.gymlog(["log", "run 1mi 8:00"]).status == 0)
        // When the workout is finished
        let finish = try home.gymlog(["finish"]).stdout
        // Then its record is named as the set was typed, not in metres
        #expect(finish.contains("fastest 1mi 8:00"), "\(finish)")
        #expect(!finish.contains("1609"), "\(finish)")
        // And a distance no set shows as typed is in miles too
        #expect(Render.distance(meters: 3022.712, Settings(defaultUnit: .lb)) == "1.88mi")
        #expect(Render.distance(meters: 1609.344, Settings(defaultUnit: .lb)) == "1mi")
        #expect(Render.distance(meters: 3022.712, Settings(defaultUnit: .kg)) == "3022.7m")
        #expect(Render.distance(meters: 5030, Settings(defaultUnit: .lb), in: .km) == "5.03km")
        #expect(Render.recordLabel(.fastest, reps: 3023, set: nil, settings: Settings(defaultUnit: .lb)) == "fastest 1.88mi")
    }

    /// A GPS run a little past a standard distance is a record at that distance when it is
    /// the fastest that covered it, announced on its line and at `finish` (it used to be a
    /// record only of its own 5070 m); a glitch is not.
    @Test func aRunPastAStandardDistanceIsItsRecordWhenFastest() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        #expect(try home.gymlog(["config", "set", "unit", "lb"]).status == 0)
        // Given a 5 km in 30:00 and a 5.03 km in 29:00 last month
        #expect(try home.gymlog(["log", "run 5km 30:00", "--at", "2026-11-01 08:00"]).status == 0)
        #expect(try home.gymlog(["log", "run 5.03km 29:00", "--at", "2026-11-08 08:00"]).status == 0)
        // (an older gymlog kept no record at 5 km for the 5.03 km run)
        try DatabaseQueue(path: home.database).write { try $0.execute(sql: "DELETE FROM records WHERE metric = 'fastest_time' AND reps = 5000") }
        // When today's run covers 5 km in 28:31
        let line = try home.gymlog(["log", "run 5.07km 28:31"]).stdout
        // Then it is the 5 km record, against the faster of the two, named as a runner names it
        #expect(line.contains("fastest 5km (was 29:00)"), "\(line)")
        // and the distance it beat is in the set's own unit, not in miles beside kilometres
        #expect(line.contains("longest distance (was 5.03km)"), "\(line)")
        let finish = try home.gymlog(["finish"]).stdout
        #expect(finish.contains("fastest 5km 28:31"), "\(finish)")
        #expect(try home.gymlog(["prs", "run"]).stdout.contains("fastest 5km         28:31"))
        // And a glitch past 5 km (5.01 km in 5:00) is no 5 km record
        let glitch = try home.gymlog(["log", "run 5.01km 5:00"]).stdout
        #expect(!glitch.contains("fastest 5km"), "\(glitch)")
        // And a row keeps one line per distance logged, not a second one for the 5 km it covered
        #expect(try home.gymlog(["log", "row 5.07km 20:00"]).status == 0)
        let row = try home.gymlog(["prs", "row"]).stdout
        #expect(row.contains("fastest 5.07km") && !row.contains("fastest 5km"), "\(row)")
    }

    @Test func theHumanLimitAndTheStandardDistances() {
        #expect(RunningRecords.humanlyPossible(meters: 5000, seconds: 13 * 60))
        #expect(!RunningRecords.humanlyPossible(meters: 3000, seconds: 180))
        #expect(!RunningRecords.humanlyPossible(meters: 122_467, seconds: 3600))
        #expect(RunningRecords.standardDistance(of: 5075.7)?.name == "5km")
        #expect(RunningRecords.standardDistance(of: 4990) == nil)
        #expect(RunningRecords.standardDistance(of: 6000) == nil)
        #expect(RunningRecords.applies(toExerciseNamed: "Running") && RunningRecords.applies(toExerciseNamed: "Treadmill Walk"))
        #expect(!RunningRecords.applies(toExerciseNamed: "Rowing Machine"))
    }
}
