import Foundation
import GymLogTestSupport
import Testing

/// The sync that runs by itself from the shell: the real `gymlog` against a real
/// `gymlog-server` on loopback, with nobody typing `gymlog sync` on the device that writes.
@Suite struct AutoSyncTests {
    /// Waits until the server logged `count` requests to `path` (its log line may follow the
    /// answer by a moment), at most ten seconds, and returns how many it logged.
    private func requests(_ server: ServerInstance, to path: String, reaching count: Int) -> Int {
        let deadline = Date().addingTimeInterval(10)
        while server.requests(to: path) < count, Date() < deadline { usleep(50_000) }
        return server.requests(to: path)
    }

    private func loggedIn(_ server: ServerInstance, token: String) throws -> TemporaryHome {
        let home = try TemporaryHome()
        let login = try home.login(server, token: token)
        #expect(login.status == 0, "\(login.stderr)")
        return home
    }

    @Test func aSetLoggedFromTheShellReachesTheServerWithoutSyncAndLeavesNoProcess() throws {
        // Given a phone and a laptop logged in to one account
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let phone = try loggedIn(server, token: token)
        defer { phone.remove() }

        // When the phone logs a set and nothing else is typed
        let log = try phone.gymlog(["log", "bench 100x5"])
        #expect(log.status == 0, "\(log.stderr)")

        // Then a background sync sends it and ends, leaving no process behind
        #expect(try backgroundSyncsEnded(phone.database), "a background sync is still running")
        let status = try phone.gymlog(["status"])
        #expect(status.stdout.contains("0 unsynced changes") && status.stdout.contains("Auto sync:  on"), "\(status.stdout)")
        #expect(requests(server, to: "/v1/push", reaching: 1) == 1, "\(server.log())")
        let syncLog = try String(contentsOfFile: phone.root + "/state/gymlog/sync.log", encoding: .utf8)
        #expect(syncLog.contains("synced with \(server.url)") && syncLog.contains("pushed 3"), "\(syncLog)")

        // And a background cycle due to nothing (nothing pending, the last pull fresh) sends nothing
        let pulls = server.requests(to: "/v2/pull")
        #expect(try phone.gymlog(["sync", "--background", "--db", phone.database]).status == 0)
        #expect(server.requests(to: "/v2/pull") == pulls && server.requests(to: "/v1/push") == 1, "\(server.log())")

        // And another device that syncs reads it back
        let laptop = try loggedIn(server, token: token)
        defer { laptop.remove() }
        #expect(try laptop.gymlog(["sync"]).status == 0)
        let history = try laptop.gymlog(["history", "bench"])
        #expect(history.stdout.contains("100") && history.stdout.contains("x 5"), "\(history.stdout) \(history.stderr)")
        #expect(try backgroundSyncsEnded(laptop.database))
    }

