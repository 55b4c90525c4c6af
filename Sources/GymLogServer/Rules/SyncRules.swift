import Crypto
import Foundation
import GymLogCore
import GymLogWire

/// The server's sync rules, written once for every backend (DESIGN.md "Push" and "Pull").
///
/// Pure decisions over `SyncStorageTransaction` primitives: no SQL, no clock, no I/O of their
/// own, so the in-memory store proves them and SQLite and PostgreSQL only store what they decide.
public enum SyncRules {
    // MARK: Push

    /// Applies a validated, seq-ascending batch for one device in three steps that every
    /// backend runs the same way: read what the batch needs (`readPlan`, one snapshot),
    /// decide in memory (`decide`), store the decision (`PushWrites`):
    ///
    /// - a seq <= the device's last applied seq is a replay: acknowledged as `duplicate`, nothing applied;
    /// - a seq past last applied + 1 is a gap: the whole request is `sequenceGap` and nothing is written;
    /// - a rejected event still consumes its seq; its idempotency key is not recorded;
    /// - a known idempotency key under a new seq is a `duplicate` that consumes the seq when
    ///   the event carries what the key carried before (`digest`), else it is rejected as
    ///   `key_reused` (the seq is consumed, nothing applied: the first content stays);
    /// - per field, the write with the newer HLC wins (an equal clock is the same write again);
    ///   the tombstone `deleted_at` is a field like any other, so a delete beats older and
    ///   concurrent edits of it and only a newer clock restores the row;
    /// - every event that wrote at least one field takes the next value of the user's change
    ///   counter; an event whose writes all lost takes none.
    ///
    /// Returns nil when the store refused the writes because the user's data changed after the
    /// read (an optimistic store, `SyncStorageTransaction.writePush`): nothing was written and
    /// the caller starts over from the read.
    public static func push<T: SyncStorageTransaction>(_ transaction: T, deviceID: String, items: [PushItem],
                                                       now: Int64) async throws -> PushOutcome? {
        let state = try await transaction.readPushState(device: deviceID, plan: readPlan(items))
        switch decide(items, state: state) {
        case .gap(let lastAppliedSeq, let got):
            return .sequenceGap(lastAppliedSeq: lastAppliedSeq, got: got)
        case .apply(let writes, let outcome):
            guard try await transaction.writePush(writes, device: deviceID, now: now) else { return nil }
            return outcome
        }
    }

    /// What a batch needs read before it can be decided: every idempotency key and row of its
    /// valid events (which of them are past the device's ack is known only after the read).
    public static func readPlan(_ items: [PushItem]) -> PushReadPlan {
        var keys: [String] = [], rows: [RowKey] = []
        var seenKeys: Set<String> = [], seenRows: Set<RowKey> = []
        for case .valid(let event) in items {
            if seenKeys.insert(event.idempotencyKey).inserted { keys.append(event.idempotencyKey) }
            let row = RowKey(entity: event.entity, entityID: event.entityID)
            if seenRows.insert(row).inserted { rows.append(row) }
        }
        return PushReadPlan(keys: keys, rows: rows)
    }

    /// The whole decision for a batch over what the store held (`readPlan`'s read): a gap, or
    /// what to store and what to answer.
    public static func decide(_ items: [PushItem], state: PushState) -> PushDecision {
        let candidates: [ValidEvent]
        switch sequence(items, lastAppliedSeq: state.lastAppliedSeq) {
        case .gap(let got): return .gap(lastAppliedSeq: state.lastAppliedSeq, got: got)
        case .candidates(let events): candidates = events
        }
        // The first candidate holding each key records it, unless the store knows it already.
        var keys = RecordedKeys()
        var newKeys: [IdempotencyKey] = []
        for event in candidates where !keys.new.contains(event.idempotencyKey) && keys.digests[event.idempotencyKey] == nil {
            if let earlier = state.recordedKeys[event.idempotencyKey] {
                if let earlier { keys.digests[event.idempotencyKey] = earlier }
            } else {
                keys.new.insert(event.idempotencyKey)
                newKeys.append(IdempotencyKey(key: event.idempotencyKey, digest: digest(event)))
            }
        }
        let decided = merge(items, lastAppliedSeq: state.lastAppliedSeq, keys: keys, stored: state.stored, head: state.head)
        let writes = PushWrites(keys: newKeys, fields: decided.writes, lastAppliedSeq: decided.lastAppliedSeq,
                                head: decided.head, headBefore: state.head)
        return .apply(writes, .completed(lastAppliedSeq: decided.lastAppliedSeq, head: decided.head, results: decided.results))
    }

    /// The outcome of checking a batch's sequence numbers.
    enum SequenceCheck: Equatable {
        /// `got` skips past the device's last applied seq + 1.
        case gap(got: Int64)
        /// The valid events past the device's last applied seq, in order.
        case candidates([ValidEvent])
    }

