import Foundation

/// Reads gymlog's own `export --format native`: every field is kept, ids, aliases, supersets
/// and bodyweight entries included, so an export imported into an empty database exports
/// again byte for byte. Files written before aliases were exported (no `exercise_aliases`
/// column, times to the second), before supersets were (no `superset_id`) or before RIR was
/// kept (no `rir`) still read: each column is found by its name in the file's header.
struct NativeReader {
    let header: [String]
    /// Where each column of the file sits, by name.
    let positions: [String: Int]

    init(header: [String]) throws {
        let names = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard ExportFormat.nativeHeaders.contains(names) else {
            throw UserError("This is not a gymlog native export: its header should be '\(ExportFormat.nativeHeader.joined(separator: ","))'.")
        }
        self.header = header
        positions = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    }

    /// Whether the file has the `exercise_aliases` column.
    var hasAliases: Bool { positions["exercise_aliases"] != nil }
    /// Whether the file has the `superset_id` column.
    var hasSupersets: Bool { positions["superset_id"] != nil }

    /// `2026-11-21T10:15:00+01:00`, `2026-11-21T10:15:00.250+01:00` (or `...Z`) as UTC
    /// milliseconds and the offset written. A fraction finer than milliseconds is refused
    /// rather than rounded: gymlog never writes one.
    static func instant(_ text: String) -> (millis: Int64, offset: Int)? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T"),
              var local = ImportValue.localDateTime(String(decoding: bytes[0..<19], as: UTF8.self)) else { return nil }
        var rest = bytes[19...]
        if rest.first == UInt8(ascii: ".") {
            let digits = rest.dropFirst().prefix { $0 >= 48 && $0 <= 57 }
            guard (1...3).contains(digits.count) else { return nil }
            var fraction: Int64 = 0
            for d in digits { fraction = fraction * 10 + Int64(d - 48) }
            for _ in digits.count..<3 { fraction *= 10 }
            local += fraction
            rest = rest.dropFirst(1 + digits.count)
        }
        let zone = String(decoding: rest, as: UTF8.self)
        if zone == "Z" { return (local, 0) }
        guard zone.utf8.count == 6, let sign = zone.first, sign == "+" || sign == "-",
              let hm = ImportValue.timeOfDay(String(zone.dropFirst())) else { return nil }
        let offset = (sign == "-" ? -1 : 1) * hm
        return (local - Int64(offset) * 1000, offset)
    }

    /// Where a set field sits in the file (nil: `performed_at`, which follows them); nil for a
    /// field the file is older than (`rir`).
    func column(_ field: SetField?) -> Int? { positions[field?.rawValue ?? "performed_at"] }

    /// One set field as written by the native export, checked strictly: an export that
    /// does not read back exactly is reported, not guessed at. Units are checked when their
    /// number is there (`weight` and `distance` come before their units).
    static func value(_ text: String, of field: SetField, weight: SetFieldValue?, distance: SetFieldValue?) throws -> SetFieldValue {
        switch field {
        case .kind:
            guard SetKind(rawValue: text) != nil else { throw ImportRowError("kind '\(text)' is not working, warmup, drop or failure") }
            return .text(text)
        case .bodyweight:
            guard text == "true" || text == "false" else { throw ImportRowError("bodyweight '\(text)' is not true or false") }
            return .bool(text == "true")
        case .weightUnit:
            guard (weight ?? .null) == .null || WeightUnit(rawValue: text) != nil else {
                throw ImportRowError("weight_unit '\(text)' is not kg or lb")
            }
            return text.isEmpty ? .null : .text(text)
        case .distanceUnit:
            guard (distance ?? .null) == .null || DistanceUnit(rawValue: text) != nil else {
                throw ImportRowError("distance_unit '\(text)' is not m, km, mi or yd")
            }
            return text.isEmpty ? .null : .text(text)
        case _ where text.isEmpty:
            return .null
        case .weight, .rpe, .rir, .distance:
            guard let value = field == .weight ? Fixed(parsingSigned: text) : Fixed(parsing: text) else {
                throw ImportRowError("\(field.rawValue) '\(text)' is not a number")
            }
            return .fixed(value)
        case .reps, .durationSeconds:
            guard let value = Int(text) else { throw ImportRowError("\(field.rawValue) '\(text)' is not a whole number") }
            return .int(value)
        case .note:
            return .text(text)
        }
    }

    /// The text of column `name` in row `f`; empty when the file is older than the column.
    func text(_ f: [String], _ name: String) -> String { positions[name].map { f[$0] } ?? "" }

    /// Typed text (a name, a note, the aliases) in column `name` of row `f`, with the `'` the
    /// export put before a value a spreadsheet would run dropped (`FormulaGuard`).
    func typed(_ f: [String], _ name: String) -> String { FormulaGuard.unguarded(text(f, name)) }

    /// The text of a set field in row `f` (nil: `performed_at`).
    func text(_ f: [String], _ field: SetField?) -> String { text(f, field?.rawValue ?? "performed_at") }

    func read(_ cursor: inout ImportCSVCursor, into a: inout WorkoutAssembler) throws {
        try a.readRows(&cursor, fieldCount: header.count) { a, line, f in
            func id(_ name: String) throws -> UUID {
                guard let id = parseUUID(text(f, name)) else { throw ImportRowError("\(name) '\(text(f, name))' is not an id") }
                return id
            }
            func time(_ name: String) throws -> (millis: Int64, offset: Int) {
                guard let t = Self.instant(text(f, name)) else {
                    throw ImportRowError("\(name) '\(text(f, name))' is not a time like 2026-11-21T10:15:00.250+01:00")
                }
                return t
            }
            if text(f, .kind) == ExportFormat.routineKind {
                a.routines.append(try routine(f, id: try id("set_id")))
                return
            }
            if text(f, .kind) == ExportFormat.bodyweightEntryKind {
                a.bodyweights.append(try bodyweightEntry(f, id: try id("set_id"), at: try time("performed_at")))
                return
            }
            let setID = try id("set_id"), workoutID = try id("workout_id"), exerciseID = try id("exercise_id")
            let started = try time("workout_started_at")
            let ended = text(f, "workout_ended_at").isEmpty ? nil : try time("workout_ended_at").millis
            let exerciseName = typed(f, "exercise")
            guard !exerciseName.isEmpty else { throw ImportRowError("exercise is empty") }
            let order = text(f, "set_order")
            guard !order.isEmpty else { throw ImportRowError("set_order is empty") }
            guard Int(order) != nil else { throw ImportRowError("set_order '\(order)' is not a whole number") }
            var read: [SetField: SetFieldValue] = [:]
            for field in SetField.allCases {
                read[field] = try Self.value(field == .note ? typed(f, field.rawValue) : text(f, field), of: field, weight: read[.weight], distance: read[.distance])
            }
            let values = SetValues(reading: { read[$0] ?? .null })
            try WorkoutAssembler.checkLimits(values)
            let performed = try time("performed_at")

            let name = text(f, "workout_name").isEmpty ? nil : typed(f, "workout_name")
            let note = text(f, "workout_note").isEmpty ? nil : typed(f, "workout_note")
            let superset = text(f, "superset_id").isEmpty ? nil : try id("superset_id")
            let wi = a.workout(key: workoutID.uuidString) { _ in
                ImportedWorkout(line: line, id: workoutID, name: name, startedAt: started.millis, endedAt: ended,
                                utcOffsetSeconds: started.offset, note: note)
            }
            let ei = a.exercise(named: exerciseName, id: exerciseID)
            if hasAliases { a.addAliases(ExportFormat.decodeAliases(typed(f, "exercise_aliases")), to: ei) }
            if positions["exercise_link"] != nil {
                do { a.setLink(try ExerciseLinkFields(exportText: text(f, "exercise_link")), of: ei) } catch let e as UserError {
                    throw ImportRowError(e.message)
                }
            }
            a.add(PendingSet(line: line, id: setID, exercise: ei, values: values, performedAt: performed.millis,
                             utcOffsetSeconds: performed.offset, exactTime: text(f, nil).contains("."),
                             supersetID: superset), to: wi)
        }
    }

    /// A `routine` row: its id, name, text, unit and `line_since`.
    func routine(_ f: [String], id: UUID) throws -> RoutineRecord {
        let name = typed(f, "workout_name")
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw ImportRowError("a routine row has no workout_name (the routine's name)") }
        let unitText = text(f, .weightUnit)
        guard unitText.isEmpty || WeightUnit(rawValue: unitText) != nil else { throw ImportRowError("weight_unit '\(unitText)' is not kg or lb") }
        let since = typed(f, SetField.note.rawValue)
        return RoutineRecord(id: id, name: name, text: typed(f, "workout_note"), unit: WeightUnit(rawValue: unitText),
                             lineSince: since.isEmpty ? nil : since)
    }

    /// A `bodyweight_entry` row: its id, weight and time; the set's columns stay empty.
    func bodyweightEntry(_ f: [String], id: UUID, at: (millis: Int64, offset: Int)) throws -> BodyweightEntry {
        let filled: Set<String> = ["set_id", SetField.kind.rawValue, SetField.weight.rawValue, SetField.weightUnit.rawValue, "performed_at"]
        for (i, name) in header.enumerated() where !f[i].isEmpty && !filled.contains(name.trimmingCharacters(in: .whitespaces).lowercased()) {
            throw ImportRowError("a bodyweight_entry row has \(name) '\(f[i])'; only set_id, weight, weight_unit and performed_at are filled")
        }
        let weightText = text(f, .weight), unitText = text(f, .weightUnit)
        guard let value = Fixed(parsing: weightText), value.thousandths > 0 else {
            throw ImportRowError("bodyweight weight '\(weightText)' is not a positive number")
        }
        guard let unit = WeightUnit(rawValue: unitText) else { throw ImportRowError("weight_unit '\(unitText)' is not kg or lb") }
        return BodyweightEntry(id: id, weight: Weight(value, unit), measuredAt: at.millis, utcOffsetSeconds: at.offset)
    }
}
