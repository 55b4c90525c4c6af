import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GymLogCore
import GymLogSyncClient
import GymLogTestSupport
import GymLogWire
import Testing

/// A real gymlog-server behind a proxy that rewrites its answers: what a malicious server (or
/// whoever holds its machine) can do to the real client binaries. The proxy sees every request
/// and answer; `rewrite` changes a pull page's JSON before the client reads it.
final class RewritingProxy: @unchecked Sendable {
    /// Changes an answer's JSON body for the request line it answers; nil leaves it as it is.
    typealias Rewrite = @Sendable (_ requestLine: String, _ body: [String: Any]) -> [String: Any]?
    /// Changes an answer's bytes (text no JSON writer makes: invalid UTF-8, a key twice).
    typealias RawRewrite = @Sendable (_ requestLine: String, _ body: Data) -> Data?

    private let upstream: Int
    private let lock = NSLock()
    private var rewrite: RawRewrite?
    private var pushBodies: [String] = []
    private var server: HostileHTTPServer!

    init(upstream: ServerInstance) throws {
        guard let port = Int(upstream.url.split(separator: ":").last.map(String.init) ?? "") else { throw POSIXError(.EINVAL) }
        self.upstream = port
        server = try HostileHTTPServer { [unowned self] request, connection in self.forward(request, connection) }
    }

    var url: String { server.url.absoluteString }
    func stop() { server.stop() }

    /// From now on, answers pass through `rewrite`.
    func rewriting(_ rewrite: @escaping Rewrite) {
        rewritingBytes { line, body in
            guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any], let changed = rewrite(line, object) else { return nil }
            return try? JSONSerialization.data(withJSONObject: changed)
        }
    }

    /// From now on, answers' bytes pass through `rewrite`.
    func rewritingBytes(_ rewrite: RawRewrite?) { lock.withLock { self.rewrite = rewrite } }

    /// The JSON bodies of the pushes sent so far.
    var pushes: [String] { lock.withLock { pushBodies } }

    private func forward(_ request: String, _ connection: HostileHTTPServer.Connection) {
        let requestLine = String(request.prefix { $0 != "\r" })
        if requestLine.hasPrefix("POST /v1/push"), let end = request.range(of: "\r\n\r\n") {
            lock.withLock { pushBodies.append(String(request[end.upperBound...])) }
        }
        // One request per upstream connection: the answer ends where the connection does.
        var lines = request.components(separatedBy: "\r\n")
        lines.removeAll { $0.lowercased().hasPrefix("connection:") }
        lines.insert("Connection: close", at: 1)
        guard let (status, body) = Self.exchange(lines.joined(separator: "\r\n"), port: upstream) else { return }
        var out = body
        if let rewrite = lock.withLock({ self.rewrite }), let changed = rewrite(requestLine, body) { out = changed }
        connection.write("HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(out.count)\r\n\r\n")
        connection.writeBytes(out)
    }

    /// Sends `request` to the upstream port and reads the whole answer: its status line's code
    /// and reason, and its body (de-chunked).
    private static func exchange(_ request: String, port: Int) -> (String, Data)? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { return nil }
        var bytes = Array(request.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return nil }
            bytes = bytes.dropFirst(n)
        }
        var answer = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            answer.append(contentsOf: chunk[0..<n])
        }
        guard let split = answer.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: answer[..<split.lowerBound], as: UTF8.self)
        var body = Data(answer[split.upperBound...])
        if head.lowercased().contains("transfer-encoding: chunked") {
            var plain = Data(), rest = body[...]
            while let line = rest.range(of: Data("\r\n".utf8)), let size = Int(String(decoding: rest[..<line.lowerBound], as: UTF8.self), radix: 16), size > 0 {
                plain.append(rest[line.upperBound..<line.upperBound + size])
                rest = rest[(line.upperBound + size + 2)...]
            }
            body = plain
        }
        let status = head.split(separator: "\r\n").first.map { $0.split(separator: " ", maxSplits: 1).dropFirst().joined() } ?? "502 Bad Gateway"
        return (status, body)
    }
}

/// Issue 45: the lifter does not have to trust the server. Each attack is acted out by a proxy
/// in front of a real server, against the real `gymlog` binary.
@Suite("The client against a malicious server", .serialized)
struct MaliciousServerTests {
    /// The sealed values pushed for `field` of `entity`, in push order, with their clocks.
    static func pushedValues(_ proxy: RewritingProxy, entity: String, field: String) -> [(entityID: String, value: String, clock: String)] {
        proxy.pushes.flatMap { body -> [(String, String, String)] in
            guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
                  let events = object["events"] as? [[String: Any]] else { return [] }
            return events.compactMap { event in
                guard event["entity"] as? String == entity, let id = event["entity_id"] as? String,
                      let fields = event["fields"] as? [String: Any], let f = fields[field] as? [String: Any],
                      let v = f["v"] as? String, let c = f["c"] as? String else { return nil }
                return (id, v, c)
            }
        }
    }

