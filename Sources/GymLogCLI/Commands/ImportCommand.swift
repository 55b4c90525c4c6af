import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore
import GymLogSyncClient

struct Import: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import workouts from another app's export (Strong, Hevy, JEFIT, ... every format below) or a gymlog native export.",
        discussion: """
          gymlog import strong_workouts.csv
              the app is detected from the header
          gymlog import hevy.csv --timezone Europe/Berlin
              times without a zone are read in TZ
          gymlog import strong.csv --unit lb --dry-run
              weights without a unit are pounds; write nothing
          gymlog import fitnotes.csv --strict
              all or nothing: refuse the file at its first unreadable row
          gymlog import resaved.csv --date-order dmy
              slash dates are day/month/year

        What each format keeps (detected from the content; --from names it):
          strong
              Strong CSV, any layout and language (English, German, Spanish, French;
              2016 kg/lbs columns; slash-dated re-saves): warm-up, drop and failure
              sets, RPE, notes, workout names, durations
          hevy
              Hevy CSV: set types, RPE, supersets, notes, names, start, end
          hevy-json
              Hevy's API pages (GET /v1/workouts, one or a list): as hevy
          fitnotes
              FitNotes CSV: loads, reps, distances, times, comments; a workout a day
          fitbod
              Fitbod WorkoutExport.csv: warm-ups, notes, cardio, holds, carries;
              loads in kg as written, or with --unit lb in the pounds you typed
          liftosaur
              Liftosaur CSV: what was completed, not the plan: warm-ups, RPE, units
              per set, notes, day names; sets not done left out
          lyfta
              Lyfta CSV: set types, supersets, names, durations; it writes no unit, so
              weights are in --unit (the summary says so)
          repcount
              RepCount CSV (Swedish or English): sets, notes, kcal in the note, names,
              times; bodyweight to the bodyweight log
          jefit
              JEFIT's Export Data file (sections in any order): sessions' start and
              end, packed sets, per-set rows with warm-ups, cardio times; the unit from
              its settings
          stronglifts
              StrongLifts 5x5 spreadsheet: a row a workout, any number of exercise
              blocks (the old export's KG and LB columns too); empty set cells are
              sets not done; bodyweight to the log
          alpha-progression
              Alpha Progression's blocks (comma or semicolon dialect): warm-ups,
              supersets, drop sets, RIR as written, workout names and durations
          gymbook
              GymBook CSV (English or Italian): sets, warm-ups and cool-downs, reps or
              times, weights or distances, notes, programs; skipped sets left out
          gymrun
              GymRun CSV (semicolons): sets at their own times, weights, reps,
              durations, distances, notes, routines as workout names; it writes no
              unit, so weights are in --unit (the summary says so)
          native
              gymlog's own export: everything, ids and supersets included

        Every row is checked before anything is written, and read on its own: every readable \
        row is imported, and every row that cannot be read is named with its line and the \
        reason and copied, as written under the file's header, to FILE.rejects.csv beside the \
        file (strong.csv gives strong.rejects.csv), to mend and import again. --strict keeps \
        all or nothing: the first row that cannot be read refuses the file. Limits are only \
        at the impossible: a load over \(SetLimits.maxLoad), reps over \(SetLimits.performedReps.upperBound), \
        an RPE not \(SetLimits.rpe.lowerBound)-\(SetLimits.rpe.upperBound) or an RIR not \(SetLimits.rir.lowerBound)-\(SetLimits.rir.upperBound) in steps of \(SetLimits.rpeStep), a time over 24h, \
        a distance over \(SetLimits.maxDistance) in its unit, a negative load on a set that is not bodyweight, a load \
        with no reps, time or distance. So is a quote that is never closed (the lines after \
        it are read on their own). A row with no exercise name is imported under its \
        category (or "Unnamed exercise") and named. Lines of separators alone (`,,,,`) are \
        no rows. A field over 1 MiB refuses the file. Text that is not UTF-8 is read as \
        Windows-1252 and NUL bytes are dropped; the summary names the rows. \
        Dates are read as the phone wrote them, in any language: month names and \
        abbreviations of every locale the system knows (`15 sept. 2025`, `15 сент. 2025 г.`), \
        a 12- or 24-hour clock (`7:48 PM`, `午後7:48`), several ways in one file. Dates written \
        as numbers alone (`03/04/2025`) are read day-first or month-first as a day above 12 \
        tells (dates with dots, `29.04.2025`, are day-first), and refused when none does (pass \
        --date-order). A header whose words gymlog does not know (a language it has no table \
        for) is read by its shape when its rows fit a layout's columns in order (Strong, Hevy, \
        GymRun, StrongLifts), and the summary says which column it took as which. Quirks that have a faithful reading \
        are read: units as `lbs.`, `kgs`, `mi.`, `meters`; any unit beside a blank or zero \
        value; a workout duration over 24h (a timer left running), capped to its last set. \
        Sets never filled in and rest timers are left out and counted. A load with 0 reps is \
        a missed attempt, kept. An exercise's kind comes from all its rows and the equipment \
        in its name (`Squat (Barbell)` is loaded: a row with no load is a set at 0). --dry-run prints \
        what the import would print and writes nothing. Ids are derived from the content \
        (native exports keep their own), so importing the same file twice, or a later export \
        that overlaps an earlier one, adds only what is new; and a set the history holds \
        already (the same exercise and performance in a workout started within a minute of \
        the file's) is not added again whatever file it came from, so your own export in any \
        format, or another app's export of the same sessions, adds nothing. Exercises are \
        matched by exact name or alias and otherwise created with the name in the file; a \
        native export's aliases, supersets, bodyweight entries and routines are added too (a \
        routine of a name the database has already is left as it is), and Hevy's \
        superset_id groups supersets. The file is read as a stream, twice (check, then write). \
        The import is one action: `undo` takes it back whole and `redo` brings it back, and \
        an import that fails or is killed half way leaves nothing. A database logged in to an \
        account syncs first, so the import adds only what the account lacks (one that has \
        never synced imports nothing when it cannot). Imported rows sync like logged ones.
        """
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The CSV (or Hevy API JSON) file to import.", valueName: "file")) var file: String
    @Option(help: ArgumentHelp("The app that wrote the file: \(ImportSource.spelledList) (default: detect).", valueName: "app"))
    var from: String?
    @Option(help: ArgumentHelp("The unit of weights the file gives without one (default: your configured unit).", valueName: "kg|lb"))
    var unit: String?
    @Option(help: ArgumentHelp("The IANA time zone of times written without one (default: this machine's).", valueName: "TZ"))
    var timezone: String?
    @Option(help: ArgumentHelp("The order of dates written as numbers alone (a spreadsheet's re-save, a phone's region): dmy is 31/01/2024, mdy is 01/31/2024 (default: told from a day above 12, day first for dates with dots; asked for when none tells).", valueName: "dmy|mdy"))
    var dateOrder: String?
    @Flag(help: "Read and check the file, report what would be imported, write nothing.") var dryRun = false
    @Flag(help: "All or nothing: refuse the file at its first row that cannot be read (by default every readable row is imported and the others go to FILE.rejects.csv).")
    var strict = false
    /// What every import now does; kept so that scripts written for it still run.
    @Flag(help: .hidden) var skipBadRows = false

    func validate() throws {
        if let from, ImportSource(rawValue: from.lowercased()) == nil {
            throw ValidationError("--from \(from) is not an app gymlog reads; use \(ImportSource.spelledList).")
        }
        if let unit, WeightUnit(spelling: Substring(unit)) == nil {
            throw ValidationError("--unit \(unit) is not a weight unit; use kg or lb.")
        }
        if let dateOrder, DateOrder(rawValue: dateOrder.lowercased()) == nil {
            throw ValidationError("--date-order \(dateOrder) is not a date order; use dmy (31/01/2024) or mdy (01/31/2024).")
        }
        if let timezone, TimeZone(identifier: timezone) == nil {
            throw ValidationError("--timezone \(timezone) is not a time zone; use an IANA name such as Europe/Berlin or America/New_York.")
        }
    }

    func run(in context: CLIContext) async throws {
        let weightUnit = unit.flatMap { WeightUnit(spelling: Substring($0)) } ?? context.settings.defaultUnit
        let offset: @Sendable (Int64) -> Int
        let zone: String
        if let timezone, let tz = TimeZone(identifier: timezone) {
            offset = { tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0) / 1000)) }
            zone = "\(timezone) (--timezone)"
        } else {
            offset = context.environment.utcOffset
            zone = "\(TimeZone.current.identifier) (this machine's zone; pass --timezone if they were another)"
        }
        // A dry run says so first; every line after it is what the real import prints.
        if dryRun { context.print("Dry run: nothing is written. Importing would print:") }
        var options = ImportOptions(source: from.flatMap { ImportSource(rawValue: $0.lowercased()) },
                                    weightUnit: weightUnit, utcOffset: offset,
                                    dateOrder: dateOrder.flatMap { DateOrder(rawValue: $0.lowercased()) })
        options.strict = strict
        // Two passes over the file, each read in chunks: the first checks every row and counts,
        // so a bad file is refused (and a dry run summarised) before anything is written; the
        // second hands over each workout as soon as its last row is read.
        let parsed = try ImportParser.scan(try FileBytes(path: file), options: options)
        let separator = parsed.delimiter == ";" ? "semicolon" : parsed.delimiter == "," ? "comma" : "'\(parsed.delimiter)'"
        let shape = parsed.source == .hevyJSON ? "" : " (\(separator)-separated)"
        let app = ("AEIOU".contains(parsed.source.displayName.first!) ? "an " : "a ") + parsed.source.displayName
        context.print(from == nil ? "Detected \(app) export\(shape)." : "Reading \(app) export\(shape).")

        if strict, let first = parsed.badRows.first {
            throw UserError("\(file) \(first)\nNothing was imported (--strict keeps all or nothing). Mend that row, or import "
                            + "without --strict to import every readable row and write the others to \(Self.rejectsPath(file)).")
        }
        if let detectedBy = parsed.detectedBy { context.print(detectedBy) }

        let db = try dryRun ? Self.dryRunDatabase(context) : context.db()
        if !dryRun { try await Self.pullFirst(db, context) }
        let total = parsed.setCount
        let showProgress = !dryRun && total >= 2000 && isatty(STDERR_FILENO) == 1
        let label = "import " + (file as NSString).lastPathComponent
        let report = try db.importFile(parsed, dryRun: dryRun, label: label, progress: showProgress ? { done, all in
            let percent = all == 0 ? 100 : done * 100 / all
            let width = 30, filled = width * percent / 100
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            FileHandle.standardError.write(Data("\rImporting \(bar) \(percent)%  \(done)/\(all) sets".utf8))
            if done >= all { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        } : nil) { each in
            try ImportParser.forEachWorkout(try FileBytes(path: file), scanned: parsed, options: options, each)
        }
        // Once the rows that could be read are in: an import that fails writes nothing.
        var rejects: String?
        if !parsed.badRows.isEmpty, !dryRun, parsed.headerBytes != nil {
            do {
                rejects = try Self.writeRejects(parsed, of: file)
            } catch {
                context.printError("Could not write the rejected rows to \(Self.rejectsPath(file)): \(error.localizedDescription) "
                                   + "They are listed below.")
            }
        }
        Self.summary(report, parsed, unitFromFlag: unit != nil, dateOrderFromFlag: dateOrder != nil, zone: zone,
                     rejects: rejects ?? (dryRun && parsed.headerBytes != nil ? Self.rejectsPath(file) : nil))
            .forEach(context.print)
    }

    /// Where the rows of `file` that cannot be read go: beside it, `strong.csv` -> `strong.rejects.csv`.
    static func rejectsPath(_ file: String) -> String {
        let url = URL(fileURLWithPath: file)
        let ext = url.pathExtension.isEmpty ? "csv" : url.pathExtension
        return url.deletingPathExtension().path + ".rejects." + ext
    }

    /// Writes the rows of `file` that could not be read, as written, under its header: a file
    /// of the source's own layout that imports once mended. Returns its path.
    static func writeRejects(_ parsed: ImportedFile, of file: String) throws -> String {
        guard let header = parsed.headerBytes else { return rejectsPath(file) }
        var source = try FileBytes(path: file)
        var out: [UInt8] = []
        func append(_ range: Range<Int>) throws {
            try source.seek(to: range.lowerBound)
            var chunk: [UInt8] = []
            while chunk.count < range.count, try source.read(into: &chunk, count: range.count - chunk.count) > 0 {}
            out += chunk
            if let last = out.last, last != 10 && last != 13 { out.append(10) }
        }
        try append(header)
        for row in parsed.badRows { if let bytes = row.bytes { try append(bytes) } }
        let path = rejectsPath(file)
        guard FileManager.default.createFile(atPath: path, contents: Data(out)) else {
            throw UserError("Cannot write '\(path)'; check the folder's permissions.")
        }
        return path
    }

    /// An import adds only the sets the database does not hold, so a database logged in to an
    /// account syncs first: one that has never pulled holds none of the account's history (the
    /// account's own export imported into a fresh database doubled it on every device), and one
    /// behind the others lacks what they logged since (the history model found the second: the
    /// export of a device that had synced, imported on one that had not, came in twice). A
    /// database that never synced imports nothing when it cannot sync; one that synced before
    /// imports against what it holds, and says what that risks.
    static func pullFirst(_ db: GymLogDatabase, _ context: CLIContext) async throws {
        guard let server = context.settings.server, context.settings.token != nil else { return }
        let neverSynced = try db.syncState().epoch == nil
        func notSynced(_ why: String) {
            context.printError("Could not sync with \(server) before importing (\(why)), so the file is checked against what this "
                + "database held at its last sync: a set another device logged since that is in the file too comes in twice. "
                + "If that may be so, `undo` the import, `gymlog sync`, and import again.")
        }
        // A database that synced before does not wait for a sync already running (it is
        // pulling now); one that never synced must have the history first, so it waits.
        let mutex: SyncMutex
        do {
            mutex = try SyncMutex(path: context.paths.syncLock, wait: neverSynced ? SyncMutex.manualWait : 0) {
                context.printError("Waiting for the sync already running for this database to finish…")
            }
        } catch is UserError where !neverSynced {
            return notSynced("another sync of this database is running")
        }
        defer { withExtendedLifetime(mutex) {} }
        // Run here rather than through `SyncRun.cycle`: a refused import writes nothing, not
        // even the failed sync's outcome.
        let sync = try SyncRun(context)
        do {
            let report = try await sync.engine.run()
            try db.recordSyncOutcome(server: sync.server, .synced(rejected: report.rejected.count))
            if neverSynced {
                context.print("This database belongs to the account at \(server) and had never synced: pulled its history first "
                    + "(\(plural(report.pulledChanges, "change"))), so the import adds only what it lacks.")
            }
        } catch {
            guard neverSynced else { return notSynced(error.localizedDescription) }
            throw UserError("Nothing was imported: this database belongs to the account at \(server) but has never synced, so it does "
                + "not hold the account's history, and the import could add sets the account already has; the sync failed: "
                + "\(error.localizedDescription) Run `gymlog sync` once it can reach the server, then import again.")
        }
    }

    /// The database a dry run reads: the real one when it exists, else an empty one in memory,
    /// so a dry run against a new --db path creates no file and reports what a first import would.
    static func dryRunDatabase(_ context: CLIContext) throws -> GymLogDatabase {
        if let existing = try context.existingDB() { return existing }
        return try GymLogDatabase(path: ":memory:", environment: context.environment, settings: context.settings)
    }


    /// The lines that end an import: what was created, what was there already, what was
    /// assumed (units, time zone), which rows were left out and why, and the durations capped.
    /// A dry run prints the same lines: they describe the import, which it runs up to the write.
    static func summary(_ r: ImportReport, _ file: ImportedFile, unitFromFlag: Bool, dateOrderFromFlag: Bool = false,
                        zone: String, rejects: String? = nil) -> [String] {
        var lines: [String] = []
        var created = "Imported \(plural(r.workoutsCreated, "workout")), "
            + "\(plural(r.setsCreated, "set")), \(plural(r.exercisesCreated.count, "new exercise"))"
        if !r.exercisesCreated.isEmpty {
            created += ": " + r.exercisesCreated.prefix(12).joined(separator: ", ")
            if r.exercisesCreated.count > 12 { created += ", … and \(r.exercisesCreated.count - 12) more" }
        }
        lines.append(created + ".")
        func entries(_ n: Int) -> String { "\(n) bodyweight entr\(n == 1 ? "y" : "ies")" }
        if r.bodyweightsCreated > 0 { lines.append("Imported \(entries(r.bodyweightsCreated)).") }
        if r.routinesCreated > 0 { lines.append("Imported \(plural(r.routinesCreated, "routine")).") }
        if r.routinesExisting > 0 {
            lines.append("Left out \(plural(r.routinesExisting, "routine")) whose name the database has a routine of already.")
        }
        func aliases(_ n: Int) -> String { "\(n) alias\(n == 1 ? "" : "es")" }
        if r.aliasesCreated > 0 {
            lines.append("Added \(aliases(r.aliasesCreated)) of the file's exercises.")
        }
        if !r.aliasesTaken.isEmpty {
            lines.append("Left out \(aliases(r.aliasesTaken.count)) that already name another exercise: "
                         + r.aliasesTaken.prefix(12).joined(separator: ", ") + ".")
        }
        if !r.setsDiffering.isEmpty {
            let shown = r.setsDiffering.prefix(12).map(String.init).joined(separator: ", ")
                + (r.setsDiffering.count > 12 ? ", … and \(r.setsDiffering.count - 12) more" : "")
            lines.append("Left out \(plural(r.setsDiffering.count, "set")) whose id the database (or an earlier row of the file) "
                         + "holds with other values, so they differ from what is kept: line\(r.setsDiffering.count == 1 ? "" : "s") \(shown). "
                         + "Log them again if they are sets of their own.")
        }
        if r.workoutsExisting > 0 || r.setsExisting > 0 || r.bodyweightsExisting > 0 {
            lines.append("Already in the database (left as they are): \(plural(r.workoutsExisting, "workout")), "
                         + "\(plural(r.setsExisting, "set"))"
                         + (r.bodyweightsExisting > 0 ? ", \(entries(r.bodyweightsExisting))." : "."))
        }
        if let unit = file.assumedWeightUnit {
            let other = unit == .kg ? "lb" : "kg"
            lines.append("The file gives no unit for some weights: read as \(unit.rawValue)"
                         + (unitFromFlag ? " (--unit)." : " (your default unit; pass --unit \(other) if they were \(other == "lb" ? "pounds" : "kilograms")).")
            )
        }
        if let unit = file.assumedDistanceUnit {
            lines.append("The file gives no unit for some distances: read as \(unit.rawValue).")
        }
        if let order = file.dateOrder {
            let told = file.source == .gymbook ? "a day above 12 tells, or Italian headers or dates with dots, which write the day first"
                                               : "a day above 12 tells, or dates with dots, which write the day first"
            lines.append("Dates written as numbers alone were read as \(order.described)"
                         + (dateOrderFromFlag ? " (--date-order)." : " (\(told); pass --date-order if it is wrong)."))
        }
        switch file.source {
        case .native: lines.append("Times are kept with the offset each was logged at.")
        case .fitnotes: lines.append("FitNotes gives days, not times: each day is one workout at 12:00 in \(zone).")
        case .strong, .hevy, .lyfta, .repcount, .stronglifts, .alphaProgression, .gymbook, .gymrun:
            lines.append("Times are read in \(zone).")
        case .fitbod, .hevyJSON, .liftosaur, .jefit:
            lines.append("\(file.source.displayName) gives each workout's start as an instant: shown in \(zone).")
        }
        if !file.cappedDurations.isEmpty {
            let shown = file.cappedDurations.prefix(12).map { "line \($0.line) (\($0.reason))" }.joined(separator: ", ")
            let more = file.cappedDurations.count > 12 ? ", … and \(file.cappedDurations.count - 12) more" : ""
            lines.append("Capped \(plural(file.cappedDurations.count, "workout duration")) over 24h, a timer left running "
                         + "(the workout ends at its last set): \(shown)\(more).")
        }
        if !file.ignoredRows.isEmpty {
            let counts = LeftOutReason.allCases.compactMap { reason -> String? in
                let n = file.ignoredRows.count { $0.reason == reason }
                return n == 0 ? nil : reason.counted(n)
            }
            lines.append("Left out \(plural(file.ignoredRows.count, "row")): " + counts.joined(separator: ", ") + ".")
        }
        if !file.warnings.isEmpty {
            lines.append("Imported \(plural(file.warnings.count, "row")) with a name supplied (rename the exercise with `gymlog exercises rename`):")
            lines += file.warnings.prefix(20).map { "  \($0)" }
            if file.warnings.count > 20 { lines.append("  … and \(file.warnings.count - 20) more") }
        }
        for mend in [ImportCSVCursor.TextMend.notUTF8, .nul] {
            let rows = file.mendedRows.filter { $0.mends.contains(mend) }.map(\.line)
            guard !rows.isEmpty else { continue }
            let shown = rows.prefix(12).map(String.init).joined(separator: ", ") + (rows.count > 12 ? ", … and \(rows.count - 12) more" : "")
            switch mend {
            case .notUTF8:
                lines.append("Read \(plural(rows.count, "row")) whose text is not UTF-8 as Windows-1252 (check their names and notes; "
                             + "save the file as UTF-8 if they are wrong): line\(rows.count == 1 ? "" : "s") \(shown).")
            case .nul:
                lines.append("Dropped NUL bytes, which no typed text holds, from \(plural(rows.count, "row")): line\(rows.count == 1 ? "" : "s") \(shown).")
            }
        }
        if !file.badRows.isEmpty {
            let whereTo = rejects.map { ": they are in \($0), under the file's header, to mend and import again" } ?? ""
            lines.append("Rejected \(plural(file.badRows.count, "row")) that cannot be read\(whereTo):")
            lines += file.badRows.prefix(50).map { "  \($0)" }
            if file.badRows.count > 50 { lines.append("  … and \(file.badRows.count - 50) more") }
        }
        return lines
    }
}

