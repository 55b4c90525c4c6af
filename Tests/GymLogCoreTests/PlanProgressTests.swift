import GymLogCore
import Testing

@Suite struct PlanProgressTests {
    @Test func setsFillTheirExercisesLinesInOrderAndTheNextIsTheFirstOpenLine() {
        // Given bench 3 sets, row 3 sets, bench again 2 (light), curl 2
        let lines = [("bench", 3), ("row", 3), ("bench", 2), ("curl", 2)].map { (exercise: $0.0, sets: $0.1) }
        // When four bench sets, one row and a squat (not planned) were done
        let p = PlanProgress(lines: lines, doneSets: ["bench", "bench", "row", "bench", "bench", "squat"], skipped: [])
        // Then the first bench line is full, the fourth set went to the light line
        #expect(p.done == [3, 1, 1, 0])
        #expect(p.next! == (1, 1))
        #expect(p.counts == (5, 10))
        #expect(p.undone.map(\.line) == [1, 2, 3] && p.undone.map(\.remaining) == [2, 1, 2])
    }

    @Test func extraSetsGoToTheLastLineOfTheExerciseAndCountOnlyUpToThePlan() {
        let p = PlanProgress(lines: [(exercise: "bench", sets: 2)], doneSets: ["bench", "bench", "bench"], skipped: [])
        #expect(p.done == [3])
        #expect(p.next == nil)
        #expect(p.counts == (2, 2))
    }

    @Test func skippedLinesAreNeitherNextNorCounted() {
        let lines = [(exercise: "bench", sets: 3), (exercise: "dip", sets: 3), (exercise: "curl", sets: 2)]
        let p = PlanProgress(lines: lines, doneSets: ["bench", "bench", "bench"], skipped: [1])
        #expect(p.next! == (2, 0))
        #expect(p.counts == (3, 5))
        #expect(p.undone.map(\.line) == [2])
        // A line skipped part way keeps the sets done before, and plans no more
        let partly = PlanProgress(lines: lines, doneSets: ["bench", "bench"], skipped: [0])
        #expect(partly.counts == (2, 7))
        #expect(partly.next! == (1, 0))
    }

    /// Boring But Big: 5/3/1 skipped after one set, then the 5x10 sets of the same lift go to
    /// the 5x10 line, not to the skipped one.
    @Test func setsAfterASkipGoToTheNextLineOfTheExercise() {
        let lines = [(exercise: "ohp", sets: 3), (exercise: "ohp", sets: 5), (exercise: "curl", sets: 3)]
        let p = PlanProgress(lines: lines, doneSets: ["ohp", "ohp", "ohp"], skipped: [0], doneWhenSkipped: [0: 1])
        #expect(p.done == [1, 2, 0])
        #expect(p.lineOfDoneSet == [0, 1, 1])
        #expect(p.counts == (3, 9))
        #expect(p.next! == (1, 2))
        // Without the count (an older version's skip), the skipped line still takes its planned sets
        #expect(PlanProgress(lines: lines, doneSets: ["ohp", "ohp", "ohp"], skipped: [0]).done == [3, 0, 0])
    }

    @Test func skippedLinesAreStoredWithTheirSetsDone() {
        var s = SkippedLines(parsing: "2,4:3,x,0,5:-1,6:1:2")
        #expect(s.lines == [2, 4])
        #expect(s.doneWhenSkipped[2] == .some(nil) && s.doneWhenSkipped[4] == .some(3))
        s.skip(line: 1, done: 0)
        s.skip(line: 3, done: 2)
        s.skip(line: 4, done: 5)  // the first record stays
        #expect(s.text == "1,2,3:2,4:3")
        #expect(SkippedLines(parsing: s.text).text == s.text)
        #expect(SkippedLines(parsing: nil).text == "")
    }

    @Test func aPlannedSupersetAlternatesItsExercisesRoundByRound() {
        // Given bench 2 sets, then curl 2 & pushdown 3 as one superset, then row 1
        let lines = [("bench", 2), ("curl", 2), ("pushdown", 3), ("row", 1)].map { (exercise: $0.0, sets: $0.1) }
        func progress(_ done: [String], skipped: Set<Int> = []) -> PlanProgress {
            PlanProgress(lines: lines, doneSets: done, skipped: skipped, supersetStarts: [0, 1, 1, 3])
        }
        // When bench is done, the next round is a set of each superset line
        #expect(progress(["bench", "bench"]).nextRound.map { [$0.line, $0.set] } == [[1, 0], [2, 0]])
        // Rounds go on while either has sets; the shorter line drops out of the last round
        #expect(progress(["bench", "bench", "curl", "pushdown"]).nextRound.map { [$0.line, $0.set] } == [[1, 1], [2, 1]])
        #expect(progress(["bench", "bench", "curl", "pushdown", "curl", "pushdown"]).nextRound.map { [$0.line, $0.set] } == [[2, 2]])
        // A set typed on its own still counts: the round starts from the line behind
        #expect(progress(["bench", "bench", "pushdown"]).nextRound.map { [$0.line, $0.set] } == [[1, 0], [2, 1]])
        // A single line is a round of one, and `next` is a round's first set
        let single = progress(["bench"])
        #expect(single.nextRound.map { [$0.line, $0.set] } == [[0, 1]] && single.next! == (0, 1))
        // Skipped superset lines are out of the round; after the superset comes row
        #expect(progress(["bench", "bench"], skipped: [1]).nextRound.map { [$0.line, $0.set] } == [[2, 0]])
        #expect(progress(["bench", "bench"], skipped: [1, 2]).nextRound.map { [$0.line, $0.set] } == [[3, 0]])
        // Without supersets every line is its own round
        let plain = PlanProgress(lines: lines, doneSets: ["bench", "bench"], skipped: [])
        #expect(plain.nextRound.map { [$0.line, $0.set] } == [[1, 0]])
    }
}
