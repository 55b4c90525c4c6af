import Foundation
import GRDB
import GymLogCore
import GymLogStore
import GymLogTestSupport
import Testing

/// `gymlog export` then `gymlog import` into an empty database, run as a user runs them:
/// the values, units, order and aliases come back.
@Suite struct ExportRoundTripCommandTests {
    /// The set columns of a native export, without ids and times, one row per set in file order.
    static func setValues(_ nativeCSV: String) -> [[String]] {
        let rows = ImportCSVCursor.rows(nativeCSV)
        guard let header = rows.first else { return [] }
        let columns = ["exercise", "kind", "weight", "weight_unit", "bodyweight", "reps", "rpe", "distance", "distance_unit",
                       "duration_seconds", "note"].map { header.firstIndex(of: $0)! }
        return rows.dropFirst().map { row in columns.map { row[$0] } }
    }

    /// The values of the `column` in every data row of a CSV export (`,` or `;`, told by its header).
    static func column(_ csv: String, _ name: String) -> [String] {
        let rows = ImportCSVCursor.rows(csv, delimiter: nil)
        guard let i = rows.first?.firstIndex(of: name) else { return [] }
        return rows.dropFirst().map { $0[i] }
    }

    static func write(_ text: String, _ home: TemporaryHome, _ name: String) throws -> String {
        let path = home.root + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: ["strong", "native"], ["kg", "lb"])
    func setsTypedInEitherUnitComeBackAsTyped(format: String, readerUnit: String) throws {
        // Given sets typed in kg and lb, metres, kilometres and miles, bodyweight with added and assisted load
        let source = try TemporaryHome()
        let logged = try source.gymlog([], stdin: """
            bench 225lb x5
            bench 100x5 @8
            bench 102.125x3
            row 2000m 7:41
            run 5km 25:00
            run 3.1mi 26:10
            pullup bw x8
            pullup bw+20x5
            pullup bw-15lb x10
            plank 90s
            """)
        #expect(logged.status == 0, "\(logged.stderr)")
        let export = try source.gymlog(["export", "--format", format])
        #expect(export.status == 0, "\(export.stderr)")
        let file = try Self.write(export.stdout, source, "export.csv")

        // When it is imported into an empty database by a user whose unit is `readerUnit`
        let target = try TemporaryHome()
        let imported = try target.gymlog(["import", file, "--unit", readerUnit])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Then no unit was assumed, and every set has its value in the unit it was typed in, in order
        #expect(!imported.stdout.contains("gives no unit"), "\(imported.stdout)")
        let before = Self.setValues(try source.gymlog(["export"]).stdout)
        let after = Self.setValues(try target.gymlog(["export"]).stdout)
        #expect(before.count == 10)
        #expect(after == before)
    }

    /// `text` (`102.5`, `-15`) as a load or distance in `unit`, converted as the hevy layout converts it.
    static func converted(_ text: String, from unit: String, to target: String) -> String {
        guard !text.isEmpty else { return text }
        let negative = text.hasPrefix("-")
        var value = Fixed(parsing: negative ? String(text.dropFirst()) : text)!
        if negative { value = Fixed(thousandths: -value.thousandths) }
        if let from = WeightUnit(rawValue: unit), let to = WeightUnit(rawValue: target) {
            return Weight(value, from).converted(to: to).value.description
        }
        return Distance(value, DistanceUnit(rawValue: unit)!).converted(to: DistanceUnit(rawValue: target)!).value.description
    }

