import Testing
@testable import GymLogCore

/// Which sets a routine line's rule reads (issue 26 items 1, 4, 7, 8).
@Suite struct LineHistoryTests {
    static func kg(_ value: Double) -> Weight { Weight(Fixed(rounding: value), .kg) }
    static let day: Int64 = 86_400_000

    /// `# BBB`: squat 5/3/1 (3 sets), squat 5x10 (5 sets), curl 3x10.
    static let lines = [(exercise: "squat", sets: 3), (exercise: "squat", sets: 5), (exercise: "curl", sets: 3)]

    /// A Boring But Big squat session: a warm-up, the three 5/3/1 sets (AMRAP last), five of 10.
    static func bbbSession(_ day: Int64, entered: Int64? = nil) -> PastSession {
        let main = [(100.0, 5), (115, 5), (130, 9)].map { SetValues(weight: kg($0.0), reps: $0.1) }
        let bbb = Array(repeating: SetValues(weight: kg(70), reps: 10), count: 5)
        return PastSession(startedAt: day * Self.day, enteredAt: entered.map { $0 * Self.day },
                           sets: [SetValues(kind: .warmup, weight: kg(60), reps: 5)] + main + bbb)
    }

    @Test func twoLinesOfOneExerciseEachHaveTheirOwnSets() throws {
        // Given one Boring But Big session
        let sessions = [Self.bbbSession(1)]
        // Then the 5/3/1 line has the three heavy sets and the 5x10 line the five light ones
        let main = LineHistory.sessions(ofLine: 0, in: Self.lines, from: sessions)
        let bbb = LineHistory.sessions(ofLine: 1, in: Self.lines, from: sessions)
        #expect(main.first?.sets.map(\.reps) == [5, 5, 9])
        #expect(bbb.first?.sets.map(\.reps) == [10, 10, 10, 10, 10])
        // And the 5x10 line suggests its own weight, never the AMRAP set's
        let planned = try RoutineParser.parse("# BBB\nsquat 5/3/1 tm 140\nsquat 5x10\n").get().lines[1]
        let s = Progression.suggest(for: planned, history: bbb, unit: .kg)
        #expect(s.sets.map(\.summary) == Array(repeating: "70kg x 10", count: 5), "\(s.sets.map(\.summary))")
        // A workout of the routine without the exercise is no session of its lines
        #expect(LineHistory.sessions(ofLine: 0, in: Self.lines, from: [PastSession(startedAt: 0, sets: [])]).isEmpty)
    }

    @Test func aBackDatedSessionEnteredSinceTheLineWasSavedCountsAtItsDate() throws {
        let planned = try RoutineParser.parse("# BBB\nsquat 5/3/1 tm 140\n").get().lines[0]
        // Given the line saved on day 20, one session entered before (under the old line) and
        // two done on days 10 and 17 but entered on day 21
        let sessions = [Self.bbbSession(5, entered: 5), Self.bbbSession(10, entered: 21), Self.bbbSession(17, entered: 21)]
        let own = LineHistory.sessions(ofLine: 0, in: Self.lines, from: sessions)
        let counted = LineHistory.basis(for: planned, lineSessions: own, since: 20 * Self.day, exerciseSessions: nil)
        // Then the two count, from day 10: week 3 today
        #expect(counted.basis == .line(sessions: 2, first: 10 * Self.day, since: 20 * Self.day))
        #expect(Progression.suggest(for: planned, history: counted.sessions, unit: .kg).wave?.week == 3)
    }

    @Test func aTypedWeightStartsTheLineAndOtherHistoryIsOnlyAFirstWeightForALineWithNone() throws {
        let typed = try RoutineParser.parse("# P\nohp 3x5 40 linear +2.5\n").get().lines[0]
        let bare = try RoutineParser.parse("# P\nohp 3x5 linear +2.5\n").get().lines[0]
        let elsewhere = [PastSession(startedAt: Self.day, sets: Array(repeating: SetValues(weight: Self.kg(20), reps: 5), count: 3))]
        // Given older 20 kg history outside the routine: a typed 40 starts the line at 40
        let t = LineHistory.basis(for: typed, lineSessions: [], since: 2 * Self.day, exerciseSessions: elsewhere)
        #expect(t.basis == .typedStart(since: 2 * Self.day))
        #expect(Progression.suggest(for: typed, history: t.sessions, unit: .kg).sets.first?.summary == "40kg x 5")
        // A line with no weight of its own starts from the exercise's last workout, and says so
        let b = LineHistory.basis(for: bare, lineSessions: [], since: 2 * Self.day, exerciseSessions: elsewhere)
        #expect(b.basis == .exercise(last: Self.day))
        #expect(b.sessions == elsewhere)
    }

    @Test func plannedSetsFillLinesInOrderAndExtrasGoToTheLastLineOfTheExercise() {
        #expect(LineHistory.lines(of: ["squat", "squat", "squat", "squat", "curl", "row"], in: Self.lines) == [0, 0, 0, 1, 2, nil])
        #expect(LineHistory.lines(of: Array(repeating: "curl", count: 4), in: Self.lines) == [2, 2, 2, 2])
    }
}
