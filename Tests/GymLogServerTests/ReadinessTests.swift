import Foundation
import GRDB
import GymLogCore
@testable import GymLogServer
@testable import GymLogServerCore
@testable import GymLogServerPostgres
@testable import GymLogServerSQLite
import GymLogWire
import GymLogTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Readiness (/readyz)")
struct ReadinessTests {
    @Test(arguments: Backend.conformance) func readyWhenTheDatabaseAnswers(_ backend: Backend) async throws {
        try await Harness.with(backend) { h in
            // Given a store in use (a push on it), when a load balancer asks /readyz
            let token = try await h.addUser("alice")
            let device = Device()
            try await h.router { client in
                let first = try await client.push(token, device: device, [event(1, "s1", ["reps": (.int(5), device.clock(testNow - 2))])])
                #expect(first.status == .ok)
                let ready = try await client.execute(uri: "/readyz", method: .get)
                // Then it is ready, and the write check left no transaction open: the next push commits
                #expect(ready.status == .ok)
                #expect(try decodeBody(ready, as: HealthStatus.self).status == "ready")
                let second = try await client.push(token, device: device, [event(2, "s2", ["reps": (.int(6), device.clock(testNow - 1))])])
                #expect(second.status == .ok)
                let pulled = try await client.pull(token, device: Device())
                #expect(try decodeBody(pulled, as: PullResponse.self).changes.count == 2)
            }
        }
    }

