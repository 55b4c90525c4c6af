import Foundation
import GymLogCore
import GymLogServerCore
import GymLogWire
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// One push's read and write on PostgreSQL: the two statements `SyncRules.push` needs, each
/// one round trip whatever the batch's size (arrays through `unnest`).
///
/// The optimistic push (`PostgresSyncStorage.push`) runs them on the pool, a connection leased
/// for one statement at a time, outside any transaction: the read is one statement, so one
/// snapshot, and takes no lock; the write is one statement that first compare-and-swaps the
/// user's `push_version` (bumped by every push) and writes the keys, fields and device only
/// when that matched; it answers false, having written nothing, when another push of the user
/// committed since the read or holds the row right now (`SKIP LOCKED`: it never waits for a
/// lock on a pooled connection). The fallback runs the same two statements inside
/// `PostgresSyncStorage.withTransaction` after locking the user's row (`lockFirst`).
public final class PostgresSyncTransaction: SyncStorageTransaction, @unchecked Sendable {
    // @unchecked: one push owns it and awaits its read and write one after the other, so `version` and `written` never race.
    let statements: PostgresStatements
    public let user: AuthenticatedUser
    /// Lock the user's row before reading (inside a transaction: the fallback).
    let lockFirst: Bool
    // The user's push_version the read saw, for the write's compare-and-swap.
    private var version: Int64 = 0
    /// Records this push wrote, for `PlannerStatistics`.
    private(set) var written = 0

    init(statements: PostgresStatements, user: AuthenticatedUser, lockFirst: Bool) {
        self.statements = statements
        self.user = user
        self.lockFirst = lockFirst
    }

    public func readPushState(device: String, plan: PushReadPlan) async throws -> PushState {
        let id = user.id
        if lockFirst {
            // Every push of this user, on any instance, waits here; the read below is a later
            // statement, so (READ COMMITTED) it sees what the previous holder committed.
            _ = try await statements.run("SELECT 1 FROM users WHERE id = \(id) FOR NO KEY UPDATE").collect()
        }
        let rows = try await statements.execute(PushRead(user: id, device: device, keys: plan.keys,
                                                         entities: plan.rows.map(\.entity), ids: plan.rows.map(\.entityID)))
        var state = PushState(lastAppliedSeq: 0, head: 0)
        for try await (kind, a, b, t1, t2, t3) in rows {
            switch kind {
            case 0:
                state.head = a ?? 0; version = b ?? 0
                state.account = AccountSnapshot(tokenHash: t2 ?? "", revoked: t3 != nil, keyVerifier: t1)
            case 1: state.lastAppliedSeq = a ?? 0; state.knownDevice = true
            case 4: state.devices = Int(a ?? 0)
            case 2: if let key = t1 { state.recordedKeys.updateValue(t2, forKey: key) }
            default:
                if let entity = t1, let entityID = t2, let fields = t3, let changeSeq = a {
                    let row = RowKey(entity: entity, entityID: entityID)
                    do {
                        state.stored[row] = RecordRow(row: row, changeSeq: changeSeq, fields: try RecordText.decode(fields))
                    } catch let error as RecordText.Unreadable {
                        throw StorageError.unreadable(error)
                    }
                }
            }
        }
        // `SyncRules.checkAuthentication` judges the account read here. A key set meanwhile
        // (`key enable`) bumps push_version, so an optimistic push that read before it reads again.
        return state
    }

    public func writePush(_ writes: PushWrites, device: String, now: Int64) async throws -> Bool {
        let records = writes.records
        let rows = try await statements.execute(PushWrite(
            head: writes.head, user: user.id, tokenHash: user.tokenHash, version: version, keys: writes.keys.map(\.key), digests: writes.keys.map(\.digest),
            entities: records.map(\.entity), ids: records.map(\.entityID), seqs: records.map(\.changeSeq),
            texts: records.map { RecordText.encode($0.fields) },
            device: device, lastAppliedSeq: writes.lastAppliedSeq, now: now, headBefore: writes.headBefore))
        var matched = false
        for try await count in rows { matched = count == 1 }
        if matched { written = records.count }
        // Not matched: another push won, or the token was withdrawn since the read; the read
        // of the next attempt tells them apart.
        return matched
    }
}

