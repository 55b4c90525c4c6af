import Foundation
import GymLogCore
@testable import GymLogStore
import GRDB
import GymLogTestSupport

/// The store tests' controllable clock and sequential ids, so every run writes the same rows:
/// the shared fake clock, under the name these tests use.
typealias FakeWorld = FakeClock

/// A fresh database file in a temporary directory, removed at the end of the test process.
func temporaryDatabase(_ world: FakeWorld = FakeWorld(), settings: Settings = Settings()) throws -> GymLogDatabase {
    let dir = try temporaryDirectory("gymlog-tests")
    return try GymLogDatabase(path: dir + "/gymlog.sqlite", environment: world.environment, settings: settings)
}

/// Parses and logs one set line the way the CLI does (`GymLogDatabase.logEntry`): its first
/// exercise's result (a superset round's or a repeated round's first).
@discardableResult
func log(_ db: GymLogDatabase, _ line: String, typed: String? = nil, at: Int64? = nil) throws -> LogResult {
    switch EntryParser.parse(line) {
    case .success(.undo): fatalError("use db.undo()")
    case .success(let entry): return try db.logEntry(entry, typed: typed, at: at)[0]
    case .failure(let e): throw e
    }
}

func count(_ db: GymLogDatabase, _ sql: String) throws -> Int {
    try db.read { try Int.fetchOne($0, sql: sql) ?? -1 }
}
