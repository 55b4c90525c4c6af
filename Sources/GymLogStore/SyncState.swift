import Foundation
import GRDB
import GymLogCore
import GymLogWire

/// A row's changed fields as pulled from the server.
public struct RemoteChange: Equatable, Sendable {
    public var entity: String
    public var entityID: String
    public var fields: [FieldChange]
    /// Why the change cannot be applied before its fields are even read (a sealed value that
    /// does not open with this device's key): it is parked with this reason, fields unread.
    public var refusal: String?
    public init(entity: String, entityID: String, fields: [FieldChange], refusal: String? = nil) {
        self.entity = entity; self.entityID = entityID; self.fields = fields; self.refusal = refusal
    }
}

/// Where this database stands with its server.
public struct SyncState: Equatable, Sendable {
    public var deviceID: String
    public var server: String?
    public var epoch: String?
    public var cursor: Int64
    public var ackedSeq: Int64
    public var lastSyncAt: Int64?
    public var lastError: String?
    public var outboxDepth: Int
    public var oldestPendingAt: Int64?
    public var failing: [(seq: Int64, entity: String, attempts: Int, error: String, nextAttemptAt: Int64?)]
    /// How many pulled changes are parked, and the first of them (`ParkedChanges`).
    public var parkedCount = 0
    public var parked: [ParkedChange] = []

    public static func == (a: SyncState, b: SyncState) -> Bool {
        a.deviceID == b.deviceID && a.epoch == b.epoch && a.cursor == b.cursor && a.ackedSeq == b.ackedSeq
            && a.outboxDepth == b.outboxDepth
    }
}

/// What applying one pulled page did.
public struct ApplyStats: Equatable, Sendable {
    /// Fields whose remote value won and was written.
    public var fieldsWritten = 0
    /// Fields whose local value was newer or equal and was kept.
    public var fieldsKept = 0
    public var rows = 0
    /// Changes that break the rules of a local write, kept aside unapplied (`parked_changes`).
    public var parked = 0
}

extension GymLogDatabase {
    /// Where this device's last complete pull ended (`applyPulled`'s `pulledThrough`; 0 before
    /// one, and after a rebase): it holds every change the server numbered up to it.
    public func pulledThrough() throws -> Int64 {
        try read { try Int64.fetchOne($0, sql: "SELECT pulled_through FROM sync_state") ?? 0 }
    }

    /// The sync bookkeeping for `gymlog status` and the sync cycle.
    public func syncState() throws -> SyncState {
        try read { db in
            let s = try Row.fetchOne(db, sql: "SELECT server, epoch, cursor, acked_seq, last_sync_at, last_error FROM sync_state")!
            let depth = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0
            let oldest = try Int64.fetchOne(db, sql: "SELECT MIN(created_at) FROM outbox")
            let failing = try Row.fetchAll(db, sql: """
                SELECT abs(seq) AS seq, entity, attempts, last_error, next_attempt_at FROM outbox WHERE last_error IS NOT NULL ORDER BY abs(seq) LIMIT 20
                """).map { (seq: $0["seq"] as Int64, entity: $0["entity"] as String, attempts: $0["attempts"] as Int, error: $0["last_error"] as String,
                        nextAttemptAt: $0["next_attempt_at"] as Int64?) }
            let parked = try ParkedChanges.list(in: db)
            // Read, not this handle's `deviceID`: a sync in another process may have made the
            // database a device of its own since it was opened (`becomeNewDevice`).
            let device = try String.fetchOne(db, sql: "SELECT device_id FROM device") ?? deviceID
            return SyncState(deviceID: device, server: s["server"], epoch: s["epoch"], cursor: s["cursor"], ackedSeq: s["acked_seq"],
                             lastSyncAt: s["last_sync_at"], lastError: s["last_error"], outboxDepth: depth, oldestPendingAt: oldest, failing: failing,
                             parkedCount: parked.count, parked: parked.first)
        }
    }

