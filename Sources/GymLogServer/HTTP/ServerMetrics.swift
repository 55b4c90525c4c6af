import Foundation
import GymLogWire
import Prometheus
import GymLogServerCore

/// The server's Prometheus metrics, served as text by `GET /metrics`. Each application has a
/// registry of its own (not swift-metrics' process-wide one), so servers started side by side
/// in one process, as the tests do, count apart.
public final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()

    /// The latency buckets of push and pull: from a cached read to a slow full page.
    static let buckets: [Duration] = [.milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                                      .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
                                      .milliseconds(2500), .seconds(5), .seconds(10)]

    /// Every metric this server exposes: `gymlog_<name>_<unit>`, with its help text.
    enum Metric {
        case requests, push, pull, events, rejections, users, devices, databaseSize, connections, scrapeErrors

        var parts: (name: String, unit: String, help: String) {
            switch self {
            case .requests: ("http_requests", "total", "HTTP requests answered, by route and status code.")
            case .push: ("push_duration", "seconds", "Time to answer a push, whatever the answer (errors and 503s included).")
            case .pull: ("pull_duration", "seconds", "Time to answer a pull page, whatever the answer (errors and 503s included).")
            case .events: ("events", "total", "Pushed events by outcome: applied, duplicate or rejected.")
            case .rejections: ("event_rejections", "total", "Pushed events rejected, by error code.")
            case .users: ("users", "", "Users whose token works (not revoked).")
            case .devices: ("devices", "", "Devices that have pushed (a device that only pulls writes nothing on the server).")
            case .databaseSize: ("database_size", "bytes", "The database's size on disk.")
            case .connections: ("connections_open", "", "Client connections open now (at most --max-connections).")
            case .scrapeErrors: ("storage_scrape_errors", "total", "Scrapes whose storage gauges could not be read (the database did not answer).")
            }
        }

        // Built on each use: the type is not Sendable, so it cannot be a shared constant.
        var descriptor: MetricNameDescriptor {
            MetricNameDescriptor(namespace: "gymlog", metricName: parts.name, unitName: parts.unit, helpText: parts.help)
        }
    }

    public init() {
        // Every series a dashboard needs exists from the start, at zero, so a rate is defined
        // before the first push and an alert on rejections does not wait for one.
        for outcome in [PushStatus.applied, .duplicate, .rejected] { _ = eventCounter(outcome) }
        for code in ErrorCode.eventRejections { _ = rejectionCounter(code.rawValue) }
        _ = registry.makeDurationHistogram(descriptor: Metric.push.descriptor, buckets: Self.buckets)
        _ = registry.makeDurationHistogram(descriptor: Metric.pull.descriptor, buckets: Self.buckets)
        _ = registry.makeCounter(descriptor: Metric.scrapeErrors.descriptor)
        connectionsOpen(0)
    }

    /// The count of open client connections, as the connection limit keeps it.
    func connectionsOpen(_ count: Int) {
        registry.makeGauge(descriptor: Metric.connections.descriptor).set(Double(count))
    }

    /// One answered request. `route` is the served path (`/v1/push`), or `other` for paths the
    /// server does not serve, so a scanner cannot grow the series without bound.
    func request(route: String, status: Int) {
        registry.makeCounter(descriptor: Metric.requests.descriptor, labels: [("route", route), ("status", String(status))]).increment()
    }

    /// A push answered, whatever its status: its latency.
    func pushAnswered(duration: Duration) {
        registry.makeDurationHistogram(descriptor: Metric.push.descriptor, buckets: Self.buckets).record(duration)
    }

    /// A push answered 200: what became of each event.
    func pushed(_ results: [PushResult]) {
        var outcomes: [PushStatus: Int64] = [:], codes: [String: Int64] = [:]
        for result in results {
            outcomes[result.status, default: 0] += 1
            if result.status == .rejected { codes[result.error?.code ?? "unknown", default: 0] += 1 }
        }
        for (outcome, count) in outcomes { eventCounter(outcome).increment(by: count) }
        for (code, count) in codes { rejectionCounter(code).increment(by: count) }
    }

    /// A pull answered, whatever its status.
    func pulled(duration: Duration) {
        registry.makeDurationHistogram(descriptor: Metric.pull.descriptor, buckets: Self.buckets).record(duration)
    }

    /// The exposition text, with the storage gauges read now. A store that does not answer
    /// leaves them as last read and counts a scrape error: the scrape itself still succeeds,
    /// so the request counters stay visible while the database is down.
    func exposition(_ storage: any SyncStorage) async -> String {
        do {
            let usage = try await storage.usage()
            registry.makeGauge(descriptor: Metric.users.descriptor).set(Double(usage.activeUsers))
            registry.makeGauge(descriptor: Metric.devices.descriptor).set(Double(usage.devices))
            registry.makeGauge(descriptor: Metric.databaseSize.descriptor).set(Double(usage.databaseBytes))
        } catch {
            registry.makeCounter(descriptor: Metric.scrapeErrors.descriptor).increment()
        }
        return registry.emitToString()
    }

    private func rejectionCounter(_ code: String) -> Counter {
        registry.makeCounter(descriptor: Metric.rejections.descriptor, labels: [("code", code)])
    }

    private func eventCounter(_ outcome: PushStatus) -> Counter {
        registry.makeCounter(descriptor: Metric.events.descriptor, labels: [("outcome", outcome.rawValue)])
    }
}
