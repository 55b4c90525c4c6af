import Foundation

// Reading other apps' exports (and gymlog's own) into one normalised model. Pure: the caller
// supplies the bytes (an `ImportByteSource`) and the time zone; nothing here opens a file or
// reads the clock.

/// The apps whose exports `gymlog import` reads.
public enum ImportSource: String, CaseIterable, Sendable {
    case strong, hevy
    case hevyJSON = "hevy-json"
    case alphaProgression = "alpha-progression"
    case gymbook, gymrun
    case fitnotes, fitbod, liftosaur, lyfta, repcount, jefit, stronglifts
    case native

    /// Every `--from` value, as a sentence: `strong, hevy, ... or native`.
    public static var spelledList: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The app's name as people write it.
    public var displayName: String {
        switch self {
        case .strong: "Strong"
        case .hevy: "Hevy"
        case .fitnotes: "FitNotes"
        case .native: "gymlog (native)"
        case .fitbod: "Fitbod"
        case .hevyJSON: "Hevy (API JSON)"
        case .liftosaur: "Liftosaur"
        case .lyfta: "Lyfta"
        case .repcount: "RepCount"
        case .jefit: "JEFIT"
        case .stronglifts: "StrongLifts 5x5"
        case .alphaProgression: "Alpha Progression"
        case .gymbook: "GymBook"
        case .gymrun: "GymRun"
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
    /// The day-month order of dates written with slashes; nil tells it from the dates.
    public var dateOrder: DateOrder?
    /// The second pass reads the dates as the first settled them (`dateOrder`, nil for none),
    /// without looking at them again.
    var dateOrderSettled = false
    /// All or nothing: reading stops at the first row that cannot be read (`--strict`).
    public var strict = false

    public init(source: ImportSource? = nil, weightUnit: WeightUnit = .kg,
                utcOffset: @escaping @Sendable (Int64) -> Int = { _ in 0 }, dateOrder: DateOrder? = nil) {
        self.source = source; self.weightUnit = weightUnit; self.utcOffset = utcOffset; self.dateOrder = dateOrder
    }
}

/// An exercise named by an imported file; native files also carry its id and aliases.
public struct ImportedExercise: Equatable, Sendable {
    /// The name as written in the file, spaces collapsed.
    public var name: String
    /// The exercise's id (native files only).
    public var id: UUID?
    /// Its other names (native files only), each once, in the order first met.
    public var aliases: [String]
    /// Its catalog fields as the file stores them (native files only; none: linked from its name).
    public var link = ExerciseLinkFields()
    public init(name: String, id: UUID? = nil, aliases: [String] = []) { self.name = name; self.id = id; self.aliases = aliases }
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
    /// The superset it was done in: the native file's own id, or (Hevy) one derived from the
    /// workout and the file's group number, so a re-import gives the same.
    public var supersetID: UUID?

    public init(line: Int, id: UUID, exercise: Int, values: SetValues, performedAt: Int64, utcOffsetSeconds: Int,
                supersetID: UUID? = nil) {
        self.line = line; self.id = id; self.exercise = exercise; self.values = values
        self.performedAt = performedAt; self.utcOffsetSeconds = utcOffsetSeconds; self.supersetID = supersetID
    }
}

/// One workout read from a file with its sets in the order they were done: a `Workout`
/// (read through, `imported.startedAt`) with the line it came from and its sets.
@dynamicMemberLookup
public struct ImportedWorkout: Equatable, Sendable {
    /// The line of the workout's first row.
    public var line: Int
    /// Its id is the file's own (native) or one derived from source, start and name.
    public var workout: Workout
    public var sets: [ImportedSet]

    public init(line: Int, id: UUID, name: String?, startedAt: Int64, endedAt: Int64?, utcOffsetSeconds: Int,
                note: String?, sets: [ImportedSet] = []) {
        self.line = line
        workout = Workout(id: id, name: name, startedAt: startedAt, endedAt: endedAt, utcOffsetSeconds: utcOffsetSeconds, note: note)
        self.sets = sets
    }

    public subscript<Value>(dynamicMember field: WritableKeyPath<Workout, Value>) -> Value {
        get { workout[keyPath: field] }
        set { workout[keyPath: field] = newValue }
    }
}

extension ImportedWorkout {
    /// The workout with every id it carries (its own, its sets' and their supersets') passed
    /// through `map`: how a database stores the ids an import derives (keyed, for an account
    /// encrypted end to end).
    public func mappingIDs(_ map: (UUID) -> UUID) -> ImportedWorkout {
        var mapped = self
        mapped.workout.id = map(workout.id)
        for i in mapped.sets.indices {
            mapped.sets[i].id = map(sets[i].id)
            mapped.sets[i].supersetID = sets[i].supersetID.map(map)
        }
        return mapped
    }
}

/// A row that was not imported, with the line it starts on and why.
public struct ImportProblem: Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var reason: String
    /// Where the row is in the file (a CSV row), so it can be copied as written to the rejects file.
    public var bytes: Range<Int>?
    public init(line: Int, reason: String, bytes: Range<Int>? = nil) { self.line = line; self.reason = reason; self.bytes = bytes }
    public var description: String { "line \(line): \(reason)" }
    /// The same problem on the same line (where its bytes are is bookkeeping).
    public static func == (a: Self, b: Self) -> Bool { a.line == b.line && a.reason == b.reason }
}

/// A row whose text was mended to be read (`ImportCSVCursor.TextMend`): imported, and said.
public struct ImportMendedRow: Equatable, Sendable {
    public var line: Int
    public var mends: Set<ImportCSVCursor.TextMend>
}

/// Why a well-formed row was left out rather than read as a set.
public enum LeftOutReason: String, CaseIterable, Sendable {
    /// A set added in the app and never filled in: no load, reps, distance, time or note.
    case emptySet
    /// Strong's rest-timer rows.
    case restTimer
    /// Strong's note rows with no text.
    case emptyNote
    /// A set the plan held and the lifter did not do (Liftosaur: nothing completed).
    case notDone
    /// JEFIT's per-set rows of an exercise log the file does not have (one deleted in the app).
    case noExerciseLog

