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
    /// - a seq <= the device's last applied seq is a replay: acknowledged as `duplicate`, nothing
    ///   applied (unless its key says otherwise, below);
    /// - a seq past last applied + 1 is a gap: the whole request is `sequenceGap` and nothing is written;
    /// - a rejected event still consumes its seq; its idempotency key is not recorded;
    /// - a known idempotency key under a new seq is a `duplicate` that consumes the seq when
    ///   the event carries what the key carried before (`digest`), else it is rejected as
    ///   `key_reused` (the seq is consumed, nothing applied: the first content stays); a replay
    ///   (seq <= last applied) whose recorded key carried other content is `key_reused` too:
    ///   the device is a copy (a backup restored, a snapshot) that used the seq again;
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
                                                       now: Int64, deviceLimit: Int = .max) async throws -> PushOutcome? {
        let state = try await transaction.readPushState(device: deviceID, plan: readPlan(items))
        try checkAuthentication(transaction.user, against: state.account)
        // Each device keeps a row for good: one token must not be able to make thousands.
        if !state.knownDevice, state.devices >= deviceLimit { return .tooManyDevices }
        switch decide(items, state: state) {
        case .gap(let lastAppliedSeq, let got):
            return .sequenceGap(lastAppliedSeq: lastAppliedSeq, got: got)
        case .apply(let writes, let outcome):
            guard try await transaction.writePush(writes, device: deviceID, now: now) else { return nil }
            return outcome
        }
    }

    /// Whether the authentication a push was let in with still holds in the snapshot its write
    /// decides on: the one check of a token inside a write, the same on every backend. A
    /// revoke, a rotation or a delete (another process's included) commits before the read or
    /// waits until the push ends; so does a key set meanwhile (`key enable`), which must refuse
    /// a push checked against no key: it would store values in the clear in an encrypted account.
    public static func checkAuthentication(_ user: AuthenticatedUser, against account: AccountSnapshot?) throws {
        guard let account, account.tokenHash == user.tokenHash, !account.revoked else { throw StorageError.tokenWithdrawn }
        guard account.keyVerifier == user.keyVerifier else { throw StorageError.keyChanged }
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
        // A replay's key, when recorded, says what that seq carried: a copy of the device's
        // database sends other content under a seq (and key) the original already used.
        for case .valid(let event) in items where event.seq <= state.lastAppliedSeq {
            if let earlier = state.recordedKeys[event.idempotencyKey], let earlier { keys.digests[event.idempotencyKey] = earlier }
        }
        for event in candidates where !keys.new.contains(event.idempotencyKey) && keys.digests[event.idempotencyKey] == nil {
            if let earlier = state.recordedKeys[event.idempotencyKey] {
                if let earlier { keys.digests[event.idempotencyKey] = earlier }
            } else {
                keys.new.insert(event.idempotencyKey)
                newKeys.append(IdempotencyKey(key: event.idempotencyKey, digest: digest(event)))
            }
        }
        let decided = merge(items, lastAppliedSeq: state.lastAppliedSeq, keys: keys, stored: state.stored, head: state.head)
        let writes = PushWrites(keys: newKeys, records: decided.writes, lastAppliedSeq: decided.lastAppliedSeq,
                                head: decided.head, headBefore: state.head)
        return .apply(writes, .completed(lastAppliedSeq: decided.lastAppliedSeq, head: decided.head, results: decided.results,
                                         headBefore: state.head))
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

    /// What a gapless batch does: the results, the records to store and the counters after it.
    struct Merge: Equatable {
        var results: [PushResult] = []
        /// Each record the batch changed, whole, in the order the records were first changed.
        var writes: [RecordRow] = []
        var lastAppliedSeq: Int64
        var head: Int64
    }

    /// Per-field last-writer-wins, event by event, on whole records: a later event of the
    /// batch sees the earlier ones' writes. `keys` says which idempotency keys this batch
    /// recorded first and what the others carried before; `stored` holds the stored record of
    /// every row the batch touches that has one.
    static func merge(_ items: [PushItem], lastAppliedSeq: Int64, keys: RecordedKeys,
                      stored: [RowKey: RecordRow], head: Int64) -> Merge {
        var merge = Merge(lastAppliedSeq: lastAppliedSeq, head: head)
        merge.results.reserveCapacity(items.count)
        var newKeys = keys.new
        // The event of this batch that applied each key, for a later event reusing it.
        var appliedHere: [String: ValidEvent] = [:]
        // Where each record this batch changed sits in `merge.writes`.
        var written: [RowKey: Int] = [:]
        for item in items {
            let seq = item.seq
            guard seq > merge.lastAppliedSeq else {
                // A replay carries what its key carried, or the seq was used for other content
                // (a copy of the device's database): that is no duplicate, and the copy must
                // send its change again as a device of its own.
                if case .valid(let event) = item, seq <= lastAppliedSeq, let earlier = keys.digests[event.idempotencyKey], earlier != digest(event) {
                    merge.results.append(PushResult(seq: seq, status: .rejected, error: keyReused(event)))
                } else {
                    merge.results.append(PushResult(seq: seq, status: .duplicate))
                }
                continue
            }
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
            merge.results.append(PushResult(seq: seq, status: .applied))
            let row = RowKey(entity: event.entity, entityID: event.entityID)
            let changeSeq = merge.head + 1
            let index = written[row]
            guard let record = index.map({ merge.writes[$0] }) ?? stored[row] else {
                // A row nothing has written yet (the common case: a new set): every field wins,
                // and an event's field names are unique.
                guard !event.fields.isEmpty else { continue }
                let fields = event.fields.map { StoredField(name: $0.name, value: $0.value, clock: $0.clockText, changeSeq: changeSeq) }
                written[row] = merge.writes.count
                merge.writes.append(RecordRow(row: row, changeSeq: changeSeq, fields: fields.sorted(by: StoredField.nameOrder)))
                merge.head = changeSeq
                continue
            }
            guard let changed = apply(event.fields, to: record, changeSeq: changeSeq) else { continue }
            if let index { merge.writes[index] = changed } else {
                written[row] = merge.writes.count
                merge.writes.append(changed)
            }
            merge.head = changeSeq
        }
        return merge
    }

    /// The record after an event's fields: each one that wins replaces the stored field (or
    /// joins the record, in field order) under the event's change counter value. Nil when
    /// none won: the event changed nothing and takes no counter value.
    static func apply(_ fields: [ValidField], to record: RecordRow, changeSeq: Int64) -> RecordRow? {
        var record = record
        var wrote = false
        for field in fields {
            let stored = StoredField(name: field.name, value: field.value, clock: field.clockText, changeSeq: changeSeq)
            // A record has a dozen fields: a binary search of the sorted array beats hashing.
            var low = 0, high = record.fields.count
            while low < high {
                let mid = (low + high) / 2
                if StoredField.nameOrder(record.fields[mid], stored) { low = mid + 1 } else { high = mid }
            }
            if low < record.fields.count, record.fields[low].name == field.name {
                guard wins(field, over: record.fields[low].clock) else { continue }
                record.fields[low] = stored
            } else {
                record.fields.insert(stored, at: low)
            }
            wrote = true
        }
        guard wrote else { return nil }
        record.changeSeq = changeSeq
        return record
    }

    /// Whether an incoming field replaces the stored one: strictly newer HLC (stored clocks
    /// are canonical text, checked by `clock` when they were pushed).
    static func wins(_ field: ValidField, over storedClock: String?) -> Bool {
        incomingWins(stored: storedClock.flatMap(clock), incoming: field.clock)
    }

    /// A clock in canonical HLC form (`15 digits-5 digits-node`) with a 1...64 byte
    /// printable node. Parsed on the bytes: it runs for every pushed field.
    package static func clock(_ text: String) -> HLC? {
        var text = text
        return text.withUTF8 { u -> HLC? in
            guard u.count >= 23, u.count <= 22 + 64, u[15] == 45, u[21] == 45 else { return nil }
            var millis: Int64 = 0, counter = 0
            for i in 0..<15 {
                let d = u[i] &- 48
                guard d < 10 else { return nil }
                millis = millis * 10 + Int64(d)
            }
            for i in 16..<21 {
                let d = u[i] &- 48
                guard d < 10 else { return nil }
                counter = counter * 10 + Int(d)
            }
            for i in 22..<u.count where u[i] <= 32 || u[i] >= 127 { return nil }
            return HLC(millis: millis, counter: counter, node: String(decoding: UnsafeBufferPointer(rebasing: u[22...]), as: UTF8.self))
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
        ErrorDetail(code: .keyReused, message: "event \(event.seq) reuses idempotency_key \"\(event.idempotencyKey)\", which already applied to different content (another entity, id or fields); it was not applied and the first content stays. Give every new change its own key.")
    }

    // MARK: Pull

    /// How many records a pull reads for a page of `limit`: every record read after a cursor
    /// brings at least one field and one change (the field its last event wrote), so `limit`
    /// records always fill the page, and a record is one row: a read never ends inside one.
    public static func recordsToRead(limit: PullLimit) -> Int {
        max(limit.count, 1)
    }

    /// Cuts a page from a snapshot: at most `limit` field rows or changes and about `maxBytes`
    /// of JSON, a record never split (one bigger than the page still fills an empty one, so
    /// paging always progresses).
    ///
    /// A record is sent with every change written after `since`, not only after the cursor:
    /// a record changed again while a device was paging through its history sits at its new
    /// counter value only, so its older changes were on no page that device read. `since` is
    /// where the device's last complete pull ended (it has every change up to it; 0 when it
    /// does not say, which sends records whole). A change it had already is merged again under
    /// the same clock, which changes nothing.
    ///
    /// Throws `RecordText.Unreadable` when a stored record's text does not read.
    public static func page(_ snapshot: ChangeSnapshot, after: Int64, since: Int64 = 0, limit: PullLimit, maxBytes: Int) throws -> PullPage {
        var builder = PageBuilder(limit: limit, maxBytes: maxBytes, since: min(since, after))
        for record in snapshot.records {
            guard try builder.add(record) else { break }
        }
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
