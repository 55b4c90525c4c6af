import Foundation
import Testing
@testable import GymLogCore

/// Strong in every language and age: translated headers, rest-timer markers and durations,
/// the 2016 layout (units as column names), the ten-column layout, and a spreadsheet's
/// re-save with slash dates, whose day-month order is told from the dates or asked for.
@Suite struct ImportStrongDialectTests {
    static func parse(_ name: String, dateOrder: DateOrder? = nil) throws -> ImportedFile {
        let bytes = try [UInt8](Data(contentsOf: ImportParserTests.directory.appendingPathComponent(name)))
        return try ImportParser.parse(bytes, options: ImportOptions(dateOrder: dateOrder))
    }

    static func parse(text: String, dateOrder: DateOrder? = nil) throws -> ImportedFile {
        try ImportParser.parse(Array(text.utf8), options: ImportOptions(dateOrder: dateOrder))
    }

    @Test(arguments: ["strong-german-semicolon.csv", "strong-spanish.csv", "strong-french.csv",
                      "strong-2016-unit-columns.csv", "strong-2017-ten-columns.csv", "strong-2018-ten-columns-quoted.csv",
                      "strong-resaved-day-first.csv"])
    func everyLayoutIsDetectedAsStrongAndReadsWhole(name: String) throws {
        let file = try Self.parse(name)
        #expect(file.source == .strong)
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(file.setCount > 0)
    }

