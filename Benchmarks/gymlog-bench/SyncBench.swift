import ArgumentParser
import Foundation
import GymLogCore
import GymLogServerCore
import GymLogStore
import GymLogWire
import GymLogSyncClient
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SplitMix

// `gymlog-bench sync`: the sync performance targets of issue 3, each against a baseline
// taken in the same run, on the real release `gymlog-server` over loopback.

/// Sizes of one `sync` run.
struct SyncBenchPlan {
    var pushEvents = 20_000
    var pushBatch = 1000
    var pullChanges = 100_000
    var pullLimit = 5000
    var noopRuns = 20
    var latencyRounds = 50
    /// Sets pushed and pulled by s6 and s7 (encryption), per variant and round.
    var sealedSets = 2000

    static let quick = SyncBenchPlan(pushEvents: 5000, pushBatch: 1000, pullChanges: 25_000, pullLimit: 5000, noopRuns: 20, latencyRounds: 20,
                                     sealedSets: 500)
}

/// Set-create events as a device's outbox holds them: the 15 columns of a `sets` row, each
/// with its HLC clock, shaped by `PushEvent(…changes:)` as the client pushes them.
struct SetEventFactory {
    let device: String
    private var rng: SplitMix64
    private let exercises: [String]
    private var workoutID = ""
    private var startMillis: Int64

    init(seed: UInt64, startMillis: Int64) {
        var rng = SplitMix64(seed: seed)
        device = rng.uuidKey()
        var exercises: [String] = []
        for _ in 0..<8 { exercises.append(rng.uuidKey()) }
        self.exercises = exercises
        self.rng = rng
        self.startMillis = startMillis
    }

    /// `count` consecutive events from `firstSeq`; a new workout every 25 sets.
    mutating func events(count: Int, firstSeq: Int64 = 1) -> [PushEvent] {
        (0..<count).map { i in
            let seq = firstSeq + Int64(i)
            if (seq - 1) % 25 == 0 { workoutID = rng.uuidKey() }
            let millis = startMillis + seq
            let clock = HLC(millis: millis, counter: 0, node: device)
            let r = rng.next()
            let warmup = r % 5 == 0
            let weights = ["60", "80", "100", "102.5", "105", "32.5"]
            let values = SetValues(kind: warmup ? .warmup : .working,
                                   weight: Weight(Fixed(parsing: weights[Int(r >> 16) % weights.count])!, .kg),
                                   reps: Int(3 + (r >> 24) % 8), rpe: (r >> 32) % 3 == 0 ? Fixed(thousandths: 8500) : nil,
                                   note: (r >> 40) % 20 == 0 ? "felt strong, \"easy\" today" : nil)
            let fields = SetColumns.createFields(workoutID: UUID(uuidString: workoutID)!,
                                                 exerciseID: UUID(uuidString: exercises[Int(r >> 8) % exercises.count])!,
                                                 values: values, performedAt: millis - 5000, utcOffsetSeconds: 3600)
            let changes = fields.map { FieldChange($0.0, $0.1, clock) }
            return PushEvent(seq: seq, idempotencyKey: rng.uuidKey(), entity: .sets, entityID: rng.uuidKey(), op: .create, changes: changes)
        }
    }
}

/// The baseline: the same records INSERTed into a file holding the server's own schema (made
/// by the server's migrations), one row per event with its stored text (`RecordText`, made
/// before the clock starts), with the server's PRAGMAs, through the raw C API.
final class RawRecordInserter {
    private let conn: RawConnection
    private let begin, commit, insert: RawStatement

    init(path: String) throws {
        conn = try RawConnection(path: path)
        // The server writer's PRAGMAs (SQLiteSyncStorage: WAL, synchronous=FULL, GRDB's
        // foreign_keys=ON, writerTuning's 32 MiB cache); SQLite's own auto-checkpoint.
        try conn.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -32768;")
        begin = try conn.prepare("BEGIN IMMEDIATE")
        commit = try conn.prepare("COMMIT")
        insert = try conn.prepare("""
            INSERT INTO records (user_id, entity, entity_id, change_seq, fields) VALUES (1, ?, ?, ?, ?)
            """)
    }

