import Foundation
import Testing
import GymLogCore
import SplitMix

@Suite("Civil time")
struct CivilTimeTests {
    @Test("formats known instants with the offset, +00:00 for UTC")
    func knownInstants() {
        // Given 2026-11-21 10:15 in Central European Time (UTC+1), i.e. 09:15Z
        let millis: Int64 = 1_795_252_500_000
        // Then
        #expect(iso8601(millis: millis, utcOffsetSeconds: 3600) == "2026-11-21T10:15:00+01:00")
        #expect(iso8601(millis: millis, utcOffsetSeconds: 0) == "2026-11-21T09:15:00+00:00")
        #expect(iso8601(millis: millis, utcOffsetSeconds: -5 * 3600) == "2026-11-21T04:15:00-05:00")
        #expect(iso8601(millis: millis, utcOffsetSeconds: -(9 * 3600 + 30 * 60)) == "2026-11-20T23:45:00-09:30")
        #expect(iso8601(millis: millis, utcOffsetSeconds: 5 * 3600 + 45 * 60) == "2026-11-21T15:00:00+05:45")
        #expect(localDate(millis: millis, utcOffsetSeconds: 3600) == "2026-11-21")
        #expect(localDateTime(millis: millis, utcOffsetSeconds: 3600) == "2026-11-21 10:15:00")
        #expect(iso8601(millis: 0, utcOffsetSeconds: 0) == "1970-01-01T00:00:00+00:00")
    }

    @Test("truncates milliseconds towards the past, also before 1970")
    func millisecondTruncation() {
        #expect(iso8601(millis: 999, utcOffsetSeconds: 0) == "1970-01-01T00:00:00+00:00")
        #expect(iso8601(millis: -1, utcOffsetSeconds: 0) == "1969-12-31T23:59:59+00:00")
        #expect(iso8601(millis: -1000, utcOffsetSeconds: 0) == "1969-12-31T23:59:59+00:00")
        #expect(iso8601(millis: -1001, utcOffsetSeconds: 0) == "1969-12-31T23:59:58+00:00")
        #expect(localDate(millis: -86_400_000, utcOffsetSeconds: 0) == "1969-12-31")
    }

    @Test("offsets with stray seconds are cut to whole minutes so time and offset agree")
    func secondOffsets() {
        // Given Amsterdam's 1909 offset of +00:19:32
        let text = iso8601(millis: 0, utcOffsetSeconds: 19 * 60 + 32)
        // Then the shown time and offset still name 1970-01-01T00:00:00Z
        #expect(text == "1970-01-01T00:19:00+00:19")
    }

    @Test("leap days and century years")
    func leapDays() {
        let cases: [(Int, Int, Int, String)] = [
            (2000, 2, 29, "2000-02-29"), (2024, 2, 29, "2024-02-29"), (2100, 3, 1, "2100-03-01"),
            (1972, 2, 29, "1972-02-29"), (2096, 12, 31, "2096-12-31"),
        ]
        for (y, m, d, text) in cases {
            let millis = epochMillis(year: y, month: m, day: d, utcOffsetSeconds: 0)
            #expect(localDate(millis: millis, utcOffsetSeconds: 0) == text)
        }
        // The day after 2100-02-28 is March 1st: 2100 is not a leap year.
        let feb28 = epochMillis(year: 2100, month: 2, day: 28, utcOffsetSeconds: 0)
        #expect(localDate(millis: feb28 + 86_400_000, utcOffsetSeconds: 0) == "2100-03-01")
        #expect(isLeapYear(2000) && isLeapYear(2024) && !isLeapYear(1900) && !isLeapYear(2100))
    }

    @Test("days-from-civil and civil-from-days are inverses for every day 1600-2400")
    func civilRoundTrip() {
        var expected = daysFromCivil(year: 1600, month: 1, day: 1)
        for year in 1600...2400 {
            for month in 1...12 {
                for day in 1...daysInMonth(year: year, month: month) {
                    let days = daysFromCivil(year: year, month: month, day: day)
                    // Consecutive dates are consecutive day numbers.
                    #expect(days == expected)
                    expected += 1
                    let back = civilFromDays(days)
                    if back.year != year || back.month != month || back.day != day {
                        Issue.record("\(year)-\(month)-\(day) -> \(days) -> \(back)")
                        return
                    }
                }
            }
        }
        #expect(daysFromCivil(year: 1970, month: 1, day: 1) == 0)
    }

