import Foundation
import GymLogCore
@testable import GymLogServer
@testable import GymLogServerCore
@testable import GymLogServerSQLite
import GymLogTestSupport
import Testing

/// A damaged SQLite store, against the real `gymlog-server` binary: refused at start with the
/// file and the way out; found at run time, writes stop, /readyz turns red, one log line.
@Suite("Corrupt SQLite store")
struct CorruptionTests {
    /// A closed server database at a new temporary path holding user alice (token `token`)
    /// and a few pages of rows.
    static func databaseWithRows(token: String = "glt_corrupt") async throws -> String {
        let path = temporaryFile("gymlog-corrupt", extension: "sqlite")
        let storage = try SQLiteSyncStorage(path: path)
        let user = try await storage.newUser("alice", tokenHash: Tokens.hash(token))
        let items = (1...500).map { Script.item(Int64($0), "row-\($0)-\(String(repeating: "x", count: 40))", "reps", .int(Int64($0)), millis: 1) }
        _ = try await storage.push(user: user, deviceID: "dev", items: items, now: testNow)
        return path
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    enum Damage: String, CaseIterable, Sendable {
        case recordsPage, metaPage, header
    }

    @Test(arguments: Damage.allCases) func aCorruptDatabaseIsRefusedAtStartNamingTheFileAndTheWayOut(_ damage: Damage) async throws {
        // Given a server database with a damaged page (or header)
        let path = try await Self.databaseWithRows()
        defer { Self.remove(path) }
        switch damage {
        case .recordsPage: try DamagedDatabase.overwriteRootPage(of: "records", in: path)
        case .metaPage: try DamagedDatabase.overwriteRootPage(of: "meta", in: path)
        case .header: try DamagedDatabase.overwriteHeader(of: path)
        }
        // When the server is started on it
        let run = try ProcessRunner.runProduct("gymlog-server", ["serve", "--db", "sqlite:" + path, "--port", "0"], timeout: 60)
        // Then it does not listen; it exits saying which file is corrupt and how to get back
        #expect(run.status != 0 && !run.timedOut, "\(run.stdout) \(run.stderr)")
        #expect(!run.stdout.contains("listening on"))
        #expect(run.stderr.contains("the server database \(path) is corrupt"), "\(run.stderr)")
        #expect(run.stderr.contains("gymlog-server restore --db sqlite:\(path)"), "\(run.stderr)")
    }

    @Test func corruptionFoundAtRunTimeStopsWritesTurnsReadinessRedAndIsLoggedOnce() async throws {
        // Given a damaged fields page, and a server told to skip the check at start
        let token = "glt_corrupt"
        let path = try await Self.databaseWithRows(token: token)
        defer { Self.remove(path) }
        try DamagedDatabase.overwriteRootPage(of: "records", in: path)
        let server = try ServerInstance(database: "sqlite:" + path, extraArguments: ["--integrity-check-seconds", "0"])
        let port = try #require(Int(server.url.split(separator: ":").last ?? ""))
        func request(_ method: String, _ target: String, body: String = "") async throws -> HostileRawHTTP.Response {
            let head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
            return try await HostileRawHTTP.exchange(port: port, Array((head + body).utf8))
        }
        // Then the process is alive, and ready until something reads the damage (readiness
        // itself finds it: quick_check reads the whole file)
        #expect(try await request("GET", "/healthz").status == 200)

        // When a device pulls everything
        let pull = try await request("GET", "/v1/pull?device_id=phone&cursor=0")
        // Then it gets 503 not_ready, not a 500, and not where the file lives (issue 27: the log names it)
        #expect(pull.status == 503, "\(pull.head) \(String(decoding: pull.body, as: UTF8.self))")
        #expect(String(decoding: pull.body, as: UTF8.self).contains("is corrupt"))
        #expect(!String(decoding: pull.body, as: UTF8.self).contains(path))

        // And a push writes nothing into the damaged file
        let clock = HLC(millis: testNow, counter: 0, node: "phone").description
        let push = try await request("POST", "/v1/push", body: """
            {"device_id":"phone","events":[{"seq":1,"idempotency_key":"k1","entity":"sets","entity_id":"new","op":"create","fields":{"reps":{"v":5,"c":"\(clock)"}}}]}
            """)
        #expect(push.status == 503, "\(push.head) \(String(decoding: push.body, as: UTF8.self))")
        #expect(String(decoding: push.body, as: UTF8.self).contains("not_ready"))

        // And /readyz is red with the way out; /healthz still says the process is up
        let ready = try await request("GET", "/readyz")
        #expect(ready.status == 503)
        #expect(String(decoding: ready.body, as: UTF8.self).contains("gymlog-server restore"))
        #expect(try await request("GET", "/healthz").status == 200)

        // And the damage was logged once, with the file, however many requests met it
        _ = try await request("GET", "/v1/pull?device_id=phone&cursor=0")
        server.stop()
        let log = server.log()
        #expect(log.components(separatedBy: "database corrupt").count - 1 == 1, "\(log)")
        #expect(log.contains(path))
    }
}
