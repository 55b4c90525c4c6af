import Foundation
import Testing
@testable import GymLogCore

/// Issue 46 (1, 2): exports of any app's layout in any language. Dates are read in the phone's
/// language and region (month names from the platform's locale data, a 12- or 24-hour clock,
/// day or month first as the file's values tell, several ways in one file), decimals with a
/// comma; a header in words no table has is read by the shape of its rows, and said; GymRun
/// and StrongLifts' old wide export are read. Every file here is synthetic, written in the
/// shape of the real ones.
@Suite struct ImportAnyLocaleTests {
    static func parse(_ text: String, _ options: ImportOptions = ImportOptions()) throws -> ImportedFile {
        try ImportParser.parse(Array(text.utf8), options: options)
    }

    static let hevyHeader = "\"title\",\"start_time\",\"end_time\",\"description\",\"exercise_title\",\"superset_id\",\"exercise_notes\","
        + "\"set_index\",\"set_type\",\"weight_kg\",\"reps\",\"distance_km\",\"duration_seconds\",\"rpe\"\n"

    static func hevyRow(_ start: String, _ end: String, weight: String = "100", title: String = "Push") -> String {
        "\"\(title)\",\"\(start)\",\"\(end)\",\"\",\"Bench Press (Barbell)\",,,0,\"normal\",\"\(weight)\",5,,,\n"
    }

    static let sept15 = ImportParserTests.at(2025, 9, 15, 19, 48)

    @Test(arguments: [
        ("fr", "15 sept. 2025, 19:48", "15 sept. 2025, 20:55"),
        ("de", "15.09.2025, 19:48", "15.09.2025, 20:55"),
        ("de, month named", "15. Sept. 2025, 19:48", "15. Sept. 2025, 20:55"),
        ("es", "15 sept 2025, 19:48", "15 sept 2025, 20:55"),
        ("es, 12-hour", "15 sept 2025, 7:48 p. m.", "15 sept 2025, 8:55 p. m."),
        ("ru", "15 сент. 2025 г., 19:48", "15 сент. 2025 г., 20:55"),
        ("ru, whole month", "15 сентября 2025 г. в 19:48", "15 сентября 2025 г. в 20:55"),
        ("ja", "2025/09/15 19:48", "2025/09/15 20:55"),
        ("ja, written out, 12-hour", "2025年9月15日 午後7:48", "2025年9月15日 午後8:55"),
        ("pt", "15 de set. de 2025 19:48", "15 de set. de 2025 20:55"),
        ("pt-PT, whole month", "15 de setembro de 2025, 19:48", "15 de setembro de 2025, 20:55"),
        ("en-US, 12-hour", "Sep 15, 2025, 7:48 PM", "Sep 15, 2025, 8:55 PM"),
        ("en, weekday", "Mon, 15 Sep 2025, 19:48", "Mon, 15 Sep 2025, 20:55"),
    ])
    func hevyDatesInThePhonesLanguageAndRegion(locale: String, start: String, end: String) throws {
        // Given a Hevy export whose phone writes dates its own way
        let file = try Self.parse(Self.hevyHeader + Self.hevyRow(start, end))
        // Then the workout starts and ends when it says
        #expect(file.badRows.isEmpty, "\(locale): \(file.badRows)")
        #expect(file.workouts.first?.startedAt == Self.sept15, "\(locale)")
        #expect(file.workouts.first?.endedAt == Self.sept15 + 67 * 60_000, "\(locale)")
    }

    @Test func monthWordsComeFromTheLocaleDataNotAList() {
        // Words no list here holds, from languages nobody here wrote one for
        let words = LocaleWords.shared
        #expect(words.months["juillet"] == 7)          // French
        #expect(words.months["sierpnia"] == 8)         // Polish, as a date writes it
        #expect(words.months["ağustos"] == 8)          // Turkish
        #expect(words.months["elokuuta"] == 8)         // Finnish
        #expect(words.months["сентября"] == 9)         // Russian
        #expect(words.months["σεπ"] == 9 || words.months["σεπτ"] == 9) // Greek
        #expect(words.halves["午後"] == .pm && words.halves["午前"] == .am)
        #expect(WrittenDate.read("3 sierpnia 2025 18:05")?.local(order: nil) == ImportParserTests.at(2025, 8, 3, 18, 5))
        #expect(WrittenDate.read("yesterday at 18:05") == nil)
        #expect(WrittenDate.read("2025-13-40") == nil || WrittenDate.read("2025-13-40")?.local(order: nil) == nil)
    }