    /// Up to `limit` events after `seq`, in sequence order. Parked events (rejected, waiting
    /// out a backoff) hold a negative placeholder instead of a sequence number, so what is
    /// pending is always a gapless run the server accepts.
    /// Each stored payload (`encodePayload`) is already the wire's `fields` object, so an event
    /// is read as the `PushEvent` it goes out as, its fields never decoded.
    public func pendingEvents(after seq: Int64, limit: Int) throws -> [PushEvent] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT seq, idempotency_key, entity, entity_id, op, payload FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?
                """, arguments: [seq, limit]).map { row in
                PushEvent(seq: row["seq"], idempotencyKey: row["idempotency_key"], entity: row["entity"], entityID: row["entity_id"],
                          op: row["op"], fields: EventFields(json: row["payload"]))
            }
        }
    }

    /// Gives parked events whose backoff has passed new sequence numbers after the current
    /// ones, so the next push retries them. Returns how many were unparked.
    @discardableResult
    public func unparkDueEvents() throws -> Int {
        try queue.writeWithoutTransaction { db in
            var count = 0
            try db.inTransaction(.immediate) {
                var lastSeq = try Int64.fetchOne(db, sql: "SELECT last_seq FROM device") ?? 0
                for seq in try Int64.fetchAll(db, sql: "SELECT seq FROM outbox WHERE seq < 0 AND next_attempt_at <= ? ORDER BY -seq",
                                              arguments: [environment.now()]) {
                    lastSeq += 1
                    try db.execute(sql: "UPDATE outbox SET seq = ? WHERE seq = ?", arguments: [lastSeq, seq])
                    count += 1
                }
                // Nothing due (nearly always): the commit then writes nothing, so a sync with
                // nothing to do costs no local write either.
                if count > 0 { try db.execute(sql: "UPDATE device SET last_seq = ?", arguments: [lastSeq]) }
                return .commit
            }
            return count
        }
    }

    /// Removes every event the server acknowledged (seq <= lastAppliedSeq), except those it
    /// rejected: they are parked with their error, an attempt count and an exponential
    /// backoff (30 s doubling, at most a day); `unparkDueEvents` sends them again later.
    ///
    /// Not fsynced unless an event was rejected: a lost acknowledgement comes back with the next
    /// pull (`last_applied_seq`), while a lost parking would let the heal delete the event.
    public func acknowledge(lastAppliedSeq: Int64, rejected: [Int64: String]) throws {
        try write(rejected.isEmpty ? .recoverable : .durable) { db in
            try db.inTransaction(.immediate) {
                let now = environment.now()
                for (seq, error) in rejected where seq > 0 && seq <= lastAppliedSeq {
                    let attempts = (try Int.fetchOne(db, sql: "SELECT attempts FROM outbox WHERE seq = ?", arguments: [seq]) ?? 0) + 1
                    let backoff = Int64(min(24 * 3600, 30 << min(attempts - 1, 12))) * 1000
                    try db.execute(sql: """
                        UPDATE outbox SET seq = -seq, attempts = ?, last_error = ?, next_attempt_at = ? WHERE seq = ?
                        """, arguments: [attempts, error, now + backoff, seq])
                }
                try db.execute(sql: "DELETE FROM outbox WHERE seq > 0 AND seq <= ?", arguments: [lastAppliedSeq])
                try db.execute(sql: "UPDATE sync_state SET acked_seq = max(acked_seq, ?)", arguments: [lastAppliedSeq])
                return .commit
            }
        }
    }

    /// Applies one pulled page and its cursor in ONE transaction: a change that breaks the
    /// rules of a local write (`PulledChangeRules`) is parked whole, unapplied, and the rest
    /// of the page goes on; per field, the remote value
    /// is written only when its clock is newer than the stored one; every clock seen is
    /// folded into the local HLC; a new set logged after every other of its
    /// exercise moves its records as a local log would, and any other exercise touched gets its
    /// records rebuilt. Nothing here
    /// goes to the outbox: these changes came from the server, so the commit is not fsynced
    /// (`Durability.recoverable`): a page a power cut rolls back is pulled again from the
    /// rolled-back cursor, and a local write made after it fsyncs it along with itself.
    ///
    /// `pulledThrough`, when given, is stored with the cursor: this device now holds every
    /// change the server numbered up to it (a pull that ended, or a push the server answered
    /// as the only writes since the cursor), and later pulls ask only for what came after
    /// it in each record (`since`).
    @discardableResult
    public func applyPulled(_ changes: [RemoteChange], epoch: String, cursor: Int64, pulledThrough: Int64? = nil) throws -> ApplyStats {
        try commit(.recoverable) { w in
            var stats = ApplyStats()
            var touchedExercises = Set<UUID>()
            // Nearly always none: then no change of the page asks for its row's.
            var anyParked = try ParkedChanges.any(in: w.db)
            for change in changes {
                guard let entity = EntityKind(rawValue: change.entity) else {
                    // An entity this version does not know: skip it (the server keeps it). One
                    // that did not even read is kept aside, to be shown.
                    if let refusal = change.refusal {
                        try ParkedChanges.park(change.entity, id: change.entityID, fields: [], reason: refusal, at: w.now, in: w.db)
                        anyParked = true
                        stats.parked += 1
                    }
                    continue
                }
                let stored = try String.fetchOne(w.db.cachedStatement(sql: "SELECT clocks FROM \(entity.rawValue) WHERE id = ?"),
                                                 arguments: [change.entityID])
                // A change parked before for this row comes back with this one: the two
                // together may be whole (a later change fixes a value, or brings a field).
                let parked = anyParked ? try ParkedChanges.take(entity, id: change.entityID, in: w.db) : []
                if let refusal = change.refusal {
                    // Its fields cannot be read, so they are not kept; what was parked stays.
                    try ParkedChanges.park(entity.rawValue, id: change.entityID, fields: parked, reason: refusal, at: w.now, in: w.db)
                    anyParked = true
                    stats.parked += 1
                    continue
                }
                let fields = ParkedChanges.merged(parked, change.fields)
                if let reason = PulledChangeRules.problem(entity, fields, rowExists: stored != nil) {
                    try ParkedChanges.park(entity.rawValue, id: change.entityID, fields: fields, reason: reason, at: w.now, in: w.db)
                    anyParked = true
                    stats.parked += 1
                    continue
                }
                let clocks = FieldClocks(column: stored)
                var winners: [FieldChange] = []
                for f in fields {
                    w.observe(f.clock)
                    if incomingWins(stored: clocks[f.name], incoming: f.clock) { winners.append(f) } else { stats.fieldsKept += 1 }
                }
                guard !winners.isEmpty else { continue }
                // A set moved to another exercise (`exercises merge`) leaves the old one's records stale.
                if entity == .sets, winners.contains(where: { $0.name == "exercise_id" }),
                   let e = try String.fetchOne(w.db, sql: "SELECT exercise_id FROM sets WHERE id = ?", arguments: [change.entityID]),
                   let id = UUID(uuidString: e) { touchedExercises.insert(id) }
                try w.ensureParents(of: entity, winners)
                let creating = stored == nil && w.isComplete(entity, winners)
                // This device's own edit of a set that a later one replaces: said once.
                let replacedFrom = entity == .sets && stored != nil
                    ? ReplacedEdit.replacedFields(winners, storedClocks: clocks, localDevice: w.deviceID) : []
                let before = replacedFrom.isEmpty ? nil : try ReplacedEdit.storedSet(w.db, id: change.entityID)
                try RowWriter.upsert(w.db, entity, id: change.entityID, changes: winners, creating: creating)
                if let before, let after = try ReplacedEdit.storedSet(w.db, id: change.entityID),
                   let notice = ReplacedEdit.notice(exercise: after.exercise, before: before.set, after: after.set,
                                                    device: winners.first { $0.name == replacedFrom[0] }!.clock.node) {
                    try ReplacedEdit.record(notice, in: w.db)
                }
                stats.fieldsWritten += winners.count
                stats.rows += 1
                // A set logged elsewhere after every other of its exercise (what another
                // device sends while its lifter trains) moves the records as a local log does;
                // anything else the exercise saw in this page rebuilds them once, below.
                if entity == .sets, creating, let set = try RecordBook(w).newestLiveSet(id: change.entityID),
                   !touchedExercises.contains(set.exerciseID) {
                    let session = try Workouts(w).placement(workoutID: set.workoutID, exerciseID: set.exerciseID).volume
                    _ = try RecordBook(w).checkRecords(set, session: session)
                } else if entity == .sets {
                    if let e = try String.fetchOne(w.db, sql: "SELECT exercise_id FROM sets WHERE id = ?", arguments: [change.entityID]),
                       let id = UUID(uuidString: e) { touchedExercises.insert(id) }
                    for f in winners where f.name == "exercise_id" { if let t = f.value.text, let id = UUID(uuidString: t) { touchedExercises.insert(id) } }
                }
            }
            for id in touchedExercises { try RecordBook(w).rebuildRecords(exerciseID: id) }
            try w.db.execute(sql: "UPDATE sync_state SET epoch = ?, cursor = ?, pulled_through = coalesce(?, pulled_through)",
                             arguments: [epoch, cursor, pulledThrough])
            return stats
        }
    }

    /// Starts over with a server that does not know this device's history (a new epoch after
    /// a wipe, or a restore from an older backup): the outbox is replaced by one event per
    /// row carrying every field with its stored clock, numbered from `nextSeq`. Merging is
    /// per-field last-writer-wins, so re-sending what the server may already have is harmless.
    public func rebase(epoch: String, nextSeq: Int64) throws {
        try queue.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                let device = try String.fetchOne(db, sql: "SELECT device_id FROM device")!
                try Self.refillOutbox(db, device: device, nextSeq: nextSeq, now: environment.now())
                try db.execute(sql: "UPDATE sync_state SET epoch = ?, cursor = 0, pulled_through = 0, acked_seq = ?", arguments: [epoch, nextSeq - 1])
                return .commit
            }
        }
    }

    /// Makes this database a device of its own, after the server showed that another database
    /// sends under its device id (`key_reused`, or an acknowledgement past any seq written
    /// here): it is a copy (a backup restored, a VM snapshot, `cp -a` of a home folder). A new
    /// device id; every row sent again under it from seq 1, as `rebase` does (whatever an
    /// older gymlog took for a replay and dropped goes again too); a full pull after; and a
    /// notice for `gymlog status`. One transaction. Returns the new device id.
    public func becomeNewDevice() throws -> String {
        let device = environment.newID().key
        try queue.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                let former = try String.fetchOne(db, sql: "SELECT device_id FROM device")!
                try db.execute(sql: "UPDATE device SET device_id = ?", arguments: [device])
                let sent = try Self.refillOutbox(db, device: device, nextSeq: 1, now: environment.now())
                let notice = "Another database synced as this device (\(former)): this one is a copy (a backup restored, a snapshot or a copied "
                    + "folder). It became device \(device) on \(localDateTime(millis: environment.now(), utcOffsetSeconds: environment.utcOffset(environment.now())).prefix(16)) "
                    + "and sent its \(plural(sent, "row")) again; nothing was lost."
                try db.execute(sql: "UPDATE sync_state SET cursor = 0, pulled_through = 0, acked_seq = 0, copy_notice = ?", arguments: [notice])
                return .commit
            }
        }
        return device
    }

    /// What `becomeNewDevice` did, until `status` has said it once (nil when nothing to say).
    public func takeCopyNotice() throws -> String? {
        try queue.write { db in
            let notice = try String.fetchOne(db, sql: "SELECT copy_notice FROM sync_state")
            if notice != nil { try db.execute(sql: "UPDATE sync_state SET copy_notice = NULL") }
            return notice
        }
    }

    /// Until when (Unix ms) a pulled value sealed in the `s1:` format, which does not bind its
    /// write's clock, is opened: when this database first ran 0.12.0 (`ValueSeal.unboundUntil`).
    public func unboundSealsUntil() throws -> Int64 {
        try queue.read { db in try Int64.fetchOne(db, sql: "SELECT unbound_seals_until FROM sync_state") ?? 0 }
    }

    /// The highest seq this database ever gave an event (`device.last_seq`).
    public func lastWrittenSeq() throws -> Int64 {
        try read { try Int64.fetchOne($0, sql: "SELECT last_seq FROM device") ?? 0 }
    }

    /// Replaces the outbox with one event per row carrying every field with its stored clock,
    /// numbered from `nextSeq` under `device`'s keys; returns how many.
    @discardableResult
    private static func refillOutbox(_ db: Database, device: String, nextSeq: Int64, now: Int64) throws -> Int {
        try db.execute(sql: "DELETE FROM outbox")
        var seq = nextSeq - 1
        // Parents before children, as `EntityKind` lists them.
        for entity in EntityKind.allCases {
            try RowWriter.forEachRow(db, entity) { id, fields in
                seq += 1
                try db.execute(sql: """
                    INSERT INTO outbox (seq, entity, entity_id, op, payload, idempotency_key, created_at) VALUES (?, ?, ?, 'update', ?, ?, ?)
                    """, arguments: [seq, entity.rawValue, id, encodePayload(fields), ChangeWriter.idempotencyKey(device: device, seq: seq), now])
            }
        }
        try db.execute(sql: "UPDATE device SET last_seq = ?", arguments: [seq])
        return Int(seq - nextSeq + 1)
    }

    /// The wall clock this database stamps writes with (Unix milliseconds).
    public var wallClock: Int64 { environment.now() }

    /// Recovers from a clock that was far ahead and has been fixed since. Writes made while
    /// it was wrong carry clocks the server refuses (`clock_ahead`), and the HLC would keep
    /// stamping new writes from that future for days. Every pending event of this device whose
    /// clock is past `limit` gets a fresh clock, in sequence order, from an HLC restarted above
    /// now and above every other clock this database holds (so a re-stamped write still beats
    /// whatever it overwrote); a row's field clock follows when that event is still the
    /// field's latest writer. One transaction. Returns how many events were re-stamped.
    @discardableResult
    public func restampClocks(after limit: Int64) throws -> Int {
        try queue.writeWithoutTransaction { db in
            var count = 0
            try db.inTransaction(.immediate) {
                let events = try Row.fetchAll(db, sql: "SELECT seq, entity, entity_id, payload FROM outbox ORDER BY abs(seq)").map {
                    (seq: $0["seq"] as Int64, entity: $0["entity"] as String, id: $0["entity_id"] as String,
                     fields: try decodePayload($0["payload"] as String))
                }
                func isFuture(_ clock: HLC) -> Bool { clock.millis > limit && clock.node == deviceID }
                let future = Set(events.flatMap { $0.fields.map(\.clock).filter(isFuture) })
                guard !future.isEmpty else { return .commit }
                var clock = HLC(millis: environment.now(), counter: 0, node: deviceID)
                for entity in EntityKind.allCases {
                    for text in try String.fetchAll(db, sql: "SELECT clocks FROM \(entity.rawValue)") {
                        for c in FieldClocks(column: text).byField.values where !future.contains(c) && c > clock { clock = c }
                    }
                }
                for event in events where event.fields.contains(where: { isFuture($0.clock) }) {
                    clock = clock.tick(now: environment.now(), node: deviceID)
                    let stored = try String.fetchOne(db, sql: "SELECT clocks FROM \(event.entity) WHERE id = ?", arguments: [event.id])
                    var clocks = FieldClocks(column: stored)
                    let restamped = event.fields.map { field -> FieldChange in
                        guard isFuture(field.clock) else { return field }
                        if clocks[field.name] == field.clock { clocks[field.name] = clock }
                        return FieldChange(field.name, field.value, clock)
                    }
                    try db.execute(sql: "UPDATE outbox SET payload = ? WHERE seq = ?", arguments: [encodePayload(restamped), event.seq])
                    if stored != nil {
                        try db.execute(sql: "UPDATE \(event.entity) SET clocks = ? WHERE id = ?",
                                       arguments: [clocks.column, event.id])
                    }
                    count += 1
                }
                try db.execute(sql: "UPDATE device SET last_clock = ?", arguments: [clock.description])
                return .commit
            }
            return count
        }
    }

    /// Notes how a sync cycle ended, for `gymlog status` and for when the next cycle may
    /// start by itself: a success forgets any backoff and stop; a failure waits
    /// `AutoSync.backoff` longer than the last one; a stop is not retried by itself.
    public func recordSyncOutcome(server: String, _ outcome: SyncOutcome) throws {
        try queue.write { db in
            let now = environment.now()
            switch outcome {
            case .synced(let rejected):
                // Rejected events wait out a backoff of their own; the cycle itself went
                // through, and its pull is fresh.
                let error = rejected == 0 ? nil : "\(rejected) event(s) rejected"
                try db.execute(sql: """
                    UPDATE sync_state SET server = ?, last_error = ?, last_sync_at = ?, next_try_at = NULL, backoff_ms = 0, retry_stopped = 0, stop_shown = 0
                    """, arguments: [server, error, now])
            case .failed(let error, let capMs):
                let previous = try Int64.fetchOne(db, sql: "SELECT backoff_ms FROM sync_state") ?? 0
                let backoff = AutoSync.backoff(after: previous, capMs: capMs)
                try db.execute(sql: """
                    UPDATE sync_state SET server = ?, last_error = ?, next_try_at = ?, backoff_ms = ?, retry_stopped = 0, stop_shown = 0
                    """, arguments: [server, error, now + backoff, backoff])
            case .stopped(let error):
                try db.execute(sql: """
                    UPDATE sync_state SET server = ?, last_error = ?, next_try_at = NULL, backoff_ms = 0, retry_stopped = 1,
                        stop_shown = CASE WHEN retry_stopped = 1 AND last_error IS ? THEN stop_shown ELSE 0 END
                    """, arguments: [server, error, error])
            }
        }
    }

    /// Forgets the last sync error, its backoff and any stop (after `logout`, or a `login`
    /// whose token was accepted), so `status` does not show a failure that no longer applies
    /// and the sync that runs by itself tries again.
    public func clearSyncError() throws {
        try queue.write {
            try $0.execute(sql: "UPDATE sync_state SET last_error = NULL, next_try_at = NULL, backoff_ms = 0, retry_stopped = 0, stop_shown = 0")
        }
    }

    /// What decides whether a sync starts by itself now: one row and one indexed probe, cheap
    /// enough to read after every command.
    public func syncSchedule() throws -> SyncSchedule {
        try read { db in
            let s = try Row.fetchOne(db, sql: "SELECT last_sync_at, last_error, next_try_at, retry_stopped, stop_shown FROM sync_state")!
            // Parked events whose backoff has passed are sent by the next cycle too.
            let pending = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM outbox WHERE seq > 0) OR EXISTS (SELECT 1 FROM outbox WHERE seq < 0 AND next_attempt_at <= ?)
                """, arguments: [environment.now()]) ?? false
            // Counted up to a cap: the REPL reads this every second, and an import leaves thousands.
            let waiting = try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM outbox LIMIT ?)", arguments: [SyncSchedule.waitingCap]) ?? 0
            let mark = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM outbox") ?? 0
            return SyncSchedule(pending: pending, lastSyncAt: s["last_sync_at"], lastError: s["last_error"], nextTryAt: s["next_try_at"],
                                stopped: s["retry_stopped"], stopShown: s["stop_shown"], waiting: waiting, outboxMark: mark)
        }
    }

    /// Notes that the user was told the sync stopped, so it is said once, not after every command.
    public func markSyncStopShown() throws {
        try queue.write { try $0.execute(sql: "UPDATE sync_state SET stop_shown = 1 WHERE retry_stopped = 1") }
    }
}