/// A file read with read(2) in chunks, as `ImportCSVCursor` asks for them: the import's only
/// contact with the disk. The descriptor is closed when the last copy goes.
struct FileBytes: ImportByteSource {
    /// Owns the descriptor, so copies of the source share it and close it once.
    final class Descriptor {
        let fd: Int32
        init(_ fd: Int32) { self.fd = fd }
        deinit { close(fd) }
    }

    let path: String
    let file: Descriptor

    init(path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw UserError("Cannot import '\(path)': it is a folder. Name the CSV file exported by the app, e.g. `gymlog import ~/Downloads/strong.csv`.")
        }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw UserError("Cannot read '\(path)': \(String(cString: strerror(errno))); check the path and its permissions.") }
        file = Descriptor(fd)
        // The import reads the file twice (check, then write): a pipe cannot be read again.
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw UserError("Cannot import '\(path)': it is not a regular file (a pipe?), and the import reads the file twice. "
                            + "Save it to a file first, e.g. `... > export.csv`, then `gymlog import export.csv`.")
        }
        self.path = path
    }

    mutating func read(into buffer: inout [UInt8], count: Int) throws -> Int {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: count))
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(file.fd, $0.baseAddress! + start, count) }
            if n < 0 && errno == EINTR { continue }
            buffer.removeLast(count - max(0, n))
            guard n >= 0 else { throw UserError("Reading '\(path)' failed: \(String(cString: strerror(errno))).") }
            return n
        }
    }

    mutating func seek(to offset: Int) throws {
        guard lseek(file.fd, off_t(offset), SEEK_SET) >= 0 else {
            throw UserError("Reading '\(path)' failed: \(String(cString: strerror(errno))).")
        }
    }
}
