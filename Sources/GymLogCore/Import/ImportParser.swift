import Foundation

/// Reads exports of Strong, Hevy, FitNotes and gymlog itself into `ImportedFile`, in two
/// streaming passes over the file so that memory does not grow with it: `scan` checks every
/// row and counts (a file is refused, or a dry run summarised, from it, before anything is
/// written), then `forEachWorkout` reads the file again and hands over each workout as soon as
/// its last row is read.
public enum ImportParser {
    /// The first pass: every row checked, nothing assembled. Malformed rows are collected in
    /// `badRows` (every one, with its line), never thrown; a file whose header cannot be read
    /// at all throws `UserError`, and so does a file that cannot be read. `workouts` is empty.
    public static func scan(_ source: any ImportByteSource, options: ImportOptions,
                            chunkSize: Int = ImportCSVCursor.defaultChunkSize) throws -> ImportedFile {
        try read(source, options: options, chunkSize: chunkSize) { WorkoutAssembler(source: $0, options: options, mode: .scan) }
    }

    /// The second pass over the same file: each workout (its sets settled, in the order done)
    /// as soon as its last row is read, so the file's workouts come in the order they end in
    /// the file. Rows are read exactly as `scan` read them; throws if the file changed since.
    public static func forEachWorkout(_ source: any ImportByteSource, scanned: ImportedFile, options: ImportOptions,
                                      chunkSize: Int = ImportCSVCursor.defaultChunkSize,
                                      _ body: (ImportedWorkout) throws -> Void) throws {
        var options = options
        options.source = scanned.source
        options.dateOrder = scanned.dateOrder
        options.dateOrderSettled = true
        let again = try withoutActuallyEscaping(body) { body in
            try read(source, options: options, chunkSize: chunkSize) { source in
                var a = WorkoutAssembler(source: source, options: options, mode: .assemble)
                a.expectedRows = scanned.workoutRows
                a.kinds = scanned.exerciseKinds
                a.emit = body
                return a
            }
        }
        guard again.setCount == scanned.setCount && again.badRows == scanned.badRows else { throw fileChanged }
    }

    /// The second pass read rows the first did not: nothing unchecked is written.
    static let fileChanged = UserError("The file changed while it was being imported. Import it again once nothing writes to it: "
                                       + "what was written is kept and not written twice.")

    /// Both passes over a file in memory: every workout, oldest first.
    public static func parse(_ bytes: [UInt8], options: ImportOptions, chunkSize: Int = ImportCSVCursor.defaultChunkSize) throws -> ImportedFile {
        var file = try scan(MemoryBytes(bytes), options: options, chunkSize: chunkSize)
        var workouts: [ImportedWorkout] = []
        try forEachWorkout(MemoryBytes(bytes), scanned: file, options: options, chunkSize: chunkSize) { workouts.append($0) }
        file.workouts = workouts.sorted { ($0.startedAt, $0.line) < ($1.startedAt, $1.line) }
        return file
    }

