import Foundation
import GRDB
import GymLogCore
import GymLogWire

/// How this database turns a content-derived id (`derivedID`: an exercise's, alias's or
/// routine's name, an imported row) into the id it stores: unchanged for an account in the
/// clear; keyed with the account key (`AccountKey.keyedID`) when the account is encrypted end
/// to end, so the server cannot learn a name by deriving its id and looking for it.
///
/// The key is read from its recovery phrase on first use, not when the database opens: most
/// commands derive no id, and a one-shot `gymlog log` should not pay for it.
final class IDKeying: @unchecked Sendable {
    private let phrase: String?
    private let lock = NSLock()
    private var read = false
    private var key: AccountKey?

    init(accountKeyPhrase phrase: String?) { self.phrase = phrase }

    /// Whether ids are keyed here (the settings hold an account key).
    var isKeyed: Bool { phrase != nil }

    /// `id` as stored here: a derived id keyed when the account is encrypted; any other id
    /// (random, already keyed) as it is. An unreadable phrase keys nothing here: such an id
    /// is keyed before it can leave the device, since a sync with that phrase refuses to run
    /// and one with the right key keys every derived id first (`keyDerivedIDs`).
    func stored(_ id: UUID) -> UUID {
        guard phrase != nil, id.isDerived else { return id }
        return accountKey().map { $0.keyedID(id) } ?? id
    }

    /// The stored id of the row derived from `key` in `namespace`.
    func derived(namespace: String, key: String) -> UUID { stored(derivedID(namespace: namespace, key: key)) }

    private func accountKey() -> AccountKey? {
        lock.withLock {
            if !read { key = phrase.flatMap { try? AccountKey(phrase: $0) }; read = true }
            return key
        }
    }
}

extension GymLogDatabase {
    /// The text of a version-5 UUID, as a GLOB pattern.
    static let derivedIDPattern = Array(repeating: "[0-9a-f]", count: 8).joined() + "-" + Array(repeating: "[0-9a-f]", count: 4).joined()
        + "-5" + Array(repeating: "[0-9a-f]", count: 3).joined() + "-[89ab]" + Array(repeating: "[0-9a-f]", count: 3).joined()
        + "-" + Array(repeating: "[0-9a-f]", count: 12).joined()

    /// Replaces every plain derived id this database holds by its keyed form under `key`, in
    /// one transaction: the rows' ids and the ids they refer to, the outbox, the undo journal,
    /// parked changes and the local tallies and records. Returns how many rows of the synced
    /// tables changed id.
    ///
    /// Ids are not fields: no clock moves and nothing new is written to the outbox. The events
    /// waiting there are rewritten in place; rows the server already holds under a plain id
    /// are sent again under the keyed one when the server's history is replaced (`gymlog key
    /// enable`, or a login to an encrypted account, which starts a new history for the device).
    /// Two devices key the same plain id alike, so an exercise both made offline stays one.
    @discardableResult
    public func keyDerivedIDs(with key: AccountKey) throws -> Int {
        try commit { w in
            let db = w.db
            var changed = 0
            // Parents and children change id together; the references are checked at commit.
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            let keyed = DatabaseFunction("gymlog_keyed_id", argumentCount: 1, pure: true) { values in
                guard let text = String.fromDatabaseValue(values[0]), let id = parseUUID(text), id.isDerived else { return values[0] }
                return key.keyedID(id).key
            }
            db.add(function: keyed)
            defer { db.remove(function: keyed) }
            let pattern = Self.derivedIDPattern
            // Records are rebuilt for the exercises whose records name a plain id: two rows
            // that become one (below) would otherwise hold two records of one exercise.
            let staleRecords = try String.fetchAll(db, sql: """
                SELECT DISTINCT gymlog_keyed_id(exercise_id) FROM records WHERE exercise_id GLOB ?1 OR set_id GLOB ?1 OR workout_id GLOB ?1
                """, arguments: [pattern])
            try db.execute(sql: "DELETE FROM records WHERE exercise_id GLOB ?1 OR set_id GLOB ?1 OR workout_id GLOB ?1", arguments: [pattern])
            for entity in EntityKind.allCases {
                changed += try Self.mergeIntoKeyedRows(db, entity, key)
                let columns = ["id"] + FieldRules.idFields(of: entity.rawValue)
                try db.execute(sql: """
                    UPDATE \(entity.rawValue) SET \(columns.map { "\($0) = gymlog_keyed_id(\($0))" }.joined(separator: ", "))
                    WHERE \(columns.map { "\($0) GLOB ?1" }.joined(separator: " OR "))
                    """, arguments: [pattern])
                changed += db.changesCount
            }
            // The tallies followed the sets through their triggers, leaving empty rows under the plain ids.
            try db.execute(sql: "DELETE FROM session_tallies WHERE live_sets = 0 AND kg_volume = 0 AND lb_volume = 0")
            try db.execute(sql: "UPDATE undo_actions SET workout_id = gymlog_keyed_id(workout_id) WHERE workout_id GLOB ?", arguments: [pattern])
            try db.execute(sql: "UPDATE undo_created SET id = gymlog_keyed_id(id) WHERE id GLOB ?", arguments: [pattern])
            try rewriteEvents(db, table: "outbox", rowKey: ["seq"], key)
            try rewriteEvents(db, table: "parked_changes", rowKey: ["entity", "entity_id"], key)
            try rewriteJournal(db, key)
            for id in staleRecords.compactMap(parseUUID) { try RecordBook(w).rebuildRecords(exerciseID: id) }
            return changed
        }
    }