    @Test("agrees with Foundation's Calendar and ISO8601DateFormatter for random instants and offsets")
    func crossCheckFoundation() throws {
        // Given seeded random instants in 1970...2100 and offsets in -14h...+14h
        var rng = SplitMix64(seed: 0x6779_6D6C_6F67)
        let low = epochMillis(year: 1970, month: 1, day: 1, utcOffsetSeconds: 0)
        let high = epochMillis(year: 2100, month: 12, day: 31, utcOffsetSeconds: 0)
        var calendar = Calendar(identifier: .gregorian)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var mismatches = 0
        for i in 0..<5000 {
            var millis = Int64.random(in: low...high, using: &rng)
            if i % 10 == 0 {
                // Leap days specifically: a random Feb 29 of a leap year, random time of day.
                let year = [1972, 1996, 2000, 2024, 2028, 2096][i / 10 % 6]
                millis = epochMillis(year: year, month: 2, day: 29, utcOffsetSeconds: 0)
                    + Int64.random(in: 0..<86_400_000, using: &rng)
            }
            let offset = i % 3 == 0
                ? Int.random(in: -56...56, using: &rng) * 15 * 60   // real-world quarter hours
                : Int.random(in: -14 * 60...14 * 60, using: &rng) * 60  // any whole minute
            let zone = try #require(TimeZone(secondsFromGMT: offset))
            calendar.timeZone = zone
            let date = Date(timeIntervalSince1970: Double(millis.floorDiv(1000)))
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let fromCalendar = String(format: "%04d-%02d-%02d %02d:%02d:%02d",
                                      c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)

            // When
            let ours = localDateTime(millis: millis, utcOffsetSeconds: offset)
            let oursISO = iso8601(millis: millis, utcOffsetSeconds: offset)
            formatter.timeZone = zone
            var theirISO = formatter.string(from: date)
            if theirISO.hasSuffix("Z") { theirISO = String(theirISO.dropLast()) + "+00:00" }

            // Then
            if ours != fromCalendar || oursISO != theirISO {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record("millis \(millis) offset \(offset): \(ours) / \(oursISO) vs \(fromCalendar) / \(theirISO)")
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test("start of local day matches Calendar.startOfDay")
    func startOfDayMatchesCalendar() throws {
        var rng = SplitMix64(seed: 42)
        var calendar = Calendar(identifier: .gregorian)
        for _ in 0..<1000 {
            let year = Int.random(in: 1970...2100, using: &rng)
            let month = Int.random(in: 1...12, using: &rng)
            let day = Int.random(in: 1...daysInMonth(year: year, month: month), using: &rng)
            let offset = Int.random(in: -56...56, using: &rng) * 15 * 60
            calendar.timeZone = try #require(TimeZone(secondsFromGMT: offset))
            let expected = try #require(calendar.date(from: DateComponents(year: year, month: month, day: day)))
            let ours = epochMillis(year: year, month: month, day: day, utcOffsetSeconds: offset)
            #expect(ours == Int64(expected.timeIntervalSince1970) * 1000)
            #expect(localDateTime(millis: ours, utcOffsetSeconds: offset).hasSuffix(" 00:00:00"))
        }
    }

    @Test("byte appenders write exactly the String forms")
    func appendersMatchStrings() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let millis = Int64.random(in: -2_000_000_000_000...5_000_000_000_000, using: &rng)
            let offset = Int.random(in: -50_400...50_400, using: &rng) / 60 * 60
            var buffer: [UInt8] = Array("x".utf8)
            appendISO8601(millis: millis, utcOffsetSeconds: offset, to: &buffer)
            appendLocalDateTime(millis: millis, utcOffsetSeconds: offset, to: &buffer)
            appendLocalDate(millis: millis, utcOffsetSeconds: offset, to: &buffer)
            let expected = "x" + iso8601(millis: millis, utcOffsetSeconds: offset)
                + localDateTime(millis: millis, utcOffsetSeconds: offset)
                + localDate(millis: millis, utcOffsetSeconds: offset)
            #expect(String(decoding: buffer, as: UTF8.self) == expected)
        }
    }

    @Test("appendDecimal matches String(_:) at the edges and at random")
    func decimals() {
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, Int64.max, Int64.min, Int64.min + 1]
        var rng = SplitMix64(seed: 99)
        for _ in 0..<1000 { values.append(Int64.random(in: .min ... .max, using: &rng) >> Int64.random(in: 0...62, using: &rng)) }
        for value in values {
            var buffer: [UInt8] = []
            appendDecimal(value, to: &buffer)
            #expect(String(decoding: buffer, as: UTF8.self) == String(value))
        }
    }

    @Test("parseDay accepts real YYYY-MM-DD days", arguments: [
        ("2026-11-21", 2026, 11, 21), ("2024-02-29", 2024, 2, 29), ("2000-02-29", 2000, 2, 29),
        ("1970-01-01", 1970, 1, 1), ("0001-01-01", 1, 1, 1), ("9999-12-31", 9999, 12, 31),
    ])
    func parseDayValid(text: String, year: Int, month: Int, day: Int) throws {
        let parsed = try #require(parseDay(text))
        #expect(parsed.year == year && parsed.month == month && parsed.day == day)
        let millis = epochMillis(year: year, month: month, day: day, utcOffsetSeconds: -18_000)
        #expect(localDate(millis: millis, utcOffsetSeconds: -18_000) == text)
    }

    @Test("parseDay rejects everything else", arguments: [
        "2023-02-29", "1900-02-29", "2100-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00",
        "2026-1-01", "2026-01-1", "26-01-01", "2026/01/01", "2026-01-01T00:00", " 2026-01-01", "2026-01-01 ",
        "", "0000-01-01", "２０２６-01-01", "2026-0a-01", "+026-01-01", "2026-01-32",
    ])
    func parseDayInvalid(text: String) {
        #expect(parseDay(text) == nil)
    }
}

extension Int64 {
    /// Division rounding towards negative infinity.
    func floorDiv(_ d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
