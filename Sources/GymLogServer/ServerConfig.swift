import Foundation
import Logging
import GymLogServerCore

/// Everything `buildApplication` needs; `gymlog-server serve` fills it from flags.
public struct ServerConfig: Sendable {
    /// `sqlite:PATH`, a bare path, or nil for the default XDG path.
    public var database: String?
    public var host: String = "127.0.0.1"
    /// 0 asks the OS for a free port; `onListening` receives the real one.
    public var port: Int = 8080
    /// Lets anyone create an account with `POST /v1/register`.
    public var openRegistration: Bool = false
    public var maxBodyBytes: Int = 8 * 1024 * 1024
    public var maxClockAheadSeconds: Int = 15 * 60
    public var maxPushEvents: Int = 5000
    public var defaultPullLimit: Int = 1000
    public var maxPullLimit: Int = 5000
    /// The JSON size a pull page stops near.
    public var maxPullBytes: Int = 4 * 1024 * 1024
    /// How many times one user's history may start a new generation per hour (counted in the
    /// store, `SyncStorage.startNewHistoryGeneration`); more rollback claims only reset the claimant.
    public var maxHistoryGenerationsPerHour: Int = 3
    public var logLevel: Logger.Level = .info
    /// The PEM certificate chain and private key to serve HTTPS with (`--tls-cert`,
    /// `--tls-key`); nil serves plain HTTP (behind a reverse proxy that does TLS).
    public var tls: (certificateChain: String, privateKey: String)?
    /// Where `GET /metrics` is served instead of the main address (`--metrics-address`); nil
    /// serves it on the main address with the rest.
    public var metricsAddress: (host: String, port: Int)?
    /// Called once the metrics listener (`metricsAddress`) listens, with its bound port.
    public var onMetricsListening: (@Sendable (_ host: String, _ port: Int) -> Void)?
    /// How long a connection may take to send a whole request head (from when it opens, or
    /// from its previous answer) before it is closed.
    public var requestHeadTimeout: Duration = .seconds(30)
    /// How long a request body may go without a byte arriving before its connection is closed.
    public var requestBodyTimeout: Duration = .seconds(30)
    /// The slowest average a request body may arrive at, in bytes per second, once
    /// `ConnectionGuard.bodyRateGrace` has passed since its head (0: no minimum). A body dripped
    /// a byte at a time never stalls long enough for `requestBodyTimeout`, yet holds a
    /// connection and a push slot for hours.
    public var minBodyBytesPerSecond: Int = 1024
    /// How long `/readyz` waits for a store that can hang (PostgreSQL down) before it says not
    /// ready: a load balancer's probe gets its answer in time.
    public var readinessTimeout: Duration = .seconds(1)
    /// Connections open at once; past it, new ones wait in the listen backlog.
    public var maxConnections: Int = 512
    /// Connections one client address may hold open (`AddressConnections`; 0: no cap).
    public var maxConnectionsPerAddress: Int = 64
    /// After SIGTERM/SIGINT, how long requests in flight may take to finish before the
    /// connections still open are closed.
    public var shutdownGracePeriod: Duration = .seconds(10)
    /// Reverse proxies (IP addresses, as `ClientAddress.normalized` writes them) whose
    /// `X-Forwarded-For` names the client, for the log and per-address registration limits
    /// (`--trusted-proxy`); empty: the header is ignored.
    public var trustedProxies: Set<String> = []
    /// Registrations per client address and hour under `openRegistration` (0: no limit).
    public var registrationsPerHour: Int = 10
    /// Registrations per hour under `openRegistration`, all addresses together (0: no limit):
    /// many addresses each under `registrationsPerHour` cannot make accounts without end.
    public var registrationsPerHourTotal: Int = 100
    /// Pushes of one user in progress at once; more are 429 with Retry-After.
    public var maxConcurrentPushesPerUser: Int = 4
    /// Devices one user may push from; a push from one more is 403 `too_many_devices`,
    /// counted in the push's transaction (new devices racing each other cannot pass it).
    public var maxDevicesPerUser: Int = 100
    /// The server's wall clock in Unix milliseconds; tests pass a fixed one.
    public var now: @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
    /// Called once the server listens, with the bound host and port.
    public var onListening: (@Sendable (_ host: String, _ port: Int) -> Void)?

    public init(database: String? = nil) { self.database = database }
}