    /// Reads the header, picks the app's reader and runs it over every row with the assembler `make` gives.
    static func read(_ file: any ImportByteSource, options: ImportOptions, chunkSize: Int,
                     assembler make: (ImportSource) -> WorkoutAssembler) throws -> ImportedFile {
        var bytes = file
        let whole = try toldFromContent(bytes, chosen: options.source)
        try bytes.seek(to: 0)
        if let whole {
            var assembler = make(whole)
            if whole == .jefit {
                try JEFITReader().read(bytes, chunkSize: chunkSize, into: &assembler)
            } else {
                try HevyJSONReader().read(bytes, chunkSize: chunkSize, into: &assembler)
            }
            return try assembler.finish(delimiter: ",")
        }
        // Alpha Progression writes blocks, not a table: told from a date line and a column header.
        if options.source == nil || options.source == .alphaProgression, let delimiter = try AlphaProgressionReader.delimiter(of: bytes) {
            try bytes.seek(to: 0)
            var cursor = try ImportCSVCursor(bytes, delimiter: delimiter, chunkSize: chunkSize)
            var assembler = make(.alphaProgression)
            try AlphaProgressionReader(delimiter: delimiter).read(&cursor, into: &assembler)
            return try assembler.finish(delimiter: delimiter)
        }
        try bytes.seek(to: 0)
        var cursor = try ImportCSVCursor(bytes, delimiter: nil, chunkSize: chunkSize)
        guard var header = try cursor.next() else {
            throw UserError("The file is empty: there is no header line to tell which app wrote it.")
        }
        let headerBytes = cursor.rowBytes
        if let quote = cursor.unclosedQuote {
            throw UserError("Line \(quote.line), the header, opens a quoted field that is never closed; close the quote with \" and import again.")
        }
        var detected = ImportSource.detect(header: header.fields)
        var detectedBy: String?
        // Whether the bytes were read past the header since (a sample, the dates): the rows are then read from the start again.
        var rewound = false
        if (options.source == nil && detected == nil) || options.source.map({ $0.table?.matches(header.fields) == false }) == true {
            // Words no table knows: the layout is told by its shape, from the first rows (the
            // second pass, which is told the app, reads the header as the first did).
            try bytes.seek(to: 0)
            rewound = true
            var sample = try ImportCSVCursor(bytes, delimiter: cursor.delimiterCharacter, chunkSize: chunkSize)
            _ = try sample.next()
            var rows: [[String]] = []
            while rows.count < 50, let row = try sample.next() { rows.append(row.fields) }
            if let shaped = LayoutShape.tell(header: header.fields, rows: rows, only: options.source) {
                detected = shaped.source
                detectedBy = shaped.explanation
                header.fields = shaped.header
            }
        }
        let source: ImportSource
        if let chosen = options.source {
            source = chosen
        } else if let detected {
            source = detected
        } else {
            let shown = header.fields.prefix(6).joined(separator: String(cursor.delimiterCharacter))
            throw UserError("Cannot tell which app wrote this file from its header '\(shown)'. Pass --from \(ImportSource.spelledList).")
        }
        var dateOrder = options.dateOrder
        if dateOrder == nil && !options.dateOrderSettled, let field = source.localeDateField,
           let column = try? source.table?.find(in: header.fields)[field] {
            try bytes.seek(to: 0)
            let dayFirst = source == .gymbook && ColumnTable.names(header.fields)[column] == GymBookReader.italianDate
            dateOrder = try Self.dateOrder(bytes, column: column, dayFirst: dayFirst, chunkSize: chunkSize)
            rewound = true
        }
        if rewound {
            try bytes.seek(to: 0)
            cursor = try ImportCSVCursor(bytes, delimiter: cursor.delimiterCharacter, chunkSize: chunkSize)
            _ = try cursor.next()
        }
        var assembler = make(source)
        switch source {
        case .strong:
            try StrongReader(header: header.fields, delimiter: cursor.delimiterCharacter, dateOrder: dateOrder)
                .read(&cursor, into: &assembler)
        case .hevy: try HevyReader(header: header.fields, dateOrder: dateOrder).read(&cursor, into: &assembler)
        case .fitnotes: try FitNotesReader(header: header.fields).read(&cursor, into: &assembler)
        case .native: try NativeReader(header: header.fields).read(&cursor, into: &assembler)
        case .fitbod: try FitbodReader(header: header.fields).read(&cursor, into: &assembler)
        case .liftosaur: try LiftosaurReader(header: header.fields).read(&cursor, into: &assembler)
        case .lyfta: try LyftaReader(header: header.fields).read(&cursor, into: &assembler)
        case .repcount: try RepCountReader(header: header.fields, delimiter: cursor.delimiterCharacter).read(&cursor, into: &assembler)
        case .stronglifts: try StrongLiftsReader(header: header.fields, dateOrder: dateOrder).read(&cursor, into: &assembler)
        case .gymrun:
            try GymRunReader(header: header.fields, delimiter: cursor.delimiterCharacter, dateOrder: dateOrder).read(&cursor, into: &assembler)
        case .jefit:
            throw UserError("This file does not start with a '### ... ###' section banner, so it is not JEFIT's Export Data file; "
                            + "pass the app that wrote it with --from, or export it from JEFIT again.")
        case .gymbook: try GymBookReader(header: header.fields, dateOrder: dateOrder).read(&cursor, into: &assembler)
        case .alphaProgression:
            throw UserError("This file is not Alpha Progression's export: its start has no session date line like "
                            + "\"2023-03-23 6:59 pm\",1:10 hr and column header like #,KG,REPS. Check the file, or pass the right --from.")
        case .hevyJSON:
            throw UserError("This file is not JSON, so it is not pages of Hevy's API; for Hevy's CSV export pass --from hevy.")
        }
        var file = try assembler.finish(delimiter: cursor.delimiterCharacter)
        file.dateOrder = dateOrder
        file.headerBytes = headerBytes
        file.detectedBy = detectedBy
        return file
    }

    /// A format told from the file's first bytes, before anything reads it as CSV rows: Hevy's
    /// API pages are JSON (`{` or `[`), JEFIT's file opens with a `### NAME ###` section banner.
    /// Nil for any other file, or when `chosen` names a format these are not.
    static func toldFromContent(_ source: any ImportByteSource, chosen: ImportSource?) throws -> ImportSource? {
        var source = source
        if chosen == nil || chosen == .hevy || chosen == .hevyJSON {
            if try JSONPages.looksLikeJSON(source) { return .hevyJSON }
            try source.seek(to: 0)
        }
        if chosen == nil || chosen == .jefit, try JEFITReader.looksLikeJEFIT(source) { return .jefit }
        return nil
    }

    /// The day-month order of a file whose dates are written as numbers alone (`03/04/2024`,
    /// `29.04.2025`: a spreadsheet's re-save of Strong's, GymBook's, GymRun's, a phone's
    /// region), told from a day above 12 in `column`; nil when its dates are not written so
    /// (a year first, a month's name: they tell themselves). Reads the column up to the first
    /// date that tells, past dates written otherwise (a file may write several ways), and
    /// stops after 1,000 rows with none written so. A file where none tells is refused, naming
    /// the ambiguity and the option that settles it: never guessed. Two rules do settle it:
    /// an Italian GymBook header (`dayFirst`) and dates written with dots, as every region
    /// that writes them so puts the day first.
    static func dateOrder(_ source: any ImportByteSource, column: Int, dayFirst: Bool, chunkSize: Int) throws -> DateOrder? {
        var cursor = try ImportCSVCursor(source, delimiter: nil, chunkSize: chunkSize)
        _ = try cursor.next()
        var example: String?, dotted = false, rowsWithout = 0
        while let row = try cursor.next() {
            // The date alone, before any time or words: a month's name tells itself.
            let written = row.fields.field(column)
            guard case let .numeric(first, second, _, dots)? = WrittenDate.read(String(written.prefix { !$0.isWhitespace && $0 != "," }))?.parts else {
                rowsWithout += 1
                if example == nil && rowsWithout >= 1_000 { return nil }
                continue
            }
            example = example ?? written
            dotted = dotted || dots
            if let told = WrittenDate.told(first, second) { return told }
        }
        guard let example else { return nil }
        if dayFirst || dotted { return .dmy }
        throw UserError("The dates in this file are written as numbers alone, like '\(example)', and no day is above 12, "
                        + "so the day and the month cannot be told apart. Pass --date-order dmy if '\(example)' is "
                        + "day/month/year, or --date-order mdy if it is month/day/year.")
    }
}
