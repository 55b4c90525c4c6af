import Foundation
import GymLogCore
import GymLogTestSupport
import Testing

/// What `gymlog-server` says about itself and refuses at start (issue 49: a server to hand to
/// friends), run as the real binaries.
@Suite("Server start and version")
struct ServerStartTests {
    /// Item 4: one release number, from both binaries.
    @Test func bothBinariesPrintTheOneVersion() throws {
        let client = try ProcessRunner.runProduct("gymlog", ["--version"])
        let server = try ProcessRunner.runProduct("gymlog-server", ["--version"])
        #expect(server.status == 0, "\(server.stderr)")
        #expect(server.stdout == gymlogVersion + "\n", "\(server.stdout)")
        #expect(client.stdout == server.stdout)
        #expect(gymlogVersion == "0.12.0")
    }

    /// Item 4: `gymlog status` names the version too (offline: a device's report says which gymlog wrote it).
    @Test func statusNamesTheVersion() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let text = try home.gymlog(["status"])
        #expect(text.stdout.contains("Version:    gymlog \(gymlogVersion)"), "\(text.stdout)")
        let json = try home.gymlog(["status", "--json"])
        #expect(json.stdout.contains("\"version\": \"\(gymlogVersion)\""), "\(json.stdout)")
    }

    /// Item 2: a second `serve` on a SQLite file a running server holds is refused, naming
    /// the other process, and the first keeps serving (it used to migrate the file under the
    /// first, which then failed every request).
    @Test func aSecondServeOnAHeldSQLiteFileIsRefused() throws {
        let first = try ServerInstance()
        defer { first.stop() }
        _ = try first.addUser("alice")
        let second = try ProcessRunner.runProduct("gymlog-server", ["serve", "--db", first.database, "--port", "0"], timeout: 60)
        #expect(second.status != 0 && !second.timedOut, "\(second.stdout) \(second.stderr)")
        #expect(second.stderr.contains("process \(first.process.processIdentifier) (gymlog-server serve"), "\(second.stderr)")
        #expect(second.stderr.contains("another --db"), "\(second.stderr)")
        #expect(!second.stdout.contains("listening on"))
        // The first still answers an account command on its file
        #expect(try first.addUser("bob").hasPrefix("glt_"))
    }

    /// Item 3: `--db` in a folder that does not exist is refused (a typo must not become a
    /// new, empty service); nothing is created.
    @Test func aDatabaseInAMissingFolderIsRefused() throws {
        let dir = try temporaryDirectory("gymlog-missing-folder")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = dir + "/srv/gymlgo"
        for arguments in [["serve", "--port", "0"], ["user", "add", "alice"]] {
            let run = try ProcessRunner.runProduct("gymlog-server", arguments + ["--db", "sqlite:\(missing)/server.sqlite"], timeout: 60)
            #expect(run.status != 0 && !run.timedOut, "\(arguments): \(run.stdout)")
            #expect(run.stderr.contains("the folder \(missing) of the --db database"), "\(run.stderr)")
            #expect(run.stderr.contains("mkdir -p \(missing)"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/srv"), "no folder is made")
        }
    }
}

/// Issue 49, item 9: a taken port said `bind(descriptor:ptr:bytes:): Address already in use
/// (errno: 98)` without the address, after a "shutting down" line for a server that never ran.
@Suite("A port that is taken")
struct TakenPortTests {
    @Test func aTakenPortIsNamedAndNoShutdownIsAnnounced() throws {
        let running = try ServerInstance()
        defer { running.stop() }
        let port = try #require(running.url.split(separator: ":").last.map(String.init))
        let dir = try temporaryDirectory("gymlog-taken-port")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let second = try ProcessRunner.runProduct("gymlog-server", ["serve", "--db", "sqlite:\(dir)/server.sqlite", "--port", port], timeout: 60)
        #expect(second.status != 0 && !second.timedOut, "\(second.stdout)")
        #expect(second.stderr.contains("cannot listen on 127.0.0.1:\(port)") && second.stderr.contains("already in use"), "\(second.stderr)")
        #expect(!second.stderr.contains("shutting down"), "\(second.stderr)")
    }
}

/// Issue 49, item 10: `gymlog sync | head -1` crashed (`try!` on a write of "Broken pipe",
/// SIGILL). A real pipe whose reader is gone: the command ends quietly.
@Suite("A closed standard output")
struct ClosedPipeTests {
    @Test func aCommandWhoseReaderWentAwayEndsQuietly() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)
        for args in [["history"], ["status"]] {
            let process = Process()
            process.executableURL = builtProducts.appendingPathComponent("gymlog")
            process.arguments = args
            process.environment = home.environment
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            // The reader is gone before the first line is written
            try out.fileHandleForReading.close()
            try process.run()
            let drained = DrainedPipe(err.fileHandleForReading)
            process.waitUntilExit()
            let stderr = drained.wait()
            #expect(process.terminationReason == .exit, "\(args): ended by signal \(process.terminationStatus): \(stderr)")
            #expect(!stderr.contains("Fatal error"), "\(args): \(stderr)")
        }
    }
}
