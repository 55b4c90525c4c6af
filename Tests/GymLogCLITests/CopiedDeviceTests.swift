import Foundation
import GRDB
import GymLogTestSupport
import Testing

/// Issue 44, defect 1: a copy of a device (a backup restored, a VM snapshot, `cp -a` of a home
/// folder) keeps the device id and the outbox sequence, so its next changes used seqs the
/// original had already sent. The server took them for replays, the copy dropped them from its
/// outbox and said it synced. Now the server compares what the seq's key carried and answers
/// `key_reused`, or the acknowledgement runs past any seq the copy wrote; either way the copy
/// becomes a device of its own and sends everything again. Nothing is lost, nothing doubled,
/// nothing asked of the lifter.
@Suite struct CopiedDeviceTests {
    /// The weights of the live sets a new device of the account pulls, sorted.
    private func weightsOnANewDevice(_ server: ServerInstance, token: String) throws -> [String] {
        let fresh = try TemporaryHome()
        defer { fresh.remove() }
        #expect(try fresh.login(server, token: token).status == 0)
        #expect(try fresh.gymlog(["sync"]).status == 0)
        return try weights(fresh)
    }

    private func weights(_ home: TemporaryHome) throws -> [String] {
        try DatabaseQueue(path: home.database).read {
            try String.fetchAll($0, sql: "SELECT weight || 'x' || reps FROM sets WHERE deleted_at IS NULL").sorted()
        }
    }

    private func deviceID(_ home: TemporaryHome) throws -> String? {
        try DatabaseQueue(path: home.database).read { try String.fetchOne($0, sql: "SELECT device_id FROM device") }
    }

    @Test(arguments: ["the original syncs first", "the copy syncs first"])
    func aCopiedHomeKeepsTheSetsOfBothSides(_ order: String) throws {
        // Given a device whose set went up, and a copy of its whole home (`cp -a`)
        let server = try ServerInstance()
        let token = try server.addUser("copied")
        let original = try TemporaryHome()
        defer { original.remove() }
        #expect(try original.login(server, token: token).status == 0)
        try original.turnOffAutoSync()
        #expect(try original.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try original.gymlog(["sync"]).status == 0)
        let copy = try original.copied()
        defer { copy.remove() }
        #expect(try deviceID(copy) == deviceID(original))

        // When each logs a set of its own and both sync
        #expect(try original.gymlog(["log", "squat 140x3"]).status == 0)
        #expect(try copy.gymlog(["log", "row 60x10"]).status == 0)
        let (first, second) = order == "the copy syncs first" ? (copy, original) : (original, copy)
        let firstSync = try first.gymlog(["sync"])
        let secondSync = try second.gymlog(["sync"])
        #expect(try first.gymlog(["sync"]).status == 0)

        // Then both syncs succeed, the second to sync says it became a device of its own, and
        // has another device id now
        #expect(firstSync.status == 0 && !firstSync.stdout.contains("copy"), "\(firstSync.stdout)\(firstSync.stderr)")
        #expect(secondSync.status == 0, "\(secondSync.stdout)\(secondSync.stderr)")
        #expect(secondSync.stdout.contains("this one is a copy") && secondSync.stdout.contains("nothing was lost"), "\(secondSync.stdout)")
        #expect(try deviceID(copy) != deviceID(original))
        // And each of the three sets is on a new device once, and on both sides
        let all = ["100x5", "140x3", "60x10"]
        #expect(try weightsOnANewDevice(server, token: token) == all)
        #expect(try weights(original) == all && weights(copy) == all)
        // And the copy's later sets go up under its new id
        #expect(try second.gymlog(["log", "curl 20x10"]).status == 0)
        #expect(try second.gymlog(["sync"]).stdout.contains("pushed"), "a later sync failed")
        #expect(try weightsOnANewDevice(server, token: token) == (all + ["20x10"]).sorted())
    }

