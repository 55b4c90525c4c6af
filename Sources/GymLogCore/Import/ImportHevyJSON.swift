import Foundation

/// Reads pages of Hevy's API (`GET /v1/workouts`) saved to a file: one page
/// `{"page":1,"page_count":3,"workouts":[...]}`, or several in a list `[{...},{...}]`. Each
/// workout has a title, a description, `start_time` and `end_time` as instants
/// (`2024-08-14T12:00:00Z`) and exercises with a title, notes, a `superset_id` and sets of
/// `type` (normal, warmup, dropset, failure), `weight_kg`, `reps`, `distance_meters`,
/// `duration_seconds` and `rpe`.
///
/// Bounded, not whole-file: `JSONPages` cuts the file into its pages as it streams (the API
/// sends at most 10 workouts a page), and only one page is decoded and held at a time. A
/// page that is not Hevy's shape is a bad row at the line the page starts on.
struct HevyJSONReader {
    struct Page: Decodable { var workouts: [Workout] }
    struct Workout: Decodable {
        var title: String?
        var description: String?
        var start_time: String
        var end_time: String?
        var exercises: [Exercise]
    }
    struct Exercise: Decodable {
        var title: String
        var notes: String?
        var superset_id: Int?
        var sets: [WorkSet]
    }
    struct WorkSet: Decodable {
        var type: String?
        var weight_kg: Double?
        var reps: Double?
        var distance_meters: Double?
        var duration_seconds: Double?
        var rpe: Double?
    }

    /// A workout of the Hevy web app's own list (a bare JSON array of them, hevy-json-2's
    /// shape): `name`, times as epoch seconds, and a set's type in `indicator`.
    struct WebWorkout: Decodable {
        struct Exercise: Decodable {
            var title: String
            var notes: String?
            var superset_id: Int?
            var sets: [Set]
        }
        struct Set: Decodable {
            var indicator: String?
            var weight_kg: Double?
            var reps: Double?
            var distance_meters: Double?
            var duration_seconds: Double?
            var rpe: Double?
        }
        var name: String?
        var description: String?
        var start_time: Double
        var end_time: Double?
        var exercises: [Exercise]

        /// The workout as the public API writes it, its times as instants.
        var asAPI: Workout {
            func instant(_ seconds: Double) -> String {
                let f = ISO8601DateFormatter()
                f.timeZone = TimeZone(identifier: "UTC")
                return f.string(from: Date(timeIntervalSince1970: seconds.rounded(.down)))
            }
            return Workout(title: name, description: description, start_time: instant(start_time), end_time: end_time.map(instant),
                           exercises: exercises.map { e in
                               HevyJSONReader.Exercise(title: e.title, notes: e.notes, superset_id: e.superset_id, sets: e.sets.map {
                                   HevyJSONReader.WorkSet(type: $0.indicator, weight_kg: $0.weight_kg, reps: $0.reps, distance_meters: $0.distance_meters,
                                           duration_seconds: $0.duration_seconds, rpe: $0.rpe)
                               })
                           })
        }
    }

    /// A JSON number as gymlog's fixed point, to the thousandth (float dust rounded away).
    static func fixed(_ value: Double?) -> Fixed? {
        guard let value, value.isFinite, abs(value) < 1e9 else { return nil }
        return Fixed(thousandths: Int64((value * 1000).rounded()))
    }

    func read(_ source: any ImportByteSource, chunkSize: Int, into a: inout WorkoutAssembler) throws {
        var pages = try JSONPages(source, chunkSize: chunkSize)
        while let (line, bytes) = try pages.next() {
            let page: Page
            do {
                page = try JSONDecoder().decode(Page.self, from: Data(bytes))
            } catch let pageError {
                // The web app's list holds workouts, not pages: each element is one.
                if let web = try? JSONDecoder().decode(WebWorkout.self, from: Data(bytes)) {
                    try read(web.asAPI, line: line, into: &a)
                    continue
                }
                let error = pageError
                try a.row(line) { _ in throw ImportRowError("this page is not a page of Hevy's workouts (GET /v1/workouts): \(Self.why(error))") }
                continue
            }
            for workout in page.workouts { try read(workout, line: line, into: &a) }
        }
    }

    /// What a decoding error says, in a few words.
    static func why(_ error: any Error) -> String {
        guard let e = error as? DecodingError else { return "it is not JSON" }
        switch e {
        case .keyNotFound(let key, _): return "a value has no \"\(key.stringValue)\""
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
            let path = c.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? "it is not JSON" : "\(path) is not what Hevy writes there"
        @unknown default: return "it is not JSON"
        }
    }

