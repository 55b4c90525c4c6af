import Foundation
import GymLogWire
import HTTPTypes
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import GymLogServerCore

/// Hummingbird's HTTP/1.1 channel with the server's connection guard in its pipeline: read
/// timeouts, the JSON answer to requests the HTTP parser refuses, and a log line for each
/// connection cut. Hummingbird's own `idleTimeout` closes silently and counts a slow request
/// head as idle, so the guard replaces it.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let http: HTTP1Channel

    init(responder: @escaping HTTPChannelHandler.Responder, config: ServerConfig, logger: Logger) {
        // One table for every connection of this listener.
        let addresses = AddressConnections(limit: config.maxConnectionsPerAddress, total: config.maxConnections, logger: logger)
        http = HTTP1Channel(responder: responder, configuration: .init(additionalChannelHandlers: [
            ConnectionGuard(headTimeout: config.requestHeadTimeout, bodyTimeout: config.requestBodyTimeout,
                            minBodyBytesPerSecond: config.minBodyBytesPerSecond, addresses: addresses, logger: logger),
        ]))
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        // First in the pipeline, before the HTTP parser: what arrived of a head not yet whole.
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(ReceivedBytesCounter())
        }.flatMap { http.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await http.handle(value: value, logger: logger)
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

/// Counts the bytes a connection received, before HTTP parsing.
final class ReceivedBytesCounter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private(set) var total = 0

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        total += unwrapInboundIn(data).readableBytes
        context.fireChannelRead(data)
    }
}

