import Foundation

// MARK: - Assembling workouts

/// Groups rows into workouts and exercises (by name or id), then gives every set its id and
/// time. It runs twice over a file, so a file of any size is read in constant memory:
///
/// - `.scan` (the first pass) checks every row and counts, keeping no sets: the bad and
///   left-out rows, the assumed units, the exercises, how many rows each workout has (by a
///   hash of its key), which exercises have a bodyweight set and each exercise's first set.
///   The import summary, and the decision to refuse a file, come from it.
/// - `.assemble` (the second pass) holds a workout's sets only until its last row (known from
///   the scan) is read, then settles it and hands it to `emit`. A file whose workouts are
///   contiguous, as every app writes them, holds one workout at a time; one whose rows
///   interleave holds the interleaved workouts until each is complete.
struct WorkoutAssembler {
    enum Mode { case scan, assemble }

    /// A workout whose rows are still being read.
    struct OpenWorkout {
        var key: String
        var hash: Int
        var workout: ImportedWorkout
        var sets: [PendingSet] = []
        var notes: [String] = []
    }

    let source: ImportSource
    let options: ImportOptions
    var mode: Mode
    /// Pass 2: receives each workout once its last row is read.
    var emit: (ImportedWorkout) throws -> Void = { _ in }
    /// Open workouts by slot; slots are never reused within a pass.
    var open: [Int: OpenWorkout] = [:]
    var slotOfKey: [String: Int] = [:]
    var nextSlot = 0
    /// The key hash whose last row the current row was (pass 2): its workouts are completed
    /// once the row is read.
    var completing: Int?
    /// Pass 2 met a row of a workout the scan had no more rows of: the file changed.
    var changed = false
    /// Scan: rows per workout key hash. Pass 2: the rows read so far of open workouts.
    var workoutRows: [Int: Int] = [:]
    /// Pass 2: the scan's rows per workout key hash (read only, so it is shared, not copied).
    var expectedRows: [Int: Int] = [:]
    /// Pass 2: how each exercise's sets are read (decided by the scan from all of them).
    var kinds: [ImportedKind] = []
    /// Scan: what each exercise's sets say of its kind.
    var evidence: [KindEvidence] = []
    /// Scan: where each exercise's first set is in workout order (start, then line).
    var firstSets: [(startedAt: Int64, line: Int)] = []
    var setCount = 0
    var exercises: [ImportedExercise] = []
    var exerciseIndex: [String: Int] = [:]
    var badRows: [ImportProblem] = []
    var ignoredRows: [LeftOutRow] = []
    var assumedWeightUnit: WeightUnit?
    var assumedDistanceUnit: DistanceUnit?
    var cappedDurations: [ImportProblem] = []
    var bodyweights: [BodyweightEntry] = []
    var routines: [RoutineRecord] = []

    /// The longest workout an export's duration or end time is taken at its word for: a day.
    /// Longer is a timer left running (Strong writes hundreds of hours); such a workout is
    /// read as if it gave no duration: of unknown length, its sets inside its first second.
    static let longestWorkoutSeconds = 86_400

    init(source: ImportSource, options: ImportOptions, mode: Mode) { self.source = source; self.options = options; self.mode = mode }

    /// The row being read (its first line and bytes), so a bad row can be copied to the rejects file.
    var currentRow: (line: Int, bytes: Range<Int>)?
    /// Rows whose text had to be mended (`ImportCSVCursor.TextMend`), with their lines.
    var mendedRows: [ImportMendedRow] = []
    /// Warnings about rows that were read with something supplied (a name the row lacked).
    var warnings: [ImportProblem] = []
    /// Set by the first bad row when the import keeps all or nothing (`ImportOptions.strict`):
    /// reading stops there.
    var stopped = false

    mutating func bad(_ line: Int, _ reason: String) {
        let bytes = currentRow.flatMap { $0.line == line ? $0.bytes : nil }
        badRows.append(ImportProblem(line: line, reason: reason, bytes: bytes))
        if options.strict { stopped = true }
    }
    mutating func ignore(_ line: Int, _ reason: LeftOutReason) { ignoredRows.append(LeftOutRow(line: line, reason: reason)) }