    /// Folds each row of `entity` under a plain derived id whose keyed id is already a row
    /// (one made by name after the key came, while a deleted namesake kept the plain id) into
    /// that row, field by field, the later clock winning as in a merge of pulled changes; the
    /// plain row is then deleted. Returns how many rows were folded.
    private static func mergeIntoKeyedRows(_ db: Database, _ entity: EntityKind, _ key: AccountKey) throws -> Int {
        let table = entity.rawValue
        var folded: [(plain: String, keyed: String, fields: [FieldChange])] = []
        try RowWriter.forEachRow(db, entity, where: "id GLOB ? AND gymlog_keyed_id(id) IN (SELECT id FROM \(table))",
                                 arguments: [derivedIDPattern]) { id, fields in
            guard let plain = parseUUID(id) else { return }
            folded.append((id, key.keyedID(plain).key, fields))
        }
        for row in folded {
            let text = try String.fetchOne(db, sql: "SELECT clocks FROM \(table) WHERE id = ?", arguments: [row.keyed])
            let clocks = FieldClocks(column: text)
            let winners = row.fields.filter { incomingWins(stored: clocks[$0.name], incoming: $0.clock) }
            try RowWriter.upsert(db, entity, id: row.keyed, changes: keyingIDFields(winners, of: table, key), creating: false)
            try db.execute(sql: "DELETE FROM \(table) WHERE id = ?", arguments: [row.plain])
        }
        return folded.count
    }

    /// `fields` of a row of `entity` with the ids they refer to keyed.
    private static func keyingIDFields(_ fields: [FieldChange], of entity: String, _ key: AccountKey) -> [FieldChange] {
        fields.map { FieldChange($0.name, keyedIDValue($0.value, field: $0.name, of: entity, key), $0.clock) }
    }

    /// `value` of `field` of `entity`, keyed when the field holds a plain derived id.
    private static func keyedIDValue(_ value: FieldValue, field: String, of entity: String, _ key: AccountKey) -> FieldValue {
        guard FieldRules.idFields(of: entity).contains(field), let text = value.text, let id = parseUUID(text), id.isDerived else { return value }
        return .text(key.keyedID(id).key)
    }

    /// Keys the row id and the payload of every row of `table` (the outbox, parked changes:
    /// an entity, its row's id and fields as an outbox payload) that names a plain derived id.
    private func rewriteEvents(_ db: Database, table: String, rowKey: [String], _ key: AccountKey) throws {
        let rows = try Row.fetchAll(db, sql: """
            SELECT \(rowKey.joined(separator: ", ")), entity, entity_id, payload FROM \(table)
            WHERE entity_id GLOB ?1 OR payload GLOB '*' || ?1 || '*'
            """, arguments: [Self.derivedIDPattern])
        for row in rows {
            let entity: String = row["entity"]
            let payload = encodePayload(Self.keyingIDFields(try decodePayload(row["payload"]), of: entity, key))
            try db.execute(sql: """
                UPDATE \(table) SET entity_id = gymlog_keyed_id(entity_id), payload = ?
                WHERE \(rowKey.map { "\($0) = ?" }.joined(separator: " AND "))
                """, arguments: StatementArguments([payload.databaseValue] + rowKey.map { row[$0] as DatabaseValue }))
        }
    }

    /// Keys the ids in the undo journal's writes, so `undo` still finds the rows it reverts.
    private func rewriteJournal(_ db: Database, _ key: AccountKey) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT id, writes FROM undo_actions WHERE writes GLOB '*' || ? || '*'",
                                    arguments: [Self.derivedIDPattern])
        for row in rows {
            guard var writes = JournalFields.decodeWrites(row["writes"]) else { continue }
            for i in writes.indices {
                let entity = writes[i].entity.rawValue
                if let id = parseUUID(writes[i].id), id.isDerived { writes[i].id = key.keyedID(id).key }
                writes[i].before = writes[i].before.map { Self.keyingIDFields($0, of: entity, key) }
                writes[i].after = Self.keyingIDFields(writes[i].after, of: entity, key)
            }
            try db.execute(sql: "UPDATE undo_actions SET writes = ? WHERE id = ?", arguments: [JournalFields.encode(writes), row["id"] as Int64])
        }
    }

    /// The `(name, value)` pairs of a journalled write with the ids they refer to keyed.
    private static func keyingIDFields(_ fields: [(String, FieldValue)], of entity: String, _ key: AccountKey) -> [(String, FieldValue)] {
        fields.map { ($0.0, keyedIDValue($0.1, field: $0.0, of: entity, key)) }
    }
}
