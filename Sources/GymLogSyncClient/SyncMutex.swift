import Foundation
import GymLogCore

/// One sync at a time per database, across processes: an exclusive `flock` on a file next
/// to the database. A second sync waits up to `wait` seconds, then says one is running.
public final class SyncMutex {
    private let fd: Int32

    public init(path: String, wait: TimeInterval = 5) throws {
        fd = open(path, O_RDWR | O_CREAT, 0o600)
        guard fd >= 0 else { throw UserError("Cannot open the sync lock \(path): \(String(cString: strerror(errno))).") }
        let deadline = Date().addingTimeInterval(wait)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                close(fd)
                throw UserError("Another sync is already running for this database; try again when it has finished.")
            }
            usleep(50_000)
        }
    }

    deinit { flock(fd, LOCK_UN); close(fd) }
}