    /// Runs `read` on each row of `cursor` that has `fieldCount` fields (or more, with
    /// `extraFields`; or fewer, with `shortRows`); a row with another count, or whose `read`
    /// throws `ImportRowError`, is a bad row.
    /// With `until`, reading stops at the first row it accepts (the end of one of JEFIT's
    /// sections), which is returned unread; nil at the end of the file.
    @discardableResult
    mutating func readRows(_ cursor: inout ImportCSVCursor, fieldCount: Int, extraFields: Bool = false, shortRows: Bool = false,
                           until: ([String]) -> Bool = { _ in false },
                           _ read: (inout WorkoutAssembler, Int, [String]) throws -> Void) throws -> (line: Int, fields: [String])? {
        while let (line, f) = try cursor.next() {
            if until(f) { return (line, f) }
            if stopped { return nil }
            // A line of separators alone (`,,,,`, where a spreadsheet's re-save left a deleted
            // row) is no row, as a blank line is none.
            if f.allSatisfy({ $0.allSatisfy { $0 == " " || $0 == "\t" } }) { continue }
            currentRow = (line, cursor.rowBytes)
            if !cursor.rowMends.isEmpty { mendedRows.append(ImportMendedRow(line: line, mends: cursor.rowMends)) }
            if let quote = cursor.unclosedQuote {
                bad(quote.line, Self.unclosedQuoteReason(quote))
                continue
            }
            guard f.count == fieldCount || (extraFields && f.count > fieldCount) || (shortRows && f.count < fieldCount) else {
                var reason = "has \(f.count) fields but the header has \(fieldCount)"
                if cursor.rowEndLine > line {
                    // A stray quote pairs with the next one and takes the lines between into one row.
                    reason += "; a quoted field runs on to line \(cursor.rowEndLine), taking in \(cursor.rowEndLine - line) "
                        + "line\(cursor.rowEndLine - line == 1 ? "" : "s"): check for a quote that should have been closed on line \(line)"
                }
                bad(line, reason)
                continue
            }
            try row(line) { try read(&$0, line, f) }
        }
        return nil
    }

    /// Reads one row (or, in a file of another shape, one set) with `read`: a bad row at
    /// `line` when it throws `ImportRowError`; then hands over the workouts the row completed.
    mutating func row(_ line: Int, _ read: (inout WorkoutAssembler) throws -> Void) throws {
        do {
            try read(&self)
        } catch let e as ImportRowError {
            bad(line, e.reason)
        }
        if changed { throw ImportParser.fileChanged }
        if stopped { return }
        if let hash = completing {
            completing = nil
            workoutRows[hash] = nil
            // Two keys with one hash are counted together: both are complete now.
            for slot in open.keys.sorted() where open[slot]?.hash == hash { try complete(slot) }
        }
    }

    /// Runs `read` on each row of a format read by its column table (`columns`). With
    /// `spillInto`, an app that does not quote its fields (FitNotes' names, Fitbod's notes) has
    /// written the delimiter inside that field: the fields beyond the header's count are joined
    /// back into it, the columns after it anchored from the right. With `padded`, empty fields
    /// beyond the header's count (a spreadsheet's re-save pads rows with a trailing delimiter)
    /// are dropped first. With `ragged`, a row shorter than the header (a spreadsheet that
    /// writes no trailing empty cells: StrongLifts' wide export) has them blank.
    /// `until` stops as in `readRows(_:fieldCount:)`.
    @discardableResult
    mutating func readRows(_ cursor: inout ImportCSVCursor, columns: ImportColumns, spillInto: ImportField? = nil,
                           padded: Bool = false, ragged: Bool = false, until: ([String]) -> Bool = { _ in false },
                           _ read: (inout WorkoutAssembler, Int, ImportRow) throws -> Void) throws -> (line: Int, fields: [String])? {
        let delimiter = String(cursor.delimiterCharacter)
        let spill = spillInto.flatMap { columns[$0] }
        return try readRows(&cursor, fieldCount: columns.count, extraFields: spill != nil || padded, shortRows: ragged,
                            until: until) { a, line, raw in
            var f = raw
            if f.count < columns.count { f += Array(repeating: "", count: columns.count - f.count) }
            if padded { while f.count > columns.count, f.last?.isEmpty == true { f.removeLast() } }
            let extra = f.count - columns.count
            if extra > 0 {
                guard let c = spill else { throw ImportRowError("has \(f.count) fields but the header has \(columns.count)") }
                f = Array(f[..<c]) + [f[c...(c + extra)].joined(separator: delimiter)] + f[(c + extra + 1)...]
            }
            try read(&a, line, ImportRow(fields: f, columns: columns))
        }
    }

