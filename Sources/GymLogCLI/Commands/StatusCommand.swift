import ArgumentParser
import GymLogCore
import GymLogStore
import GymLogSyncClient

struct Status: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the outbox, the last sync and any failing events.",
        discussion: "Examples: `gymlog status`, `gymlog status --json | jq .outbox_depth`."
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: JSONFlag

    func run(in context: CLIContext) async throws {
        // Status reads; with no database yet it says so, and still shows the server.
        guard let db = try context.existingDB() else {
            if output.json {
                context.printJSON(.object([("version", .string(gymlogVersion)), ("database", .string(context.paths.database)), ("database_exists", .bool(false)),
                                           ("server", .string(context.settings.server))]))
            } else {
                context.print("Version:    gymlog \(gymlogVersion)")
                context.print("Database:   none yet at \(context.paths.database) (run `gymlog`, then type `bench 100x5`, to start one)")
                context.print("Server:     " + (context.settings.server ?? "none (gymlog login --server URL; it asks for the token)"))
            }
            return
        }
        let s = try db.syncState()
        // Said once: the sync that found the copy ran in the background, unseen.
        let copyNotice: String? = (try? db.takeCopyNotice()) ?? nil
        // Local edits that later edits from other devices replaced, said once as well.
        let replacedEdits = (try? db.takeReplacedEditNotices()) ?? []
        let schedule = try db.syncSchedule()
        let hold = schedule.hold(context.settings, now: context.environment.now())
        // Shown here, the stop need not be told again after the next command (`BackgroundSync`).
        if hold == .stopped, !schedule.stopShown { try? db.markSyncStopShown() }
        let rest = try context.restTimer()?.timer
        let when = { (ms: Int64) in iso8601(millis: ms, utcOffsetSeconds: context.environment.utcOffset(ms)) }
        if output.json {
            let at = { (ms: Int64?) in JSON.time(ms, ms.map { context.environment.utcOffset($0) } ?? 0) }
            context.printJSON(.object([
                ("version", .string(gymlogVersion)),
                ("database", .string(context.paths.database)),
                ("database_exists", .bool(true)),
                ("device_id", .string(s.deviceID)),
                ("server", .string(context.settings.server)),
                ("encrypted", context.settings.server == nil ? .null : .bool(context.settings.accountKey != nil || s.lastError == SyncTransportError.keyRequiredAdvice)),
                ("outbox_depth", .int(s.outboxDepth)),
                ("oldest_pending_at", at(s.oldestPendingAt)),
                ("last_sync_at", at(s.lastSyncAt)),
                ("last_error", .string(s.lastError)),
                ("copy_notice", .string(copyNotice)),
                ("replaced_edits", .array(replacedEdits.map { .string($0) })),
                ("auto_sync", .bool(hold != .off && hold != .loggedOut && hold != .stopped)),
                ("retry_stopped", .bool(schedule.stopped)),
                ("next_try_at", at(schedule.nextTryAt)),
                ("rest_seconds", .int(rest?.elapsed)),
                ("rest_target_seconds", .int(rest?.target)),
                ("failing", .array(s.failing.map { f in
                    .object([("seq", .int(f.seq)), ("entity", .string(f.entity)), ("attempts", .int(f.attempts)),
                             ("error", .string(f.error)), ("next_attempt_at", at(f.nextAttemptAt))])
                })),
                ("parked_count", .int(s.parkedCount)),
                ("parked", .array(s.parked.map { p in
                    .object([("entity", .string(p.entity)), ("id", .string(p.entityID)), ("reason", .string(p.reason)),
                             ("parked_at", at(p.parkedAt))])
                })),
            ]))
            return
        }
        let style = Style.stdout
        context.print(style.dim("Version:    ") + "gymlog \(gymlogVersion)")
        context.print(style.dim("Database:   ") + "\(context.paths.database) " + style.dim("(device \(s.deviceID))"))
        context.print(style.dim("Server:     ") + (context.settings.server ?? style.dim("none (gymlog login --server URL; it asks for the token)")))
        if context.settings.server != nil {
            context.print(style.dim("Encryption: ") + (context.settings.accountKey != nil
                ? "end to end (`gymlog key` shows the recovery phrase)"
                // The server refused the last sync for want of the key: the account was
                // encrypted from another device since this one logged in.
                : s.lastError == SyncTransportError.keyRequiredAdvice
                ? "end to end on the server, but this device has no key yet: log in again with the token and the recovery phrase (`gymlog login --server URL`)"
                : "none: the server keeps this account's history in the clear (`gymlog key enable`)"))
        }
        context.print(style.dim("Outbox:     ") + "\(s.outboxDepth) unsynced change\(s.outboxDepth == 1 ? "" : "s")" + (s.oldestPendingAt.map { ", oldest from \(when($0))" } ?? ""))
        context.print(style.dim("Auto sync:  ") + Self.autoSyncLine(hold))
        context.print(style.dim("Last sync:  ") + (s.lastSyncAt.map(when) ?? "never"))
        if let e = s.lastError { context.print(style.error("Last error:") + " \(e)") }
        if let notice = copyNotice { context.print(style.dim("Copy:       ") + notice) }
        for notice in replacedEdits { context.print(style.dim("Replaced:   ") + notice) }
        if case .backingOff(let until) = hold { context.print(style.dim("Next try:   ") + "after \(when(until)), with the next change or `gymlog sync`") }
        for f in s.failing {
            context.print(style.error("Failing:   ") + " event \(f.seq) (\(f.entity)), \(plural(f.attempts, "attempt")): \(f.error)" + (f.nextAttemptAt.map { "; next try after \(when($0))" } ?? ""))
        }
        // Pulled changes this device does not accept: kept, and shown with why.
        for p in s.parked {
            context.print(style.error("Not applied:") + " pulled \(p.entity) \(p.entityID): \(p.reason)")
        }
        if s.parkedCount > s.parked.count { context.print(style.dim("            and \(s.parkedCount - s.parked.count) more not applied")) }
    }

    /// Whether syncs start by themselves, and if not, why and what turns them back on.
    static func autoSyncLine(_ hold: AutoSync.Hold?) -> String {
        switch hold {
        case .off: "off (sync.auto = false in the config); `gymlog sync` syncs"
        case .loggedOut: "off until `gymlog login`"
        case .stopped: "stopped by the last error, not retried until `gymlog login` or a `gymlog sync` that succeeds"
        case .backingOff: "on, waiting after a failed sync"
        case .upToDate, nil: "on (each change is synced in the background)"
        }
    }
}
