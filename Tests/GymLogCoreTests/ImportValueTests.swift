import Foundation
import Testing
@testable import GymLogCore

/// The small readers every import format shares: numbers as exported, durations, times.
@Suite struct ImportValueTests {
    @Test(arguments: [
        ("100", 100_000), ("102.5", 102_500), ("8.0", 8_000), ("0.125", 125),
        // Float noise is rounded to the nearest thousandth, the precision a person typed.
        ("149.99999999999997", 150_000), ("102.49999", 102_500), ("102.4999", 102_500),
        ("70.25000000000001", 70_250), ("33.33333333", 33_333), ("0.0004", 0), ("0.0005", 1),
        ("99.9995", 100_000), ("1.", 1_000), (".5", 500),
    ] as [(String, Int64)])
    func numbersRoundToWhatAPersonTyped(text: String, thousandths: Int64) {
        #expect(ImportValue.number(text)?.thousandths == thousandths)
    }

    @Test func numbersRejectWhatIsNotADecimal() {
        for text in ["", "abc", "1e5", "1.2.3", "-5", "1,5", "10 kg", "."] {
            #expect(ImportValue.number(text) == nil, "\(text)")
        }
        #expect(ImportValue.number("102,5", decimalComma: true)?.description == "102.5")
        #expect(ImportValue.number("-20", signed: true)?.description == "-20")
    }

    @Test func countsAcceptTrailingZeroDecimalsOnly() {
        #expect(ImportValue.count("8") == 8)
        #expect(ImportValue.count("8.0") == 8)
        #expect(ImportValue.count("8.00") == 8)
        #expect(ImportValue.count("8.5") == nil)
        #expect(ImportValue.count("-1") == nil)
    }

    @Test(arguments: [
        ("55s", 55), ("38min", 2280), ("38m", 2280), ("1h 18m", 4680), ("1h", 3600), ("1h 5m 3s", 3903),
        ("4680", 4680), ("95.0", 95), ("0:01:30", 90), ("1:02:03", 3723), ("7:41", 461), ("0m", 0), ("2 min", 120),
    ] as [(String, Int)])
    func durationsInEverySpelling(text: String, seconds: Int) {
        #expect(ImportValue.duration(text) == seconds)
    }

    @Test func durationsRejectNonsense() {
        for text in ["", "abc", "5x", "1h 18", "7:4", "1:60", "h", "12 parsecs"] {
            #expect(ImportValue.duration(text) == nil, "\(text)")
        }
    }

    @Test func localTimesWithAndWithoutSeconds() {
        let day = epochMillis(year: 2024, month: 3, day: 1, utcOffsetSeconds: 0)
        #expect(ImportValue.localDateTime("2024-03-01 07:15:00") == day + (7 * 3600 + 15 * 60) * 1000)
        #expect(ImportValue.localDateTime("2024-03-01 07:15") == day + (7 * 3600 + 15 * 60) * 1000)
        #expect(ImportValue.localDateTime("2024-03-01T07:15:09") == day + (7 * 3600 + 15 * 60 + 9) * 1000)
        #expect(ImportValue.localDateTime("2024-03-01") == day)
        #expect(ImportValue.localDateTime("2024-02-30 07:15:00") == nil)
        #expect(ImportValue.localDateTime("2024-03-01 25:00:00") == nil)
        #expect(ImportValue.localDateTime("01/03/2024 07:15") == nil)
    }

    @Test func hevyTimesWithPaddedAndUnpaddedDays() {
        let sep15 = epochMillis(year: 2025, month: 9, day: 15, utcOffsetSeconds: 0) + (7 * 3600 + 48 * 60) * 1000
        #expect(HevyReader.time("15 Sep 2025, 07:48") == sep15)
        #expect(HevyReader.time("5 Sep 2025, 07:48") == sep15 - 10 * 86_400_000)
        #expect(HevyReader.time("05 Sep 2025, 07:48") == sep15 - 10 * 86_400_000)
        #expect(HevyReader.time("15 September 2025, 07:48") == sep15)
        #expect(HevyReader.time("31 Sep 2025, 07:48") == nil)
        // `Spt` is a month's abbreviation in some locale's data, so it reads; a word in none does not.
        #expect(HevyReader.time("15 Sptx 2025, 07:48") == nil)
        #expect(HevyReader.time("15 Sep 2025") == nil)
    }

    @Test func nativeTimesKeepTheirOffset() {
        let t = NativeReader.instant("2026-11-21T10:15:00+01:00")
        #expect(t?.offset == 3600)
        #expect(t?.millis == epochMillis(year: 2026, month: 11, day: 21, utcOffsetSeconds: 0) + (9 * 3600 + 15 * 60) * 1000)
        #expect(NativeReader.instant("2026-11-21T10:15:00-05:30")?.offset == -(5 * 3600 + 30 * 60))
        #expect(NativeReader.instant("2026-11-21T10:15:00Z")?.offset == 0)
        #expect(NativeReader.instant("2026-11-21 10:15:00+01:00") == nil)
        #expect(NativeReader.instant("2026-11-21T10:15:00") == nil)
    }

    @Test func wallClockTimesAcrossADaylightSavingChange() {
        // Given a zone at +1 h that moves to +2 h at 2026-03-29 01:00 UTC (Central Europe)
        let change = epochMillis(year: 2026, month: 3, day: 29, utcOffsetSeconds: 0) + 3_600_000
        let offsetAt: (Int64) -> Int = { $0 < change ? 3600 : 7200 }
        let day = epochMillis(year: 2026, month: 3, day: 29, utcOffsetSeconds: 0)
        // Then 00:30 local is before the change, 10:00 local after it
        #expect(utcInstant(local: day + 1_800_000, offsetAt: offsetAt) == (day + 1_800_000 - 3_600_000, 3600))
        #expect(utcInstant(local: day + 36_000_000, offsetAt: offsetAt) == (day + 36_000_000 - 7_200_000, 7200))
    }
}
