import ArgumentParser
import Foundation
import GymLogWire

// `gymlog-bench load`: server throughput of issue 4. Many devices push batches and pull at
// once against real `gymlog-server` processes, on the SQLite store and on PostgreSQL, with
// one and with two instances; every scenario in one run, so the ratios hold.

/// What one scenario measured.
struct LoadResult {
    var store: String
    var instances: Int
    var events: Int
    var seconds: Double
    var push: Stats
    var pull: Stats
    var failures: Int
    var eventsPerSecond: Double { Double(events) / seconds }
}

/// The shape of the load: `devices` devices of `users` users (devices are spread over the
/// users round-robin), each doing `rounds` rounds of one push of `batch` events followed by
/// pulls from its cursor until the server has nothing more.
struct LoadPlan {
    var devices = 50
    var users = 10
    var rounds = 20
    var batch = 50
    var poolSize = 10
}

struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Many devices pushing and pulling at once against SQLite and PostgreSQL servers.",
        discussion: "Example: .build/release/gymlog-bench load --quick --postgres postgres://USER@HOST:PORT/DATABASE")

    @OptionGroup var report: ReportOptions

    @Option(help: "Devices (default 50).") var devices: Count?
    @Option(help: "Users the devices belong to (default 10).") var users: Count?
    @Option(help: "Rounds per device (default 20).") var rounds: Count?
    @Option(help: "Events per push (default 50).") var batch: Count?
    @Option(name: .customLong("pool-size"), help: "The PostgreSQL pool size (default 10).") var poolSize: Count?
    @Option(help: "The gymlog-server binary (default: next to this one).") var server: String?
    @Option(help: "A PostgreSQL server to use instead of a throwaway cluster.") var postgres: String?
    @Option(name: .customLong("pg-bin"), help: "The folder of initdb and pg_ctl.") var pgBin: String?

    func run() async throws { try loadCommand(self) }
}

func loadCommand(_ options: LoadCommand) throws {
    var plan = LoadPlan()
    if options.report.quick { plan.rounds = 5 }
    plan.devices = options.devices?.value ?? plan.devices
    plan.users = min(plan.devices, options.users?.value ?? plan.users)
    plan.rounds = options.rounds?.value ?? plan.rounds
    plan.batch = options.batch?.value ?? plan.batch
    plan.poolSize = options.poolSize?.value ?? plan.poolSize
    let outPath = options.report.out ?? "BENCHMARKS.md"
    let binary = options.server ?? executableDirectory() + "/gymlog-server"
    guard access(binary, X_OK) == 0 else {
        throw BenchError("\(binary) is missing; build it: swift build -c release")
    }
    if !binary.contains("release") { log("warning: \(binary) does not look like a release build; figures will be off.") }

    let dir = NSTemporaryDirectory() + "gymlog-bench-load-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let postgres = try options.postgres.map { try LoadPostgres(adminURL: $0) } ?? LoadPostgres(bin: options.pgBin)
    defer {
        postgres.stop()
        if options.report.keep { log("kept working files in \(dir)") } else { try? FileManager.default.removeItem(atPath: dir) }
    }
    log("PostgreSQL: \(postgres.description)")

    var results: [LoadResult] = []
    for (store, instances) in [("SQLite", 1), ("SQLite", 2), ("PostgreSQL", 1), ("PostgreSQL", 2)] {
        let database: String
        if store == "SQLite" {
            database = "sqlite:\(dir)/server-\(instances).sqlite"
        } else {
            database = try postgres.createDatabase("gymlog_bench_\(instances)_\(UInt32.random(in: 0...UInt32.max))")
        }
        log("\(store), \(instances) instance(s): \(plan.devices) devices × \(plan.rounds) rounds × \(plan.batch) events…")
        let result = try runLoadScenario(store: store, instances: instances, database: database, binary: binary, plan: plan, directory: dir)
        log("  \(Int(result.eventsPerSecond)) events/s, push p50 \(fmt(result.push.median, 1)) ms p99 \(fmt(result.push.p99, 1)) ms, "
            + "pull p50 \(fmt(result.pull.median, 1)) ms p99 \(fmt(result.pull.p99, 1)) ms, \(result.failures) failed requests")
        results.append(result)
    }

    let section = loadReport(results, plan: plan, postgres: postgres.description)
    print(section)
    try writeLoadSection(section, to: outPath)
    log("wrote the load section of \(outPath)")
}

