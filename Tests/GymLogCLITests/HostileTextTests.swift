import Foundation
import GRDB
import GymLogTestSupport
import Testing

/// Text that came from elsewhere (another device, a server, an old version) holding escape
/// sequences, shown by the real binary: a terminal sees it escaped, a file or pipe gets its
/// bytes exactly, and only gymlog's own colours ever reach the screen.
@Suite struct HostileTextTests {
    /// A title change, a clipboard write, a screen clear and exactly the red gymlog uses.
    static let hostile = "Push\u{1B}]0;pwned\u{7} \u{1B}]52;c;aGk=\u{7} \u{1B}[2J \u{1B}[1;31mred\u{1B}[0m"

    /// A database with one set whose workout name and note hold `hostile`, as a pull stores them.
    func homeWithHostileText() throws -> TemporaryHome {
        let home = try TemporaryHome()
        let logged = try home.gymlog(["log", "bench 100x5 # first"])
        #expect(logged.status == 0, "\(logged.stderr)")
        let db = try DatabaseQueue(path: home.database)
        try db.write { db in
            try db.execute(sql: "UPDATE workouts SET name = ?", arguments: [Self.hostile])
            try db.execute(sql: "UPDATE sets SET note = ?", arguments: [Self.hostile])
        }
        return home
    }

    /// Runs `gymlog args` with standard output on a terminal (a pseudo-terminal `script` makes).
    func onATerminal(_ home: TemporaryHome, _ args: [String]) throws -> ProcessResult {
        let command = ([builtProducts.appendingPathComponent("gymlog").path] + args).map { "'\($0)'" }.joined(separator: " ")
        var environment = home.environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"]
        return try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"], environment: environment)
    }

    // `script` (util-linux) gives the binary a terminal; in CI it must be there, not skipped.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script") || ProcessInfo.processInfo.environment["CI"] == "true",
                   "/usr/bin/script (util-linux) is not installed"))
    func exportToATerminalShowsControlsEscapedAndToAPipeKeepsTheBytes() throws {
        let home = try homeWithHostileText()
        for format in ["native", "strong", "hevy"] {
            // When the export goes to a terminal, then no control character but line ends reaches it
            let shown = try onATerminal(home, ["export", "--format", format])
            #expect(shown.status == 0, "\(format): \(shown.stdout)")
            #expect(shown.stdout.contains("\u{FFFD}]52;c;aGk=\u{FFFD}"), "\(format): \(shown.stdout.debugDescription)")
            #expect(!shown.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(format): \(shown.stdout.debugDescription)")
            // And when it goes to a pipe, the bytes are exactly the stored ones
            let piped = try home.gymlog(["export", "--format", format])
            #expect(piped.status == 0)
            #expect(piped.stdout.contains("\u{1B}]52;c;aGk=\u{7}"), "\(format): \(piped.stdout.debugDescription)")
            #expect(!piped.stdout.contains("\u{FFFD}"))
        }
    }

    @Test func historyShowsOnlyGymlogsOwnColoursAndNoneWithoutColour() throws {
        let home = try homeWithHostileText()
        // When history is piped, or NO_COLOR is set, then no escape sequence is printed at all
        for env in [[:], ["NO_COLOR": "1"], ["NO_COLOR": "1", "GYMLOG_FORCE_COLOR": "1"]] {
            let run = try home.gymlog(["history"], env: env)
            #expect(run.status == 0)
            #expect(run.stdout.contains("\u{FFFD}[1;31mred"), "\(env): \(run.stdout.debugDescription)")
            #expect(!run.stdout.contains("\u{1B}"), "\(env): \(run.stdout.debugDescription)")
        }
        // And with colour forced, gymlog's own sequences are there and the data's are not
        let coloured = try home.gymlog(["history"], env: ["GYMLOG_FORCE_COLOR": "1"])
        #expect(coloured.stdout.contains("\u{1B}["), "\(coloured.stdout.debugDescription)")
        #expect(!coloured.stdout.contains("\u{1B}[1;31mred"), "\(coloured.stdout.debugDescription)")
        #expect(!coloured.stdout.contains("\u{1B}]"), "\(coloured.stdout.debugDescription)")
    }
}

/// A tmpfs of a few hundred KiB: a real disk that fills up. Mounting needs root; without it the
/// tests that need one are not run.
final class SmallDisk {
    let path: String

