import Foundation
import GymLogCore

/// The largest text value the sync server accepts (`maxValueBytes`, GymLogServer's validation).
public let syncableTextBytes = 16 * 1024

/// The write pipeline's invariant (the sync brief `../shared/SYNC.md`, guarantee 1, DESIGN.md "Write pipeline"), the one
/// oracle of the crash tests and the REPL fuzzer: every changed row has its outbox event and
/// agrees with it, the outbox is gapless, clocks only move forward.
public enum WritePipelineInvariant {
    /// Checks a client database against the invariant that `ChangeWriter.write` (row + outbox
    /// event in one transaction), `RowWriter.upsert` (per-field clocks in `clocks`) and the sync
    /// bookkeeping in SyncState.swift (`acknowledge`, `applyPulled`, `unparkDueEvents`) maintain.
    /// With d = device.device_id, L = device.last_seq, K = device.last_clock, A = sync_state.acked_seq:
    ///
    /// 1. Outbox numbering: the events with a positive seq are exactly A+1 ... L, gapless (events
    ///    up to A were acknowledged and deleted in the transaction that raised A); negative seqs
    ///    are parked (rejected) events. Before any sync A = 0 and nothing is parked, so the outbox
    ///    is 1 ... L.
    /// 2. Clocks: every event stamps all its fields with one clock from this device (node d);
    ///    pending events' clocks strictly increase with seq; none is beyond K.
    /// 3. Every event names an existing row of its entity, and each of its fields is a field of
    ///    that row whose clock is at least the event's.
    /// 4. Per (entity, id, field), the latest event (by clock) matches the row: the row's clock
    ///    equals it and the row's value equals the event's; or the row holds a newer clock from
    ///    ANOTHER device (a pulled write that won). A newer clock of d without an event is a
    ///    local write that lost its event.
    /// 5. Every row field whose clock is from d and newer than `watermark` (the clock of event A,
    ///    the last acknowledged one; nil = nothing acknowledged yet) has a pending event with
    ///    exactly that clock: no local change waits without its event.
    /// 6. Every clock stored in a row is at most K, so the next local write outranks all of them.
    /// 7. Before any sync (`synced == false`): every row has clocks (empty-clock placeholder
    ///    parents come only from pulls) and every clock is d's.
    public static func violations(_ s: ClientDatabaseDump, acknowledgedThrough watermark: HLC?, synced: Bool) -> [String] {
        var out: [String] = []
        guard s.hasSchema else { return [] }
        guard let d = s.deviceID else {
            if !s.outbox.isEmpty || s.rows.values.contains(where: { !$0.isEmpty }) { out.append("rows or events but no device row") }
            return out
        }
        let pending = s.outbox.filter { $0.seq > 0 }, parked = s.outbox.filter { $0.seq < 0 }
        // 1
        let expected: [Int64] = s.ackedSeq < s.lastSeq ? Array((s.ackedSeq + 1)...s.lastSeq) : []
        if pending.map(\.seq) != expected {
            let seqs = pending.map(\.seq)
            out.append("outbox seqs \(seqs.first.map(String.init) ?? "-")...\(seqs.last.map(String.init) ?? "-") (\(seqs.count)) are not exactly acked_seq+1 ... last_seq = \(s.ackedSeq + 1)...\(s.lastSeq)")
        }
        if !synced && !parked.isEmpty { out.append("\(parked.count) parked events before any sync") }
        if !synced && s.ackedSeq != 0 { out.append("acked_seq \(s.ackedSeq) before any sync") }
        // 2
        var previous: HLC?
        for e in pending {
            guard let clock = e.clock else { out.append("event \(e.seq) has no fields"); continue }
            if Set(e.fields.map(\.clock)).count != 1 { out.append("event \(e.seq) carries more than one clock") }
            if clock.node != d { out.append("event \(e.seq) has clock \(clock) from another device") }
            if let p = previous, !(p < clock) { out.append("event \(e.seq) clock \(clock) is not after the previous event's \(p)") }
            if clock > s.lastClock { out.append("event \(e.seq) clock \(clock) is beyond device.last_clock \(s.lastClock)") }
            previous = clock
        }
        // 3, collecting the latest event per field for 4
        var latest: [String: (clock: HLC, value: FieldValue, seq: Int64)] = [:]
        for e in s.outbox {
            guard let row = s.rows[e.entity]?[e.entityID] else { out.append("event \(e.seq) names \(e.entity)/\(e.entityID), which is not stored"); continue }
            for f in e.fields {
                let key = "\(e.entity)/\(e.entityID)/\(f.name)"
                if let problem = FieldRules.problem(entity: e.entity, field: f.name, value: f.value) {
                    out.append("event \(e.seq) sets \(key) to \(f.value), which the server refuses: \(problem)")
                }
                guard let rowClock = row.clocks[f.name] else { out.append("event \(e.seq) sets \(key), which the row has no clock for"); continue }
                if rowClock < f.clock { out.append("event \(e.seq) sets \(key) at \(f.clock), newer than the row's \(rowClock)") }
                if latest[key].map({ $0.clock < f.clock }) ?? true { latest[key] = (f.clock, f.value, e.seq) }
            }
        }
        // 4
        for (key, event) in latest {
            let parts = key.split(separator: "/", maxSplits: 2).map(String.init)
            guard let row = s.rows[parts[0]]?[parts[1]], let rowClock = row.clocks[parts[2]] else { continue }
            if rowClock == event.clock {
                if !sameValue(row.cell(parts[2]) ?? .null, Cell(event.value)) { out.append("\(key) is \(row.cell(parts[2]) ?? .null) but its latest event \(event.seq) says \(event.value)") }
            } else if rowClock.node == d {
                out.append("\(key) has the local clock \(rowClock), newer than its latest event \(event.seq) (\(event.clock))")
            }
        }
        // 5 (the snapshot holds at least every row with such a clock, see `RowScope`)
        for (entity, rows) in s.rows {
            for (id, row) in rows {
                for (name, clock) in row.clocks where clock.node == d && watermark.map({ clock > $0 }) ?? true {
                    let key = "\(entity)/\(id)/\(name)"
                    if latest[key]?.clock != clock { out.append("\(key) was changed at \(clock) but no pending event carries that change") }
                }
            }
        }
        // 6, 7 (over every row, computed by SQLite)
        if let newest = s.newestRowClock, newest > s.lastClock { out.append("a row holds the clock \(newest), beyond device.last_clock \(s.lastClock)") }
        if !synced && s.rowsWithoutClocks > 0 { out.append("\(s.rowsWithoutClocks) rows have no clocks before any sync") }
        if !synced && s.fieldsWithForeignClocks > 0 { out.append("\(s.fieldsWithForeignClocks) fields hold another device's clock before any sync") }
        return Array(out.prefix(20)) + (out.count > 20 ? ["... \(out.count) violations"] : [])
    }

