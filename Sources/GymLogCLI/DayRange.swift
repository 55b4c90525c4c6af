import ArgumentParser
import GymLogCore

/// `--since DAY --until DAY` for every command that looks at a span of days: one phrase
/// parser (`parseDayPhrase`) and one rule (local days, both ends inclusive).
struct DayRange: ParsableArguments {
    @Option(help: ArgumentHelp("Only from this day on: \(dayPhraseForms).", valueName: "day"))
    var since: String?
    @Option(help: ArgumentHelp("Only up to and including this day, in the same forms.", valueName: "day"))
    var until: String?

    /// Any real day works for checking the form; `bounds` resolves against the real today.
    private static let probeDay = daysFromCivil(year: 3000, month: 6, day: 15)

    func validate() throws {
        for (flag, value) in [("--since", since), ("--until", until)] {
            if let value, parseDayPhrase(value, today: Self.probeDay) == nil { throw ValidationError(Self.notADay(flag, value)) }
        }
    }

    /// The span in local day numbers (days since 1970-01-01) as of `today`; nil ends are open.
    func days(today: Int64) throws -> (since: Int64?, until: Int64?) {
        func day(_ flag: String, _ text: String?) throws -> Int64? {
            guard let text else { return nil }
            guard let d = parseDayPhrase(text, today: today) else { throw UserError(Self.notADay(flag, text)) }
            return d
        }
        let from = try day("--since", since), to = try day("--until", until)
        if let from, let to, from > to {
            throw UserError("--since \(since!) (\(LineChart.dayLabel(from))) is after --until \(until!) (\(LineChart.dayLabel(to))); swap them or widen the range.")
        }
        return (from, to)
    }

    /// The span as instants for a `performed_at >= since AND < until` query: local midnight
    /// starting `--since`, and local midnight ending `--until`.
    func bounds(now: Int64, utcOffsetSeconds: Int) throws -> (since: Int64?, until: Int64?) {
        let (from, to) = try days(today: LineChart.day(millis: now, utcOffsetSeconds: utcOffsetSeconds))
        func midnight(_ day: Int64) -> Int64 { (day * 86_400 - Int64(utcOffsetSeconds)) * 1000 }
        return (from.map(midnight), to.map { midnight($0 + 1) })
    }

    private static func notADay(_ flag: String, _ value: String) -> String {
        "\(flag) \(value) is not a day; use \(dayPhraseForms), e.g. \(flag) 30d."
    }
}