    /// Why a row whose quote is never closed is bad, and what the lines after it became.
    static func unclosedQuoteReason(_ quote: ImportCSVCursor.UnclosedQuote) -> String {
        let swallowed = quote.swallowedLines == 0 ? "" : quote.swallowedLines == 1
            ? "; the 1 line after it is read on its own" : "; the \(quote.swallowedLines) lines after it are read on their own"
        return "a quoted field opens on this line and is never closed (close it with \", and write a quote inside a field as \"\")\(swallowed)"
    }

    /// The workout another app started at wall-clock `local` (in the chosen zone) under `name`,
    /// made from this row the first time its `key` (by default start and name) is seen.
    mutating func workout(line: Int, local: Int64, name: String?, key: String? = nil, note: String?, idStart: Int64? = nil,
                          endedAt: (_ startedAt: Int64) -> Int64?) -> Int {
        let key = key ?? "\(local)|\(name ?? "")"
        return workout(key: key) { a in
            let begin = a.instant(local: local)
            var end = endedAt(begin.millis)
            if let e = end, e - begin.millis > Int64(Self.longestWorkoutSeconds) * 1000 {
                a.cappedDurations.append(ImportProblem(line: line, reason: formatDuration(Int((e - begin.millis) / 1000))))
                end = nil
            }
            return ImportedWorkout(line: line, id: a.workoutID(localStart: idStart ?? local, name: name), name: name, startedAt: begin.millis,
                                   endedAt: end, utcOffsetSeconds: begin.offset, note: note)
        }
    }

    /// The workout another app wrote as an instant (UTC milliseconds, `start`): it started at
    /// that instant's wall-clock time in the chosen zone, and its id follows from the instant,
    /// so a re-import with another --timezone finds the same workout.
    mutating func workout(line: Int, instant start: Int64, name: String?, key: String, note: String?,
                          endedAt: (_ startedAt: Int64) -> Int64?) -> Int {
        workout(line: line, local: start + Int64(options.utcOffset(start)) * 1000, name: name, key: key, note: note,
                idStart: start, endedAt: endedAt)
    }

    /// The workout for `key` (its slot), made by `make` the first time the key is seen; every
    /// row of a workout calls this once.
    mutating func workout(key: String, _ make: (inout WorkoutAssembler) -> ImportedWorkout) -> Int {
        let hash = key.hashValue
        switch mode {
        case .scan:
            workoutRows[hash, default: 0] += 1
            if let slot = slotOfKey[key] { return slot }
            // The scan keeps only the workout of the last row: the rows of one workout come
            // together in every app's export, and a workout met again is made again (its
            // capped duration counted once).
            let capped = cappedDurations.count
            let first = workoutRows[hash] == 1
            let made = make(&self)
            if !first { cappedDurations.removeSubrange(capped...) }
            open.removeAll(keepingCapacity: true)
            slotOfKey.removeAll(keepingCapacity: true)
            return openSlot(key, made, hash: hash)
        case .assemble:
            let read = workoutRows[hash, default: 0] + 1
            workoutRows[hash] = read
            let expected = expectedRows[hash] ?? 0
            if read > expected { changed = true }
            if read == expected { completing = hash }
            return slotOfKey[key] ?? openSlot(key, make(&self), hash: hash)
        }
    }

    mutating func openSlot(_ key: String, _ workout: ImportedWorkout, hash: Int) -> Int {
        let slot = nextSlot
        nextSlot += 1
        open[slot] = OpenWorkout(key: key, hash: hash, workout: workout)
        slotOfKey[key] = slot
        return slot
    }

    /// Gives the workout in `slot` the workout note `note` if it has none yet.
    mutating func keepNote(_ note: String?, of slot: Int) {
        if open[slot]?.workout.note == nil, let note { open[slot]?.workout.note = note }
    }

