import Foundation
import GRDB
import GymLogCore
import GymLogWire

/// A pulled change this device could not accept, as `gymlog status` shows it.
public struct ParkedChange: Equatable, Sendable {
    public var entity: String
    public var entityID: String
    public var reason: String
    public var parkedAt: Int64
}

/// Pulled changes that break the rules of a local write (`PulledChangeRules`), kept whole and
/// unapplied in `parked_changes`, one row per synced row: never applied half, never blocking
/// the rest of a page. A later change of the same row is merged with it and checked again,
/// so a fix made on another device (or the create that was missing) lets it in.
enum ParkedChanges {
    /// Whether any change is parked.
    static func any(in db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM parked_changes)")) ?? false
    }

    /// Removes and returns the fields parked for the row, if any.
    static func take(_ entity: EntityKind, id: String, in db: Database) throws -> [FieldChange] {
        guard let payload = try String.fetchOne(db.cachedStatement(sql: "SELECT payload FROM parked_changes WHERE entity = ? AND entity_id = ?"),
                                                arguments: [entity.rawValue, id]) else { return [] }
        try db.cachedStatement(sql: "DELETE FROM parked_changes WHERE entity = ? AND entity_id = ?").execute(arguments: [entity.rawValue, id])
        return (try? decodePayload(payload)) ?? []
    }

    /// Parks `fields` for the row with the reason they cannot be applied. `entity` is the
    /// change's as sent: one this version does not know is kept to be shown, never applied.
    static func park(_ entity: String, id: String, fields: [FieldChange], reason: String, at now: Int64, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO parked_changes (entity, entity_id, payload, reason, parked_at) VALUES (?, ?, ?, ?, ?)
            """).execute(arguments: [entity, id, encodePayload(fields), reason, now])
    }

    /// `parked` and `incoming` as one change: per field, the value with the newer clock.
    static func merged(_ parked: [FieldChange], _ incoming: [FieldChange]) -> [FieldChange] {
        guard !parked.isEmpty else { return incoming }
        var byName: [String: FieldChange] = [:]
        for field in parked + incoming where byName[field.name].map({ field.clock > $0.clock }) ?? true { byName[field.name] = field }
        return byName.values.sorted { $0.name < $1.name }
    }

    /// The parked changes, oldest first, for `gymlog status`.
    static func list(in db: Database, limit: Int = 20) throws -> (count: Int, first: [ParkedChange]) {
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM parked_changes") ?? 0
        let first = try Row.fetchAll(db, sql: "SELECT entity, entity_id, reason, parked_at FROM parked_changes ORDER BY parked_at, entity, entity_id LIMIT ?",
                                     arguments: [limit]).map {
            ParkedChange(entity: $0["entity"], entityID: $0["entity_id"], reason: $0["reason"], parkedAt: $0["parked_at"])
        }
        return (count, first)
    }
}
