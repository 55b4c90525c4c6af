import Foundation
import GymLogCore
import GymLogStore

/// The sync that runs by itself in an open REPL. Each cycle is the same detached `gymlog sync
/// --background` a shell command starts (`BackgroundSync`), so typing never waits on the
/// network and a cycle outlives a REPL killed mid-way; this process only decides when one
/// starts and collects it when it ends. It looks after every line and every second while the
/// REPL waits for one (the rest timer's tick): a cycle starts when the REPL opens (a pull,
/// however recent the last one), a few
/// seconds after a write (`SyncPacer`), at once after `finish`, and when the last pull is older
/// than `sync.interval`; a failed one waits out its backoff, so a server that comes back is
/// caught up with within one interval.
final class ReplSync {
    private var pacer = SyncPacer()
    /// The running cycle's process, until it is collected.
    private var cycle: pid_t?
    /// The outbox's newest event when last looked at: when it moves, a line wrote.
    private var outboxMark: Int64?
    /// The sync state as last read, for the prompt.
    private var schedule: SyncSchedule?
    /// A pull is due whatever the interval says: the REPL just opened, or `login` ran in it.
    /// Another device may have logged since the last pull, and the first thing a lifter reads
    /// (the prompt's open workout, `show`) should have it.
    private var pullDue = true
    /// A cycle ended since the last line: what it replaced of this device's edits is said
    /// after the next line (never while readline holds the prompt).
    private var cycleEnded = false

    /// `login` saved new credentials: pull with them at once.
    func pullSoon() { pullDue = true }

    /// The database when the device is logged in with auto sync on; a REPL that never syncs
    /// by itself reads nothing here. A new device's is created at once, so its first cycle
    /// brings the account's history in before anything is typed. The session's context is
    /// passed in each time, as `login` in the REPL changes its settings.
    private func database(_ context: CLIContext) -> GymLogDatabase? {
        guard context.settings.autoSync, context.settings.server != nil, context.settings.token != nil else { return nil }
        return try? context.db()
    }

    /// After a line: notes whether it wrote, says once that the sync stopped, then looks
    /// whether a cycle is due. `finishing`: the line was `finish`, whose cycle starts at once.
    func afterLine(_ context: CLIContext, finishing: Bool) {
        collectCycle()
        guard let db = database(context), let schedule = try? db.syncSchedule() else { return schedule = nil }
        if cycleEnded {
            cycleEnded = false
            for notice in (try? db.takeReplacedEditNotices()) ?? [] { context.printError(notice) }
        }
        // No mark yet: the database did not exist before this line.
        if schedule.outboxMark != outboxMark ?? 0 {
            pacer.wrote(now: context.environment.now(), atOnce: finishing)
        }
        BackgroundSync.tellStopOnce(context, db, schedule, schedule.hold(context.settings, now: context.environment.now()))
        look(context, schedule)
    }

    /// Every second while the REPL waits for a line: collects an ended cycle, starts one when due.
    func tick(_ context: CLIContext) {
        collectCycle()
        guard let db = database(context), let schedule = try? db.syncSchedule() else { return self.schedule = nil }
        look(context, schedule)
    }

    private func look(_ context: CLIContext, _ schedule: SyncSchedule) {
        let now = context.environment.now()
        if pacer.starts(now: now, running: cycle != nil, hold: schedule.hold(context.settings, now: now, pulling: pullDue)) {
            cycle = BackgroundSync.start(context, pulling: pullDue)
            pullDue = false
        }
        outboxMark = schedule.outboxMark
        self.schedule = schedule
    }

    /// Collects the cycle's process once it has ended, so none is left a zombie.
    private func collectCycle() {
        guard let pid = cycle else { return }
        var status: Int32 = 0
        let collected = waitpid(pid, &status, WNOHANG)
        if collected == pid || collected < 0 { cycle = nil; cycleEnded = true }
    }

    /// The prompt's few characters: `↑3` for changes waiting to be sent, `syncing`, `offline`
    /// while a failed cycle waits to be tried again, `sync stopped` when no retry helps (the
    /// token refused; `gymlog status` says what to do); nil when all is sent or auto sync is off.
    func promptMark(_ context: CLIContext) -> String? {
        guard let schedule, database(context) != nil else { return nil }
        let waiting = schedule.waiting == 0 ? nil
            : "↑" + (schedule.waiting >= SyncSchedule.waitingCap ? "\(SyncSchedule.waitingCap - 1)+" : "\(schedule.waiting)")
        if cycle != nil { return "syncing" }
        switch schedule.hold(context.settings, now: context.environment.now()) {
        case .stopped: return "sync stopped"
        case .backingOff: return ["offline", waiting].compactMap { $0 }.joined(separator: " ")
        default: return waiting
        }
    }
}
