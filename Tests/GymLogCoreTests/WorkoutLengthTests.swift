import Testing
import GymLogCore

@Suite("WorkoutLength: from start to end, at least its sets' own times, else unknown")
struct WorkoutLengthTests {
    @Test("a workout lasts from its start to its end")
    func startToEnd() {
        #expect(WorkoutLength.millis(start: 0, end: 52 * 60_000, setSeconds: [nil, nil]) == Int64(52 * 60_000))
        #expect(WorkoutLength.text(52 * 60_000) == "52 min")
        #expect(WorkoutLength.text(65 * 60_000) == "1 h 05 min")
    }

    @Test("a 47:43 run logged as one line lasted 47:43, however soon the workout was finished")
    func ownTimesCount() {
        let run = WorkoutLength.millis(start: 0, end: 5_000, setSeconds: [47 * 60 + 43])
        #expect(run == Int64(47 * 60 + 43) * 1000)
        #expect(WorkoutLength.text(run) == "47 min")
        // A plank and a walk add up; the end still wins when it is later
        #expect(WorkoutLength.millis(start: 0, end: 0, setSeconds: [60, nil, 600]) == Int64(660_000))
        #expect(WorkoutLength.millis(start: 0, end: 3_600_000, setSeconds: [600]) == Int64(3_600_000))
    }

    @Test("no end recorded (an import without end times, a past session, one set) is unknown, not 0 min")
    func unknown() {
        #expect(WorkoutLength.millis(start: 1_000, end: 1_999, setSeconds: [nil, nil, nil]) == nil)
        #expect(WorkoutLength.millis(start: 1_000, end: 1_000, setSeconds: [30]) == nil)
        #expect(WorkoutLength.text(nil) == "length unknown")
    }
}