    func read(_ w: Workout, line: Int, into a: inout WorkoutAssembler) throws {
        let label = "workout '\(w.title ?? "")' of \(w.start_time)"
        guard let start = NativeReader.instant(w.start_time) else {
            return try a.row(line) { _ in throw ImportRowError("\(label): start_time is not a time like 2024-08-14T12:00:00Z") }
        }
        var end: Int64?
        if let text = w.end_time {
            guard let e = NativeReader.instant(text) else {
                return try a.row(line) { _ in throw ImportRowError("\(label): end_time '\(text)' is not a time like 2024-08-14T13:00:00Z") }
            }
            end = e.millis
        }
        let key = w.start_time + "|" + (w.title ?? "")
        for exercise in w.exercises {
            let name = cleanName(exercise.title)
            for (n, set) in exercise.sets.enumerated() {
                try a.row(line) { a in
                    let setLabel = "\(label), \(name) set \(n + 1)"
                    guard !name.isEmpty else { throw ImportRowError("\(label): an exercise has no title") }
                    guard let kind = HevyReader.kind(set.type ?? "") else {
                        throw ImportRowError("\(setLabel): type '\(set.type ?? "")' is not normal, warmup, failure or dropset")
                    }
                    let weight = Self.fixed(set.weight_kg).flatMap { $0.isZero ? nil : Weight($0, .kg) }
                    var reps: Int?
                    if let r = set.reps {
                        guard r >= 0, r == r.rounded(), r < 1e6 else { throw ImportRowError("\(setLabel): reps \(r) is not a whole number") }
                        reps = Int(r)
                    }
                    let rpe = try Self.fixed(set.rpe).flatMap { try ImportValue.rpe("\($0)").get() }
                    let distance = Self.fixed(set.distance_meters).flatMap { $0.isZero ? nil : Distance($0, .m) }
                    let seconds = set.duration_seconds.map { Int($0.rounded()) }.flatMap { $0 == 0 ? nil : $0 }
                    let values = try a.values(kind: kind, weight: weight, reps: reps, rpe: rpe, duration: seconds, distance: distance,
                                              note: nil, loadLeftBlank: set.weight_kg == nil)
                    let slot = a.workout(line: line, instant: start.millis, name: nonEmpty(w.title ?? ""), key: key,
                                         note: nonEmpty(w.description ?? "")) { startedAt in
                        end.flatMap { $0 > start.millis ? startedAt + ($0 - start.millis) : nil }
                    }
                    if let notes = nonEmpty(exercise.notes ?? "") { a.addNote("\(name): \(notes)", to: slot) }
                    a.addSet(values, line: line, exerciseName: name, superset: exercise.superset_id.flatMap { a.superset("\($0)", in: slot) },
                             to: slot)
                }
            }
        }
    }
}

/// Cuts a JSON file into its pages as it streams: the file is one object (one page) or an
/// array of them. Only a page's bytes are held, and a page over `maxPageBytes` is refused:
/// the API's pages are small, so a bigger one is not a saved page.
struct JSONPages {
    var cursor: ByteCursor
    /// Whether the file is an array of pages (still inside it).
    var inArray = false
    var done = false

    static let maxPageBytes = 64 << 20

    init(_ source: any ImportByteSource, chunkSize: Int) throws {
        cursor = try ByteCursor(source, chunkSize: chunkSize)
        try cursor.skipSpace()
        if try cursor.peek() == UInt8(ascii: "[") { inArray = true; try cursor.advance() }
    }

    /// Whether the bytes begin (after a byte-order mark and white space) like a JSON text.
    static func looksLikeJSON(_ source: any ImportByteSource) throws -> Bool {
        var cursor = try ByteCursor(source, chunkSize: 4096)
        try cursor.skipSpace()
        let first = try cursor.peek()
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// The next page's bytes and the line it starts on; nil after the last.
    mutating func next() throws -> (line: Int, bytes: [UInt8])? {
        guard !done else { return nil }
        try cursor.skipSpace()
        if inArray {
            if try cursor.peek() == UInt8(ascii: ",") { try cursor.advance(); try cursor.skipSpace() }
            if try cursor.peek() == UInt8(ascii: "]") {
                try cursor.advance(); done = true
                try cursor.skipSpace()
                guard try cursor.peek() == nil else { throw trailing() }
                return nil
            }
        }
        guard let first = try cursor.peek() else {
            if inArray { throw UserError("The JSON file ends inside its list of pages (line \(cursor.line)): it was cut short; save it again.") }
            done = true
            return nil
        }
        guard first == UInt8(ascii: "{") else {
            throw UserError("Line \(cursor.line) of the JSON file has '\(Character(UnicodeScalar(first)))' where a page should start "
                            + "with '{': save the pages of GET /v1/workouts as they come, or as a list of them.")
        }
        let line = cursor.line
        var bytes: [UInt8] = [], depth = 0, inString = false, escaped = false
        while let b = try cursor.peek() {
            bytes.append(b)
            try cursor.advance()
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                depth += 1
            } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { break }
            }
            if bytes.count > Self.maxPageBytes {
                throw UserError("The page starting on line \(line) is over \(Self.maxPageBytes >> 20) MiB: that is not a page of Hevy's API; "
                                + "save the pages of GET /v1/workouts as they come.")
            }
        }
        guard depth == 0 else { throw UserError("The JSON page starting on line \(line) is never closed: the file was cut short; save it again.") }
        if !inArray {
            try cursor.skipSpace()
            guard try cursor.peek() == nil else { throw trailing() }
            done = true
        }
        return (line, bytes)
    }

    func trailing() -> UserError {
        UserError("Line \(cursor.line) of the JSON file has more after its pages: save one page, or a list of pages [{...},{...}].")
    }
}

/// Bytes of a source one at a time, with the line they are on.
struct ByteCursor {
    var source: any ImportByteSource
    let chunkSize: Int
    var buffer: [UInt8] = []
    var i = 0
    var line = 1

    init(_ source: any ImportByteSource, chunkSize: Int) throws {
        self.source = source
        self.chunkSize = max(1, chunkSize)
        _ = try fill()
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    mutating func fill() throws -> Bool {
        buffer.removeSubrange(0..<i)
        i = 0
        return try source.read(into: &buffer, count: chunkSize) > 0
    }

    mutating func peek() throws -> UInt8? {
        while i >= buffer.count { guard try fill() else { return nil } }
        return buffer[i]
    }

    mutating func advance() throws {
        if try peek() == 10 { line += 1 }
        i += 1
    }

    mutating func skipSpace() throws {
        while let b = try peek(), b == 32 || b == 9 || b == 10 || b == 13 { try advance() }
    }
}
