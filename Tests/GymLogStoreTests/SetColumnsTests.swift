import Foundation
import GRDB
import GymLogCore
@testable import GymLogStore
import GymLogWire
import Testing

@Suite("SetColumns: the one column table of a set")
struct SetColumnsTests {
    @Test("the table names every synced column of the migrated sets table, and every set field once")
    func tableMatchesSchema() throws {
        // Given a migrated database
        let db = try temporaryDatabase()
        let schema = try db.read { try $0.columns(in: "sets").map(\.name) }
        // Then the synced columns are the table's, less its bookkeeping
        #expect(Set(SetColumns.synced) == Set(schema).subtracting(["id", "clocks", "extra"]))
        #expect(SetColumns.synced.count == Set(SetColumns.synced).count)
        // And each field of SetValues has exactly one column
        #expect(SetColumns.values.map(\.field).sorted { $0.rawValue < $1.rawValue }
            == SetField.allCases.sorted { $0.rawValue < $1.rawValue })
        #expect(RowWriter.columns(.sets) == Set(SetColumns.synced))
    }

    @Test("every synced entity's fields, listed once in FieldRules, are the columns of its table", arguments: EntityKind.allCases)
    func everyEntitysFieldsAreItsTablesColumns(_ entity: EntityKind) throws {
        let db = try temporaryDatabase()
        let schema = try db.read { try $0.columns(in: entity.rawValue).map(\.name) }
        let fields = FieldRules.fields(of: entity.rawValue)
        #expect(!fields.isEmpty)
        #expect(RowWriter.columns(entity) == fields)
        // Every column but the row's bookkeeping (and columns kept on this device only) is a field.
        #expect(Set(schema).subtracting(["id", "clocks", "extra"]).subtracting(Self.localColumns[entity] ?? []) == fields)
    }

    /// Columns of synced tables that never sync: derived here from synced fields.
    static let localColumns: [EntityKind: Set<String>] = [:]

    @Test("every field written through the pipeline decodes back by name", arguments: [
        "bench 102.5lb x5 @8.5 # paused, \"easy\"",
        "dips bw-22.5kg x8",
        "row 2000m 7:41",
        "plank 90s",
    ])
    func roundTrip(line: String) throws {
        // Given a set logged through the write pipeline
        let db = try temporaryDatabase()
        let logged = try log(db, line).sets[0].set
        // When it is read back (here through the workout view, which joins exercises)
        let read = try #require(try db.workoutDetail()?.sets.first?.set)
        // Then it is the set that was logged, and the outbox carries the same columns as the row
        #expect(read == logged)
        let payload = try db.read { try String.fetchOne($0, sql: "SELECT payload FROM outbox WHERE entity = 'sets'") }
        let fields = try decodePayload(try #require(payload))
        #expect(Set(fields.map(\.name)) == Set(SetColumns.synced))
    }
}