    /// `count` rows left out for this reason, named for the summary: `2 empty sets (never filled in)`.
    public func counted(_ count: Int) -> String {
        let s = count == 1 ? "" : "s"
        switch self {
        case .emptySet: return "\(count) empty set\(s) (never filled in)"
        case .restTimer: return "\(count) rest-timer row\(s)"
        case .emptyNote: return "\(count) empty note row\(s)"
        case .notDone: return "\(count) planned set\(s) not done"
        case .noExerciseLog: return "\(count) set row\(s) of an exercise log not in the file"
        }
    }
}

/// A well-formed row that is not a set, with the line it starts on.
public struct LeftOutRow: Equatable, Sendable {
    public var line: Int
    public var reason: LeftOutReason
    public init(line: Int, reason: LeftOutReason) { self.line = line; self.reason = reason }
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
    public var ignoredRows: [LeftOutRow]
    /// The weight unit assumed because the file did not say; nil when every weight had a unit.
    public var assumedWeightUnit: WeightUnit?
    /// The distance unit assumed because the file did not say.
    public var assumedDistanceUnit: DistanceUnit?
    /// Workouts whose duration was over a day (a timer left running), each with its first
    /// line and the duration written: read as ending at their last set.
    public var cappedDurations: [ImportProblem] = []
    /// The day-month order the file's slash-written dates were read in; nil when it has none.
    public var dateOrder: DateOrder?
    /// Rows whose text was mended (not UTF-8, NUL bytes), with their lines.
    public var mendedRows: [ImportMendedRow] = []
    /// Rows read with something the row lacked supplied (an exercise name), with why.
    public var warnings: [ImportProblem] = []
    /// The header's bytes (a table read by its columns): the first line of a rejects file,
    /// which makes the rejected rows a file of the source's own layout. Nil for layouts that
    /// are not one table (JSON, JEFIT's sections, Alpha Progression's blocks).
    public var headerBytes: Range<Int>?
    /// How the layout was told (a header that names no app's columns read by its shape); nil
    /// when the header named it.
    public var detectedBy: String?
    /// Bodyweight entries (native files, and RepCount's bodyweight on every row), in file order.
    public var bodyweights: [BodyweightEntry] = []
    /// Routines (native files), in file order.
    public var routines: [RoutineRecord] = []
    /// Sets across all workouts (counted by the first pass, before any workout is assembled).
    public var setCount = 0
    /// For the second pass: how many rows each workout has, by a hash of its key.
    var workoutRows: [Int: Int] = [:]
    /// How each exercise's sets are read, decided from all of them and the exercise's name:
    /// the kind a new exercise gets, and what a bare load means on it.
    public var exerciseKinds: [ImportedKind] = []
    /// Each exercise's place when the exercises are ordered by their first set, oldest workout
    /// first: the order the summary names new exercises in, whatever order they are written in.
    public var exerciseRanks: [Int] = []
}

extension ImportedFile {
    /// The file with every id it carries passed through `map` (see `ImportedWorkout.mappingIDs`).
    public func mappingIDs(_ map: (UUID) -> UUID) -> ImportedFile {
        var mapped = self
        mapped.workouts = workouts.map { $0.mappingIDs(map) }
        for i in mapped.exercises.indices { mapped.exercises[i].id = exercises[i].id.map(map) }
        for i in mapped.bodyweights.indices { mapped.bodyweights[i].id = map(bodyweights[i].id) }
        return mapped
    }
}

extension ImportSource {
    /// Whether the app names lifts otherwise than Strong (`Barbell Bench Press`): its names are
    /// brought to Strong's (`ExerciseSpellings`). Strong, Hevy and gymlog write that form, and
    /// FitNotes names were imported as written before the table existed, so they stay so.
    var spellsExercisesItsOwnWay: Bool {
        switch self {
        case .strong, .hevy, .fitnotes, .native, .hevyJSON: false
        case .fitbod, .liftosaur, .lyfta, .repcount: true
        case .jefit, .stronglifts: true
        case .alphaProgression: true
        case .gymbook, .gymrun: true
        }
    }

