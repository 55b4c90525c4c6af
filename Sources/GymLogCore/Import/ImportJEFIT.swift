import Foundation

/// Reads JEFIT's "Export Data" file (`<User>_<YYYYMMDD>.csv`): sections, each opened by a
/// `### NAME ###…` banner and closed by a line of `#`, each with a CSV header of its own. Four
/// are read, in whatever order they come; the others (profile, routines, notes, …) are passed over:
///
/// - SETTING: `mass` is the lifter's unit (`" lbs"` or `" kg"`, with its leading space), the
///   unit of every packed load. Without it, loads are read in `--unit`, and said.
/// - WORKOUT SESSIONS: `_id`, `starttime` and `endtime` in epoch seconds (instants; older
///   files misspell `starttimie`).
/// - EXERCISE LOGS: one row per exercise per session (`belongsession`), the sets packed as
///   `"135x5,135x5"` (load x reps), cardio as `0x0.0,…,0x<seconds>`. A log whose session is not
///   in the file makes a workout of its day (`mydate`, at 12:00).
/// - EXERCISE SET LOGS (newer versions): one row per set of some logs (`exercise_log_id`,
///   `weight_lbs`, `reps`, `set_type` default or warm-up). A log's sets come from here when it
///   has any, else from its packed field, never both. `weight_lbs` is pounds whatever the
///   lifter's unit: for a kg lifter, a load that is a whole 0.05 kg to within the rounding of
///   the pounds written is stored in kg as typed; any other keeps its pounds as written.
///
/// The sections refer to each other by id, so `index` reads the file once before the rows
/// are read, keeping a few numbers per session and exercise log and nothing per set: memory
/// grows with the number of sessions and logs, never with the sets.
struct JEFITReader {
    static let settingTable = ColumnTable(.jefit, [ColumnRule(.weightUnit, "mass", required: true)])
    static let sessionTable = ColumnTable(.jefit, [
        ColumnRule(.id, "_id", required: true),
        ColumnRule(.start, "starttime", "starttimie", required: true),
        ColumnRule(.end, "endtime"),
    ])
    static let logTable = ColumnTable(.jefit, [
        ColumnRule(.id, "_id", required: true),
        ColumnRule(.session, "belongsession", required: true),
        ColumnRule(.exercise, "ename", required: true),
        ColumnRule(.packedSets, "logs", required: true),
        ColumnRule(.date, "mydate"),
    ])
    static let setLogTable = ColumnTable(.jefit, [
        ColumnRule(.exerciseLog, "exercise_log_id", required: true),
        ColumnRule(.weight, "weight_lbs", required: true),
        ColumnRule(.reps, "reps", required: true),
        ColumnRule(.setType, "set_type"),
    ])

    enum Section: String {
        case setting = "SETTING", sessions = "WORKOUT SESSIONS", logs = "EXERCISE LOGS", setLogs = "EXERCISE SET LOGS"

        var table: ColumnTable {
            switch self {
            case .setting: JEFITReader.settingTable
            case .sessions: JEFITReader.sessionTable
            case .logs: JEFITReader.logTable
            case .setLogs: JEFITReader.setLogTable
            }
        }
    }

    /// A row that is one line of `#`: a section's banner or the line closing it.
    static func isRule(_ fields: [String]) -> Bool {
        fields.count == 1 && fields[0].trimmingCharacters(in: .whitespaces).hasPrefix("###")
    }

    /// The name in a banner row (`### EXERCISE LOGS ###…` is `EXERCISE LOGS`); nil for a closing line.
    static func sectionName(_ fields: [String]) -> String? {
        guard isRule(fields) else { return nil }
        let name = fields[0].trimmingCharacters(in: CharacterSet(charactersIn: "# \t"))
        return name.isEmpty ? nil : name
    }

    /// Whether the file's first line is a section banner.
    static func looksLikeJEFIT(_ source: any ImportByteSource) throws -> Bool {
        var cursor = try ImportCSVCursor(source, delimiter: ",", chunkSize: 4096)
        return try cursor.next().flatMap { sectionName($0.fields) } != nil
    }

