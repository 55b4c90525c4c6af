import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GymLogCore
import GymLogStore
import GymLogSyncClient
import GymLogTestSupport
import GymLogWire
import Testing

/// A plain HTTP/1.1 server on a loopback socket that answers as a hostile or broken sync
/// server would: the client under test talks to it over a real TCP connection.
final class HostileHTTPServer: @unchecked Sendable {
    /// Answers one request (its head and body as text) by writing to the connection.
    typealias Answer = @Sendable (_ request: String, _ connection: HostileHTTPServer.Connection) -> Void

    /// One accepted connection.
    struct Connection: Sendable {
        let fd: Int32
        /// Writes all of `text`; false once the client has gone.
        @discardableResult func write(_ text: String) -> Bool { writeBytes(Data(text.utf8)) }

        /// Writes all of `bytes`; false once the client has gone.
        @discardableResult func writeBytes(_ data: Data) -> Bool {
            var bytes = Array(data)[...]
            while !bytes.isEmpty {
                let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { return false }
                bytes = bytes.dropFirst(n)
            }
            return true
        }
    }

    let port: Int
    private let listener: Int32
    private let answer: Answer
    private let lock = NSLock()
    private var seen: [String] = []

    /// The request lines received so far (`GET /v2/pull?... HTTP/1.1`).
    var requests: [String] { lock.withLock { seen } }

    init(answer: @escaping Answer) throws {
        let (fd, port) = try loopbackListener()
        self.answer = answer
        listener = fd
        self.port = Int(port)
        Thread { [self] in acceptLoop() }.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Stops accepting (connections already answered close on their own).
    func stop() { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            Thread { [self] in serve(fd) }.start()
        }
    }

