import Foundation
import GymLogTestSupport
import Testing

/// PostgreSQL stopped under a running server (issue 49, item 1): requests are answered within
/// seconds with a 503 that says the server's database is down (they waited 32 to 67 s, past
/// the client's 30 s, and the client blamed the network), the client says so and keeps its
/// changes, and every answer counts in the latency histograms. A real cluster the test stops.
@Suite("PostgreSQL down under a running server")
struct DatabaseOutageTests {
    static func sample(_ text: String, _ series: String) -> Double? { MetricsTests.sample(text, series) }

    @Test func aPushWithPostgresDownIsAnsweredWithDatabaseUnavailableAndTheClientKeepsItsChanges() async throws {
        guard PostgresCluster.isAvailable else {
            if PostgresTestDatabase.underCI { Issue.record("CI=true: PostgreSQL is not installed, so the outage cannot be tested") }
            else { print("NOTICE: DatabaseOutageTests SKIPPED: PostgreSQL is not installed (initdb, pg_ctl)") }
            return
        }
        let cluster = try PostgresCluster()
        let server = try ServerInstance(database: cluster.url)
        defer { server.stop() }
        let token = try server.addUser("alice")
        let port = try #require(Int(server.url.split(separator: ":").last ?? ""))
        let device = try ClientDevice(server: server, token: token, autoSync: false)
        try device.run(["log", "bench 100x5"])
        try device.sync()

        // When PostgreSQL stops
        try cluster.stop()
        // Then a push is answered 503 database_unavailable, with Retry-After. The socket waits
        // up to 30 s, under the 32 s and more the pool's own wait ran before: the bound is ~2 s,
        // and one run on a machine loaded by parallel suites took 20 s, which is not what this checks.
        let push = "POST /v1/push HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
        let started = Date()
        let answer = try await HostileRawHTTP.exchange(port: port, Array(push.utf8), seconds: 30)
        let waited = Date().timeIntervalSince(started)
        #expect(answer.status == 503, "\(answer.head) after \(waited) s; \(server.log().suffix(1500))")
        let body = String(decoding: answer.body, as: UTF8.self)
        #expect(body.contains("\"code\":\"database_unavailable\""), "\(body)")
        #expect(answer.head.lowercased().contains("retry-after: 5"), "\(answer.head)")
        print("push with PostgreSQL down answered in \(String(format: "%.2f", waited)) s")

        // And the client, with a change waiting, says the server's database is down and that its change is kept
        try device.run(["log", "squat 140x5"])
        let waiting = try device.outboxDepth()
        #expect(waiting > 0)
        let sync = try device.home.gymlog(["sync"])
        #expect(sync.status != 0)
        #expect(sync.stderr.contains("its database is down") && sync.stderr.contains("your changes are kept"), "\(sync.stderr)")
        #expect(!sync.stderr.contains("cannot reach"), "\(sync.stderr)")
        #expect(try device.outboxDepth() == waiting)

        // And every answer counted in the latency histograms: the 503s too (the scrape is
        // answered too, its storage gauges bounded like every other access)
        let scrape = try await HostileRawHTTP.exchange(port: port, Array("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        let metrics = String(decoding: scrape.body, as: UTF8.self)
        let refusedPushes = Self.sample(metrics, #"gymlog_http_requests_total{route="/v1/push",status="503"}"#) ?? 0
        let refusedPulls = (Self.sample(metrics, #"gymlog_http_requests_total{route="/v2/pull",status="503"}"#) ?? 0)
        let allPushes = ["200", "503"].compactMap { Self.sample(metrics, "gymlog_http_requests_total{route=\"/v1/push\",status=\"\($0)\"}") }.reduce(0, +)
        let allPulls = ["200", "503"].compactMap { Self.sample(metrics, "gymlog_http_requests_total{route=\"/v2/pull\",status=\"\($0)\"}") }.reduce(0, +)
        #expect(refusedPushes + refusedPulls >= 2, "\(metrics)")
        #expect(Self.sample(metrics, "gymlog_push_duration_seconds_count") == allPushes, "\(metrics)")
        #expect(Self.sample(metrics, "gymlog_pull_duration_seconds_count") == allPulls, "\(metrics)")

        // And once PostgreSQL is back, the kept change goes
        try cluster.start()
        var synced = false
        for _ in 0..<20 where !synced {
            synced = try device.home.gymlog(["sync"]).status == 0
            if !synced { try await Task.sleep(for: .milliseconds(500)) }
        }
        #expect(synced, "\(server.log().suffix(1500))")
        #expect(try device.outboxDepth() == 0)
    }
}
