import Testing
@testable import GymLogCore

/// Timed and distance work in routines (issue 26 item 5): read as a set line reads it,
/// written back the same, planned as a time or distance and logged so.
@Suite struct RoutineMeasureTests {
    static func line(_ text: String) -> Result<PlannedExercise, RoutineParseError> {
        RoutineParser.parse("# R\n" + text).map { $0.lines[0] }
    }

    @Test("timed and distance lines read as their planned sets", arguments: [
        ("plank 3x60s", PlannedExercise(exerciseName: "plank", sets: 3, reps: .time(60)), "plank 3x60s"),
        ("plank 3x1min", PlannedExercise(exerciseName: "plank", sets: 3, reps: .time(60)), "plank 3x60s"),
        ("plank 2x1m30s", PlannedExercise(exerciseName: "plank", sets: 2, reps: .time(90)), "plank 2x90s"),
        ("row 2000m", PlannedExercise(exerciseName: "row", sets: 1, reps: .distance(Distance(Fixed(2000), .m))), "row 2000m"),
        ("carry 3x40m 32kg", PlannedExercise(exerciseName: "carry", sets: 3, reps: .distance(Distance(Fixed(40), .m)),
                                             load: .weight(Fixed(32), .kg)), "carry 3x40m 32kg"),
        ("run 5 km rest 5:00", PlannedExercise(exerciseName: "run", sets: 1, reps: .distance(Distance(Fixed(5), .km)), restSeconds: 300),
         "run 5km rest 5:00"),
    ])
    func readsAndWritesBack(text: String, expected: PlannedExercise, canonical: String) throws {
        let planned = try Self.line(text).get()
        #expect(planned == expected)
        #expect(planned.text == canonical)
        #expect(try Self.line(planned.text).get() == planned, "the canonical text reads back the same")
    }

    @Test("a rule or a second measure on a timed line is refused", arguments: [
        ("plank 3x60s linear +5", Span(12, 21), "'linear +5': a rule moves weight and reps, and '3x60s' plans a time; leave the rule out"),
        ("row 2000m double +2", Span(10, 19), "plans a distance; leave the rule out"),
        ("row 2000m 8min", Span(10, 14), "'8min': a routine line plans a time or a distance for each set, not both; keep '2000m'"),
        ("plank 3x0s", Span(8, 10), "duration must be more than 0"),
    ])
    func refusals(text: String, span: Span, message: String) {
        guard case .failure(let e) = Self.line(text) else { Issue.record("\(text) was accepted"); return }
        #expect(e.span == span, "\(e)")
        #expect(e.message.contains(message), "\(e.message)")
    }

    @Test func aPlannedTimeOrDistanceIsSuggestedAndLoggedAsOne() throws {
        let plank = try Self.line("plank 3x60s").get()
        let carry = try Self.line("carry 3x40m 32kg").get()
        // With no history: the plan as written, no weight needed for the plank
        let p = Progression.suggest(for: plank, history: [], unit: .kg)
        #expect(p.sets.map(\.summary) == ["60s", "60s", "60s"])
        #expect(p.sets.allSatisfy { !$0.needsLoad })
        #expect(p.sets[0].values == SetValues(kind: .working, durationSeconds: 60))
        let c = Progression.suggest(for: carry, history: [], unit: .kg)
        #expect(c.sets.first?.summary == "32kg 40m")
        #expect(c.sets.first?.values == SetValues(kind: .working, weight: Weight(Fixed(32), .kg), distance: Distance(Fixed(40), .m)))
        // Last time's weight carries on
        let last = [PastSession(startedAt: 0, sets: [SetValues(kind: .working, weight: Weight(Fixed(36), .kg), distance: Distance(Fixed(40), .m))])]
        let again = Progression.suggest(for: carry, history: last, unit: .kg)
        #expect(again.sets.first?.summary == "36kg 40m")
        #expect(again.reason == "as planned, at last time's 36kg")
    }
}