    /// Reads requests one after another on a keep-alive connection and answers each.
    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            // The head, then as many body bytes as Content-Length says.
            var headEnd: Int?
            while true {
                if let end = Self.headEnd(buffer) { headEnd = end; break }
                let n = recv(fd, &chunk, chunk.count, 0)
                if n <= 0 { return }
                buffer += chunk[0..<n]
            }
            let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
            let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            while buffer.count < headEnd! + length {
                let n = recv(fd, &chunk, chunk.count, 0)
                if n <= 0 { return }
                buffer += chunk[0..<n]
            }
            let request = String(decoding: buffer[0..<(headEnd! + length)], as: UTF8.self)
            buffer.removeFirst(headEnd! + length)
            lock.withLock { seen.append(String(head.prefix { $0 != "\r" })) }
            answer(request, Connection(fd: fd))
        }
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i + 4
        }
        return nil
    }

    /// A 200 answer with a JSON body.
    static func json(_ body: String) -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
    }

    /// Answers what `gymlog login` asks (capabilities, the account's key: none, the first pull
    /// page) as a gymlog-server from before end-to-end encryption would; false for anything else.
    static func answerLogin(_ request: String, _ connection: Connection) -> Bool {
        if request.hasPrefix("GET /v1/capabilities") {
            connection.write(json(#"{"protocol_version":\#(syncProtocolVersion),"max_body_bytes":1048576,"max_push_events":1000,"max_pull_limit":1000,"registration_open":false,"max_clock_ahead_ms":600000}"#))
        } else if request.hasPrefix("GET /v1/account") {
            // A server from before end-to-end encryption: every account in the clear.
            let body = #"{"error":{"code":"not_found","message":"no such endpoint"}}"#
            connection.write("HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        } else if request.contains("limit=1 ") || request.contains("limit=1&") {
            connection.write(emptyPage(cursor: "e1:0", hasMore: false))
        } else {
            return false
        }
        return true
    }

    /// A pull page with no changes.
    static func emptyPage(cursor: String, hasMore: Bool) -> String {
        json(#"{"epoch":"e1","changes":[],"devices":[],"cursor":"\#(cursor)","has_more":\#(hasMore),"last_applied_seq":0}"#)
    }
}

/// `gymlog sync` against servers that never finish an answer, never move their cursor, or
/// redirect a push elsewhere: every exchange is bounded, and nothing is sent where it was not meant to go.
@Suite("The sync client against hostile servers")
struct HostileServerTests {
    func database() throws -> GymLogDatabase {
        try GymLogDatabase(path: try temporaryDirectory("gymlog-hostile") + "/gymlog.sqlite", environment: FakeClock().environment)
    }

    @Test func aBodySentByTheDropEndsAtTheTimeout() async throws {
        // Given a server that sends a pull answer's head at once, then its body a byte at a time
        let server = try HostileHTTPServer { _, connection in
            guard connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n") else { return }
            while connection.write(" ") { usleep(200_000) }
        }
        defer { server.stop() }
        let transport = HTTPSyncTransport(baseURL: server.url, token: "glt_x", timeout: 1)

        // When the client pulls, then it gives up with "unreachable" instead of waiting for ever
        let error = await #expect(throws: SyncTransportError.self) {
            _ = try await transport.pull(cursor: .start, limit: nil, deviceID: "d")
        }
        guard case .unreachable(_, let reason)? = error else { Issue.record("unexpected \(String(describing: error))"); return }
        #expect(reason.contains("no complete answer within 1 s"))
    }

    @Test func anEndlessChunkedBodyEnds() async throws {
        // Given a server whose pull answer is chunked and never ends
        let server = try HostileHTTPServer { _, connection in
            guard connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n") else { return }
            let chunk = String(repeating: " ", count: 16_384)
            let framed = String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n"
            while connection.write(framed) {}
        }
        defer { server.stop() }
        let transport = HTTPSyncTransport(baseURL: server.url, token: "glt_x", timeout: 2)

        // When the client pulls, then the answer is cut by size or by time, and the pull fails
        await #expect(throws: SyncTransportError.self) {
            _ = try await transport.pull(cursor: .start, limit: nil, deviceID: "d")
        }
    }

    @Test func aPullWhoseCursorStandsStillStops() async throws {
        // Given a server that answers every pull "more to come" from the same cursor
        let server = try HostileHTTPServer { _, connection in
            connection.write(HostileHTTPServer.emptyPage(cursor: "e1:5", hasMore: true))
        }
        defer { server.stop() }
        let engine = SyncEngine(replica: try database(), transport: HTTPSyncTransport(baseURL: server.url, token: "glt_x", timeout: 5))

        // When the client syncs, then it stops at the second page with a clear error
        await #expect(throws: SyncEngineError.cursorDidNotAdvance(from: 5, to: 5)) { _ = try await engine.run() }
        #expect(server.requests.count == 2)
    }

    @Test func aPullWhoseCursorGoesBackStops() async throws {
        // Given a server whose cursor goes back after the first page, then stands still
        let answers = AnswerCount()
        let server = try HostileHTTPServer { _, connection in
            let n = answers.next()
            connection.write(HostileHTTPServer.emptyPage(cursor: n == 1 ? "e1:5" : "e1:2", hasMore: true))
        }
        defer { server.stop() }
        let engine = SyncEngine(replica: try database(), transport: HTTPSyncTransport(baseURL: server.url, token: "glt_x", timeout: 5))

        // When the client syncs, then it re-sends once (a server behind its cursor), and stops
        // at the page that does not move
        await #expect(throws: SyncEngineError.cursorDidNotAdvance(from: 2, to: 2)) { _ = try await engine.run() }
        #expect(server.requests.count == 4)
    }

    @Test func aServersErrorMessageReachesTheTerminalSanitised() throws {
        // Given a server that accepts the login, then fails every sync with an error message
        // holding colour, title and clipboard sequences
        let server = try HostileHTTPServer { request, connection in
            if HostileHTTPServer.answerLogin(request, connection) {
            } else {
                let body = #"{"error":{"code":"internal_error","message":"\u001b[1;31mred\u001b[0m \u001b]0;title\u0007 \u001b]52;c;aGk=\u0007"}}"#
                connection.write("HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
            }
        }
        defer { server.stop() }
        let home = try TemporaryHome()
        let login = try home.gymlog(["login", "--server", server.url.absoluteString, "--token", "glt_x"])
        #expect(login.status == 0, "\(login.stderr)")
        // (a server from before 0.12.0: the login says it offers no end-to-end encryption)
        #expect(login.stdout.contains("does not offer end-to-end encryption"), "\(login.stdout)")

        // When `gymlog sync` fails, piped and with NO_COLOR, then no escape sequence reaches the output
        let plain = try home.gymlog(["sync"], env: ["NO_COLOR": "1"])
        #expect(plain.status == 1)
        #expect(plain.stderr.contains("\u{FFFD}[1;31mred"), "\(plain.stderr.debugDescription)")
        #expect(!(plain.stdout + plain.stderr).contains("\u{1B}"), "\(plain.stderr.debugDescription)")
        let status = try home.gymlog(["status"], env: ["NO_COLOR": "1"])
        #expect(status.stdout.contains("\u{FFFD}]52;c;aGk="), "\(status.stdout.debugDescription)")
        #expect(!status.stdout.contains("\u{1B}"), "\(status.stdout.debugDescription)")

        // And with colour forced, gymlog's own red is there but the server's is not
        let coloured = try home.gymlog(["sync"], env: ["GYMLOG_FORCE_COLOR": "1"])
        #expect(coloured.stderr.contains("\u{1B}[1;31merror:\u{1B}[0m"), "\(coloured.stderr.debugDescription)")
        #expect(!coloured.stderr.contains("\u{1B}[1;31mred"), "\(coloured.stderr.debugDescription)")
    }

    @Test func pagesThatBringNothingNewStopTheRunAtItsBound() async throws {
        // Given a server that answers every pull "more to come" with an empty page, its cursor
        // one step further each time, and an engine allowed 7 such pages
        let state = EndlessPages()
        let server = try HostileHTTPServer { request, connection in state.answer(request, connection) }
        defer { server.stop() }
        var engine = SyncEngine(replica: try database(), transport: HTTPSyncTransport(baseURL: server.url, token: "glt_x", timeout: 5))
        engine.maxIdlePages = 7

        // When the client syncs
        let error = await #expect(throws: SyncEngineError.self) { _ = try await engine.run() }

        // Then it stops after the seventh page, and says so with what to do
        guard case .endlessPages(let pages, _)? = error else { Issue.record("unexpected \(String(describing: error))"); return }
        #expect(pages == 7)
        #expect(server.requests.count == 7)
        let message = error?.localizedDescription ?? ""
        #expect(message.contains("stopped after 7 pages/") && message.contains("Local changes stay in the outbox"), "\(message)")
    }

    @Test func aRunStopsAtItsTimeLimit() async throws {
        // Given the same server, an engine with no bound on such pages and a run of a moment
        let state = EndlessPages()
        let server = try HostileHTTPServer { request, connection in state.answer(request, connection) }
        defer { server.stop() }
        var engine = SyncEngine(replica: try database(), transport: HTTPSyncTransport(baseURL: server.url, token: "glt_x", timeout: 5))
        engine.maxIdlePages = .max
        engine.timeLimit = .milliseconds(300)

        // When the client syncs
        let error = await #expect(throws: SyncEngineError.self) { _ = try await engine.run() }

        // Then it stops at the time limit (not at a page count), naming the pages it pulled
        guard case .timeLimitReached(let pages, _)? = error else { Issue.record("unexpected \(String(describing: error))"); return }
        #expect(pages >= 1 && pages == server.requests.count)
        #expect(error?.localizedDescription.contains("longer than one sync may take") == true)
    }

    @Test func aPullThatNeverEndsStopsFreesTheLockAndIsShownInStatus() throws {
        // Given a server that accepts the login, then answers every pull "more to come" with an
        // empty page, its cursor one step further each time (issue 45)
        let state = EndlessPages()
        let server = try HostileHTTPServer { request, connection in
            if !HostileHTTPServer.answerLogin(request, connection) { state.answer(request, connection) }
        }
        defer { server.stop() }
        let home = try TemporaryHome()
        let login = try home.gymlog(["login", "--server", server.url.absoluteString, "--token", "glt_x"])
        #expect(login.status == 0, "\(login.stderr)")

        // When a set is logged, which starts a sync in the background
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)
        // Then that sync ends by itself (the deadline is generous: it is not what is tested), and
        // its log says why
        let ended = try backgroundSyncsEnded(home.database, within: 150)
        if !ended { for pid in try backgroundSyncs(of: home.database) { kill(pid, SIGKILL) } }
        #expect(ended, "the background sync was still pulling after 150 s (\(server.requests.count) requests)")
        let log = (try? String(contentsOfFile: home.root + "/state/gymlog/sync.log", encoding: .utf8)) ?? ""
        #expect(log.contains("failed: the sync server kept sending pages"), "\(log)")

        // And `gymlog sync` gets the lock at once, ends with the error, and `gymlog status` shows it
        let sync = try home.gymlog(["sync"], env: ["NO_COLOR": "1"], timeout: 200)
        #expect(!sync.timedOut, "`gymlog sync` was still pulling after 200 s")
        #expect(sync.status == 1)
        #expect(!sync.stderr.contains("Waiting for the sync already running"), "\(sync.stderr)")
        #expect(sync.stderr.contains("kept sending pages that brought nothing new") && sync.stderr.contains("stopped after ")
                && sync.stderr.contains("Local changes stay in the outbox"), "\(sync.stderr)")
        let status = try home.gymlog(["status"], env: ["NO_COLOR": "1"])
        #expect(status.stdout.contains("Last error: the sync server kept sending pages"), "\(status.stdout)")
        // And the set's changes (exercise, workout, set) are all still in the outbox
        #expect(status.stdout.contains("Outbox:     3 unsynced changes"), "\(status.stdout)")

        // When the server behaves again, then the next `gymlog sync` runs: the set is sent and
        // the error is gone
        state.behave()
        let again = try home.gymlog(["sync"], timeout: 300)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("pushed 3."), "\(again.stdout)")
        let after = try home.gymlog(["status"], env: ["NO_COLOR": "1"])
        #expect(!after.stdout.contains("Last error"), "\(after.stdout)")
        #expect(after.stdout.contains("Outbox:     0 unsynced changes"), "\(after.stdout)")
    }

    @Test func aRedirectedPushIsNotSentToTheOtherHost() async throws {
        // Given a server that redirects pushes (307 keeps the body) to another origin
        let elsewhere = try HostileHTTPServer { _, connection in
            connection.write(HostileHTTPServer.json(#"{"last_applied_seq":1,"epoch":"e1","results":[]}"#))
        }
        defer { elsewhere.stop() }
        let server = try HostileHTTPServer { _, connection in
            connection.write("HTTP/1.1 307 Temporary Redirect\r\nLocation: \(elsewhere.url.absoluteString)/v1/push\r\nContent-Length: 0\r\n\r\n")
        }
        defer { server.stop() }
        let transport = HTTPSyncTransport(baseURL: server.url, token: "glt_secret", timeout: 5)

        // When the client pushes
        let events = [PushEvent(seq: 1, idempotencyKey: "k1", entity: "sets", entityID: "s1", op: "update", fields: [:])]
        let error = await #expect(throws: SyncTransportError.self) {
            _ = try await transport.push(PushRequest(deviceID: "d", events: events))
        }
        guard case .invalidResponse(_, 307, let reason)? = error else { Issue.record("unexpected \(String(describing: error))"); return }
        #expect(reason.contains("does not follow"))

        // Then the other host never saw the push (nor the token)
        #expect(server.requests.count == 1)
        #expect(elsewhere.requests.isEmpty)
    }
}