/// Where a push's statements go: the pool (a connection leased per statement) or the
/// connection of a transaction; each one is counted, so tests can check a push's round trips.
struct PostgresStatements: Sendable {
    enum Target: Sendable {
        case pool(PostgresClient)
        case connection(PostgresConnection)
    }

    let target: Target
    let logger: Logger
    let counter: StatementCounter

    func run(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        counter.add(1)
        switch target {
        case .pool(let client): return try await client.query(query, logger: logger)
        case .connection(let connection): return try await connection.query(query, logger: logger)
        }
    }

    /// A prepared statement: parsed and planned once per connection, not per push.
    func execute<S: PostgresPreparedStatement>(_ statement: S) async throws -> AsyncThrowingMapSequence<PostgresRowSequence, S.Row> {
        counter.add(1)
        switch target {
        case .pool(let client): return try await client.execute(statement, logger: logger)
        case .connection(let connection): return try await connection.execute(statement, logger: logger)
        }
    }
}

/// The push's read (`PostgresSyncTransaction.readPushState`): one statement, so one snapshot.
struct PushRead: PostgresPreparedStatement {
    static let name = "gymlog_push_read_v6"
    // The user's row (`AccountSnapshot`): its token hash, and text (any) when it is revoked.
    static let sql = """
        SELECT 0, u.change_seq, u.push_version, u.key_verifier, u.token_hash, u.revoked_at::text FROM users u
        WHERE u.id = $1
        UNION ALL
        SELECT 1, d.last_applied_seq, NULL, NULL, NULL, NULL FROM devices d WHERE d.user_id = $1 AND d.device_id = $2
        UNION ALL
        SELECT 2, NULL, NULL, k.idempotency_key, k.digest, NULL FROM applied_keys k
        WHERE k.user_id = $1 AND k.idempotency_key = ANY($3::text[])
        UNION ALL
        SELECT 3, r.change_seq, NULL, r.entity, r.entity_id, r.fields FROM records r
        JOIN unnest($4::text[], $5::text[]) AS t(entity, entity_id) ON r.entity = t.entity AND r.entity_id = t.entity_id
        WHERE r.user_id = $1
        UNION ALL
        SELECT 4, count(*), NULL, NULL, NULL, NULL FROM devices d WHERE d.user_id = $1
        """
    typealias Row = (Int32, Int64?, Int64?, String?, String?, String?)

    var user: Int64
    var device: String
    var keys: [String]
    var entities: [String]
    var ids: [String]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 5)
        bindings.append(user); bindings.append(device); bindings.append(keys); bindings.append(entities); bindings.append(ids)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// The push's write (`PostgresSyncTransaction.writePush`): one statement that answers 1 when
/// its compare-and-swap matched and everything was written, 0 when nothing was.
///
/// `cas` is the compare-and-swap: it matches only when the token that authenticated the push
/// is still the user's, live (a revoke or rotation does not bump push_version), no push of
/// the user committed since the read (push_version) and none holds the row now (SKIP LOCKED: never wait on a pooled
/// connection). Under READ COMMITTED a row updated after this statement's snapshot is
/// re-checked in its latest version. Every other part reads `cas`, so it runs first and
/// nothing is written when it matched nothing. A key conflict (which the compare-and-swap
/// rules out) fails the whole statement rather than pass unnoticed.
struct PushWrite: PostgresPreparedStatement {
    static let name = "gymlog_push_write_v4"
    static let sql = """
        WITH cas AS (
            UPDATE users SET change_seq = $1, push_version = push_version + 1
            WHERE id = (SELECT id FROM users WHERE id = $2 AND push_version = $3 AND change_seq = $13
                        AND token_hash = $14 AND revoked_at IS NULL FOR NO KEY UPDATE SKIP LOCKED)
            RETURNING id
        ), new_keys AS (
            INSERT INTO applied_keys (user_id, idempotency_key, digest)
            SELECT cas.id, t.k, t.d FROM cas, unnest($4::text[], $5::text[]) AS t(k, d)
        ), new_records AS (
            INSERT INTO records (user_id, entity, entity_id, change_seq, fields)
            SELECT cas.id, t.entity, t.entity_id, t.seq, t.fields
            FROM cas, unnest($6::text[], $7::text[], $8::int8[], $9::text[]) AS t(entity, entity_id, seq, fields)
            ON CONFLICT (user_id, entity, entity_id) DO UPDATE SET change_seq = excluded.change_seq, fields = excluded.fields
        ), device AS (
            INSERT INTO devices (user_id, device_id, last_applied_seq, last_seen_at)
            SELECT cas.id, $10, $11, $12 FROM cas
            ON CONFLICT (user_id, device_id) DO UPDATE SET last_applied_seq = excluded.last_applied_seq, last_seen_at = excluded.last_seen_at
        )
        SELECT count(*) FROM cas
        """
    typealias Row = Int64