    /// Checks ONE committed change (a line the REPL accepted), from the dump `before` to the
    /// dump `after` (both read with `tables: true`): what changed must be exactly what the new
    /// outbox events say. Every changed synced row has an event, every event changed its row,
    /// earlier events stay as they were, the sequence stays gapless, nothing outside the synced
    /// tables and the outbox changes, and every new value is one the server accepts. The rows
    /// holding the events' values and clocks is `violations(_:acknowledgedThrough:synced:)`'s part.
    public static func violations(from before: ClientDatabaseDump, to after: ClientDatabaseDump) -> [String] {
        var problems: [String] = []
        for name in ["sync_state", "records_meta", "grdb_migrations"] where before.tables[name] != after.tables[name] {
            problems.append("table \(name) changed: \(ClientDatabaseDump.difference(before, after))")
        }
        let old = before.outbox, now = after.outbox
        let oldSeqs = Set(old.map(\.seq))
        let kept = now.filter { oldSeqs.contains($0.seq) }
        if kept.map(\.payload) != old.map(\.payload) || kept.count != old.count {
            problems.append("existing outbox events changed or vanished")
        }
        let new = now.filter { !oldSeqs.contains($0.seq) }
        let first = (old.last?.seq ?? 0) + 1
        if new.map(\.seq) != Array(first..<(first + Int64(new.count))) {
            problems.append("new outbox seqs are not gapless after \(first - 1): \(new.map(\.seq))")
        }
        if after.deviceID == nil || after.lastSeq != (now.last?.seq ?? 0) {
            problems.append("device.last_seq is \(after.deviceID == nil ? "missing" : String(after.lastSeq)) but the newest outbox seq is \(now.last?.seq ?? 0)")
        }
        var changed: Set<String> = []
        for table in ClientDatabaseDump.syncedTables {
            let a = before.tables[table]?.rowsByID() ?? [:], b = after.tables[table]?.rowsByID() ?? [:]
            for id in Set(a.keys).subtracting(b.keys) { problems.append("\(table) row \(id) vanished (hard delete)") }
            for (id, row) in b where a[id] != row { changed.insert("\(table) \(id)") }
        }
        let evented = Set(new.map { "\($0.entity) \($0.entityID)" })
        for row in changed.subtracting(evented).sorted().prefix(3) { problems.append("\(row) changed without an outbox event") }
        for row in evented.subtracting(changed).sorted().prefix(3) { problems.append("outbox event for \(row), which did not change") }
        // (One line may write a row twice, e.g. `note` creating the workout it notes.)
        for e in new {
            for f in e.fields {
                if let problem = FieldRules.problem(entity: e.entity, field: f.name, value: f.value) {
                    problems.append("outbox event \(e.seq) field \(e.entity).\(f.name) holds \(f.value), which the server refuses (\(problem)), so it would never sync")
                }
                guard case .text(let s) = f.value else { continue }
                if s.utf8.count > syncableTextBytes {
                    problems.append("outbox event \(e.seq) field \(f.name) holds \(s.utf8.count) bytes; the server refuses more than \(syncableTextBytes), so it would never sync")
                }
                if s.utf8.contains(0) {
                    problems.append("outbox event \(e.seq) field \(f.name) holds a NUL, which the server refuses, so it would never sync")
                }
            }
        }
        return problems
    }
}
