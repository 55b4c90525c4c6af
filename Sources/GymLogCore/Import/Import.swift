import Foundation

// Reading other apps' exports (and gymlog's own) into one normalised model. Pure: the caller
// reads the file and supplies the time zone; nothing here touches the disk or the clock.

/// The apps whose CSV exports `gymlog import` reads.
public enum ImportSource: String, CaseIterable, Sendable {
    case strong, hevy, fitnotes, native

    /// The app's name as people write it.
    public var displayName: String {
        switch self {
        case .strong: "Strong"
        case .hevy: "Hevy"
        case .fitnotes: "FitNotes"
        case .native: "gymlog (native)"
        }
    }
}

/// How to read a file: which app wrote it (nil: detect), and what to assume where it is silent.
public struct ImportOptions: Sendable {
    /// The app that wrote the file; nil detects it from the header.
    public var source: ImportSource?
    /// The unit of weights in files that do not say (Strong's plain `Weight`).
    public var weightUnit: WeightUnit
    /// The UTC offset (seconds) in force at an instant (UTC milliseconds): times written without
    /// a zone are read as wall-clock times of this zone.
    public var utcOffset: @Sendable (Int64) -> Int

    public init(source: ImportSource? = nil, weightUnit: WeightUnit = .kg,
                utcOffset: @escaping @Sendable (Int64) -> Int = { _ in 0 }) {
        self.source = source; self.weightUnit = weightUnit; self.utcOffset = utcOffset
    }
}

/// An exercise named by an imported file; native files also carry its id.
public struct ImportedExercise: Equatable, Sendable {
    /// The name as written in the file, spaces collapsed.
    public var name: String
    /// The exercise's id (native files only).
    public var id: UUID?
    public init(name: String, id: UUID? = nil) { self.name = name; self.id = id }
}

/// One set read from a file, ready to store.
public struct ImportedSet: Equatable, Sendable {
    /// The line of the file the set's row starts on (1-based, the header is line 1).
    public var line: Int
    /// The file's own id (native) or one derived from the set's content, so a re-import finds it.
    public var id: UUID
    /// Index into `ImportedFile.exercises`.
    public var exercise: Int
    /// The set as stored: kind, load, reps, RPE, time, distance, note.
    public var values: SetValues
    /// Milliseconds since 1970 (UTC).
    public var performedAt: Int64
    public var utcOffsetSeconds: Int

    public init(line: Int, id: UUID, exercise: Int, values: SetValues, performedAt: Int64, utcOffsetSeconds: Int) {
        self.line = line; self.id = id; self.exercise = exercise; self.values = values
        self.performedAt = performedAt; self.utcOffsetSeconds = utcOffsetSeconds
    }
}

/// One workout read from a file with its sets in the order they were done.
public struct ImportedWorkout: Equatable, Sendable {
    /// The line of the workout's first row.
    public var line: Int
    /// The file's own id (native) or one derived from source, start and name.
    public var id: UUID
    public var name: String?
    public var startedAt: Int64
    public var endedAt: Int64?
    public var utcOffsetSeconds: Int
    public var note: String?
    public var sets: [ImportedSet]

    public init(line: Int, id: UUID, name: String?, startedAt: Int64, endedAt: Int64?, utcOffsetSeconds: Int,
                note: String?, sets: [ImportedSet] = []) {
        self.line = line; self.id = id; self.name = name; self.startedAt = startedAt; self.endedAt = endedAt
        self.utcOffsetSeconds = utcOffsetSeconds; self.note = note; self.sets = sets
    }
}

/// A row that was not imported, with the line it starts on and why.
public struct ImportProblem: Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var reason: String
    public init(line: Int, reason: String) { self.line = line; self.reason = reason }
    public var description: String { "line \(line): \(reason)" }
}

/// Everything read from one file: workouts, the exercises they name, and the rows left out.
public struct ImportedFile: Sendable {
    public var source: ImportSource
    /// The field separator found on the header line.
    public var delimiter: Character
    /// Oldest first.
    public var workouts: [ImportedWorkout]
    public var exercises: [ImportedExercise]
    /// Rows that are malformed: the import is refused unless the caller chose to skip them.
    public var badRows: [ImportProblem]
    /// Rows that are well-formed but are not sets (rest timers, empty sets): always left out.
    public var ignoredRows: [ImportProblem]
    /// The weight unit assumed because the file did not say; nil when every weight had a unit.
    public var assumedWeightUnit: WeightUnit?
    /// The distance unit assumed because the file did not say.
    public var assumedDistanceUnit: DistanceUnit?

    /// Sets across all workouts.
    public var setCount: Int { workouts.reduce(0) { $0 + $1.sets.count } }
}

extension ImportSource {
    /// The app that wrote a CSV file with this header, or nil when it is none gymlog knows.
    public static func detect(header fields: [String]) -> ImportSource? {
        let names = fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let set = Set(names)
        if names == ExportFormat.nativeHeader { return .native }
        if set.isSuperset(of: ["title", "start_time", "exercise_title"]) { return .hevy }
        if names.count >= 3, names[0] == "date", names[1] == "exercise", names[2] == "category" { return .fitnotes }
        if set.isSuperset(of: ["date", "exercise name", "set order"]) { return .strong }
        return nil
    }
}

/// Reads exports of Strong, Hevy, FitNotes and gymlog itself into `ImportedFile`.
public enum ImportParser {
    /// Parses a whole file. Malformed rows are collected in `badRows` (every one, with its
    /// line), never thrown; a file whose header cannot be read at all throws `UserError`.
    public static func parse(_ bytes: [UInt8], options: ImportOptions) throws -> ImportedFile {
        var cursor = ImportCSVCursor(bytes, delimiter: nil)
        guard let header = cursor.next() else {
            throw UserError("The file is empty: there is no header line to tell which app wrote it.")
        }
        let detected = ImportSource.detect(header: header.fields)
        let source: ImportSource
        if let chosen = options.source {
            source = chosen
        } else if let detected {
            source = detected
        } else {
            let shown = header.fields.prefix(6).joined(separator: String(cursor.delimiterCharacter))
            throw UserError("Cannot tell which app wrote this file from its header '\(shown)'. Pass --from strong, hevy, fitnotes or native.")
        }
        var assembler = WorkoutAssembler(source: source, options: options)
        switch source {
        case .strong: try StrongReader(header: header.fields, delimiter: cursor.delimiterCharacter).read(&cursor, into: &assembler)
        case .hevy: try HevyReader(header: header.fields).read(&cursor, into: &assembler)
        case .fitnotes: try FitNotesReader(header: header.fields).read(&cursor, into: &assembler)
        case .native: try NativeReader(header: header.fields).read(&cursor, into: &assembler)
        }
        return assembler.finish(delimiter: cursor.delimiterCharacter)
    }
}

// MARK: - Assembling workouts

/// A set as a reader found it, before ids and times are settled.
struct PendingSet {
    var line: Int
    var id: UUID?
    var exercise: Int
    var values: SetValues
    var performedAt: Int64?
    var utcOffsetSeconds: Int?
}

/// Groups rows into workouts (in order of first appearance) and exercises (by name or id),
/// then gives every set its id and time.
struct WorkoutAssembler {
    let source: ImportSource
    let options: ImportOptions
    var workouts: [ImportedWorkout] = []
    var pending: [[PendingSet]] = []
    var notes: [[String]] = []
    var workoutIndex: [String: Int] = [:]
    var exercises: [ImportedExercise] = []
    var exerciseIndex: [String: Int] = [:]
    var badRows: [ImportProblem] = []
    var ignoredRows: [ImportProblem] = []
    var assumedWeightUnit: WeightUnit?
    var assumedDistanceUnit: DistanceUnit?

    init(source: ImportSource, options: ImportOptions) { self.source = source; self.options = options }

    mutating func bad(_ line: Int, _ reason: String) { badRows.append(ImportProblem(line: line, reason: reason)) }
    mutating func ignore(_ line: Int, _ reason: String) { ignoredRows.append(ImportProblem(line: line, reason: reason)) }

    /// The workout for `key`, made by `make` the first time the key is seen.
    mutating func workout(key: String, _ make: () -> ImportedWorkout) -> Int {
        if let i = workoutIndex[key] { return i }
        workouts.append(make())
        pending.append([])
        notes.append([])
        workoutIndex[key] = workouts.count - 1
        return workouts.count - 1
    }

    /// The exercise called `name` (or with `id`), added the first time it is seen.
    mutating func exercise(named name: String, id: UUID? = nil) -> Int {
        let name = ControlCharacters.cleaned(name, lineBreaks: false)
        let key = id.map { "id:" + $0.uuidString.lowercased() } ?? nameKey(name)
        if let i = exerciseIndex[key] { return i }
        exercises.append(ImportedExercise(name: name, id: id))
        exerciseIndex[key] = exercises.count - 1
        return exercises.count - 1
    }

    mutating func add(_ set: PendingSet, to workout: Int) { pending[workout].append(set) }

    /// Adds a line to a workout's note once (exercise notes repeat on every row in some apps).
    mutating func addNote(_ text: String, to workout: Int) {
        let clean = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !clean.isEmpty, !notes[workout].contains(clean) else { return }
        notes[workout].append(clean)
    }

    /// Settles ids and times; workouts that ended up with no set are dropped.
    func finish(delimiter: Character) -> ImportedFile {
        var out: [ImportedWorkout] = []
        out.reserveCapacity(workouts.count)
        for (w, sets) in zip(workouts.indices, pending) where !sets.isEmpty {
            var workout = workouts[w]
            if !notes[w].isEmpty {
                workout.note = ([workout.note].compactMap { $0 } + notes[w]).joined(separator: "\n")
            }
            // Other apps keep whatever was typed; gymlog stores no control characters (a
            // Windows line break becomes a line feed, an Escape is dropped).
            workout.name = workout.name.map { ControlCharacters.cleaned($0, lineBreaks: false) }
            workout.note = workout.note.map { ControlCharacters.cleaned($0, lineBreaks: true) }
            workout.sets = settle(sets, in: workout)
            for i in workout.sets.indices {
                workout.sets[i].values.note = workout.sets[i].values.note.map { ControlCharacters.cleaned($0, lineBreaks: true) }
            }
            if workout.endedAt == nil && source != .native { workout.endedAt = workout.sets.last?.performedAt }
            out.append(workout)
        }
        out.sort { ($0.startedAt, $0.line) < ($1.startedAt, $1.line) }
        return ImportedFile(source: source, delimiter: delimiter, workouts: out, exercises: exercises, badRows: badRows,
                            ignoredRows: ignoredRows, assumedWeightUnit: assumedWeightUnit,
                            assumedDistanceUnit: assumedDistanceUnit)
    }

    /// Native sets keep their ids and times (nudged 1 ms apart where the export's whole seconds
    /// made them equal, so they keep their order); the others get times spread over the
    /// workout and ids derived from the workout, the exercise, its position and the values.
    func settle(_ sets: [PendingSet], in workout: ImportedWorkout) -> [ImportedSet] {
        var result: [ImportedSet] = []
        result.reserveCapacity(sets.count)
        var lastTime: [Int: Int64] = [:]
        var position: [Int: Int] = [:]
        let n = Int64(sets.count)
        let span = workout.endedAt.map { max(0, $0 - workout.startedAt) }
        var previous = Int64.min
        for (i, s) in sets.enumerated() {
            if let id = s.id, let at = s.performedAt {
                let time = max(at, (lastTime[s.exercise] ?? Int64.min) &+ 1)
                lastTime[s.exercise] = time
                result.append(ImportedSet(line: s.line, id: id, exercise: s.exercise, values: s.values, performedAt: time,
                                          utcOffsetSeconds: s.utcOffsetSeconds ?? workout.utcOffsetSeconds))
                continue
            }
            var time: Int64
            if let span, span > 0 {
                time = workout.startedAt + span * Int64(i) / n
            } else {
                time = workout.startedAt + Int64(i) * 60_000
            }
            time = max(time, previous &+ 1)
            previous = time
            let p = (position[s.exercise] ?? 0) + 1
            position[s.exercise] = p
            let key = workout.id.uuidString.lowercased() + "|" + nameKey(exercises[s.exercise].name) + "|\(p)|" + canonicalValues(s.values)
            result.append(ImportedSet(line: s.line, id: derivedID(namespace: "import-set", key: key), exercise: s.exercise,
                                      values: s.values, performedAt: time, utcOffsetSeconds: workout.utcOffsetSeconds))
        }
        return result
    }

    /// The id of a workout from another app: its source, local start and name, so the same
    /// workout in a later, overlapping export (or read with another --timezone) is the same row.
    func workoutID(localStart: Int64, name: String?) -> UUID {
        derivedID(namespace: "import-workout", key: "\(source.rawValue)|\(localStart)|\(name ?? "")")
    }

    /// Builds the stored values of a set from the numbers of a row; reps without a load are a
    /// bodyweight set. Nil when the row holds no number at all.
    func values(kind: SetKind, weight: Weight?, reps: Int?, rpe: Fixed?, duration: Int?, distance: Distance?,
                note: String?) -> SetValues? {
        guard weight != nil || reps != nil || duration != nil || distance != nil else { return nil }
        var v = SetValues(kind: kind, weight: weight, reps: reps, rpe: rpe, durationSeconds: duration,
                          distance: distance, note: note)
        if let w = weight, w.value.thousandths < 0 {
            v.bodyweight = true  // a negative load is an assisted bodyweight set
        } else if weight == nil && reps != nil {
            v.bodyweight = true
        }
        return v
    }

    /// Wall-clock `local` (milliseconds as if UTC) in the chosen zone: the instant and its offset.
    func instant(local: Int64) -> (millis: Int64, offset: Int) {
        utcInstant(local: local, offsetAt: options.utcOffset)
    }
}

/// The instant whose wall-clock time is `local` (milliseconds as if UTC) in a zone described
/// by `offsetAt` (UTC millis -> offset seconds), with that offset. A wall time skipped by a
/// daylight-saving jump lands one offset-step later; a repeated one takes the first.
public func utcInstant(local: Int64, offsetAt: (Int64) -> Int) -> (millis: Int64, offset: Int) {
    let first = offsetAt(local)
    let guess = local - Int64(first) * 1000
    let second = offsetAt(guess)
    if second == first { return (guess, first) }
    let retry = local - Int64(second) * 1000
    let third = offsetAt(retry)
    return third == second ? (retry, second) : (guess, first)
}

/// The parts of a set that identify it in a derived id (the note is left out, so a note
/// edited in the other app does not make the set new).
func canonicalValues(_ v: SetValues) -> String {
    var s = v.kind.rawValue
    s += "|" + (v.weight.map { "\($0.value)\($0.unit.rawValue)" } ?? "")
    s += v.bodyweight ? "|bw" : "|"
    s += "|" + (v.reps.map(String.init) ?? "")
    s += "|" + (v.rpe.map { $0.description } ?? "")
    s += "|" + (v.durationSeconds.map(String.init) ?? "")
    s += "|" + (v.distance.map { "\($0.value)\($0.unit.rawValue)" } ?? "")
    return s
}

// MARK: - Header columns

/// Finds columns by name (case-insensitive, surrounding spaces ignored).
struct ImportColumns {
    let names: [String]
    init(_ header: [String]) { names = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } }

    /// The index of the first column whose name is one of `candidates`.
    func index(_ candidates: String...) -> Int? {
        for c in candidates { if let i = names.firstIndex(of: c) { return i } }
        return nil
    }

    /// The index of a column the format cannot do without.
    func required(_ name: String, in source: ImportSource) throws -> Int {
        guard let i = names.firstIndex(of: name.lowercased()) else {
            throw UserError("This \(source.displayName) file has no '\(name)' column; check that it is an unmodified export, or pass the right --from.")
        }
        return i
    }
}

extension Array where Element == String {
    /// The trimmed field at `index`, "" when the column is absent.
    func field(_ index: Int?) -> String {
        guard let index, index < count else { return "" }
        return self[index].trimmingCharacters(in: .whitespaces)
    }
}

// MARK: - Values

/// Readers of the numbers, units and times found in exports.
enum ImportValue {
    /// A decimal as exported: `100`, `102.5`, `8.0`, float noise like `149.99999999999997`
    /// rounded to the nearest thousandth (what a person typed), a decimal comma when the file
    /// is semicolon-separated. Nil for anything else.
    static func number(_ text: String, decimalComma: Bool = false, signed: Bool = false) -> Fixed? {
        var bytes = Array(text.utf8)
        var negative = false
        if signed, bytes.first == UInt8(ascii: "-") { negative = true; bytes.removeFirst() }
        guard !bytes.isEmpty, bytes.count <= 40 else { return nil }
        var whole: Int64 = 0, fraction: Int64 = 0, fractionDigits = 0, digits = 0
        var seenPoint = false, roundUp = false
        for b in bytes {
            if b == UInt8(ascii: ".") || (decimalComma && b == UInt8(ascii: ",")) {
                if seenPoint { return nil }
                seenPoint = true
            } else if b >= 48 && b <= 57 {
                digits += 1
                if seenPoint {
                    fractionDigits += 1
                    if fractionDigits <= 3 {
                        fraction = fraction * 10 + Int64(b - 48)
                    } else if fractionDigits == 4 {
                        roundUp = b >= 53
                    }
                } else {
                    guard whole < 1_000_000_000 else { return nil }
                    whole = whole * 10 + Int64(b - 48)
                }
            } else {
                return nil
            }
        }
        guard digits > 0 else { return nil }
        for _ in min(fractionDigits, 3)..<3 { fraction *= 10 }
        var thousandths = whole * 1000 + fraction
        if roundUp { thousandths += 1 }
        return Fixed(thousandths: negative ? -thousandths : thousandths)
    }

    /// A count written as `8` or `8.0`; nil for fractions, signs or text.
    static func count(_ text: String) -> Int? {
        guard let f = number(text), f.thousandths % 1000 == 0, f.thousandths < 1_000_000_000 else { return nil }
        return Int(f.thousandths / 1000)
    }

    /// A duration: plain seconds (`95`, `95.0`), `55s`, `38min`, `1h 18m`, `1h 5m 3s`,
    /// `7:41` (M:SS) or `1:02:03` (H:MM:SS).
    static func duration(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !t.isEmpty else { return nil }
        if let n = count(t) { return n }
        if t.contains(":") {
            let parts = t.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 || parts.count == 3 else { return nil }
            var total = 0
            for (i, p) in parts.enumerated() {
                guard let n = Int(p), n >= 0, i == 0 || (p.count == 2 && n < 60) else { return nil }
                total = total * 60 + n
            }
            return total
        }
        var total = 0, number: Int?, sawUnit = false
        var i = t.startIndex
        while i < t.endIndex {
            let c = t[i]
            if c == " " { i = t.index(after: i); continue }
            if let d = c.wholeNumberValue, c.isASCII {
                guard number ?? 0 < 100_000_000 else { return nil }
                number = (number ?? 0) * 10 + d
                i = t.index(after: i)
                continue
            }
            guard let n = number else { return nil }
            var unit = ""
            while i < t.endIndex, t[i].isLetter { unit.append(t[i]); i = t.index(after: i) }
            switch unit {
            case "h", "hr", "hrs", "hour", "hours": total += n * 3600
            case "m", "min", "mins", "minute", "minutes": total += n * 60
            case "s", "sec", "secs", "second", "seconds": total += n
            default: return nil
            }
            number = nil
            sawUnit = true
        }
        guard sawUnit, number == nil else { return nil }
        return total
    }

    /// `2024-01-31 10:15:00`, `2024-01-31 10:15`, `2024-01-31T10:15:00` or `2024-01-31`
    /// as wall-clock milliseconds (as if UTC).
    static func localDateTime(_ text: String) -> Int64? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.utf8.count >= 10, let day = parseDay(String(t.prefix(10))) else { return nil }
        let base = epochMillis(year: day.year, month: day.month, day: day.day, utcOffsetSeconds: 0)
        let rest = t.dropFirst(10)
        if rest.isEmpty { return base }
        guard rest.first == " " || rest.first == "T", let clock = timeOfDay(String(rest.dropFirst())) else { return nil }
        return base + Int64(clock) * 1000
    }

    /// `07:48`, `7:48` or `07:48:05` as seconds after midnight.
    static func timeOfDay(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var values: [Int] = []
        for (i, p) in parts.enumerated() {
            guard !p.isEmpty, p.count <= 2, p.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(p),
                  i == 0 || p.count == 2 else { return nil }
            values.append(n)
        }
        guard values[0] < 24, values[1] < 60, values.count == 2 || values[2] < 60 else { return nil }
        return values[0] * 3600 + values[1] * 60 + (values.count == 3 ? values[2] : 0)
    }

    /// An RPE between 1 and 10 (0 or empty means none).
    static func rpe(_ text: String, decimalComma: Bool = false) -> Result<Fixed?, ImportRowError> {
        guard !text.isEmpty else { return .success(nil) }
        guard let f = number(text, decimalComma: decimalComma) else { return .failure(.init("RPE '\(text)' is not a number")) }
        if f.isZero { return .success(nil) }
        guard f >= Fixed(1), f <= Fixed(10) else { return .failure(.init("RPE '\(text)' is not between 1 and 10")) }
        return .success(f)
    }
}

/// Why one row could not be read.
struct ImportRowError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

extension ImportValue {
    /// A load: empty or 0 is none; the unit is the column's, the row's, or the assumed one.
    static func weight(_ text: String, unit: WeightUnit?, decimalComma: Bool = false,
                       assumed: inout WeightUnit?, fallback: WeightUnit, column: String = "Weight") throws -> Weight? {
        guard !text.isEmpty else { return nil }
        guard let value = number(text, decimalComma: decimalComma, signed: true) else {
            throw ImportRowError("\(column) '\(text)' is not a number")
        }
        if value.isZero { return nil }
        if let unit { return Weight(value, unit) }
        assumed = fallback
        return Weight(value, fallback)
    }

    static func weightUnit(_ text: String) throws -> WeightUnit? {
        guard !text.isEmpty else { return nil }
        guard let unit = WeightUnit(spelling: Substring(text)) else {
            throw ImportRowError("weight unit '\(text)' is not kg or lbs")
        }
        return unit
    }

    static func distanceUnit(_ text: String) throws -> DistanceUnit? {
        guard !text.isEmpty else { return nil }
        switch text.lowercased() {
        case "kms", "kilometers", "kilometres": return .km
        case "meters", "metres": return .m
        default: break
        }
        guard let unit = DistanceUnit(spelling: Substring(text)) else {
            throw ImportRowError("distance unit '\(text)' is not m, km, mi or yd")
        }
        return unit
    }

    static func distance(_ text: String, unit: DistanceUnit?, decimalComma: Bool = false,
                         assumed: inout DistanceUnit?, fallback: DistanceUnit) throws -> Distance? {
        guard !text.isEmpty else { return nil }
        guard let value = number(text, decimalComma: decimalComma) else { throw ImportRowError("Distance '\(text)' is not a number") }
        if value.isZero { return nil }
        if let unit { return Distance(value, unit) }
        assumed = fallback
        return Distance(value, fallback)
    }

    static func reps(_ text: String, column: String = "Reps") throws -> Int? {
        guard !text.isEmpty else { return nil }
        guard let n = count(text) else { throw ImportRowError("\(column) '\(text)' is not a whole number") }
        return n == 0 ? nil : n
    }

    static func seconds(_ text: String, column: String) throws -> Int? {
        guard !text.isEmpty else { return nil }
        guard let n = duration(text) else { throw ImportRowError("\(column) '\(text)' is not a duration like 95, 55s, 38min or 1h 18m") }
        return n == 0 ? nil : n
    }
}

/// The name as written, with runs of spaces collapsed (newlines in a name become spaces).
func cleanName(_ text: String) -> String {
    text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
}

/// Text that is nil when empty.
func nonEmpty(_ text: String) -> String? {
    let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return t.isEmpty ? nil : t
}

// MARK: - CSV rows with line numbers

/// Reads CSV one row at a time with the line it starts on, for error messages that point
/// into the file. Same rules as `CSVReader` (BOM dropped, blank lines skipped, quoted fields
/// may span lines, the last row needs no line break); the delimiter is guessed from the
/// header line when not given.
public struct ImportCSVCursor {
    let bytes: [UInt8]
    var i = 0
    var line = 1
    /// The field separator in use.
    public private(set) var delimiter: UInt8

    public init(_ bytes: [UInt8], delimiter: Character?) {
        self.bytes = bytes
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        if let delimiter {
            self.delimiter = delimiter.asciiValue ?? UInt8(ascii: ",")
        } else {
            let firstLine = bytes[i...].prefix(4096)
            let guess = CSVReader.guessDelimiter(String(decoding: firstLine, as: UTF8.self))
            self.delimiter = guess.asciiValue ?? UInt8(ascii: ",")
        }
    }

    public var delimiterCharacter: Character { Character(UnicodeScalar(delimiter)) }

    /// The next non-blank row and the line it starts on; nil at the end.
    public mutating func next() -> (line: Int, fields: [String])? {
        let n = bytes.count
        while i < n {
            // Blank lines are skipped.
            if bytes[i] == 10 { line += 1; i += 1; continue }
            if bytes[i] == 13 { line += 1; i += (i + 1 < n && bytes[i + 1] == 10) ? 2 : 1; continue }
            break
        }
        guard i < n else { return nil }
        let start = line
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false, inQuotes = false
        while i < n {
            let b = bytes[i]
            if inQuotes {
                if b == UInt8(ascii: "\"") {
                    if i + 1 < n && bytes[i + 1] == UInt8(ascii: "\"") { field.append(b); i += 2; continue }
                    inQuotes = false
                } else {
                    if b == 10 || (b == 13 && !(i + 1 < n && bytes[i + 1] == 10)) { line += 1 }
                    field.append(b)
                }
                i += 1
                continue
            }
            if b == UInt8(ascii: "\"") && field.isEmpty && !quoted {
                quoted = true; inQuotes = true; i += 1
            } else if b == delimiter {
                fields.append(String(decoding: field, as: UTF8.self)); field.removeAll(keepingCapacity: true)
                quoted = false; i += 1
            } else if b == 10 || b == 13 {
                i += (b == 13 && i + 1 < n && bytes[i + 1] == 10) ? 2 : 1
                line += 1
                break
            } else {
                field.append(b); i += 1
            }
        }
        fields.append(String(decoding: field, as: UTF8.self))
        return (start, fields)
    }
}