    /// A pull page (v2) with one more change: `fields` of the row under `clock` (full HLC text).
    static func withChange(_ page: [String: Any], entity: String, entityID: String, clock: String, fields: [String: Any]) -> [String: Any] {
        var page = page
        let parts = clock.split(separator: "-", maxSplits: 2).map(String.init)
        var devices = page["devices"] as? [String] ?? []
        devices.append(parts[2])
        var changes = page["changes"] as? [[String: Any]] ?? []
        changes.append(["entity": entity, "entity_id": entityID, "clock": parts[0] + "-" + parts[1], "device": devices.count - 1, "fields": fields])
        page["devices"] = devices
        page["changes"] = changes
        return page
    }

    /// The same clock a second later.
    static func later(_ clock: String) -> String {
        let parts = clock.split(separator: "-", maxSplits: 2).map(String.init)
        return String(format: "%015lld", Int64(parts[0])! + 1000) + "-" + parts[1] + "-" + parts[2]
    }

    @Test func anOlderSealedValueReplayedUnderANewerClockIsRefusedAndTheCurrentOneKept() throws {
        // Given an encrypted account whose first device wrote a workout note twice and deleted a
        // set, and a second device that synced all of it, both through the proxy
        let server = try ServerInstance()
        let token = try server.addUser("lifter")
        let proxy = try RewritingProxy(upstream: server)
        defer { proxy.stop() }
        let a = try TemporaryHome(), b = try TemporaryHome()
        defer { a.remove(); b.remove() }
        #expect(try a.gymlog(["login", "--server", proxy.url, "--token", token]).status == 0)
        let phrase = try #require(try a.accountKeyPhrase())
        #expect(try a.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try a.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try a.gymlog(["note", "old plan"]).status == 0)
        #expect(try a.gymlog(["sync"]).status == 0)
        #expect(try a.gymlog(["note", "new plan"]).status == 0)
        #expect(try a.gymlog(["delete", "2"]).status == 0)
        #expect(try a.gymlog(["sync"]).status == 0)
        #expect(try b.gymlog(["login", "--server", proxy.url, "--token", token], stdin: phrase + "\n").status == 0)
        #expect(try b.gymlog(["sync"]).status == 0)
        #expect(try b.gymlog(["show"], env: ["NO_COLOR": "1"]).stdout.contains("new plan"))
        let notes = Self.pushedValues(proxy, entity: "workouts", field: "note")
        let tombstones = Self.pushedValues(proxy, entity: "sets", field: tombstoneField)
        // (the workout's create carries its note too: null)
        try #require(notes.count == 3 && tombstones.count >= 2, "notes \(notes.count), tombstones \(tombstones.count)")
        let (oldNote, newNote) = (notes[1], notes[2])
        let deleted = try #require(tombstones.last)
        let undeleted = try #require(tombstones.first { $0.entityID == deleted.entityID && $0.clock != deleted.clock })

        // When the server answers B's next pull with the old note and the set's old "not
        // deleted" value, each under a clock newer than the current one
        proxy.rewriting { line, page in
            guard line.hasPrefix("GET /v2/pull") else { return nil }
            let withNote = Self.withChange(page, entity: "workouts", entityID: oldNote.entityID, clock: Self.later(newNote.clock),
                                           fields: ["note": oldNote.value])
            return Self.withChange(withNote, entity: "sets", entityID: deleted.entityID, clock: Self.later(deleted.clock),
                                   fields: [tombstoneField: undeleted.value])
        }
        let sync = try b.gymlog(["sync"], env: ["NO_COLOR": "1"])

        // Then neither is applied: the note is the current one, the set stays deleted
        #expect(sync.stdout.contains("(0 fields merged)"), "\(sync.stdout)")
        #expect(sync.stderr.contains("2 pulled changes could not be applied") && sync.stderr.contains("set aside"), "\(sync.stderr)")
        let show = try b.gymlog(["show"], env: ["NO_COLOR": "1"]).stdout
        #expect(show.contains("new plan") && !show.contains("old plan"), "\(show)")
        #expect(show.components(separatedBy: "100kg").count - 1 == 1 || show.components(separatedBy: "100 kg").count - 1 == 1, "\(show)")
        // And `status` names both as set aside, with why
        let status = try b.gymlog(["status"], env: ["NO_COLOR": "1"]).stdout
        #expect(status.contains("another write's clock"), "\(status)")
        #expect(status.contains("workouts") && status.contains("sets"), "\(status)")
    }