    init?(kilobytes: Int) {
        guard let path = try? temporaryDirectory("gymlog-small-disk") else { return nil }
        self.path = path
        guard let mount = try? ProcessRunner.run(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path]),
              mount.status == 0 else { return nil }
    }

    /// Writes a file until the disk has no space left.
    func fill() {
        let fd = open(path + "/filler", O_WRONLY | O_CREAT, 0o600)
        defer { close(fd) }
        let block = [UInt8](repeating: 0, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Frees what `fill` took.
    func free() { unlink(path + "/filler") }

    /// Remounts the disk read-only, as a backup drive or a locked-down home is.
    func makeReadOnly() throws {
        let remount = try ProcessRunner.run(URL(fileURLWithPath: "/bin/mount"), ["-o", "remount,ro", path])
        try #require(remount.status == 0, "\(remount.stderr)")
    }

    deinit { _ = try? ProcessRunner.run(URL(fileURLWithPath: "/bin/umount"), [path]) }

    static let canMount: Bool = SmallDisk(kilobytes: 64) != nil
}

@Suite struct DiskFullTests {
    // In CI (root) it always runs, so a machine that cannot mount fails instead of skipping.
    @Test(.enabled(if: SmallDisk.canMount || ProcessInfo.processInfo.environment["CI"] == "true", "mounting a tmpfs needs root"))
    func aFullDiskSaysDiskFull() throws {
        // Given a database on a small disk, with one set logged
        let disk = try #require(SmallDisk(kilobytes: 2048))
        let home = try TemporaryHome()
        let database = disk.path + "/gymlog.sqlite"
        #expect(try home.gymlog(["log", "--db", database, "bench 100x5"]).status == 0)

        // When the disk is full, then logging says the disk is full, and nothing about paths or permissions
        disk.fill()
        let full = try home.gymlog(["log", "--db", database, "bench 105x5"])
        #expect(full.status == 1)
        #expect(full.stderr.contains("disk full"), "\(full.stderr)")
        #expect(!full.stderr.contains("permissions"), "\(full.stderr)")
        // And so does a new database that cannot be made there
        let new = try home.gymlog(["log", "--db", disk.path + "/new.sqlite", "bench 100x5"])
        #expect(new.status == 1)
        #expect(new.stderr.contains("disk full"), "\(new.stderr)")
        #expect(!new.stderr.contains("permissions"), "\(new.stderr)")

        // And once there is space again, logging works and the first set is still there
        disk.free()
        #expect(try home.gymlog(["log", "--db", database, "bench 110x5"]).status == 0)
        let db = try DatabaseQueue(path: database)
        #expect(try db.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sets") } == 2)
    }

    /// Issue 26, item 23: on a read-only file or folder even `history` failed with "SQLite
    /// error 14 ... PRAGMA journal_mode".
    @Test(.enabled(if: SmallDisk.canMount || ProcessInfo.processInfo.environment["CI"] == "true", "mounting a tmpfs needs root"))
    func aReadOnlyDatabaseIsReadAndAWriteSaysItIsReadOnly() throws {
        // Given a database with one set, on a disk then mounted read-only
        let disk = try #require(SmallDisk(kilobytes: 2048))
        let home = try TemporaryHome()
        let database = disk.path + "/gymlog.sqlite"
        #expect(try home.gymlog(["log", "--db", database, "bench 100x5"]).status == 0)
        try disk.makeReadOnly()
        // When read commands run, then they work
        for args in [["history"], ["prs"], ["export"], ["show"], ["bw"]] {
            let run = try home.gymlog(["--db", database] + args)
            #expect(run.status == 0 && !run.stderr.contains("SQLite"), "\(args): \(run.stderr)")
        }
        #expect(try home.gymlog(["--db", database, "history"]).stdout.contains("bench: 100kg x 5"))
        // And a write says the file is read-only, naming it, and what to do
        let log = try home.gymlog(["log", "--db", database, "bench 105x5"])
        #expect(log.status == 1)
        #expect(log.stderr.contains("The database at \(database) is read-only") && log.stderr.contains("writable copy with --db"), "\(log.stderr)")
        #expect(!log.stderr.contains("SQLite error"), "\(log.stderr)")
    }
}
