import GymLogCore
import Testing

@Suite struct RestTimerTests {
    @Test func countsAgainstTheTargetAndMarksItOnceReached() {
        let set: Int64 = 1_000_000
        #expect(RestTimer(lastSetAt: set, now: set + 92_400, target: nil)?.text == "rest 1:32")
        #expect(RestTimer(lastSetAt: set, now: set + 92_400, target: 180)?.text == "rest 1:32/3:00")
        #expect(RestTimer(lastSetAt: set, now: set + 180_000, target: 180)?.text == "rest 3:00 ✓")
        #expect(RestTimer(lastSetAt: set, now: set + 184_999, target: 180)?.reached == true)
        #expect(RestTimer(lastSetAt: set, now: set + 179_999, target: 180)?.reached == false)
    }

    @Test func noSetAFutureSetOrAnHourAndMoreIsNoRest() {
        #expect(RestTimer(lastSetAt: nil, now: 5, target: 60) == nil)
        #expect(RestTimer(lastSetAt: 100_000, now: 5_000, target: 60) == nil)
        #expect(RestTimer(lastSetAt: 5_002, now: 5_000, target: 60)?.text == "rest 0:00/1:00", "a set a few ms ahead is a rest of 0")
        #expect(RestTimer(lastSetAt: 0, now: 3_600_000, target: nil)?.text == "rest 60:00")
        #expect(RestTimer(lastSetAt: 0, now: 3_601_000, target: nil) == nil)
    }

    @Test(arguments: [("3:00", 180), ("90s", 90), ("2min", 120), ("0:45", 45)])
    func restTimesReadAsARoutineLineReadsThem(_ text: String, _ seconds: Int) throws {
        #expect(try RoutineParser.restSeconds(text).get() == seconds)
    }

    @Test(arguments: ["", "abc", "0:00", "61:00", "3:00 4:00"])
    func otherTextIsNoRestTime(_ text: String) {
        #expect((try? RoutineParser.restSeconds(text).get()) == nil)
    }
}
