import Foundation
import GRDB
import GymLogCore
@testable import GymLogCLI
import GymLogStore
import GymLogWire
import GymLogSyncClient
import Testing

/// The real `gymlog` client against the real `gymlog-server` on a loopback port.
@Suite(.serialized) struct ClientSyncTests {
    @Test func twoDevicesConvergeThroughCreateEditDeleteAndUndo() throws {
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let a = try ClientDevice(server: server, token: token), b = try ClientDevice(server: server, token: token)

        // Given sets logged on A and synced to B
        try a.run(["log", "bench 100x5x3"])
        try a.sync(); try b.sync()
        #expect(try b.liveSets() == a.liveSets())
        #expect(try b.liveSets().count == 3)

        // When A fixes a weight and B adds a note to the same set (different fields)
        try a.run(["repl"], stdin: "edit 1 102.5\n")
        try b.run(["repl"], stdin: "edit 1 # paused\n")
        // and B deletes the last set while A edits it (an older-or-concurrent write)
        try b.run(["undo"])
        try a.run(["repl"], stdin: "edit 3 x4\n")
        try b.sync(); try a.sync(); try b.sync(); try a.sync()

        // Then both edits survive, the deleted set stays deleted, and both hold the same rows
        let sets = try a.allSets()
        #expect(sets == (try b.allSets()))
        #expect(sets.filter { $0.deleted }.count == 1)
        let first = try #require(sets.first)
        #expect(first.weight == "102.5" && first.note == "paused")

        // When B restores it (an explicit, newer undo), it comes back everywhere
        try b.run(["repl"], stdin: "redo\n")
        try b.sync(); try a.sync()
        #expect(try a.allSets().filter { $0.deleted }.isEmpty)
        #expect(try a.allSets() == (try b.allSets()))
        #expect(try a.outboxDepth() == 0 && (try b.outboxDepth()) == 0)
    }

    @Test func aThirdDeviceGetsTheWholeHistoryAndNoSyncDuplicatesAnything() throws {
        let server = try ServerInstance()
        let token = try server.addUser("carol")
        let a = try ClientDevice(server: server, token: token), b = try ClientDevice(server: server, token: token)
        try a.run(["log", "squat 140x5x3"]); try b.run(["log", "squat 150x3"])
        try a.sync(); try b.sync(); try a.sync()
        let c = try ClientDevice(server: server, token: token)
        try c.sync(); try c.sync()
        #expect(try c.allSets().count == 4)
        #expect(try c.allSets() == (try a.allSets()))
        #expect(try c.allSets() == (try b.allSets()))
        #expect(try c.exerciseCount() == 1, "the same exercise created on two devices is one exercise")
    }

    @Test func twoSyncProcessesAtOnceNeverSayDatabaseIsLocked() throws {
        let server = try ServerInstance()
        let token = try server.addUser("dave")
        let a = try ClientDevice(server: server, token: token)
        for i in 0..<20 { try a.run(["log", "row \(50 + i)x10x5"]) }
        let runs = try a.runConcurrently(["sync"], count: 2)
        for r in runs {
            #expect(!r.stderr.contains("locked"), "\(r.stderr)")
            #expect(r.status == 0 || r.stderr.contains("already running"))
        }
        #expect(runs.contains { $0.status == 0 })
        try a.sync()
        #expect(try a.outboxDepth() == 0)
        let b = try ClientDevice(server: server, token: token)
        try b.sync()
        #expect(try b.allSets().count == 100)
    }

    @Test func anotherUsersTokenSeesAndChangesNothing() throws {
        let server = try ServerInstance()
        let alice = try ClientDevice(server: server, token: try server.addUser("alice2"))
        let mallory = try ClientDevice(server: server, token: try server.addUser("mallory"))
        try alice.run(["log", "deadlift 200x5"])
        try alice.sync()
        try mallory.sync()
        #expect(try mallory.allSets().isEmpty)
        // Mallory writes rows with the same exercise id (derived from the name): Alice's stay hers.
        try mallory.run(["log", "deadlift 20x5"])
        try mallory.sync(); try alice.sync()
        #expect(try alice.allSets().map(\.weight) == ["200"])
    }

    @Test func offlineSyncFailsWithOneLineAndKeepsTheOutbox() throws {
        let server = try ServerInstance()
        let a = try ClientDevice(server: server, token: try server.addUser("erin"))
        try a.run(["log", "bench 100x5"])
        server.stop()
        let run = try a.run(["sync"], expect: 1)
        #expect(run.stderr.contains("cannot reach the sync server"))
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(try a.outboxDepth() == 3)
    }

