import Foundation
import Testing
@testable import GymLogCore

/// Issue 46 (3, 4) and 45 (8): a file is read row by row. Every readable row lands; an
/// unreadable one is named with its line and reason and keeps its bytes (for the rejects
/// file); limits are only at the impossible; lines of separators are no rows; a row with no
/// exercise name gets one; a huge field is refused where it is met; text that is not UTF-8
/// and NULs are mended and said.
@Suite struct ImportRowByRowTests {
    static func parse(_ text: String, _ options: ImportOptions = ImportOptions()) throws -> ImportedFile {
        try ImportParser.parse(Array(text.utf8), options: options)
    }

    static func parse(bytes: [UInt8]) throws -> ImportedFile { try ImportParser.parse(bytes, options: ImportOptions()) }

    static let fitbodHeader = "Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier\n"

    @Test func aBadRowKeepsItsBytesAndTheOtherRowsLand() throws {
        let text = """
            Date,Workout Name,Exercise Name,Set Order,Weight,Reps
            2024-05-06 18:00:00,A,Squat,1,100,5
            2024-05-06 18:00:00,A,Squat,2,1OO,5
            2024-05-06 18:00:00,A,Squat,3,100,5

            """
        let file = try Self.parse(text)
        #expect(file.setCount == 2)
        #expect(file.badRows == [ImportProblem(line: 3, reason: "Weight '1OO' is not a number")])
        let bytes = Array(text.utf8)
        let row = try #require(file.badRows.first?.bytes)
        #expect(String(decoding: bytes[row], as: UTF8.self) == "2024-05-06 18:00:00,A,Squat,2,1OO,5\n")
        let header = try #require(file.headerBytes)
        #expect(String(decoding: bytes[header], as: UTF8.self) == "Date,Workout Name,Exercise Name,Set Order,Weight,Reps\n")
    }

    @Test func strictStopsAtTheFirstBadRow() throws {
        var options = ImportOptions()
        options.strict = true
        let file = try ImportParser.scan(MemoryBytes(Array("""
            Date,Workout Name,Exercise Name,Set Order,Weight,Reps
            2024-05-06 18:00:00,A,Squat,1,x,5
            2024-05-06 18:00:00,A,Squat,2,y,5
            """.utf8)), options: options)
        #expect(file.badRows.map(\.line) == [2])
    }

    @Test func limitsAreOnlyAtTheImpossible() throws {
        // A 122 km ride in metres, a 1,000-rep set, a 10-hour hike: real. 1e30 is no number.
        let file = try Self.parse(Self.fitbodHeader + """
            2024-05-06 18:00:00 +0000,Cycling,0,0.0,14400.0,122466.959,0.0,0.0,false,,0.0
            2024-05-06 18:00:00 +0000,Hip Adductor,1000,20.0,0,0,0.0,0.0,false,,1.0
            2024-05-06 18:00:00 +0000,Hiking,0,0.0,36000.0,30000.0,0.0,0.0,false,,0.0
            2024-05-06 18:00:00 +0000,Squat,5,1e30,0,0,0.0,0.0,false,,1.0
            """)
        #expect(file.setCount == 3)
        #expect(file.badRows.map(\.line) == [5])
    }

