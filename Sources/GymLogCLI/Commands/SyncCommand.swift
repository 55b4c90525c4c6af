import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore
import GymLogWire
import GymLogSyncClient

struct Sync: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Run one sync cycle with the server: pull, push, acknowledge.",
        discussion: """
          gymlog sync
              pull, push, acknowledge with the server `gymlog login` saved
          gymlog status
              what is still waiting in the outbox

        Once logged in, every command that changes the log also starts a sync in the \
        background by itself, and an open REPL syncs a few seconds after a change and every \
        `sync.interval` (`sync.auto`; it writes to $XDG_STATE_HOME/gymlog/sync.log and \
        `gymlog status`); this one runs now, in the foreground, and says what it did. \
        "pulled" counts changes made on other devices (this device's own changes coming back \
        from the server are not news). Only one sync runs at a time per database; this one \
        waits for one already running (up to two minutes), then runs. Offline, it fails with one line and \
        leaves the outbox untouched. On a new device it creates the database and fills it.
        """
    )
    @OptionGroup var global: GlobalOptions
    /// The cycle a command starts by itself after a write (`BackgroundSync`): quiet, it
    /// leaves when another cycle runs or none is due, and says what it did in the sync log.
    @Flag(help: .private) var background = false
    /// With --background: pull even when the last pull is recent (a REPL opening, a login).
    @Flag(help: .private) var pull = false

    var startsBackgroundSync: Bool { !background }

    func run(in context: CLIContext) async throws {
        if background { return await BackgroundSync.run(context, pulling: pull) }
        var sync = try SyncRun(context)
        let mutex = try SyncMutex(path: context.paths.syncLock, wait: SyncMutex.manualWait) {
            context.printError("Waiting for the sync already running for this database (one started in the background by a command, or another `gymlog sync`) to finish…")
        }
        defer { withExtendedLifetime(mutex) {} }
        let terminal = isatty(STDERR_FILENO) == 1
        if terminal {
            sync.engine.onProgress = { p in
                guard p.done >= 500 else { return }
                FileHandle.standardError.write(Data("\r\(p.phase == "pull" ? "pulling" : "pushing") \(p.done)…\u{1B}[K".utf8))
            }
        }
        let started = Date()
        let result = await sync.cycle()
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let report: SyncReport
        switch result {
        case .success(let r): report = r
        case .failure(let error): throw UserError("Sync failed: \(error.localizedDescription)")
        }
        let ms = Int(Date().timeIntervalSince(started) * 1000)
        let server = sync.server
        var line = "Synced with \(server) in \(ms) ms: pulled \(plural(report.pulledChanges, "change")) (\(plural(report.mergedFields, "field")) merged), pushed \(report.pushed)"
        if report.duplicates > 0 { line += ", \(report.duplicates) already on the server" }
        if !report.rejected.isEmpty { line += ", \(report.rejected.count) failed" }
        context.print(line + ".")
        if let device = report.newDeviceID {
            // Said here, `status` need not say it again.
            _ = try? sync.db.takeCopyNotice()
            context.print("Another database synced as this device: this one is a copy (a backup restored, a snapshot or a copied folder). "
                + "It is now device \(device), and all its data was sent again; nothing was lost.")
        } else if report.rebased { context.print("The server's history was new or older than this device's; all local data was sent again.") }
        if report.restamped > 0 {
            context.print("This device's clock was ahead when \(report.restamped) pending change\(report.restamped == 1 ? " was" : "s were") made; they were given the corrected time and sent.")
        }
        for notice in (try? sync.db.takeReplacedEditNotices()) ?? [] { context.print(notice) }
        if report.parkedChanges > 0 {
            context.printError("\(report.parkedChanges) pulled change\(report.parkedChanges == 1 ? "" : "s") could not be applied (values gymlog does not accept, or that do not open with the account key) and \(report.parkedChanges == 1 ? "was" : "were") set aside; see `gymlog status`.")
        }
        for r in report.rejected { context.printError("rejected \(r) (kept; retried later, see `gymlog status`)") }
        if !report.rejected.isEmpty { throw ExitCode.failure }
    }
}
