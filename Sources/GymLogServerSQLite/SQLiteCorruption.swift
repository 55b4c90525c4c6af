import Foundation
import GRDB
import Logging
import GymLogServerCore

/// A damaged SQLite store (a flipped bit on disk, a bad copy): found at start by `PRAGMA
/// quick_check`, or at run time by an access failing with SQLITE_CORRUPT or SQLITE_NOTADB.
/// From then on the store refuses writes (more writes into a malformed file make it worse),
/// `/readyz` is red, and the problem is logged once, naming the file (answers do not).
final class SQLiteCorruption: @unchecked Sendable {
    // @unchecked: `found` is only touched with `lock` held; the rest is immutable.
    let path: String
    private let logger: Logger
    private let lock = NSLock()
    private var found: String?

    init(path: String, logger: Logger) {
        self.path = path
        self.logger = logger
    }

    /// The sentence describing the damage once some was found.
    var problem: String? { lock.withLock { found } }

    /// Whether `error` says the file is damaged.
    static func isCorruption(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// What to say about a damaged database, and what to do: restore the last backup. With
    /// `path` for the operator starting the server; without it in answers to requests, which
    /// must not show where the file lives (the log line of `record` names it).
    static func advice(path: String?, detail: String) -> String {
        guard let path else {
            return "the server database is corrupt (\(detail)); stop the server and restore the last backup with `gymlog-server restore --db sqlite:PATH BACKUP_FILE` (made by `gymlog-server backup`; the server's log names the file), then start it again: devices re-send what the backup lacks."
        }
        return "the server database \(path) is corrupt (\(detail)); stop the server and restore the last backup with `gymlog-server restore --db sqlite:\(path) BACKUP_FILE` (made by `gymlog-server backup`), then start it again: devices re-send what the backup lacks."
    }

    /// Remembers the damage `detail` describes; logs it the first time only.
    func record(_ detail: String) {
        let first = lock.withLock { () -> Bool in
            guard found == nil else { return false }
            found = Self.advice(path: nil, detail: detail)
            return true
        }
        if first {
            logger.critical("database corrupt; refusing writes until it is restored", metadata: ["path": "\(path)", "detail": "\(detail)"])
        }
    }

    /// Runs a database access; when it fails because the file is damaged, the damage is
    /// recorded and the caller gets `StorageError.notReady` saying what to do (503, not 500).
    func watch<T>(_ access: () async throws -> T) async throws -> T {
        do {
            return try await access()
        } catch where Self.isCorruption(error) {
            record("\(error)")
            throw StorageError.notReady(problem ?? "\(error)")
        }
    }

    /// Throws once damage was found: a write must not go into a malformed file.
    func refuseWrites() throws {
        if let problem { throw StorageError.notReady(problem) }
    }
}
