/// The days you trained, laid out month by month as `cal` does (Monday first, as `stats`
/// counts weeks), with streaks counted in weeks: a week (Monday to Sunday) with at least one
/// workout keeps a streak going. Pure, on local day numbers (days since 1970-01-01).
public struct TrainingCalendar: Equatable, Sendable {
    /// Workouts started on each local day that has any.
    public var workoutsByDay: [Int64: Int]

    public init(workoutsByDay: [Int64: Int]) { self.workoutsByDay = workoutsByDay.filter { $0.value > 0 } }

    /// A run of weeks in a row with a workout: its first Monday and how many weeks.
    public struct Streak: Equatable, Sendable {
        public var firstMonday: Int64
        public var weeks: Int
        /// The Sunday that ends its last week.
        public var lastSunday: Int64 { firstMonday + Int64(weeks) * 7 - 1 }
    }

    /// Every streak, oldest first.
    public var streaks: [Streak] {
        let mondays = Set(workoutsByDay.keys.map(mondayOf)).sorted()
        var runs: [Streak] = []
        for monday in mondays {
            if let last = runs.last, last.firstMonday + Int64(last.weeks) * 7 == monday {
                runs[runs.count - 1].weeks += 1
            } else {
                runs.append(Streak(firstMonday: monday, weeks: 1))
            }
        }
        return runs
    }

    /// The longest streak (the latest of equals); nil before the first workout.
    public var longestStreak: Streak? {
        streaks.reduce(nil) { best, s in best.map { s.weeks >= $0.weeks ? s : $0 } ?? s }
    }

    /// The streak still going on `today`: one that takes in this week, or last week while
    /// this one has no workout yet (a week without one ends a streak only once it is over).
    public func currentStreak(today: Int64) -> Streak? {
        guard let last = streaks.last else { return nil }
        let thisMonday = mondayOf(today)
        return last.lastSunday >= thisMonday - 1 ? last : nil
    }

    /// Workouts started on the days `from...through`.
    public func workouts(from: Int64, through: Int64) -> Int {
        workoutsByDay.reduce(0) { $0 + ((from...through).contains($1.key) ? $1.value : 0) }
    }

    /// The weeks of a month as `cal` lays them out: rows of seven cells, Monday first, each
    /// the day number of a day of the month or nil before the first and after the last.
    public static func weeks(year: Int, month: Int) -> [[Int64?]] {
        let first = daysFromCivil(year: year, month: month, day: 1)
        let last = first + Int64(daysInMonth(year: year, month: month)) - 1
        return stride(from: mondayOf(first), through: last, by: 7).map { monday in
            (0..<7).map { offset in
                let day = monday + Int64(offset)
                return (first...last).contains(day) ? day : nil
            }
        }
    }
}
