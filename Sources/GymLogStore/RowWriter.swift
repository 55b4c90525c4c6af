import Foundation
import GRDB
import GymLogCore
import GymLogWire

/// Generic upsert of field changes into a synced table. Field names are column names,
/// except fields this version does not know, which go to the `extra` JSON column so a
/// newer client's data is kept, not dropped.
enum RowWriter {
    /// The synced fields of `entity`, each a column of its table: `FieldRules`' list, the one
    /// list of them (a field gymlog knows has a rule and a column). A switch rather than a
    /// `[EntityKind: Set<String>]`: the first use of a dictionary keyed by a type of our own
    /// costs a one-shot `gymlog` a runtime conformance lookup (about 0.6 M instructions).
    static func columns(_ entity: EntityKind) -> Set<String> {
        switch entity {
        case .exercises: exerciseColumns
        case .aliases: aliasColumns
        case .workouts: workoutColumns
        case .sets: setColumns
        case .routines: routineColumns
        case .bodyweights: bodyweightColumns
        }
    }

    private static let exerciseColumns = FieldRules.fields(of: EntityKind.exercises.rawValue)
    private static let aliasColumns = FieldRules.fields(of: EntityKind.aliases.rawValue)
    private static let workoutColumns = FieldRules.fields(of: EntityKind.workouts.rawValue)
    private static let setColumns = FieldRules.fields(of: EntityKind.sets.rawValue)
    private static let routineColumns = FieldRules.fields(of: EntityKind.routines.rawValue)
    private static let bodyweightColumns = FieldRules.fields(of: EntityKind.bodyweights.rawValue)

    /// Calls `body` with each row of `entity` that `filter` selects (SQL over the table's
    /// columns, `?` bound to `arguments`), in rowid order: its id and every field it holds a
    /// clock for, with that clock (columns, then the `extra` fields of newer clients). What
    /// re-sends a row whole. Rows without a clocked field are skipped.
    static func forEachRow(_ db: Database, _ entity: EntityKind, where filter: String = "1", arguments: StatementArguments = [],
                           _ body: (_ id: String, _ fields: [FieldChange]) throws -> Void) throws {
        let columns = Self.columns(entity).sorted()
        let rows = try Row.fetchCursor(db, sql: "SELECT id, clocks, extra, \(columns.joined(separator: ", ")) FROM \(entity.rawValue) WHERE \(filter) ORDER BY rowid",
                                       arguments: arguments)
        var positions = ColumnPositions(["id", "clocks", "extra"] + columns)
        while let row = try rows.next() {
            let p = positions(row)
            let clocks = FieldClocks(column: row[p[1]] as String)
            var fields: [FieldChange] = []
            for (i, name) in columns.enumerated() {
                guard let clock = clocks[name] else { continue }
                fields.append(FieldChange(name, FieldValue(row[p[3 + i]] as DatabaseValue), clock))
            }
            if let extra = row[p[2]] as String?, let object = try? JSONDecoder().decode([String: FieldValue].self, from: Data(extra.utf8)) {
                for (name, value) in object { if let clock = clocks[name] { fields.append(FieldChange(name, value, clock)) } }
            }
            guard !fields.isEmpty else { continue }
            try body(row[p[0]], fields)
        }
    }

    /// Writes `changes` to row `id`. A create carries every column and inserts (or revives a
    /// row with the same derived id); other changes update the fields they name, and insert
    /// a partial row only when the row is not there yet (a change that arrived first).
    static func upsert(_ db: Database, _ entity: EntityKind, id: String, changes: [FieldChange], creating: Bool) throws {
        guard !changes.isEmpty else { return }
        if !creating {
            try update(db, entity, id: id, changes: changes)
            if db.changesCount > 0 { return }
        }
        let known = columns(entity)
        var names: [String] = [], values: [DatabaseValue] = []
        var extra: [FieldChange] = []
        for c in changes {
            if known.contains(c.name) { names.append(c.name); values.append(c.value.databaseValue) } else { extra.append(c) }
        }
        var args: [DatabaseValue] = [id.databaseValue] + values + [FieldClocks.patch(changes).databaseValue]
        if !extra.isEmpty {
            var json = "{"
            for (i, c) in extra.enumerated() {
                if i > 0 { json += "," }
                appendJSONString(c.name, to: &json); json += ":"; appendJSON(c.value, to: &json)
            }
            json += "}"
            args.append(json.databaseValue)
        }
        // A set's create names every column in `SetColumns.synced` order: logging's hot path
        // takes its statement as built once instead of joining some forty strings per set.
        let sql = entity == .sets && extra.isEmpty && names == SetColumns.synced
            ? setCreateSQL : insertSQL(entity, columns: names, extra: !extra.isEmpty)
        try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(args))
    }

    /// The upsert of `columns` (then `clocks`, then `extra` when `extra`) into row `?`.
    static func insertSQL(_ entity: EntityKind, columns names: [String], extra: Bool) -> String {
        var insertCols = ["id"] + names + ["clocks"]
        var updates = names.map { "\($0) = excluded.\($0)" } + ["clocks = json_patch(\(entity.rawValue).clocks, excluded.clocks)"]
        if extra {
            insertCols.append("extra")
            updates.append("extra = json_patch(coalesce(\(entity.rawValue).extra, '{}'), excluded.extra)")
        }
        return "INSERT INTO \(entity.rawValue) (\(insertCols.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: insertCols.count).joined(separator: ", ")
            + ") ON CONFLICT(id) DO UPDATE SET " + updates.joined(separator: ", ")
    }

    private static let setCreateSQL = insertSQL(.sets, columns: SetColumns.synced, extra: false)
}

extension RowWriter {
    static func update(_ db: Database, _ entity: EntityKind, id: String, changes: [FieldChange]) throws {
        let known = columns(entity)
        var sets: [String] = [], args: [DatabaseValue] = []
        var extra = "{"
        for c in changes {
            if known.contains(c.name) {
                sets.append("\(c.name) = ?"); args.append(c.value.databaseValue)
            } else {
                if extra.count > 1 { extra += "," }
                appendJSONString(c.name, to: &extra); extra += ":"; appendJSON(c.value, to: &extra)
            }
        }
        if extra.count > 1 {
            sets.append("extra = json_patch(coalesce(extra, '{}'), ?)"); args.append((extra + "}").databaseValue)
        }
        sets.append("clocks = json_patch(clocks, ?)"); args.append(FieldClocks.patch(changes).databaseValue)
        args.append(id.databaseValue)
        try db.cachedStatement(sql: "UPDATE \(entity.rawValue) SET \(sets.joined(separator: ", ")) WHERE id = ?")
            .execute(arguments: StatementArguments(args))
    }
}
