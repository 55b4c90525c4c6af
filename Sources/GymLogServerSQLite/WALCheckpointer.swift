import Foundation
import GRDBSQLite
import GymLogServerCore

/// Checkpoints the WAL off the request path. The writer's WAL hook (which replaces SQLite's
/// auto-checkpoint on that connection) asks for a PASSIVE checkpoint once the WAL holds
/// `softFrames` frames (SQLite's default threshold); it runs on a second connection on a
/// serial queue, concurrently with the next requests, and the writer restarts the WAL once
/// it is fully copied. Should the background fall behind, the hook checkpoints inline past
/// `hardFrames`, as auto-checkpoint would, so the WAL stays bounded.
final class WALCheckpointer: @unchecked Sendable {
    // @unchecked: `scheduled` is only touched with `lock` held; `connection` is used only on the serial `queue`.
    static let softFrames: Int32 = 1000
    static let hardFrames: Int32 = 16_384
    private let connection: OpaquePointer
    private let queue = DispatchQueue(label: "gymlog-server.wal-checkpoint", qos: .utility)
    private let lock = NSLock()
    private var scheduled = false

    init(path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw ServerSetupError("cannot open the server database at \(path) for checkpoints: \(message).")
        }
        sqlite3_busy_timeout(handle, 10_000)
        // The checkpoint fsyncs the WAL before copying and the database file after.
        sqlite3_exec(handle, "PRAGMA synchronous = FULL", nil, nil, nil)
        connection = handle
    }

    deinit { sqlite3_close_v2(connection) }

    /// Installs the hook on the writer connection (call on the writer's queue).
    func install(on writer: OpaquePointer?) {
        sqlite3_wal_hook(writer, { context, db, name, frames in
            let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context!).takeUnretainedValue()
            if frames >= WALCheckpointer.hardFrames {
                sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            } else if frames >= WALCheckpointer.softFrames {
                checkpointer.request()
            }
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Schedules one background checkpoint unless one is already waiting.
    func request() {
        lock.lock()
        defer { lock.unlock() }
        guard !scheduled else { return }
        scheduled = true
        queue.async {
            self.lock.lock()
            self.scheduled = false
            self.lock.unlock()
            sqlite3_wal_checkpoint_v2(self.connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        }
    }
}

