import Foundation
import Logging

extension StorageError {
    /// What every request that needed to write is answered (503 `not_ready`) while the
    /// database's disk is full; the store's log line says which database.
    package static let diskFull = StorageError.notReady("the server's disk is full; nothing of this request was written. Try again later.")
}

/// A full disk under the database, on any backend: noticed when a write fails for want of
/// space, logged once, answered 503 (`StorageError.diskFull`) and kept out of the load
/// balancer (`checkReadiness` is red) until space returns, which the store notices by itself.
package final class DiskFullWatch: @unchecked Sendable {
    // @unchecked: `fullSince` is only touched with `lock` held.
    private let database: String
    private let logger: Logger
    // When the disk was last found full; nil while it is not.
    private let lock = NSLock()
    private var fullSince: ContinuousClock.Instant?

    /// `database` names the database in the log (a path or a redacted URL), never in an answer.
    package init(database: String, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// Whether a write failed for want of space and none has been seen to succeed since.
    package var isFull: Bool { lock.withLock { fullSince != nil } }

    /// How long ago the disk was last found full, nil while it is not.
    package var fullFor: Duration? { lock.withLock { fullSince.map { ContinuousClock.now - $0 } } }

    /// Records a write that failed for want of space (logged the first time only) and
    /// returns the error to answer it with.
    package func noteFull(_ detail: String) -> StorageError {
        let first = lock.withLock {
            defer { fullSince = ContinuousClock.now }
            return fullSince == nil
        }
        if first {
            logger.critical("the database's disk is full; writes are answered 503 until space returns",
                            metadata: ["database": "\(database)", "detail": "\(detail)"])
        }
        return .diskFull
    }

    /// Records that there is space again (a write succeeded, or readiness found room); logs
    /// the recovery once.
    package func noteSpace() {
        let wasFull = lock.withLock {
            defer { fullSince = nil }
            return fullSince != nil
        }
        if wasFull { logger.notice("the database's disk has space again; writes resume", metadata: ["database": "\(database)"]) }
    }
}