    @Test func aPushWhoseAnswerIsLostIsAppliedOnceAndHealedByThePull() async throws {
        let server = try ServerInstance()
        let token = try server.addUser("frank")
        let a = try ClientDevice(server: server, token: token)
        try a.run(["log", "press 60x5x2"])
        let db = try GymLogDatabase(path: a.database)
        let real = HTTPSyncTransport(baseURL: URL(string: server.url)!, token: token)
        // When the server commits the push but the answer never arrives
        let lossy = DropPushAnswer(inner: real)
        await #expect(throws: (any Error).self) { try await SyncEngine(replica: DatabaseReplica(db: db), transport: lossy).run() }
        #expect(try a.outboxDepth() == 4, "nothing acknowledged yet")
        // Then the next cycle learns the ack from its pull, deletes the events and pushes nothing twice
        let report = try await SyncEngine(replica: DatabaseReplica(db: db), transport: real).run()
        #expect(report.pushed == 0)
        #expect(try a.outboxDepth() == 0)
        let b = try ClientDevice(server: server, token: token)
        try b.sync()
        #expect(try b.allSets().count == 2)
    }
}

/// A transport whose push reaches the server but whose answer is lost.
struct DropPushAnswer: SyncTransport {
    let inner: HTTPSyncTransport
    func push(_ request: PushRequest) async throws -> PushResponse {
        _ = try await inner.push(request)
        throw SyncTransportError.unreachable(server: "test", reason: "connection reset")
    }
    func pull(cursor: SyncCursor, limit: Int?, deviceID: String, ackedSeq: Int64?) async throws -> PullResponse {
        try await inner.pull(cursor: cursor, limit: limit, deviceID: deviceID, ackedSeq: ackedSeq)
    }
    func capabilities() async throws -> Capabilities { try await inner.capabilities() }
}

/// A set as compared across devices: every synced field, tombstone included.
struct SetRow: Equatable {
    var id: String, weight: String?, reps: Int?, note: String?, deleted: Bool
}

/// One client database with its own config, driven through the real `gymlog` binary.
struct ClientDevice {
    let root: String
    var database: String { root + "/gymlog.sqlite" }
    var config: String { root + "/config.toml" }

    /// A fresh folder; logged in to `server` when one is given (an offline device otherwise).
    init(server: ServerInstance? = nil, token: String = "") throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("gymlog-device-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        if let server { try run(["login", "--server", server.url, "--token", token]) }
    }

    struct Run { var status: Int32; var stdout: String; var stderr: String }

    @discardableResult
    func run(_ args: [String], stdin: String = "", expect: Int32 = 0) throws -> Run {
        let r = try start(args, stdin: stdin)()
        if r.status != expect { Issue.record("gymlog \(args.joined(separator: " ")) exited \(r.status): \(r.stderr)") }
        return r
    }

    func sync() throws { try run(["sync"]) }

    func runConcurrently(_ args: [String], count: Int) throws -> [Run] {
        let waits = try (0..<count).map { _ in try start(args, stdin: "") }
        return waits.map { $0() }
    }

    /// A running `gymlog` on this device whose pipes the caller drives (feeds, reads, kills).
    struct Launched { var process: Process; var input: FileHandle; var output: FileHandle; var error: FileHandle }

    /// Starts `gymlog args` without waiting for it.
    func launch(_ args: [String]) throws -> Launched {
        let p = Process()
        p.executableURL = builtProducts.appendingPathComponent("gymlog")
        p.arguments = args
        p.environment = ["HOME": root, "GYMLOG_DB": database, "GYMLOG_CONFIG": config, "TZ": "UTC"]
        let input = Pipe(), output = Pipe(), error = Pipe()
        p.standardInput = input; p.standardOutput = output; p.standardError = error
        try p.run()
        return Launched(process: p, input: input.fileHandleForWriting, output: output.fileHandleForReading, error: error.fileHandleForReading)
    }

    private func start(_ args: [String], stdin: String) throws -> () -> Run {
        let launched = try launch(args)
        let p = launched.process, output = launched.output, error = launched.error
        launched.input.write(Data(stdin.utf8))
        try launched.input.close()
        return {
            let out = output.readDataToEndOfFile()
            let err = error.readDataToEndOfFile()
            p.waitUntilExit()
            return Run(status: p.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
        }
    }

    private func query<T>(_ body: (Database) throws -> T) throws -> T {
        try DatabaseQueue(path: database).read(body)
    }

    func allSets() throws -> [SetRow] {
        try query { db in
            try Row.fetchAll(db, sql: "SELECT id, weight, reps, note, deleted_at IS NOT NULL FROM sets ORDER BY performed_at, id").map {
                SetRow(id: $0[0], weight: $0[1], reps: $0[2], note: $0[3], deleted: $0[4])
            }
        }
    }

    func liveSets() throws -> [SetRow] { try allSets().filter { !$0.deleted } }
    func outboxDepth() throws -> Int { try query { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM outbox") ?? -1 } }
    func exerciseCount() throws -> Int { try query { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM exercises") ?? -1 } }
    func setCount() throws -> Int { try query { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sets") ?? -1 } }
}

var builtProducts: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }
