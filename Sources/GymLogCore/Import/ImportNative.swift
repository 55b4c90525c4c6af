import Foundation

/// Reads gymlog's own `export --format native`: every field is kept, ids included, so an
/// export imported into an empty database exports again byte for byte.
struct NativeReader {
    let header: [String]

    init(header: [String]) throws {
        guard header.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) == ExportFormat.nativeHeader else {
            throw UserError("This is not a gymlog native export: its header should be '\(ExportFormat.nativeHeader.joined(separator: ","))'.")
        }
        self.header = header
    }

    /// `2026-11-21T10:15:00+01:00` (or `...Z`) as UTC milliseconds and the offset written.
    static func instant(_ text: String) -> (millis: Int64, offset: Int)? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T"),
              let local = ImportValue.localDateTime(String(decoding: bytes[0..<19], as: UTF8.self)) else { return nil }
        let zone = String(decoding: bytes[19...], as: UTF8.self)
        if zone == "Z" { return (local, 0) }
        guard zone.utf8.count == 6, let sign = zone.first, sign == "+" || sign == "-",
              let hm = ImportValue.timeOfDay(String(zone.dropFirst())) else { return nil }
        let offset = (sign == "-" ? -1 : 1) * hm
        return (local - Int64(offset) * 1000, offset)
    }

    func read(_ cursor: inout ImportCSVCursor, into a: inout WorkoutAssembler) throws {
        while let (line, f) = cursor.next() {
            guard f.count == header.count else {
                a.bad(line, "has \(f.count) fields but the header has \(header.count)")
                continue
            }
            do {
                func id(_ i: Int, _ name: String) throws -> UUID {
                    guard let id = parseUUID(f[i]) else { throw ImportRowError("\(name) '\(f[i])' is not an id") }
                    return id
                }
                func time(_ i: Int, _ name: String) throws -> (millis: Int64, offset: Int) {
                    guard let t = Self.instant(f[i]) else {
                        throw ImportRowError("\(name) '\(f[i])' is not a time like 2026-11-21T10:15:00+01:00")
                    }
                    return t
                }
                func fixed(_ i: Int, _ name: String, signed: Bool = false) throws -> Fixed? {
                    if f[i].isEmpty { return nil }
                    guard let v = signed ? Fixed(parsingSigned: f[i]) : Fixed(parsing: f[i]) else {
                        throw ImportRowError("\(name) '\(f[i])' is not a number")
                    }
                    return v
                }
                func int(_ i: Int, _ name: String) throws -> Int? {
                    if f[i].isEmpty { return nil }
                    guard let v = Int(f[i]) else { throw ImportRowError("\(name) '\(f[i])' is not a whole number") }
                    return v
                }
                let setID = try id(0, "set_id"), workoutID = try id(1, "workout_id"), exerciseID = try id(6, "exercise_id")
                let started = try time(3, "workout_started_at")
                let ended = f[4].isEmpty ? nil : try time(4, "workout_ended_at").millis
                let exerciseName = f[7]
                guard !exerciseName.isEmpty else { throw ImportRowError("exercise is empty") }
                guard try int(8, "set_order") != nil else { throw ImportRowError("set_order is empty") }
                guard let kind = SetKind(rawValue: f[9]) else {
                    throw ImportRowError("kind '\(f[9])' is not working, warmup, drop or failure")
                }
                var weight: Weight?
                if let value = try fixed(10, "weight", signed: true) {
                    guard let unit = WeightUnit(rawValue: f[11]) else { throw ImportRowError("weight_unit '\(f[11])' is not kg or lb") }
                    weight = Weight(value, unit)
                }
                guard f[12] == "true" || f[12] == "false" else { throw ImportRowError("bodyweight '\(f[12])' is not true or false") }
                var distance: Distance?
                if let value = try fixed(15, "distance") {
                    guard let unit = DistanceUnit(rawValue: f[16]) else { throw ImportRowError("distance_unit '\(f[16])' is not m, km, mi or yd") }
                    distance = Distance(value, unit)
                }
                let values = SetValues(kind: kind, weight: weight, bodyweight: f[12] == "true", reps: try int(13, "reps"),
                                       rpe: try fixed(14, "rpe"), durationSeconds: try int(17, "duration_seconds"),
                                       distance: distance, note: f[18].isEmpty ? nil : f[18])
                let performed = try time(19, "performed_at")

                let name = f[2].isEmpty ? nil : f[2]
                let note = f[5].isEmpty ? nil : f[5]
                let wi = a.workout(key: workoutID.uuidString) {
                    ImportedWorkout(line: line, id: workoutID, name: name, startedAt: started.millis, endedAt: ended,
                                    utcOffsetSeconds: started.offset, note: note)
                }
                let ei = a.exercise(named: exerciseName, id: exerciseID)
                a.add(PendingSet(line: line, id: setID, exercise: ei, values: values, performedAt: performed.millis,
                                 utcOffsetSeconds: performed.offset), to: wi)
            } catch let e as ImportRowError {
                a.bad(line, e.reason)
            }
        }
    }
}
