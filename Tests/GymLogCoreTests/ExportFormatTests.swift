import Foundation
import Testing
@testable import GymLogCore

/// A fixed set of rows touching every column: all kinds, bodyweight (added, assisted and
/// plain), kg and lb, timed and distance sets, notes with commas, quotes and newlines, nil
/// fields, an RIR, named and unnamed workouts, a finished and an unfinished one, odd offsets, two
/// supersets in one workout with a set on its own between them; and bodyweight entries.
enum ExportFixtures {
    static func id(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "A1B2C3D4-E5F6-4A7B-8C9D-%012X", n))!
    }

    static func at(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0, offset: Int) -> Int64 {
        epochMillis(year: y, month: mo, day: d, utcOffsetSeconds: offset) + Int64((h * 3600 + mi * 60 + s) * 1000)
    }

    static let cet = 3600, newYork = -5 * 3600, nepal = 5 * 3600 + 45 * 60
    static let push = id(0x100), legs = id(0x200), pull = id(0x300)
    static let bench = id(0x10), pullUp = id(0x11), squat = id(0x12), plank = id(0x13), row = id(0x14)
    static let run = id(0x15), dip = id(0x16), deadlift = id(0x17)
    static let upper = id(0x400), supersetA = id(0x4A0), supersetB = id(0x4B0)

    /// One row: set `n` of `exercise` (named `name`) in `workout`.
    static func row(_ n: Int, workout: Workout, _ exercise: UUID, _ name: String, order: Int, working: Int?,
                    _ values: SetValues, performedAt: Int64, offset: Int, superset: UUID? = nil,
                    supersetNumber: Int? = nil) -> ExportRow {
        var row = ExportRow(set: LoggedSet(id: id(n), workoutID: workout.id, exerciseID: exercise, values: values,
                                           performedAt: performedAt, utcOffsetSeconds: offset, supersetID: superset),
                            workout: workout, exercise: Exercise(id: exercise, name: name, kind: .weighted),
                            setOrder: order, workingSetNumber: working, exerciseAliases: aliases[exercise] ?? [],
                            supersetNumber: supersetNumber)
        row.exerciseLink = links[exercise] ?? ExerciseLinkFields()
        return row
    }

    /// Aliases, one holding the separator and a quote, so the field's quoting is covered.
    static let aliases: [UUID: [String]] = [bench: ["bp", "flat \"bench\"; barbell"], pullUp: ["chin"]]

    /// Catalog links set by hand: an entry, one unlinked, and a lifter's own muscles.
    static let links: [UUID: ExerciseLinkFields] = [
        bench: ExerciseLinkFields(catalogID: "Barbell_Bench_Press_-_Medium_Grip"),
        dip: ExerciseLinkFields(catalogID: ""),
        pullUp: ExerciseLinkFields(primaryMuscles: ["lats"], secondaryMuscles: ["biceps", "middle back"], equipment: "body only"),
    ]

    /// The rows, each workout's first marked as the store's numbering marks it.
    static var rows: [ExportRow] {
        let rows = unmarkedRows
        return rows.indices.map { i in
            var row = rows[i]
            row.firstOfWorkout = i == 0 || rows[i - 1].workout.id != row.workout.id
            return row
        }
    }

    /// The rows as built, before each workout's first is marked.
    static var unmarkedRows: [ExportRow] {
        let pushStart = at(2026, 11, 21, 10, 15, offset: cet)
        let pushEnd = pushStart + (78 * 60 + 30) * 1000  // 1h 18m 30s
        func pushRow(_ n: Int, _ exercise: UUID, _ name: String, order: Int, working: Int?, kind: SetKind = .working,
                     weight: Weight? = nil, bodyweight: Bool = false, reps: Int? = nil, rpe: Fixed? = nil,
                     note: String? = nil, minute: Int) -> ExportRow {
            row(n, workout: Workout(id: push, name: "Push Day", startedAt: pushStart, endedAt: pushEnd, utcOffsetSeconds: cet,
                                    note: "Felt strong, slept 8h"),
                exercise, name, order: order, working: working,
                SetValues(kind: kind, weight: weight, bodyweight: bodyweight, reps: reps, rpe: rpe, note: note),
                performedAt: pushStart + Int64(minute * 60_000) + (minute == 10 ? 250 : 0), offset: cet)
        }
        let legsStart = at(2026, 11, 22, 18, 5, 9, offset: newYork)
        func legsRow(_ n: Int, _ exercise: UUID, _ name: String, order: Int, working: Int?, kind: SetKind = .working,
                     weight: Weight? = nil, bodyweight: Bool = false, reps: Int? = nil, rpe: Fixed? = nil,
                     duration: Int? = nil, distance: Distance? = nil, note: String? = nil, minute: Int) -> ExportRow {
            row(n, workout: Workout(id: legs, startedAt: legsStart, utcOffsetSeconds: newYork), exercise, name,
                order: order, working: working,
                SetValues(kind: kind, weight: weight, bodyweight: bodyweight, reps: reps, rpe: rpe, durationSeconds: duration,
                          distance: distance, note: note),
                performedAt: legsStart + Int64(minute * 60_000), offset: newYork)
        }
        let pullStart = at(2026, 11, 23, 23, 40, offset: nepal)
        let upperStart = at(2026, 11, 25, 7, 30, offset: 0)
        // Two supersets: bench and pull-ups for two rounds, then squats and planks; a deadlift between.
        func upperRow(_ n: Int, _ exercise: UUID, _ name: String, order: Int, _ values: SetValues, minute: Int,
                      superset: UUID?, number: Int?) -> ExportRow {
            row(n, workout: Workout(id: upper, name: "Upper", startedAt: upperStart, endedAt: upperStart + 40 * 60_000,
                                    utcOffsetSeconds: 0),
                exercise, name, order: order, working: order, values, performedAt: upperStart + Int64(minute * 60_000), offset: 0,
                superset: superset, supersetNumber: number)
        }
        return [
            pushRow(1, bench, "Bench Press", order: 1, working: nil, kind: .warmup,
                    weight: Weight(Fixed(60), .kg), reps: 8, minute: 2),
            pushRow(2, bench, "Bench Press", order: 2, working: 1, weight: Weight(Fixed(100), .kg), reps: 5,
                    rpe: Fixed(8), minute: 6),
            pushRow(3, bench, "Bench Press", order: 3, working: 2, weight: Weight(Fixed(thousandths: 102_500), .kg),
                    reps: 5, rpe: Fixed(thousandths: 8500), note: "paused, \"touch and go\" next time", minute: 10),
            pushRow(4, bench, "Bench Press", order: 4, working: nil, kind: .drop,
                    weight: Weight(Fixed(thousandths: 70_250), .kg), reps: 10, minute: 12),
            pushRow(5, pullUp, "Pull-up", order: 1, working: 1, weight: Weight(Fixed(20), .kg), bodyweight: true,
                    reps: 6, minute: 20),
            pushRow(6, pullUp, "Pull-up", order: 2, working: nil, kind: .failure, bodyweight: true, reps: 8,
                    note: "grip gave out\nchalk next time", minute: 24),
            legsRow(7, squat, "Squat", order: 1, working: 1, weight: Weight(Fixed(225), .lb), reps: 5,
                    rpe: Fixed(thousandths: 7500), minute: 5),
            legsRow(8, plank, "Plank", order: 1, working: 1, bodyweight: true, duration: 60, minute: 15),
            legsRow(9, row, "Rowing (Erg)", order: 1, working: 1, duration: 461,
                    distance: Distance(Fixed(2000), .m), minute: 25),
            legsRow(10, run, "Run", order: 1, working: 1, rpe: Fixed(7), duration: 1500,
                    distance: Distance(Fixed(thousandths: 3100), .mi), note: " easy pace ", minute: 55),
            legsRow(11, dip, "Dip", order: 1, working: nil, kind: .warmup, weight: Weight(Fixed(-45), .lb),
                    bodyweight: true, reps: 10, minute: 60),
            legsRow(12, dip, "Dip", order: 2, working: 1, weight: Weight(Fixed(thousandths: -22_500), .lb),
                    bodyweight: true, reps: 8, minute: 63),
            row(13, workout: Workout(id: pull, name: "Pull, heavy", startedAt: pullStart,
                                     endedAt: pullStart + 45 * 60_000 + 59_999, utcOffsetSeconds: nepal),
                deadlift, "Deadlift", order: 1, working: 1,
                SetValues(weight: Weight(Fixed(180), .kg), reps: 3, rpe: Fixed(9)),
                // After midnight local time, though the workout started the day before.
                performedAt: pullStart + 25 * 60_000, offset: nepal),
            upperRow(14, bench, "Bench Press", order: 1, SetValues(weight: Weight(Fixed(80), .kg), reps: 8), minute: 5,
                     superset: supersetA, number: 0),
            upperRow(15, pullUp, "Pull-up", order: 1, SetValues(bodyweight: true, reps: 8), minute: 6, superset: supersetA, number: 0),
            upperRow(16, bench, "Bench Press", order: 2, SetValues(weight: Weight(Fixed(80), .kg), reps: 7), minute: 8,
                     superset: supersetA, number: 0),
            upperRow(17, pullUp, "Pull-up", order: 2, SetValues(bodyweight: true, reps: 7), minute: 9, superset: supersetA, number: 0),
            upperRow(18, deadlift, "Deadlift", order: 1, SetValues(weight: Weight(Fixed(140), .kg), reps: 5, rir: Fixed(2)), minute: 15,
                     superset: nil, number: nil),
            upperRow(19, squat, "Squat", order: 1, SetValues(weight: Weight(Fixed(100), .kg), reps: 5), minute: 20,
                     superset: supersetB, number: 1),
            upperRow(20, plank, "Plank", order: 1, SetValues(bodyweight: true, durationSeconds: 45), minute: 21,
                     superset: supersetB, number: 1),
        ]
    }

    /// Bodyweight entries in kg and lb, one at an odd offset and one to the millisecond.
    static let bodyweights = [
        BodyweightEntry(id: id(0x900), weight: Weight(Fixed(thousandths: 82_500), .kg),
                        measuredAt: at(2026, 11, 21, 7, 5, offset: cet), utcOffsetSeconds: cet),
        BodyweightEntry(id: id(0x901), weight: Weight(Fixed(181), .lb),
                        measuredAt: at(2026, 11, 24, 6, 30, offset: nepal) + 125, utcOffsetSeconds: nepal),
    ]

    /// The fixture rows in `format`, for a user whose configured unit is `unit`.
    static func export(_ format: ExportFormat, unit: WeightUnit = .kg) -> [UInt8] {
        var writer = format.makeWriter()
        format.appendHeader(to: &writer, unit: unit)
        for row in rows { format.append(row, to: &writer, unit: unit) }
        for entry in bodyweights { format.append(entry, to: &writer) }
        return writer.buffer
    }
}

