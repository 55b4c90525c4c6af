import Foundation

/// The files and folders that hold a lifter's history are theirs alone: 0600 files in 0700
/// folders, whatever the umask, as the credentials are. SQLite would make the database 0644
/// under the usual umask (022), readable by every local user; it gives the `-wal` and `-shm`
/// files it makes later the database file's mode, so the database's mode covers all three.
public enum OwnerOnlyFiles {
    /// Makes `folder` 0700 when it does not exist (missing parents are made as usual: they are
    /// not gymlog's, like `~/.local/share`). An existing folder keeps the mode its owner gave it.
    public static func makeFolder(_ folder: String) throws {
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // The umask may have left group and other bits; the mode passed to mkdir cannot add any.
        chmod(folder, 0o700)
    }

    /// Creates `path` empty and 0600 when it does not exist (an empty file is an empty SQLite
    /// database); when it exists, takes group and other bits off it and off its `-wal` and
    /// `-shm` files, which an older gymlog left 0644. Owner bits are kept, so a file made
    /// read-only stays read-only. A file that cannot be changed here (another user's, a
    /// read-only disk) is left as it is: opening it says what is wrong, if anything.
    public static func prepareDatabase(_ path: String) {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            fchmod(fd, 0o600)
            close(fd)
            return
        }
        for file in [path, path + "-wal", path + "-shm"] { tighten(file) }
    }

    /// Takes group and other bits off an existing file; nothing when it is missing or not ours.
    static func tighten(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o077 != 0 else { return }
        chmod(path, info.st_mode & 0o700)
    }
}