    /// The mass setting as a unit: `" lbs"`, `" kg"`.
    static func unit(_ text: String) throws -> WeightUnit {
        guard let unit = WeightUnit(importSpelling: Substring(text)) else {
            throw ImportRowError("mass '\(text)' is not lbs or kg")
        }
        return unit
    }

    // MARK: - The index

    /// A session's times: instants in milliseconds.
    struct Session { var start: Int64; var end: Int64? }

    /// An exercise log as the per-set rows need it: its session, its exercise (by number) and its day.
    struct Log { var session: Int; var name: Int; var day: String }

    /// What the sections say of each other, read before the rows: the unit, the sessions, and
    /// for each exercise log its session and exercise and whether it has per-set rows.
    struct Index {
        var unit: WeightUnit?
        var sessions: [Int: Session] = [:]
        var logs: [Int: Log] = [:]
        var names: [String] = []
        var nameNumbers: [String: Int] = [:]
        var logsWithSetRows = Set<Int>()

        /// Reads the file through once. Rows that cannot be read are passed over here: the
        /// reading of the rows names them.
        init(_ source: any ImportByteSource, chunkSize: Int) throws {
            var sections = try Sections(source, chunkSize: chunkSize)
            while let (section, columns) = try sections.next() {
                while let row = try sections.row() {
                    let f = ImportRow(fields: row, columns: columns)
                    switch section {
                    case .setting: unit = unit ?? (try? JEFITReader.unit(f[.weightUnit]))
                    case .sessions:
                        guard let id = Int(f[.id]), sessions[id] == nil, let session = try? JEFITReader.session(f) else { continue }
                        sessions[id] = session
                    case .logs:
                        guard let id = Int(f[.id]), logs[id] == nil, let session = Int(f[.session]) else { continue }
                        let name = cleanName(f[.exercise])
                        let number = nameNumbers[name] ?? names.count
                        if number == names.count { names.append(name); nameNumbers[name] = number }
                        logs[id] = Log(session: session, name: number, day: f[.date])
                    case .setLogs:
                        if let id = Int(f[.exerciseLog]) { logsWithSetRows.insert(id) }
                    }
                }
            }
        }
    }

    /// A session row's times; throws naming a start that is not epoch seconds.
    static func session(_ f: ImportRow) throws -> Session {
        guard let start = Int64(f[.start]), start > 0 else {
            throw ImportRowError("starttime '\(f[.start])' is not a time in seconds since 1970, like 1706696100")
        }
        guard let end = Int64(f[.end].isEmpty ? "0" : f[.end]) else {
            throw ImportRowError("endtime '\(f[.end])' is not a time in seconds since 1970, like 1706699700")
        }
        return Session(start: start * 1000, end: end > start ? end * 1000 : nil)
    }

    // MARK: - Reading

    func read(_ source: any ImportByteSource, chunkSize: Int, into a: inout WorkoutAssembler) throws {
        var source = source
        let index = try Index(source, chunkSize: chunkSize)
        try source.seek(to: 0)
        var sections = try Sections(source, chunkSize: chunkSize)
        while let (section, columns) = try sections.next() {
            try sections.readRows(columns: columns, into: &a) { a, line, f in
                switch section {
                case .setting: _ = try Self.unit(f[.weightUnit])
                case .sessions: _ = try Self.session(f)
                case .logs: try readLog(f, line: line, index: index, into: &a)
                case .setLogs: try readSetRow(f, line: line, index: index, into: &a)
                }
            }
        }
    }

