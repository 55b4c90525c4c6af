import Foundation
import GymLogCore
@testable import GymLogStore
import GRDB

/// A controllable clock and sequential ids, so every test run writes the same rows.
final class FakeWorld: @unchecked Sendable {
    private let lock = NSLock()
    private var millis: Int64 = 1_763_700_000_000
    private var nextID: UInt64 = 1

    var environment: Environment {
        Environment(
            now: { [self] in lock.withLock { millis } },
            utcOffset: { _ in 3600 },
            newID: { [self] in
                lock.withLock {
                    defer { nextID += 1 }
                    return UUID(uuidString: String(format: "00000000-0000-4000-8000-%012llx", nextID))!
                }
            })
    }

    func advance(minutes: Int64) { lock.withLock { millis += minutes * 60_000 } }
}

/// A fresh database file in a temporary directory, removed at the end of the test process.
func temporaryDatabase(_ world: FakeWorld = FakeWorld(), settings: Settings = Settings()) throws -> GymLogDatabase {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gymlog-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return try GymLogDatabase(path: dir.appendingPathComponent("gymlog.sqlite").path, environment: world.environment, settings: settings)
}

/// Parses and logs one line the way the CLI does.
@discardableResult
func log(_ db: GymLogDatabase, _ line: String) throws -> LogResult {
    switch EntryParser.parse(line) {
    case .success(.log(let mention, let specs)): return try db.logSets(exercise: mention, specs: specs)
    case .success(.repeatLast(let patch)): return try db.repeatLast(patch)
    case .success(.undo): fatalError("use db.undoLastSet()")
    case .failure(let e): throw e
    }
}

func count(_ db: GymLogDatabase, _ sql: String) throws -> Int {
    try db.read { try Int.fetchOne($0, sql: sql) ?? -1 }
}
