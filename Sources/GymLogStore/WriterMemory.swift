import CSQLite
import Foundation
import GRDB
import GymLogCore

/// What the last write through `GymLogDatabase.commit` left behind that the next write would
/// otherwise read first: the device row's clock and sequence, and whether the undo stack holds
/// undone actions. It stands for the database only while nothing else committed since, which
/// SQLite's data version says without a statement: a logged line in the REPL starts without
/// reading the device row. Any other commit (another process, a sync, this connection outside
/// `commit`) changes the version, and the next write reads the rows again.
struct WriterMemory {
    var deviceID: String
    var clock: HLC
    var seq: Int64
    /// False only when the last write knows the stack has no undone action (it saved a new action,
    /// which clears them), so the next action need not delete any.
    var undoneActionsMayExist: Bool
    /// SQLite's data version of the database right after that commit.
    var dataVersion: UInt32

    /// The main database's data version on `db`'s connection: a counter that changes whenever
    /// any connection commits to the file (SQLITE_FCNTL_DATA_VERSION, read from the pager
    /// without a statement); nil when SQLite cannot say.
    static func dataVersion(_ db: Database) -> UInt32? {
        var version: UInt32 = 0
        guard let connection = db.sqliteConnection,
              sqlite3_file_control(connection, "main", SQLITE_FCNTL_DATA_VERSION, &version) == SQLITE_OK else { return nil }
        return version
    }

    /// This memory when it still stands for `db` (read inside the transaction, once it has begun).
    func ifCurrent(in db: Database) -> WriterMemory? {
        Self.dataVersion(db) == dataVersion ? self : nil
    }
}

/// The memory one `GymLogDatabase` keeps between its writes.
// @unchecked: its one value is read and written only under `lock`.
final class WriterMemoryBox: @unchecked Sendable {
    private let lock = NSLock()
    private var memory: WriterMemory?

    /// The memory, forgotten here: a write that fails or rolls back leaves none behind.
    func take() -> WriterMemory? { lock.withLock { defer { memory = nil }; return memory } }

    func keep(_ memory: WriterMemory) { lock.withLock { self.memory = memory } }
}