/// How many answers a server has given, counted under a lock (answers run on many threads).
final class AnswerCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    /// Counts one more answer; its number, from 1.
    func next() -> Int { lock.withLock { count += 1; return count } }
}

/// A sync server that sends empty pull pages for ever, each saying "more to come" from a
/// cursor one step further (issue 45), and acknowledges no pushed event, until told to
/// `behave`: then it ends each pull at the furthest cursor it gave and acknowledges every push.
final class EndlessPages: @unchecked Sendable {
    private let lock = NSLock()
    private var cursor: Int64 = 0
    private var acked: Int64 = 0
    private var behaving = false

    /// From now on, answer as a gymlog-server with nothing new would.
    func behave() { lock.withLock { behaving = true } }

    func answer(_ request: String, _ connection: HostileHTTPServer.Connection) {
        if request.hasPrefix("POST /v1/push") {
            // The events' seqs, read from the body as the client writes it (`"seq":N`).
            let body = request.components(separatedBy: "\r\n\r\n").dropFirst().joined()
            let seqs = body.components(separatedBy: "\"seq\":").dropFirst().compactMap { Int64($0.prefix { $0.isNumber }) }
            guard !seqs.isEmpty else {
                let text = #"{"error":{"code":"bad_request","message":"no events in \#(request.prefix(300).debugDescription.dropFirst().dropLast())"}}"#
                connection.write("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: \(text.utf8.count)\r\n\r\n" + text)
                return
            }
            // Until it behaves, it takes nothing (a sync that pushes first then pulls for ever).
            let (last, head, taken) = lock.withLock {
                guard behaving else { return (acked, cursor, [Int64]()) }
                acked = max(acked, seqs.max() ?? 0)
                cursor += Int64(seqs.count)
                return (acked, cursor, seqs)
            }
            let results = taken.map { #"{"seq":\#($0),"status":"applied"}"# }.joined(separator: ",")
            connection.write(HostileHTTPServer.json(#"{"epoch":"e1","last_applied_seq":\#(last),"cursor":"e1:\#(head)","results":[\#(results)]}"#))
            return
        }
        let (position, more, last) = lock.withLock {
            if !behaving { cursor += 1 }
            return (cursor, !behaving, acked)
        }
        connection.write(HostileHTTPServer.json(
            #"{"epoch":"e1","changes":[],"devices":[],"cursor":"e1:\#(position)","has_more":\#(more),"last_applied_seq":\#(last)}"#))
    }
}