    /// The workout of an exercise log: its session's, or (a session not in the file) its day's.
    func workout(session: Int, day: String, line: Int, index: Index, into a: inout WorkoutAssembler) throws -> Int {
        if let s = index.sessions[session] {
            return a.workout(line: line, instant: s.start, name: nil, key: "session \(session)", note: nil) { startedAt in
                s.end.map { startedAt + ($0 - s.start) }
            }
        }
        guard let local = ImportValue.localDateTimeOrNoon(day) else {
            throw ImportRowError("belongsession \(session) is not a session in the file and mydate '\(day)' is not a date like 2024-01-31")
        }
        return a.workout(line: line, local: local, name: nil, key: "day \(day)", note: nil) { _ in nil }
    }

    func readLog(_ f: ImportRow, line: Int, index: Index, into a: inout WorkoutAssembler) throws {
        guard let id = Int(f[.id]) else { throw ImportRowError("_id '\(f[.id])' is not a number") }
        guard let session = Int(f[.session]) else { throw ImportRowError("belongsession '\(f[.session])' is not a number") }
        let name = cleanName(f[.exercise])
        guard !name.isEmpty else { throw ImportRowError("ename is empty") }
        // Its sets are the per-set rows, read where they are; the packed field is not read.
        if index.logsWithSetRows.contains(id) { return }
        let packed = try Self.unpack(f[.packedSets])
        let unit = index.unit
        var sets: [RowSet?] = []
        switch packed {
        case .sets(let written):
            for (load, reps) in written {
                let weight = try ImportValue.weight(load, unit: unit, assumed: &a.assumedWeightUnit, fallback: a.options.weightUnit,
                                                    column: "logs")
                sets.append(try a.values(kind: .working, weight: weight, reps: reps, rpe: nil, duration: nil, distance: nil,
                                         note: nil, loadLeftBlank: false))
            }
        case .cardio(let seconds, let note):
            sets.append(try a.values(kind: .working, weight: nil, reps: nil, rpe: nil, duration: seconds, distance: nil,
                                     note: note, loadLeftBlank: true))
        }
        let workout = try workout(session: session, day: f[.date], line: line, index: index, into: &a)
        if sets.isEmpty { return a.ignore(line, .emptySet) }
        for set in sets { a.addSet(set, line: line, exerciseName: name, to: workout) }
    }

    func readSetRow(_ f: ImportRow, line: Int, index: Index, into a: inout WorkoutAssembler) throws {
        guard let id = Int(f[.exerciseLog]) else { throw ImportRowError("exercise_log_id '\(f[.exerciseLog])' is not a number") }
        guard let kind = f[.setType].lowercased() == "default" ? .working : HevyReader.kind(f[.setType]) else {
            throw ImportRowError("set_type '\(f[.setType])' is not default or warm-up")
        }
        let weight = try Self.load(f[.weight], lifterUnit: index.unit ?? a.options.weightUnit)
        let reps = try ImportValue.reps(f[.reps], column: "reps")
        let set = try a.values(kind: kind, weight: weight, reps: reps, rpe: nil, duration: nil, distance: nil, note: nil,
                               loadLeftBlank: false)
        guard let log = index.logs[id] else { return a.ignore(line, .noExerciseLog) }
        guard !index.names[log.name].isEmpty else { throw ImportRowError("its exercise log (_id \(id)) has no ename") }
        let workout = try workout(session: log.session, day: log.day, line: line, index: index, into: &a)
        a.addSet(set, line: line, exerciseName: index.names[log.name], to: workout)
    }

    /// A `weight_lbs` value: pounds as written, or for a kg lifter the kilograms typed when the
    /// pounds are a whole 0.05 kg to within the rounding of what is written. Nil when 0 or blank.
    static func load(_ text: String, lifterUnit: WeightUnit) throws -> Weight? {
        guard !text.isEmpty else { return nil }
        guard let pounds = ImportValue.number(text, signed: true), let exact = Double(text) else {
            throw ImportRowError("weight_lbs '\(text)' is not a number")
        }
        if pounds.isZero { return nil }
        if lifterUnit == .kg, let typed = ImportValue.typedLoad(exact * WeightUnit.kilogramsPerPound, in: .kg, within: 0.0025) {
            return typed
        }
        return Weight(pounds, .lb)
    }

