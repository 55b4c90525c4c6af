import Foundation
import GRDB
import GymLogCore
import GymLogStore
import GymLogTestSupport
import Testing

/// `gymlog import` run as a user runs it: the real binary against a fresh database.
@Suite struct ImportCommandTests {
    /// Imports fixture `name` from a copy in the home's folder: an import writes the rows it
    /// cannot read beside the file, which must not be the project's fixtures folder.
    static func importFixture(_ home: TemporaryHome, _ name: String, _ extra: [String] = []) throws -> TemporaryHome.Run {
        let copy = home.root + "/fixtures/" + name
        if !FileManager.default.fileExists(atPath: copy) {
            try FileManager.default.createDirectory(atPath: home.root + "/fixtures", withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: fixture("import/" + name), to: URL(fileURLWithPath: copy))
        }
        return try home.gymlog(["import", copy] + extra)
    }

    static func count(_ home: TemporaryHome, _ sql: String) throws -> Int {
        try DatabaseQueue(path: home.database).read { try Int.fetchOne($0, sql: sql) ?? -1 }
    }

    @Test(arguments: [
        ("strong-comma-newest-first.csv", "Strong", "Imported 2 workouts, 11 sets, 5 new exercises"),
        ("strong-comma-later-overlapping.csv", "Strong", "Imported 3 workouts, 13 sets, 5 new exercises"),
        ("strong-semicolon-units.csv", "Strong", "Imported 2 workouts, 6 sets, 3 new exercises"),
        ("strong-quoted-kg.csv", "Strong", "Imported 1 workout, 3 sets, 2 new exercises"),
        ("strong-minimal-no-duration-rpe-notes.csv", "Strong", "Imported 1 workout, 3 sets, 2 new exercises"),
        ("hevy-kg-km.csv", "Hevy", "Imported 2 workouts, 8 sets, 4 new exercises"),
        ("hevy-lbs-miles.csv", "Hevy", "Imported 1 workout, 3 sets, 2 new exercises"),
        ("hevy-kg-miles.csv", "Hevy", "Imported 1 workout, 2 sets, 2 new exercises"),
        ("fitnotes-kgs.csv", "FitNotes", "Imported 2 workouts, 5 sets, 4 new exercises"),
        ("fitnotes-weight-unit-column.csv", "FitNotes", "Imported 1 workout, 3 sets, 2 new exercises"),
        ("fitnotes-lbs-comment.csv", "FitNotes", "Imported 1 workout, 2 sets, 1 new exercise"),
        // Quirks with a faithful reading (issue 14)
        ("strong-unit-spellings.csv", "Strong", "Imported 1 workout, 8 sets, 3 new exercises"),
        ("fitnotes-unit-spellings.csv", "FitNotes", "Imported 1 workout, 4 sets, 3 new exercises"),
        ("strong-units-of-missing-values.csv", "Strong", "Imported 1 workout, 4 sets, 3 new exercises"),
        ("fitnotes-units-of-missing-values.csv", "FitNotes", "Imported 1 workout, 4 sets, 3 new exercises"),
        ("strong-timer-left-running.csv", "Strong", "Imported 2 workouts, 5 sets, 2 new exercises"),
        ("hevy-timer-left-running.csv", "Hevy", "Imported 1 workout, 2 sets, 1 new exercise"),
        ("strong-empty-sets.csv", "Strong", "Imported 1 workout, 2 sets, 2 new exercises"),
        ("hevy-empty-sets.csv", "Hevy", "Imported 1 workout, 1 set, 1 new exercise"),
        // Strong in every language and age, Fitbod, Hevy's API (issue 25)
        ("strong-german-semicolon.csv", "Strong", "Imported 2 workouts, 4 sets, 3 new exercises"),
        ("strong-spanish.csv", "Strong", "Imported 1 workout, 3 sets, 2 new exercises"),
        ("strong-french.csv", "Strong", "Imported 1 workout, 2 sets, 1 new exercise"),
        ("strong-2016-unit-columns.csv", "Strong", "Imported 1 workout, 3 sets, 2 new exercises"),
        ("strong-2017-ten-columns.csv", "Strong", "Imported 1 workout, 2 sets, 1 new exercise"),
        ("strong-2018-ten-columns-quoted.csv", "Strong", "Imported 1 workout, 4 sets, 3 new exercises"),
        ("strong-resaved-day-first.csv", "Strong", "Imported 2 workouts, 3 sets, 2 new exercises"),
        ("fitbod-kg-crlf-unquoted-notes.csv", "Fitbod", "Imported 2 workouts, 7 sets, 6 new exercises"),
        ("fitbod-lb-spreadsheet-resave.csv", "Fitbod", "Imported 1 workout, 4 sets, 1 new exercise"),
        ("hevy-api-one-page.json", "Hevy (API JSON)", "Imported 2 workouts, 7 sets, 5 new exercises"),
        ("hevy-api-pages-list.json", "Hevy (API JSON)", "Imported 2 workouts, 3 sets, 1 new exercise"),
        ("liftosaur-20-columns.csv", "Liftosaur", "Imported 2 workouts, 5 sets, 4 new exercises"),
        ("liftosaur-older-15-columns.csv", "Liftosaur", "Imported 1 workout, 2 sets, 1 new exercise"),
        ("lyfta-no-units-supersets.csv", "Lyfta", "Imported 2 workouts, 6 sets, 4 new exercises"),
        ("repcount-swedish.csv", "RepCount", "Imported 2 workouts, 4 sets, 3 new exercises"),
        ("jefit-lbs-packed-sessions-first.csv", "JEFIT", "Imported 3 workouts, 11 sets, 5 new exercises"),
        ("jefit-kg-set-logs-sections-reordered.csv", "JEFIT", "Imported 2 workouts, 6 sets, 3 new exercises"),
        ("stronglifts-blocks-sets-not-done.csv", "StrongLifts 5x5", "Imported 3 workouts, 35 sets, 5 new exercises"),
        ("stronglifts-header-units-two-blocks.csv", "StrongLifts 5x5", "Imported 2 workouts, 11 sets, 3 new exercises"),
        ("alpha-progression-lbs-comma.csv", "Alpha Progression", "Imported 2 workouts, 14 sets, 5 new exercises"),
        ("alpha-progression-kg-semicolon-rir.csv", "Alpha Progression", "Imported 2 workouts, 13 sets, 4 new exercises"),
        ("alpha-progression-kg-comma.csv", "Alpha Progression", "Imported 1 workout, 3 sets, 1 new exercise"),
        ("gymbook-italian.csv", "GymBook", "Imported 2 workouts, 6 sets, 4 new exercises"),
        ("gymbook-english-month-first.csv", "GymBook", "Imported 1 workout, 3 sets, 2 new exercises"),
    ])
    func everyFixtureImportsAndReimportingIsANoOp(name: String, app: String, summary: String) throws {
        // Given an empty database
        let home = try TemporaryHome()
        // When a fixture is imported
        let first = try Self.importFixture(home, name)
        // Then the app is named, the counts are right, and every row has its outbox event
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Detected \(app.first.map { "AEIOU".contains($0) } == true ? "an" : "a") \(app) export"))
        #expect(first.stdout.contains(summary), "\(first.stdout)")
        let sets = try Self.count(home, "SELECT COUNT(*) FROM sets")
        let events = try Self.count(home, "SELECT COUNT(*) FROM outbox")
        #expect(try Self.count(home, "SELECT COUNT(*) FROM outbox WHERE entity = 'sets'") == sets)
        let workouts = try Self.count(home, "SELECT COUNT(*) FROM workouts")
        #expect(try Self.count(home, "SELECT COUNT(*) FROM outbox WHERE entity = 'workouts'") == workouts)
        #expect(try Self.count(home, "SELECT MAX(seq) FROM outbox") == events, "gapless")
        #expect(try Self.count(home, "SELECT COUNT(*) FROM workouts WHERE ended_at IS NULL") == 0)

        // When it is imported again
        let second = try Self.importFixture(home, name)
        // Then nothing is written, and the summary says what was already there
        #expect(second.status == 0)
        #expect(second.stdout.contains("Imported 0 workouts, 0 sets, 0 new exercises."))
        #expect(second.stdout.contains("\(sets) set"))
        #expect(try Self.count(home, "SELECT COUNT(*) FROM sets") == sets)
        #expect(try Self.count(home, "SELECT COUNT(*) FROM outbox") == events)
    }

