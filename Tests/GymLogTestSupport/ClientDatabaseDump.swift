import Foundation
import GRDB
import GymLogCore
import GymLogWire

// The client database as the oracles see it: read with a plain GRDB connection, never
// through the app's own decoding, so a bug there cannot hide itself.

/// One SQLite value, compared byte for byte (Swift's String equality would call NFC and NFD equal).
public enum Cell: Hashable, Sendable, CustomStringConvertible {
    case null, int(Int64), real(UInt64), text([UInt8]), blob([UInt8])

    public init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let i): self = .int(i)
        case .double(let d): self = .real(d.bitPattern)
        case .string(let s): self = .text(Array(s.utf8))
        case .blob(let data): self = .blob(Array(data))
        }
    }

    public init(_ value: FieldValue) {
        switch value {
        case .null: self = .null
        case .int(let i): self = .int(i)
        case .real(let d): self = .real(d.bitPattern)
        case .text(let s): self = .text(Array(s.utf8))
        }
    }

    public var text: String? { if case .text(let b) = self { String(decoding: b, as: UTF8.self) } else { nil } }

    /// The value as the sync protocol carries it (synced columns never hold blobs).
    public var fieldValue: FieldValue {
        switch self {
        case .null: .null
        case .int(let i): .int(i)
        case .real(let bits): .real(Double(bitPattern: bits))
        case .text(let b): .text(String(decoding: b, as: UTF8.self))
        case .blob(let b): .text("blob(\(b.count) bytes)")
        }
    }

    public var description: String {
        switch self {
        case .null: "NULL"
        case .int(let i): "\(i)"
        case .real(let bits): "\(Double(bitPattern: bits))"
        case .text(let b): String(decoding: b, as: UTF8.self).debugDescription + "(\(b.count) bytes)"
        case .blob(let b): "blob(\(b.count) bytes)"
        }
    }
}

/// Whether a stored value is the value an event carries: text byte for byte, and an integer
/// equal to a real (an INTEGER column stores 5.0 as 5).
public func sameValue(_ a: Cell, _ b: Cell) -> Bool {
    switch (a, b) {
    case (.int(let x), .real(let y)), (.real(let y), .int(let x)): return Double(x) == Double(bitPattern: y)
    default: return a == b
    }
}

/// The same comparison for protocol values.
public func sameValue(_ a: FieldValue, _ b: FieldValue) -> Bool { sameValue(Cell(a), Cell(b)) }

/// One outbox row, decoded.
public struct OutboxEvent: Equatable, Sendable {
    public var seq: Int64, key: String, entity: String, entityID: String, op: String, payload: String, createdAt: Int64
    public var fields: [FieldChange]
    public func field(_ name: String) -> FieldValue? { fields.first { $0.name == name }?.value }
    /// The one clock a write stamps on all its fields.
    public var clock: HLC? { fields.first?.clock }
}

/// One synced row: its columns, the fields kept in `extra`, and each field's clock.
public struct StoredRow: Equatable, Sendable {
    public var cells: [String: Cell]
    public var extra: [String: FieldValue]
    public var clocks: [String: HLC]
    public var values: [String: FieldValue] { cells.mapValues(\.fieldValue) }
    public func cell(_ field: String) -> Cell? { cells[field] ?? extra[field].map(Cell.init) }
    public func value(_ field: String) -> FieldValue? { cell(field)?.fieldValue }
}

/// Which synced rows a dump materialises (the outbox is always read whole).
public enum RowScope: Sendable {
    /// Every row (final comparisons, and checks that match lines to rows).
    case all
    /// The rows the invariant looks at: those named by an outbox event, and those holding a
    /// clock of this device newer than the given one (nil: any clock of this device). Whole
    /// table scans then run inside SQLite, so checks stay quick on a large history.
    case checkedAgainst(watermark: HLC?)
    /// No row: only the outbox and the bookkeeping.
    case none
}

/// Every row of one table, cell by cell, in a fixed order.
public struct RawTable: Equatable, Sendable {
    public var columns: [String]
    public var rows: [[Cell]]

    /// Rows keyed by their first column (the id), each as column -> cell.
    public func rowsByID() -> [String: [String: Cell]] {
        var out: [String: [String: Cell]] = [:]
        for row in rows { out[row[0].text ?? "\(row[0])"] = Dictionary(uniqueKeysWithValues: zip(columns, row)) }
        return out
    }
}

