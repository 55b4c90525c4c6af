import Foundation
import GRDB
import GRDBSQLite
import GymLogCore
import GymLogServerCore
import GymLogWire
import Logging

extension SQLiteSyncStorage {
    /// Runs the pending migrations and logs each one applied, as PostgreSQL's are
    /// (`PostgresSchema.migrate`): an operator sees what an upgrade did to the file, and when.
    static func migrate(_ pool: DatabasePool, path: String, logger: Logger) throws {
        let migrator = Self.migrator
        let before = try pool.read { try migrator.appliedIdentifiers($0) }
        try migrator.migrate(pool)
        for name in migrator.migrations where !before.contains(name) {
            logger.notice("applied SQLite migration", metadata: ["name": "\(name)", "path": "\(path)"])
        }
    }

    /// Append-only migrations in plain SQL; never edit a shipped one, add the next.
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("server-v1") { db in
            try db.execute(sql: """
            -- One row: the epoch names this database, so clients notice a wiped server.
            CREATE TABLE meta (
                singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                epoch TEXT NOT NULL,
                created_at INTEGER NOT NULL
            );
            INSERT INTO meta VALUES (1, lower(hex(randomblob(16))), CAST(strftime('%s', 'now') AS INTEGER) * 1000);

            -- change_seq is the user's change counter: the pull cursor.
            CREATE TABLE users (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                token_hash TEXT NOT NULL UNIQUE,
                created_at INTEGER NOT NULL,
                revoked_at INTEGER,
                change_seq INTEGER NOT NULL DEFAULT 0
            );

            -- The Replicache rule: per (user, device), the last applied gapless seq.
            CREATE TABLE devices (
                user_id INTEGER NOT NULL REFERENCES users(id),
                device_id TEXT NOT NULL,
                last_applied_seq INTEGER NOT NULL DEFAULT 0,
                last_seen_at INTEGER,
                PRIMARY KEY (user_id, device_id)
            ) WITHOUT ROWID;

            CREATE TABLE applied_keys (
                user_id INTEGER NOT NULL REFERENCES users(id),
                idempotency_key TEXT NOT NULL,
                PRIMARY KEY (user_id, idempotency_key)
            ) WITHOUT ROWID;

            -- The merged state: one row per (user, entity, entity_id, field), last writer wins.
            CREATE TABLE fields (
                user_id INTEGER NOT NULL REFERENCES users(id),
                entity TEXT NOT NULL,
                entity_id TEXT NOT NULL,
                field TEXT NOT NULL,
                value,
                clock TEXT NOT NULL,
                change_seq INTEGER NOT NULL,
                PRIMARY KEY (user_id, entity, entity_id, field)
            ) WITHOUT ROWID;
            CREATE INDEX fields_by_change ON fields(user_id, change_seq);
            """)
        }
        m.registerMigration("server-v2-history-generation") { db in
            try db.execute(sql: "ALTER TABLE users ADD COLUMN history_generation INTEGER NOT NULL DEFAULT 0")
        }
        m.registerMigration("server-v3-key-digests") { db in
            // What each key's event carried (SyncRules.digest): the same key with other content
            // is refused as key_reused. Keys recorded before have none and count as the same.
            try db.execute(sql: "ALTER TABLE applied_keys ADD COLUMN digest TEXT")
        }
        m.registerMigration("server-v4-user-ids-never-reused") { db in
            // A plain INTEGER PRIMARY KEY hands the highest id out again once its user is
            // deleted, and a request authenticated as the deleted user could then reach the
            // new one's rows. AUTOINCREMENT never reuses an id; SQLite cannot add it to a
            // table, so the table is rebuilt (GRDB runs a migration with foreign keys off and
            // checks them afterwards). The copy's ids seed the sequence with the highest one.
            try db.execute(sql: """
            CREATE TABLE users_new (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                token_hash TEXT NOT NULL UNIQUE,
                created_at INTEGER NOT NULL,
                revoked_at INTEGER,
                change_seq INTEGER NOT NULL DEFAULT 0,
                history_generation INTEGER NOT NULL DEFAULT 0
            );
            INSERT INTO users_new (id, name, token_hash, created_at, revoked_at, change_seq, history_generation)
                SELECT id, name, token_hash, created_at, revoked_at, change_seq, history_generation FROM users;
            DROP TABLE users;
            ALTER TABLE users_new RENAME TO users;
            """)
        }
        m.registerMigration("server-v5-generation-window") { db in
            // The history generations each user started in the current hour-long window: the
            // limit on rollback claims holds for every instance and across restarts.
            try db.execute(sql: """
                ALTER TABLE users ADD COLUMN generation_window_start INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE users ADD COLUMN generations_in_window INTEGER NOT NULL DEFAULT 0;
                """)
        }
        m.registerMigration("server-v6-account-key") { db in
            // The verifier of an end-to-end encrypted account's key (AccountKey.verifier);
            // NULL for an account whose history is in the clear.
            try db.execute(sql: "ALTER TABLE users ADD COLUMN key_verifier TEXT")
        }
        m.registerMigration("server-v7-record-rows") { db in
            // One row per record instead of one per field: a pull page reads 1,000 rows, not
            // 8,000, and a push writes one row per record it changes (DESIGN.md "One row per
            // record"). A rowid table: a record's text (about 300 bytes) is too long for a
            // WITHOUT ROWID table's b-tree to stay shallow.
            try db.execute(sql: """
                CREATE TABLE records (
                    user_id INTEGER NOT NULL REFERENCES users(id),
                    entity TEXT NOT NULL,
                    entity_id TEXT NOT NULL,
                    change_seq INTEGER NOT NULL,
                    fields TEXT NOT NULL,
                    UNIQUE (user_id, entity, entity_id)
                );
                CREATE INDEX records_by_change ON records(user_id, change_seq);
                """)
            try migrateFieldRowsToRecords(db)
            try db.execute(sql: "DROP TABLE fields")
        }
        m.registerMigration("server-v8-key-verifier-hash") { db in
            // The account key's verifier was kept as a device sends it: with a stolen token
            // and this file, a pull read the sealed history and a forged push applied. Only
            // its SHA-256 is kept now (`Tokens.hash`), as for tokens.
            for row in try Row.fetchAll(db, sql: "SELECT id, key_verifier FROM users WHERE key_verifier IS NOT NULL") {
                try db.execute(sql: "UPDATE users SET key_verifier = ? WHERE id = ?",
                               arguments: [Tokens.hash(row["key_verifier"] as String), row["id"] as Int64])
            }
        }
        m.registerMigration("server-v9-withdrawn-tokens") { db in
            // The hashes of tokens an administrator replaced or whose user they deleted, and
            // why: a device still sending one is told what happened (`TokenWithdrawal`), not
            // "unknown token". A revoked user's own hash stays in `users`. One row per
            // `user rotate`, `activate` or `delete`; no user id, so a deletion leaves nothing of the user but its hash.
            try db.execute(sql: "CREATE TABLE withdrawn_tokens (token_hash TEXT PRIMARY KEY, reason TEXT NOT NULL) WITHOUT ROWID")
        }
        return m
    }
}