@Suite("Export formats")
struct ExportFormatTests {
    static let fixtures = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "fixtures/export")

    /// Compares `bytes` with the golden file; `GYMLOG_RECORD_GOLDENS=1` rewrites it and fails.
    func assertGolden(_ bytes: [UInt8], _ name: String) throws {
        let url = Self.fixtures.appending(path: name)
        if ProcessInfo.processInfo.environment["GYMLOG_RECORD_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: Self.fixtures, withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
            Issue.record("Recorded \(url.path); unset GYMLOG_RECORD_GOLDENS and run again to compare.")
            return
        }
        let golden = try #require(FileManager.default.contents(atPath: url.path),
                                  "missing golden \(url.path); record it with GYMLOG_RECORD_GOLDENS=1")
        if Array(golden) != bytes {
            let ours = ImportCSVCursor.rows(String(decoding: bytes, as: UTF8.self))
            let theirs = ImportCSVCursor.rows(String(decoding: golden, as: UTF8.self))
            let firstDiff = (0..<min(ours.count, theirs.count)).first { ours[$0] != theirs[$0] }
                ?? min(ours.count, theirs.count)
            Issue.record("""
                \(name) differs from the golden file at row \(firstDiff) \
                (rows: \(ours.count) written, \(theirs.count) golden; byte-level differences count too).
                written: \(firstDiff < ours.count ? ours[firstDiff].debugDescription : "-")
                golden:  \(firstDiff < theirs.count ? theirs[firstDiff].debugDescription : "-")
                """)
        }
    }

    @Test("native export matches its golden file byte for byte")
    func nativeGolden() throws {
        try assertGolden(ExportFixtures.export(.native), "native-golden.csv")
    }

    @Test("strong export matches its golden file byte for byte")
    func strongGolden() throws {
        try assertGolden(ExportFixtures.export(.strong), "strong-golden.csv")
    }

    @Test("hevy export matches its golden files byte for byte, one per configured unit", arguments: WeightUnit.allCases)
    func hevyGolden(unit: WeightUnit) throws {
        try assertGolden(ExportFixtures.export(.hevy, unit: unit), "hevy-golden-\(unit.rawValue).csv")
    }

    @Test("headers are exactly as documented")
    func headers() {
        #expect(ExportFormat.native.header(unit: .kg).joined(separator: ",") == "set_id,workout_id,workout_name,workout_started_at,workout_ended_at,workout_note,exercise_id,exercise,set_order,kind,weight,weight_unit,bodyweight,reps,rpe,rir,distance,distance_unit,duration_seconds,note,performed_at,exercise_aliases,superset_id,exercise_link")
        #expect(ExportFormat.strong.header(unit: .kg).joined(separator: ";") == "Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes;Workout Duration")
        #expect(ExportFormat.hevy.header(unit: .kg).joined(separator: ",") == "title,start_time,end_time,description,exercise_title,superset_id,exercise_notes,set_index,set_type,weight_kg,reps,distance_km,duration_seconds,rpe")
        #expect(ExportFormat.hevy.header(unit: .lb).joined(separator: ",") == "title,start_time,end_time,description,exercise_title,superset_id,exercise_notes,set_index,set_type,weight_lbs,reps,distance_miles,duration_seconds,rpe")
        #expect(ExportFormat(rawValue: "strong") == .strong && ExportFormat(rawValue: "hevy") == .hevy)
        #expect(ExportFormat.allCases.count == 3)
    }

    @Test("every row reads back with one value per header column", arguments: ExportFormat.allCases, WeightUnit.allCases)
    func rowShape(format: ExportFormat, unit: WeightUnit) {
        let rows = ImportCSVCursor.rows(ExportFixtures.export(format, unit: unit), delimiter: Character(UnicodeScalar(format.delimiter)))
        // Only the native layout has a place for bodyweight entries.
        #expect(rows.count == ExportFixtures.rows.count + 1 + (format == .native ? ExportFixtures.bodyweights.count : 0))
        #expect(rows.first == format.header(unit: unit))
        for row in rows { #expect(row.count == format.header(unit: unit).count) }
    }

    @Test("native values: exact weights, ISO times with offsets, nil as empty")
    func nativeValues() throws {
        // Given
        let rows = ImportCSVCursor.rows(String(decoding: ExportFixtures.export(.native), as: UTF8.self))
        let header = rows[0]
        func value(_ row: Int, _ column: String) -> String { rows[row][header.firstIndex(of: column)!] }
        // Then
        #expect(value(3, "weight") == "102.5" && value(3, "weight_unit") == "kg" && value(3, "rpe") == "8.5")
        #expect(value(3, "note") == "paused, \"touch and go\" next time")
        #expect(value(4, "weight") == "70.25")
        #expect(value(1, "set_id") == "a1b2c3d4-e5f6-4a7b-8c9d-000000000001")
        #expect(value(1, "workout_started_at") == "2026-11-21T10:15:00.000+01:00")
        #expect(value(1, "workout_ended_at") == "2026-11-21T11:33:30.000+01:00")
        #expect(value(3, "performed_at") == "2026-11-21T10:25:00.250+01:00")
        #expect(value(1, "exercise_aliases") == "bp;\"flat \"\"bench\"\"; barbell\"" && value(5, "exercise_aliases") == "chin")
        #expect(ExportFormat.decodeAliases(value(1, "exercise_aliases")) == ["bp", "flat \"bench\"; barbell"])
        #expect(value(7, "exercise_aliases") == "")
        #expect(value(1, "kind") == "warmup" && value(1, "set_order") == "1")
        #expect(value(5, "bodyweight") == "true" && value(1, "bodyweight") == "false")
        #expect(value(6, "weight") == "" && value(6, "weight_unit") == "" && value(6, "note") == "grip gave out\nchalk next time")
        #expect(value(7, "workout_name") == "" && value(7, "workout_ended_at") == "" && value(7, "workout_note") == "")
        #expect(value(7, "performed_at") == "2026-11-22T18:10:09.000-05:00")
        #expect(value(10, "distance") == "3.1" && value(10, "distance_unit") == "mi" && value(10, "duration_seconds") == "1500")
        #expect(value(10, "note") == " easy pace ")
        #expect(value(12, "weight") == "-22.5" && value(12, "weight_unit") == "lb")
        #expect(value(13, "performed_at") == "2026-11-24T00:05:00.000+05:45")
        // And supersets carry their id; a set done on its own has none
        #expect(value(14, "superset_id") == "a1b2c3d4-e5f6-4a7b-8c9d-0000000004a0" && value(17, "superset_id") == value(14, "superset_id"))
        #expect(value(18, "superset_id") == "" && value(1, "superset_id") == "")
        #expect(value(18, "rir") == "2" && value(18, "rpe") == "" && value(2, "rir") == "")
        #expect(value(19, "superset_id") == "a1b2c3d4-e5f6-4a7b-8c9d-0000000004b0")
        // And bodyweight entries follow the sets: kind, id, weight as typed, time with its offset, nothing else
        #expect(rows[21] == ["a1b2c3d4-e5f6-4a7b-8c9d-000000000900", "", "", "", "", "", "", "", "", "bodyweight_entry", "82.5", "kg",
                             "", "", "", "", "", "", "", "", "2026-11-21T07:05:00.000+01:00", "", "", ""])
        // And catalog links set by hand are on each row of their exercise: an entry, unlinked, muscles of one's own
        #expect(value(1, "exercise_link") == "catalog=Barbell_Bench_Press_-_Medium_Grip")
        #expect(rows.filter { $0[7] == "Dip" }.allSatisfy { $0[23] == "catalog=" })
        #expect(rows.filter { $0[7] == "Pull-up" }.allSatisfy { $0[23] == "primary=lats;secondary=biceps,middle back;equipment=body only" })
        #expect(value(7, "exercise") == "Squat" && value(7, "exercise_link") == "")
        #expect(value(22, "weight") == "181" && value(22, "weight_unit") == "lb" && value(22, "performed_at") == "2026-11-24T06:30:00.125+05:45")
    }

    @Test("strong values: local start, Strong's duration and set order, empty absent numbers, a unit per row")
    func strongValues() throws {
        let rows = ImportCSVCursor.rows(ExportFixtures.export(.strong), delimiter: ";")
        try #require(rows.count == ExportFixtures.rows.count + 1 && rows.allSatisfy { $0.count == 14 })
        // Then each row is in Strong's column order, values as typed with Strong's units
        #expect(rows[1] == ["2026-11-21 10:15:00", "Push Day", "Bench Press", "W", "60", "kg", "8", "", "", "", "0", "",
                            "Felt strong, slept 8h", "1h 18m"])
        #expect(rows[2] == ["2026-11-21 10:15:00", "Push Day", "Bench Press", "1", "100", "kg", "5", "8", "", "", "0", "", "",
                            "1h 18m"])
        #expect(rows[3][3] == "2" && rows[3][4] == "102.5" && rows[3][5] == "kg" && rows[3][7] == "8.5")
        #expect(rows[3][11] == "paused, \"touch and go\" next time")
        #expect(rows[4][3] == "D" && rows[6][3] == "F")
        // And a bodyweight set's added load is its Weight; `bw x8` has no Weight and no unit
        #expect(rows[5][2] == "Pull-up" && rows[5][4] == "20" && rows[5][5] == "kg" && rows[5][6] == "6")
        #expect(rows[6][4] == "" && rows[6][5] == "" && rows[6][6] == "8")
        // And an unfinished workout lasted `0s`; an unnamed one is `Workout`
        #expect(rows[7] == ["2026-11-22 18:05:09", "Workout", "Squat", "1", "225", "lbs", "5", "7.5", "", "", "0", "", "", "0s"])
        #expect(rows[8][6] == "" && rows[8][10] == "60")
        #expect(rows[9][8] == "2000" && rows[9][9] == "m" && rows[9][10] == "461" && rows[9][6] == "")
        #expect(rows[10][8] == "3.1" && rows[10][9] == "mi." && rows[10][11] == " easy pace ")
        #expect(rows[12][4] == "-22.5" && rows[12][5] == "lbs")
        #expect(rows[13][0] == "2026-11-23 23:40:00" && rows[13][1] == "Pull, heavy" && rows[13][13] == "45m")
    }

    @Test("strong bytes: `;`, LF, no BOM, text quoted, notes quoted on an exercise's and a workout's first row only")
    func strongBytes() throws {
        let bytes = ExportFixtures.export(.strong), text = String(decoding: bytes, as: UTF8.self)
        // (Split as bytes: as Characters, a CRLF is one and would not split on LF.)
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        try #require(lines.count == ExportFixtures.rows.count + 3, "a header, the rows, one note's line break, the last LF")
        // Then the header is Strong's, unquoted; lines end in a bare LF, the last one too
        #expect(lines[0] == "Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes;Workout Duration")
        #expect(!text.contains("\r") && text.hasSuffix("\n") && lines.last == "" && text.utf8.first == UInt8(ascii: "D"))
        // And the workout's note is on its first row, Notes `""` on each exercise's first set, bare elsewhere
        #expect(lines[1] == "2026-11-21 10:15:00;\"Push Day\";\"Bench Press\";W;60;kg;8;;;;0;\"\";\"Felt strong, slept 8h\";1h 18m")
        #expect(lines[2] == "2026-11-21 10:15:00;\"Push Day\";\"Bench Press\";1;100;kg;5;8;;;0;;;1h 18m")
        #expect(lines[3] == "2026-11-21 10:15:00;\"Push Day\";\"Bench Press\";2;102.5;kg;5;8.5;;;0;\"paused, \"\"touch and go\"\" next time\";;1h 18m")
        #expect(lines[5] == "2026-11-21 10:15:00;\"Push Day\";\"Pull-up\";1;20;kg;6;;;;0;\"\";;1h 18m")
        #expect(lines[8] == "2026-11-22 18:05:09;\"Workout\";\"Squat\";1;225;lbs;5;7.5;;;0;\"\";\"\";0s")
        #expect(lines[11] == "2026-11-22 18:05:09;\"Workout\";\"Run\";1;;;;7;3.1;mi.;1500;\" easy pace \";;0s")
        #expect(lines[13] == "2026-11-22 18:05:09;\"Workout\";\"Dip\";1;-22.5;lbs;8;;;;0;;;0s")
    }

    @Test("strong writes what the set holds: 0 reps as 0, a 0 load as 0 with its unit")
    func strongZeros() throws {
        // Given a missed attempt (a load, 0 reps, failure) and a set at 0 lb
        let workout = Workout(id: ExportFixtures.push, startedAt: 0, endedAt: 3_600_000, utcOffsetSeconds: 0)
        var writer = ExportFormat.strong.makeWriter()
        for (n, values) in [SetValues(kind: .failure, weight: Weight(Fixed(100), .kg), reps: 0),
                            SetValues(weight: Weight(Fixed(0), .lb), reps: 5)].enumerated() {
            let set = LoggedSet(id: ExportFixtures.id(n), workoutID: workout.id, exerciseID: ExportFixtures.bench, values: values,
                                performedAt: Int64(n), utcOffsetSeconds: 0)
            ExportFormat.strong.append(ExportRow(set: set, workout: workout, exercise: Exercise(id: ExportFixtures.bench, name: "Bench",
                                                 kind: .weighted), setOrder: n + 1, workingSetNumber: n + 1), to: &writer, unit: .kg)
        }
        // Then each is written as held, without a case of its own
        let rows = ImportCSVCursor.rows(writer.buffer, delimiter: ";")
        try #require(rows.count == 2 && rows.allSatisfy { $0.count == 14 })
        #expect(Array(rows[0][3...6]) == ["F", "100", "kg", "0"] && Array(rows[1][3...6]) == ["2", "0", "lbs", "5"])
        #expect(rows[0][13] == "1h")
    }

    @Test("Strong numbers working and failure sets together, per exercise and workout; warm-ups and drops take no number")
    func strongSetOrder() throws {
        // Given an exercise done as W W 1 F 3 D 4, another interleaved with it, then a second workout
        let kinds: [SetKind] = [.warmup, .warmup, .working, .failure, .working, .drop, .working]
        let first = Workout(id: ExportFixtures.push, startedAt: 0, utcOffsetSeconds: 0)
        let second = Workout(id: ExportFixtures.legs, startedAt: 86_400_000, utcOffsetSeconds: 0)
        var sets: [(LoggedSet, Workout)] = []
        for (i, kind) in kinds.enumerated() {
            sets.append((LoggedSet(id: ExportFixtures.id(i), workoutID: first.id, exerciseID: ExportFixtures.bench,
                                   values: SetValues(kind: kind, weight: Weight(Fixed(100), .kg), reps: 5),
                                   performedAt: Int64(i) * 60_000, utcOffsetSeconds: 0), first))
            if i == 2 {
                sets.append((LoggedSet(id: ExportFixtures.id(50), workoutID: first.id, exerciseID: ExportFixtures.squat,
                                       values: SetValues(kind: .failure, weight: Weight(Fixed(140), .kg), reps: 3),
                                       performedAt: Int64(i) * 60_000 + 1, utcOffsetSeconds: 0), first))
            }
        }
        sets.append((LoggedSet(id: ExportFixtures.id(60), workoutID: second.id, exerciseID: ExportFixtures.bench,
                               values: SetValues(weight: Weight(Fixed(100), .kg), reps: 5),
                               performedAt: second.startedAt, utcOffsetSeconds: 0), second))
        // When they are numbered and written in Strong's layout
        var numbering = ExportNumbering()
        var writer = ExportFormat.strong.makeWriter()
        var firsts: [Bool] = []
        for (set, workout) in sets {
            let row = numbering.row(set, workout: workout, exercise: Exercise(id: set.exerciseID, name: "E", kind: .weighted))
            firsts.append(row.firstOfWorkout)
            ExportFormat.strong.append(row, to: &writer, unit: .kg)
        }
        // Then Set Order is Strong's: a failure set takes its number
        let rows = ImportCSVCursor.rows(writer.buffer, delimiter: ";")
        try #require(rows.allSatisfy { $0.count == 14 })
        let orders = rows.map { $0[3] }
        #expect(orders == ["W", "W", "1", "F", "F", "3", "D", "4", "1"])
        #expect(firsts == [true, false, false, false, false, false, false, false, true])
    }

    @Test("hevy values: Hevy's times, 0-based set_index, set types, loads and distances converted to the configured unit")
    func hevyValues() {
        // Given the fixture exported by a user whose unit is lb
        let rows = ImportCSVCursor.rows(String(decoding: ExportFixtures.export(.hevy, unit: .lb), as: UTF8.self))
        let header = rows[0]
        func value(_ row: Int, _ column: String) -> String { rows[row][header.firstIndex(of: column)!] }
        // Then times are local and to the minute, an unfinished workout has no end
        #expect(value(1, "start_time") == "21 Nov 2026, 10:15" && value(1, "end_time") == "21 Nov 2026, 11:33")
        #expect(value(7, "start_time") == "22 Nov 2026, 18:05" && value(7, "end_time") == "")
        // And supersets are numbered from 0 within their workout, sets on their own left empty;
        // bodyweight entries are left out (Hevy has no bodyweight log)
        #expect((1...20).map { value($0, "superset_id") } == Array(repeating: "", count: 13) + ["0", "0", "0", "0", "", "1", "1"])
        #expect(rows.count == 21)
        // And set_index counts every set of the exercise from 0, with Hevy's set types
        #expect((1...4).map { value($0, "set_index") } == ["0", "1", "2", "3"])
        #expect((1...6).map { value($0, "set_type") } == ["warmup", "normal", "normal", "dropset", "normal", "failure"])
        // And 100kg is 220.462lb, 225lb stays 225, assistance stays negative; 3.1mi stays, 2000m is 1.243mi
        #expect(value(2, "weight_lbs") == "220.462" && value(7, "weight_lbs") == "225" && value(11, "weight_lbs") == "-45")
        #expect(value(10, "distance_miles") == "3.1" && value(9, "distance_miles") == "1.243")
        // And absent numbers are empty, the set's note is its row's exercise note, RPE as typed
        #expect(value(6, "weight_lbs") == "" && value(8, "reps") == "" && value(8, "duration_seconds") == "60")
        #expect(value(3, "exercise_notes") == "paused, \"touch and go\" next time" && value(3, "rpe") == "8.5")
        #expect(value(1, "description") == "Felt strong, slept 8h" && value(13, "title") == "Pull, heavy")
    }

    @Test("loads and distances convert exactly, to the nearest thousandth, halves away from zero", arguments: [
        (Weight(Fixed(225), .lb), WeightUnit.kg, "102.058kg"), (Weight(Fixed(100), .kg), .lb, "220.462lb"),
        (Weight(Fixed(thousandths: -22_500), .lb), .kg, "-10.206kg"), (Weight(Fixed(1), .lb), .kg, "0.454kg"),
        (Weight(Fixed(thousandths: 500), .lb), .kg, "0.227kg"), (Weight(Fixed(20), .kg), .kg, "20kg"),
    ])
    func weightConversion(weight: Weight, unit: WeightUnit, expected: String) {
        #expect(weight.converted(to: unit).description == expected)
    }

    @Test func distanceConversion() {
        #expect(Distance(Fixed(2000), .m).converted(to: .km).description == "2km")
        #expect(Distance(Fixed(thousandths: 3100), .mi).converted(to: .km).description == "4.989km")
        #expect(Distance(Fixed(5), .km).converted(to: .mi).description == "3.107mi")
        #expect(Distance(Fixed(100), .yd).converted(to: .m).description == "91.44m")
        #expect(Distance(Fixed(1), .mi).converted(to: .yd).description == "1760yd")
        // 0.5 thousandths rounds away from zero: 1m is 0.001km, 0.4m is 0km
        #expect(roundedQuotient(5, 10) == 1 && roundedQuotient(-5, 10) == -1 && roundedQuotient(4, 10) == 0)
    }

    @Test("Strong durations, as Strong spells them", arguments: [
        (0, "0s"), (59, "59s"), (60, "1m"), (45 * 60 + 59, "45m"), (3600, "1h"), (3659, "1h"), (3900, "1h 5m"),
        (78 * 60, "1h 18m"), (10 * 3600 + 60, "10h 1m"), (26 * 3600, "26h"), (-300, "0s"),
    ])
    func strongDurations(seconds: Int, expected: String) {
        #expect(strongDuration(from: 1_000_000, to: 1_000_000 + Int64(seconds) * 1000) == expected)
        // And every spelling reads back as the duration it shows
        #expect(ImportValue.duration(expected) == (seconds < 60 ? max(0, seconds) : seconds / 60 * 60))
        // And a workout with no end is written as lasting nothing
        #expect(strongDuration(from: 1_000_000, to: nil) == "0s")
    }

    @Test("a native row carries every stored field, times at the workout's and the set's own offsets")
    func rowFromModels() {
        // Given a drop set logged at +02:00 in a workout that started at +01:00
        let workout = Workout(id: ExportFixtures.push, name: "A", startedAt: 1000, endedAt: 2000, utcOffsetSeconds: 3600, note: "n")
        let exercise = Exercise(id: ExportFixtures.bench, name: "Bench Press", kind: .weighted)
        let set = LoggedSet(id: ExportFixtures.id(1), workoutID: workout.id, exerciseID: exercise.id,
                            values: SetValues(kind: .drop, weight: Weight(Fixed(50), .lb), reps: 12, rpe: Fixed(9), rir: Fixed(1), note: "x"),
                            performedAt: 3000, utcOffsetSeconds: 7200)
        let row = ExportRow(set: set, workout: workout, exercise: exercise, setOrder: 3, workingSetNumber: nil)
        // When it is written in the native layout
        var writer = CSVWriter()
        ExportFormat.native.append(row, to: &writer, unit: .kg)
        // Then every field is there, in header order
        let fields = String(decoding: writer.buffer, as: UTF8.self).dropLast().split(separator: ",", omittingEmptySubsequences: false)
        #expect(fields.count == ExportFormat.native.header(unit: .kg).count)
        #expect(Array(fields[3...5]) == ["1970-01-01T01:00:01.000+01:00", "1970-01-01T01:00:02.000+01:00", "n"])
        #expect(Array(fields[8...]) == ["3", "drop", "50", "lb", "false", "12", "9", "1", "", "", "", "x", "1970-01-01T02:00:03.000+02:00", "", "", ""])
    }

    @Test("a large export stays correct across buffer flushes")
    func manyRowsWithFlushes() {
        // Given the fixture rows repeated, flushed whenever the buffer passes 64 KiB
        let rows = ExportFixtures.rows
        var writer = CSVWriter()
        var flushed: [UInt8] = []
        var expectedRows = 0
        for i in 0..<20_000 {
            ExportFormat.native.append(rows[i % rows.count], to: &writer, unit: .kg)
            expectedRows += 1
            if writer.buffer.count > 1 << 16 {
                flushed.append(contentsOf: writer.buffer)
                writer.buffer.removeAll(keepingCapacity: true)
            }
        }
        flushed.append(contentsOf: writer.buffer)
        // Then
        #expect(ImportCSVCursor.rows(flushed).count == expectedRows)
    }
}
