import Testing
@testable import GymLogCore

/// `calendar`'s model (issue 30, item 6): the month grid and streaks in weeks.
@Suite struct TrainingCalendarTests {
    static func day(_ text: String) -> Int64 {
        let d = parseDay(text)!
        return daysFromCivil(year: d.year, month: d.month, day: d.day)
    }

    @Test func aMonthIsLaidOutMondayFirstAsCalDoes() {
        // November 2026 starts on a Sunday and has 30 days
        let weeks = TrainingCalendar.weeks(year: 2026, month: 11)
        #expect(weeks.count == 6)
        #expect(weeks[0] == [nil, nil, nil, nil, nil, nil, Self.day("2026-11-01")])
        #expect(weeks[5] == [Self.day("2026-11-30"), nil, nil, nil, nil, nil, nil])
        // February 2027 starts on a Monday: four full weeks
        #expect(TrainingCalendar.weeks(year: 2027, month: 2).count == 4)
        #expect(TrainingCalendar.weeks(year: 2027, month: 2).allSatisfy { $0.allSatisfy { $0 != nil } })
    }

    @Test func aStreakIsWeeksInARowWithAWorkout() {
        // Workouts in the weeks of 2 Nov, 9 Nov (twice) and 23 Nov: a gap in the week of 16 Nov
        let calendar = TrainingCalendar(workoutsByDay: [
            Self.day("2026-11-03"): 1, Self.day("2026-11-09"): 1, Self.day("2026-11-15"): 1, Self.day("2026-11-24"): 2,
            Self.day("2026-11-20"): 0,
        ])
        #expect(calendar.streaks == [TrainingCalendar.Streak(firstMonday: Self.day("2026-11-02"), weeks: 2),
                                     TrainingCalendar.Streak(firstMonday: Self.day("2026-11-23"), weeks: 1)])
        #expect(calendar.longestStreak?.weeks == 2 && calendar.longestStreak?.lastSunday == Self.day("2026-11-15"))
        // The streak of the week of 23 Nov goes on through the next week, then ends
        #expect(calendar.currentStreak(today: Self.day("2026-11-27"))?.weeks == 1)
        #expect(calendar.currentStreak(today: Self.day("2026-12-06"))?.weeks == 1)
        #expect(calendar.currentStreak(today: Self.day("2026-12-07")) == nil)
        #expect(calendar.workouts(from: Self.day("2026-11-01"), through: Self.day("2026-11-30")) == 5)
        #expect(calendar.workouts(from: Self.day("2026-11-10"), through: Self.day("2026-11-23")) == 1)
        #expect(TrainingCalendar(workoutsByDay: [:]).longestStreak == nil)
    }
}