/// Folds the field rows of a database from before `server-v7-record-rows` into records, one
/// user and record at a time in key order (so one record's fields are adjacent), written by
/// the same `RecordText` a push writes.
private func migrateFieldRowsToRecords(_ db: Database) throws {
    let insert = try db.makeStatement(sql: "INSERT INTO records (user_id, entity, entity_id, change_seq, fields) VALUES (?, ?, ?, ?, ?)")
    var current: (user: Int64, row: RowKey)?
    var fields: [StoredField] = []
    func flush() throws {
        guard let current, !fields.isEmpty else { return }
        insert.bind(1, current.user); insert.bind(2, current.row.entity); insert.bind(3, current.row.entityID)
        insert.bind(4, fields.map(\.changeSeq).max()!)
        insert.bind(5, RecordText.encode(fields.sorted(by: StoredField.nameOrder)))
        try insert.stepDone(db)
        fields.removeAll(keepingCapacity: true)
    }
    let select = try db.makeStatement(sql: "SELECT user_id, entity, entity_id, field, value, clock, change_seq FROM fields ORDER BY user_id, entity, entity_id")
    try select.eachRow(db) { row in
        let user = sqlite3_column_int64(row, 0)
        let key = RowKey(entity: columnText(row, 1), entityID: columnText(row, 2))
        if current?.user != user || current?.row != key {
            try flush()
            current = (user, key)
        }
        fields.append(StoredField(name: columnText(row, 3), value: FieldValue(column: 4, of: row), clock: columnText(row, 5),
                                  changeSeq: sqlite3_column_int64(row, 6)))
    }
    try flush()
}
