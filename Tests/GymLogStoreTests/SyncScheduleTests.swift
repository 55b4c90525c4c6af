import Foundation
import GymLogCore
@testable import GymLogStore
import GymLogTestSupport
import Testing

/// The sync state that decides when a sync starts by itself: what each outcome leaves there.
@Suite struct SyncScheduleTests {
    let world = FakeWorld()
    let settings = Settings(server: "http://127.0.0.1:1", token: "glt_x")

    @Test func failuresBackOffAndASuccessForgetsThem() throws {
        // Given a database with a set waiting in the outbox
        let db = try temporaryDatabase(world, settings: settings)
        try log(db, "bench 100x5")
        #expect(try db.syncSchedule().pending)
        #expect(try db.syncSchedule().hold(settings, now: world.now()) == nil)

        // When two cycles fail in a row
        try db.recordSyncOutcome(server: "s", .failed("offline", capMs: 300_000))
        let first = try db.syncSchedule()
        try db.recordSyncOutcome(server: "s", .failed("offline", capMs: 300_000))
        let second = try db.syncSchedule()

        // Then the next try is 5 s, then 10 s away, and no cycle starts before it
        #expect(first.nextTryAt == world.now() + 5_000 && second.nextTryAt == world.now() + 10_000)
        #expect(second.hold(settings, now: world.now()) == .backingOff(until: world.now() + 10_000))
        #expect(second.lastError == "offline" && !second.stopped)
        world.advance(10_000)
        #expect(try db.syncSchedule().hold(settings, now: world.now()) == nil)

        // And a success clears the error and the wait: the next failure waits 5 s again
        try db.recordSyncOutcome(server: "s", .synced(rejected: 0))
        let synced = try db.syncSchedule()
        #expect(synced.nextTryAt == nil && synced.lastError == nil && synced.lastSyncAt == world.now())
        try db.recordSyncOutcome(server: "s", .failed("offline", capMs: 300_000))
        #expect(try db.syncSchedule().nextTryAt == world.now() + 5_000)
    }

    @Test func aStopHoldsUntilLoginAndIsShownOnce() throws {
        // Given a cycle refused for its token
        let db = try temporaryDatabase(world, settings: settings)
        try log(db, "bench 100x5")
        try db.recordSyncOutcome(server: "s", .stopped("the server rejected the token"))

        // Then no cycle starts, however much later, and the stop is not yet shown
        world.advance(minutes: 600)
        var schedule = try db.syncSchedule()
        #expect(schedule.hold(settings, now: world.now()) == .stopped && !schedule.stopShown)

        // When it is shown, then it stays shown while the same stop repeats (a manual sync refused again)
        try db.markSyncStopShown()
        try db.recordSyncOutcome(server: "s", .stopped("the server rejected the token"))
        #expect(try db.syncSchedule().stopShown)

        // And a login clears it
        try db.clearSyncError()
        schedule = try db.syncSchedule()
        #expect(schedule.hold(settings, now: world.now()) == nil && !schedule.stopped && schedule.lastError == nil)
    }

    @Test func aCycleWithNothingDueWritesNothingLocally() throws {
        // Given a database whose outbox holds one pending set and no parked event
        let db = try temporaryDatabase(world, settings: settings)
        try log(db, "bench 100x5")
        let before = try db.queue.read { $0.totalChangesCount }

        // When a cycle looks for parked events to send again
        #expect(try db.unparkDueEvents() == 0)

        // Then it changed no row (no commit to write, no fsync)
        #expect(try db.queue.read { $0.totalChangesCount } == before)
    }
}
