import Foundation
import GRDB
import GymLogCore

extension BodyweightEntry {
    /// Every field of a new entry, as `ChangeWriter.write(.bodyweights, op: .create)` takes them.
    var createFields: [(String, FieldValue)] {
        [("measured_at", .int(measuredAt)), ("utc_offset", .int(Int64(utcOffsetSeconds))),
         ("weight", .text(weight.value.description)), ("weight_unit", .text(weight.unit.rawValue)), (tombstoneField, .null)]
    }
}

extension GymLogDatabase {
    // MARK: Bodyweight (a synced entity)

    /// Records bodyweight now, or at an earlier moment (`--at`).
    public func logBodyweight(_ weight: Weight, at: Int64? = nil, typed: String) throws -> BodyweightEntry {
        try commit(action: typed) { w in
            let when = at ?? w.now
            if at != nil { try Workouts(w).requirePast(when) }
            let id = w.environment.newID()
            let offset = w.environment.utcOffset(when)
            let entry = BodyweightEntry(id: id, weight: weight, measuredAt: when, utcOffsetSeconds: offset)
            _ = try w.write(.bodyweights, id: id, op: .create, fields: entry.createFields)
            w.describeAction("bodyweight \(weight)", workout: nil)
            return entry
        }
    }

    /// Bodyweight entries, newest first (all of them when `limit` is nil).
    public func bodyweights(limit: Int? = nil, since: Int64? = nil, until: Int64? = nil) throws -> [BodyweightEntry] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, measured_at, utc_offset, weight, weight_unit FROM bodyweights
                WHERE deleted_at IS NULL AND measured_at >= ? AND measured_at < ?
                ORDER BY measured_at DESC LIMIT ?
                """, arguments: [since ?? Int64.min, until ?? Int64.max, limit ?? -1]).compactMap(Self.bodyweight)
        }
    }

    /// Streams the live bodyweight entries `filter` covers, oldest first (by id within one
    /// millisecond), for the native export. An export of one exercise has none.
    public func forEachExportBodyweight(_ filter: ExportFilter, _ body: (BodyweightEntry) throws -> Void) throws {
        guard filter.exerciseID == nil else { return }
        try read { db in
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT id, measured_at, utc_offset, weight, weight_unit FROM bodyweights
                WHERE deleted_at IS NULL AND measured_at >= ? AND measured_at < ?
                ORDER BY measured_at, id
                """, arguments: [filter.since ?? Int64.min, filter.until ?? Int64.max])
            while let row = try cursor.next() {
                if let entry = Self.bodyweight(row) { try body(entry) }
            }
        }
    }

    /// The bodyweight on the day of `at`: the last entry on or before it.
    public func bodyweight(at: Int64) throws -> BodyweightEntry? {
        try read { db in
            try Row.fetchOne(db, sql: """
                SELECT id, measured_at, utc_offset, weight, weight_unit FROM bodyweights
                WHERE deleted_at IS NULL AND measured_at <= ? ORDER BY measured_at DESC LIMIT 1
                """, arguments: [at]).flatMap(Self.bodyweight)
        }
    }

    /// Every live entry measured up to `until`, for the bodyweight of each set's day.
    static func bodyweightTimeline(_ db: Database, until: Int64 = .max) throws -> BodyweightTimeline {
        BodyweightTimeline(try Row.fetchAll(db, sql: """
            SELECT id, measured_at, utc_offset, weight, weight_unit FROM bodyweights
            WHERE deleted_at IS NULL AND measured_at <= ?
            """, arguments: [until]).compactMap(bodyweight).map { (at: $0.measuredAt, weight: $0.weight) })
    }

    /// The timeline `sets` need: read only when one of them is a bodyweight set.
    static func bodyweightTimeline(_ db: Database, for sets: [LoggedSet]) throws -> BodyweightTimeline {
        guard let last = sets.filter(\.values.bodyweight).map(\.performedAt).max() else { return BodyweightTimeline([]) }
        return try bodyweightTimeline(db, until: last)
    }

    private static func bodyweight(_ row: Row) -> BodyweightEntry? {
        guard let id = parseUUID(row["id"]), let value = (row["weight"] as String?).flatMap({ Fixed(parsing: $0) }),
              let unit = (row["weight_unit"] as String?).flatMap({ WeightUnit(rawValue: $0) }) else { return nil }
        return BodyweightEntry(id: id, weight: Weight(value, unit), measuredAt: row["measured_at"], utcOffsetSeconds: row["utc_offset"])
    }
}
