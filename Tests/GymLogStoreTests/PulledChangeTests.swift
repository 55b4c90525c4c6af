import Foundation
import GRDB
import GymLogCore
@testable import GymLogStore
import GymLogTestSupport
import SplitMix
import Testing

/// Pulled changes are checked against the rules of a local write before they are applied:
/// what breaks them is parked whole (kept, shown with its reason), never applied half, and
/// never stops the rest of the page; nothing a server sends can trap the client.
@Suite struct PulledChangeTests {
    let world = FakeWorld()

    /// A whole set as another device creates it, with its workout and exercise.
    func goodSet(_ set: String, workout: String, exercise: String, reps: Int64, at clock: HLC) -> [RemoteChange] {
        [
            RemoteChange(entity: "exercises", entityID: exercise, fields: [FieldChange("name", .text("Bench \(exercise.prefix(4))"), clock),
                                                                         FieldChange("kind", .text("weighted"), clock)]),
            RemoteChange(entity: "workouts", entityID: workout, fields: [FieldChange("started_at", .int(world.now() - 60_000), clock),
                                                                       FieldChange("utc_offset", .int(3600), clock)]),
            RemoteChange(entity: "sets", entityID: set, fields: [
                FieldChange("workout_id", .text(workout), clock), FieldChange("exercise_id", .text(exercise), clock),
                FieldChange("kind", .text("working"), clock), FieldChange("weight", .text("100"), clock),
                FieldChange("weight_unit", .text("kg"), clock), FieldChange("bodyweight", .int(0), clock),
                FieldChange("reps", .int(reps), clock), FieldChange("performed_at", .int(world.now()), clock),
                FieldChange("utc_offset", .int(3600), clock),
            ]),
        ]
    }

    func id() -> String { UUID().uuidString.lowercased() }

    @Test func aHostilePageParksWhatBreaksTheRulesAndAppliesTheRest() throws {
        // Given a page holding a good set, a set with "reps": 1e30 and a set with no workout
        let db = try temporaryDatabase(world)
        let clock = HLC(millis: world.now(), counter: 0, node: "other-device")
        let good = id(), huge = id(), orphan = id(), workout = id(), exercise = id()
        var page = goodSet(good, workout: workout, exercise: exercise, reps: 5, at: clock)
        page.append(RemoteChange(entity: "sets", entityID: huge, fields: goodSet(huge, workout: workout, exercise: exercise, reps: 1, at: clock)[2]
            .fields.map { $0.name == "reps" ? FieldChange("reps", .real(1e30), clock) : $0 }))
        page.append(RemoteChange(entity: "sets", entityID: orphan, fields: goodSet(orphan, workout: workout, exercise: exercise, reps: 1, at: clock)[2]
            .fields.filter { $0.name != "workout_id" }))

        // When it is applied
        let stats = try db.applyPulled(page, epoch: "e", cursor: 7)

        // Then the good set and the cursor land, the two others are parked with their reasons
        #expect(stats.parked == 2)
        #expect(try count(db, "SELECT COUNT(*) FROM sets") == 1)
        #expect(try db.read { try String.fetchOne($0, sql: "SELECT id FROM sets") } == good)
        let state = try db.syncState()
        #expect(state.cursor == 7)
        #expect(state.parkedCount == 2)
        #expect(state.parked.first { $0.entityID == huge }?.reason.contains("reps 1e+30: a set's reps is a whole number from 0 to 9999") == true)
        #expect(state.parked.first { $0.entityID == orphan }?.reason.contains("workout_id is missing") == true)
        // And stats, records and export read the database without trapping
        #expect(try db.records().count == 1)
        var exported = 0
        try db.forEachExportRow(ExportFilter()) { _ in exported += 1 }
        #expect(exported == 1)
    }

    @Test func aLaterChangeThatMakesAParkedChangeWholeLetsItIn() throws {
        // Given a set parked for its reps
        let db = try temporaryDatabase(world)
        let first = HLC(millis: world.now(), counter: 0, node: "other-device")
        let set = id(), workout = id(), exercise = id()
        var page = goodSet(set, workout: workout, exercise: exercise, reps: 5, at: first)
        page[2].fields = page[2].fields.map { $0.name == "reps" ? FieldChange("reps", .int(100_000), first) : $0 }
        try db.applyPulled(page, epoch: "e", cursor: 1)
        #expect(try db.syncState().parkedCount == 1)

        // When another device fixes the reps
        let fix = HLC(millis: world.now() + 1, counter: 0, node: "other-device")
        try db.applyPulled([RemoteChange(entity: "sets", entityID: set, fields: [FieldChange("reps", .int(8), fix)])], epoch: "e", cursor: 2)

        // Then the whole set lands with the fixed reps and nothing stays parked
        #expect(try db.read { try Int.fetchOne($0, sql: "SELECT reps FROM sets WHERE id = ?", arguments: [set]) } == 8)
        #expect(try db.syncState().parkedCount == 0)
    }