    /// Adds a row's set to `workout` under the exercise called `exerciseName`. A row with no
    /// number at all (nil) is a set added and never filled in: left out and counted, unless
    /// it has a `note`, which goes into the workout's note (the one thing the row says). `at`
    /// is the set's own time (UTC milliseconds), for an app that writes one (GymBook).
    mutating func addSet(_ row: RowSet?, note: String? = nil, line: Int, exerciseName: String, superset: UUID? = nil,
                         at: Int64? = nil, to workout: Int) {
        guard let row else {
            if let note { return addNote("\(exerciseName): \(note)", to: workout) }
            return ignore(line, .emptySet)
        }
        add(PendingSet(line: line, exercise: exercise(named: exerciseName), values: row.values, performedAt: at, supersetID: superset,
                       loadLeftBlank: row.loadLeftBlank), to: workout)
    }

    /// The superset another app's file calls `label` (Hevy numbers them per workout: 0, 1, ...)
    /// in `workout`: an id derived from the workout's id and the label, so a re-import gives the same.
    func superset(_ label: String, in workout: Int) -> UUID? {
        let label = label.trimmingCharacters(in: .whitespaces)
        guard !label.isEmpty, let id = open[workout]?.workout.id else { return nil }
        return derivedID(namespace: "import-superset", key: id.uuidString.lowercased() + "|" + label)
    }

    /// The exercise name a row gives in `column`. A row with none is still a set: it gets its
    /// category's name when the layout has one (RepCount's `Triceps`), else "Unnamed exercise",
    /// and a warning naming its line, so it can be renamed after.
    mutating func exerciseName(_ written: String, line: Int, column: String, category: String = "") -> String {
        guard written.isEmpty else { return written }
        let name = cleanName(category).isEmpty ? Self.unnamedExercise : cleanName(category)
        warnings.append(ImportProblem(line: line, reason: "\(column) is empty: imported as '\(name)'"
                                      + (name == Self.unnamedExercise ? "" : ", its category")))
        return name
    }

    /// The name of an exercise a row does not name.
    static let unnamedExercise = "Unnamed exercise"

    /// The exercise called `name` (or with `id`), added the first time it is seen.
    mutating func exercise(named name: String, id: UUID? = nil) -> Int {
        var name = ControlCharacters.cleaned(name, lineBreaks: false)
        if source.spellsExercisesItsOwnWay { name = ExerciseSpellings.canonical(name) }
        let key = id.map { "id:" + $0.uuidString.lowercased() } ?? nameKey(name)
        if let i = exerciseIndex[key] { return i }
        exercises.append(ImportedExercise(name: name, id: id))
        exerciseIndex[key] = exercises.count - 1
        return exercises.count - 1
    }

    /// Adds a set to the workout in `slot`; the scan only counts it and notes what it tells
    /// about its exercise.
    mutating func add(_ set: PendingSet, to slot: Int) {
        setCount += 1
        guard case .scan = mode else { open[slot]?.sets.append(set); return }
        while evidence.count <= set.exercise { evidence.append(KindEvidence()) }
        evidence[set.exercise].add(set.values, loadLeftBlank: set.loadLeftBlank)
        let startedAt = open[slot]?.workout.startedAt ?? 0
        while firstSets.count <= set.exercise { firstSets.append((Int64.max, Int.max)) }
        if (startedAt, set.line) < firstSets[set.exercise] { firstSets[set.exercise] = (startedAt, set.line) }
    }

    /// Offers the lifter's bodyweight, weighed at wall-clock `local`, to the bodyweight log; its
    /// id follows from the app, the time and the weight, so a re-import adds nothing.
    mutating func addBodyweight(_ weight: Weight, local: Int64) {
        let at = instant(local: local)
        bodyweights.append(BodyweightEntry(id: derivedID(namespace: "import-bodyweight", key: "\(source.rawValue)|\(local)|\(weight)"),
                                           weight: weight, measuredAt: at.millis, utcOffsetSeconds: at.offset))
    }

    /// Records other names of exercise `index` (every row of a native file repeats them).
    mutating func addAliases(_ aliases: [String], to index: Int) {
        for alias in aliases where !exercises[index].aliases.contains(alias) { exercises[index].aliases.append(alias) }
    }

