import Foundation
import GymLogTestSupport
import Testing

/// Who else on the machine can read the history: the database, its WAL and shared memory, the
/// sync lock and the folders gymlog makes are the owner's alone, whatever the umask, like the
/// credentials (issue 44, item 6). Exports still follow the umask.
@Suite struct OwnerOnlyFilesTests {
    /// The permission bits of `path`, or nil when it does not exist.
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    static func octal(_ mode: mode_t?) -> String { mode.map { String($0, radix: 8) } ?? "missing" }

    @Test func aNewHistoryItsSyncLockAndItsFoldersAreTheOwnersAlone() throws {
        // Given a lifter logged in to a server, on a machine with the usual umask (022)
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let home = try TemporaryHome(umask: 0o022)
        defer { home.remove() }
        let login = try home.login(server, token: token)
        #expect(login.status == 0, "\(login.stderr)")

        // When a set is logged from the shell (a background sync follows) and a sync is run
        let log = try home.gymlog(["log", "bench 100x5"])
        #expect(log.status == 0, "\(log.stderr)")
        #expect(try backgroundSyncsEnded(home.database), "a background sync is still running")
        let sync = try home.gymlog(["sync"])
        #expect(sync.status == 0, "\(sync.stderr)")

        // Then the database, the sync lock and the credentials are 0600, and the folders gymlog
        // made for the database, its state (sync log, history) and the credentials are 0700
        let data = (home.database as NSString).deletingLastPathComponent
        let state = home.root + "/state/gymlog", credentials = (home.credentials as NSString).deletingLastPathComponent
        for file in [home.database, home.database + ".sync-lock", home.credentials, state + "/sync.log"] {
            #expect(Self.mode(file) == 0o600, "\(file) has mode \(Self.octal(Self.mode(file)))")
        }
        for folder in [data, state, credentials] {
            #expect(Self.mode(folder) == 0o700, "\(folder) has mode \(Self.octal(Self.mode(folder)))")
        }

        // And while a session holds the database open, its WAL and shared memory are 0600 too
        let session = try home.launch([])
        session.feed(Data("squat 140x5\n".utf8), close: false)
        #expect(eventually(within: 30) { Self.mode(home.database + "-wal") != nil && Self.mode(home.database + "-shm") != nil })
        for file in [home.database + "-wal", home.database + "-shm"] {
            #expect(Self.mode(file) == 0o600, "\(file) has mode \(Self.octal(Self.mode(file)))")
        }
        session.feed(Data(), close: true)
        #expect(session.wait(timeout: 30).status == 0)

        // And an export still follows the umask: it is the lifter's to share
        let export = home.root + "/export.csv"
        #expect(try home.gymlog(["export", "--out", export]).status == 0)
        #expect(Self.mode(export) == 0o644, "\(export) has mode \(Self.octal(Self.mode(export)))")
    }

    @Test func aDatabaseAnOlderGymlogLeftReadableByAllIsTightenedWhenOpened() throws {
        // Given a database an older gymlog made 0644, with its WAL and shared memory left 0644
        let home = try TemporaryHome(umask: 0o022)
        defer { home.remove() }
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)
        for file in [home.database, home.database + "-wal", home.database + "-shm"] {
            if Self.mode(file) == nil { #expect(FileManager.default.createFile(atPath: file, contents: nil)) }
            #expect(chmod(file, 0o644) == 0)
        }

        // When gymlog opens it, even only to read
        let history = try home.gymlog(["history"])
        #expect(history.status == 0, "\(history.stderr)")

        // Then it and its WAL and shared memory are the owner's alone
        for file in [home.database, home.database + "-wal", home.database + "-shm"] where Self.mode(file) != nil {
            #expect(Self.mode(file) == 0o600, "\(file) has mode \(Self.octal(Self.mode(file)))")
        }
        #expect(Self.mode(home.database) == 0o600)
    }
}
