import Foundation
import GymLogCore
import Testing

@Suite("parseDayPhrase: the days --since and --until take")
struct DayPhraseTests {
    let today = daysFromCivil(year: 2026, month: 3, day: 31)

    func day(_ y: Int, _ m: Int, _ d: Int) -> Int64 { daysFromCivil(year: y, month: m, day: d) }

    @Test func datesTodayAndYesterday() {
        #expect(parseDayPhrase("2026-01-31", today: today) == day(2026, 1, 31))
        #expect(parseDayPhrase("today", today: today) == today)
        #expect(parseDayPhrase(" Yesterday ", today: today) == today - 1)
    }

    @Test(arguments: [("30d", 30), ("30 days", 30), ("1 day ago", 1), ("12w", 84), ("12 weeks ago", 84), ("0d", 0), ("2wk", 14)])
    func daysAndWeeksBack(text: String, back: Int) {
        #expect(parseDayPhrase(text, today: today) == today - Int64(back))
    }

    @Test func monthsAndYearsStepByTheCalendarClampedToTheMonth() {
        // Given 2026-03-31: a month back is February's last day, not 2026-03-03
        #expect(parseDayPhrase("1m", today: today) == day(2026, 2, 28))
        #expect(parseDayPhrase("6mo", today: today) == day(2025, 9, 30))
        #expect(parseDayPhrase("3 months ago", today: today) == day(2025, 12, 31))
        #expect(parseDayPhrase("1y", today: today) == day(2025, 3, 31))
        #expect(parseDayPhrase("2 years", today: day(2024, 2, 29)) == day(2022, 2, 28))
        #expect(parseDayPhrase("15m", today: day(2026, 1, 15)) == day(2024, 10, 15))
    }

    @Test(arguments: ["", "30", "d", "30x", "-3d", "3.5w", "2026-02-30", "2026-1-1", "tomorrow", "1234567d", "3000y"])
    func anythingElseIsNotADay(text: String) {
        #expect(parseDayPhrase(text, today: today) == nil)
    }
}