/// When the next sync may start by itself (`SyncState.swift`'s `syncSchedule`).
public struct SyncSchedule: Equatable, Sendable {
    /// Whether outbox events wait to be pushed.
    public var pending: Bool
    /// The last cycle that succeeded (Unix ms), nil before the first.
    public var lastSyncAt: Int64?
    public var lastError: String?
    /// When a failed cycle may be tried again, nil when not backing off.
    public var nextTryAt: Int64?
    /// The last error is one no retry fixes (`SyncOutcome.stopped`).
    public var stopped: Bool
    /// The user was already told about the stop.
    public var stopShown: Bool
    /// The outbox's events, parked ones included, counted up to `waitingCap`.
    public var waiting: Int = 0
    /// The newest outbox event's sequence number (0 when empty): when it moves, something wrote.
    public var outboxMark: Int64 = 0

    public static let waitingCap = 1000

    /// What holds a cycle back now (`AutoSync.hold`), or nil when one may start.
    public func hold(_ settings: Settings, now: Int64, pulling: Bool = false) -> AutoSync.Hold? {
        AutoSync.hold(enabled: settings.autoSync, loggedIn: settings.server != nil && settings.token != nil, stopped: stopped,
                      nextTryAt: nextTryAt, pending: pending, lastSyncAt: lastSyncAt, now: now,
                      intervalMs: Int64(settings.syncIntervalSeconds) * 1000, pulling: pulling)
    }
}

extension ChangeWriter {
    /// A pulled set or alias may arrive before the row it points at (a later page). Insert
    /// an empty parent with no clocks: any real field write beats it, and it only shows if
    /// a sync stops half way.
    func ensureParents(of entity: EntityKind, _ fields: [FieldChange]) throws {
        let parents: [(String, EntityKind)]
        switch entity {
        case .sets: parents = [("workout_id", .workouts), ("exercise_id", .exercises)]
        case .aliases: parents = [("exercise_id", .exercises)]
        default: return
        }
        for (field, table) in parents {
            guard let id = fields.first(where: { $0.name == field })?.value.text else { continue }
            try db.execute(sql: "INSERT OR IGNORE INTO \(table.rawValue) (id, clocks) VALUES (?, '{}')", arguments: [id])
        }
    }

    /// Whether the fields include every NOT NULL column without a default (a full create).
    func isComplete(_ entity: EntityKind, _ fields: [FieldChange]) -> Bool {
        let names = Set(fields.map(\.name))
        switch entity {
        case .sets: return names.contains("workout_id") && names.contains("exercise_id")
        case .aliases: return names.contains("exercise_id")
        default: return true
        }
    }
}
