import Foundation
import GymLogCore
import Logging
import PostgresNIO

/// The push primitives on PostgreSQL, inside the BEGIN that `PostgresSyncStorage.withTransaction`
/// sent on one pooled connection. Each primitive is one statement over arrays (`unnest`), so a
/// push costs the same few round trips whatever its size.
public struct PostgresSyncTransaction: SyncStorageTransaction {
    let connection: PostgresConnection
    let logger: Logger
    let user: Int64
    /// Field rows this transaction wrote, for `PlannerStatistics`.
    let written: WrittenRows

    public func lockCounters(device: String) async throws -> (lastAppliedSeq: Int64, changeCounter: Int64) {
        // The per-user lock: every push of this user, on any instance, waits here. Only
        // statements after it see what the previous lock holder committed (READ COMMITTED
        // takes a new snapshot per statement), so last_applied_seq is read separately.
        var head: Int64 = 0
        for try await seq in try await connection.query(
            "SELECT change_seq FROM users WHERE id = \(user) FOR NO KEY UPDATE", logger: logger).decode(Int64.self) { head = seq }
        var lastApplied: Int64 = 0
        for try await seq in try await connection.query(
            "SELECT last_applied_seq FROM devices WHERE user_id = \(user) AND device_id = \(device)", logger: logger).decode(Int64.self) {
            lastApplied = seq
        }
        return (lastApplied, head)
    }

    public func recordIdempotencyKeys(_ keys: [IdempotencyKey]) async throws -> RecordedKeys {
        var recorded = RecordedKeys()
        let rows = try await connection.query("""
            INSERT INTO applied_keys (user_id, idempotency_key, digest)
            SELECT \(user), k, d FROM unnest(\(keys.map(\.key))::text[], \(keys.map(\.digest))::text[]) AS t(k, d)
            ON CONFLICT DO NOTHING RETURNING idempotency_key
            """, logger: logger)
        for try await key in rows.decode(String.self) { recorded.new.insert(key) }
        // A second round trip only when a key was seen before (a replay), which is rare.
        let earlier = keys.map(\.key).filter { !recorded.new.contains($0) }
        guard !earlier.isEmpty else { return recorded }
        let stored = try await connection.query("""
            SELECT idempotency_key, digest FROM applied_keys
            WHERE user_id = \(user) AND idempotency_key = ANY(\(earlier)::text[]) AND digest IS NOT NULL
            """, logger: logger)
        for try await (key, digest) in stored.decode((String, String).self) { recorded.digests[key] = digest }
        return recorded
    }

    public func storedClocks(_ rows: [RowKey]) async throws -> [RowKey: [String: String]] {
        var stored: [RowKey: [String: String]] = [:]
        let result = try await connection.query("""
            SELECT f.entity, f.entity_id, f.field, f.clock FROM fields f
            JOIN unnest(\(rows.map(\.entity))::text[], \(rows.map(\.entityID))::text[]) AS t(entity, entity_id)
              ON f.entity = t.entity AND f.entity_id = t.entity_id
            WHERE f.user_id = \(user)
            """, logger: logger)
        for try await (entity, entityID, field, clock) in result.decode((String, String, String, String).self) {
            stored[RowKey(entity: entity, entityID: entityID), default: [:]][field] = clock
        }
        return stored
    }

