import Foundation
import Testing
@testable import GymLogCore
import SplitMix

/// JEFIT's Export Data file: sections under banners, the unit in SETTING, sessions as epoch
/// seconds, packed sets and cardio, per-set rows that replace a log's packed field, sections in
/// any order; plus generated histories written as JEFIT writes them (LF or CRLF) and read back.
@Suite struct ImportJEFITTests {
    static func parse(_ name: String, unit: WeightUnit = .kg, chunkSize: Int = ImportCSVCursor.defaultChunkSize) throws -> ImportedFile {
        let bytes = try [UInt8](Data(contentsOf: ImportParserTests.directory.appendingPathComponent(name)))
        return try ImportParser.parse(bytes, options: ImportOptions(weightUnit: unit), chunkSize: chunkSize)
    }

    static func parse(text: String, unit: WeightUnit = .kg) throws -> ImportedFile {
        try ImportParser.parse(Array(text.utf8), options: ImportOptions(weightUnit: unit))
    }

    @Test func packedSetsCardioAndALogWithNoSessionInPounds() throws {
        // The lifter's unit is lb (SETTING), whatever --unit says.
        let file = try Self.parse("jefit-lbs-packed-sessions-first.csv", unit: .kg)
        #expect(file.source == .jefit)
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.assumedWeightUnit == nil)
        #expect(ImportParserTests.summaries(file) == [
            "Bench Press (Barbell): 135lb x 8", "Bench Press (Barbell): 185lb x 5", "Bench Press (Barbell): 185lb x 5",
            "Pull Up: bw x 10", "Pull Up: bw x 8", "Treadmill Running: 20:00",
            "Squat (Barbell): 225lb x 5", "Squat (Barbell): 225lb x 5", "Squat (Barbell): 225lb x 5",
            "Curl (Dumbbell): 30lb x 12", "Curl (Dumbbell): 32.5lb x 10",
        ])
        // Sessions are instants with their end; a log of no session is a workout of its day.
        #expect(file.workouts.map(\.startedAt) == [ImportParserTests.at(2024, 1, 31, 10, 0), ImportParserTests.at(2024, 2, 2, 10, 0),
                                                   ImportParserTests.at(2024, 2, 3, 12, 0)])
        #expect(file.workouts[0].endedAt == ImportParserTests.at(2024, 1, 31, 11, 0))
        #expect(file.workouts[1].endedAt == ImportParserTests.at(2024, 2, 2, 10, 45))
        #expect(file.workouts.allSatisfy { $0.name == nil })
        // The log with nothing packed is an empty set, left out and counted.
        #expect(file.ignoredRows == [LeftOutRow(line: 24, reason: .emptySet)])
    }

    @Test func setRowsReplaceTheirLogsPackedFieldAndSectionsComeInAnyOrder() throws {
        let file = try Self.parse("jefit-kg-set-logs-sections-reordered.csv", unit: .lb)
        #expect(file.source == .jefit)
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        // Set rows' weight_lbs back to the kilograms typed; 45 lb is no whole 0.05 kg, kept in lb.
        // The bench log's packed "60x10,100x5,100x5" is not read: its set rows are.
        #expect(ImportParserTests.summaries(file) == [
            "Deadlift (Barbell): 140kg x 5",
            "Bench Press (Barbell): warm-up 60kg x 10", "Bench Press (Barbell): 100kg x 5", "Bench Press (Barbell): 102.5kg x 3",
            "Bench Press (Barbell): 45lb x 12",
            "Plank: 1:30",
        ])
        #expect(file.workouts.map(\.startedAt) == [ImportParserTests.at(2024, 3, 5, 18, 0), ImportParserTests.at(2024, 3, 7, 7, 0)])
        #expect(file.workouts[0].endedAt == ImportParserTests.at(2024, 3, 5, 19, 15))
        // The set row of a log not in the file is left out and counted.
        #expect(file.ignoredRows == [LeftOutRow(line: 18, reason: .noExerciseLog)])
        #expect(LeftOutReason.noExerciseLog.counted(1) == "1 set row of an exercise log not in the file")
    }

    @Test func readInTinyChunksItReadsTheSame() throws {
        for name in ["jefit-lbs-packed-sessions-first.csv", "jefit-kg-set-logs-sections-reordered.csv"] {
            let whole = try Self.parse(name)
            let tiny = try Self.parse(name, chunkSize: 7)
            #expect(ImportParserTests.summaries(tiny) == ImportParserTests.summaries(whole))
            #expect(tiny.workouts.flatMap { $0.sets.map(\.id) } == whole.workouts.flatMap { $0.sets.map(\.id) })
        }
    }

    @Test func cardioNamesWhatItCannotPlaceInTheNote() throws {
        guard case .cardio(let seconds, let note) = try JEFITReader.unpack("0x0.0,0x2.5,0x0,0x1800") else {
            Issue.record("not read as cardio"); return
        }
        #expect(seconds == 1800)
        #expect(note == "JEFIT cardio log: 0x0.0,0x2.5,0x0,0x1800")
        guard case .sets(let sets) = try JEFITReader.unpack("0x10,0x8") else { Issue.record("bodyweight sets read as cardio"); return }
        #expect(sets.map(\.reps) == [10, 8])
        guard case .sets(let written) = try JEFITReader.unpack("0x5.0,0x5.0") else { Issue.record("reps written 5.0 read as cardio"); return }
        #expect(written.map(\.reps) == [5, 5])
    }

    @Test func badRowsAreNamedWithTheirLineAndWhatIsWrong() throws {
        let text = """
            ### SETTING ###
            mass
             stone
            ###############
            ### WORKOUT SESSIONS ###
            _id,starttime,endtime
            1,yesterday,0
            2,1706695200,1706698800
            ###############
            ### EXERCISE LOGS ###
            _id,ename,logs,belongsession,mydate
            10,Squat,"100x5,100xfive",2,2024-01-31
            11,Squat,"100x5",7,someday
            12,Squat,"100x5",2
            13,,"100x5",2,2024-01-31
            ###############

            """
        let file = try Self.parse(text: text)
        #expect(file.source == .jefit)
        #expect(file.badRows.map(\.line) == [3, 7, 12, 13, 14, 15])
        #expect(file.badRows[0].reason.contains("mass 'stone'"))
        #expect(file.badRows[1].reason.contains("starttime 'yesterday'"))
        #expect(file.badRows[2].reason.contains("'100xfive' is not a set written load x reps"))
        #expect(file.badRows[3].reason.contains("belongsession 7 is not a session in the file and mydate 'someday'"))
        #expect(file.badRows[4].reason.contains("has 4 fields but the header has 5"))
        #expect(file.badRows[5].reason.contains("ename is empty"))
    }

    @Test func aSectionWithoutAColumnItNeedsIsRefusedNamingIt() {
        let text = "### EXERCISE LOGS ###\n_id,ename,belongsession\n1,Squat,2\n####\n"
        #expect(throws: UserError.self) { try Self.parse(text: text) }
        do { _ = try Self.parse(text: text) } catch { #expect("\(error)".contains("no 'logs' column")) }
    }

    @Test func aFileWithoutBannersIsNotJEFIT() throws {
        let text = "Date,Workout Name,Exercise Name,Set Order,Weight,Reps\n2024-01-31 10:00:00,A,Squat,1,100,5\n"
        #expect(throws: UserError.self) {
            try ImportParser.parse(Array(text.utf8), options: ImportOptions(source: .jefit))
        }
        #expect(try Self.parse(text: text).source == .strong)
    }

    // MARK: - Generated histories, written as JEFIT writes them

    typealias Expected = ReadBackSet

    static let lifts = [("Barbell Bench Press", "Bench Press (Barbell)"), ("Barbell Squat", "Squat (Barbell)"),
                        ("Pull Up", "Pull Up"), ("Barbell Deadlift", "Deadlift (Barbell)"), ("Stationary Bike", "Stationary Bike")]

    static func generate(seed: UInt64) -> (text: String, unit: WeightUnit, expected: [[Expected]]) {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
        let unit = pick(WeightUnit.allCases)
        var sessions: [String] = [], logs: [String] = [], setRows: [String] = [], expected: [[Expected]] = []
        var day = epochMillis(year: 2023, month: 5, day: 1, utcOffsetSeconds: 0) / 86_400_000
        var logID = 100, setID = 1
        for s in 1...Int.random(in: 1...5, using: &rng) {
            day += Int64.random(in: 1...4, using: &rng)
            let start = day * 86_400 + Int64.random(in: 5...20, using: &rng) * 3600
            sessions.append("\(s),\(start),\(start + Int64.random(in: 20...90, using: &rng) * 60)")
            var sets: [Expected] = []
            for (written, canonical) in lifts.shuffled(using: &rng).prefix(Int.random(in: 1...4, using: &rng)) {
                logID += 1
                if written == "Stationary Bike" {
                    let seconds = Int.random(in: 300...3600, using: &rng)
                    logs.append("\(logID),\(written),\"0x0.0,0x0,0x0,0x\(seconds)\",\(s)")
                    sets.append(Expected(canonical, SetValues(durationSeconds: seconds)))
                    continue
                }
                let perSet = Bool.random(using: &rng)
                var packed: [String] = []
                for _ in 0..<Int.random(in: 1...5, using: &rng) {
                    let load = written == "Pull Up" ? Fixed(0) : Fixed(thousandths: Int64.random(in: 8...100, using: &rng) * (unit == .kg ? 2500 : 5000))
                    let reps = Int.random(in: 1...12, using: &rng)
                    let warmup = perSet && Int.random(in: 0..<4, using: &rng) == 0
                    sets.append(Expected(canonical, SetValues(kind: warmup ? .warmup : .working, weight: load.isZero ? nil : Weight(load, unit),
                                                               bodyweight: load.isZero, reps: reps)))
                    if perSet {
                        let pounds = unit == .lb ? "\(load)" : String(format: "%.2f", load.doubleValue / WeightUnit.kilogramsPerPound)
                        setRows.append("\(setID),\(logID),\(pounds),\(reps),\(warmup ? "warm-up" : "default")")
                        setID += 1
                        packed.append("\(load)x\(reps + 1)")  // never read: the set rows are
                    } else {
                        packed.append("\(load)x\(reps)")
                    }
                }
                logs.append("\(logID),\(written),\"\(packed.joined(separator: ","))\",\(s)")
            }
            expected.append(sets)
        }
        let close = "######################################"
        var sections = [
            "### SETTING ###\nmass\n \(unit == .kg ? "kg" : "lbs")\n\(close)",
            "### WORKOUT SESSIONS ###\n_id,starttime,endtime\n" + sessions.joined(separator: "\n") + "\n\(close)",
            "### EXERCISE LOGS ###\n_id,ename,logs,belongsession\n" + logs.joined(separator: "\n") + "\n\(close)",
            "### EXERCISE SET LOGS ###\n_id,exercise_log_id,weight_lbs,reps,set_type\n" + setRows.joined(separator: "\n") + "\n\(close)",
        ]
        sections.shuffle(using: &rng)
        let text = "### PROFILE ###\n_id,weight\n1,80\n\(close)\n" + sections.joined(separator: "\n\n") + "\n"
        return (Bool.random(using: &rng) ? text.replacingOccurrences(of: "\n", with: "\r\n") : text, unit, expected)
    }

    /// A workout's sets grouped by exercise, each exercise's in the order done: the order of
    /// exercises within a workout follows the file's sections, which JEFIT does not fix.
    static func byExercise(_ sets: [Expected]) -> [Expected] {
        let numbered: [(offset: Int, set: Expected)] = sets.enumerated().map { ($0.offset, $0.element) }
        return numbered.sorted { a, b in (a.set.exercise, a.offset) < (b.set.exercise, b.offset) }.map(\.set)
    }

    @Test("generated histories written as JEFIT writes them read back as they were", arguments: 0..<40)
    func generatedHistoriesReadBack(seed: UInt64) throws {
        let (text, unit, expected) = Self.generate(seed: seed)
        // --unit is the other unit: the file's SETTING decides.
        let file = try ImportParser.parse(Array(text.utf8), options: ImportOptions(weightUnit: unit == .kg ? .lb : .kg), chunkSize: 53)
        #expect(file.source == .jefit && file.badRows.isEmpty, "\(file.badRows)\n\(text)")
        let read = file.readBack
        #expect(read.map(Self.byExercise) == expected.map(Self.byExercise), "seed \(seed)\n\(text)")
        let again = try ImportParser.parse(Array(text.utf8), options: ImportOptions(weightUnit: unit))
        let ids: (ImportedFile) -> Set<UUID> = { Set($0.workouts.flatMap { $0.sets.map(\.id) }) }
        #expect(ids(again) == ids(file))
    }
}
