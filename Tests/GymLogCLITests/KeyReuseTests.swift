import Foundation
import GRDB
import GymLogTestSupport
import Testing

/// An idempotency key that comes back with other content (a cloned or hand-edited database)
/// is refused by the server and shown as a failing event, never silently dropped.
@Suite struct KeyReuseTests {
    @Test func aKeyReusedWithOtherContentIsRefusedAndStatusShowsIt() throws {
        // Given a phone whose set went up under its key
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let phone = try TemporaryHome(), laptop = try TemporaryHome()
        for device in [phone, laptop] { #expect(try device.login(server, token: token).status == 0) }
        // The laptop's outbox is forged below, before it syncs: nothing may send it first.
        try laptop.turnOffAutoSync()
        #expect(try phone.gymlog(["log", "bench 100x5"]).status == 0)
        let phoneKeys = try DatabaseQueue(path: phone.database).read { try String.fetchAll($0, sql: "SELECT idempotency_key FROM outbox") }
        #expect(try phone.gymlog(["sync"]).status == 0)

        // When the laptop pushes a different change under one of those keys
        #expect(try laptop.gymlog(["log", "squat 140x3"]).status == 0)
        try DatabaseQueue(path: laptop.database).write { db in
            let last = try #require(try Int64.fetchOne(db, sql: "SELECT max(seq) FROM outbox"))
            try db.execute(sql: "UPDATE outbox SET idempotency_key = ? WHERE seq = ?", arguments: [phoneKeys[0], last])
        }
        let sync = try laptop.gymlog(["sync"])

        // Then that event is refused as key_reused, and status lists it as failing
        #expect(sync.status != 0)
        #expect(sync.stderr.contains("key_reused") && sync.stderr.contains(phoneKeys[0]), "\(sync.stderr)")
        let status = try laptop.gymlog(["status"])
        #expect(status.stdout.contains("Failing:") && status.stdout.contains("key_reused"), "\(status.stdout)")
        let json = try laptop.gymlog(["status", "--json"])
        #expect(json.stdout.contains("\"error\":\"key_reused") || json.stdout.contains("\"error\": \"key_reused"), "\(json.stdout)")
    }
}