    @Test func aBackgroundSyncThatFindsTheLockHeldLeavesAtOnce() throws {
        // Given a device whose sync lock another cycle holds
        let server = try ServerInstance()
        let home = try loggedIn(server, token: try server.addUser("alice"))
        defer { home.remove() }
        try FileManager.default.createDirectory(atPath: (home.database as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let lock = open(home.database + ".sync-lock", O_RDWR | O_CREAT, 0o600)
        #expect(lock >= 0 && flock(lock, LOCK_EX) == 0)

        // When sets are logged meanwhile
        for line in ["bench 100x5", "bench 100x5", "squat 140x3"] { #expect(try home.gymlog(["log", line]).status == 0) }

        // Then their background syncs end without waiting for the lock, having sent nothing
        #expect(try backgroundSyncsEnded(home.database), "a background sync waits for the lock")
        #expect(server.requests(to: "/v1/push") == 0, "\(server.log())")
        flock(lock, LOCK_UN)
        close(lock)

        // And the next sync sends all of it at once
        let sync = try home.gymlog(["sync"])
        #expect(sync.status == 0 && sync.stdout.contains("pushed 6"), "\(sync.stdout) \(sync.stderr)")
    }

    @Test func autoOffSendsNothing() throws {
        // Given a device logged in with sync.auto = false in its config
        let server = try ServerInstance()
        let home = try loggedIn(server, token: try server.addUser("alice"))
        defer { home.remove() }
        try home.turnOffAutoSync()

        // When a set is logged
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)

        // Then no background sync started, nothing was pushed, and status says auto sync is off
        #expect(try backgroundSyncs(of: home.database).isEmpty)
        #expect(server.requests(to: "/v1/push") == 0, "\(server.log())")
        let status = try home.gymlog(["status"])
        #expect(status.stdout.contains("3 unsynced changes") && status.stdout.contains("Auto sync:  off (sync.auto = false"), "\(status.stdout)")
    }

    @Test func aServerThatNeverAnswersCostsTheCommandNothingAndTheFailureIsShown() throws {
        // Given a device whose server accepts connections and never answers
        let listener = try HangingListener()
        let home = try TemporaryHome()
        defer { home.remove() }
        try FileManager.default.createDirectory(atPath: (home.credentials as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "server = \"http://127.0.0.1:\(listener.port)\"\ntoken = \"glt_x\"\n".write(toFile: home.credentials, atomically: true, encoding: .utf8)

        // When a set is logged
        let log = try home.gymlog(["log", "bench 100x5"])

        // Then the command is done while its background sync still waits for the server
        #expect(log.status == 0 && log.stderr.isEmpty, "\(log.stderr)")
        #expect(try !backgroundSyncs(of: home.database).isEmpty, "no background sync was started")

        // And when the server goes away, the background sync ends and status shows the error and the next try
        listener.close()
        #expect(try backgroundSyncsEnded(home.database))
        let status = try home.gymlog(["status"])
        #expect(status.stdout.contains("Last error: cannot reach the sync server") && status.stdout.contains("Next try:   after"), "\(status.stdout)")
        #expect(status.stdout.contains("3 unsynced changes"), "\(status.stdout)")
    }

    @Test func aRefusedTokenIsShownOnceAndNotRetriedUntilLogin() throws {
        // Given a device whose token the operator rotated
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let home = try loggedIn(server, token: token)
        defer { home.remove() }
        let rotate = try ProcessRunner.runProduct("gymlog-server", ["user", "rotate", "alice", "--db", server.database])
        let newToken = String(rotate.stdout.split(separator: "\n").last ?? "")
        #expect(rotate.status == 0 && newToken.hasPrefix("glt_"), "\(rotate.stderr)")

        // When a set is logged, its background sync is refused
        let pullsBefore = server.requests(to: "/v2/pull")
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try backgroundSyncsEnded(home.database))
        let refused = requests(server, to: "/v2/pull", reaching: pullsBefore + 1)
        #expect(refused == pullsBefore + 1, "\(server.log())")

        // Then the next command says so once, with what to do, and starts no sync; the one after is quiet
        let second = try home.gymlog(["log", "bench 100x5"])
        #expect(second.status == 0 && second.stderr.contains("Sync by itself is stopped") && second.stderr.contains("gymlog login"), "\(second.stderr)")
        #expect(try backgroundSyncs(of: home.database).isEmpty)
        let third = try home.gymlog(["log", "bench 100x5"])
        #expect(third.status == 0 && third.stderr.isEmpty, "\(third.stderr)")
        #expect(try backgroundSyncs(of: home.database).isEmpty)
        #expect(server.requests(to: "/v2/pull") == refused, "the refused token was tried again: \(server.log())")
        // And status keeps showing it
        let status = try home.gymlog(["status"])
        #expect(status.stdout.contains("Auto sync:  stopped") && status.stdout.contains("gymlog login") && status.stdout.contains("5 unsynced changes"),
                "\(status.stdout)")

        // And after a login with the new token the kept changes go up by themselves
        #expect(try home.gymlog(["login", "--server", server.url, "--token", newToken]).status == 0)
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try backgroundSyncsEnded(home.database))
        let after = try home.gymlog(["status"])
        #expect(after.stdout.contains("0 unsynced changes") && !after.stdout.contains("Last error"), "\(after.stdout)")
    }
}

/// A loopback port that accepts connections and never answers: a server that hangs.
private final class HangingListener {
    private var fd: Int32
    let port: UInt16

    init() throws { (fd, port) = try loopbackListener() }

    /// Stops listening: the connections waiting to be accepted are reset.
    func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    deinit { close() }
}
