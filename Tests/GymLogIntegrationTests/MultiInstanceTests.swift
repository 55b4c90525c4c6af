import Foundation
import GRDB
import GymLogCore
import GymLogTestSupport
@testable import GymLogServer
@testable import GymLogServerCore
@testable import GymLogServerPostgres
import GymLogStore
import GymLogWire
import GymLogSyncClient
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
import SplitMix
#endif

/// Two real `gymlog-server serve` processes on one PostgreSQL database, several real client
/// databases syncing through both at once: the load-balancer setup the PostgreSQL store is for.
@Suite("Several server instances on one PostgreSQL database",
       .enabled(if: PostgresTestDatabase.isRequested, "needs GYMLOG_TEST_POSTGRES_URL (./scripts/test starts a server)"))
struct MultiInstanceTests {
    @Test(arguments: [UInt64(20251121), 7])
    func clientsSyncingThroughTwoInstancesConvergeWithNoDuplicateAndNothingMissed(seed: UInt64) async throws {
        try await PostgresTestDatabase.with { url in
            // Given two server instances on one database, and one user made with the CLI
            let one = try ServerInstance(database: url, extraArguments: ["--pool-size", "4"]), two = try ServerInstance(database: url, extraArguments: ["--pool-size", "4"])
            defer { one.stop(); two.stop() }
            let token = try one.addUser("alice")
            let servers = [URL(string: one.url)!, URL(string: two.url)!]

            // and five devices of that user, each with its own database and random routing.
            let root = try temporaryDirectory("gymlog-multi")
            defer { try? FileManager.default.removeItem(atPath: root) }
            var clients: [SimulatedDevice] = []
            for n in 0..<5 {
                clients.append(try SimulatedDevice(path: "\(root)/device\(n).sqlite", servers: servers, token: token, seed: seed &+ UInt64(n) &* 0x9E37_79B9))
            }

            // When all of them log, edit, undo and redo at random and sync at the same time,
            // every request going to either instance (small batches: many requests)...
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in clients {
                    group.addTask {
                        for _ in 0..<6 {
                            try client.randomWrites()
                            try await client.sync()
                        }
                    }
                }
                try await group.waitForAll()
            }
            // ...and then sync twice more, one after another, with no new writes,
            for _ in 0..<2 { for client in clients { try await client.sync() } }

            // then every device holds the same rows, field for field,
            let reference = try clients[0].snapshot()
            #expect(reference["sets"]?.isEmpty == false)
            for client in clients.dropFirst() {
                let snapshot = try client.snapshot()
                for table in reference.keys.sorted() {
                    #expect(snapshot[table] == reference[table], "device \(client.db.deviceID) differs in \(table)")
                }
            }
            // every outbox is empty with nothing rejected,
            var produced: Int64 = 0
            for client in clients {
                let state = try client.db.syncState()
                #expect(state.outboxDepth == 0 && state.failing.isEmpty)
                produced += state.ackedSeq
            }
            // and the server applied exactly the distinct (device, seq) events: each once.
            let location = try PostgresURL(parsing: url)
            #expect(try await PostgresAdmin.int64(location, "SELECT count(*) FROM applied_keys") == produced)
            #expect(try await PostgresAdmin.int64(location, "SELECT sum(last_applied_seq)::bigint FROM devices") == produced)
            #expect(try await PostgresAdmin.int64(location, "SELECT count(*) FROM devices") == Int64(clients.count))
            // Both instances took pushes.
            #expect(one.requests(to: "/v1/push") > 0 && two.requests(to: "/v1/push") > 0)
        }
    }
}

/// A client database driven in-process (the same code as `gymlog`), syncing through a
/// transport that sends each request to a randomly chosen server instance.
final class SimulatedDevice: @unchecked Sendable {
    let db: GymLogDatabase
    let transport: RandomRoutingTransport
    private var rng: SplitMix64
    private let exercises = ["bench", "squat", "row", "press"]

    init(path: String, servers: [URL], token: String, seed: UInt64) throws {
        db = try GymLogDatabase(path: path)
        rng = SplitMix64(seed: seed)
        transport = RandomRoutingTransport(servers: servers, token: token, seed: seed ^ 0xA5A5)
    }

    /// One to four random writes: log, repeat, edit, delete, undo, redo.
    func randomWrites() throws {
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            do {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0..<4:
                    let line = "\(exercises.randomElement(using: &rng)!) \(Int.random(in: 20...200, using: &rng))x\(Int.random(in: 1...12, using: &rng))"
                    guard case .success(.log(let mention, let specs)) = EntryParser.parse(line) else { continue }
                    _ = try db.logSets(exercise: mention, specs: specs)
                case 4:
                    _ = try db.repeatLast(SetPatch(reps: Int.random(in: 1...12, using: &rng)))
                case 5, 6:
                    _ = try db.editSet(.last, patch: SetPatch(reps: Int.random(in: 1...20, using: &rng), note: "n\(Int.random(in: 0...99, using: &rng))"))
                case 7:
                    _ = try db.undo(confirmed: true)
                case 8:
                    _ = try db.redo(confirmed: true)
                default:
                    _ = try db.deleteSet(.number(Int.random(in: 1...3, using: &rng)))
                }
            } catch is UserError {
                // Nothing to undo, no such set: a person would get a message and go on.
            }
        }
    }

    /// One sync cycle with small pages and batches, so one cycle is many requests.
    func sync() async throws {
        var engine = SyncEngine(replica: db, transport: transport)
        engine.pushBatch = 3
        engine.pullLimit = 5
        _ = try await engine.run()
    }

    /// Every synced table, every column, row by row; the `clocks` JSON compared as a map.
    func snapshot() throws -> [String: [[String: String]]] {
        try db.read { database in
            var out: [String: [[String: String]]] = [:]
            for table in EntityKind.allCases.map(\.rawValue) {
                out[table] = try Row.fetchAll(database, sql: "SELECT * FROM \(table) ORDER BY id").map { row in
                    var fields: [String: String] = [:]
                    for column in row.columnNames {
                        let value: DatabaseValue = row[column]
                        if column == "clocks", let text = String.fromDatabaseValue(value),
                           let map = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] {
                            for (k, v) in map { fields["clock." + k] = "\(v)" }
                        } else {
                            fields[column] = value.description
                        }
                    }
                    return fields
                }
            }
            return out
        }
    }
}

/// A SyncTransport that sends every request to one of several servers, chosen at random
/// (seeded) per request: pushes and pulls of one sync land on different instances.
final class RandomRoutingTransport: SyncTransport, @unchecked Sendable {
    private let transports: [HTTPSyncTransport]
    private var rng: SplitMix64
    private let lock = NSLock()

    init(servers: [URL], token: String, seed: UInt64) {
        transports = servers.map { HTTPSyncTransport(baseURL: $0, token: token) }
        rng = SplitMix64(seed: seed)
    }

    private func pick() -> HTTPSyncTransport {
        lock.lock(); defer { lock.unlock() }
        return transports[Int.random(in: 0..<transports.count, using: &rng)]
    }

    func push(_ request: PushRequest) async throws -> PushResponse { try await pick().push(request) }
    func pull(cursor: SyncCursor, limit: Int?, deviceID: String, ackedSeq: Int64?) async throws -> PullResponse {
        try await pick().pull(cursor: cursor, limit: limit, deviceID: deviceID, ackedSeq: ackedSeq)
    }
    func capabilities() async throws -> Capabilities { try await pick().capabilities() }
}