    @Test(arguments: ["kg", "lb"])
    func aHevyExportImportsBackInTheConfiguredUnit(unit: String) throws {
        // Given a user whose unit is `unit`, with sets typed in kg and lb, metres and miles, bodyweight
        // with added and assisted load, a timed set, every set kind and a note
        let source = try TemporaryHome()
        try "unit = \"\(unit)\"\n".write(toFile: source.config, atomically: true, encoding: .utf8)
        let logged = try source.gymlog([], stdin: """
            bench w60kg x10
            bench 225lb x5 @8
            bench 102.125kg x3 f # paused, "touch and go"
            bench 80kg x8 d
            row 2000m 7:41
            run 3.1mi 26:10
            pullup bw x8
            pullup bw+20kg x5
            pullup bw-15lb x10
            plank 90s
            carry 40kg 50m
            """)
        #expect(logged.status == 0, "\(logged.stderr)")
        let export = try source.gymlog(["export", "--format", "hevy"])
        #expect(export.status == 0, "\(export.stderr)")
        let header = try #require(ImportCSVCursor.rows(export.stdout).first)
        let weightColumn = unit == "kg" ? "weight_kg" : "weight_lbs", distanceUnit = unit == "kg" ? "km" : "mi"
        #expect(header.contains(weightColumn) && header.contains(unit == "kg" ? "distance_km" : "distance_miles"), "\(header)")

        // When it is imported into an empty database
        let target = try TemporaryHome()
        let imported = try target.gymlog(["import", try Self.write(export.stdout, source, "hevy.csv")])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stdout.contains("gives no unit"), "\(imported.stdout)")
        // Then every set is back in order, its load and distance in the configured unit to the thousandth,
        // its note in the workout's note
        let before = Self.setValues(try source.gymlog(["export"]).stdout)
        let expected = before.map { row -> [String] in
            var r = row
            if !r[2].isEmpty { r[2] = Self.converted(r[2], from: r[3], to: unit); r[3] = unit }
            if !r[7].isEmpty { r[7] = Self.converted(r[7], from: r[8], to: distanceUnit); r[8] = distanceUnit }
            r[10] = ""
            return r
        }
        let afterExport = try target.gymlog(["export"]).stdout
        #expect(before.count == 11)
        #expect(Self.setValues(afterExport) == expected)
        #expect(Self.column(afterExport, "workout_note").first == "bench: paused, \"touch and go\"")
    }

    @Test func addedLoadOnAStoredBodyweightExerciseComesBackAsAddedLoad() throws {
        // Given a Strong export whose dips all carry added load (Strong writes `bw+20x6` as Weight 20)
        let source = try TemporaryHome()
        #expect(try source.gymlog([], stdin: "dip bw+20x6\ndip bw+22.5x5\n").status == 0)
        let file = try Self.write(try source.gymlog(["export", "--format", "strong"]).stdout, source, "strong.csv")
        // When it is imported where Dip is a bodyweight exercise
        let target = try TemporaryHome()
        #expect(try target.gymlog(["log", "dip bw x10"]).status == 0)
        let imported = try target.gymlog(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Then the loads are added load, as they were typed
        let rows = Self.setValues(try target.gymlog(["export"]).stdout)
        #expect(rows.map { $0[4] } == ["true", "true", "true"])
        #expect(rows.filter { !$0[2].isEmpty } == Self.setValues(try source.gymlog(["export"]).stdout), "\(rows)")
    }

    @Test func aStrongExportImportedIntoAnEmptyDatabaseExportsByteForByte() throws {
        // Given a finished, named workout yesterday and an unfinished one, with every set kind,
        // kg and lb, bodyweight with added and assisted load, time, distance, RPE and notes
        // (on two days: Strong's Date is to the second, and two workouts started in one second
        // could come back in either order)
        let source = try TemporaryHome()
        let logged = try source.gymlog([], stdin: """
            start --at yesterday 18:00 Push Day
            bench w60x10
            bench 100x5 @8
            bench 102.5x5 # paused; "touch and go"
            bench 70.25x10 d
            bench 225lb x 3 f
            dip bw x10
            dip bw+20x6
            dip bw-15lb x8
            row 2000m 7:41
            run 3.1mi 26:10
            note Felt strong; slept 8h
            finish
            squat 140x5 @7.5
            plank 60s
            """)
        #expect(logged.status == 0, "\(logged.stderr)")
        let exported = try source.gymlog(["export", "--format", "strong"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let lines = exported.stdout.utf8.split(separator: 10, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        #expect(lines.first == "Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes;Workout Duration")
        #expect(lines.count == 1 + 12 + 1 && lines.last == "" && !exported.stdout.contains("\r"))
        #expect(Self.column(exported.stdout, "Set Order") == ["W", "1", "2", "D", "F", "1", "2", "3", "1", "1", "1", "1"], "\(exported.stdout)")

        // When it is imported into a fresh database and exported again
        let target = try TemporaryHome()
        let imported = try target.gymlog(["import", try Self.write(exported.stdout, source, "strong.csv")])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Detected a Strong export") && imported.stdout.contains("Imported 2 workouts, 12 sets"),
                "\(imported.stdout)")
        #expect(!imported.stdout.contains("gives no unit"), "\(imported.stdout)")

        // Then the two exports are the same bytes
        #expect(try target.gymlog(["export", "--format", "strong"]).stdout == exported.stdout)
        // And every set is back value for value, kind, unit and note included, and the workout's name and note
        let before = try source.gymlog(["export"]).stdout, after = try target.gymlog(["export"]).stdout
        #expect(Self.setValues(after) == Self.setValues(before))
        #expect(Self.column(after, "workout_name") == Self.column(before, "workout_name").map { $0.isEmpty ? "Workout" : $0 })
        #expect(Self.column(after, "workout_note") == Self.column(before, "workout_note"))
        // And a second import adds nothing
        let twice = try target.gymlog(["import", try Self.write(exported.stdout, source, "strong.csv")])
        #expect(twice.stdout.contains("Imported 0 workouts, 0 sets"), "\(twice.stdout)")
    }

    @Test func setsAreListedInTheOrderTheyWereDone() throws {
        // Given a superset: bench, squat, bench, row, squat
        let home = try TemporaryHome()
        #expect(try home.gymlog([], stdin: "bench 100x5\nsquat 140x5\nbench 100x5\nrow 2000m 7:41\nsquat 140x4\n").status == 0)
        let done = ["bench", "squat", "bench", "row", "squat"]
        // Then both export layouts, show and its JSON list them as they were done
        let native = try home.gymlog(["export"]).stdout
        #expect(Self.column(native, "exercise").map { $0.lowercased() } == done)
        #expect(Self.column(native, "set_order") == ["1", "1", "2", "1", "2"])
        let strong = try home.gymlog(["export", "--format", "strong"]).stdout
        #expect(Self.column(strong, "Exercise Name").map { $0.lowercased() } == done)
        #expect(Self.column(strong, "Set Order") == ["1", "1", "2", "1", "2"])
        let show = try home.gymlog(["show"]).stdout.split(separator: "\n").dropFirst()
        #expect(show.map { $0.split(separator: " ")[1].lowercased() } == done, "\(show)")
        let json = try JSONSerialization.jsonObject(with: Data(try home.gymlog(["show", "--json"]).stdout.utf8)) as? [String: Any]
        let sets = (json?["workout"] as? [String: Any])?["sets"] as? [[String: Any]] ?? []
        #expect(sets.compactMap { ($0["exercise"] as? String)?.lowercased() } == done)
        // And re-importing the native export keeps that order, even for sets logged in one millisecond
        let target = try TemporaryHome()
        #expect(try target.gymlog(["import", try Self.write(native, home, "n.csv")]).status == 0)
        #expect(try target.gymlog(["export"]).stdout == native)
    }

    @Test func aliasesSurviveANativeExportAndImport() throws {
        // Given an exercise with two aliases
        let source = try TemporaryHome()
        #expect(try source.gymlog(["log", "bench press 100x5"]).status == 0)
        #expect(try source.gymlog(["exercises", "alias", "bp", "bench press"]).status == 0)
        #expect(try source.gymlog(["exercises", "alias", "flat; bench", "bench press"]).status == 0)
        let export = try source.gymlog(["export"]).stdout
        // When the export is imported into an empty database
        let target = try TemporaryHome()
        let imported = try target.gymlog(["import", try Self.write(export, source, "n.csv")])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Added 2 aliases"), "\(imported.stdout)")
        // Then the aliases are there, synced like any change, and `bp` logs to the exercise
        #expect(try target.gymlog(["exercises"]).stdout.contains("aliases: bp, flat; bench"))
        let outbox = try DatabaseQueue(path: target.database).read {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM outbox WHERE entity = 'aliases'")
        }
        #expect(outbox == 2)
        #expect(try target.gymlog(["log", "bp 105x3"]).status == 0)
        #expect(Self.column(try target.gymlog(["export"]).stdout, "exercise").count == 2)
        // And the export is the same bytes again; a second import adds nothing
        let again = try target.gymlog(["export"]).stdout
        #expect(Self.column(again, "exercise_aliases") == ["bp;\"flat; bench\"", "bp;\"flat; bench\""])
        let twice = try target.gymlog(["import", try Self.write(export, source, "n.csv")])
        #expect(!twice.stdout.contains("Added"), "\(twice.stdout)")
    }

    @Test func supersetsAndBodyweightSurviveANativeExportAndImport() throws {
        // Given two rounds of a superset, a set on its own, another superset, and bodyweight in kg and lb
        let source = try TemporaryHome()
        let logged = try source.gymlog([], stdin: """
            bw 82.5
            bench 100x5 & row 70x8
            +
            squat 140x5
            curl 14x12 & pushdown 30x12
            """)
        #expect(logged.status == 0, "\(logged.stderr)")
        #expect(try source.gymlog(["bw", "181lb", "--at", "yesterday 07:30"]).status == 0)
        let export = try source.gymlog(["export", "--out", source.root + "/n.csv"])
        #expect(export.status == 0 && export.stderr.contains("Exported 7 sets and 2 bodyweight entries"), "\(export.stderr)")
        let native = try String(contentsOfFile: source.root + "/n.csv", encoding: .utf8)
        let supersets = Self.column(native, "superset_id")
        #expect(supersets.count == 9)
        #expect(Set(supersets[0..<4]).count == 1 && !supersets[0].isEmpty && supersets[4] == "", "\(supersets)")
        #expect(supersets[5] == supersets[6] && supersets[5] != supersets[0] && !supersets[5].isEmpty)
        #expect(Self.column(native, "kind").suffix(2) == ["bodyweight_entry", "bodyweight_entry"])

        // When it is imported into an empty database
        let target = try TemporaryHome()
        let imported = try target.gymlog(["import", source.root + "/n.csv"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Imported 2 bodyweight entries."), "\(imported.stdout)")
        // Then its export is the same bytes, `bw` lists the entries and `+` repeats the imported superset's round
        #expect(try target.gymlog(["export"]).stdout == native)
        #expect(try target.gymlog(["bw"]).stdout == (try source.gymlog(["bw"]).stdout))
        #expect(try target.gymlog(["show"]).stdout.contains("A1"), "show marks the superset groups")
        // And a second import adds nothing
        let twice = try target.gymlog(["import", source.root + "/n.csv"])
        #expect(twice.stdout.contains("Imported 0 workouts, 0 sets") && twice.stdout.contains("7 sets, 2 bodyweight entries."),
                "\(twice.stdout)")
        #expect(try target.gymlog(["export"]).stdout == native)
    }

    @Test func hevyExportNumbersSupersetsPerWorkoutAndReadsThemBack() throws {
        // Given a superset, a set on its own and another superset
        let source = try TemporaryHome()
        #expect(try source.gymlog([], stdin: "bench 100x5 & row 70x8\n+\nsquat 140x5\ncurl 14x12 & pushdown 30x12\n").status == 0)
        // When it is exported in Hevy's layout
        let hevy = try source.gymlog(["export", "--format", "hevy"]).stdout
        // Then superset_id numbers the supersets from 0, as Hevy does
        #expect(Self.column(hevy, "superset_id") == ["0", "0", "0", "0", "", "1", "1"])
        // And imported (twice), the sets are in the same groups and nothing is added the second time
        let target = try TemporaryHome()
        let path = try Self.write(hevy, source, "hevy.csv")
        #expect(try target.gymlog(["import", path]).status == 0)
        let again = try target.gymlog(["import", path])
        #expect(again.stdout.contains("Imported 0 workouts, 0 sets"), "\(again.stdout)")
        #expect(Self.column(try target.gymlog(["export", "--format", "hevy"]).stdout, "superset_id") == ["0", "0", "0", "0", "", "1", "1"])
    }

    @Test func anImportOutsideTheLimitsRejectsThoseRowsWithTheirLinesOrIsRefusedWhenStrict() throws {
        // Given a Strong file with a 100000 kg set, RPE 7.3 and an unclosed quote on line 5
        let home = try TemporaryHome()
        let path = try Self.write("""
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
            2024-05-01 10:00:00,A,30m,Bench Press,1,100,5,0,0,,,
            2024-05-01 10:00:00,A,30m,Bench Press,2,100000,5,0,0,,,
            2024-05-01 10:00:00,A,30m,Bench Press,3,100,5,0,0,,,7.3
            2024-05-01 10:00:00,A,30m,Bench Press,4,100,5,0,0,"paused,,
            2024-05-01 10:00:00,A,30m,Squat,1,140,5,0,0,,,
            """, home, "limits.csv")
        // When it is imported with --strict
        let refused = try home.gymlog(["import", path, "--strict"])
        // Then nothing is written and the first bad line says why
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("line 3: weight 100000kg is more than 2000kg"), "\(refused.stderr)")
        // When it is imported
        let skipped = try home.gymlog(["import", path])
        // Then the good rows, including the one after the unclosed quote, are imported, and each bad line says why
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stdout.contains("Imported 1 workout, 2 sets"), "\(skipped.stdout)")
        #expect(skipped.stdout.contains("line 3: weight 100000kg is more than 2000kg"), "\(skipped.stdout)")
        #expect(skipped.stdout.contains("line 4: RPE 7.3"))
        #expect(skipped.stdout.contains("line 5: a quoted field opens on this line and is never closed"))
        #expect(skipped.stdout.contains("the 1 line after it is read on its own"))
    }

    @Test(arguments: ["native", "strong", "hevy"])
    func formulasInNotesAreExportedAsTextAndImportBackAsTyped(format: String) throws {
        // Given a workout named and noted with formulas, set notes that begin with =, - and @,
        // and an assisted set (a load of -10)
        let source = try TemporaryHome()
        let logged = try source.gymlog([], stdin: """
            start +1+1
            bench 100x5 # =HYPERLINK("http://x","y")
            bench 100x5 # -2+3
            dip bw-10x8 # @SUM(A1)
            note =cmd|'/c calc'!A1
            """)
        #expect(logged.status == 0, "\(logged.stderr)")
        let export = try source.gymlog(["export", "--format", format])
        #expect(export.status == 0, "\(export.stderr)")

        // Then no cell a spreadsheet reads begins with =, +, - or @ except the load, which stays a number
        let cells = ImportCSVCursor.rows(export.stdout, delimiter: nil)
        let header = try #require(cells.first)
        let load = try #require(header.firstIndex { ["weight", "Weight", "weight_kg"].contains($0) })
        for row in cells.dropFirst() {
            for (i, cell) in row.enumerated() where i != load {
                #expect(!["=", "+", "-", "@"].contains(cell.first), "\(header[i]): \(cell)")
            }
        }
        #expect(cells.dropFirst().map { $0[load] }.contains("-10"), "\(export.stdout)")
        #expect(export.stdout.contains(#"'=HYPERLINK("#) || export.stdout.contains(#"'=HYPERLINK(""#), "\(export.stdout)")

        // When it is imported into an empty database
        let target = try TemporaryHome()
        let imported = try target.gymlog(["import", try Self.write(export.stdout, source, "formulas.csv")])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Then the workout's name and note and every set come back exactly as typed (Hevy carries
        // set notes in the workout's note): the native exports of both, read raw, are the same
        // cells, guarded alike
        let before = try source.gymlog(["export"]).stdout, after = try target.gymlog(["export"]).stdout
        #expect(Self.column(after, "workout_name") == Self.column(before, "workout_name"))
        if format == "hevy" {
            let note = Self.column(after, "workout_note").first ?? ""
            #expect(note.hasPrefix("'=cmd|'/c calc'!A1\n") && note.contains(#"bench: =HYPERLINK("http://x","y")"#)
                    && note.contains("bench: -2+3") && note.contains("dip: @SUM(A1)"), "\(note)")
            #expect(Self.setValues(after).map { Array($0.prefix(10)) } == Self.setValues(before).map { Array($0.prefix(10)) })
        } else {
            #expect(Self.column(after, "workout_note") == Self.column(before, "workout_note"))
            #expect(Self.setValues(after) == Self.setValues(before))
            #expect(Self.column(after, "note").contains(#"'=HYPERLINK("http://x","y")"#), "\(after)")
        }
    }
}

