import Foundation
import Testing
@testable import GymLogCore
import SplitMix

/// Every export layout, read back by the importer, gives the same sets, values, units and
/// order: checked over generated histories of every set shape, typed in either unit.
@Suite struct ExportRoundTripTests {
    /// The exercise shapes a lifter logs; an exercise has one.
    enum Shape: CaseIterable { case weighted, bodyweight, timed, distance, carry }

    static let names: [(String, Shape)] = [
        ("Bench Press", .weighted), ("Squat", .weighted), ("Pull-up", .bodyweight), ("Dip", .bodyweight),
        ("Plank", .timed), ("Run", .distance), ("Rowing (Erg)", .distance), ("Farmer's Carry", .carry),
    ]

    /// A history: its sets in export order and its bodyweight entries.
    struct History {
        var rows: [ExportRow]
        var bodyweights: [BodyweightEntry]
    }

    /// A history of `workouts` workouts whose sets are in the order they were done, with
    /// exercises interleaved and some in supersets (up to two a workout), loads in kg and lb,
    /// notes that need quoting, and bodyweight entries in both units.
    static func history(seed: UInt64, workouts: Int = 6) -> History {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
        func fixed(_ range: ClosedRange<Int64>, step: Int64) -> Fixed {
            Fixed(thousandths: Int64.random(in: range, using: &rng) / step * step)
        }
        let notes = [nil, nil, nil, "paused, \"touch and go\"", "left; then right", "grip gave out\nchalk next time", "ok"]
        var rows: [ExportRow] = []
        var day = epochMillis(year: 2026, month: 3, day: 2, utcOffsetSeconds: 0)
        for w in 0..<workouts {
            let offset = pick([0, 3600, -5 * 3600, 5 * 3600 + 45 * 60])
            let start = day + 17 * 3_600_000 + Int64(w) * 7
            // Finished on the minute, on the hour, with seconds over, or not finished at all.
            let end = pick([Int64?(75 * 60_000), 60 * 60_000, 75 * 60_000 + 29_999, nil]).map { start + $0 }
            let workout = Workout(id: ExportFixtures.id(0x1000 + w), name: pick([nil, "Push", "Legs, heavy"]), startedAt: start,
                                  endedAt: end, utcOffsetSeconds: offset, note: pick([nil, "slept 8h", "left; \"then\" right"]))
            var at = start + 60_000
            let used = (0..<3).map { _ in Int.random(in: 0..<names.count, using: &rng) }
            let supersets = [nil, ExportFixtures.id(0x2000 + w * 2), ExportFixtures.id(0x2001 + w * 2)]
            let supersetOf = Dictionary(used.map { ($0, pick(supersets)) }, uniquingKeysWith: { a, _ in a })
            // Bodyweight exercises start with a plain `bw x8`, as they do in a log.
            var plainDone = Set<Int>()
            for n in 0..<Int.random(in: 4...14, using: &rng) {
                let e = pick(used)
                let (name, shape) = names[e]
                let unit = pick([WeightUnit.kg, .lb])
                var v = SetValues(kind: pick([.working, .working, .working, .warmup, .drop, .failure]))
                switch shape {
                case .weighted:
                    v.weight = Weight(fixed(1_000...300_000, step: 250), unit)
                    v.reps = Int.random(in: 1...20, using: &rng)
                case .bodyweight:
                    v.bodyweight = true
                    v.reps = Int.random(in: 1...20, using: &rng)
                    if plainDone.insert(e).inserted { break }
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: break
                    case 1: v.weight = Weight(fixed(1_000...60_000, step: 125), unit)
                    default: v.weight = Weight(-fixed(1_000...40_000, step: 500), unit)
                    }
                case .timed:
                    v.durationSeconds = Int.random(in: 1...600, using: &rng)
                case .distance:
                    v.distance = Distance(fixed(1...42_195_000, step: 1), pick(DistanceUnit.allCases))
                    v.distance!.value = min(v.distance!.value, SetLimits.maxDistance)
                    if Bool.random(using: &rng) { v.durationSeconds = Int.random(in: 60...10_000, using: &rng) }
                case .carry:
                    v.weight = Weight(fixed(1_000...100_000, step: 500), unit)
                    v.distance = Distance(fixed(1_000...100_000, step: 1000), .m)
                }
                if shape != .timed {
                    switch Int.random(in: 0..<6, using: &rng) {
                    case 0, 1: v.rpe = Fixed(thousandths: Int64.random(in: 12...20, using: &rng) * 500)
                    case 2: v.rir = Fixed(thousandths: Int64.random(in: 0...20, using: &rng) * 500)
                    default: break
                    }
                }
                v.note = pick(notes)
                // Some sets share a second; two even share a millisecond.
                at += pick([0, 1, 250, 999, 45_000, 180_000])
                rows.append(ExportRow(
                    set: LoggedSet(id: ExportFixtures.id(0x100_000 + w * 100 + n), workoutID: workout.id,
                                   exerciseID: ExportFixtures.id(e), values: v, performedAt: at, utcOffsetSeconds: offset,
                                   supersetID: supersetOf[e] ?? nil),
                    workout: workout, exercise: Exercise(id: ExportFixtures.id(e), name: name, kind: .weighted),
                    setOrder: 0, workingSetNumber: nil, exerciseAliases: e == 0 ? ["bp", "flat; \"bench\""] : []))
            }
            day += 86_400_000 * Int64.random(in: 1...3, using: &rng)
        }
        // The order the store lists them in: by workout, then time, then id; numbered as the store numbers them.
        var numbering = ExportNumbering()
        let sorted = rows.sorted { ($0.workout.startedAt, $0.set.performedAt, $0.set.id.uuidString) < ($1.workout.startedAt, $1.set.performedAt, $1.set.id.uuidString) }
            .map { numbering.row($0.set, workout: $0.workout, exercise: $0.exercise, aliases: $0.exerciseAliases) }
        let bodyweights = (0..<Int.random(in: 0...4, using: &rng)).map { i in
            BodyweightEntry(id: ExportFixtures.id(0x3000 + i), weight: Weight(fixed(40_000...150_000, step: 100), pick(WeightUnit.allCases)),
                            measuredAt: day + Int64(i) * 86_400_000 + Int64.random(in: 0..<86_400_000, using: &rng),
                            utcOffsetSeconds: pick([0, 3600, -5 * 3600, 5 * 3600 + 45 * 60]))
        }
        return History(rows: sorted, bodyweights: bodyweights)
    }

    /// `rows` written in `format` by a user whose configured unit is `unit`.
    static func export(_ rows: [ExportRow], _ format: ExportFormat, unit: WeightUnit, bodyweights: [BodyweightEntry] = []) -> [UInt8] {
        var writer = format.makeWriter()
        format.appendHeader(to: &writer, unit: unit)
        for row in rows { format.append(row, to: &writer, unit: unit) }
        for entry in bodyweights { format.append(entry, to: &writer) }
        return writer.buffer
    }

    /// `bytes` read back as the export of `rows`, by a user whose unit is `assumedUnit`.
    static func importBack(_ bytes: [UInt8], of rows: [ExportRow], assumedUnit: WeightUnit) throws -> ImportedFile {
        let offsets = Dictionary(rows.map { ($0.workout.startedAt, $0.workout.utcOffsetSeconds) }, uniquingKeysWith: { a, _ in a })
        // Strong's Date and Hevy's times have no zone: read them in the zone each workout was in.
        return try ImportParser.parse(bytes, options: ImportOptions(weightUnit: assumedUnit, utcOffset: { instant in
            offsets.min { abs($0.key - instant) < abs($1.key - instant) }?.value ?? 0
        }))
    }

    static func exportThenImport(_ history: History, _ format: ExportFormat, unit: WeightUnit,
                                 assumedUnit: WeightUnit) throws -> ImportedFile {
        try importBack(export(history.rows, format, unit: unit, bodyweights: history.bodyweights), of: history.rows, assumedUnit: assumedUnit)
    }

    /// Each set's superset as numbered within its workout from 0 in the order first met, so
    /// groupings compare whatever their ids (Hevy's are derived on import).
    static func supersetNumbers(_ sets: [(workout: UUID, superset: UUID?)]) -> [Int?] {
        var numbers: [UUID: [UUID: Int]] = [:]
        return sets.map { s in
            guard let id = s.superset else { return nil }
            if let n = numbers[s.workout]?[id] { return n }
            let n = numbers[s.workout]?.count ?? 0
            numbers[s.workout, default: [:]][id] = n
            return n
        }
    }

    /// The set values `format` carries for `row` when the configured unit is `unit`: everything
    /// for native; strong all but RIR, which neither it nor hevy has a column for; hevy converts loads to `unit` and distances to km or miles, and
    /// moves the set's note to the workout's (`notesCarried`). Without a bodyweight column, a
    /// bodyweight set with neither load nor reps (`plank bw 60s`) reads as a plain timed set.
    static func carried(_ row: ExportRow, by format: ExportFormat, unit: WeightUnit) -> SetValues {
        var v = row.set.values
        guard format != .native else { return v }
        v.rir = nil
        if v.bodyweight && v.weight == nil && v.reps == nil { v.bodyweight = false }
        guard format == .hevy else { return v }
        v.weight = v.weight?.converted(to: unit)
        v.distance = v.distance?.converted(to: unit == .kg ? .km : .mi)
        v.note = nil
        return v
    }

    /// The workout notes a hevy export carries: the workout's note, then `Exercise: note` once
    /// for each distinct set note, in the order the sets were done.
    static func notesCarried(_ rows: [ExportRow]) -> [String?] {
        var order: [UUID] = [], notes: [UUID: [String]] = [:]
        for row in rows {
            if notes[row.workout.id] == nil {
                order.append(row.workout.id)
                notes[row.workout.id] = row.workout.note.map { [$0] } ?? []
            }
            if let note = row.set.values.note?.trimmingCharacters(in: .whitespacesAndNewlines), !note.isEmpty {
                let line = "\(row.exercise.name): \(note)"
                if !notes[row.workout.id]!.contains(line) { notes[row.workout.id]!.append(line) }
            }
        }
        return order.map { notes[$0]!.isEmpty ? nil : notes[$0]!.joined(separator: "\n") }
    }

    /// Checks `file` holds `rows` as `format` carries them, set by set and in order.
    static func expectCarried(_ file: ImportedFile, _ rows: [ExportRow], bodyweights: [BodyweightEntry], _ format: ExportFormat,
                              unit: WeightUnit, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(file.badRows.isEmpty, "\(label): \(file.badRows)", sourceLocation: sourceLocation)
        #expect(file.ignoredRows.isEmpty, "\(label): \(file.ignoredRows)", sourceLocation: sourceLocation)
        #expect(file.assumedWeightUnit == nil && file.assumedDistanceUnit == nil, sourceLocation: sourceLocation)
        let sets = file.workouts.flatMap(\.sets)
        try #require(sets.count == rows.count, "\(label)", sourceLocation: sourceLocation)
        for (row, set) in zip(rows, sets) {
            #expect(set.values == carried(row, by: format, unit: unit), "\(label) line \(set.line)", sourceLocation: sourceLocation)
            #expect(file.exercises[set.exercise].name == row.exercise.name, sourceLocation: sourceLocation)
            if format == .native {
                #expect(set.id == row.set.id && set.performedAt == row.set.performedAt, sourceLocation: sourceLocation)
                #expect(set.supersetID == row.set.supersetID, "\(label) line \(set.line)", sourceLocation: sourceLocation)
                #expect(file.exercises[set.exercise].aliases == row.exerciseAliases, sourceLocation: sourceLocation)
            }
        }
        // Supersets group the same sets (Strong's layout has none); bodyweight entries come back whole from native
        let fileSupersets = supersetNumbers(file.workouts.flatMap { w in w.sets.map { (w.id, $0.supersetID) } })
        let expectedSupersets = format == .strong ? rows.map { _ in nil } : supersetNumbers(rows.map { ($0.workout.id, $0.set.supersetID) })
        #expect(fileSupersets == expectedSupersets, "\(label)", sourceLocation: sourceLocation)
        #expect(file.bodyweights == (format == .native ? bodyweights : []), "\(label)", sourceLocation: sourceLocation)
        // Hevy's times are to the minute, Strong's Date to the second; native keeps the millisecond.
        let precision: Int64 = switch format { case .native: 1; case .strong: 1000; case .hevy: 60_000 }
        #expect(file.workouts.map { $0.startedAt / precision } == Set(rows.map(\.workout.startedAt)).sorted().map { $0 / precision },
                "\(label)", sourceLocation: sourceLocation)
        let names = file.workouts.map { $0.name ?? "" }
        var seen = Set<UUID>()
        let expectedNames = rows.filter { seen.insert($0.workout.id).inserted }.map { row in
            format == .native ? row.workout.name ?? "" : row.workout.name ?? ExportFormat.defaultWorkoutName
        }
        #expect(names == expectedNames, "\(label)", sourceLocation: sourceLocation)
        if format == .hevy {
            #expect(file.workouts.map(\.note) == notesCarried(rows), "\(label)", sourceLocation: sourceLocation)
        } else {
            seen = []
            #expect(file.workouts.map(\.note) == rows.filter { seen.insert($0.workout.id).inserted }.map(\.workout.note),
                    "\(label)", sourceLocation: sourceLocation)
        }
    }

    @Test("every set survives export then import, in every layout and configured unit, whatever unit is assumed",
          arguments: ExportFormat.allCases, [UInt64(1), 2, 3, 42, 2026, 7, 11, 99])
    func roundTrip(format: ExportFormat, seed: UInt64) throws {
        // Given a generated history with kg and lb loads, every distance unit and every set shape
        let history = Self.history(seed: seed)
        for unit in WeightUnit.allCases {
            for assumed in WeightUnit.allCases {
                // When it is exported by a user whose unit is `unit` and read back by one whose unit is `assumed`
                let file = try Self.exportThenImport(history, format, unit: unit, assumedUnit: assumed)
                // Then nothing was left out or assumed, and every set is back, in order, value for value,
                // in the same supersets, and (native) every bodyweight entry
                try Self.expectCarried(file, history.rows, bodyweights: history.bodyweights, format, unit: unit,
                                       "seed \(seed) \(format) in \(unit), read in \(assumed)")
            }
        }
    }

    static let fixtures = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "fixtures/export")

    static func golden(_ name: String) throws -> [UInt8] {
        Array(try #require(FileManager.default.contents(atPath: fixtures.appending(path: name).path), "missing \(name)"))
    }

    @Test("the golden files import back to the fixture's sets as each layout carries them", arguments: [
        (ExportFormat.native, WeightUnit.kg, "native-golden.csv"), (.strong, .kg, "strong-golden.csv"),
        (.hevy, .kg, "hevy-golden-kg.csv"), (.hevy, .lb, "hevy-golden-lb.csv"),
    ])
    func goldenRoundTrip(format: ExportFormat, unit: WeightUnit, name: String) throws {
        // Given a golden export of every set kind, kg and lb, notes with quotes, commas and newlines
        let bytes = try Self.golden(name)
        for assumed in WeightUnit.allCases {
            // When it is imported into an empty history
            let file = try Self.importBack(bytes, of: ExportFixtures.rows, assumedUnit: assumed)
            // Then every set is back as the layout carries it, value for value in its unit
            #expect(file.source == (format == .native ? .native : format == .strong ? .strong : .hevy))
            try Self.expectCarried(file, ExportFixtures.rows, bodyweights: ExportFixtures.bodyweights, format, unit: unit,
                                   "\(name) read in \(assumed)")
        }
    }

    @Test("two workouts of one title 34 s apart come back from Hevy's layout as two, and export again to the same bytes")
    func hevyKeepsWorkoutsOfOneMinuteApart() throws {
        // Given two Fitbod workouts, both titled as Fitbod names them, started 34 s apart in one minute
        let start = epochMillis(year: 2024, month: 5, day: 6, utcOffsetSeconds: 0) + 18 * 3_600_000 + 10_000
        var numbering = ExportNumbering()
        let rows = [0, 34_000].enumerated().map { i, delta in
            let workout = Workout(id: ExportFixtures.id(0x9000 + i), name: "Fitbod Workout", startedAt: start + Int64(delta),
                                  endedAt: start + Int64(delta) + 999, utcOffsetSeconds: 0)
            let set = LoggedSet(id: ExportFixtures.id(0x9100 + i), workoutID: workout.id, exerciseID: ExportFixtures.id(0x9200),
                                values: SetValues(weight: Weight(Fixed(100), .kg), reps: 5), performedAt: workout.startedAt + 1,
                                utcOffsetSeconds: 0)
            return numbering.row(set, workout: workout, exercise: Exercise(id: set.exerciseID, name: "Squat", kind: .weighted))
        }
        // When they are exported in Hevy's layout and read back
        let first = Self.export(rows, .hevy, unit: .kg)
        let file = try Self.importBack(first, of: rows, assumedUnit: .kg)
        // Then they are two workouts, the second started to the second, and they export to the same bytes
        #expect(file.workouts.count == 2, "\(String(decoding: first, as: UTF8.self))")
        #expect(String(decoding: first, as: UTF8.self).contains("\"6 May 2024, 18:00:44\""))
        let again = Self.export(Self.rowsAsStored(file), .hevy, unit: .kg)
        #expect(String(decoding: again, as: UTF8.self) == String(decoding: first, as: UTF8.self))
    }

    /// The rows of `file`'s workouts as the store would list them after importing it.
    static func rowsAsStored(_ file: ImportedFile) -> [ExportRow] {
        var rows: [ExportRow] = []
        var numbering = ExportNumbering()
        for w in file.workouts {
            let workout = Workout(id: w.id, name: w.name, startedAt: w.startedAt, endedAt: w.endedAt,
                                  utcOffsetSeconds: w.utcOffsetSeconds, note: w.note)
            for s in w.sets {
                let e = file.exercises[s.exercise]
                let id = e.id ?? ExportFixtures.id(0x7000 + s.exercise)
                rows.append(numbering.row(
                    LoggedSet(id: s.id, workoutID: w.id, exerciseID: id, values: s.values,
                              performedAt: s.performedAt, utcOffsetSeconds: s.utcOffsetSeconds, supersetID: s.supersetID),
                    workout: workout, exercise: Exercise(id: id, name: e.name, kind: .weighted), aliases: e.aliases, link: e.link))
            }
        }
        return rows
    }

    @Test("a strong export imported and exported again is the same bytes, finished or not",
          arguments: [UInt64(1), 2, 3, 42, 2026, 7, 11, 99])
    func strongByteForByte(seed: UInt64) throws {
        // Given a generated history exported in Strong's layout, its last workout unfinished
        var history = Self.history(seed: seed)
        let last = try #require(history.rows.last?.workout.id)
        for i in history.rows.indices where history.rows[i].workout.id == last { history.rows[i].workout.endedAt = nil }
        let first = Self.export(history.rows, .strong, unit: .kg)
        // When it is imported and its workouts exported again
        let file = try Self.importBack(first, of: history.rows, assumedUnit: .kg)
        let again = Self.export(Self.rowsAsStored(file), .strong, unit: .kg)
        // Then the bytes are the same
        #expect(String(decoding: again, as: UTF8.self) == String(decoding: first, as: UTF8.self))
        // And each workout lasted what the first export said: to the minute, to the second under
        // one; an unfinished one under a second, its sets inside it
        var seen = Set<UUID>()
        let workouts = history.rows.map(\.workout).filter { seen.insert($0.id).inserted }.sorted { $0.startedAt < $1.startedAt }
        try #require(file.workouts.count == workouts.count)
        for (w, back) in zip(workouts, file.workouts) {
            let length = w.endedAt.map { ($0 - w.startedAt) / 60_000 * 60_000 } ?? 999
            #expect(back.endedAt.map { $0 - back.startedAt } == length)
            #expect(back.sets.allSatisfy { $0.performedAt >= back.startedAt && $0.performedAt <= back.endedAt! })
        }
    }

    @Test("a Strong workout that lasted 0s ends within its first second, its sets in order inside it")
    func zeroDurationIsUnderASecond() throws {
        // Given a Strong file whose workout says 0s (as Strong writes a workout logged without its timer)
        let text = ExportFormat.strongHeader.joined(separator: ";") + "\n"
            + "2026-03-02 17:00:00;\"A\";\"Bench\";1;100;kg;5;;;;0;\"\";\"\";0s\n"
            + "2026-03-02 17:00:00;\"A\";\"Bench\";2;100;kg;5;;;;0;;;0s\n"
            + "2026-03-02 17:00:00;\"A\";\"Squat\";1;140;kg;5;;;;0;\"\";;0s\n"
        // When it is read
        let w = try #require(ImportParser.parse(Array(text.utf8), options: ImportOptions()).workouts.first)
        // Then it ends 999 ms after it started, and its sets are in order within it
        #expect(w.endedAt == w.startedAt + 999)
        #expect(w.sets.map(\.performedAt) == w.sets.map(\.performedAt).sorted() && Set(w.sets.map(\.performedAt)).count == 3)
        #expect(w.sets.allSatisfy { $0.performedAt >= w.startedAt && $0.performedAt < w.startedAt + 1000 })
    }

    @Test("a native golden file imported and exported again is the same bytes")
    func nativeGoldenByteForByte() throws {
        // Given the native golden file, read back
        let bytes = try Self.golden("native-golden.csv")
        let file = try ImportParser.parse(bytes, options: ImportOptions())
        // When its workouts are exported again, numbered as the store numbers them
        #expect(file.exercises.allSatisfy { $0.id != nil })
        let rows = Self.rowsAsStored(file)
        // Then the bytes are the golden file's, supersets and bodyweight entries included
        #expect(file.bodyweights.count == 2 && rows.contains { $0.set.supersetID != nil })
        #expect(Self.export(rows, .native, unit: .kg, bodyweights: file.bodyweights) == bytes)
    }

    @Test("a native file written before RIR was a column still imports, every set as it was")
    func aNativeFileWithoutRIRStillImports() throws {
        // Given the native golden file as gymlog wrote it before `rir` followed `rpe`
        let url = Self.fixtures.deletingLastPathComponent().appending(path: "import/native-without-rir.csv")
        let bytes = Array(try #require(FileManager.default.contents(atPath: url.path)))
        #expect(String(decoding: bytes.prefix(while: { $0 != 13 && $0 != 10 }), as: UTF8.self) == ExportFormat.nativeHeaderWithoutRIR.joined(separator: ","))
        // When it is read
        let file = try ImportParser.parse(bytes, options: ImportOptions())
        // Then every set, superset, alias and bodyweight entry is back, none with an RIR
        let rows = ExportFixtures.rows.map { row in
            var row = row
            row.set.values.rir = nil
            return row
        }
        #expect(file.source == .native)
        try Self.expectCarried(file, rows, bodyweights: ExportFixtures.bodyweights, .native, unit: .kg, "native-without-rir.csv")
    }

    @Test("the native RIR column reads back exactly, and a bad one is a bad row naming it")
    func nativeRIRColumn() throws {
        // Given native rows with RIR 0, 1.5, none, and one that is not a number
        var text = ExportFormat.nativeHeader.joined(separator: ",") + "\n"
        for (n, rir) in [(1, "0"), (2, "1.5"), (3, ""), (4, "two")] {
            text += "a1b2c3d4-e5f6-4a7b-8c9d-00000000000\(n),a1b2c3d4-e5f6-4a7b-8c9d-000000000100,,2026-11-21T10:15:00.000+01:00,,,"
                + "a1b2c3d4-e5f6-4a7b-8c9d-000000000010,Squat,\(n),working,140,kg,false,5,,\(rir),,,,,2026-11-21T10:17:00.00\(n)+01:00,,,\n"
        }
        // When it is read
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        // Then the RIRs are as written and the last row is refused, naming the column
        #expect(file.workouts.flatMap(\.sets).map(\.values.summary) == ["140kg x 5 rir0", "140kg x 5 rir1.5", "140kg x 5"])
        #expect(file.badRows.map(\.line) == [5])
        #expect(file.badRows.first?.reason == "rir 'two' is not a number")
    }

    @Test func aNativeFileWrittenToTheSecondStillKeepsItsSetsInOrder() throws {
        // Given a file from before milliseconds were written: two sets in one second
        var text = ExportFormat.nativeHeaderWithoutAliases.joined(separator: ",") + "\n"
        for n in 1...2 {
            text += "a1b2c3d4-e5f6-4a7b-8c9d-00000000000\(n),a1b2c3d4-e5f6-4a7b-8c9d-000000000100,,2026-11-21T10:15:00+01:00,,,"
                + "a1b2c3d4-e5f6-4a7b-8c9d-000000000010,Bench,\(n),working,100,kg,false,\(6 - n),,,,,,2026-11-21T10:17:00+01:00\n"
        }
        // When it is read
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        // Then the second set stays after the first, and no aliases are invented
        let sets = file.workouts[0].sets
        #expect(sets.map(\.values.reps) == [5, 4])
        #expect(sets[1].performedAt == sets[0].performedAt + 1)
        #expect(file.exercises[0].aliases.isEmpty)
    }

    @Test("native times read with or without milliseconds", arguments: [
        ("2026-11-21T10:15:00+01:00", Int64(0)), ("2026-11-21T10:15:00.250+01:00", 250), ("2026-11-21T10:15:00.5Z", 500),
        ("2026-11-21T10:15:00.007-05:30", 7),
    ])
    func nativeInstants(text: String, millis: Int64) throws {
        let t = try #require(NativeReader.instant(text))
        #expect(t.millis % 1000 == millis)
        #expect(NativeReader.instant("2026-11-21T10:15:00.+01:00") == nil)
        #expect(NativeReader.instant("2026-11-21T10:15:00.1234+01:00") == nil)
    }
}

@Suite struct ISO8601MillisecondsTests {
    @Test("milliseconds are written after the seconds, before the offset, also before 1970", arguments: [
        (Int64(0), "1970-01-01T01:00:00.000+01:00"), (999, "1970-01-01T01:00:00.999+01:00"),
        (1_250, "1970-01-01T01:00:01.250+01:00"), (-1, "1970-01-01T00:59:59.999+01:00"),
    ])
    func fractions(millis: Int64, text: String) {
        var bytes: [UInt8] = []
        appendISO8601(millis: millis, utcOffsetSeconds: 3600, milliseconds: true, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == text)
        #expect(NativeReader.instant(text)?.millis == millis)
    }
}
