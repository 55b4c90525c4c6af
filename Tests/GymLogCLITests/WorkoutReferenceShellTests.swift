import Foundation
import GymLogCore
import GymLogTestSupport
import Testing

/// Fixing a past workout from the shell, with the real binary: a script has no terminal, so
/// deleting a whole workout takes `--yes`.
@Suite struct WorkoutReferenceShellTests {
    @Test func aPastSessionIsRepeatedFinishedShownFixedAndDeletedFromTheShell() throws {
        // Given bench today, finished, then a curl logged at yesterday 12:00
        let home = try TemporaryHome()
        func run(_ args: String..., status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> TemporaryHome.Run {
            let result = try home.gymlog(args)
            #expect(result.status == status, "\(args): \(result.stdout) \(result.stderr)", sourceLocation: sourceLocation)
            return result
        }
        try run("log", "bench 100x5")
        try run("finish")
        try run("log", "--at", "yesterday 12:00", "curl 20x10")
        // When `+` is logged at 12:05 yesterday, then it repeats the curl, not today's bench
        let plus = try run("log", "--at", "yesterday 12:05", "+")
        #expect(plus.stdout.contains("curl #2") && plus.stdout.contains("20kg x 10") && !plus.stdout.contains("PR"), "\(plus.stdout)")
        // And `finish` ends that session at its last set
        let finish = try run("finish")
        #expect(finish.stdout.hasPrefix("Finished the workout of ") && finish.stdout.contains(": 5 min, 2 sets"), "\(finish.stdout)")
        // And `show --workout -2` (an option value that starts with a dash) shows it with its reference
        let show = try run("show", "--workout", "-2")
        #expect(show.stdout.contains("curl") && !show.stdout.contains("bench") && show.stdout.contains("ref "), "\(show.stdout)")
        #expect(try run("edit", "--workout", "-2", "2", "x12").stdout == "Edited: 20kg x 12\n")
        // And deleting it whole from a script needs --yes, and says so
        let refused = try run("delete", "--workout", "-2", status: 1)
        #expect(refused.stderr.contains("there is no terminal to ask on: run `gymlog delete --workout ") && refused.stderr.contains("--yes`"), "\(refused.stderr)")
        #expect(try run("history").stdout.contains("curl"))
        let deleted = try run("delete", "--workout", "-2", "--yes")
        #expect(deleted.stdout.contains("Deleted the workout of") && deleted.stdout.contains("2 sets"), "\(deleted.stdout)")
        #expect(!(try run("history").stdout.contains("curl")))
        // And one `undo` brings it back whole, once confirmed: it is yesterday's workout
        #expect(try run("undo", status: 1).stderr.contains("`gymlog undo --yes`"))
        #expect(try run("undo", "--yes").stdout.hasPrefix("Undid `delete --workout -2` in the workout of "))
        #expect(try run("show", "--workout=-2").stdout.components(separatedBy: "curl").count == 3)
    }
}
