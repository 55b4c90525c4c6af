import Foundation
import GRDB
import GymLogCore
@testable import GymLogServer
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
        // When the fields table's root page is overwritten with garbage
        try DamagedDatabase.overwriteRootPage(of: "fields", in: path)
        // Then /readyz answers 503 not_ready naming the file and the way out
        let storage = try SQLiteSyncStorage(path: path)
        var config = ServerConfig(database: "sqlite:" + path)
        config.logLevel = .critical
        let app = try await buildApplication(config, storage: storage)
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/readyz", method: .get)
            let body = try expectError(response, .serviceUnavailable, "not_ready")
            #expect(body.error.message.contains(path), "\(body.error.message)")
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
}
