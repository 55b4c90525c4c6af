import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore
import GymLogWire
import GymLogSyncClient
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs one sync cycle against the configured server and prints what happened.
func runSync(_ context: CLIContext) throws {
    guard let server = context.settings.server, let url = URL(string: server) else {
        throw UserError("No sync server is set. Log in first: `gymlog login --server URL --token TOKEN`.")
    }
    let db = try context.db()
    let mutex = try SyncMutex(path: context.paths.syncLock)
    defer { withExtendedLifetime(mutex) {} }
    var engine = SyncEngine(replica: DatabaseReplica(db: db), transport: HTTPSyncTransport(baseURL: url, token: context.settings.token))
    let terminal = isatty(STDERR_FILENO) == 1
    if terminal {
        engine.onProgress = { p in
            guard p.done >= 500 else { return }
            FileHandle.standardError.write(Data("\r\(p.phase == "pull" ? "pulling" : "pushing") \(p.done)…\u{1B}[K".utf8))
        }
    }
    let started = Date()
    let report: SyncReport
    do {
        let configured = engine
        report = try runBlocking { try await configured.run() }
    } catch {
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        try? db.recordSyncOutcome(server: server, error: error.localizedDescription)
        throw UserError("Sync failed: \(error.localizedDescription)")
    }
    if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    try db.recordSyncOutcome(server: server, error: report.rejected.isEmpty ? nil : "\(report.rejected.count) event(s) rejected")
    let ms = Int(Date().timeIntervalSince(started) * 1000)
    var line = "Synced with \(server) in \(ms) ms: pulled \(report.pulledChanges) change\(report.pulledChanges == 1 ? "" : "s") (\(report.mergedFields) field\(report.mergedFields == 1 ? "" : "s") merged), pushed \(report.pushed)"
    if report.duplicates > 0 { line += ", \(report.duplicates) already on the server" }
    if !report.rejected.isEmpty { line += ", \(report.rejected.count) failed" }
    context.print(line + ".")
    if report.rebased { context.print("The server's history was new or older than this device's; all local data was sent again.") }
    if report.restamped > 0 {
        context.print("This device's clock was ahead when \(report.restamped) pending change\(report.restamped == 1 ? " was" : "s were") made; they were given the corrected time and sent.")
    }
    for r in report.rejected { context.printError("rejected \(r) (kept; retried later, see `gymlog status`)") }
    if !report.rejected.isEmpty { throw ExitCode.failure }
}

struct Sync: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Run one sync cycle with the server: pull, push, acknowledge.",
        discussion: "Only one sync runs at a time per database; a second one waits a few seconds, then says one is running. Offline, it fails with one line and leaves the outbox untouched."
    )
    @OptionGroup var global: GlobalOptions
    func run(in context: CLIContext) throws { try runSync(context) }
}

struct Login: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Save the sync server and your token in the config (mode 0600).",
        discussion: """
          gymlog login --server http://127.0.0.1:8080 --token glt_...
          gymlog login --server http://127.0.0.1:8080 --register alice   (servers with open registration)
        """
    )
    @OptionGroup var global: GlobalOptions
    @Option(help: "The server's base URL, e.g. http://127.0.0.1:8080.") var server: String
    @Option(help: "The bearer token from `gymlog-server user add`.") var token: String?
    @Option(help: "Create an account on a server with open registration.") var register: String?

    func validate() throws {
        guard let url = URL(string: server), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("--server \(server) is not an http(s) URL, e.g. http://127.0.0.1:8080.")
        }
        guard (token == nil) != (register == nil) else {
            throw ValidationError("Give either --token TOKEN or --register NAME.")
        }
    }

    func run(in context: CLIContext) throws {
        let url = URL(string: server)!
        var token = self.token
        if let name = register {
            let transport = HTTPSyncTransport(baseURL: url, token: nil)
            let response = try runBlocking { try await transport.register(name: name) }
            token = response.token
            context.print("Registered '\(response.user)'. Your token (also saved in the config): \(response.token)")
        } else {
            let transport = HTTPSyncTransport(baseURL: url, token: token)
            _ = try runBlocking { try await transport.capabilities() }
        }
        try ConfigFile.update(context.paths.config, ["sync.server": .string(server), "sync.token": .string(token!)])
        context.print("Logged in to \(server). Run `gymlog sync` to sync.")
    }
}

struct Logout: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Forget the sync server and token (local data stays).")
    @OptionGroup var global: GlobalOptions
    func run(in context: CLIContext) throws {
        try ConfigFile.update(context.paths.config, ["sync.server": nil, "sync.token": nil])
        context.print("Logged out. Local data is untouched; unsynced changes stay in the outbox.")
    }
}

struct Status: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the outbox, the last sync and any failing events.",
        discussion: "Examples: `gymlog status`, `gymlog status --json | jq .outbox_depth`."
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: JSONFlag

    func run(in context: CLIContext) throws {
        let s = try context.db().replicaState()
        let when = { (ms: Int64) in iso8601(millis: ms, utcOffsetSeconds: context.environment.utcOffset(ms)) }
        if output.json {
            let at = { (ms: Int64?) in JSON.time(ms, ms.map { context.environment.utcOffset($0) } ?? 0) }
            context.printJSON(.object([
                ("database", .string(context.paths.database)),
                ("device_id", .string(s.deviceID)),
                ("server", .string(context.settings.server)),
                ("outbox_depth", .int(s.outboxDepth)),
                ("oldest_pending_at", at(s.oldestPendingAt)),
                ("last_sync_at", at(s.lastSyncAt)),
                ("last_error", .string(s.lastError)),
                ("failing", .array(s.failing.map { f in
                    .object([("seq", .int(f.seq)), ("entity", .string(f.entity)), ("attempts", .int(f.attempts)),
                             ("error", .string(f.error)), ("next_attempt_at", at(f.nextAttemptAt))])
                })),
            ]))
            return
        }
        let style = Style.stdout
        context.print(style.dim("Database:   ") + "\(context.paths.database) " + style.dim("(device \(s.deviceID))"))
        context.print(style.dim("Server:     ") + (context.settings.server ?? style.dim("none (gymlog login --server URL --token TOKEN)")))
        context.print(style.dim("Outbox:     ") + "\(s.outboxDepth) unsynced change\(s.outboxDepth == 1 ? "" : "s")" + (s.oldestPendingAt.map { ", oldest from \(when($0))" } ?? ""))
        context.print(style.dim("Last sync:  ") + (s.lastSyncAt.map(when) ?? "never"))
        if let e = s.lastError { context.print(style.error("Last error:") + " \(e)") }
        for f in s.failing {
            context.print(style.error("Failing:   ") + " event \(f.seq) (\(f.entity)), \(f.attempts) attempt\(f.attempts == 1 ? "" : "s"): \(f.error)" + (f.nextAttemptAt.map { "; next try after \(when($0))" } ?? ""))
        }
    }
}
