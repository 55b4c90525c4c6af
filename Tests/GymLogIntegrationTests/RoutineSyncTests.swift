import Foundation
import GymLogTestSupport
import Testing

/// A routine's lines and unit as a second device sees them after a sync (issue 26 items 1, 2).
@Suite(.serialized) struct RoutineSyncTests {
    @Test func aSecondDeviceCountsTheSameSessionsOfEachLineInTheRoutinesUnit() throws {
        let server = try ServerInstance()
        let token = try server.addUser("dana")
        let a = try ClientDevice(server: server, token: token), b = try ClientDevice(server: server, token: token)
        // Given B set to lb, and on A (kg) a Boring But Big routine done once from the plan
        try FileManager.default.createDirectory(atPath: (b.home.config as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "unit = \"lb\"\n".write(toFile: b.home.config, atomically: true, encoding: .utf8)
        try a.run(["routine", "add", "--file", "-"], stdin: "# BBB\nsquat 5/3/1 tm 140\nsquat 5x10 50%\n")
        try a.run(["start", "bbb"])
        for changes in [[], [], ["x9"], [], [], [], [], []] { try a.run(["ok"] + changes) }
        try a.run(["finish"])
        // And a squat workout outside the routine
        try a.run(["log", "squat 100x10x3"])
        try a.sync(); try b.sync()
        // Then B plans week 2 from the one session of the line, in kg as written
        let plan = try b.run(["routine", "show", "bbb"]).stdout
        #expect(plan.hasPrefix("BBB: 2 exercises, 8 sets (written in kg: weights without a unit are kg)"), "\(plan)")
        #expect(plan.contains("5/3/1 cycle 1 week 2: 70/80/90% of TM 140kg"), "\(plan)")
        #expect(plan.contains("counts 1 session of this line"), "\(plan)")
        #expect(plan.contains("squat  70kg x 10 x5"), "\(plan)")
    }
}