    /// What a packed `logs` field holds: sets as load text and reps, or a cardio log.
    enum Packed {
        case sets([(load: String, reps: Int)])
        /// A cardio log's seconds (the last field), and the field as written when any other
        /// part of it is not zero (JEFIT does not name them), kept as the set's note.
        case cardio(seconds: Int?, note: String?)
    }

    /// Reads a packed `logs` field: `135x5,135x5` (empty parts passed over), or cardio, told
    /// by loads all 0 and a first part written `0x0.0`, which no set of reps is.
    static func unpack(_ text: String) throws -> Packed {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var pairs: [(load: String, count: String)] = []
        for part in parts {
            let halves = part.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard halves.count == 2, ImportValue.number(String(halves[0]), signed: true) != nil,
                  ImportValue.number(String(halves[1])) != nil else {
                throw ImportRowError("logs '\(text)': '\(part)' is not a set written load x reps, like 135x5")
            }
            pairs.append((String(halves[0]), String(halves[1])))
        }
        if let first = pairs.first, pairs.count > 1, first.count.contains("."), ImportValue.number(first.count)?.isZero == true,
           pairs.allSatisfy({ ImportValue.number($0.load, signed: true)?.isZero == true }) {
            let seconds = try ImportValue.wholeSeconds(pairs[pairs.count - 1].count, column: "logs")
            let others = pairs.dropLast().contains { ImportValue.number($0.count)?.isZero == false }
            return .cardio(seconds: seconds, note: others ? "JEFIT cardio log: \(text)" : nil)
        }
        return .sets(try pairs.map { pair in
            guard let reps = ImportValue.count(pair.count) else {
                throw ImportRowError("logs '\(text)': reps '\(pair.count)' is not a whole number")
            }
            return (pair.load, reps)
        })
    }
}

extension JEFITReader {
    /// The file as its sections: `next` moves to the next section gymlog reads (passing over
    /// the others and anything outside a section) and reads its header; its rows follow, up to
    /// the line that closes it.
    struct Sections {
        var cursor: ImportCSVCursor
        /// The banner or closing line that ended the last rows read, not yet acted on.
        var pending: (line: Int, fields: [String])?
        var inSection = false

        init(_ source: any ImportByteSource, chunkSize: Int) throws {
            cursor = try ImportCSVCursor(source, delimiter: ",", chunkSize: chunkSize)
        }

        mutating func nextRow() throws -> (line: Int, fields: [String])? {
            if let row = pending { pending = nil; return row }
            return try cursor.next()
        }

        /// The next section read, with its columns; nil at the end of the file.
        mutating func next() throws -> (Section, ImportColumns)? {
            while let row = try nextRow() {
                guard let name = JEFITReader.sectionName(row.fields) else { continue }
                guard let section = Section(rawValue: name.uppercased()) else { continue }
                guard let header = try nextRow() else { return nil }
                if JEFITReader.isRule(header.fields) { pending = header; continue }
                if let quote = cursor.unclosedQuote {
                    throw UserError("Line \(quote.line), the header of JEFIT's \(section.rawValue), opens a quoted field that is "
                                    + "never closed; close the quote with \" and import again.")
                }
                inSection = true
                return (section, try section.table.find(in: header.fields))
            }
            return nil
        }

        /// The next row of the section, nil after its last.
        mutating func row() throws -> [String]? {
            guard inSection, let row = try nextRow() else { return nil }
            if JEFITReader.isRule(row.fields) { pending = row; inSection = false; return nil }
            return row.fields
        }

        /// Reads the section's rows into the assembler, checked as every format's are.
        mutating func readRows(columns: ImportColumns, into a: inout WorkoutAssembler,
                               _ read: (inout WorkoutAssembler, Int, ImportRow) throws -> Void) throws {
            pending = try a.readRows(&cursor, columns: columns, until: JEFITReader.isRule, read)
            inSection = false
        }
    }
}