    /// Sets an exercise's catalog fields as the file stores them (every row of it says the same).
    mutating func setLink(_ link: ExerciseLinkFields, of index: Int) {
        if !link.isFromName { exercises[index].link = link }
    }

    /// Adds a line to a workout's note once (exercise notes repeat on every row in some apps).
    mutating func addNote(_ text: String, to slot: Int) {
        guard case .assemble = mode else { return }
        let clean = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !clean.isEmpty, open[slot]?.notes.contains(clean) == false else { return }
        open[slot]?.notes.append(clean)
    }

    /// Pass 2: settles the workout in `slot` (ids, times, notes, names) and hands it to `emit`;
    /// a workout that ended up with no set is dropped.
    mutating func complete(_ slot: Int) throws {
        guard let done = open.removeValue(forKey: slot) else { return }
        slotOfKey[done.key] = nil
        guard case .assemble = mode, !done.sets.isEmpty else { return }
        var workout = done.workout
        if !done.notes.isEmpty {
            workout.note = ([workout.note].compactMap { $0 } + done.notes).joined(separator: "\n")
        }
        // Other apps keep whatever was typed; gymlog stores no control characters (a
        // Windows line break becomes a line feed, an Escape is dropped).
        workout.name = workout.name.map { ControlCharacters.cleaned($0, lineBreaks: false) }
        workout.note = workout.note.map { ControlCharacters.cleaned($0, lineBreaks: true) }
        // An app that wrote no end time said nothing about the length: as Strong's `0s`, the
        // workout ends within its first second with its sets in order inside it, a workout
        // of unknown length (`WorkoutLength`), instead of one a minute per set long. Times
        // the app did write for its sets still stretch it.
        let noEnd = workout.endedAt == nil && source != .native
        if noEnd { workout.endedAt = workout.startedAt + 999 }
        workout.sets = settle(done.sets, in: workout)
        if noEnd, let last = workout.sets.map(\.performedAt).max(), last > workout.endedAt! { workout.endedAt = last }
        for i in workout.sets.indices {
            workout.sets[i].values.note = workout.sets[i].values.note.map { ControlCharacters.cleaned($0, lineBreaks: true) }
            // After the ids are derived, so a file read before this rule keeps its ids.
            if source != .native, kinds.indices.contains(workout.sets[i].exercise) {
                workout.sets[i].values = workout.sets[i].values.readingImported(as: kinds[workout.sets[i].exercise])
            }
        }
        try emit(workout)
    }

    /// Ends a pass: the scan settles what it learnt. The file's summary, without its workouts.
    /// In pass 2 every workout has been handed over; one still open had rows the scan did not
    /// count (the file changed), and is not handed over.
    mutating func finish(delimiter: Character) throws -> ImportedFile {
        if case .assemble = mode, !open.isEmpty { throw ImportParser.fileChanged }
        var file = ImportedFile(source: source, delimiter: delimiter, workouts: [], exercises: exercises, badRows: badRows,
                                ignoredRows: ignoredRows, assumedWeightUnit: assumedWeightUnit,
                                assumedDistanceUnit: assumedDistanceUnit, cappedDurations: cappedDurations,
                                bodyweights: bodyweights)
        file.mendedRows = mendedRows
        file.routines = routines
        file.warnings = warnings
        file.setCount = setCount
        file.workoutRows = workoutRows
        // An exercise has one kind, decided from all of its sets and its name (`KindEvidence`).
        while evidence.count < exercises.count { evidence.append(KindEvidence()) }
        file.exerciseKinds = exercises.indices.map { evidence[$0].kind(named: exercises[$0].name, fallbackUnit: options.weightUnit) }
        while firstSets.count < exercises.count { firstSets.append((Int64.max, Int.max)) }
        let byFirstSet = firstSets.indices.sorted { (firstSets[$0].startedAt, firstSets[$0].line, $0) < (firstSets[$1].startedAt, firstSets[$1].line, $1) }
        file.exerciseRanks = Array(repeating: 0, count: firstSets.count)
        for (rank, e) in byFirstSet.enumerated() { file.exerciseRanks[e] = rank }
        return file
    }

