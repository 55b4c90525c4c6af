import CSQLite
import Foundation
import GRDB
import GymLogCore
@testable import GymLogStore
import GymLogWire
import Testing

@Suite struct WritePipelineTests {
    @Test func everyRowChangeHasExactlyOneOutboxEventWithGaplessSequence() throws {
        // Given a new database
        let db = try temporaryDatabase()
        // When a line creates an exercise, a workout and three sets
        try log(db, "bench 100x5x3")
        // Then there are 5 events numbered 1...5, one per changed row, in one transaction
        let seqs = try db.read { try Int64.fetchAll($0, sql: "SELECT seq FROM outbox ORDER BY seq") }
        #expect(seqs == [1, 2, 3, 4, 5])
        #expect(try count(db, "SELECT COUNT(*) FROM outbox WHERE entity = 'sets' AND op = 'create'") == 3)
        #expect(try count(db, "SELECT COUNT(*) FROM sets s WHERE NOT EXISTS (SELECT 1 FROM outbox o WHERE o.entity_id = s.id)") == 0)
        #expect(try count(db, "SELECT COUNT(DISTINCT idempotency_key) FROM outbox") == 5)
        #expect(try count(db, "SELECT last_seq FROM device") == 5)
    }

    @Test func payloadCarriesTheFieldsWithTheClocksStoredOnTheRow() throws {
        let db = try temporaryDatabase()
        let result = try log(db, "bench 102.5kg x5 @8.5 # smooth")
        let setID = result.sets[0].set.id.key
        let (payload, clocks, weight) = try db.read { db in
            let p = try String.fetchOne(db, sql: "SELECT payload FROM outbox WHERE entity_id = ?", arguments: [setID])!
            let row = try Row.fetchOne(db, sql: "SELECT clocks, weight FROM sets WHERE id = ?", arguments: [setID])!
            return (p, row[0] as String, row[1] as String)
        }
        let fields = try decodePayload(payload)
        let byName = Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0) })
        #expect(byName["weight"]?.value == .text("102.5"))
        #expect(byName["weight_unit"]?.value == .text("kg"))
        #expect(byName["rpe"]?.value == .text("8.5"))
        #expect(byName["note"]?.value == .text("smooth"))
        #expect(weight == "102.5")
        let rowClocks = try JSONDecoder().decode([String: String].self, from: Data(clocks.utf8))
        for f in fields { #expect(rowClocks[f.name] == f.clock.description, "clock of \(f.name)") }
    }

    @Test(arguments: [WritePhase.rowWritten, .outboxWritten])
    func aFailureInsideTheWriteLeavesNeitherRowNorEvent(phase: WritePhase) throws {
        // Given a database with one logged set
        let db = try temporaryDatabase()
        try log(db, "bench 100x5")
        let before = try snapshot(db)
        // When the next write fails after the row (or the event) was written
        db.faultInjector = { if $0 == phase { throw InjectedFault() } }
        #expect(throws: InjectedFault.self) { try log(db, "bench 105x5") }
        // Then nothing of it remains: no row, no event, no sequence number used
        #expect(try snapshot(db) == before)
        db.faultInjector = nil
        try log(db, "bench 105x5")
        #expect(try db.read { try Int64.fetchAll($0, sql: "SELECT seq FROM outbox ORDER BY seq") } == [1, 2, 3, 4])
    }

    @Test func writesTakingTurnsOnTwoConnectionsKeepOneGaplessSequenceAndRisingClocks() throws {
        // Given one file open twice, as the REPL and a one-shot `gymlog log` (or a background
        // sync) hold it: each remembers the device row its last write left (WriterMemory)
        let world = FakeWorld()
        let repl = try temporaryDatabase(world)
        let oneShot = try GymLogDatabase(path: repl.path, environment: world.environment)
        // When they log in turns, each between the other's writes, then twice in a row each
        for (i, db) in [repl, oneShot, repl, oneShot, oneShot, repl, repl].enumerated() {
            try log(db, "bench \(100 + i)x5")
        }
        // Then no write reused what the other had changed: one gapless sequence, one clock per
        // event, rising with it, and the device row holding the last of both
        let rows = try repl.read { try Row.fetchAll($0, sql: "SELECT seq, payload FROM outbox ORDER BY seq") }
        #expect(rows.map { $0["seq"] as Int64 } == Array(1...Int64(rows.count)))
        let clocks = try rows.map { row in try #require(Set(try decodePayload(row["payload"]).map(\.clock)).first) }
        #expect(clocks == clocks.sorted() && Set(clocks).count == clocks.count)
        let device = try #require(try repl.read { try Row.fetchOne($0, sql: "SELECT last_seq, last_clock FROM device") })
        #expect(device["last_seq"] as Int64 == Int64(rows.count))
        #expect(device["last_clock"] as String == clocks.last?.description)
    }

    @Test func aWriteOutsideTheWritePipelineMakesTheNextOneReadTheDeviceRowAgain() throws {
        // Given a database whose last write left its memory of the device row
        let db = try temporaryDatabase()
        try log(db, "bench 100x5")
        // When something else moves the sequence on this very connection (as `rebase` and
        // unparking do) and the next line is logged
        try db.queue.write { try $0.execute(sql: "UPDATE device SET last_seq = last_seq + 10") }
        try log(db, "bench 100x5")
        // Then that line numbered its event after the moved sequence, not after the memory
        #expect(try count(db, "SELECT MAX(seq) FROM outbox") == 3 + 10 + 1)
    }

    @Test func aNewActionAfterUndoClearsTheRedoSideEvenWhenTheLastWriteRemembered() throws {
        // Given a line, its undo (which leaves an undone action), then a new line
        let db = try temporaryDatabase()
        try log(db, "bench 100x5")
        try log(db, "squat 140x5")
        _ = try db.undo()
        #expect(try count(db, "SELECT COUNT(*) FROM undo_actions WHERE undone = 1") == 1)
        try log(db, "row 60x8")
        // Then the undone action is gone: nothing to redo, and the lines after it find none
        #expect(try count(db, "SELECT COUNT(*) FROM undo_actions WHERE undone = 1") == 0)
        #expect(throws: UserError.self) { try db.redo() }
        try log(db, "row 60x8")
        #expect(try count(db, "SELECT COUNT(*) FROM undo_actions") == 3)
    }

    @Test func readsBetweenWritesLeaveTheWritesPreparedStatementsAsTheyAre() throws {
        // Given a database that logged a set (its INSERT, with the indexes and triggers it
        // fires, prepared and cached on the connection)
        let db = try temporaryDatabase()
        try log(db, "bench 100x5")
        // When reads come between the next lines, as the REPL reads its prompt and plan
        for _ in 0..<3 {
            _ = try db.openWorkout()
            _ = try db.records()
            try log(db, "bench 100x5")
        }
        // Then SQLite never had to prepare that INSERT again (a read that switched the
        // connection to read-only and back would have expired it every time)
        let reprepared = try db.queue.inDatabase { db in
            let insert = try db.cachedStatement(sql: RowWriter.insertSQL(.sets, columns: SetColumns.synced, extra: false))
            return sqlite3_stmt_status(insert.sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0)
        }
        #expect(reprepared == 0)
    }

    @Test func aReadThatWritesIsRefusedAndLeavesNothing() throws {
        let db = try temporaryDatabase()
        try log(db, "bench 100x5")
        let before = try snapshot(db)
        #expect(throws: ReadThatWrote.self) {
            try db.read { try $0.execute(sql: "DELETE FROM sets") }
        }
        #expect(try snapshot(db) == before)
    }

    @Test func undoWritesATombstoneAndRedoRestoresWithANewerClock() throws {
        let db = try temporaryDatabase()
        let undone = try log(db, "squat 140x5").sets[0].set
        _ = try db.undo()
        let deletedAt = try db.read { try Int64?.fetchOne($0, sql: "SELECT deleted_at FROM sets WHERE id = ?", arguments: [undone.id.key]) }
        #expect(deletedAt != nil, "the row stays, marked deleted")
        #expect(try count(db, "SELECT COUNT(*) FROM outbox WHERE op = 'delete' AND entity = 'sets'") == 1)
        let deleteClock = try clockOf(db, undone.id, field: tombstoneField)

        _ = try db.redo()
        #expect(try count(db, "SELECT COUNT(*) FROM sets WHERE deleted_at IS NULL") == 1)
        #expect(try count(db, "SELECT COUNT(*) FROM outbox WHERE op = 'restore' AND entity = 'sets'") == 1)
        #expect(try clockOf(db, undone.id, field: tombstoneField) > deleteClock)
    }

    @Test func deviceIdentityIsMadeOnceAndSchemaVersionIsRecorded() throws {
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        let reopened = try GymLogDatabase(path: db.path, environment: world.environment)
        #expect(reopened.deviceID == db.deviceID)
        #expect(try reopened.schemaVersion() == ["v1", "v2-undo-journal", "v3-routines", "v4-session-tallies", "v5-parked-changes", "v6-routine-unit", "v7-set-rir", "v8-sync-manager", "v9-exercise-link", "v10-pulled-through", "v11-copy-notice", "v12-unbound-seals-until", "v13-undo-created", "v14-sets-by-workout", "v15-replaced-edits"])
        #expect(try db.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        #expect(try db.read { try Int.fetchOne($0, sql: "PRAGMA synchronous") } == 2, "FULL")
        #expect(try db.read { try Int.fetchOne($0, sql: "PRAGMA foreign_keys") } == 1)
    }

    @Test func clocksIncreaseStrictlyEvenWhenTheWallClockStandsStill() throws {
        let db = try temporaryDatabase()
        try log(db, "bench 100x5x4")
        let clocks = try db.read { try String.fetchAll($0, sql: "SELECT payload FROM outbox ORDER BY seq") }
            .map { try decodePayload($0)[0].clock }
        #expect(clocks == clocks.sorted())
        #expect(Set(clocks).count == clocks.count)
    }

    /// A pending event inside the server's clock limit may already be applied (its answer
    /// lost); re-stamping it would let the server hold one value at two clocks. Only events
    /// past the limit get fresh clocks, and those still beat every clock kept.
    @Test func restampingLeavesClocksAtOrBeforeTheLimitAsTheyAre() throws {
        let world = FakeWorld()
        let db = try temporaryDatabase(world)
        try log(db, "bench 100x5")
        let limit = world.now() + 60_000
        world.advance(3 * 86_400_000)
        try log(db, "bench 105x5")
        let before = try db.read { try String.fetchAll($0, sql: "SELECT payload FROM outbox ORDER BY seq") }.map(decodePayload)
        world.set(limit - 60_000 + 1_000)

        let restamped = try db.restampClocks(after: limit)

        let after = try db.read { try String.fetchAll($0, sql: "SELECT payload FROM outbox ORDER BY seq") }.map(decodePayload)
        let farAhead = before.indices.filter { before[$0].contains { $0.clock.millis > limit } }
        #expect(!farAhead.isEmpty && farAhead.count < before.count, "the test needs events on both sides of the limit")
        #expect(restamped == farAhead.count)
        for i in before.indices where !farAhead.contains(i) {
            #expect(after[i] == before[i], "event \(i + 1) was inside the limit and must keep its clocks")
        }
        let kept = before.indices.filter { !farAhead.contains($0) }.flatMap { before[$0].map(\.clock) }
        for i in farAhead {
            for field in after[i] {
                #expect(field.clock.millis <= limit, "event \(i + 1) \(field.name) was re-stamped from the corrected time")
                #expect(kept.allSatisfy { field.clock > $0 }, "a re-stamped write still beats every kept clock")
            }
        }
    }

    private func snapshot(_ db: GymLogDatabase) throws -> [Int] {
        try ["sets", "workouts", "exercises", "outbox", "records"].map { try count(db, "SELECT COUNT(*) FROM \($0)") }
            + [count(db, "SELECT last_seq FROM device")]
    }

    private func clockOf(_ db: GymLogDatabase, _ id: UUID, field: String) throws -> HLC {
        let text = try db.read { try String.fetchOne($0, sql: "SELECT json_extract(clocks, '$.' || ?) FROM sets WHERE id = ?", arguments: [field, id.key]) }
        return try #require(text.flatMap(HLC.init))
    }
}