    @Test func aFileWhoseDatesTellTheirOrderOnlyAtADayAbove12() throws {
        // Given dates written as numbers alone, ambiguous until the third workout (the 13th)
        let dayFirst = try Self.parse(Self.hevyHeader + Self.hevyRow("03/04/2025, 18:00", "03/04/2025, 19:00")
            + Self.hevyRow("08/04/2025, 18:00", "08/04/2025, 19:00") + Self.hevyRow("13/04/2025, 18:00", "13/04/2025, 19:00"))
        // Then the whole file is read day first: 3 April, 8 April, 13 April
        #expect(dayFirst.dateOrder == .dmy)
        #expect(dayFirst.badRows.isEmpty, "\(dayFirst.badRows)")
        #expect(dayFirst.workouts.map(\.startedAt) == [3, 8, 13].map { ImportParserTests.at(2025, 4, $0, 18, 0) })
        // And the same file from a region that writes the month first, with a 12-hour clock
        let monthFirst = try Self.parse(Self.hevyHeader + Self.hevyRow("4/3/25, 6:00 PM", "4/3/25, 7:00 PM")
            + Self.hevyRow("4/13/25, 6:00 PM", "4/13/25, 7:00 PM"))
        #expect(monthFirst.dateOrder == .mdy)
        #expect(monthFirst.workouts.map(\.startedAt) == [3, 13].map { ImportParserTests.at(2025, 4, $0, 18, 0) })
        // And a file where no day tells is refused, naming the way to settle it; dots tell (day first)
        #expect(throws: UserError.self) {
            _ = try Self.parse(Self.hevyHeader + Self.hevyRow("03/04/2025, 18:00", "03/04/2025, 19:00"))
        }
        let dotted = try Self.parse(Self.hevyHeader + Self.hevyRow("03.04.2025, 18:00", "03.04.2025, 19:00"))
        #expect(dotted.workouts.map(\.startedAt) == [ImportParserTests.at(2025, 4, 3, 18, 0)])
    }

    @Test func severalWaysOfWritingDatesAndDecimalCommasInOneFile() throws {
        // Given a file exported in parts from phones set to other languages
        let file = try Self.parse(Self.hevyHeader
            + Self.hevyRow("15 Sep 2025, 07:48", "15 Sep 2025, 08:48", weight: "102,5", title: "A")
            + Self.hevyRow("16 sept. 2025, 07:48", "16 sept. 2025, 08:48", title: "B")
            + Self.hevyRow("2025-09-17 07:48:00", "2025-09-17 08:48:00", title: "C")
            + Self.hevyRow("18.09.2025, 07:48", "18.09.2025, 08:48", title: "D")
            + Self.hevyRow("Sep 19, 2025, 7:48 AM", "Sep 19, 2025, 8:48 AM", title: "E"))
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.workouts.map(\.startedAt) == (15...19).map { ImportParserTests.at(2025, 9, $0, 7, 48) })
        #expect(file.workouts.first?.sets.first?.values.weight == Weight(Fixed(thousandths: 102_500), .kg))
    }

    // MARK: - Headers of languages no table has

    static func strong(_ header: String, _ dates: [String]) -> String {
        header + "\n" + dates.enumerated().map { i, date in
            "\(date),\"Push\",1h 2min,\"Bench Press (Barbell)\",\(i + 1),60.0,8,,,\"\",\"\",\n"
        }.joined()
    }

    @Test(arguments: [
        ("ru", "Дата,Название тренировки,Продолжительность,Название упражнения,Порядок подходов,Вес,Повторения,Расстояние,Секунды,Заметки,Заметки к тренировке,RPE"),
        ("ja", "日付,ワークアウト名,時間,エクササイズ名,セットの順番,重量,レップ数,距離,秒,メモ,ワークアウトメモ,RPE"),
        ("pt", "Data,Nome do treino,Duração,Nome do exercício,Ordem da série,Peso,Repetições,Distância,Segundos,Notas,Notas do treino,RPE"),
        ("pl", "Data,Nazwa treningu,Czas trwania,Nazwa ćwiczenia,Kolejność serii,Ciężar,Powtórzenia,Dystans,Sekundy,Notatki,Notatki treningu,RPE"),
        ("tr", "Tarih,Antrenman Adı,Süre,Egzersiz Adı,Set Sırası,Ağırlık,Tekrar,Mesafe,Saniye,Notlar,Antrenman Notları,RPE"),
    ])
    func strongInALanguageNoTableHasIsReadByItsShape(language: String, header: String) throws {
        // Given a Strong export whose header no table knows, dated the way Strong writes
        let file = try Self.parse(Self.strong(header, ["2025-09-15 19:48:00", "2025-09-15 19:48:00"]))
        // Then it is read as Strong, and the import says which column it took as which
        #expect(file.source == .strong, "\(language)")
        #expect(file.badRows.isEmpty, "\(language): \(file.badRows)")
        #expect(file.setCount == 2)
        #expect(file.workouts.first?.startedAt == Self.sept15)
        let said = try #require(file.detectedBy)
        #expect(said.hasPrefix("Read as Strong by its shape") && said.contains("as Set Order"), "\(said)")
    }

    @Test func hevyInALanguageNoTableHasIsReadByItsShapeWithTheUnitItsColumnNames() throws {
        // Given a Hevy export with Turkish words, the weight in pounds as its column says, a Turkish date
        let header = "\"başlık\",\"başlangıç\",\"bitiş\",\"açıklama\",\"egzersiz\",\"süperset\",\"egzersiz_notları\","
            + "\"set_sırası\",\"set_türü\",\"ağırlık_lbs\",\"tekrar\",\"mesafe_km\",\"süre_saniye\",\"rpe\"\n"
        let file = try Self.parse(header + Self.hevyRow("15 Eyl 2025 19:48", "15 Eyl 2025 20:55", weight: "225"))
        #expect(file.source == .hevy)
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.workouts.first?.startedAt == Self.sept15)
        #expect(file.workouts.first?.sets.first?.values.weight == Weight(Fixed(225), .lb))
        let said = try #require(file.detectedBy)
        #expect(said.contains("ağırlık_lbs as weight_lbs") && said.contains("Read as Hevy by its shape"), "\(said)")
    }

    // MARK: - GymRun and StrongLifts' wide export

    static let gymRunHeader = "Date;Time;Routine;Exercise;Set;Weight;Reps;Duration;Distance;Para6;Para7;Para8;Para9;Para10;Note;Type;Book;Version1\n"

    @Test func gymRunIsReadEachSetAtItsTime() throws {
        // Given GymRun's layout: dotted dates, a time per set, decimal commas, no unit
        let file = try Self.parse(Self.gymRunHeader
            + "29.04.2025;12:00:00;Chest;Barbell Flat Bench Press;1;100;10;;;;;;;;;1;1;1\n"
            + "29.04.2025;12:05:00;Chest;Barbell Flat Bench Press;2;102,5;8;;;;;;;;felt heavy;1;1;1\n"
            + "30.04.2025;18:00:00;Run;Treadmill;1;;;1800;5,2;;;;;;;2;1;1\n")
        #expect(file.source == .gymrun)
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.assumedWeightUnit == .kg && file.assumedDistanceUnit == .km)
        #expect(file.workouts.map(\.name) == ["Chest", "Run"])
        #expect(file.workouts.map(\.startedAt) == [ImportParserTests.at(2025, 4, 29, 12, 0), ImportParserTests.at(2025, 4, 30, 18, 0)])
        #expect(file.workouts[0].sets.map(\.performedAt) == [ImportParserTests.at(2025, 4, 29, 12, 0), ImportParserTests.at(2025, 4, 29, 12, 5)])
        #expect(file.workouts[0].sets.last?.values.weight == Weight(Fixed(thousandths: 102_500), .kg))
        #expect(file.workouts[0].sets.last?.values.note == "felt heavy")
        #expect(file.workouts[1].sets.first?.values.distance == Distance(Fixed(thousandths: 5_200), .km))
        // The same rows under German words no table has are read by their shape
        let german = "Datum;Uhrzeit;Routine;Übung;Satz;Gewicht;Wdh;Dauer;Distanz;P6;P7;P8;P9;P10;Notiz;Typ;Buch;Version1\n"
        let shaped = try Self.parse(german + "29.04.2025;12:00:00;Brust;Bankdrücken;1;100;10;;;;;;;;;1;1;1\n")
        #expect(shaped.source == .gymrun && shaped.setCount == 1)
        #expect(shaped.detectedBy?.contains("Satz as Set") == true, "\(shaped.detectedBy ?? "")")
    }

    static let wideHeader = "Date,Note,Body Weight (KG),Body Weight (LB),"
        + (1...2).map { "Exercise \($0),Weight (KG),Weight (LB),Set 1,Set 2,Set 3" }.joined(separator: ",") + ",\n"

    @Test func strongliftsOldWideExportWithBothUnitsRaggedRowsAndDayFirstDates() throws {
        // Given the old export: each weight in a KG and an LB column, rows cut short where the
        // spreadsheet wrote no trailing empty cells, dates day first
        let file = try Self.parse(Self.wideHeader
            + "19/11/18,,91,,Squat,40,,5,5,5,Overhead Press,30,,5,5,4,\n"
            + "22/11/18,,91.4,,Squat,42.5,,5,5,5,Deadlift,,130,5\n")
        #expect(file.source == .stronglifts)
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.dateOrder == .dmy)
        #expect(file.workouts.map(\.startedAt) == [ImportParserTests.at(2018, 11, 19, 12, 0), ImportParserTests.at(2018, 11, 22, 12, 0)])
        #expect(ImportParserTests.summaries(file) == [
            "Squat (Barbell): 40kg x 5", "Squat (Barbell): 40kg x 5", "Squat (Barbell): 40kg x 5",
            "Overhead Press (Barbell): 30kg x 5", "Overhead Press (Barbell): 30kg x 5", "Overhead Press (Barbell): 30kg x 4",
            "Squat (Barbell): 42.5kg x 5", "Squat (Barbell): 42.5kg x 5", "Squat (Barbell): 42.5kg x 5",
            "Deadlift (Barbell): 130lb x 5",
        ])
        #expect(file.ignoredRows == [LeftOutRow(line: 3, reason: .notDone), LeftOutRow(line: 3, reason: .notDone)])
        #expect(file.bodyweights.map(\.weight) == [Weight(Fixed(91), .kg), Weight(Fixed(thousandths: 91_400), .kg)])
    }

    @Test func strongliftsWideExportInWordsNoTableHasIsReadByItsShape() throws {
        // Given the same layout in Polish: blocks of a name, two weights and the sets, repeated
        let header = "Data,Notatka,Masa ciała (KG),Masa ciała (LB),"
            + (1...2).map { "Ćwiczenie \($0),Ciężar (KG),Ciężar (LB),Seria 1,Seria 2,Seria 3" }.joined(separator: ",") + "\n"
        let file = try Self.parse(header + "19/11/18,,91,,Squat,40,,5,5,5,Bench Press,30,,5,5,4\n"
                                  + "22/11/18,,91,,Squat,42.5,,5,5,5,Deadlift,60,,5,,\n")
        #expect(file.source == .stronglifts)
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.setCount == 10)
        #expect(file.workouts.map(\.startedAt) == [ImportParserTests.at(2018, 11, 19, 12, 0), ImportParserTests.at(2018, 11, 22, 12, 0)])
        #expect(file.workouts[1].sets.last?.values.weight == Weight(Fixed(60), .kg), "Ciężar (KG) keeps its unit")
        let said = try #require(file.detectedBy)
        #expect(said.contains("Ćwiczenie 1 as Exercise 1") && said.contains("Seria 3 as Set 3"), "\(said)")
    }
}
