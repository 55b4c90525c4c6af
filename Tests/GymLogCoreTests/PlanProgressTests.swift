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
}
