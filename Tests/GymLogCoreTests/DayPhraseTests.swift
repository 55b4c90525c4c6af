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

@Suite("parseTimePhrase: the moments --at takes")
struct TimePhraseTests {
    private let today = daysFromCivil(year: 2026, month: 11, day: 25)

    @Test func everyFormGivesItsDayAndMinute() {
        #expect(parseTimePhrase("2026-11-20 18:00", today: today)! == (daysFromCivil(year: 2026, month: 11, day: 20), 18 * 60))
        #expect(parseTimePhrase("18:05", today: today)! == (today, 18 * 60 + 5))
        #expect(parseTimePhrase("7:30", today: today)! == (today, 7 * 60 + 30))
        #expect(parseTimePhrase("yesterday 06:00", today: today)! == (today - 1, 360))
        #expect(parseTimePhrase("  Yesterday   23:59 ", today: today)! == (today - 1, 23 * 60 + 59))
        #expect(parseTimePhrase("3d 12:00", today: today)! == (today - 3, 720))
    }

    @Test(arguments: ["", "18", "24:00", "18:60", "18:5", "2026-11-20", "2026-11-20 18", "tomorrow 18:00",
                      "2026-02-30 10:00", "18:00 yesterday", "1:2:3", "-1:00"])
    func otherTextIsNoTime(_ text: String) {
        #expect(parseTimePhrase(text, today: today) == nil)
    }

    @Test func theOffsetIsTheOneInForceAtThatMoment() {
        // A zone at +1 h before 2026-03-29 01:00 UTC and +2 h after (central Europe).
        let change = epochMillis(year: 2026, month: 3, day: 29, utcOffsetSeconds: 0) + 3_600_000
        let offset: (Int64) -> Int = { $0 < change ? 3600 : 7200 }
        let before = instant(day: daysFromCivil(year: 2026, month: 3, day: 28), minute: 18 * 60, utcOffset: offset)
        let after = instant(day: daysFromCivil(year: 2026, month: 3, day: 30), minute: 18 * 60, utcOffset: offset)
        #expect(before == epochMillis(year: 2026, month: 3, day: 28, utcOffsetSeconds: 0) + 17 * 3_600_000)
        #expect(after == epochMillis(year: 2026, month: 3, day: 30, utcOffsetSeconds: 0) + 16 * 3_600_000)
    }
}
