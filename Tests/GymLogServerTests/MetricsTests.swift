import Foundation
import GymLogCore
@testable import GymLogServer
@testable import GymLogServerCore
import GymLogWire
import GymLogTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// `GET /metrics`: Prometheus text with what an operator alerts on, counted per application.
@Suite("Metrics (/metrics)")
struct MetricsTests {
    /// The value of the sample `name{labels}` in an exposition, nil when it is not there.
    static func sample(_ text: String, _ series: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    @Test(arguments: Backend.conformance) func countsRequestsEventsRejectionsUsersAndDevices(_ backend: Backend) async throws {
        try await Harness.with(backend) { h in
            let token = try await h.addUser("alice")
            _ = try await h.addUser("bob")
            let device = Device()
            try await h.router { client in
                // Before any traffic every event series is there at zero
                let empty = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
                #expect(Self.sample(empty, #"gymlog_events_total{outcome="applied"}"#) == 0, "\(empty)")
                // ...and every rejection code's series, which the README says to alert on (item 8 of issue 49)
                #expect(Self.sample(empty, #"gymlog_event_rejections_total{code="invalid_entity"}"#) == 0, "\(empty)")
                for code in ErrorCode.eventRejections {
                    #expect(Self.sample(empty, "gymlog_event_rejections_total{code=\"\(code.rawValue)\"}") == 0, "\(code)")
                }
                // Given a push of two good events and one with a bad entity, then the same push again
                let events = [event(1, "s1", ["reps": (.int(5), device.clock(testNow - 3))]),
                              event(2, "s2", ["reps": (.int(6), device.clock(testNow - 2))]),
                              event(3, "s3", entity: "BAD", ["reps": (.int(7), device.clock(testNow - 1))])]
                #expect(try await client.push(token, device: device, events).status == .ok)
                #expect(try await client.push(token, device: device, events).status == .ok)
                #expect(try await client.pull(token, device: device).status == .ok)
                #expect(try await client.push("not-a-token", device: device, events).status == .unauthorized)
                _ = try await client.execute(uri: "/wp-login.php", method: .get)
                // When the metrics are scraped
                let response = try await client.execute(uri: "/metrics", method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                let text = String(buffer: response.body)
                // Then requests count by route and status, unknown paths as one route
                #expect(Self.sample(text, #"gymlog_http_requests_total{route="/v1/push",status="200"}"#) == 2, "\(text)")
                #expect(Self.sample(text, #"gymlog_http_requests_total{route="/v1/push",status="401"}"#) == 1)
                #expect(Self.sample(text, #"gymlog_http_requests_total{route="/v1/pull",status="200"}"#) == 1)
                #expect(Self.sample(text, #"gymlog_http_requests_total{route="other",status="404"}"#) == 1)
                // Events by outcome (the second push re-sent all three), rejections by code
                #expect(Self.sample(text, #"gymlog_events_total{outcome="applied"}"#) == 2)
                #expect(Self.sample(text, #"gymlog_events_total{outcome="rejected"}"#) ?? 0 >= 1)
                #expect(Self.sample(text, #"gymlog_event_rejections_total{code="invalid_entity"}"#) ?? 0 >= 1)
                // Every push answered counts in the latency, the refused one too (issue 49, item 1)
                #expect(Self.sample(text, "gymlog_push_duration_seconds_count") == 3)
                #expect(Self.sample(text, "gymlog_pull_duration_seconds_count") == 1)
                // And the store's gauges: two users, one device
                #expect(Self.sample(text, "gymlog_users") == 2)
                #expect(Self.sample(text, "gymlog_devices") == 1)
                if backend != .memory { #expect(Self.sample(text, "gymlog_database_size_bytes") ?? 0 > 0) }
            }
        }
    }

    @Test func aStoreThatDoesNotAnswerStillScrapesAndCountsTheFailure() async throws {
        try await Harness.with(.sqlite) { h in
            let app = try await buildApplication(h.config, storage: NotReadyStorage(h.storage))
            try await app.test(.router) { client in
                let response = try await client.execute(uri: "/metrics", method: .get)
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(Self.sample(text, "gymlog_storage_scrape_errors_total") == 1, "\(text)")
                #expect(Self.sample(text, "gymlog_users") == nil)
            }
        }
    }

    /// With `--metrics-address`, the real binary serves `/metrics` there and not on the main port.
    @Test func aMetricsAddressMovesMetricsOffTheMainPort() async throws {
        let server = try ServerInstance(extraArguments: ["--metrics-address", "127.0.0.1:0"])
        defer { server.stop() }
        let request = Array("GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
        let main = try #require(Int(server.url.split(separator: ":").last ?? ""))
        let metricsURL = try #require(server.metricsURL, "no metrics line in: \(server.log())")
        let metrics = try #require(Int(metricsURL.split(separator: ":").last?.split(separator: "/").first ?? ""))
        #expect(try await HostileRawHTTP.exchange(port: main, request).status == 404)
        let scraped = try await HostileRawHTTP.exchange(port: metrics, request)
        #expect(scraped.status == 200)
        let text = String(decoding: scraped.body, as: UTF8.self)
        #expect(text.contains(#"gymlog_http_requests_total{route="other",status="404"} 1"#), "\(text)")
        // Connections to the main port are counted while open: three idle ones show as (at least) three
        let idle = try (0..<3).map { _ in try HostileRawHTTP.Connection(port: main) }
        var open: Double?
        for _ in 0..<50 {
            let now = String(decoding: try await HostileRawHTTP.exchange(port: metrics, request).body, as: UTF8.self)
            open = Self.sample(now, "gymlog_connections_open")
            if (open ?? 0) >= 3 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect((open ?? 0) >= 3, "connections_open \(String(describing: open))")
        withExtendedLifetime(idle) {}
    }

    @Test func aBadMetricsAddressIsRefusedNamingIt() throws {
        let run = try ProcessRunner.runProduct("gymlog-server", ["serve", "--metrics-address", "9090"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--metrics-address \"9090\" is not HOST:PORT"), "\(run.stderr)")
    }
}
