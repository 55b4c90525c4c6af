import Foundation
import GRDB
@testable import GymLogServer
@testable import GymLogServerCore
@testable import GymLogServerSQLite
import GymLogTestSupport
import Testing

/// Issue 27, defects 1 and 2: a push authenticated before its token was withdrawn (the user
/// revoked, rotated, or deleted and a new account made) writes nothing, against the real
/// `gymlog-server` binary over real sockets; and an SQLite database made before user ids
/// were AUTOINCREMENT never hands a deleted user's id out again.
@Suite("Withdrawn tokens and user ids", .serialized)
struct WithdrawnTokenTests {
    /// What is done to mallory while her push's body is still arriving.
    enum Withdrawal: String, CaseIterable, CustomTestStringConvertible {
        case deleteThenNewAccount, revoke, rotate
        var testDescription: String { rawValue }
    }

    @Test(arguments: Withdrawal.allCases) func aPushWhoseTokenWasWithdrawnMidBodyWritesNothing(_ withdrawal: Withdrawal) async throws {
        // One push slot per user, so a probe push answered 429 proves mallory's push was authenticated.
        // No minimum body rate and a long body timeout: the pause while the slot is probed and
        // the account changes (admin processes on a loaded machine took over the default 30 s
        // once, and the server rightly cut the stalled body) is this test's, not a slow client's.
        let server = try ServerInstance(extraArguments: ["--max-pushes-per-user", "1", "--min-body-rate", "0",
                                                         "--request-body-timeout", "300"])
        let port = try SlowClientTests.port(server)
        let token = try server.addUser("mallory")
        // Given mallory's push, authenticated, with 20 bytes of its body sent
        let push = SlowClientTests.push(token)
        let connection = try await SlowClientTests.partialPushHoldingTheSlot(port: port, token: token, push)
        // When her token is withdrawn
        var newbie: String?
        switch withdrawal {
        case .deleteThenNewAccount:
            try Self.admin(server, ["user", "delete", "mallory", "--purge"])
            newbie = try server.addUser("newbie")
        case .revoke:
            try Self.admin(server, ["user", "revoke", "mallory"])
        case .rotate:
            try Self.admin(server, ["user", "rotate", "mallory"])
        }
        // And the rest of the body arrives
        connection.send(String(push.body.dropFirst(20)))
        let answer = await connection.read(untilClosedOrAfter: SlowClientTests.patience, stopAfterResponse: true).response
        // Then it is answered as a bad token, and nothing of it is stored anywhere
        #expect(answer.status == 401, "\(answer.head)\n\(String(decoding: answer.body, as: UTF8.self))")
        #expect(answer.header("www-authenticate") != nil)
        if let newbie {
            let pull = try await HostileRawHTTP.Connection(port: port).exchange(
                "GET /v1/pull?device_id=newbie-phone HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(newbie)\r\n\r\n")
            #expect(pull.status == 200)
            #expect(!String(decoding: pull.body, as: UTF8.self).contains("s1"), "newbie's pull holds mallory's row")
        }
        let database = try DatabaseQueue(path: String(server.database.dropFirst("sqlite:".count)))
        #expect(try await database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM records") } == 0)
    }

    /// A database whose users table predates AUTOINCREMENT keeps its users and their ids, and
    /// from then on never hands the highest id out again after that user is deleted.
    @Test func anOlderDatabaseStopsReusingUserIds() async throws {
        let dir = try temporaryDirectory("gymlog-user-ids")
        let path = dir + "/server.sqlite"
        // Given a database at the schema before (users 1 and 2, a device of user 2)
        do {
            let queue = try DatabaseQueue(path: path)
            try SQLiteSyncStorage.migrator.migrate(queue, upTo: "server-v3-key-digests")
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO users (name, token_hash, created_at) VALUES ('alice', 'a', 1), ('bob', 'b', 2)")
                try db.execute(sql: "INSERT INTO devices (user_id, device_id, last_applied_seq) VALUES (2, 'phone', 7)")
            }
        }
        // When the server opens it (and migrates), then deletes bob and adds carol
        let storage = try SQLiteSyncStorage(path: path)
        let users = try await storage.listUsers()
        #expect(users.map(\.id) == [1, 2] && users.map(\.name) == ["alice", "bob"] && users[1].usage.devices == 1)
        _ = try await storage.deleteUser(name: "bob")
        let carol = try await storage.createUser(name: "carol", tokenHash: "c", now: 3)
        // Then carol does not get bob's id
        #expect(carol.id == 3)
    }

    static func admin(_ server: ServerInstance, _ arguments: [String]) throws {
        let run = try ProcessRunner.runProduct("gymlog-server", arguments + ["--db", server.database])
        #expect(run.status == 0, "gymlog-server \(arguments.joined(separator: " ")): \(run.stderr)")
    }

    /// Two server instances on one SQLite file (or one restarted) share the limit on new
    /// history generations: the count is in the file.
    @Test func theGenerationLimitIsSharedByInstancesOfOneDatabase() async throws {
        let path = try temporaryDirectory("gymlog-generations") + "/server.sqlite"
        let one = try SQLiteSyncStorage(path: path), two = try SQLiteSyncStorage(path: path)
        let record = try await one.createUser(name: "alice", tokenHash: "a", now: testNow)
        let alice = AuthenticatedUser(id: record.id, name: record.name, tokenHash: "a")
        #expect(try await one.startNewHistoryGeneration(user: alice, now: testNow, perHour: 2) == 1)
        #expect(try await two.startNewHistoryGeneration(user: alice, now: testNow + 1, perHour: 2) == 2)
        #expect(try await one.startNewHistoryGeneration(user: alice, now: testNow + 2, perHour: 2) == nil)
        #expect(try await two.startNewHistoryGeneration(user: alice, now: testNow + 3, perHour: 2) == nil)
    }
}
