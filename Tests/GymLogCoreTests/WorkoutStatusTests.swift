import Foundation
import GymLogCore
import Testing

/// The one rule for whether a workout is open.
@Suite struct WorkoutStatusTests {
    private let start: Int64 = 1_763_700_000_000
    private var workout: Workout { Workout(id: UUID(), startedAt: start, utcOffsetSeconds: 0) }

    @Test func aWorkoutIsOpenUntilTheIdleGapAfterItsLastSet() {
        // Given a workout whose last set was 60 minutes in
        let last = start + 60 * 60_000
        // Then it is open up to the gap after that set, and after it ends at that set
        #expect(WorkoutStatus(now: last + 120 * 60_000, idleGapMinutes: 120).isOpen(workout, lastActivity: last))
        #expect(WorkoutStatus(now: last + 120 * 60_000 + 1, idleGapMinutes: 120).end(of: workout, lastActivity: last) == last)
        // And a finished workout ends when it was finished, whatever the time
        var finished = workout
        finished.endedAt = start + 30 * 60_000
        #expect(WorkoutStatus(now: start + 31 * 60_000, idleGapMinutes: 120).end(of: finished, lastActivity: last) == finished.endedAt)
    }

    @Test func anActionIsCurrentInTheOpenWorkoutOrRightAfterItInTodaysWorkout() {
        let open = UUID()
        let today = Workout(id: UUID(), startedAt: start - 60 * 60_000, utcOffsetSeconds: 0)
        let status = WorkoutStatus(now: start, idleGapMinutes: 120)
        let openAt = (id: open, lastActivity: start - 5 * 60_000)
        #expect(status.actionIsCurrent(Workout(id: open, startedAt: start - 400 * 60_000, utcOffsetSeconds: 0), lastActivity: nil,
                                       openWorkout: openAt, actionAt: start - 300 * 60_000))
        // Another workout's action from before the open workout's last set asks ...
        #expect(!status.actionIsCurrent(today, lastActivity: nil, openWorkout: openAt, actionAt: start - 6 * 60_000))
        #expect(!status.actionIsCurrent(today, lastActivity: nil, openWorkout: openAt, actionAt: start - 24 * 60 * 60_000))
        // ... one done since in today's workout (right after `finish`) is the thing just done
        #expect(status.actionIsCurrent(today, lastActivity: nil, openWorkout: openAt, actionAt: start - 60_000))
        #expect(status.actionIsCurrent(today, lastActivity: nil, openWorkout: nil, actionAt: start - 10 * 60_000))
        #expect(!status.actionIsCurrent(today, lastActivity: nil, openWorkout: nil, actionAt: start - 121 * 60_000))
    }

    @Test func anActionJustDoneInAnEarlierDaysWorkoutAsks() {
        // Given a workout three days ago, and now
        let status = WorkoutStatus(now: start, idleGapMinutes: 120)
        let old = Workout(id: UUID(), startedAt: start - 3 * 24 * 60 * 60_000, endedAt: start - 3 * 24 * 60 * 60_000 + 3_600_000, utcOffsetSeconds: 0)
        // Then a rename or delete in it a minute ago is not current, with or without an open workout
        #expect(!status.actionIsCurrent(old, lastActivity: old.startedAt + 3_000_000, openWorkout: nil, actionAt: start - 60_000))
        #expect(!status.actionIsCurrent(old, lastActivity: nil, openWorkout: (id: UUID(), lastActivity: start - 5 * 60_000), actionAt: start - 60_000))
        // And a session that ran past midnight and ended just now is today's
        let late = Workout(id: UUID(), startedAt: start - 6 * 60 * 60_000, endedAt: start - 10 * 60_000, utcOffsetSeconds: 0)
        #expect(status.isToday(late, lastActivity: nil))
    }
}
