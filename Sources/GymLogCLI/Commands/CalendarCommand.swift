import ArgumentParser
import GymLogCore
import GymLogStore

struct CalendarCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "A month (or a year) of training days, like `cal`, with your streak in weeks.",
        discussion: """
          gymlog calendar
              this month
          gymlog calendar 2026-10
              another month
          gymlog calendar --year
              this year (or `gymlog calendar 2025`)
          gymlog calendar --json
              the days trained, the workouts and the streaks, for scripts

        Weeks run Monday to Sunday. A day you trained is in colour on a terminal and \
        marked `*` without colour. A streak is weeks in a row with at least one workout; the \
        current one lasts while this week or the last one has a workout.
        """
    )
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Show the whole year.") var year = false
    @Argument(help: ArgumentHelp("A month (2026-10) or a year (2026); this month when left out.", valueName: "when"))
    var when: String?
    @OptionGroup var output: JSONFlag

    /// `when` read: a year, and a month of it or nil for the whole year.
    static func period(_ when: String, wholeYear: Bool) throws -> (year: Int, month: Int?) {
        let parts = when.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts[0].count == 4, let y = Int(parts[0]), (1970...9999).contains(y) else {
            throw ValidationError("'\(when)' is not a month or a year; give one like `2026-10` or `2026`.")
        }
        if parts.count == 1 { return (y, nil) }
        guard parts[1].count == 2, let m = Int(parts[1]), (1...12).contains(m) else {
            throw ValidationError("'\(when)' is not a month; give one like `2026-10`.")
        }
        if wholeYear {
            throw ValidationError("--year shows a whole year: give the year alone, e.g. `gymlog calendar \(y)`.")
        }
        return (y, m)
    }

    func validate() throws {
        if let when { _ = try Self.period(when, wholeYear: year) }
    }

    /// The months to show: one, or the twelve of a year.
    func months(today: Int64) throws -> (year: Int, months: ClosedRange<Int>) {
        let now = civilFromDays(today)
        guard let when else { return (now.year, year ? 1...12 : now.month...now.month) }
        let period = try Self.period(when, wholeYear: year)
        return (period.year, period.month.map { $0...$0 } ?? 1...12)
    }

    func run(in context: CLIContext) async throws {
        let now = context.environment.now()
        let today = LineChart.day(millis: now, utcOffsetSeconds: context.environment.utcOffset(now))
        let shown = try months(today: today)
        let calendar = TrainingCalendar(workoutsByDay: try context.db().workoutsByDay())
        let from = daysFromCivil(year: shown.year, month: shown.months.lowerBound, day: 1)
        let through = daysFromCivil(year: shown.year, month: shown.months.upperBound, day: daysInMonth(year: shown.year, month: shown.months.upperBound))
        let thisYear = civilFromDays(today).year
        let yearStart = daysFromCivil(year: thisYear, month: 1, day: 1), yearEnd = daysFromCivil(year: thisYear, month: 12, day: 31)
        if output.json {
            let streak = { (s: TrainingCalendar.Streak?) -> JSON in
                s.map { .object([("weeks", .int($0.weeks)), ("from", .string(LineChart.dayLabel($0.firstMonday))),
                                 ("to", .string(LineChart.dayLabel($0.lastSunday)))]) } ?? .null
            }
            context.printJSON(.object([
                ("from", .string(LineChart.dayLabel(from))), ("to", .string(LineChart.dayLabel(through))),
                ("days", .array(calendar.workoutsByDay.keys.filter { (from...through).contains($0) }.sorted().map { day in
                    .object([("date", .string(LineChart.dayLabel(day))), ("workouts", .int(calendar.workoutsByDay[day]!))])
                })),
                ("workouts", .int(calendar.workouts(from: from, through: through))),
                ("workouts_this_year", .int(calendar.workouts(from: yearStart, through: yearEnd))),
                ("current_streak", streak(calendar.currentStreak(today: today))),
                ("longest_streak", streak(calendar.longestStreak)),
            ]))
            return
        }
        let style = Style.stdout
        let blocks = shown.months.map { CalendarText.month(calendar, year: shown.year, month: $0, today: today, style: style) }
        // As many months side by side as the terminal has room for, up to three (`cal -y`).
        let width = CalendarText.width(style)
        let across = max(1, min(3, ((Render.wrapColumns ?? 90) + 2) / (width + 2)))
        for (i, row) in stride(from: 0, to: blocks.count, by: across).enumerated() {
            if i > 0 { context.print("") }
            let group = Array(blocks[row..<min(row + across, blocks.count)])
            for line in 0..<group.map(\.count).max()! {
                let cells = group.map { line < $0.count ? $0[line] : "" }
                let padded = cells.enumerated().map { k, c in k == cells.count - 1 ? c : TerminalText.pad(c, to: width) }
                context.print(padded.joined(separator: "  ").replacing(#/ +$/#, with: ""))
            }
        }
        context.print("")
        CalendarText.summary(calendar, from: from, through: through, single: shown.months.count == 1, year: shown.year,
                             today: today).forEach(context.print)
    }
}

/// The words of `calendar`.
enum CalendarText {
    /// A month's columns: seven days of two digits, in colour, or with room for the mark.
    static func width(_ style: Style) -> Int { style.enabled ? 20 : 27 }
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]

    /// `   November 2026`, `Mo Tu We Th Fr Sa Su`, then a line a week; a day trained in colour,
    /// or marked `*` without colour; today underlined.
    static func month(_ calendar: TrainingCalendar, year: Int, month: Int, today: Int64, style: Style) -> [String] {
        let title = "\(monthNames[month - 1]) \(year)"
        let centred = String(repeating: " ", count: max(0, (width(style) - title.count) / 2)) + title
        // Without colour each day has a column for its mark (`23*`) and one to breathe.
        let gap = style.enabled ? "" : " "
        let header = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"].joined(separator: style.enabled ? " " : "  ")
        return [style.bold(centred), header] + TrainingCalendar.weeks(year: year, month: month).map { week in
            week.map { day -> String in
                guard let day else { return "   " + gap }
                var number = String(civilFromDays(day).day)
                if number.count == 1 { number = " " + number }
                let trained = calendar.workoutsByDay[day] != nil
                if day == today { number = style.today(number) }
                if trained { number = style.trained(number) }
                return number + (trained && !style.enabled ? "*" : " ") + gap
            }.joined().replacing(#/ +$/#, with: "")
        }
    }

    /// `November 2026: 9 workouts; 2026: 112.` and the streaks.
    static func summary(_ calendar: TrainingCalendar, from: Int64, through: Int64, single: Bool, year: Int, today: Int64) -> [String] {
        guard let longest = calendar.longestStreak else {
            return ["No workouts yet; log a set like `gymlog log \"bench 100x5\"`."]
        }
        let thisYear = civilFromDays(today).year
        let period = single ? "\(monthNames[civilFromDays(from).month - 1]) \(year)" : "\(year)"
        var counts = "\(period): \(plural(calendar.workouts(from: from, through: through), "workout"))"
        if !(single == false && year == thisYear) {
            counts += "; \(thisYear) so far: " + plural(calendar.workouts(from: daysFromCivil(year: thisYear, month: 1, day: 1), through: today), "workout")
        }
        let current = calendar.currentStreak(today: today)
        let streak = current.map { "Streak: \(plural($0.weeks, "week")) in a row with a workout" } ?? "Streak: none this week or last"
        let best = current == longest ? "your longest" : "longest \(plural(longest.weeks, "week")), from \(LineChart.dayLabel(longest.firstMonday))"
        return [counts + ".", "\(streak) (\(best))."]
    }
}
