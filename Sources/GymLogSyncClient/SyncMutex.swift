import Foundation
import GymLogCore

/// One sync at a time per database, across processes: an exclusive `flock` on a file next
/// to the database. A second sync waits up to `wait` seconds, then says one is running.
public final class SyncMutex {
    private let fd: Int32

    /// How long a sync typed by the user waits for one already running (a background cycle
    /// pushing a large import takes a while; a server that hangs holds it for one request's
    /// timeout, 30 s) before it gives up.
    public static let manualWait: TimeInterval = 120

    /// Takes the lock, waiting up to `wait` seconds for the sync holding it; `onWait` runs once
    /// when it has to wait, so the caller can say why nothing happens yet.
    public init(path: String, wait: TimeInterval = 5, onWait: (() -> Void)? = nil) throws {
        fd = open(path, O_RDWR | O_CREAT, 0o600)
        guard fd >= 0 else { throw UserError("Cannot open the sync lock \(path): \(String(cString: strerror(errno))).") }
        let deadline = Date().addingTimeInterval(wait)
        var waiting = false
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                close(fd)
                throw UserError("Another sync is already running for this database (waited \(Int(wait)) s for it); "
                    + "try again when it has finished (`gymlog status` shows the last one).")
            }
            if !waiting { onWait?() }
            waiting = true
            usleep(50_000)
        }
    }

    deinit { flock(fd, LOCK_UN); close(fd) }
}