    /// One transaction holding every record of `events`.
    func insert(_ events: ArraySlice<RecordInsert>) throws {
        try begin.run()
        for record in events {
            insert.bind(1, record.entity); insert.bind(2, record.entityID); insert.bind(3, record.changeSeq); insert.bind(4, record.text)
            try insert.run()
        }
        try commit.run()
    }
}

/// One record as the server stores it, ready to bind.
struct RecordInsert {
    var entity: String
    var entityID: String
    var changeSeq: Int64
    var text: String
}

/// The record each event makes, under change counter value `changeSeq`.
func recordInsert(_ event: PushEvent, changeSeq: Int64) throws -> RecordInsert {
    let fields = try event.fields.decoded().map { StoredField(name: $0.key, value: $0.value.v, clock: $0.value.c.description, changeSeq: changeSeq) }
    return RecordInsert(entity: event.entity, entityID: event.entityID, changeSeq: changeSeq,
                        text: RecordText.encode(fields.sorted(by: StoredField.nameOrder)))
}


private func seconds(_ t0: UInt64) -> Double { Double(monotonicNanos() - t0) / 1e9 }

private func grouped(_ n: Int) -> String {
    let f = NumberFormatter()
    f.numberStyle = .decimal
    f.groupingSeparator = ","
    f.usesGroupingSeparator = true
    return f.string(from: NSNumber(value: n)) ?? String(n)
}

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Measure push, pull, no-op sync, A-to-B latency and server memory.",
        discussion: """
            Runs against the release gymlog-server on loopback (or --server PATH), prints a table and \
            rewrites the sync section of FILE.
            Example: .build/release/gymlog-bench sync --quick
            """)

    @OptionGroup var report: ReportOptions

    @Option(help: "Events to push.") var events: Count?
    @Option(help: "Changes to pull.") var changes: Count?
    @Option(help: "A-to-B latency rounds.") var rounds: Count?
    @Option(help: "The gymlog-server binary (default: next to this one).") var server: String?

    func run() async throws { try await syncCommand(self) }
}