    @Test func linesOfSeparatorsAreNoRows() throws {
        // A spreadsheet's re-save leaves a deleted row as its separators.
        let file = try Self.parse(Self.fitbodHeader + """
            2024-05-06 18:00:00 +0000,Squat,5,100.0,0,0,0.0,0.0,FALSE,,1.0
            ,,,,,,,,,,
            , ,,,,,,,,,\r
            2024-05-06 18:00:00 +0000,Squat,5,100.0,0,0,0.0,0.0,FALSE,,1.0
            """)
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.setCount == 2)
    }

    @Test func aResavedFitbodFilePaddedForANoteWithAnUnquotedCommaReadsWhole() throws {
        // The spreadsheet padded the header and every row with an empty 12th column because
        // one note held an unquoted comma (fitbod-12's shape).
        let file = try Self.parse("Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier,\r\n"
            + "2024-05-06 18:00:00 +0000,Plank,0,0,60,0,0,0,FALSE,,1,\r\n"
            + "2024-05-06 18:00:00 +0000,Push Up,14,0,0,0,0,0,FALSE,14 real, rest chat and then on knees,1\r\n")
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.setCount == 2)
    }

    @Test func aSecondDateFormatInTheMiddleOfAFileIsRead() throws {
        // Liftosaur wrote ISO instants, then `2026-03-06 15:22:00 +00:00` (liftosaur-1 from row 1345).
        let file = try Self.parse("""
            Workout DateTime,Program,Day Name,Exercise,Is Warmup Set?,Completed Reps,Completed Weight Value,Completed Weight Unit
            2026-03-06 15:22:00 +00:00,P,Day 1,"Squat, Barbell",0,5,100,kg
            2026-03-04T15:22:00.000Z,P,Day 1,"Squat, Barbell",0,5,100,kg
            """)
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.workouts.map(\.startedAt) == [1_772_637_720_000, 1_772_810_520_000])
    }

    @Test func strongWithHeaderWordsOfAnUnknownLanguageIsReadByItsShapeAndSaysSo() throws {
        // strong-de-1's header: words no table had (`Reihenfolge festlegen`, `Wiederh.`), and a
        // rest timer in a word for it no table has either (`Pausa`).
        let text = """
            Datum,Workout-Name,Dauer,Name der Übung,Reihenfolge festlegen,Gewicht,Wiederh.,Entfernung,Sekunden,Notizen,Workout-Notizen,RPE
            2025-08-01 09:46:59,"Pull",31min,"Pull Up",1,0,3.0,0,0.0,"","",
            2025-08-01 09:46:59,"Pull",31min,"Pull Up",Pausa,0,0.0,0,45.0,,,
            2025-08-01 09:46:59,"Pull",31min,"Row (Cable)",1,40,10.0,0,0.0,"","",8

            """
        let file = try Self.parse(text)
        #expect(file.source == .strong)
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.setCount == 2)
        #expect(file.ignoredRows.map(\.reason) == [.restTimer])
        let said = try #require(file.detectedBy)
        #expect(said.contains("Reihenfolge festlegen as Set Order"), "\(said)")
        #expect(said.contains("Wiederh. as Reps"))
        // Twelve columns of unknown words whose rows are not Strong's are still not told
        #expect(throws: UserError.self) {
            _ = try Self.parse("a,b,c,d,e,f,g,h,i,j,k,l\nx,y,z,1,2,3,4,5,6,7,8,9\n")
        }
    }

    @Test func theHevyWebAppsBareArrayOfWorkoutsIsRead() throws {
        // hevy-json-2's shape: a list of workouts (not API pages), `name`, epoch seconds, `indicator`.
        let file = try Self.parse("""
            [{"id":"a","name":"Pull","start_time":1786530000,"end_time":1786533388,"description":null,
              "exercises":[{"title":"Lat Pulldown (Machine)","notes":"","superset_id":null,"exercise_type":"weight_reps",
                "sets":[{"indicator":"warmup","weight_kg":20,"reps":12,"rpe":null,"distance_meters":null,"duration_seconds":null},
                        {"indicator":"normal","weight_kg":50,"reps":8,"rpe":8,"distance_meters":null,"duration_seconds":null}]}]}]
            """)
        #expect(file.source == .hevyJSON)
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.workouts.map(\.name) == ["Pull"])
        #expect(file.workouts.first?.startedAt == 1_786_530_000_000)
        #expect(file.workouts.first?.sets.map(\.values.kind) == [.warmup, .working])
    }

    @Test func aRowWithNoExerciseNameGetsItsCategoryOrOneAndAWarning() throws {
        let repcount = try Self.parse("""
            Starttid;Sluttid;Övning;Vikt;Reps;Anteckningar;Kcal;Distans;Tid;Kategori;Namn;Kroppsvikt
            "2024-05-06 18:00";"";"";"20.0";"10";"";"0";"0";"0";"Triceps";"Push";"80.0"

            """)
        #expect(repcount.badRows.isEmpty, "\(repcount.badRows)")
        #expect(repcount.exercises.map(\.name) == ["Triceps"])
        #expect(repcount.warnings == [ImportProblem(line: 2, reason: "Övning is empty: imported as 'Triceps', its category")])
        let strong = try Self.parse("""
            Date,Workout Name,Exercise Name,Set Order,Weight,Reps
            2024-05-06 18:00:00,A,,1,100,5
            """)
        #expect(strong.setCount == 1)
        #expect(strong.exercises.map(\.name) == ["Unnamed exercise"])
        #expect(strong.warnings.map(\.line) == [2])
    }

    /// Bytes of a CSV whose second row's note runs on for `size` bytes, counted as they are read.
    struct HugeField: ImportByteSource {
        let head = Array("Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Notes\n2024-05-06 18:00:00,A,Squat,1,100,5,\"".utf8)
        let size: Int
        var position = 0
        var read = 0

        mutating func read(into buffer: inout [UInt8], count: Int) -> Int {
            let total = head.count + size
            let n = min(count, total - position)
            for k in 0..<n { let p = position + k; buffer.append(p < head.count ? head[p] : UInt8(ascii: "x")) }
            position += n
            read += n
            return n
        }

        mutating func seek(to offset: Int) { position = offset }
    }

    @Test func aHugeFieldIsRefusedWhereItIsMet() throws {
        // A 64 MiB note: refused naming its line, having read little more than the limit.
        let source = HugeField(size: 64 << 20)
        var cursor = try ImportCSVCursor(source, delimiter: nil)
        _ = try cursor.next()
        #expect(throws: UserError.self) { _ = try cursor.next() }
        let error = try #require(try? { () -> UserError? in
            var c = try ImportCSVCursor(source, delimiter: nil); _ = try c.next()
            do { _ = try c.next() } catch let e as UserError { return e }
            return nil
        }())
        #expect(error.message.contains("Line 2 has a field longer than 1 MiB"), "\(error.message)")
        #expect((cursor.source as! HugeField).read < 2 << 20)
        #expect(throws: UserError.self) { _ = try ImportParser.scan(source, options: ImportOptions()) }
    }

    @Test func textThatIsNotUTF8IsReadAsWindows1252AndNULsAreDroppedAndSaid() throws {
        var bytes = Array("Date,Workout Name,Exercise Name,Set Order,Weight,Reps\n2024-05-06 18:00:00,A,Bankdr".utf8)
        bytes += [0xFC] + Array("cken,1,100,5\n2024-05-06 18:00:00,A,Squ".utf8) + [0] + Array("at,1,100,5\n".utf8)
        bytes += Array("2024-05-06 18:00:00,A,Squat,2,100,5\n".utf8)
        let file = try Self.parse(bytes: bytes)
        #expect(file.badRows.isEmpty)
        #expect(file.exercises.map(\.name) == ["Bankdrücken", "Squat"])
        #expect(file.mendedRows == [ImportMendedRow(line: 2, mends: [.notUTF8]), ImportMendedRow(line: 3, mends: [.nul])])
    }
}