    /// Values a hostile or broken server could send for any field.
    static let hostileValues: [FieldValue] = [
        .null, .int(0), .int(1), .int(-1), .int(5), .int(9999), .int(10_000), .int(.max), .int(.min), .int(1_763_700_000_000),
        .real(1e30), .real(-1e30), .real(.infinity), .real(-.infinity), .real(.nan), .real(5.0), .real(2.5), .real(9.3e18),
        .text(""), .text("abc"), .text("1e30"), .text("100"), .text("-20"), .text("8.5"), .text("99999999999"),
        .text("kg"), .text("lb"), .text("km"), .text("working"), .text("weighted"), .text("\u{1B}]52;c;aGk=\u{07}"),
        .text(String(repeating: "x", count: 20_000)), .text("00000000-0000-0000-0000-000000000000"),
    ]

    @Test func randomHostileChangesNeverTrapAndTheGoodOnesLand() throws {
        // Given a store, and pages mixing random hostile changes with good sets
        let db = try temporaryDatabase(world)
        var rng = SplitMix64(seed: 27)
        let ids = (0..<8).map { _ in id() }
        var goodSets: [String] = []
        var millis = world.now()
        for page in 0..<60 {
            var changes: [RemoteChange] = []
            for _ in 0..<20 {
                millis += 1
                let clock = HLC(millis: millis, counter: 0, node: "hostile")
                if Int.random(in: 0..<5, using: &rng) == 0 {
                    let set = id()
                    goodSets.append(set)
                    changes += goodSet(set, workout: id(), exercise: id(), reps: Int64.random(in: 0...9999, using: &rng), at: clock)
                    continue
                }
                let entity = EntityKind.allCases.randomElement(using: &rng)!
                var names = Array(RowWriter.columns(entity)) + ["future_field"]
                names.shuffle(using: &rng)
                let fields = names.prefix(Int.random(in: 1...names.count, using: &rng)).map { name in
                    let value = Int.random(in: 0..<3, using: &rng) == 0 ? FieldValue.text(ids.randomElement(using: &rng)!)
                        : Self.hostileValues.randomElement(using: &rng)!
                    return FieldChange(name, value, clock)
                }
                changes.append(RemoteChange(entity: entity.rawValue, entityID: ids.randomElement(using: &rng)!, fields: fields))
            }
            // When each page is applied (a trap would end the test process)
            try db.applyPulled(changes, epoch: "e", cursor: Int64(page + 1))
        }

        // Then every good set landed as sent
        #expect(try count(db, "SELECT COUNT(*) FROM sets WHERE id IN (\(goodSets.map { "'\($0)'" }.joined(separator: ",")))") == goodSets.count)
        // And nothing stored breaks a column's type or range
        #expect(try count(db, "SELECT COUNT(*) FROM sets WHERE typeof(reps) NOT IN ('integer', 'null') OR reps > 9999 OR reps < 0") == 0)
        #expect(try count(db, "SELECT COUNT(*) FROM sets WHERE workout_id IS NULL OR exercise_id IS NULL") == 0)
        #expect(try db.syncState().parkedCount > 0)
        // And everything that reads sets reads them without trapping
        var exported = 0
        try db.forEachExportRow(ExportFilter()) { _ in exported += 1 }
        #expect(exported >= goodSets.count)
        _ = try db.records()
        _ = try db.history(limit: 1000)
        _ = try db.exerciseSummaries()
        for grouping in StatsGrouping.allCases { _ = try db.weeklyStats(weeks: 520, today: world.now() / 86_400_000, by: grouping) }
        for exercise in try db.read({ try String.fetchAll($0, sql: "SELECT id FROM exercises") }).compactMap(UUID.init(uuidString:)) {
            for metric in ChartMetric.allCases { _ = try db.progression(exerciseID: exercise, metric: metric) }
        }
        #expect(try db.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
    }

    @Test func storedNumbersTooBigForADecimalReadAsAbsent() throws {
        // Given a set an older version stored with reps of 1e30 (a REAL: no integer holds it)
        let db = try temporaryDatabase(world)
        try log(db, "bench 100x5")
        try db.queue.write { try $0.execute(sql: "UPDATE sets SET reps = 1e30") }

        // When export and records read it, then it is there without the values that do not fit
        var rows: [ExportRow] = []
        try db.forEachExportRow(ExportFilter()) { rows.append($0) }
        #expect(rows.count == 1)
        #expect(rows.first?.set.reps == nil)
        _ = try db.records()
    }