    @Test func aNativeExportImportedIntoAnEmptyDatabaseExportsByteForByte() throws {
        // Given a varied session logged with the real binary
        let source = try TemporaryHome()
        let session = """
            start Push Day
            bench w60x10
            bench 100x5x3 @8
            bench 102.5x5 # paused, "touch and go"
            bench 70.25x10 d
            pullup bw x8
            dip bw+20x6
            assisted pullup bw-20x8
            plank 60s
            row 2000m 7:41
            bench 225lb x 3 f
            note Felt strong, slept 8h
            finish
            squat 140x5
            """
        let logged = try source.gymlog([], stdin: session)
        #expect(logged.status == 0, "\(logged.stderr)")
        let exported = try source.gymlog(["export"])
        #expect(exported.status == 0)
        #expect(ImportCSVCursor.rows(exported.stdout).count == 14)
        let file = source.root + "/native.csv"
        try exported.stdout.write(toFile: file, atomically: true, encoding: .utf8)

        // When it is imported into a fresh database and exported again
        let target = try TemporaryHome()
        let imported = try target.gymlog(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Detected a gymlog (native) export"))
        #expect(imported.stdout.contains("Imported 2 workouts, 13 sets, 7 new exercises"))
        let again = try target.gymlog(["export"])

        // Then the two exports are the same bytes, in both layouts
        #expect(again.stdout == exported.stdout)
        #expect(try target.gymlog(["export", "--format", "strong"]).stdout == source.gymlog(["export", "--format", "strong"]).stdout)
        // And the records were rebuilt from the imported sets
        #expect(try target.gymlog(["prs", "bench"]).stdout == source.gymlog(["prs", "bench"]).stdout)
        // And importing it into the database it came from changes nothing
        let back = try source.gymlog(["import", file])
        #expect(back.stdout.contains("Imported 0 workouts, 0 sets, 0 new exercises."))
    }

    @Test func theGoldenNativeExportImportsExactly() throws {
        let home = try TemporaryHome()
        let golden = try String(contentsOf: fixture("export/native-golden.csv"), encoding: .utf8)
        #expect(try home.gymlog(["import", fixture("export/native-golden.csv").path]).status == 0)
        #expect(try home.gymlog(["export"]).stdout == golden)
    }

    @Test func aLaterOverlappingExportAddsOnlyWhatIsNew() throws {
        let home = try TemporaryHome()
        #expect(try Self.importFixture(home, "strong-comma-newest-first.csv").status == 0)
        let later = try Self.importFixture(home, "strong-comma-later-overlapping.csv")
        #expect(later.stdout.contains("Imported 1 workout, 2 sets, 0 new exercises."), "\(later.stdout)")
        #expect(later.stdout.contains("Already in the database (left as they are): 2 workouts, 11 sets."))
        #expect(try Self.count(home, "SELECT COUNT(*) FROM sets") == 13)
        // Records are rebuilt for the exercises that got sets: the newer 155 kg deadlift.
        #expect(try Self.count(home, """
            SELECT CAST(r.value AS INT) FROM records r JOIN exercises e ON e.id = r.exercise_id
            WHERE e.name = 'Deadlift (Barbell)' AND r.metric = 'weight'
            """) == 155)
    }

    @Test func everyReadableRowLandsAndTheUnreadableOnesGoToARejectsFileThatImportsOnceMended() throws {
        // Given a Strong file with four bad rows among good ones, in a folder of its own
        let home = try TemporaryHome()
        let folder = home.root + "/in"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/strong-bad-rows.csv"
        try FileManager.default.copyItem(at: fixture("import/strong-bad-rows.csv"), to: URL(fileURLWithPath: path))
        // When it is imported with --strict
        let refused = try home.gymlog(["import", path, "--strict"])
        // Then it is refused at the first bad row, naming it, and nothing is written
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("strong-bad-rows.csv line 3: Weight '1OO' is not a number"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--strict keeps all or nothing"))
        let wroteNothing = try !FileManager.default.fileExists(atPath: home.database)
            || Self.count(home, "SELECT COUNT(*) FROM sets") == 0
        #expect(wroteNothing)
        #expect(!FileManager.default.fileExists(atPath: folder + "/strong-bad-rows.rejects.csv"))

        // When it is imported
        let run = try home.gymlog(["import", path])
        // Then every readable row lands, and each unreadable one is named with its line and why
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Imported 1 workout, 2 sets, 2 new exercises"), "\(run.stdout)")
        #expect(run.stdout.contains("Rejected 4 rows that cannot be read: they are in \(folder)/strong-bad-rows.rejects.csv, "
                                    + "under the file's header, to mend and import again:\n  line 3: Weight '1OO' is not a number\n  line 4:"),
                "\(run.stdout)")
        for line in ["line 4: Set Order 'X'", "line 5: Date '2024-13-01 10:00:00'", "line 6: Reps '5.5' is not a whole number"] {
            #expect(run.stdout.contains(line), "\(line)")
        }
        #expect(try Self.count(home, "SELECT COUNT(*) FROM sets") == 2)
        // And the rejects file is the header and the four rows as written
        let original = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let rejects = try String(contentsOfFile: folder + "/strong-bad-rows.rejects.csv", encoding: .utf8)
        #expect(rejects == ([original[0]] + original[2...5]).joined(separator: "\n") + "\n")

        // When the rows are mended and the rejects file is imported
        let mended = rejects.replacingOccurrences(of: "1OO", with: "105").replacingOccurrences(of: ",X,100,", with: ",3,102.5,")
            .replacingOccurrences(of: "2024-13-01", with: "2024-01-13").replacingOccurrences(of: ",5.5,", with: ",6,")
        try mended.write(toFile: folder + "/strong-bad-rows.rejects.csv", atomically: true, encoding: .utf8)
        let again = try home.gymlog(["import", folder + "/strong-bad-rows.rejects.csv"])
        // Then they land, and nothing is rejected
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("4 sets"), "\(again.stdout)")
        #expect(!again.stdout.contains("Rejected"))
        #expect(try Self.count(home, "SELECT COUNT(*) FROM sets") == 6)
    }

    @Test(arguments: [
        ("hevy-kg-km.csv", [String]()), ("strong-empty-sets.csv", []), ("strong-timer-left-running.csv", ["--timezone", "Europe/Berlin"]),
        ("strong-bad-rows.csv", []), ("strong-minimal-no-duration-rpe-notes.csv", ["--unit", "lb"]),
        ("fitnotes-kgs.csv", []), ("strong-comma-later-overlapping.csv", []),
        ("fitbod-lb-spreadsheet-resave.csv", ["--unit", "lb"]), ("hevy-api-pages-list.json", []),
        ("liftosaur-20-columns.csv", []), ("lyfta-no-units-supersets.csv", []), ("repcount-swedish.csv", []),
        ("strong-resaved-day-first.csv", []), ("jefit-kg-set-logs-sections-reordered.csv", []),
        ("stronglifts-blocks-sets-not-done.csv", []),
        ("strong-resaved-day-first.csv", []), ("alpha-progression-kg-semicolon-rir.csv", []), ("gymbook-italian.csv", []),
    ])
    func aDryRunPrintsWhatTheImportPrintsAndWritesNothing(name: String, flags: [String]) throws {
        // Given a database with a set and an earlier, overlapping import in it
        let home = try TemporaryHome()
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try Self.importFixture(home, "strong-comma-newest-first.csv").status == 0)
        let tables = ["workouts", "sets", "exercises", "aliases", "outbox", "records"]
        func counts() throws -> [Int] { try tables.map { try Self.count(home, "SELECT COUNT(*) FROM \($0)") } }
        let before = try counts()
        // When the file is imported with --dry-run
        let dry = try Self.importFixture(home, name, flags + ["--dry-run"])
        // Then nothing was written
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try counts() == before)
        // And what it printed is, after its first line, what the import then prints
        let real = try Self.importFixture(home, name, flags)
        #expect(real.status == 0)
        #expect(dry.stdout == "Dry run: nothing is written. Importing would print:\n" + real.stdout)
        #expect(try counts() != before || real.stdout.contains("Imported 0 workouts, 0 sets"))
    }

    @Test func anItalianGymBookExportIsDayFirstAndItsSkippedSetsAreCountedAsNotDone() throws {
        // Given an Italian GymBook export whose days are all 12 or less, one set skipped
        let home = try TemporaryHome()
        let file = home.root + "/GymBook-Logs-2024-03-06.csv"
        try ("Data,Programma,Ora,Esercizio,Area,Muscoli primari,Muscoli secondari,Tipo,Ripetizioni / Tempo,Peso / Distanza,Note,Saltato\n"
            + "05/03/24,Gambe,18:00,Squat,Gambe,,,Serie,5 rip.,\"100,00 kg\",,No\n"
            + "05/03/24,Gambe,18:04,Squat,Gambe,,,Serie,5 rip.,\"100,00 kg\",,Sì\n").write(toFile: file, atomically: true, encoding: .utf8)
        // When it is dry-run
        let dry = try home.gymlog(["import", file, "--dry-run"])
        // Then it is read day first without a flag, says why, and counts the skipped set as not done
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("Detected a GymBook export (comma-separated)."))
        #expect(dry.stdout.contains("Imported 1 workout, 1 set, 1 new exercise: Squat (Barbell)."), "\(dry.stdout)")
        #expect(dry.stdout.contains("Dates written as numbers alone were read as day/month/year (a day above 12 tells, or Italian headers"))
        #expect(dry.stdout.contains("Left out 1 row: 1 planned set not done."))
    }

    @Test func aDryRunForANewDatabaseCreatesNoFile() throws {
        // Given a --db path with nothing there
        let home = try TemporaryHome()
        let path = home.root + "/new/gymlog.sqlite"
        // When a file is dry-run into it
        let dry = try home.gymlog(["import", fixture("import/strong-empty-sets.csv").path, "--dry-run", "--db", path])
        // Then the summary is a first import's, and no folder or file was made
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("Imported 1 workout, 2 sets, 2 new exercises: Bench Press (Barbell), Overhead Press (Barbell)."))
        #expect(!FileManager.default.fileExists(atPath: home.root + "/new"))
        try FileManager.default.createDirectory(atPath: home.root + "/new", withIntermediateDirectories: true)
        let real = try home.gymlog(["import", fixture("import/strong-empty-sets.csv").path, "--db", path])
        #expect(dry.stdout == "Dry run: nothing is written. Importing would print:\n" + real.stdout)
    }

    @Test func theSummaryNamesUnitsZoneLeftOutRowsAndCappedDurations() throws {
        let home = try TemporaryHome()
        // Rows never filled in and rest timers are counted by reason
        let empty = try Self.importFixture(home, "strong-empty-sets.csv", ["--timezone", "Europe/Berlin"])
        #expect(empty.stdout.contains("\nLeft out 3 rows: 2 empty sets (never filled in), 1 rest-timer row.\n"), "\(empty.stdout)")
        #expect(empty.stdout.contains("\nTimes are read in Europe/Berlin (--timezone).\n"))
        // A workout timer left running is capped with its line
        let capped = try Self.importFixture(home, "strong-timer-left-running.csv")
        #expect(capped.stdout.contains("\nCapped 1 workout duration over 24h, a timer left running (the workout ends at its last set): "
                                       + "line 2 (342:56:07).\n"), "\(capped.stdout)")
        #expect(capped.stdout.contains(" (this machine's zone; pass --timezone if they were another).\n"), "TZ=UTC reads as UTC or GMT")
        // The assumed units are named
        let hevy = try Self.importFixture(home, "strong-comma-newest-first.csv")
        #expect(hevy.stdout.contains("The file gives no unit for some distances: read as km."))
    }
    @Test func theHelpNamesEveryFormatWithWhatItKeeps() throws {
        let help = try TemporaryHome().gymlog(["import", "--help"])
        #expect(help.status == 0)
        for source in ImportSource.allCases {
            #expect(help.stdout.contains("\n  \(source.rawValue)\n      "), "--help has no line for \(source.rawValue)")
        }
    }

    @Test func jefitAndStrongLiftsSummariesCountWhatWasLeftOutAndTheBodyweights() throws {
        let home = try TemporaryHome()
        // JEFIT: the set row of a log not in the file, and the unit from its SETTING, not --unit
        let jefit = try Self.importFixture(home, "jefit-kg-set-logs-sections-reordered.csv", ["--unit", "lb"])
        #expect(jefit.stdout.contains("\nLeft out 1 row: 1 set row of an exercise log not in the file.\n"), "\(jefit.stdout)")
        #expect(!jefit.stdout.contains("gives no unit"), "\(jefit.stdout)")
        #expect(try Self.count(home, "SELECT COUNT(*) FROM sets WHERE weight_unit = 'kg'") == 4, "45 lb stays pounds")
        // StrongLifts: every empty set cell is a set not done; the bodyweights go to the log
        let stronglifts = try Self.importFixture(home, "stronglifts-blocks-sets-not-done.csv")
        #expect(stronglifts.stdout.contains("\nLeft out 5 rows: 5 planned sets not done.\n"), "\(stronglifts.stdout)")
        #expect(stronglifts.stdout.contains("Imported 2 bodyweight entries."), "\(stronglifts.stdout)")
        #expect(try Self.count(home, "SELECT COUNT(*) FROM bodyweights") == 2)
    }

    @Test func namesResolveThroughAliasesAndNearMissesAreCreatedNotRefused() throws {
        // Given an exercise with an alias spelled like Strong's name, and a look-alike of another
        let home = try TemporaryHome()
        #expect(try home.gymlog(["exercises", "add", "Bench"]).status == 0)
        #expect(try home.gymlog(["exercises", "alias", "Bench Press (Barbell)", "Bench"]).status == 0)
        #expect(try home.gymlog(["exercises", "add", "Pull Ups"]).status == 0)
        // When the Strong file is imported
        let run = try Self.importFixture(home, "strong-comma-newest-first.csv")
        // Then bench sets land on Bench, and "Pull Up" (a near miss of "Pull Ups") is created
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("4 new exercises: Rowing (Machine), Deadlift (Barbell), Pull Up, Plank."), "\(run.stdout)")
        #expect(try Self.count(home, "SELECT COUNT(*) FROM sets s JOIN exercises e ON e.id = s.exercise_id WHERE e.name = 'Bench'") == 4)
        #expect(try Self.count(home, "SELECT COUNT(*) FROM exercises") == 6)
    }

    @Test func controlCharactersInAnotherAppsTextAreCleanedNotRefused() throws {
        // Given a Strong export typed on Windows, with an escape sequence pasted into a note and
        // a tab in a workout name (gymlog refuses these when typed; a whole import must not fail)
        let home = try TemporaryHome()
        let csv = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\r\n"
            + "2024-03-05 18:30:00,Pull\tDay,55m,Deadlift (Barbell),1,150,5,0,0,\"grip slipped\r\nlast rep \u{1B}[31mugly\u{7}\",\"slept\u{0} badly\",8\r\n"
            + "2024-03-05 18:30:00,Pull\tDay,55m,Dead\u{1B}lift (Barbell),2,150,5,0,0,,,\r\n"
        let path = home.root + "/strong.csv"
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        // When it is imported
        let run = try home.gymlog(["import", path])
        // Then everything comes in, with line breaks kept as line feeds and the controls dropped
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Imported 1 workout, 2 sets, 1 new exercise"), "\(run.stdout)")
        let (name, workoutNote, setNote) = try DatabaseQueue(path: home.database).read { db in
            (try String.fetchOne(db, sql: "SELECT name FROM workouts"),
             try String.fetchOne(db, sql: "SELECT note FROM workouts"),
             try String.fetchOne(db, sql: "SELECT note FROM sets WHERE note IS NOT NULL"))
        }
        #expect(name == "Pull Day")
        #expect(workoutNote == "slept badly")
        #expect(setNote == "grip slipped\nlast rep [31mugly")
        #expect(try Self.count(home, "SELECT COUNT(*) FROM exercises WHERE name = 'Deadlift (Barbell)'") == 1)
        // And the outbox carries the same clean text, so it syncs
        #expect(try Self.count(home, "SELECT COUNT(*) FROM outbox WHERE instr(payload, '\\u001b') > 0 OR instr(payload, '\\r') > 0 OR instr(payload, '\\u0000') > 0") == 0)
        #expect(try Self.count(home, "SELECT COUNT(*) FROM outbox WHERE instr(payload, 'last rep [31mugly') > 0") == 1)
    }

    @Test func unitsAndTimeZonesComeFromTheFlags() throws {
        let home = try TemporaryHome()
        let run = try Self.importFixture(home, "strong-minimal-no-duration-rpe-notes.csv",
                                         ["--unit", "lb", "--timezone", "America/New_York"])
        #expect(run.stdout.contains("read as lb (--unit)"))
        #expect(try Self.count(home, "SELECT COUNT(*) FROM sets WHERE weight_unit = 'lb'") == 2)
        // 2023-11-20 19:00 in New York (UTC-5) is 2023-11-21 00:00 UTC.
        let expected = epochMillis(year: 2023, month: 11, day: 21, utcOffsetSeconds: 0)
        #expect(try Self.count(home, "SELECT started_at FROM workouts") == Int(expected))
        #expect(try Self.count(home, "SELECT utc_offset FROM workouts") == -5 * 3600)

        let defaulted = try TemporaryHome()
        let plain = try Self.importFixture(defaulted, "strong-minimal-no-duration-rpe-notes.csv")
        #expect(plain.stdout.contains("read as kg (your default unit; pass --unit lb if they were pounds)"))
        #expect(try Self.count(defaulted, "SELECT started_at FROM workouts") == Int(expected) - 5 * 3_600_000, "TZ=UTC")
    }

    @Test func slashDatesAreToldFromADayAbove12OrAskedForNeverGuessed() throws {
        // Given a spreadsheet's re-save whose dates could be either order
        let home = try TemporaryHome()
        let file = home.root + "/resaved.csv"
        try "Date,Workout Name,Exercise Name,Set Order,Weight,Reps\n03/04/2024 18:30,A,Squat,1,100,5\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        // When it is imported, it is refused, naming the date and both ways to read it
        let refused = try home.gymlog(["import", file])
        #expect(refused.status == 1 && refused.stderr.contains("'03/04/2024 18:30'"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--date-order dmy") && refused.stderr.contains("--date-order mdy"))
        // And the option settles it, and says so
        let chosen = try home.gymlog(["import", file, "--date-order", "mdy", "--timezone", "UTC"])
        #expect(chosen.status == 0 && chosen.stdout.contains("read as month/day/year (--date-order)"), "\(chosen.stdout)")
        #expect(try Self.count(home, "SELECT started_at FROM workouts") == 1_709_577_000_000, "4 March 2024 18:30 UTC")
        let wrong = try home.gymlog(["import", file, "--date-order", "ymd"])
        #expect(wrong.status == 64 && wrong.stderr.contains("--date-order ymd"))
    }

    @Test func badFlagsAndUnreadableFilesAreExplained() throws {
        let home = try TemporaryHome()
        let zone = try Self.importFixture(home, "hevy-kg-km.csv", ["--timezone", "Mars/Olympus"])
        #expect(zone.status == 64 && zone.stderr.contains("Mars/Olympus"))
        let from = try Self.importFixture(home, "hevy-kg-km.csv", ["--from", "myfitnesspal"])
        #expect(from.status == 64 && from.stderr.contains(
            "strong, hevy, hevy-json, alpha-progression, gymbook, gymrun, fitnotes, fitbod, liftosaur, lyfta, repcount, jefit, stronglifts or native"))
        let unit = try Self.importFixture(home, "hevy-kg-km.csv", ["--unit", "stone"])
        #expect(unit.status == 64)
        let wrong = try Self.importFixture(home, "strong-quoted-kg.csv", ["--from", "hevy"])
        #expect(wrong.status == 1 && wrong.stderr.contains("no 'title' column"))
        let unknown = try Self.importFixture(home, "unknown-layout.csv")
        #expect(unknown.status == 1 && unknown.stderr.contains("Cannot tell which app wrote this file"))
        let missing = try home.gymlog(["import", home.root + "/nope.csv"])
        #expect(missing.status == 1 && missing.stderr.contains("Cannot read '\(home.root)/nope.csv'"), "\(missing.stderr)")
        let folder = try home.gymlog(["import", "/"])
        #expect(folder.status == 1 && folder.stderr.contains("Cannot import '/': it is a folder"), "\(folder.stderr)")
        // The file is read twice, so a pipe is refused with what to do instead
        let pipe = try home.gymlog(["import", "/dev/stdin"], stdin: "Date,Exercise Name,Set Order\n")
        #expect(pipe.status == 1 && pipe.stderr.contains("it is not a regular file (a pipe?)"), "\(pipe.stderr)")
    }

    @Test func largeImportsAreOneTransactionWithProgressByWholeWorkouts() throws {
        // Given 40 Strong workouts of 5 sets
        var text = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
        for day in 1...40 {
            for set in 1...5 {
                text += "2024-01-\(String(format: "%02d", (day - 1) % 28 + 1)) \(String(format: "%02d", 6 + (day - 1) / 28)):00:00,W,1h,Squat,\(set),\(100 + day),5,0,0,,,\n"
            }
        }
        let parsed = try ImportParser.parse(Array(text.utf8), options: ImportOptions())
        #expect(parsed.workouts.count == 40 && parsed.setCount == 200)
        let home = try TemporaryHome()
        let db = try GymLogDatabase(path: home.database)
        // When it is imported 12 sets at a time
        var calls: [Int] = []
        let report = try db.importFile(parsed, batchSize: 12, progress: { done, _ in calls.append(done) })
        // Then it is one transaction (all or nothing), progress is told by whole workouts (10
        // sets), and records are rebuilt once at the end
        #expect(report.transactions == 1)
        #expect(calls == Array(stride(from: 10, through: 200, by: 10)))
        #expect(report.setsCreated == 200 && report.workoutsCreated == 40 && report.exercisesCreated == ["Squat"])
        #expect(try db.read { try Double.fetchOne($0, sql: "SELECT value FROM records WHERE metric = 'weight'") } == 140)
        let again = try db.importFile(parsed, batchSize: 12)
        #expect(again.setsCreated == 0 && again.setsExisting == 200 && again.exercisesCreated.isEmpty)
    }

    /// `2020-01-01` and the days after it.
    static func day(_ n: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: Date(timeIntervalSince1970: 1_577_836_800 + Double(n) * 86_400))
    }

    /// A Strong export of `workouts` workouts of 25 sets (more than one write batch), oldest last.
    static func largeStrongFile(workouts: Int) -> String {
        var text = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
        for day in (0..<workouts).reversed() {
            let stamp = Self.day(day)
            for set in 1...25 {
                text += "\(stamp) 07:00:00,Day \(day),1h,\(["Squat", "Bench", "Row", "Curl", "Plank"][set % 5]),\(set),\(60 + set),5,0,0,\"a, \"\"note\"\"\",,\n"
            }
        }
        return text
    }

    @Test func aSecondNativeRowWithTheSameIdAndOtherValuesIsSaidToDiffer() throws {
        // Given a native export whose set row comes twice, the second with other reps
        let source = try TemporaryHome()
        #expect(try source.gymlog(["log", "bench 100x5"]).status == 0)
        let native = try source.gymlog(["export"]).stdout
        var lines = native.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let row = try #require(lines.firstIndex { $0.contains("Bench") || $0.contains("bench") })
        lines.insert(lines[row].replacingOccurrences(of: ",5,", with: ",6,"), at: row + 1)
        #expect(lines[row + 1] != lines[row])
        let home = try TemporaryHome()
        let path = home.root + "/twice.csv"
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        // When it is imported
        let run = try home.gymlog(["import", path, "--from", "native"])
        // Then the first is imported and the second is said to differ, not to be there already
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Imported 1 workout, 1 set"), "\(run.stdout)")
        #expect(run.stdout.contains("Left out 1 set whose id the database (or an earlier row of the file) holds with other values"),
                "\(run.stdout)")
        #expect(!run.stdout.contains("Already in the database"), "\(run.stdout)")
        // And a dry run says the same
        let dry = try TemporaryHome().gymlog(["import", path, "--from", "native", "--dry-run"])
        #expect(dry.stdout.contains("Left out 1 set whose id"), "\(dry.stdout)")
    }

    @Test func aBadRowLateInALargeFileWritesNothing() throws {
        // Given a 3,000-set Strong file whose very last row is malformed, and a database with one set
        let home = try TemporaryHome()
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)
        let text = Self.largeStrongFile(workouts: 120) + "2019-12-31 07:00:00,Late,1h,Squat,1,100,five,0,0,,,\n"
        let path = home.root + "/late.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        // When it is imported with --strict
        let strict = try home.gymlog(["import", path, "--strict"])
        // Then, with --strict, it is refused naming the line, and not one of the 3,000 good sets was written
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("late.csv line 3002: Reps 'five'"), "\(strict.stderr)")
        #expect(try Self.count(home, "SELECT COUNT(*) FROM sets") == 1)
        #expect(try Self.count(home, "SELECT COUNT(*) FROM workouts") == 1)
        // And without it the rest is imported, the dry run first saying exactly the same
        let dry = try home.gymlog(["import", path, "--dry-run"])
        #expect(!FileManager.default.fileExists(atPath: home.root + "/late.rejects.csv"), "a dry run writes nothing")
        let real = try home.gymlog(["import", path])
        #expect(real.status == 0, "\(real.stderr)")
        #expect(real.stdout.contains("Imported 120 workouts, 3000 sets, 4 new exercises"), "\(real.stdout)")
        #expect(dry.stdout == "Dry run: nothing is written. Importing would print:\n" + real.stdout)
        #expect(try Self.count(home, "SELECT COUNT(*) FROM sets") == 3001)
    }
}

/// Issue 23, as the new user met it: a Strong export whose barbell squat has warm-ups with no
/// load and a missed lift imports whole, as loaded lifts with records, and logging goes on.
@Suite struct ImportKindsCommandTests {
    static let strongFile = """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
    2024-05-01 10:00:00,Legs,45m,Squat (Barbell),W,0.0,12.0,0,0,,,
    2024-05-01 10:00:00,Legs,45m,Squat (Barbell),W,0.0,12.0,0,0,,,
    2024-05-01 10:00:00,Legs,45m,Squat (Barbell),1,70.0,5.0,0,0,,,
    2024-05-01 10:00:00,Legs,45m,Squat (Barbell),2,70.0,5.0,0,0,,,
    2024-05-01 10:00:00,Legs,45m,Deadlift (Barbell),1,140.0,3.0,0,0,,,
    2024-05-01 10:00:00,Legs,45m,Deadlift (Barbell),F,150.0,0.0,0,0,,,
    2024-05-03 10:00:00,Legs,40m,Squat (Barbell),W,0.0,12.0,0,0,,,
    2024-05-03 10:00:00,Legs,40m,Squat (Barbell),W,0.0,12.0,0,0,,,
    2024-05-03 10:00:00,Legs,40m,Squat (Barbell),W,0.0,12.0,0,0,,,
    2024-05-03 10:00:00,Legs,40m,Squat (Barbell),1,72.5,5.0,0,0,,,
    """

    @Test func aBarbellSquatWithUnloadedWarmUpsAndAMissedLiftImportsAsLoadedLifts() throws {
        // Given a Strong export where the squat's unloaded warm-ups outnumber its loaded sets
        let home = try TemporaryHome()
        let file = home.root + "/strong.csv"
        try Self.strongFile.write(toFile: file, atomically: true, encoding: .utf8)
        // When it is imported with no flag
        let run = try home.gymlog(["import", file])
        // Then every set comes in, the missed lift included
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Imported 2 workouts, 10 sets, 2 new exercises"), "\(run.stdout)")
        // And the squat is a loaded exercise: records on its loads, the warm-ups at 0 kg
        let prs = try home.gymlog(["prs", "squat"])
        #expect(prs.stdout.contains("heaviest weight") && prs.stdout.contains("72.5kg"), "\(prs.stdout)")
        #expect(!prs.stdout.contains("added"), "\(prs.stdout)")
        let kinds = try DatabaseQueue(path: home.database).read { db in
            try String.fetchAll(db, sql: "SELECT kind FROM exercises ORDER BY name")
        }
        #expect(kinds == ["weighted", "weighted"])
        // And the missed deadlift is shown as missed, and no record
        let history = try home.gymlog(["history", "deadlift"])
        #expect(history.stdout.contains("150kg x 0 (missed)"), "\(history.stdout)")
        let deadlift = try home.gymlog(["prs", "deadlift"])
        #expect(deadlift.stdout.contains("140kg") && !deadlift.stdout.contains("150kg"), "\(deadlift.stdout)")
        // And the lifter logs the squat as a loaded lift
        let logged = try home.gymlog(["log", "squat 80x5"])
        #expect(logged.status == 0, "\(logged.stderr)")
        #expect(logged.stdout.contains("80kg x 5"), "\(logged.stdout)")
    }
}