/// A client database read directly: its bookkeeping, its outbox, the synced rows of a scope
/// and, when asked, every table cell by cell.
public struct ClientDatabaseDump: Sendable {
    public var integrity: [String] = []
    public var foreignKeyViolations = 0
    public var hasSchema = false
    public var deviceID: String?
    public var lastSeq: Int64 = 0, lastClock = HLC.zero, ackedSeq: Int64 = 0
    /// entity -> id -> row, for the rows of the scope read.
    public var rows: [String: [String: StoredRow]] = [:]
    public var allRows = false
    public var outbox: [OutboxEvent] = []
    public var undecodable: [String] = []
    /// Over every row of every synced table, computed by SQLite whatever the scope.
    public var rowCounts: [String: Int] = [:]
    public var newestRowClock: HLC?
    public var rowsWithoutClocks = 0
    public var fieldsWithForeignClocks = 0
    /// Every table, cell by cell (read only with `tables: true`).
    public var tables: [String: RawTable] = [:]

    /// The synced tables, named like the entities.
    public static let syncedTables = EntityKind.allCases.map(\.rawValue)

    public init() {}

    public var integrityProblems: [String] {
        var out: [String] = []
        if integrity != ["ok"] { out.append("PRAGMA integrity_check: \(integrity.prefix(5))") }
        if foreignKeyViolations > 0 { out.append("PRAGMA foreign_key_check: \(foreignKeyViolations) rows") }
        return out + undecodable
    }

    /// Sets whose note is exactly `note` (needs every row).
    public func sets(withNote note: String) -> Int {
        precondition(allRows)
        return rows["sets"]?.values.filter { $0.cells["note"]?.text == note }.count ?? 0
    }

    /// Reads the file at `path`; nil when it does not exist (a kill came before gymlog
    /// created it). It only reads, but opens read-write: after a SIGKILL the first opener
    /// recovers the WAL index, which SQLite refuses on a read-only connection ("attempt to
    /// write a readonly database" on the first SELECT, a flaky crash-test failure). Recovery
    /// is what gymlog's own next open does, so the dump sees what the user would.
    public static func read(_ path: String, rows scope: RowScope = .all, tables: Bool = false) throws -> ClientDatabaseDump? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var config = Configuration()
        config.foreignKeysEnabled = false
        return try DatabaseQueue(path: path, configuration: config).read { try ClientDatabaseDump.read($0, rows: scope, tables: tables) }
    }

    /// Reads through a connection the caller holds (e.g. the app's own, between two commands).
    public static func read(_ db: Database, rows scope: RowScope = .all, tables: Bool = false) throws -> ClientDatabaseDump {
        var s = ClientDatabaseDump()
        if case .all = scope { s.allRows = true }
        s.integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        s.foreignKeyViolations = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count
        if tables { s.tables = try readTables(db) }
        guard try db.tableExists("device") else { return s }
        s.hasSchema = true
        if let row = try Row.fetchOne(db, sql: "SELECT device_id, last_clock, last_seq FROM device") {
            s.deviceID = row[0]; s.lastClock = HLC(row[1] as String) ?? .zero; s.lastSeq = row[2]
        }
        s.ackedSeq = try Int64.fetchOne(db, sql: "SELECT acked_seq FROM sync_state") ?? 0
        for row in try Row.fetchAll(db, sql: "SELECT seq, idempotency_key, entity, entity_id, op, payload, created_at FROM outbox ORDER BY seq") {
            let payload: String = row[5]
            let fields: [FieldChange]
            do { fields = try PayloadCache.shared.decode(payload) } catch {
                s.undecodable.append("outbox \(row[0] as Int64): \(error)"); fields = []
            }
            s.outbox.append(OutboxEvent(seq: row[0], key: row[1], entity: row[2], entityID: row[3], op: row[4], payload: payload,
                                        createdAt: row[6], fields: fields))
        }
        // A clock's text is `<15 digits>-<5 digits>-<node>` and sorts like the clock.
        let device = s.deviceID ?? ""
        // A file killed between migrations lacks the later tables (each migration commits whole).
        for table in syncedTables where try db.tableExists(table) {
            s.rowCounts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
            for id in try String.fetchAll(db, sql: "SELECT id FROM \(table) WHERE json_type(clocks) IS NOT 'object'") {
                s.undecodable.append("\(table)/\(id): clocks is not a JSON object")
            }
            let fields = "\(table) t, json_each(t.clocks) j WHERE json_type(t.clocks) = 'object'"
            if let text = try String.fetchOne(db, sql: "SELECT max(j.value) FROM \(fields)") {
                if let clock = HLC(text) { s.newestRowClock = max(s.newestRowClock ?? clock, clock) } else {
                    s.undecodable.append("\(table): clock \(text) does not parse")
                }
            }
            s.rowsWithoutClocks += try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE clocks = '{}'") ?? 0
            s.fieldsWithForeignClocks += try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(fields) AND substr(j.value, 23) != ?", arguments: [device]) ?? 0

            // Field names are column names (the schema's rule); `extra` holds the others.
            let names = try db.columns(in: table).map(\.name).filter { !["id", "clocks", "extra"].contains($0) }.sorted()
            let select = "SELECT id, extra, clocks, \(names.joined(separator: ", ")) FROM \(table)"
            let rows: [Row]
            switch scope {
            case .none: continue
            case .all: rows = try Row.fetchAll(db, sql: select)
            case .checkedAgainst(let watermark):
                var ids = Set(s.outbox.filter { $0.entity == table }.map(\.entityID))
                ids.formUnion(try String.fetchAll(db, sql: "SELECT DISTINCT t.id FROM \(fields) AND substr(j.value, 23) = ? AND j.value > ?",
                                                  arguments: [device, watermark?.description ?? ""]))
                let json = "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]"
                rows = try Row.fetchAll(db, sql: select + " WHERE id IN (SELECT value FROM json_each(?))", arguments: [json])
            }
            var loaded: [String: StoredRow] = [:]
            for row in rows {
                let id: String = row[0]
                var cells: [String: Cell] = [:]
                for (i, name) in names.enumerated() { cells[name] = Cell(row[3 + i] as DatabaseValue) }
                let clockText: String = row[2]
                var clocks: [String: HLC] = [:]
                if let parsed = parseClocks(clockText) { clocks = parsed } else {
                    s.undecodable.append("\(table)/\(id): clocks \(clockText) is not a JSON object of clocks")
                }
                var extra: [String: FieldValue] = [:]
                if let text = row[1] as String? {
                    if let object = try? JSONDecoder().decode([String: FieldValue].self, from: Data(text.utf8)) { extra = object } else {
                        s.undecodable.append("\(table)/\(id): extra \(text) is not a JSON object")
                    }
                }
                loaded[id] = StoredRow(cells: cells, extra: extra, clocks: clocks)
            }
            s.rows[table] = loaded
        }
        return s
    }

    private static func readTables(_ db: Database) throws -> [String: RawTable] {
        let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        var tables: [String: RawTable] = [:]
        for name in names {
            let columns = try db.columns(in: name).map(\.name)
            let order = (1...columns.count).map(String.init).joined(separator: ", ")
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM \"\(name)\" ORDER BY \(order)").map { row in
                (0..<row.count).map { Cell(row[$0] as DatabaseValue) }
            }
            tables[name] = RawTable(columns: columns, rows: rows)
        }
        return tables
    }

    /// Blanks one column of the raw tables, for comparisons that allow it to change.
    public mutating func mask(column: String, of table: String) {
        guard var t = tables[table], let i = t.columns.firstIndex(of: column) else { return }
        for r in t.rows.indices { t.rows[r][i] = .null }
        tables[table] = t
    }

    /// Which rows differ between the raw tables of two dumps, for failure messages.
    public static func difference(_ a: ClientDatabaseDump, _ b: ClientDatabaseDump) -> String {
        var parts: [String] = []
        for name in Set(a.tables.keys).union(b.tables.keys).sorted() where a.tables[name] != b.tables[name] {
            let before = Set((a.tables[name]?.rows ?? []).map { "\($0)" }), after = Set((b.tables[name]?.rows ?? []).map { "\($0)" })
            let gone = before.subtracting(after).sorted().prefix(2), new = after.subtracting(before).sorted().prefix(2)
            parts.append("\(name): -\(gone.map { String($0.prefix(300)) }) +\(new.map { String($0.prefix(300)) })")
        }
        return parts.joined(separator: "; ")
    }
}