    public func writeFields(_ writes: [ChangeRow]) async throws {
        var entities: [String] = [], ids: [String] = [], names: [String] = [], kinds: [String] = []
        var ints: [Int64] = [], reals: [Double] = [], texts: [String] = [], clocks: [String] = [], seqs: [Int64] = []
        for write in writes {
            entities.append(write.row.entity); ids.append(write.row.entityID); names.append(write.field)
            clocks.append(write.clock); seqs.append(write.changeSeq)
            // A value keeps its type in one of three columns; all three NULL is JSON null.
            var kind = "n", int: Int64 = 0, real = 0.0, text = ""
            switch write.value {
            case .null: break
            case .int(let i): kind = "i"; int = i
            case .real(let d): kind = "r"; real = d
            case .text(let s): kind = "t"; text = s
            }
            kinds.append(kind); ints.append(int); reals.append(real); texts.append(text)
        }
        written.add(writes.count)
        try await connection.query("""
            INSERT INTO fields (user_id, entity, entity_id, field, value_int, value_real, value_text, clock, change_seq)
            SELECT \(user), t.entity, t.entity_id, t.field,
                   CASE WHEN t.kind = 'i' THEN t.i END, CASE WHEN t.kind = 'r' THEN t.r END, CASE WHEN t.kind = 't' THEN t.t END,
                   t.clock, t.seq
            FROM unnest(\(entities)::text[], \(ids)::text[], \(names)::text[], \(kinds)::text[], \(ints)::int8[],
                        \(reals)::float8[], \(texts)::text[], \(clocks)::text[], \(seqs)::int8[])
                 AS t(entity, entity_id, field, kind, i, r, t, clock, seq)
            ON CONFLICT (user_id, entity, entity_id, field) DO UPDATE SET
                value_int = excluded.value_int, value_real = excluded.value_real, value_text = excluded.value_text,
                clock = excluded.clock, change_seq = excluded.change_seq
            """, logger: logger)
    }

    public func setLastAppliedSeq(_ seq: Int64, device: String, now: Int64) async throws {
        try await connection.query("""
            INSERT INTO devices (user_id, device_id, last_applied_seq, last_seen_at) VALUES (\(user), \(device), \(seq), \(now))
            ON CONFLICT (user_id, device_id) DO UPDATE SET last_applied_seq = excluded.last_applied_seq, last_seen_at = excluded.last_seen_at
            """, logger: logger)
    }

    public func setChangeCounter(_ value: Int64) async throws {
        try await connection.query("UPDATE users SET change_seq = \(value) WHERE id = \(user)", logger: logger)
    }
}

/// A count a transaction's writes add to (the transaction is a value; its count outlives it).
final class WrittenRows: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ n: Int) { lock.withLock { count += n } }
    var total: Int { lock.withLock { count } }
}

extension PostgresSyncStorage {
    /// One statement, so the head, the ack and the rows come from one snapshot.
    static func changes(_ client: PostgresClient, logger: Logger, user: Int64, device: String, after: Int64,
                        rowLimit: Int) async throws -> ChangeSnapshot {
        let rows = try await client.query("""
            SELECT u.change_seq,
                   COALESCE((SELECT d.last_applied_seq FROM devices d WHERE d.user_id = u.id AND d.device_id = \(device)), 0),
                   f.entity, f.entity_id, f.field, f.value_int, f.value_real, f.value_text, f.clock, f.change_seq
            FROM users u
            LEFT JOIN LATERAL (
                SELECT * FROM fields WHERE user_id = u.id AND change_seq > \(after)
                ORDER BY change_seq, entity, entity_id, field LIMIT \(Int64(rowLimit))
            ) f ON true
            WHERE u.id = \(user)
            ORDER BY f.change_seq, f.entity, f.entity_id, f.field
            """, logger: logger)
        var snapshot = ChangeSnapshot(head: 0, lastAppliedSeq: 0, rows: [])
        for try await (head, ack, entity, entityID, field, int, real, text, clock, seq) in rows.decode(
            (Int64, Int64, String?, String?, String?, Int64?, Double?, String?, String?, Int64?).self) {
            snapshot.head = head
            snapshot.lastAppliedSeq = ack
            guard let entity, let entityID, let field, let clock, let seq else { continue }
            let value: FieldValue = int.map(FieldValue.int) ?? real.map(FieldValue.real) ?? text.map(FieldValue.text) ?? .null
            snapshot.rows.append(ChangeRow(entity: entity, entityID: entityID, field: field, value: value, clock: clock, changeSeq: seq))
        }
        return snapshot
    }
}