/// Issue 48 (12): the native export is the whole history, and `import` restores it exactly.
@Suite struct WholeHistoryExportTests {
    @Test func aDatabaseRebuiltFromTheNativeExportHasItsRoutinesAndExportsTheSameBytes() throws {
        // Given sets, a superset, an alias, bodyweight and two routines (one with a 5/3/1 wave)
        let source = try TemporaryHome()
        #expect(try source.gymlog([], stdin: "bench 100x5x3\nbw 82.5\nsquat 140x5 & row 70x8\nrun 5km 25:00\n").status == 0)
        #expect(try source.gymlog(["exercises", "alias", "bp", "bench"]).status == 0)
        #expect(try source.gymlog(["routine", "add", "--file", "-"], stdin: "# Push A\nbench 3x5 100 linear +2.5\nohp 5/3/1 tm 60\n").status == 0)
        #expect(try source.gymlog(["routine", "add", "--file", "-"], stdin: "# Legs\nsquat 3x5 140\n").status == 0)
        let first = try source.gymlog(["export"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains(",routine,"), "\(first.stdout)")
        let file = try ExportRoundTripCommandTests.write(first.stdout, source, "export.csv")
        // When it is imported into a fresh database
        let target = try TemporaryHome()
        let imported = try target.gymlog(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Imported 2 routines."), "\(imported.stdout)")
        // Then it exports the same bytes, and lists the same routines
        let again = try target.gymlog(["export"])
        #expect(again.stdout == first.stdout)
        let listed = try source.gymlog(["routine", "list"]).stdout
        #expect(try target.gymlog(["routine", "list"]).stdout == listed)
        #expect(listed.contains("Push A") && !listed.contains("No routines yet"), "\(listed)")
        // And importing it again adds nothing, routines included
        let twice = try target.gymlog(["import", file])
        #expect(twice.stdout.contains("Left out 2 routines whose name the database has a routine of already."), "\(twice.stdout)")
        // And an export of a range of days leaves the routines out
        #expect(!(try source.gymlog(["export", "--since", "2000-01-01"]).stdout.contains(",routine,")))
    }
}
