import Foundation
import GRDB
import GRDBSQLite
import GymLogCore
import GymLogServerCore
import GymLogWire

/// The push primitives on SQLite, inside the BEGIN IMMEDIATE that `SQLiteSyncStorage.withTransaction`
/// opened on the writer connection. SQLite's single writer serialises pushes, so the change
/// counter read here can never be handed out out of commit order, and `writePush` never finds
/// the user's data changed since `readPushState`.
///
/// The per-field statements bind raw on GRDB's cached statements: they run once per pushed
/// field, and StatementArguments' boxing would cost more than SQLite itself.
public struct SQLiteSyncTransaction: SyncStorageTransaction {
    let pool: DatabasePool
    public let user: AuthenticatedUser

    public func readPushState(device: String, plan: PushReadPlan) async throws -> PushState {
        let user = self.user.id
        return try await pool.writeWithoutTransaction { db in
            let known = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT last_applied_seq FROM devices WHERE user_id = ? AND device_id = ?"),
                arguments: [user, device])
            // Inside BEGIN IMMEDIATE: a revoke, a rotation, a delete or a key set by another
            // process commits before this read, or waits until the push ends.
            let account = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT change_seq, token_hash, revoked_at IS NOT NULL, key_verifier FROM users WHERE id = ?"),
                arguments: [user])
            var state = PushState(lastAppliedSeq: known ?? 0, head: account?[0] ?? 0)
            state.account = account.map { AccountSnapshot(tokenHash: $0[1], revoked: $0[2], keyVerifier: $0[3]) }
            state.knownDevice = known != nil
            // Inside BEGIN IMMEDIATE: no other push adds a device before this one commits.
            if known == nil {
                state.devices = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM devices WHERE user_id = ?"), arguments: [user]) ?? 0
            }
            try Self.eachChunk(of: plan.keys, sql: { "SELECT idempotency_key, digest FROM applied_keys WHERE user_id = ? AND idempotency_key IN (\($0))" },
                               db, bind: { select in select.bind(1, user); return 2 }, bindEach: { select, index, key in select.bind(index, key) }) { row in
                let digest: String? = sqlite3_column_type(row, 1) == SQLITE_NULL ? nil : columnText(row, 1)
                state.recordedKeys.updateValue(digest, forKey: columnText(row, 0))
            }
            state.stored = try Self.storedRecords(plan.rows, user: user, db)
            return state
        }
    }

    public func writePush(_ writes: PushWrites, device: String, now: Int64) async throws -> Bool {
        let user = self.user.id
        try await pool.writeWithoutTransaction { db in
            let insert = try db.cachedStatement(sql: "INSERT INTO applied_keys (user_id, idempotency_key, digest) VALUES (?, ?, ?)")
            defer { insert.clearBindings() }
            insert.bind(1, user)
            for key in writes.keys {
                insert.bind(2, key.key); insert.bind(3, key.digest)
                try insert.stepDone(db)
            }
            let write = try db.cachedStatement(sql: """
                INSERT INTO records (user_id, entity, entity_id, change_seq, fields) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (user_id, entity, entity_id) DO UPDATE SET change_seq = excluded.change_seq, fields = excluded.fields
                """)
            defer { write.clearBindings() }
            write.bind(1, user)
            for record in writes.records {
                write.bind(2, record.entity); write.bind(3, record.entityID); write.bind(4, record.changeSeq)
                write.bind(5, RecordText.encode(record.fields))
                try write.stepDone(db)
            }
            try db.cachedStatement(sql: """
                INSERT INTO devices (user_id, device_id, last_applied_seq, last_seen_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id, device_id) DO UPDATE SET last_applied_seq = excluded.last_applied_seq, last_seen_at = excluded.last_seen_at
                """).execute(arguments: [user, device, writes.lastAppliedSeq, now])
            if writes.head != writes.headBefore {
                try db.cachedStatement(sql: "UPDATE users SET change_seq = ? WHERE id = ?").execute(arguments: [writes.head, user])
            }
        }
        return true
    }

    // The stored records of these rows: one statement per entity and chunk of ids rather than
    // one per row: a push of 1,000 new sets would otherwise run 1,000 lookups that find
    // nothing, each paying the statement's own overhead (10 % of push throughput).
    private static func storedRecords(_ rows: [RowKey], user: Int64, _ db: Database) throws -> [RowKey: RecordRow] {
        var stored: [RowKey: RecordRow] = [:]
        for (entity, keys) in Dictionary(grouping: rows, by: \.entity) {
            try eachChunk(of: keys.map(\.entityID), sql: { "SELECT entity_id, change_seq, fields FROM records WHERE user_id = ? AND entity = ? AND entity_id IN (\($0))" },
                          db, bind: { select in select.bind(1, user); select.bind(2, entity); return 3 },
                          bindEach: { select, index, id in select.bind(index, id) }) { statement in
                let row = RowKey(entity: entity, entityID: columnText(statement, 0))
                do {
                    stored[row] = RecordRow(row: row, changeSeq: sqlite3_column_int64(statement, 1), fields: try RecordText.decode(bytes: columnBytes(statement, 2)))
                } catch let error as RecordText.Unreadable {
                    throw StorageError.unreadable(error)
                }
            }
        }
        return stored
    }

    // Runs `sql` (its `IN (...)` list made by the closure) over `values` in chunks of
    // `idsPerLookup`: full chunks share one cached statement, a last, shorter one is prepared once.
    private static func eachChunk(of values: [String], sql: (String) -> String, _ db: Database, bind: (Statement) -> Int32,
                                  bindEach: (Statement, Int32, String) -> Void, row: (OpaquePointer) throws -> Void) throws {
        for start in stride(from: 0, to: values.count, by: idsPerLookup) {
            let chunk = values[start..<min(start + idsPerLookup, values.count)]
            let text = sql(repeatElement("?", count: chunk.count).joined(separator: ","))
            let select = chunk.count == idsPerLookup ? try db.cachedStatement(sql: text) : try db.makeStatement(sql: text)
            defer { select.clearBindings() }
            let first = bind(select)
            for (offset, value) in chunk.enumerated() { bindEach(select, first + Int32(offset), value) }
            try select.eachRow(db, row)
        }
    }

    /// Ids per clock lookup: well under SQLite's 32,766 bound parameters.
    static let idsPerLookup = 500
}