    /// Native sets keep their ids and times (in older files, written to the second, nudged 1 ms
    /// apart where whole seconds made them equal, so they keep their order); the others get
    /// ids derived from the workout, the exercise, its position and the values, and their own
    /// time where the app wrote one that keeps them in order, else times spread over the workout.
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
                let time = s.exactTime ? at : max(at, (lastTime[s.exercise] ?? Int64.min) &+ 1)
                lastTime[s.exercise] = time
                result.append(ImportedSet(line: s.line, id: id, exercise: s.exercise, values: s.values, performedAt: time,
                                          utcOffsetSeconds: s.utcOffsetSeconds ?? workout.utcOffsetSeconds, supersetID: s.supersetID))
                continue
            }
            var time: Int64
            if let at = s.performedAt, at >= workout.startedAt {
                time = at
            } else if let span, span > 0 {
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
                                      values: s.values, performedAt: time, utcOffsetSeconds: workout.utcOffsetSeconds,
                                      supersetID: s.supersetID))
        }
        return result
    }

    /// The id of a workout from another app: its source, local start and name, so the same
    /// workout in a later, overlapping export (or read with another --timezone) is the same row.
    func workoutID(localStart: Int64, name: String?) -> UUID {
        derivedID(namespace: "import-workout", key: "\(source.rawValue)|\(localStart)|\(name ?? "")")
    }

    /// Builds the stored values of a set from the numbers of a row; reps without a load are a
    /// bodyweight set (until the exercise's kind says otherwise, `readingImported(as:)`). A load
    /// with 0 or blank reps and no time or distance is a missed attempt, marked as a failure or
    /// not (Strong's `F,150.0,0.0`); 0 reps beside a time or distance, or beside nothing, are none.
    /// Nil when the row holds no number at all; a row outside `SetLimits` (what logging would
    /// refuse) throws.
    func values(kind: SetKind, weight: Weight?, reps: Int?, rpe: Fixed?, rir: Fixed? = nil, duration: Int?, distance: Distance?,
                note: String?, loadLeftBlank: Bool) throws -> RowSet? {
        var reps = reps
        if reps == 0 && (weight == nil || duration != nil || distance != nil) { reps = nil }
        // A load and nothing else: the reps column is blank where the app wrote no count, which
        // the corpus rule reads as 0, a missed attempt (a load alone is no set of any kind).
        if reps == nil && weight != nil && duration == nil && distance == nil { reps = 0 }
        guard weight != nil || reps != nil || duration != nil || distance != nil else { return nil }
        var v = SetValues(kind: kind, weight: weight, reps: reps, rpe: rpe, rir: rir, durationSeconds: duration,
                          distance: distance, note: note)
        if let w = weight, w.value.thousandths < 0 {
            v.bodyweight = true  // a negative load is an assisted bodyweight set
        } else if weight == nil && reps != nil {
            v.bodyweight = true
        }
        try Self.checkLimits(v)
        return RowSet(values: v, loadLeftBlank: loadLeftBlank)
    }

    /// Throws the row error for values that logging would refuse.
    static func checkLimits(_ values: SetValues) throws {
        if let reason = SetLimits.violation(values) { throw ImportRowError(reason) }
    }

    /// Wall-clock `local` (milliseconds as if UTC) in the chosen zone: the instant and its offset.
    func instant(local: Int64) -> (millis: Int64, offset: Int) {
        utcInstant(local: local, offsetAt: options.utcOffset)
    }
}

/// The parts of a set that identify it in a derived id (the note is left out, so a note
/// edited in the other app does not make the set new). RIR counts as the RPE 10 - RIR it was
/// imported as before gymlog kept RIR, so a set imported then keeps its id: importing the same
/// file again finds it instead of adding it twice.
func canonicalValues(_ v: SetValues) -> String {
    var s = v.kind.rawValue
    s += "|" + (v.weight.map { "\($0.value)\($0.unit.rawValue)" } ?? "")
    s += v.bodyweight ? "|bw" : "|"
    s += "|" + (v.reps.map(String.init) ?? "")
    s += "|" + ((v.rpe ?? v.rir.map { Fixed(thousandths: 10_000 - $0.thousandths) }).map { $0.description } ?? "")
    s += "|" + (v.durationSeconds.map(String.init) ?? "")
    s += "|" + (v.distance.map { "\($0.value)\($0.unit.rawValue)" } ?? "")
    return s
}
