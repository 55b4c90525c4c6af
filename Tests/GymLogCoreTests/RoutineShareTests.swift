import Testing
@testable import GymLogCore

/// A share of the training max (issue 26 item 9): Boring But Big's `squat 5x10 50%`.
@Suite struct RoutineShareTests {
    @Test func aShareOfTheTrainingMaxReadsWritesBackAndFollowsTheCycle() throws {
        let routine = try RoutineParser.parse("# BBB\nsquat 5/3/1 tm 140kg\nsquat 5x10 50%\n").get()
        let bbb = routine.lines[1]
        #expect(bbb == PlannedExercise(exerciseName: "squat", sets: 5, reps: .exact(10), percentOfTrainingMax: 50))
        #expect(bbb.text == "squat 5x10 50%")
        #expect(try RoutineParser.parse(routine.text).get() == routine)
        // Then the sets are that share of the cycle's training max, rounded to what the plates make
        let week1 = Progression.suggest(for: bbb, history: [], unit: .kg, trainingMax: Weight(Fixed(140), .kg))
        #expect(week1.sets.map(\.summary) == Array(repeating: "70kg x 10", count: 5))
        #expect(week1.reason == "50% of TM 140kg, the training max of this exercise's 5/3/1 line")
        let cycle2 = Progression.suggest(for: bbb, history: [], unit: .kg, trainingMax: Weight(Fixed(145), .kg))
        #expect(cycle2.sets.first?.summary == "72.5kg x 10")
        // In pounds, 50% of 315 is 157.5, rounded to 5 lb: 160
        let lb = Progression.suggest(for: bbb, history: [], unit: .lb, trainingMax: Weight(Fixed(315), .lb))
        #expect(lb.sets.first?.summary == "160lb x 10")
    }

    @Test func aShareOfTheLinesOwnTrainingMaxNeedsNoFiveThreeOneLine() throws {
        let routine = try RoutineParser.parse("# P\nbench 5x5 70% tm 100\n").get()
        let line = routine.lines[0]
        #expect(line.ownTrainingMax == WeightSpec(Fixed(100)) && line.percentOfTrainingMax == 70)
        #expect(line.text == "bench 5x5 70% tm 100")
        #expect(try RoutineParser.parse(routine.text).get() == routine)
        let s = Progression.suggest(for: line, history: [], unit: .lb)
        #expect(s.sets.map(\.summary) == Array(repeating: "70lb x 5", count: 5))
        #expect(s.reason == "70% of TM 100lb")
    }

    /// `30% of deadlift`: a share of another lift's training max, named, with spaces and case as
    /// the lifter types them.
    @Test func aShareOfANamedLiftReadsThatLiftsWave() throws {
        let routine = try RoutineParser.parse("# DL\nDeadlift (Barbell) 5/3/1 tm 200\ngood  morning 3x8 30% of deadlift (barbell) @7\n").get()
        let line = routine.lines[1]
        #expect(line == PlannedExercise(exerciseName: "good morning", sets: 3, reps: .exact(8), percentOfTrainingMax: 30,
                                        shareOf: "deadlift (barbell)", rpe: Fixed(7)))
        #expect(line.text == "good morning 3x8 30% of deadlift (barbell) @7")
        #expect(try RoutineParser.parse(routine.text).get() == routine)
        #expect(RoutineParser.waveLine(of: line.shareOf!, in: routine.lines) == 0)
        let s = Progression.suggest(for: line, history: [], unit: .kg, trainingMax: Weight(Fixed(200), .kg))
        #expect(s.sets.map(\.summary) == Array(repeating: "60kg x 8 @7", count: 3))
        #expect(s.reason == "30% of TM 200kg, the training max of the deadlift (barbell) 5/3/1 line")
    }

    @Test("a share is refused where it cannot be read", arguments: [
        ("# R\nsquat 5/3/1 tm 140\nrow 5x10 30% of deadlif\n",
         "30% of deadlif is a share of the training max of a 5/3/1 line of 'deadlif', and the routine has none; "
            + "add one, e.g. `deadlif 5/3/1 tm 100`, name a lift that has one ('squat')"),
        ("# R\nsquat 5/3/1 tm 140\nrow 5x10 30% of\n", "expected the lift after 'of', e.g. `30% of squat`"),
        ("# R\nsquat 5/3/1 tm 140\nrow 5x10 30% of squat tm 100\n", "'of squat' and 'tm' both say whose training max 30% is of"),
        ("# R\nrow 5x10 30% tm 100 of squat\n", "'tm 100' and 'of' both say whose training max 30% is of"),
        ("# R\nsquat 5/3/1 tm 140\nrow 5x10 of squat\n", "'of' follows a share of a training max, e.g. `row 5x10 50% of squat`"),
        ("# R\nsquat 5x10 50%\n", "50% is a share of the training max of a 5/3/1 line of 'squat', and the routine has none"),
        ("# R\nsquat 5/3/1 tm 140\nsquat 5x10 100 50%\n", "give a weight or a share of the training max, not both"),
        ("# R\nsquat 5/3/1 tm 140\nsquat 5x10 150%\n", "'150%': a share of the training max is a whole percentage from 1 to 100"),
        ("# R\nsquat 5/3/1 tm 140\nsquat 5x10 50% linear +5\n", "'linear +5': a line at 50% of the training max moves with it"),
        ("# R\nsquat 5/3/1 tm 140 50%\n", "5/3/1 sets its own percentages; remove '50%'"),
        ("# R\nsquat 5x10 tm 140\n", "'tm' is the training max of a 5/3/1 line (`squat 5/3/1 tm 60`) or of a share of it"),
        ("# R\nsquat 5x10 50% tm\n", "expected the training max after 'tm', e.g. `70% tm 100`"),
    ])
    func refusals(text: String, message: String) {
        guard case .failure(let e) = RoutineParser.parse(text) else { Issue.record("\(text) was accepted"); return }
        #expect(e.message.contains(message), "\(e.message)")
    }
}