func syncCommand(_ options: SyncCommand) async throws {
    let quick = options.report.quick
    var plan = quick ? SyncBenchPlan.quick : SyncBenchPlan()
    if let n = options.events?.value { plan.pushEvents = n }
    if let n = options.changes?.value { plan.pullChanges = n }
    if let n = options.rounds?.value { plan.latencyRounds = n }
    let outPath = options.report.out ?? "BENCHMARKS.md"
    guard plan.pushEvents % plan.pushBatch == 0 else { throw ValidationError("--events must be a multiple of \(plan.pushBatch)") }
    guard plan.pullChanges <= plan.pushEvents * SetShape.setColumns.count else {
        throw ValidationError("--changes must be at most --events × \(SetShape.setColumns.count) (the pushed field rows)")
    }

    let serverBinary = try releaseProduct("gymlog-server", path: options.server)

    let workDir = try WorkingDirectory(prefix: "gymlog-bench-sync", keep: options.report.keep)
    defer { workDir.finish() }
    let dir = workDir.path
    var env = ProcessInfo.processInfo.environment
    env["XDG_DATA_HOME"] = dir + "/xdg"
    let environment = env.map { "\($0.key)=\($0.value)" }

    // Accounts first (the CLI writes the file before the server opens it), then the server.
    let serverDB = dir + "/server.sqlite"
    let pushToken = try addServerUser(binary: serverBinary, database: serverDB, name: "pusher", directory: dir, environment: environment)
    let warmToken = try addServerUser(binary: serverBinary, database: serverDB, name: "warmup", directory: dir, environment: environment)
    let devicesToken = try addServerUser(binary: serverBinary, database: serverDB, name: "devices", directory: dir, environment: environment)
    let sealedAccounts = try SealedBenchAccounts(binary: serverBinary, database: serverDB, directory: dir, environment: environment)
    // Baseline files: the server's schema made by the server itself (its migrations via `user add`).
    let rawPushDB = dir + "/raw-push.sqlite", rawPullDB = dir + "/raw-pull.sqlite"
    _ = try addServerUser(binary: serverBinary, database: rawPushDB, name: "raw", directory: dir, environment: environment)
    _ = try addServerUser(binary: serverBinary, database: rawPullDB, name: "raw", directory: dir, environment: environment)

    let server = try ServerProcess(binary: serverBinary, database: serverDB, logPath: dir + "/server.log", environment: environment)
    defer { server.stop() }
    log("gymlog-server pid \(server.pid) listening on \(server.baseURL)")
    let startupRSS = server.currentRSSKiB() ?? 0

    var rows: [ResultRow] = []
    var details: [String] = []
    let fieldsPerEvent = SetShape.setColumns.count

    // The events, their bodies and their rows, all made before any clock starts.
    let now = Environment.live.now()
    var factory = SetEventFactory(seed: 2026, startMillis: now - 120_000)
    let events = factory.events(count: plan.pushEvents)
    let batches = stride(from: 0, to: events.count, by: plan.pushBatch).map { Array(events[$0..<min($0 + plan.pushBatch, events.count)]) }
    let bodies = batches.map { Array(PushRequest(deviceID: factory.device, events: $0).jsonBody()) }
    let eventRows = try events.enumerated().map { try recordInsert($1, changeSeq: Int64($0) + 1) }
    let bodyBytes = bodies.reduce(0) { $0 + $1.count }

    let client = try MiniHTTPClient(host: server.host, port: server.port)
    func check(_ r: MiniHTTPClient.Response, _ what: String) throws {
        guard r.status == 200 else { throw BenchError("\(what) answered \(r.status): \(String(decoding: r.body.prefix(400), as: UTF8.self))") }
    }

    // Warm-up: another user's batch on the server, a transaction on each baseline file.
    do {
        var warm = SetEventFactory(seed: 99, startMillis: now - 240_000)
        let warmEvents = warm.events(count: plan.pushBatch)
        let body = Array(PushRequest(deviceID: warm.device, events: warmEvents).jsonBody())
        try check(try client.send(Endpoint.healthz.method.rawValue, Endpoint.healthz.path, token: nil), "healthz")
        try check(try client.send(Endpoint.push.method.rawValue, Endpoint.push.path, token: warmToken, body: body), "warm-up push")
        let warmRows = try warmEvents.enumerated().map { try recordInsert($1, changeSeq: 1_000_000 + Int64($0)) }
        // Other entity ids than the measured rows, so the measured INSERTs still create rows.
        for path in [rawPushDB, rawPullDB] { try RawRecordInserter(path: path).insert(warmRows[...]) }
    }

    // 1. Push, interleaved batch by batch with the raw INSERT of the same records.
    log("(1) push \(plan.pushEvents) events in batches of \(plan.pushBatch), interleaved with the raw baseline…")
    let rawPush = try RawRecordInserter(path: rawPushDB)
    var pushTimes: [Double] = [], rawPushTimes: [Double] = []
    var pushResponses: [[UInt8]] = []
    for (b, body) in bodies.enumerated() {
        let slice = eventRows[(b * plan.pushBatch)..<min((b + 1) * plan.pushBatch, eventRows.count)]
        for slot in 0..<2 {
            if (slot + b) % 2 == 0 {
                let t0 = monotonicNanos()
                let r = try client.send(Endpoint.push.method.rawValue, Endpoint.push.path, token: pushToken, body: body)
                pushTimes.append(seconds(t0))
                try check(r, "push batch \(b + 1)")
                pushResponses.append(r.body)
            } else {
                let t0 = monotonicNanos()
                try rawPush.insert(slice)
                rawPushTimes.append(seconds(t0))
            }
        }
    }
    var applied = 0
    for body in pushResponses {
        let r = try JSONDecoder().decode(PushResponse.self, from: Data(body))
        applied += r.results.count { $0.status == .applied }
    }
    guard applied == plan.pushEvents else { throw BenchError("the server applied \(applied) of \(plan.pushEvents) pushed events") }
    let pushRate = Double(plan.pushEvents) / pushTimes.reduce(0, +)
    let rawPushRate = Double(plan.pushEvents) / rawPushTimes.reduce(0, +)
    rows.append(ResultRow(id: "s1", what: "push \(grouped(plan.pushEvents)) set events, batches of \(plan.pushBatch)",
                          figure: "\(grouped(Int(pushRate))) events/s", baseline: "\(grouped(Int(rawPushRate))) events/s (raw INSERT)",
                          ratio: "\(fmt(pushRate / rawPushRate, 2))×", target: "≥ 10,000 events/s", pass: pushRate >= 10_000))
    let pushStats = Stats(pushTimes.map { $0 * 1000 }), rawPushStats = Stats(rawPushTimes.map { $0 * 1000 })
    details.append("Push: \(plan.pushEvents) set-create events × \(fieldsPerEvent) fields (\(plan.pushEvents * fieldsPerEvent) field rows), "
                   + "\(bodies.count) requests of \(plan.pushBatch) events, \(fmt(Double(bodyBytes) / Double(bodies.count) / 1024, 0)) KiB JSON each "
                   + "(encoded by `PushRequest.jsonBody()` before timing, as `HTTPSyncTransport` sends it). "
                   + "Per batch (ms): server median \(fmt(pushStats.median, 1)), max \(fmt(pushStats.max, 1)); "
                   + "raw INSERT median \(fmt(rawPushStats.median, 1)), max \(fmt(rawPushStats.max, 1)). "
                   + "Rows/s: server \(grouped(Int(pushRate * Double(fieldsPerEvent)))), raw \(grouped(Int(rawPushRate * Double(fieldsPerEvent)))).")

    // 2. Pull from the beginning as a new device, interleaved page by page with the raw INSERT of the same records.
    log("(2) pull \(plan.pullChanges) changes with limit \(plan.pullLimit), interleaved with the raw baseline…")
    let rawPull = try RawRecordInserter(path: rawPullDB)
    let puller = "bench-puller-" + SplitMix64(seed: 5).uuidKeyCopy()
    var cursor = "0"
    var pulled = 0, pulledEvents = 0
    var v1 = PulledPages(), rawPullTimes: [Double] = []
    /// One page as a new device, timed from sending the request to the answer's last byte and
    /// decoded afterwards, untimed.
    func pullPage<Page: Decodable>(_ target: String, as: Page.Type, into pages: inout PulledPages) throws -> Page {
        let t0 = monotonicNanos()
        let r = try client.send("GET", target, token: pushToken)
        pages.times.append(seconds(t0))
        pages.bytes += r.body.count
        try check(r, "page \(pages.count) of \(target)")
        return try JSONDecoder().decode(Page.self, from: Data(r.body))
    }
    while pulled < plan.pullChanges {
        let page = try pullPage(pullURI(.pull, device: puller, cursor: "\(cursor)", limit: plan.pullLimit), as: PullResponse.self, into: &v1)
        let n = page.changes.reduce(0) { $0 + $1.fields.count }
        guard n > 0, n % fieldsPerEvent == 0, page.changes.first?.entityID == events[pulledEvents].entityID else {
            throw BenchError("pull page \(v1.count) is not the next \(n / fieldsPerEvent) pushed events")
        }
        let eventsInPage = n / fieldsPerEvent
        let t1 = monotonicNanos()
        try rawPull.insert(eventRows[pulledEvents..<(pulledEvents + eventsInPage)])
        rawPullTimes.append(seconds(t1))
        pulled += n
        pulledEvents += eventsInPage
        cursor = page.cursor
        if !page.hasMore { break }
    }
    guard pulled >= plan.pullChanges else { throw BenchError("pulled only \(pulled) changes") }
    let pullRate = Double(pulled) / v1.times.reduce(0, +)
    let rawPullRate = Double(pulled) / rawPullTimes.reduce(0, +)
    rows.append(ResultRow(id: "s2", what: "pull \(grouped(pulled)) changes, limit \(plan.pullLimit)",
                          figure: "\(grouped(Int(pullRate))) changes/s", baseline: "\(grouped(Int(rawPullRate))) field rows/s (raw INSERT)",
                          ratio: "\(fmt(pullRate / rawPullRate, 2))×", target: "≥ 100,000 changes/s", pass: pullRate >= 100_000))

    // Supplement: the raw read of the same records (the pull's own query) through the C API,
    // counted in their field rows.
    let reader = try RawConnection(path: serverDB)
    let userID = try reader.int("SELECT id FROM users WHERE name = 'pusher'") ?? 1
    let select = try reader.prepare("""
        SELECT entity, entity_id, change_seq, fields FROM records
        WHERE user_id = ? AND change_seq > ? ORDER BY change_seq LIMIT ?
        """)
    var after: Int64 = 0, read = 0
    let t0 = monotonicNanos()
    while read < pulled {
        select.bind(1, userID); select.bind(2, after); select.bind(3, max(1, plan.pullLimit / fieldsPerEvent))
        let before = read
        defer { select.reset() }
        while try select.step() {
            _ = select.text(0); _ = select.text(1); _ = select.text(3)
            after = select.int64(2)
            read += fieldsPerEvent
        }
        if read == before { throw BenchError("the server database holds fewer than \(pulled) field rows") }
    }
    let rawSelectRate = Double(read) / seconds(t0)
    rows.append(ResultRow(id: "s2'", what: "raw SELECT of the same rows (pull's query, C API)", figure: "\(grouped(Int(rawSelectRate))) rows/s",
                          baseline: "—", ratio: "\(fmt(pullRate / rawSelectRate, 2))× (pull / SELECT)", target: "info: read cost", pass: nil, info: true))
    let pullStats = Stats(v1.times.map { $0 * 1000 })
    details.append("Pull: a \"change\" is one field row of the answer (entity, entity_id, field, value, clock), i.e. one "
                   + "`{\"v\",\"c\"}` entry under `changes[].fields`; the pusher's \(pulled) first field rows "
                   + "(\(pulledEvents) events) in \(v1.count) pages of `limit=\(plan.pullLimit)` from `cursor=0` as a new device, "
                   + "\(fmt(Double(v1.bytes) / Double(v1.count) / 1024, 0)) KiB JSON per page (one event's fields are never split, so a page holds "
                   + "\(plan.pullLimit / fieldsPerEvent * fieldsPerEvent) rows). Per page (ms): server median \(fmt(pullStats.median, 1)), "
                   + "max \(fmt(pullStats.max, 1)). Baseline: the same rows INSERTed in one transaction per page. "
                   + "Timed from sending the request to the last byte of the answer; the client decodes afterwards, untimed.")

    // 2b. The same events as records through protocol v2's compact pull, against the v1 pull above.
    let recordLimit = max(1, plan.pullLimit / fieldsPerEvent)
    log("(2b) pull the same \(pulledEvents) events through /v2/pull, limit \(recordLimit) records…")
    var compactCursor = "0"
    var compactRecords = 0
    var v2 = PulledPages()
    while compactRecords < pulledEvents {
        let page = try pullPage(pullURI(.compactPull, device: puller, cursor: "\(compactCursor)", limit: recordLimit), as: CompactPullResponse.self, into: &v2)
        guard !page.changes.isEmpty, page.changes.allSatisfy({ $0.fields.count == fieldsPerEvent }),
              page.changes.first?.entityID == events[compactRecords].entityID else {
            throw BenchError("v2 pull page \(v2.count) is not the next \(page.changes.count) pushed events, one change each")
        }
        compactRecords += page.changes.count
        compactCursor = page.cursor
        if !page.hasMore { break }
    }
    let v1RecordRate = Double(pulledEvents) / v1.times.reduce(0, +)
    let compactRate = Double(compactRecords) / v2.times.reduce(0, +)
    rows.append(ResultRow(id: "s2b", what: "pull the same \(grouped(compactRecords)) events as records, v2, limit \(recordLimit)",
                          figure: "\(grouped(Int(compactRate))) records/s",
                          baseline: "\(grouped(Int(v1RecordRate))) records/s (v1 pull, s2)",
                          ratio: "\(fmt(compactRate / v1RecordRate, 2))×", target: "info: v2 against v1", pass: nil, info: true))
    details.append("Pull v2: the same \(compactRecords) events through `/v2/pull` in \(v2.count) pages of `limit=\(recordLimit)` records "
                   + "(v1's \(plan.pullLimit) field rows hold the same events): \(fmt(Double(v2.bytes) / Double(compactRecords), 0)) bytes "
                   + "a record against \(fmt(Double(v1.bytes) / Double(pulledEvents), 0)) in v1.")

    // 3 and 4: the real engine over `HTTPSyncTransport`, two client databases.
    log("(3) no-op sync, (4) one set from device A to device B…")
    let url = URL(string: server.baseURL)!
    let dbA = try GymLogDatabase(path: dir + "/device-a.sqlite")
    let dbB = try GymLogDatabase(path: dir + "/device-b.sqlite")
    let engineA = SyncEngine(replica: dbA, transport: HTTPSyncTransport(baseURL: url, token: devicesToken))
    let engineB = SyncEngine(replica: dbB, transport: HTTPSyncTransport(baseURL: url, token: devicesToken))
    func sync(_ engine: SyncEngine) async throws -> SyncReport { try await engine.run() }
    // Some shared history first, then both devices caught up (A also pulls back its own writes).
    for _ in 0..<3 {
        _ = try dbA.logSets(exercise: benchMention, specs: benchSpecs)
        _ = try await sync(engineA); _ = try await sync(engineB)
    }
    _ = try await sync(engineA); _ = try await sync(engineB); _ = try await sync(engineA)

    var noopTimes: [Double] = []
    var maxPull = 0, maxPush = 0, maxTrips = 0
    for _ in 0..<plan.noopRuns {
        let t0 = monotonicNanos()
        let report = try await sync(engineA)
        noopTimes.append(seconds(t0) * 1000)
        maxTrips = max(maxTrips, report.roundTrips)
        guard report.pulledChanges == 0, report.pushed == 0 else { throw BenchError("the no-op sync did work: \(report)") }
        let pushTrips = report.pushed + report.duplicates + report.rejected.count > 0 ? 1 : 0
        maxPull = max(maxPull, report.roundTrips - pushTrips)
        maxPush = max(maxPush, pushTrips)
    }
    let noop = Stats(noopTimes)
    rows.append(ResultRow(id: "s3", what: "no-op sync, round trips (`SyncReport.roundTrips`)", figure: "\(maxTrips) (pull \(maxPull), push \(maxPush))",
                          baseline: "—", ratio: "—", target: "≤ 1 per direction", pass: maxPull <= 1 && maxPush <= 1))
    rows.append(ResultRow(id: "s3", what: "no-op sync, median wall (\(plan.noopRuns) runs)", figure: "\(fmt(noop.median, 2)) ms",
                          baseline: "—", ratio: "—", target: "report", pass: nil, info: true))

    var roundTimes: [Double] = [], writeTimes: [Double] = [], aTimes: [Double] = [], bTimes: [Double] = []
    let warmRounds = 3
    for round in 0..<(warmRounds + plan.latencyRounds) {
        let t0 = monotonicNanos()
        _ = try dbA.logSets(exercise: benchMention, specs: benchSpecs)
        let t1 = monotonicNanos()
        let a = try await sync(engineA)
        let t2 = monotonicNanos()
        let b = try await sync(engineB)
        let t3 = monotonicNanos()
        guard a.pushed >= 1, b.pulledChanges >= 1 else { throw BenchError("round \(round): A pushed \(a.pushed), B pulled \(b.pulledChanges)") }
        guard round >= warmRounds else { continue }
        roundTimes.append(Double(t3 - t0) / 1e6); writeTimes.append(Double(t1 - t0) / 1e6)
        aTimes.append(Double(t2 - t1) / 1e6); bTimes.append(Double(t3 - t2) / 1e6)
    }
    let setsOnA = try dbA.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sets") ?? 0 }
    let setsOnB = try dbB.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sets") ?? 0 }
    guard setsOnA == setsOnB else { throw BenchError("device A holds \(setsOnA) sets, device B \(setsOnB)") }
    let lat = Stats(roundTimes)
    rows.append(ResultRow(id: "s4", what: "one set A → server → B, median (\(plan.latencyRounds) rounds)", figure: "\(fmt(lat.median, 2)) ms",
                          baseline: "—", ratio: "—", target: "< 4 ms", pass: lat.median < 4))
    rows.append(ResultRow(id: "s4", what: "one set A → server → B, p99", figure: "\(fmt(lat.p99, 2)) ms",
                          baseline: "—", ratio: "—", target: "report", pass: nil, info: true))
    details.append("No-op sync: `SyncEngine.run()` on device A with nothing to pull or push, after both devices caught up; "
                   + "\(plan.noopRuns) runs (ms): median \(fmt(noop.median, 2)), p99 \(fmt(noop.p99, 2)), max \(fmt(noop.max, 2)).")
    details.append("A → B, \(plan.latencyRounds) rounds after \(warmRounds) warm-up rounds: `logSets` on A (`bench 100x5`, file database, WAL, "
                   + "synchronous=FULL), then `SyncEngine.run()` on A (push first, its pull skipped when nothing else reached the server) and on B (pull) over `HTTPSyncTransport`; two round trips. "
                   + "Median (ms): write \(fmt(Stats(writeTimes).median, 2)), A sync \(fmt(Stats(aTimes).median, 2)), "
                   + "B sync \(fmt(Stats(bTimes).median, 2)); whole round p99 \(fmt(lat.p99, 2)), max \(fmt(lat.max, 2)). "
                   + "Both devices end with \(setsOnA) sets.")

    // 6 and 7: push and pull with end-to-end encryption against the same without.
    log("(6, 7) push and pull, encrypted and not…")
    let sealedRows = try await sealedSyncRows(serverURL: url, accounts: sealedAccounts, sets: plan.sealedSets, directory: dir)
    rows += sealedRows.rows
    details += sealedRows.details

    // 5. The server's peak memory over everything above.
    let hwm = server.peakRSSKiB() ?? 0
    let hwmMiB = Double(hwm) / 1024
    rows.append(ResultRow(id: "s5", what: "server peak memory (VmHWM after s1–s4, s6, s7)", figure: "\(fmt(hwmMiB, 1)) MiB",
                          baseline: "\(fmt(Double(startupRSS) / 1024, 1)) MiB (RSS at start)", ratio: "—", target: "< 150 MB",
                          pass: hwm > 0 && Double(hwm) * 1024 < 150_000_000))
    let serverBytes = ((try? FileManager.default.attributesOfItem(atPath: serverDB)[.size]) as? Int) ?? 0
    details.append("Server: release `gymlog-server serve --db sqlite:FILE --port 0` (log level info, one log line per request), "
                   + "\(fmt(Double(serverBytes) / 1_048_576, 1)) MiB database at the end; users created with `gymlog-server user add`. "
                   + "Baselines: files made by the same `user add` (the server's migrations), opened with the raw C API "
                   + "(`journal_mode=WAL`, `synchronous=FULL`, `foreign_keys=ON`, `cache_size=-32768`, as the server's writer; SQLite's own "
                   + "auto-checkpoint, where the server checkpoints on a background connection), one `BEGIN IMMEDIATE` … `COMMIT` per "
                   + "push batch or pull page, one prepared INSERT per field row.")

    let report = Report(machine: .current(), quick: quick, rows: rows, details: details)
    report.show()
    try SyncSection(report: report, plan: plan).write(to: outPath)
    log("wrote \(outPath)")
}

extension SplitMix64 {
    /// A UUID from a copy (so a `let` generator can make one).
    func uuidKeyCopy() -> String { var copy = self; return copy.uuidKey() }
}

/// The pages of one timed pull.
struct PulledPages {
    /// Seconds each page took, from sending the request to the answer's last byte.
    var times: [Double] = []
    var bytes = 0
    var count: Int { times.count }
}

/// The path and query of a pull, in the protocol's words (`Endpoint`, `PullParameter`).
func pullURI(_ endpoint: Endpoint, device: String, cursor: String, limit: Int) -> String {
    "\(endpoint.path)?\(PullParameter.deviceID.rawValue)=\(device)&\(PullParameter.cursor.rawValue)=\(cursor)&\(PullParameter.limit.rawValue)=\(limit)"
}
