import Foundation
import Logging
import NIOConcurrencyHelpers

extension StorageError {
    /// What every request that needed to write is answered (503 `not_ready`) while the
    /// database's disk is full; the store's log line says which database.
    static let diskFull = StorageError.notReady("the server's disk is full; nothing of this request was written. Try again later.")
}

/// A full disk under the database, on any backend: noticed when a write fails for want of
/// space, logged once, answered 503 (`StorageError.diskFull`) and kept out of the load
/// balancer (`checkReadiness` is red) until space returns, which the store notices by itself.
final class DiskFullWatch: Sendable {
    private let database: String
    private let logger: Logger
    // When the disk was last found full; nil while it is not.
    private let fullSince = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

    /// `database` names the database in the log (a path or a redacted URL), never in an answer.
    init(database: String, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// Whether a write failed for want of space and none has been seen to succeed since.
    var isFull: Bool { fullSince.withLockedValue { $0 != nil } }

    /// How long ago the disk was last found full, nil while it is not.
    var fullFor: Duration? { fullSince.withLockedValue { $0.map { ContinuousClock.now - $0 } } }

    /// Records a write that failed for want of space (logged the first time only) and
    /// returns the error to answer it with.
    func noteFull(_ detail: String) -> StorageError {
        let first = fullSince.withLockedValue { since in
            defer { since = ContinuousClock.now }
            return since == nil
        }
        if first {
            logger.critical("the database's disk is full; writes are answered 503 until space returns",
                            metadata: ["database": "\(database)", "detail": "\(detail)"])
        }
        return .diskFull
    }

    /// Records that there is space again (a write succeeded, or readiness found room); logs
    /// the recovery once.
    func noteSpace() {
        let wasFull = fullSince.withLockedValue { since in
            defer { since = nil }
            return since != nil
        }
        if wasFull { logger.notice("the database's disk has space again; writes resume", metadata: ["database": "\(database)"]) }
    }
}