    /// Found by the history model (seed 225041494609437): the copy synced first and sent more
    /// changes than the original had written; the original's push of its older, identical
    /// changes was answered `duplicate` with an acknowledgement past its own newest seq, which
    /// it took, so its changes made since the copy counted as sent and never went up.
    @Test func anOriginalThatPushesAfterACopySentMoreKeepsItsNewSets() throws {
        // Given a device that has synced (so it pushes before it pulls) with two unsynced sets,
        // and a copy of its home
        let server = try ServerInstance()
        let token = try server.addUser("behind")
        let original = try TemporaryHome()
        defer { original.remove() }
        #expect(try original.login(server, token: token).status == 0)
        try original.turnOffAutoSync()
        #expect(try original.gymlog(["sync"]).status == 0)
        #expect(try original.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try original.gymlog(["log", "bench 100x5"]).status == 0)
        let copy = try original.copied()
        defer { copy.remove() }
        // When the copy logs three sets and syncs first, then the original syncs (sending only
        // what the copy sent too), logs a set and syncs again
        for line in ["row 60x10", "row 62.5x10", "row 65x10"] { #expect(try copy.gymlog(["log", line]).status == 0) }
        #expect(try copy.gymlog(["sync"]).status == 0)
        #expect(try original.gymlog(["sync"]).status == 0)
        #expect(try original.gymlog(["log", "squat 140x3"]).status == 0)
        let sync = try original.gymlog(["sync"])
        #expect(sync.status == 0, "\(sync.stdout)\(sync.stderr)")
        #expect(try copy.gymlog(["sync"]).status == 0)
        // Then a new device gets every set of both, once
        let all = ["100x5", "100x5", "140x3", "60x10", "62.5x10", "65x10"]
        #expect(try weightsOnANewDevice(server, token: token) == all)
        #expect(try weights(original) == all)
    }

    @Test func aBackupRestoredWithNothingToSendFindsItselfACopyByTheAcknowledgement() throws {
        // Given last night's backup of a laptop, and the laptop's sets of this morning synced
        let server = try ServerInstance()
        let token = try server.addUser("restored")
        let laptop = try TemporaryHome()
        defer { laptop.remove() }
        #expect(try laptop.login(server, token: token).status == 0)
        try laptop.turnOffAutoSync()
        #expect(try laptop.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try laptop.gymlog(["sync"]).status == 0)
        let backup = try laptop.copied()
        #expect(try laptop.gymlog(["log", "squat 140x3"]).status == 0)
        #expect(try laptop.gymlog(["sync"]).status == 0)
        laptop.remove()

        // When the backup is restored, syncs with nothing to send (the server acknowledges a
        // seq it never wrote), then logs a set and syncs again
        let restored = backup
        defer { restored.remove() }
        let catchUp = try restored.gymlog(["sync"])
        #expect(try restored.gymlog(["log", "row 60x10"]).status == 0)
        let sync = try restored.gymlog(["sync"])

        // Then the set it logged after the restore reaches the server, and nothing is doubled
        #expect(catchUp.status == 0 && catchUp.stdout.contains("this one is a copy"), "\(catchUp.stdout)\(catchUp.stderr)")
        #expect(sync.status == 0 && sync.stdout.contains("pushed"), "\(sync.stdout)\(sync.stderr)")
        #expect(try weightsOnANewDevice(server, token: token) == ["100x5", "140x3", "60x10"])
        #expect(try weights(restored) == ["100x5", "140x3", "60x10"])
    }

    @Test func aCopyFoundByABackgroundSyncIsToldOnceByStatus() throws {
        // Given a device with sync by itself on, and a copy of it
        let server = try ServerInstance()
        let token = try server.addUser("told")
        let original = try TemporaryHome()
        defer { original.remove() }
        #expect(try original.login(server, token: token).status == 0)
        #expect(try original.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try backgroundSyncsEnded(original.database))
        let copy = try original.copied()
        defer { copy.remove() }

        // When both log a set, each command's background sync sending it
        #expect(try original.gymlog(["log", "squat 140x3"]).status == 0)
        #expect(try backgroundSyncsEnded(original.database))
        #expect(try copy.gymlog(["log", "row 60x10"]).status == 0)
        #expect(try backgroundSyncsEnded(copy.database))

        // Then the copy's status says once what happened, and the set arrived
        let status = try copy.gymlog(["status"])
        #expect(status.stdout.contains("Copy:") && status.stdout.contains("this one is a copy"), "\(status.stdout)")
        #expect(status.stdout.contains("0 unsynced changes"), "\(status.stdout)")
        let again = try copy.gymlog(["status"])
        #expect(!again.stdout.contains("Copy:"), "\(again.stdout)")
        #expect(try weightsOnANewDevice(server, token: token) == ["100x5", "140x3", "60x10"])
    }

    @Test func aKeyReusedWithOtherContentIsNeverDropped() throws {
        // Given a phone whose set went up under its key
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let phone = try TemporaryHome(), laptop = try TemporaryHome()
        defer { for home in [phone, laptop] { home.remove() } }
        for device in [phone, laptop] { #expect(try device.login(server, token: token).status == 0) }
        // The laptop's outbox is forged below, before it syncs: nothing may send it first.
        try laptop.turnOffAutoSync()
        #expect(try phone.gymlog(["log", "bench 100x5"]).status == 0)
        let phoneKeys = try DatabaseQueue(path: phone.database).read { try String.fetchAll($0, sql: "SELECT idempotency_key FROM outbox") }
        #expect(try phone.gymlog(["sync"]).status == 0)

        // When the laptop pushes a different change under one of those keys (a hand-edited database)
        #expect(try laptop.gymlog(["log", "squat 140x3"]).status == 0)
        try DatabaseQueue(path: laptop.database).write { db in
            let last = try #require(try Int64.fetchOne(db, sql: "SELECT max(seq) FROM outbox"))
            try db.execute(sql: "UPDATE outbox SET idempotency_key = ? WHERE seq = ?", arguments: [phoneKeys[0], last])
        }
        let sync = try laptop.gymlog(["sync"])

        // Then the server refused it as key_reused, so the laptop sent its changes again under
        // a device id of its own: the squat is on the server, and the phone's bench stays
        #expect(sync.status == 0 && sync.stdout.contains("this one is a copy"), "\(sync.stdout)\(sync.stderr)")
        #expect(try weightsOnANewDevice(server, token: token) == ["100x5", "140x3"])
        #expect(try laptop.gymlog(["status"]).stdout.contains("0 unsynced changes"))
    }
}
