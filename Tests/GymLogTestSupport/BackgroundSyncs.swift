import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The background syncs of `database`: the processes whose command line names it with `--db`
/// (a writing command starts `gymlog sync --background --db DATABASE`; commands run by the
/// tests name their database through `GYMLOG_DB`). posix_spawn returns only once the child
/// has exec'd, so right after the command that started one returns, it is here.
public func backgroundSyncs(of database: String) throws -> [pid_t] {
    let run = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/pgrep"), ["-f", "--", "--db \(database)"])
    return run.stdout.split(separator: "\n").compactMap { pid_t($0) }
}

/// Waits until no background sync of `database` runs, at most `seconds`, and says whether none does.
///
/// "None" must be seen twice, 100 ms apart: a process in the middle of an exec has no command
/// line (from the switch to its new memory until its arguments are laid out there), and the
/// gate shell becomes the sync by an exec just as the command that started it returns, which
/// is when this is first asked. One empty look could be that moment.
public func backgroundSyncsEnded(_ database: String, within seconds: TimeInterval = 60) throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    var emptyBefore = false
    while Date() < deadline {
        let empty = try backgroundSyncs(of: database).isEmpty
        if empty && emptyBefore { return true }
        emptyBefore = empty
        usleep(empty ? 100_000 : 50_000)
    }
    return false
}

/// Polls `condition` every 50 ms until it holds or `seconds` pass; whether it held.
public func eventually(within seconds: TimeInterval = 60, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(50_000)
    }
    return try condition()
}

extension ServerInstance {
    /// The port of `url` (`http://127.0.0.1:PORT`).
    public var port: Int { Int(url.split(separator: ":").last ?? "") ?? 0 }

    /// A new server process on this one's database and port: the same server back after it
    /// was stopped (`stop()`), at the address the devices were logged in to.
    public func restarted() throws -> ServerInstance {
        try ServerInstance(database: database, arguments: ["serve", "--db", database, "--port", String(port)])
    }
}