    @Test func storedLoadsFarPastTheLimitsExportAndCountWithoutTrapping() throws {
        // Given sets an older version stored from a server with loads and distances no limit allows
        let db = try temporaryDatabase(world)
        try log(db, "bench 100x5")
        try log(db, "row 2000m 7:41")
        try db.queue.write { try $0.execute(sql: "UPDATE sets SET weight = '999999999999', weight_unit = 'lb', reps = 9999 WHERE distance IS NULL") }
        try db.queue.write { try $0.execute(sql: "UPDATE sets SET distance = '999999999999', distance_unit = 'mi' WHERE distance IS NOT NULL") }

        // When every export layout converts them and stats total them, then nothing traps
        var rows: [ExportRow] = []
        try db.forEachExportRow(ExportFilter()) { rows.append($0) }
        #expect(rows.count == 2)
        for format in ExportFormat.allCases {
            for unit in WeightUnit.allCases {
                var writer = format.makeWriter()
                for row in rows { format.append(row, to: &writer, unit: unit) }
                #expect(!writer.buffer.isEmpty)
            }
        }
        var tally = VolumeTally()
        tally.add(rows[0].set.values)
        #expect(tally.poundThousandths == 0)
        _ = try db.weeklyStats(weeks: 4, today: world.now() / 86_400_000, by: .exercise)
    }
    /// One set as another device logs it into an existing workout and exercise.
    func pulledSet(_ set: String, workout: String, exercise: String, weight: String, reps: Int64, performedAt: Int64,
                   clock: HLC) -> RemoteChange {
        RemoteChange(entity: "sets", entityID: set, fields: [
            FieldChange("workout_id", .text(workout), clock), FieldChange("exercise_id", .text(exercise), clock),
            FieldChange("kind", .text("working"), clock), FieldChange("weight", .text(weight), clock),
            FieldChange("weight_unit", .text("kg"), clock), FieldChange("bodyweight", .int(0), clock),
            FieldChange("reps", .int(reps), clock), FieldChange("performed_at", .int(performedAt), clock),
            FieldChange("utc_offset", .int(3600), clock),
        ])
    }

    func recordRows(_ db: GymLogDatabase) throws -> [String] {
        try db.read { try Row.fetchAll($0, sql: "SELECT metric, reps, value, set_id, workout_id, achieved_at FROM records ORDER BY metric, reps") }
            .map { $0.description }
    }

    @Test func pulledSetsMoveTheRecordsExactlyAsARebuildWouldWhetherNewestOrLate() throws {
        // Given a device that pulls, page by page, what another device logged: two workouts
        // of one exercise, the later one first
        let db = try temporaryDatabase(world)
        let exercise = id(), early = id(), late = id()
        let t0 = world.now() - 86_400_000
        var counter = 0
        func clock() -> HLC { counter += 1; return HLC(millis: world.now(), counter: counter, node: "other-device") }
        let c = clock()
        try db.applyPulled([
            RemoteChange(entity: "exercises", entityID: exercise, fields: [FieldChange("name", .text("Bench"), c), FieldChange("kind", .text("weighted"), c)]),
            RemoteChange(entity: "workouts", entityID: early, fields: [FieldChange("started_at", .int(t0), c), FieldChange("utc_offset", .int(3600), c)]),
            RemoteChange(entity: "workouts", entityID: late, fields: [FieldChange("started_at", .int(t0 + 3_600_000), c), FieldChange("utc_offset", .int(3600), c)]),
        ], epoch: "e", cursor: 1)
        let first = id(), tie = id(), lateSynced = id(), heavier = id()
        var holders: [[String]] = []
        // When the sets arrive: the first one, a tie after it (newest: taken in as a local log
        // would), a tie logged BEFORE both in the earlier workout that syncs late (older than the
        // newest: the tie must pass to it, as a rebuild gives records to the set done first),
        // then a heavier set (newest again)
        for (n, (set, workout, weight, reps, at)) in [
            (first, late, "100", Int64(5), t0 + 3_600_000 + 1000), (tie, late, "100", 5, t0 + 3_600_000 + 2000),
            (lateSynced, early, "100", 5, t0 + 1000), (heavier, late, "110", 3, t0 + 3_600_000 + 3000),
        ].enumerated() {
            try db.applyPulled([pulledSet(set, workout: workout, exercise: exercise, weight: weight, reps: reps, performedAt: at, clock: clock())],
                               epoch: "e", cursor: Int64(2 + n))
            // Then after every page the records are what a rebuild from every set makes of them
            let applied = try recordRows(db)
            try db.commit { w in try RecordBook(w).rebuildRecords(exerciseID: parseUUID(exercise)!) }
            #expect(try recordRows(db) == applied, "after the page with set \(n + 1)")
            holders.append(try db.read { try String.fetchAll($0, sql: "SELECT set_id FROM records WHERE metric = 'rep_max' AND reps = 5") })
        }
        // And the 100 kg x 5 record went from the first set to the late-synced earlier one
        #expect(holders.map { $0.first } == [first, first, lateSynced, lateSynced])
    }
}