    /// The column of dates a file of this app may write in the phone's way (`31/01/2024`,
    /// `15 sept. 2025`), whose day-month order `ImportParser.dateOrder` settles; nil for apps
    /// that write ISO dates or instants.
    var localeDateField: ImportField? {
        switch self {
        case .strong, .gymbook, .gymrun, .stronglifts: .date
        case .hevy: .start
        default: nil
        }
    }

    /// The format's column table (native files are read by position).
    var table: ColumnTable? {
        switch self {
        case .strong: StrongReader.table
        case .hevy: HevyReader.table
        case .fitnotes: FitNotesReader.table
        case .native, .hevyJSON: nil
        case .fitbod: FitbodReader.table
        case .liftosaur: LiftosaurReader.table
        case .lyfta: LyftaReader.table
        case .repcount: RepCountReader.table
        case .jefit: nil
        case .stronglifts: StrongLiftsReader.table
        case .alphaProgression: nil  // not a table: blocks, told from the content
        case .gymbook: GymBookReader.table
        case .gymrun: GymRunReader.table
        }
    }

    /// The app that wrote a CSV file with this header, or nil when it is none gymlog knows:
    /// the first whose table finds every column it cannot do without.
    public static func detect(header fields: [String]) -> ImportSource? {
        if ExportFormat.nativeHeaders.contains(ColumnTable.names(fields)) { return .native }
        return allCases.first { $0.table?.matches(fields) == true }
    }
}