    /// Replays are skipped, a gap ends the check, rejected events consume their seq.
    static func sequence(_ items: [PushItem], lastAppliedSeq: Int64) -> SequenceCheck {
        var last = lastAppliedSeq
        var candidates: [ValidEvent] = []
        for item in items where item.seq > last {
            guard item.seq == last + 1 else { return .gap(got: item.seq) }
            last = item.seq
            if case .valid(let event) = item { candidates.append(event) }
        }
        return .candidates(candidates)
    }

    /// What a gapless batch does: the results, the fields to store and the counters after it.
    struct Merge: Equatable {
        var results: [PushResult] = []
        /// Each field's final write of the batch, in the order the fields were first written.
        var writes: [ChangeRow] = []
        var lastAppliedSeq: Int64
        var head: Int64
    }

    /// Per-field last-writer-wins, event by event: a later event of the batch sees the earlier
    /// ones' writes. `keys` says which idempotency keys this batch recorded first and what the
    /// others carried before; `stored` holds the stored clocks of every row the new ones touch.
    static func merge(_ items: [PushItem], lastAppliedSeq: Int64, keys: RecordedKeys,
                      stored: [RowKey: [String: String]], head: Int64) -> Merge {
        var merge = Merge(lastAppliedSeq: lastAppliedSeq, head: head)
        merge.results.reserveCapacity(items.count)
        var newKeys = keys.new
        // The event of this batch that applied each key, for a later event reusing it.
        var appliedHere: [String: ValidEvent] = [:]
        // Each row the batch writes, looked up once per event rather than once per field (a
        // row key hashes a 36-character id, and a push of 1,000 set events has 15,000 fields).
        var rows: [RowKey: RowEntry] = [:]
        for item in items {
            let seq = item.seq
            guard seq > merge.lastAppliedSeq else { merge.results.append(PushResult(seq: seq, status: .duplicate)); continue }
            merge.lastAppliedSeq = seq
            let event: ValidEvent
            switch item {
            case .rejected(_, let error):
                merge.results.append(PushResult(seq: seq, status: .rejected, error: error)); continue
            case .valid(let e):
                event = e
            }
            // The first event of the batch holding a key applies; a later one carrying the same
            // content is a replay, one carrying other content is refused (the first stays).
            guard newKeys.remove(event.idempotencyKey) != nil else {
                let earlier = appliedHere[event.idempotencyKey].map(digest) ?? keys.digests[event.idempotencyKey]
                if let earlier, earlier != digest(event) {
                    merge.results.append(PushResult(seq: seq, status: .rejected, error: keyReused(event)))
                } else {
                    merge.results.append(PushResult(seq: seq, status: .duplicate))
                }
                continue
            }
            appliedHere[event.idempotencyKey] = event
            let row = RowKey(entity: event.entity, entityID: event.entityID)
            let changeSeq = merge.head + 1
            let entry = rows.removeValue(forKey: row)
            if entry == nil, stored[row] == nil {
                // A row nothing has written yet (the common case: a new set): every field wins,
                // and an event's field names are unique, so no per-field bookkeeping is needed
                // unless a later event of the batch touches the row again.
                let start = merge.writes.count
                for field in event.fields {
                    merge.writes.append(ChangeRow(row: row, field: field.name, value: field.value, clock: field.clockText, changeSeq: changeSeq))
                }
                rows[row] = .fresh(start..<merge.writes.count)
                if !event.fields.isEmpty { merge.head = changeSeq }
                merge.results.append(PushResult(seq: seq, status: .applied))
                continue
            }
            var state: RowState
            switch entry {
            case .fresh(let range)?: state = RowState(writes: merge.writes[range], at: range.lowerBound)
            case .tracked(let tracked)?: state = tracked
            case nil: state = RowState(clocks: stored[row] ?? [:])
            }
            var wrote = false
            for field in event.fields {
                guard wins(field, over: state.clocks[field.name]) else { continue }
                state.clocks[field.name] = field.clockText
                let write = ChangeRow(row: row, field: field.name, value: field.value, clock: field.clockText, changeSeq: changeSeq)
                if let index = state.writeIndex[field.name] { merge.writes[index] = write } else {
                    state.writeIndex[field.name] = merge.writes.count
                    merge.writes.append(write)
                }
                wrote = true
            }
            rows[row] = .tracked(state)
            if wrote { merge.head = changeSeq }
            merge.results.append(PushResult(seq: seq, status: .applied))
        }
        return merge
    }

    /// Whether an incoming field replaces the stored one: strictly newer HLC (stored clocks
    /// are canonical text, checked by `PushValidation.clock` when they were pushed).
    static func wins(_ field: ValidField, over storedClock: String?) -> Bool {
        incomingWins(stored: storedClock.flatMap(PushValidation.clock), incoming: field.clock)
    }

    /// One row during a merge: written once so far by a row nothing had stored (its writes
    /// are a contiguous run), or tracked field by field.
    private enum RowEntry {
        case fresh(Range<Int>)
        case tracked(RowState)
    }