    var head: Int64, user: Int64, tokenHash: String, version: Int64
    var keys: [String], digests: [String]
    /// Each changed record's row and its whole text (`RecordText`).
    var entities: [String], ids: [String], seqs: [Int64], texts: [String]
    var device: String, lastAppliedSeq: Int64, now: Int64
    /// The change counter the read saw: checked too, so a push of a server from before
    /// `push_version` (a rolling upgrade) that bumped the counter is not overwritten.
    var headBefore: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 14)
        bindings.append(head); bindings.append(user); bindings.append(version)
        bindings.append(keys); bindings.append(digests)
        bindings.append(entities); bindings.append(ids); bindings.append(seqs); bindings.append(texts)
        bindings.append(device); bindings.append(lastAppliedSeq); bindings.append(now); bindings.append(headBefore)
        bindings.append(tokenHash)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int64.self) }
}

/// A count of statements (or rows) that concurrent pushes add to.
final class StatementCounter: Sendable {
    private let count = NIOLockedValueBox(0)
    func add(_ n: Int) { count.withLockedValue { $0 += n } }
    var total: Int { count.withLockedValue { $0 } }
}

extension PostgresSyncStorage {
    /// One statement, so the head, the ack and the records come from one snapshot. The device's
    /// row is joined once: as a subquery in the select list it was run again for every row of
    /// the page (a scan of `devices` each, 30 million rows read per load benchmark run). Not a prepared
    /// statement: prepared (the subquery still in it), the load benchmark's pull p50 went from
    /// 48 to 142 ms; planned per call, each plan knows the cursor and the limit.
    static func changes(_ client: PostgresClient, logger: Logger, user: Int64, device: String, after: Int64,
                        recordLimit: Int) async throws -> ChangeSnapshot {
        let rows = try await client.query("""
            SELECT u.change_seq, COALESCE(d.last_applied_seq, 0), r.entity, r.entity_id, r.change_seq, r.fields
            FROM users u
            LEFT JOIN devices d ON d.user_id = u.id AND d.device_id = \(device)
            LEFT JOIN LATERAL (
                SELECT entity, entity_id, change_seq, fields FROM records WHERE user_id = u.id AND change_seq > \(after)
                ORDER BY change_seq LIMIT \(Int64(recordLimit))
            ) r ON true
            WHERE u.id = \(user)
            ORDER BY r.change_seq
            """, logger: logger)
        var snapshot = ChangeSnapshot(head: 0, lastAppliedSeq: 0, records: [])
        snapshot.records.reserveCapacity(min(recordLimit, 4096))
        // Cell by cell: decoding each row as a tuple of optionals instantiated the tuple's
        // generic metadata per row, a quarter of a pull page's CPU (perf, issue 31).
        for try await row in rows {
            var cells = row.makeIterator()
            guard let head = cells.next(), let ack = cells.next(), let entity = cells.next(), let entityID = cells.next(),
                  let seq = cells.next(), let fields = cells.next() else { continue }
            snapshot.head = try head.decode(Int64.self)
            snapshot.lastAppliedSeq = try ack.decode(Int64.self)
            guard fields.bytes != nil else { continue }
            snapshot.records.append(PulledRecord(entity: try entity.decode(String.self), entityID: try entityID.decode(String.self),
                                                 changeSeq: try seq.decode(Int64.self), text: try fields.decode(String.self)))
        }
        return snapshot
    }
}