    @Test func notReadyWhenTheSQLiteFileIsCorrupt() async throws {
        // Given a closed server database holding a few pages of rows
        let path = try await CorruptionTests.databaseWithRows()
        defer { CorruptionTests.remove(path) }
        // When the records table's root page is overwritten with garbage
        try DamagedDatabase.overwriteRootPage(of: "records", in: path)
        // Then /readyz answers 503 not_ready naming the file and the way out
        let storage = try SQLiteSyncStorage(path: path)
        var config = ServerConfig(database: "sqlite:" + path)
        config.logLevel = .critical
        let app = try await buildApplication(config, storage: storage)
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/readyz", method: .get)
            let body = try expectError(response, .serviceUnavailable, "not_ready")
            #expect(!body.error.message.contains(path), "\(body.error.message)")
            #expect(body.error.message.contains("restore"), "\(body.error.message)")
            // /healthz still says the process is alive
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
        }
    }

    @Test(.enabled(if: PostgresTestDatabase.isRequested, "needs GYMLOG_TEST_POSTGRES_URL (./scripts/test starts a server)"))
    func notReadyWhenPostgresIsReadOnly() async throws {
        try await PostgresTestDatabase.with { url in
            let location = try PostgresURL(parsing: url, environment: [:])
            // Given a migrated database that is ready
            let storage = try PostgresSyncStorage(url: url, poolSize: 1, logger: PostgresAdmin.logger)
            try await storage.checkReadiness()
            // When its sessions turn read-only (as on a hot standby) and its connections are replaced
            try await PostgresAdmin.execute(location, [
                "ALTER DATABASE \(location.database) SET default_transaction_read_only = on",
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(location.database)' AND pid <> pg_backend_pid()",
            ])
            // Then readiness fails and says it is read-only (the first call may only see the
            // terminated connection; the pool then opens a new, read-only one)
            var messages: [String] = []
            for _ in 0..<3 {
                do { try await storage.checkReadiness(); messages.append("ready") } catch { messages.append("\(error)") }
                if messages.last!.contains("read-only") { break }
            }
            #expect(messages.last!.contains("is read-only"), "\(messages)")
            #expect(!messages.contains("ready"), "\(messages)")
            await storage.shutdown()
        }
    }

    /// Issue 27, defect 9: a write that fails for want of space (SQLITE_FULL, here from the
    /// writer's page limit) was 500 internal_error and readiness stayed green. Now it is 503
    /// naming the full disk, readiness is red, and both recover by themselves with room again.
    @Test func aFullDiskIs503AndNotReadyUntilThereIsRoomAgain() async throws {
        try await Harness.with(.sqlite) { h in
            let storage = try #require(h.storage as? SQLiteSyncStorage)
            let token = try await h.addUser("alice")
            let device = Device()
            try await h.router { client in
                let first = try await client.push(token, device: device, [event(1, "s1", ["reps": (.int(5), device.clock(testNow - 9))])])
                #expect(first.status == .ok)
                // Given a database that may not grow by a page
                try await storage.setMaxPageCount(try await storage.pageCount())
                // When a push needs room (long notes spill onto new pages)
                let note = String(repeating: "x", count: 15_000)
                let notes = (2...9).map { event(Int64($0), "s\($0)", ["note": (FieldValue.text(note), device.clock(testNow - 8))]) }
                let full = try await client.push(token, device: device, notes)
                // Then it is 503 not_ready naming the full disk, with Retry-After, and readiness is red
                let body = try expectError(full, .serviceUnavailable, "not_ready")
                #expect(body.error.message.contains("the server's disk is full"), "\(body.error.message)")
                #expect(full.headers[.retryAfter] != nil)
                let notReady = try await client.execute(uri: "/readyz", method: .get)
                #expect(try expectError(notReady, .serviceUnavailable, "not_ready").error.message.contains("disk is full"))
                #expect(notReady.headers[.retryAfter] != nil)
                // When there is room again, then readiness turns green and the push goes through
                try await storage.setMaxPageCount(1 << 30)
                #expect(try await client.execute(uri: "/readyz", method: .get).status == .ok)
                let again = try await client.push(token, device: device, notes)
                #expect(again.status == .ok)
                #expect(try decodeBody(again, as: PushResponse.self).results.map(\.status) == Array(repeating: .applied, count: 8))
            }
        }
    }

    /// Issue 27, defect 8: while PostgreSQL cannot be reached, /readyz answered after 12 s,
    /// 35 s, then not within 60 s, and pushes were 500 internal_error. Now readiness answers
    /// within its time limit and every route that needs the database is 503 (database_unavailable)
    /// with Retry-After. (The database refusing connections stands in for a stopped server.)
    @Test(.enabled(if: PostgresTestDatabase.isRequested, "needs GYMLOG_TEST_POSTGRES_URL (./scripts/test starts a server)"))
    func anUnreachablePostgresIsNotReadyOnEveryRoute() async throws {
        try await Harness.with(.postgres) { h in
            let location = try PostgresURL(parsing: h.config.database!, environment: [:])
            // Statements about the database run from another one: it will refuse connections.
            let admin = { var admin = location; admin.database = "postgres"; return admin }()
            let token = try await h.addUser("alice")
            let device = Device()
            try await h.router { client in
                #expect(try await client.execute(uri: "/readyz", method: .get).status == .ok)
                // Given the database refusing new connections and its sessions ended
                try await PostgresAdmin.execute(admin, [
                    "ALTER DATABASE \(location.database) ALLOW_CONNECTIONS false",
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(location.database)' AND pid <> pg_backend_pid()",
                ])
                // Then /readyz is 503 not_ready with Retry-After (answered within its limit, not hanging)
                let ready = try await client.execute(uri: "/readyz", method: .get)
                _ = try expectError(ready, .serviceUnavailable, "not_ready")
                #expect(ready.headers[.retryAfter] != nil)
                // And a push and a pull are 503 database_unavailable with Retry-After, not 500
                // (issue 49: a code of its own, so the client says the server's database is down)
                for response in [try await client.push(token, device: device, [event(1, "s1", ["reps": (.int(5), device.clock(testNow - 2))])]),
                                 try await client.pull(token, device: device)] {
                    let body = try expectError(response, .serviceUnavailable, "database_unavailable")
                    #expect(!body.error.message.contains(location.host) || location.host == "", "\(body.error.message)")
                    #expect(response.headers[.retryAfter] != nil)
                }
            }
            try await PostgresAdmin.execute(admin, ["ALTER DATABASE \(location.database) ALLOW_CONNECTIONS true"])
        }
    }
}