    /// Each field's latest clock (stored, then this batch's winners) and where the field's
    /// final write sits in `Merge.writes`.
    private struct RowState {
        var clocks: [String: String]
        var writeIndex: [String: Int] = [:]

        init(clocks: [String: String]) { self.clocks = clocks }

        /// The state after a fresh row's first event, from its run of writes.
        init(writes: ArraySlice<ChangeRow>, at start: Int) {
            clocks = Dictionary(uniqueKeysWithValues: writes.map { ($0.field, $0.clock) })
            writeIndex = Dictionary(uniqueKeysWithValues: writes.enumerated().map { ($1.field, start + $0) })
        }
    }

    // MARK: Idempotency keys

    /// What an event carried, as kept beside its idempotency key: SHA-256 (first 16 bytes, hex)
    /// of the entity, the id and each field's name, value and clock, fields in name order (a
    /// JSON object's order means nothing). `op` is left out: merging never reads it.
    static func digest(_ event: ValidEvent) -> String {
        var bytes: [UInt8] = []
        func append(_ text: String) {
            let count = UInt32(text.utf8.count)
            bytes += [UInt8(count >> 24), UInt8(count >> 16 & 0xff), UInt8(count >> 8 & 0xff), UInt8(count & 0xff)]
            bytes += text.utf8
        }
        append(event.entity)
        append(event.entityID)
        for field in event.fields.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            append(field.name)
            switch field.value {
            case .null: append("n")
            case .int(let i): append("i\(i)")
            case .real(let d): append("r" + String(d.bitPattern, radix: 16))
            case .text(let t): append("t" + t)
            }
            append(field.clockText)
        }
        return lowercaseHex(SHA256.hash(data: bytes).prefix(16))
    }

    /// The per-event rejection of a key that already applied with other content.
    static func keyReused(_ event: ValidEvent) -> ErrorDetail {
        ErrorDetail(code: "key_reused", message: "event \(event.seq) reuses idempotency_key \"\(event.idempotencyKey)\", which already applied to different content (another entity, id or fields); it was not applied and the first content stays. Give every new change its own key.")
    }

    // MARK: Pull

    /// How many rows a pull reads for a page of `limit`. For field rows: one event writes at
    /// most `maxEventFields` rows under one counter value, so this always reaches past the
    /// page's last complete group. For changes, a guess of 16 fields a change (a set row has
    /// about 10) up to `maxChangeRowsRead`: a read that ends first cuts the page short at
    /// its last whole counter value (`page`'s `readComplete`), never wrong, only smaller.
    public static func rowsToRead(limit: PullLimit) -> Int {
        switch limit {
        case .fieldRows(let n): n + maxEventFields + 1
        case .changes(let n): min(n * 16, maxChangeRowsRead) + maxEventFields + 1
        }
    }

    /// The most field rows one change-counted pull reads: about 4 MiB of answer, the default
    /// `maxPullBytes`, at the smallest field's estimate.
    static let maxChangeRowsRead = 65_536

    /// Cuts a page from a snapshot: at most `limit` field rows or changes and about
    /// `maxBytes` of JSON, one change counter value never split (a value bigger than the page
    /// still fills an empty one, so paging always progresses). `readComplete` says the
    /// snapshot holds every row after `after` up to the storage's row limit's end: when it
    /// does not, the last counter value may be cut and waits for the next page.
    public static func page(_ snapshot: ChangeSnapshot, after: Int64, limit: PullLimit, maxBytes: Int, readComplete: Bool = true) -> PullPage {
        var builder = PageBuilder(limit: limit, maxBytes: maxBytes)
        var stopped = false
        for row in snapshot.rows {
            if !builder.accept(seq: row.changeSeq) { stopped = true; break }
            builder.add(entity: row.entity, entityID: row.entityID, field: PulledField(name: row.field, value: row.value, clock: row.clock))
        }
        if !stopped && !readComplete { builder.dropPending() }
        return builder.finish(after: after, head: snapshot.head, lastAppliedSeq: snapshot.lastAppliedSeq)
    }

    // MARK: Epochs and history generations

    /// The epoch a user's cursors carry: the database's, plus the history generation once a
    /// rollback was detected, so every device of the user notices it and starts over.
    public static func epoch(database: String, historyGeneration: Int64) -> String {
        historyGeneration == 0 ? database : "\(database)-g\(historyGeneration)"
    }

    /// Whether a device knows more history than the store holds: its cursor (in the current
    /// epoch) is past the head, or it was acknowledged a seq the store never applied. The
    /// store was restored from an older backup; the user's history starts a new generation.
    public static func historyRolledBack(cursorPosition: Int64, ackedSeq: Int64, page: PullPage) -> Bool {
        ackedSeq > page.lastAppliedSeq || page.cursor < cursorPosition
    }
}