    /// Issue 45 (6): a change past the protocol's limits, or one that does not read, is set
    /// aside whole (kept, shown in `status`, never applied) and costs itself only: the rest of
    /// its page applies, and the next pull does not fail on it again.
    @Test func valuesPastTheProtocolsLimitsAndUnreadableChangesCostOnlyThemselves() async throws {
        // Given an account the server keeps in the clear (made by a gymlog from before
        // encryption) and a device that logged a set and synced through the proxy
        let server = try ServerInstance()
        let token = try server.addUser("plain")
        let clock = HLC(millis: 1_763_719_000_000, counter: 0, node: "old-device")
        _ = try await HTTPSyncTransport(baseURL: URL(string: server.url)!, token: token).push(PushRequest(deviceID: "old-device", events: [
            PushEvent(seq: 1, idempotencyKey: "k1", entity: "exercises", entityID: "0193a1b2-0000-7000-8000-000000000002", op: "create",
                      fields: ["name": WireField(v: .text("Pendlay Row"), c: clock), "kind": WireField(v: .text("weighted"), c: clock)]),
        ]))
        let proxy = try RewritingProxy(upstream: server)
        defer { proxy.stop() }
        let a = try TemporaryHome()
        defer { a.remove() }
        #expect(try a.gymlog(["login", "--server", proxy.url, "--token", token]).status == 0)
        #expect(try a.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try a.gymlog(["sync"]).status == 0)
        let workout = try #require(Self.pushedValues(proxy, entity: "workouts", field: "started_at").first?.entityID
            ?? Self.pushedRows(proxy, entity: "workouts").first)
        let set = try #require(Self.pushedRows(proxy, entity: "sets").first)

        // When the next pull page brings, besides one good change (the workout's note), seven
        // that no gymlog writes: a 100 KB note, a field named like SQL, a name with a NUL, a
        // boolean value, a number past any double, invalid UTF-8 and a key twice
        let now = String(format: "%015lld", Int64(Date().timeIntervalSince1970 * 1000))
        let big = String(repeating: "x", count: 100_000)
        proxy.rewritingBytes { line, body in
            guard line.hasPrefix("GET /v2/pull"), var page = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
            var devices = page["devices"] as? [String] ?? []
            devices.append("evil-device")
            let d = devices.count - 1
            page["devices"] = devices
            page["changes"] = [] as [Any]
            var text = String(decoding: try! JSONSerialization.data(withJSONObject: page), as: UTF8.self)
            let change = { (entity: String, id: String, counter: Int, fields: String) in
                #"{"entity":"\#(entity)","entity_id":"\#(id)","clock":"\#(now)-\#(String(format: "%05d", counter))","device":\#(d),"fields":\#(fields)}"#
            }
            let changes = [
                change("workouts", workout, 1, #"{"note":"from the other device"}"#),
                change("workouts", "0193a1b2-0000-7000-8000-0000000000a1", 2, #"{"note":"\#(big)"}"#),
                change("sets", set, 3, #"{"evil_col; drop table sets":"x"}"#),
                change("exercises", "0193a1b2-0000-7000-8000-0000000000a2", 4, #"{"name":"Bench\u0000Press","kind":"weighted"}"#),
                change("sets", "0193a1b2-0000-7000-8000-0000000000a3", 5, #"{"reps":true}"#),
                change("sets", "0193a1b2-0000-7000-8000-0000000000a4", 6, #"{"reps":1e400}"#),
                change("workouts", "0193a1b2-0000-7000-8000-0000000000a5", 7, #"{"note":"bad \#u{FF}"}"#),
                change("workouts", "0193a1b2-0000-7000-8000-0000000000a6", 8, #"{"note":"first-of-two","note":"second-of-two"}"#),
            ]
            text = text.replacingOccurrences(of: #""changes":[]"#, with: #""changes":["# + changes.joined(separator: ",") + "]")
            var bytes = Data(text.utf8)
            // The one invalid UTF-8 byte: the placeholder ÿ (C3 BF) becomes a lone FF
            if let r = bytes.range(of: Data("bad \u{FF}".utf8)) { bytes.replaceSubrange(r, with: Data("bad ".utf8) + Data([0xFF])) }
            return bytes
        }
        let sync = try a.gymlog(["sync"], env: ["NO_COLOR": "1"])
        proxy.rewritingBytes(nil)

        // Then the sync succeeds, the good change is applied, and the seven are set aside
        #expect(sync.status == 0, "\(sync.stdout)\(sync.stderr)")
        #expect(sync.stderr.contains("7 pulled changes could not be applied"), "\(sync.stderr)")
        let show = try a.gymlog(["show"], env: ["NO_COLOR": "1"]).stdout
        #expect(show.contains("from the other device"), "\(show)")
        let status = try a.gymlog(["status"], env: ["NO_COLOR": "1"]).stdout
        for reason in ["at most 16384", "which no gymlog writes", "NUL character", "not readable JSON", "does not read"] {
            #expect(status.contains(reason), "\(reason) not in: \(status)")
        }
        // And nothing of them reached the database, and the next sync has nothing to trip on
        let export = try a.gymlog(["export"]).stdout
        #expect(!export.contains("Bench") || !export.contains("Press\u{0}"), "\(export)")
        #expect(!export.contains("first-of-two") && !export.contains("second-of-two") && !export.contains(big.prefix(100)))
        let again = try a.gymlog(["sync"], env: ["NO_COLOR": "1"])
        #expect(again.status == 0, "\(again.stderr)")
    }

    /// The row ids of `entity` in the pushes so far.
    static func pushedRows(_ proxy: RewritingProxy, entity: String) -> [String] {
        proxy.pushes.flatMap { body -> [String] in
            guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
                  let events = object["events"] as? [[String: Any]] else { return [] }
            return events.compactMap { $0["entity"] as? String == entity ? $0["entity_id"] as? String : nil }
        }
    }
}
