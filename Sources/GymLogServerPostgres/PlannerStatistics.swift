import Foundation
import GymLogServerCore

/// Keeps PostgreSQL's planner statistics in step with bulk writes, so query plans stay
/// index-driven on a fresh or freshly restored database instead of waiting for autovacuum.
///
/// Before `records` is analyzed the planner guesses its size (a few hundred rows where a first
/// full sync writes 20,000), and each pull page then scans and sorts every later row of the
/// user, and each push sorts the user's whole table (issue 15, measured in BENCHMARKS.md).
/// `serve` analyzes at start (a restore brings no statistics); after that, a commit that brings
/// the rows written since the last ANALYZE to half the table's size then (at least 1,000) runs
/// one, so the estimate is never off by more than half and a growing table is analyzed a
/// logarithmic number of times (ANALYZE samples at most 30,000 rows, tens of milliseconds).
final class PlannerStatistics: @unchecked Sendable {
    // @unchecked: the counters and `analyzing` are only touched with `lock` held.
    private let lock = NSLock()
    private var writtenSinceAnalyze = 0
    private var rowsAtAnalyze = 0
    private var analyzing = false

    /// The tables ANALYZE covers: everything a push or a pull plans over.
    static let tables = "users, devices, applied_keys, records"

    /// Notes `rows` written by a committed transaction; true when this caller should run
    /// ANALYZE now (then `analyzed(rows:)` when it is done).
    func noteWritten(_ rows: Int) -> Bool {
        lock.withLock {
            writtenSinceAnalyze += rows
            guard !analyzing, writtenSinceAnalyze >= max(1000, rowsAtAnalyze / 2) else { return false }
            analyzing = true
            return true
        }
    }

    /// ANALYZE finished (or failed: `rows` nil keeps the old estimate) with `rows` in `records`.
    func analyzed(rows: Int?) {
        lock.withLock {
            analyzing = false
            guard let rows else { return }
            rowsAtAnalyze = rows
            writtenSinceAnalyze = 0
        }
    }
}