/// Per connection: closes it when the request head does not arrive whole within the head
/// timeout (counted from when the connection opens or its last answer was sent), a request
/// body goes the body timeout without a byte, or a body arrives slower on average than the
/// minimum rate once `bodyRateGrace` has passed since its head, logging what was cut; never
/// while the server is working on an answer. Answers a request the HTTP parser refuses with the JSON error,
/// an `X-Request-ID` and the one log line every response gets.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart
    /// How long a kept-alive connection waits for its next request (the head timeout).
    static let keepAlive = HTTPField.Name("Keep-Alive")!

    /// How long a body may arrive at any rate before the minimum average rate applies: a
    /// client's connection warms up, and a small body is whole long before.
    static let bodyRateGrace: Duration = .seconds(10)

    private let headTimeout: Duration
    private let bodyTimeout: Duration
    private let minBodyBytesPerSecond: Int
    private var headWait: TimeAmount { TimeAmount(headTimeout) }
    private var bodyWait: TimeAmount { TimeAmount(bodyTimeout) }
    private let logger: Logger
    private var counter: ReceivedBytesCounter?
    /// The per-address table this connection is counted in (nil: no per-address cap).
    private let addresses: AddressConnections?
    private var registered = false
    /// Over its address's cap with nothing idle to make room: only a health check is served.
    private var healthOnly = false
    /// A request refused on a health-only connection: nothing more is read from it.
    private var refusing = false

    /// The request whose body is being read, and when its head arrived.
    private var reading: (method: String, path: String, bodyBytes: Int, since: NIODeadline)?
    /// Requests read whose answer is not yet fully written.
    private var unanswered = 0
    private var responseStarted = false
    private var lastRead = NIODeadline.now()
    /// When the wait for the next request head began, and the bytes received until then.
    private var waitingSince = NIODeadline.now()
    private var bytesBeforeWait = 0
    private var timer: Scheduled<Void>?

    init(headTimeout: Duration, bodyTimeout: Duration, minBodyBytesPerSecond: Int = 0, addresses: AddressConnections? = nil, logger: Logger) {
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
        self.minBodyBytesPerSecond = minBodyBytesPerSecond
        self.addresses = addresses
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        counter = try? context.pipeline.syncOperations.handler(type: ReceivedBytesCounter.self)
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    // Once per connection, whichever of handlerAdded and channelActive sees it active first.
    private func start(_ context: ChannelHandlerContext) {
        guard !registered else { return }
        registered = true
        if let addresses {
            switch addresses.admit(context.channel) {
            case .admitted: break
            case .healthOnly: healthOnly = true
            case .refused:
                context.close(promise: nil)
                return
            }
        }
        waitForHead(context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        addresses?.remove(context.channel)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        addresses?.remove(context.channel)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastRead = .now()
        if refusing { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            if healthOnly, !Self.isHealthCheck(head) {
                refusing = true
                return answerTooManyConnections(context)
            }
            addresses?.setIdle(context.channel, false)
            // The path only names the request in a log line: a few hundred bytes are plenty.
            reading = (head.method.rawValue, String((head.path ?? "").prefix(200)), 0, lastRead)
            unanswered += 1
            schedule(context, at: nextBodyCheck(since: lastRead))
        case .body(let buffer):
            reading?.bodyBytes += buffer.readableBytes
        case .end:
            reading = nil
            if unanswered == 0 {
                // Answered before its body was read whole (a 413, a 401): the next head is due.
                waitForHead(context)
            } else {
                timer?.cancel()
                timer = nil
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            responseStarted = true
            // Says how long the kept-alive connection waits for its next request, so a client
            // opens a new one instead of sending into a connection about to be closed.
            head.headerFields[Self.keepAlive] = "timeout=\(Int(headTimeout.components.seconds))"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            return
        case .body: break
        case .end:
            responseStarted = false
            unanswered = max(0, unanswered - 1)
            if unanswered == 0, reading == nil { waitForHead(context) }
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A parser error inside a request (a broken chunk) reaches that request's handler as a
        // failed body read; only one with no request under way is answered here.
        guard error is HTTPParserError, reading == nil, unanswered == 0, !responseStarted else {
            context.fireErrorCaught(error)
            return
        }
        answerUnparseable(context, error)
    }

    private func answerUnparseable(_ context: ChannelHandlerContext, _ error: any Error) {
        let requestID = UUID().uuidString.lowercased()
        let apiError = APIError(.badRequest, .badRequest,
                                "the request is not valid HTTP/1.1 (\(error)); send a request as RFC 9112 describes, with the headers openapi.yaml documents.")
        var (headers, body) = jsonParts(apiError.body)
        headers[.contentLength] = "\(body.readableBytes)"
        headers[.connection] = "close"
        headers[RequestLogMiddleware.header] = requestID
        RequestLogMiddleware.log(logger.with(requestID: requestID), method: "-", path: "-", status: 400, milliseconds: 0,
                                 extra: ["error": "\(error)", "peer": "\(context.channel.remoteAddress?.description ?? "?")"])
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .badRequest, headerFields: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }

    private func waitForHead(_ context: ChannelHandlerContext) {
        waitingSince = .now()
        bytesBeforeWait = counter?.total ?? 0
        addresses?.setIdle(context.channel, true)
        // A health-only connection is for a probe that sends its request at once.
        schedule(context, at: waitingSince + (healthOnly ? min(headWait, TimeAmount(Self.healthOnlyHeadTimeout)) : headWait))
    }

    /// How long a connection past its address's cap may take to send its head: a health
    /// check's comes at once, and an idle one must not hold the spare place.
    static let healthOnlyHeadTimeout: Duration = .seconds(2)

    /// `GET /healthz` or `GET /readyz`: what a connection past its address's cap may ask.
    static func isHealthCheck(_ head: HTTPRequest) -> Bool {
        let path = (head.path ?? "").split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        return head.method == .get && (path == Endpoint.healthz.path || path == Endpoint.readyz.path)
    }

    // 503 to a request other than a health check on a connection past its address's cap,
    // then close: the address holds its share of connections, all busy.
    private func answerTooManyConnections(_ context: ChannelHandlerContext) {
        let apiError = APIError(.serviceUnavailable, .tooManyConnections,
                                "this address has \(addresses?.limit ?? 0) connections open and busy, the server's limit; finish or close one, then try again.",
                                headers: [.retryAfter: "1"])
        var (headers, body) = jsonParts(apiError.body)
        headers.append(contentsOf: apiError.headers)
        headers[.contentLength] = "\(body.readableBytes)"
        headers[.connection] = "close"
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .serviceUnavailable, headerFields: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        timer?.cancel()
        timer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            checkTimeouts(context)
        }
    }

    /// Whether a body that brought `bytes` in `elapsed` since its head is under the minimum
    /// average rate, once `bodyRateGrace` has passed (never with a minimum of 0).
    static func bodyIsTooSlow(bytes: Int, elapsed: TimeAmount, minBytesPerSecond: Int) -> Bool {
        guard minBytesPerSecond > 0, elapsed >= TimeAmount(bodyRateGrace) else { return false }
        // In integers: bytes per second < minimum  <=>  bytes * 1e9 < minimum * nanoseconds.
        return Int128(bytes) * 1_000_000_000 < Int128(minBytesPerSecond) * Int128(elapsed.nanoseconds)
    }

    // The next time a body being read is looked at: when it would have stalled, or, with a
    // minimum rate, when the grace ends and then every second.
    private func nextBodyCheck(since start: NIODeadline) -> NIODeadline {
        let stall = lastRead + bodyWait
        guard minBodyBytesPerSecond > 0 else { return stall }
        return min(stall, max(start + TimeAmount(Self.bodyRateGrace), .now() + .seconds(1)))
    }

    private func checkTimeouts(_ context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        let now = NIODeadline.now()
        let peer = "\(context.channel.remoteAddress?.description ?? "?")"
        if let request = reading {
            if now < lastRead + bodyWait {
                let elapsed = now - request.since
                guard Self.bodyIsTooSlow(bytes: request.bodyBytes, elapsed: elapsed, minBytesPerSecond: minBodyBytesPerSecond) else {
                    return schedule(context, at: nextBodyCheck(since: request.since))
                }
                logger.notice("closed a connection whose request body arrived too slowly", metadata: [
                    "peer": "\(peer)", "method": "\(request.method)", "path": "\(request.path)", "body_bytes": "\(request.bodyBytes)",
                    "seconds": "\(elapsed.nanoseconds / 1_000_000_000)", "min_bytes_per_second": "\(minBodyBytesPerSecond)",
                ])
                context.close(promise: nil)
                return
            }
            logger.notice("closed a connection whose request body stalled", metadata: [
                "peer": "\(peer)", "method": "\(request.method)", "path": "\(request.path)",
                "body_bytes": "\(request.bodyBytes)", "timeout_s": "\(seconds(bodyTimeout))",
            ])
            context.close(promise: nil)
        } else if unanswered == 0 {
            guard now >= waitingSince + headWait else { return schedule(context, at: waitingSince + headWait) }
            let partial = (counter?.total ?? 0) - bytesBeforeWait
            if partial > 0 {
                logger.notice("closed a connection whose request head did not arrive whole in time", metadata: [
                    "peer": "\(peer)", "head_bytes": "\(partial)", "timeout_s": "\(seconds(headTimeout))",
                ])
            } else {
                logger.debug("closed an idle connection", metadata: ["peer": "\(peer)", "timeout_s": "\(seconds(headTimeout))"])
            }
            context.close(promise: nil)
        }
    }

}

/// Connections open at once, at most `limit`: past it Hummingbird stops accepting, and new
/// connections wait in the kernel's listen backlog until one closes (then the backlog's own
/// limit refuses them). Logged once each time the limit is reached.
struct ConnectionLimit: AvailableConnectionsDelegate {
    let limit: Int
    let logger: Logger
    /// Where the count of open connections is shown (`gymlog_connections_open`).
    let metrics: ServerMetrics
    private var open = 0

    init(limit: Int, logger: Logger, metrics: ServerMetrics) {
        self.limit = limit
        self.logger = logger
        self.metrics = metrics
    }

    mutating func connectionOpened() {
        open += 1
        metrics.connectionsOpen(open)
        if open == limit {
            logger.warning("connection limit reached; new connections wait until one closes", metadata: ["max_connections": "\(limit)"])
        }
    }

    mutating func connectionClosed() {
        open -= 1
        metrics.connectionsOpen(open)
    }

    func isAcceptingNewConnections() -> Bool { open < limit }
}

/// Connections open per client address, at most `limit` each (`--max-connections-per-address`),
/// so one address cannot hold the whole `--max-connections` with idle sockets; and, for many
/// addresses each under its cap (700 idle sockets from 20 addresses took every place and kept
/// `/healthz` out, issue 49), idle connections give way before the whole limit is reached:
/// from `total - spare` connections on, a new one closes the server's longest-idle connection.
///
/// A connection past an address's limit closes that address's longest-idle connection (one
/// waiting for its next request, none mid-request) and takes its place: a client that opens
/// and holds sockets only churns its own, and a real request, a health check above all, gets
/// in. When every connection of the address is busy, the new one is kept for a health check
/// only (`/healthz`, `/readyz`, the reserve: `healthReserve` of them per address); anything
/// else on it is answered 503 `too_many_connections`.
final class AddressConnections: Sendable {
    enum Admission { case admitted, healthOnly, refused }

    private struct Connection {
        let channel: any Channel
        /// When it began waiting for a request head; nil while a request is under way.
        var idleSince: NIODeadline?
        var healthOnly: Bool
    }

    /// Connections per address (0: no cap per address).
    let limit: Int
    /// The server's `--max-connections`, and the places kept free below it by closing idle
    /// connections (none under 16 connections: there every place is a keep-alive a client uses).
    let total: Int
    var spare: Int { total / 16 }
    /// Health-only connections one address may have beyond `limit`.
    static let healthReserve = 4
    private let logger: Logger
    private let table = NIOLockedValueBox<[String: [ObjectIdentifier: Connection]]>([:])

    init(limit: Int, total: Int = 0, logger: Logger) {
        self.limit = limit
        self.total = total
        self.logger = logger
    }

    /// The address a connection is counted under: the peer's IP, without the port.
    static func address(of channel: any Channel) -> String {
        channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// Counts a new connection under its address, making room as described above.
    func admit(_ channel: any Channel) -> Admission {
        let address = Self.address(of: channel)
        let (admission, evicted, reachedLimit) = table.withLockedValue { table -> (Admission, (any Channel)?, Bool) in
            var connections = table[address] ?? [:]
            defer { table[address] = connections }
            let regular = connections.values.filter { !$0.healthOnly }
            guard limit > 0, regular.count >= limit else {
                connections[ObjectIdentifier(channel)] = Connection(channel: channel, idleSince: .now(), healthOnly: false)
                return (.admitted, nil, regular.count + 1 == limit)
            }
            if let oldest = regular.filter({ $0.idleSince != nil }).min(by: { $0.idleSince! < $1.idleSince! }) {
                connections[ObjectIdentifier(oldest.channel)] = nil
                connections[ObjectIdentifier(channel)] = Connection(channel: channel, idleSince: .now(), healthOnly: false)
                return (.admitted, oldest.channel, false)
            }
            guard connections.count - regular.count < Self.healthReserve else { return (.refused, nil, false) }
            connections[ObjectIdentifier(channel)] = Connection(channel: channel, idleSince: .now(), healthOnly: true)
            return (.healthOnly, nil, false)
        }
        if reachedLimit {
            logger.warning("an address reached its connection limit; its idle connections make room for new ones",
                           metadata: ["address": "\(address)", "max_connections_per_address": "\(limit)"])
        }
        if let evicted {
            logger.debug("closed an idle connection to make room for a new one from its address", metadata: ["address": "\(address)"])
            evicted.close(promise: nil)
        }
        if admission != .refused, spare > 0, let idle = longestIdle(whenAtLeast: total - spare, besides: channel) {
            logger.notice("closed the longest-idle connection: the server is near its connection limit", metadata: [
                "address": "\(Self.address(of: idle))", "max_connections": "\(total)",
            ])
            idle.close(promise: nil)
        }
        return admission
    }

    /// The connection waiting longest for its next request, taken out of the table, when at
    /// least `threshold` connections are open; never `newest`, the one just admitted.
    private func longestIdle(whenAtLeast threshold: Int, besides newest: any Channel) -> (any Channel)? {
        table.withLockedValue { table in
            guard table.values.reduce(0, { $0 + $1.count }) >= threshold else { return nil }
            var oldest: (address: String, id: ObjectIdentifier, since: NIODeadline, channel: any Channel)?
            for (address, connections) in table {
                for (id, c) in connections where id != ObjectIdentifier(newest) {
                    if let since = c.idleSince, since < oldest?.since ?? .distantFuture { oldest = (address, id, since, c.channel) }
                }
            }
            guard let oldest else { return nil }
            table[oldest.address]?[oldest.id] = nil
            if table[oldest.address]?.isEmpty == true { table[oldest.address] = nil }
            return oldest.channel
        }
    }

    /// Notes that the connection waits for its next request head (idle) or is in a request.
    func setIdle(_ channel: any Channel, _ idle: Bool) {
        let address = Self.address(of: channel)
        table.withLockedValue { table in
            guard table[address]?[ObjectIdentifier(channel)] != nil else { return }
            table[address]![ObjectIdentifier(channel)]!.idleSince = idle ? .now() : nil
        }
    }

    /// Stops counting a connection that closed.
    func remove(_ channel: any Channel) {
        let address = Self.address(of: channel)
        table.withLockedValue { table in
            table[address]?[ObjectIdentifier(channel)] = nil
            if table[address]?.isEmpty == true { table[address] = nil }
        }
    }
}
