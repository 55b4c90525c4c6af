import GymLogCore
import Testing

/// `--workout REF` read as typed: a day, the day's Nth workout, or the Nth most recent.
@Suite struct WorkoutReferenceTests {
    private let today = daysFromCivil(year: 2026, month: 11, day: 26)

    @Test func datesDayWordsIndexesAndCountsBackAreReferences() {
        let day = daysFromCivil(year: 2026, month: 11, day: 20)
        #expect(WorkoutReference.parse("2026-11-20", today: today) == .day(day, index: nil))
        #expect(WorkoutReference.parse("2026-11-20#2", today: today) == .day(day, index: 2))
        #expect(WorkoutReference.parse("yesterday", today: today) == .day(today - 1, index: nil))
        #expect(WorkoutReference.parse("today#3", today: today) == .day(today, index: 3))
        #expect(WorkoutReference.parse("-1", today: today) == .recent(1))
        #expect(WorkoutReference.parse("-12", today: today) == .recent(12))
    }

    @Test(arguments: ["", "-", "-0", "--2", "-2x", "2026-11-31", "2026-11-20#", "2026-11-20#0", "2026-11-20#x", "bench", "#2"])
    func otherTextIsNoReference(_ text: String) {
        #expect(WorkoutReference.parse(text, today: today) == nil)
    }

    @Test func aWorkoutsDayIsItsLocalDateAndItsLabelNumbersOnlyBusyDays() {
        // 2026-11-20 23:30 UTC is already 2026-11-21 at UTC+1, and still 2026-11-20 at UTC-5
        let late = epochMillis(year: 2026, month: 11, day: 20, utcOffsetSeconds: 0) + (23 * 60 + 30) * 60_000
        #expect(WorkoutReference.day(startedAt: late, utcOffsetSeconds: 3600) == daysFromCivil(year: 2026, month: 11, day: 21))
        #expect(WorkoutReference.day(startedAt: late, utcOffsetSeconds: -5 * 3600) == daysFromCivil(year: 2026, month: 11, day: 20))
        #expect(WorkoutReference.day(startedAt: -1, utcOffsetSeconds: 0) == -1)
        let day = daysFromCivil(year: 2026, month: 11, day: 20)
        #expect(WorkoutReference.label(day: day, index: 1, of: 1) == "2026-11-20")
        #expect(WorkoutReference.label(day: day, index: 2, of: 3) == "2026-11-20#2")
        #expect(WorkoutReference.recent(3).text == "-3" && WorkoutReference.day(day, index: 2).text == "2026-11-20#2")
    }
}