/// Starts the instances, makes the users, runs every device on its own thread from one
/// starting signal, and stops the instances.
func runLoadScenario(store: String, instances: Int, database: String, binary: String, plan: LoadPlan, directory: String) throws -> LoadResult {
    // Users first (this also creates and migrates the database), then the servers.
    var tokens: [String] = []
    for u in 0..<plan.users { tokens.append(try loadAddUser(binary: binary, database: database, name: "user\(u)")) }
    var servers: [LoadServer] = []
    defer { servers.forEach { $0.stop() } }
    for i in 0..<instances {
        servers.append(try LoadServer(binary: binary, database: database, poolSize: plan.poolSize, maxPushesPerUser: plan.devices,
                                      logPath: "\(directory)/\(store.lowercased())-\(instances)-\(i).log"))
    }

    // Every request body is made before the clock starts: the client should cost nothing.
    let devices: [LoadDevice] = try (0..<plan.devices).map { d in
        let server = servers[d % instances]
        return try LoadDevice(id: "device-\(store.lowercased())-\(d)", token: tokens[d % plan.users], port: server.port, plan: plan)
    }
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for device in devices {
        group.enter()
        let thread = Thread {
            start.wait()
            device.run()
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    Thread.sleep(forTimeInterval: 0.2)
    let t0 = monotonicNanos()
    for _ in devices { start.signal() }
    group.wait()
    let seconds = Double(monotonicNanos() - t0) / 1e9

    return LoadResult(store: store, instances: instances, events: devices.reduce(0) { $0 + $1.eventsAcked },
                      seconds: seconds, push: Stats(devices.flatMap(\.pushMillis)), pull: Stats(devices.flatMap(\.pullMillis)),
                      failures: devices.reduce(0) { $0 + $1.failures })
}

/// One simulated device: its connection, its pre-built pushes and what it measured.
final class LoadDevice: @unchecked Sendable {
    let id: String
    let token: String
    let connection: MiniHTTPClient
    let pushes: [[UInt8]]
    let batch: Int
    private(set) var pushMillis: [Double] = []
    private(set) var pullMillis: [Double] = []
    private(set) var eventsAcked = 0
    private(set) var failures = 0
    private var cursor = "0"

    init(id: String, token: String, port: Int, plan: LoadPlan) throws {
        self.id = id
        self.token = token
        batch = plan.batch
        connection = try MiniHTTPClient(host: "127.0.0.1", port: port)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var bodies: [[UInt8]] = []
        var seq: Int64 = 0
        for round in 0..<plan.rounds {
            var events: [String] = []
            for i in 0..<plan.batch {
                seq += 1
                let clock = String(format: "%015lld-%05d-", now - 60_000 + seq, Int(seq % 100_000)) + id
                let set = "\(id)-s\(round)-\(i % max(1, plan.batch / 2))"  // half the events edit a set again
                events.append("""
                    {"seq":\(seq),"idempotency_key":"\(id)-\(seq)","entity":"sets","entity_id":"\(set)","op":"update","fields":{\
                    "reps":{"v":\(5 + i % 6),"c":"\(clock)"},"weight":{"v":"\(100 + i % 40).5","c":"\(clock)"},\
                    "rpe":{"v":8.5,"c":"\(clock)"},"note":{"v":"round \(round) felt fast","c":"\(clock)"},\
                    "deleted_at":{"v":null,"c":"\(clock)"}}}
                    """)
            }
            bodies.append(Array("{\"device_id\":\"\(id)\",\"events\":[\(events.joined(separator: ","))]}".utf8))
        }
        pushes = bodies
        pushMillis.reserveCapacity(plan.rounds)
        pullMillis.reserveCapacity(plan.rounds * 4)
    }

    func run() {
        for body in pushes {
            let t0 = monotonicNanos()
            guard let pushed = try? connection.send(Endpoint.push.method.rawValue, Endpoint.push.path, token: token, body: body), pushed.status == 200 else {
                failures += 1
                continue
            }
            pushMillis.append(Double(monotonicNanos() - t0) / 1e6)
            eventsAcked += batch
            // Pull everything new since this device's cursor (other devices' pushes too).
            for _ in 0..<1000 {
                let t1 = monotonicNanos()
                guard let page = try? connection.send(Endpoint.pull.method.rawValue, pullURI(.pull, device: id, cursor: "\(cursor)", limit: 1000), token: token),
                      page.status == 200 else { failures += 1; break }
                pullMillis.append(Double(monotonicNanos() - t1) / 1e6)
                let (next, more) = Self.cursorAndMore(page.body)
                cursor = next ?? cursor
                if !more { break }
            }
        }
    }

    /// The pull answer ends with `"cursor":"E:N","has_more":B,"last_applied_seq":K}`.
    static func cursorAndMore(_ body: [UInt8]) -> (String?, Bool) {
        let tail = String(decoding: body.suffix(300), as: UTF8.self)
        guard let c = tail.range(of: "\"cursor\":\"", options: .backwards),
              let end = tail[c.upperBound...].firstIndex(of: "\"") else { return (nil, false) }
        return (String(tail[c.upperBound..<end]), tail.contains("\"has_more\":true"))
    }
}

func loadReport(_ results: [LoadResult], plan: LoadPlan, postgres: String) -> String {
    let machine = MachineFacts.current()
    let baseline = results.first?.eventsPerSecond ?? 1
    var out = """
        ## Server throughput (issue 4): SQLite and PostgreSQL, one and two instances

        `gymlog-bench load` starts real release `gymlog-server` processes (`--log-level warning`,
        `--pool-size \(plan.poolSize)`) on loopback and runs \(plan.devices) devices of \(plan.users) users (\(plan.devices / max(1, plan.users)) devices
        each) at once, one thread and one keep-alive connection per device: \(plan.rounds) rounds of one push of
        \(plan.batch) events (5 fields each, half of them editing a set again) followed by pulls from the
        device's cursor until `has_more` is false (its own and its siblings' changes). With two
        instances, devices alternate between them, so every user's pushes reach both at once.
        Request bodies are made before the clock starts. events/s = events acknowledged / wall
        time of the whole scenario; latencies are per request, from write to last byte read.
        The SQLite store commits with `synchronous=FULL` (two instances share one WAL file);
        PostgreSQL is \(postgres). Everything shares one machine:
        \(machine.cpus) CPUs (\(machine.cpuModel)), \(machine.memory), \(machine.kernel), \(machine.date).

        ```sh
        swift build -c release                        # every product, gymlog-server included
        .build/release/gymlog-bench load              # or --quick; --postgres URL to use your own server
        ```

        | store | instances | events/s | vs SQLite ×1 | push p50 | push p99 | pull p50 | pull p99 | requests | failed |
        |---|---|---|---|---|---|---|---|---|---|

        """
    for r in results {
        out += "| \(r.store) | \(r.instances) | \(Int(r.eventsPerSecond.rounded())) | \(fmt(r.eventsPerSecond / baseline, 2))× "
            + "| \(fmt(r.push.median, 1)) ms | \(fmt(r.push.p99, 1)) ms | \(fmt(r.pull.median, 1)) ms | \(fmt(r.pull.p99, 1)) ms "
            + "| \(r.push.count + r.pull.count) | \(r.failures) |\n"
    }
    out += """

        Per scenario \(plan.devices * plan.rounds * plan.batch) events in \(plan.devices * plan.rounds) pushes. Reading the figures:

        - On this 2-core machine the clients, the server instances and PostgreSQL share the same
          CPUs, so a second instance adds no CPU: the two-instance rows show that instances over
          one database keep their guarantees at about the same cost, not how they scale on
          separate machines.
        - A PostgreSQL push is two statements, each on a connection leased for it alone: a
          lock-free read and one compare-and-swap write (DESIGN.md, "PostgreSQL store"). A
          user's pushes on one instance queue inside the server, holding no connection, so
          pulls no longer wait behind pushes waiting for their user's lock; with two instances
          a push that lost the compare-and-swap to the other one reads and writes again.
        - Every instance runs with `--max-pushes-per-user \(plan.devices)`: the scenario
          measures the stores, and with the default of 4 a user's fifth device was answered 429.
        - Two SQLite instances share one file through SQLite's file lock, whose busy handler
          sleeps and retries: hence the long push p99 with two instances.

        """
    return out
}

/// Replaces the load section of BENCHMARKS.md (see `rewriteMarkedSection`).
func writeLoadSection(_ section: String, to path: String) throws {
    try rewriteMarkedSection(in: path, begin: "<!-- load:begin: this section is rewritten by `gymlog-bench load` -->",
                             end: "<!-- load:end -->", content: section)
}