/// Decoded outbox payloads by their text: the same events are read after every kill.
final class PayloadCache: @unchecked Sendable {
    static let shared = PayloadCache()
    private let lock = NSLock()
    private var decoded: [String: [FieldChange]] = [:]

    func decode(_ payload: String) throws -> [FieldChange] {
        if let hit = lock.withLock({ decoded[payload] }) { return hit }
        let fields = try decodePayload(payload)
        lock.withLock { decoded[payload] = fields }
        return fields
    }
}

/// A row's `clocks` column, `{"field":"clock",...}`: a quick scan for the form gymlog and
/// SQLite's json_patch write, JSONDecoder for anything else; nil when it is not that object.
func parseClocks(_ text: String) -> [String: HLC]? {
    var out: [String: HLC] = [:]
    var parsedClocks: [Substring: HLC] = [:]
    if !text.contains("\\"), text.hasPrefix("{"), text.hasSuffix("}") {
        let body = text.dropFirst().dropLast()
        if body.isEmpty { return [:] }
        var ok = true
        for pair in body.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count >= 2, parts[1].count >= 2, parts[0].first == "\"", parts[0].last == "\"",
                  parts[1].first == "\"", parts[1].last == "\"" else { ok = false; break }
            let value = parts[1].dropFirst().dropLast()
            if parsedClocks[value] == nil { guard let c = HLC(String(value)) else { return nil }; parsedClocks[value] = c }
            out[String(parts[0].dropFirst().dropLast())] = parsedClocks[value]
        }
        if ok { return out }
    }
    guard let object = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) else { return nil }
    out = [:]
    for (k, v) in object { guard let c = HLC(v) else { return nil }; out[k] = c }
    return out
}