struct InjectedFault: Error {}

/// What the server can give back is committed without an fsync; nothing else ever is.
@Suite struct DurabilityTests {
    private func synchronous(_ db: Database) throws -> Int { try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }

    @Test func aRecoverableCommitSkipsTheFsyncAndLeavesFullBehindEvenWhenItFails() throws {
        let db = try temporaryDatabase()
        let full = 2, normal = 1
        #expect(try db.write(.durable) { try synchronous($0) } == full)
        #expect(try db.write(.recoverable) { try synchronous($0) } == normal)
        #expect(try db.read { try synchronous($0) } == full)
        struct Boom: Error {}
        #expect(throws: Boom.self) { try db.write(.recoverable) { _ in throw Boom() } }
        #expect(try db.read { try synchronous($0) } == full)
    }

    @Test func pulledPagesAndAcknowledgementsLeaveTheUsersNextWriteFsynced() throws {
        let from = try temporaryDatabase(), to = try temporaryDatabase()
        try log(from, "bench 100x5")
        let events = try from.pendingEvents(after: 0, limit: 100)
        try to.applyPulled(try events.map { RemoteChange(entity: $0.entity, entityID: $0.entityID, fields: try $0.fields.changes) }, epoch: "e", cursor: 3)
        #expect(try to.read { try synchronous($0) } == 2)
        try from.acknowledge(lastAppliedSeq: 1, rejected: [:])
        #expect(try from.read { try synchronous($0) } == 2)
        // The pulled set arrived whole, and the acknowledged event is gone.
        #expect(try count(to, "SELECT COUNT(*) FROM sets") == 1)
        #expect(try count(from, "SELECT COUNT(*) FROM outbox WHERE seq = 1") == 0)
    }
}