    @Test func germanHeadersRestTimersDecimalCommasAndDurations() throws {
        let file = try Self.parse("strong-german-semicolon.csv")
        #expect(ImportParserTests.summaries(file) == [
            "Bankdrücken (Langhantel): 60kg x 10", "Bankdrücken (Langhantel): 82.5kg x 6 @8.5  # Pause unten",
            "Klimmzug: bw x 8", "Laufen: 5.2km in 31:00",
        ])
        #expect(file.ignoredRows == [LeftOutRow(line: 3, reason: .restTimer)])
        #expect(file.workouts.map(\.name) == ["Oberkörper", "Laufen"])
        #expect(file.workouts[0].note == "Müde")
        #expect(file.workouts[0].endedAt == ImportParserTests.at(2024, 4, 2, 19, 51), "1 h 46 min")
        #expect(file.workouts[1].endedAt == ImportParserTests.at(2024, 4, 4, 7, 31), "31min")
    }

    @Test func spanishAndFrenchHeadersRestTimersAndDurations() throws {
        let spanish = try Self.parse("strong-spanish.csv")
        #expect(ImportParserTests.summaries(spanish) == [
            "Sentadilla (Barra): warm-up 40kg x 8", "Sentadilla (Barra): 100kg x 5 @9", "Plancha: 1:00",
        ])
        #expect(spanish.ignoredRows == [LeftOutRow(line: 3, reason: .restTimer)])
        #expect(spanish.workouts[0].endedAt == ImportParserTests.at(2024, 5, 10, 10, 32), "1h 2min")

        let french = try Self.parse("strong-french.csv")
        #expect(ImportParserTests.summaries(french) == [
            "Développé couché (Barre): 70kg x 8", "Développé couché (Barre): 72.5kg x 6 @8",
        ])
        #expect(french.ignoredRows == [LeftOutRow(line: 3, reason: .restTimer)])
        #expect(french.workouts[0].note == "Bonne séance" && french.workouts[0].name == "Push")
    }

    @Test func theSpanishHeaderStrongWritesTodayKeepsRepsBodyweightSetsAndWorkoutNames() throws {
        // Given Strong's Spanish header as the app writes it now (`Rep.`, `Nombre de
        // entrenamiento`), with push-ups at weight 0, a loaded set, a rest timer and a set never filled in
        let file = try Self.parse(text: "Fecha,Nombre de entrenamiento,Duración,Nombre del ejercicio,Orden de la serie,Peso,Rep.,"
                                  + "Distancia,Segundos,Notas,Notas del entrenamiento,RPE\n"
                                  + "2022-04-17 22:09:15,\"Empuje\",1 h 46 min,\"Push Up\",1,0,12.0,0,0.0,\"\",\"\",\n"
                                  + "2022-04-17 22:09:15,\"Empuje\",1 h 46 min,\"Push Up\",Temporizador de descanso,0,0,0,90.0,,,\n"
                                  + "2022-04-17 22:09:15,\"Empuje\",1 h 46 min,\"Push Up\",2,0,10.0,0,0.0,,,\n"
                                  + "2022-04-17 22:09:15,\"Empuje\",1 h 46 min,\"Bench Press (Barbell)\",1,60.0,8.0,0,0.0,,,8\n"
                                  + "2022-04-17 22:09:15,\"Empuje\",1 h 46 min,\"Bench Press (Barbell)\",2,0,0,0,0.0,,,\n")
        // Then every set with reps is kept with its reps, the push-ups as bodyweight sets
        #expect(file.badRows.isEmpty, "\(file.badRows)")
        #expect(ImportParserTests.summaries(file) == ["Push Up: bw x 12", "Push Up: bw x 10", "Bench Press (Barbell): 60kg x 8 @8"])
        // And only the rest timer and the set never filled in are left out
        #expect(file.ignoredRows == [LeftOutRow(line: 3, reason: .restTimer), LeftOutRow(line: 6, reason: .emptySet)])
        #expect(file.workouts.map(\.name) == ["Empuje"])
    }

    @Test func the2016LayoutNamesTheUnitInTheColumnAndCountsSetsFromZero() throws {
        let file = try Self.parse("strong-2016-unit-columns.csv")
        #expect(ImportParserTests.summaries(file) == [
            "Squat: 60kg x 5", "Squat: 62.5kg x 5  # deep", "Rowing (Machine): 2.5km in 10:00",
        ])
        #expect(file.assumedWeightUnit == nil && file.assumedDistanceUnit == nil, "kg and km are in the header")
    }

    @Test func theTenColumnLayoutWithoutDurationOrRPE() throws {
        let file = try Self.parse("strong-2017-ten-columns.csv")
        #expect(ImportParserTests.summaries(file) == ["Deadlift (Barbell): 140kg x 5", "Deadlift (Barbell): 150kg x 3  # belt"])
        #expect(file.workouts[0].note == "heavy day")
    }

    @Test func theTenColumnLayoutAsStrongWroteItIn2018QuotedWithEmptyNotesAndKilogramDust() throws {
        let file = try Self.parse("strong-2018-ten-columns-quoted.csv")
        #expect(file.source == .strong && file.badRows.isEmpty, "\(file.badRows)")
        #expect(ImportParserTests.summaries(file) == [
            "Squat (Barbell): 61.235kg x 5", "Squat (Barbell): 61.235kg x 5", "Chin Up: bw x 8  # slow, \"dead\" hang",
            "Running: 3.2km in 21:00",
        ])
        #expect(file.workouts.map(\.name) == ["Evening Workout"])
        #expect(file.workouts[0].note == "Knees, ok")
        #expect(file.assumedDistanceUnit == .km && file.assumedWeightUnit == .kg)
    }

    @Test func aResaveWithADayAbove12IsReadDayFirst() throws {
        let file = try Self.parse("strong-resaved-day-first.csv")
        #expect(file.dateOrder == .dmy)
        #expect(file.workouts.map(\.startedAt) == [ImportParserTests.at(2024, 4, 3, 18, 30), ImportParserTests.at(2024, 4, 25, 7, 5)])
    }

    @Test func aResaveWithAMonthDayAbove12IsReadMonthFirst() throws {
        let file = try Self.parse(text: "Date,Workout Name,Exercise Name,Set Order,Weight,Reps\n"
                                  + "03/04/2024 18:30,A,Squat,1,100,5\n04/25/2024 18:30,B,Squat,1,100,5\n")
        #expect(file.dateOrder == .mdy)
        #expect(file.workouts.map(\.startedAt) == [ImportParserTests.at(2024, 3, 4, 18, 30), ImportParserTests.at(2024, 4, 25, 18, 30)])
    }

    static let ambiguous = "Date,Workout Name,Exercise Name,Set Order,Weight,Reps\n"
        + "03/04/2024 18:30,A,Squat,1,100,5\n05/06/2024 18:30,B,Squat,1,100,5\n"

    @Test func aResaveWhereNoDayIsAbove12IsRefusedNamingTheOption() throws {
        let error = #expect(throws: UserError.self) { try Self.parse(text: Self.ambiguous) }
        #expect(error?.message.contains("'03/04/2024 18:30'") == true)
        #expect(error?.message.contains("--date-order dmy") == true && error?.message.contains("--date-order mdy") == true)
        // The option settles it either way.
        #expect(try Self.parse(text: Self.ambiguous, dateOrder: .dmy).workouts[0].startedAt == ImportParserTests.at(2024, 4, 3, 18, 30))
        #expect(try Self.parse(text: Self.ambiguous, dateOrder: .mdy).workouts[0].startedAt == ImportParserTests.at(2024, 3, 4, 18, 30))
    }

    @Test func aDateThatDoesNotFitTheOrderIsABadRowWithItsLine() throws {
        let file = try Self.parse(text: "Date,Workout Name,Exercise Name,Set Order,Weight,Reps\n"
                                  + "25/04/2024 18:30,A,Squat,1,100,5\n04/25/2024 18:30,B,Squat,1,100,5\n")
        #expect(file.dateOrder == .dmy)
        #expect(file.badRows.map(\.line) == [3])
        #expect(file.badRows.first?.reason.contains("31/01/2024 10:15") == true)
    }
}
