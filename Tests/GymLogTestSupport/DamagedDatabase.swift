import Foundation
import GRDB

/// Damage done to a closed SQLite file on purpose, as a bad disk or a bad copy would.
public enum DamagedDatabase {
    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// Moves everything into the main file (a WAL checkpoint), then overwrites the root page of
    /// `table` with garbage, so reading that table fails with SQLITE_CORRUPT.
    public static func overwriteRootPage(of table: String, in path: String) throws {
        let (busy, root, pageSize) = try DatabaseQueue(path: path).writeWithoutTransaction { db in
            let checkpoint = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")!
            return (checkpoint[0] as Int, try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = ?", arguments: [table]) ?? 0,
                    try Int.fetchOne(db, sql: "PRAGMA page_size")!)
        }
        guard busy == 0, root > 0 else { throw Failure(description: "cannot damage \(table) in \(path): checkpoint busy \(busy), root page \(root)") }
        try overwrite(path, at: UInt64((root - 1) * pageSize), with: Data(repeating: 0xA5, count: pageSize))
    }

    /// Overwrites the file's first bytes, its "SQLite format 3" header: SQLITE_NOTADB.
    public static func overwriteHeader(of path: String) throws {
        try overwrite(path, at: 0, with: Data(repeating: 0xA5, count: 16))
    }

    private static func overwrite(_ path: String, at offset: UInt64, with bytes: Data) throws {
        guard let file = FileHandle(forUpdatingAtPath: path) else { throw Failure(description: "cannot open \(path) for writing") }
        try file.seek(toOffset: offset)
        try file.write(contentsOf: bytes)
        try file.close()
    }
}
