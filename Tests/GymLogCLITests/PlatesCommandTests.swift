import Foundation
import GymLogCore
@testable import GymLogCLI
import GymLogTestSupport
import Testing

/// `plates` and `warmup` as a lifter types them, in the shell and the REPL: what they print,
/// that reading never creates a database, the config they load from, and that a logged ramp is
/// one line of warm-ups that one `undo` takes back.
@Suite struct PlatesCommandTests {
    @Test func platesInTheShellShowTheBarAndEachSideAndCreateNoDatabase() throws {
        let home = try TemporaryHome()
        // When loads are asked for
        let exact = try home.gymlog(["plates", "142.5"])
        let near = try home.gymlog(["plates", "143"])
        let pounds = try home.gymlog(["plates", "315lb"])
        let side = try home.gymlog(["plates", "25", "20"])
        let light = try home.gymlog(["plates", "15"])
        // Then each answers in one line
        #expect(exact.status == 0 && exact.stdout == "20kg bar + per side: 25 25 10 1.25\n", "\(exact.stderr)")
        #expect(near.stdout == "143 kg can't be made with your plates; nearest: 142.5 kg (20kg bar + per side: 25 25 10 1.25) "
            + "or 145 kg (20kg bar + per side: 25 25 10 2.5)\n")
        #expect(pounds.stdout == "45lb bar + per side: 45 45 45\n")
        #expect(side.stdout == "20kg bar + per side 25 20 = 110 kg\n")
        #expect(light.status == 0 && light.stdout.contains("15 kg is lighter than the 20kg bar; the lightest load is the bar alone (20 kg)"))
        // And nothing was created
        #expect(!FileManager.default.fileExists(atPath: home.database))
        #expect(!FileManager.default.fileExists(atPath: home.root + "/data"))
    }

    @Test func platesJSONGivesTheNearestLoadsOrTheSidesTotal() throws {
        let home = try TemporaryHome()
        let near = try home.gymlog(["plates", "143", "--json"])
        #expect(near.status == 0)
        #expect(near.stdout.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: " ", with: "") ==
            #"{"target":143,"unit":"kg","bar":20,"exact":false,"below":{"total":142.5,"per_side":[25,25,10,1.25]},"#
            + #""above":{"total":145,"per_side":[25,25,10,2.5]}}"#)
        let side = try home.gymlog(["plates", "45", "--per-side", "--json", "--bar", "35", "lb"])
        #expect(side.stdout.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: " ", with: "") ==
            #"{"unit":"lb","bar":35,"per_side":[45],"total":125}"#, "\(side.stderr)")
    }

    @Test(arguments: [
        (["plates"], "`plates` needs a load"),
        (["plates", "abc"], "'abc' is not a load; type a weight like `gymlog plates 142.5`"),
        (["plates", "317,5"], "'317,5': use a decimal point: 317.5"),
        (["warmup", "squat", "142,5kg"], "'142,5kg': use a decimal point: 142.5kg"),
        (["plates", "45lb", "20kg"], "'20kg' is in kg but an earlier load is in lb"),
        (["plates", "100", "--bar", "heavy"], "--bar heavy is not a bar weight"),
        (["plates", "curl", "20x10"], "To log a set of an exercise named 'plates curl', type `gymlog log 'plates curl 20x10'`."),
        (["warmup", "squat"], "`warmup squat` needs the working weight after the exercise"),
        (["warmup", "140"], "`warmup 140` needs the exercise before the weight"),
        (["warmup", "squat", "140", "log", "--json"], "--json shows the ramp without logging it"),
        (["warmup", "row", "40x10"], "To log a set of an exercise named 'warmup row', type `gymlog log 'warmup row 40x10'`."),
    ])
    func badInputIsAUsageErrorThatSaysWhatToType(args: [String], says: String) throws {
        let home = try TemporaryHome()
        let run = try home.gymlog(args)
        #expect(run.status == 64, "\(args): \(run.stdout)")
        #expect(run.stderr.contains(says), "\(args): \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.database))
    }

    /// Issue 26, item 29: `gymlog warmup Bench Press (Barbell) 225 log` pasted into bash was a
    /// syntax error.
    @Test func aHintsCommandPastesIntoAShellAsItWasMeant() throws {
        let home = try TemporaryHome()
        let shown = try home.gymlog(["warmup", "Bench Press (Barbell)", "225lb"])
        let hint = try #require(shown.stdout.split(separator: "\n").last.flatMap { $0.firstMatch(of: /`(gymlog [^`]+)`/)?.1 })
        #expect(hint == "gymlog warmup 'Bench Press (Barbell)' 225lb log", "\(shown.stdout)")
        // And bash reads it back as the same words
        let words = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", "printf '%s\\n' " + hint.dropFirst("gymlog ".count)])
        #expect(words.stdout == "warmup\nBench Press (Barbell)\n225lb\nlog\n", "\(words.stdout) \(words.stderr)")
        #expect(shellQuoted("it's") == "'it'\\''s'" && shellQuoted("row") == "row" && shellQuoted("") == "''")
    }

    @Test func aWarmupInTheShellPrintsTheRampThenLogsItAndOneUndoTakesItBack() throws {
        let home = try TemporaryHome()
        // When a ramp is asked for
        let shown = try home.gymlog(["warmup", "squat", "140"])
        // Then it prints the steps and how to log them, and creates no database
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout == "Warm-up for squat to 140 kg: bar x10, 62.5x5, 85x3, 105x2, 120x1\n"
            + "Log it as warm-up sets: `gymlog warmup squat 140 log`.\n")
        #expect(!FileManager.default.fileExists(atPath: home.database))
        // When it is logged after a working set of another exercise
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)
        let logged = try home.gymlog(["warmup", "squat", "140", "log"])
        // Then the line logged is the entry line of five warm-ups
        #expect(logged.status == 0, "\(logged.stderr)")
        #expect(logged.stdout.hasPrefix("squat w20x10 w62.5x5 w85x3 w105x2 w120x1\n"), "\(logged.stdout)")
        let show = try home.gymlog(["show", "--json"]).stdout
        #expect(show.components(separatedBy: #""kind": "warmup""#).count - 1 == 5, "\(show)")
        // And warm-ups set no records
        #expect(!(try home.gymlog(["prs", "squat"]).stdout.contains("120")))
        // When `undo` runs once, the whole ramp and the exercise go, and the bench set stays
        let undo = try home.gymlog(["undo"])
        #expect(undo.status == 0 && undo.stdout.hasPrefix("Undid squat w20x10 w62.5x5 w85x3 w105x2 w120x1:"), "\(undo.stdout) \(undo.stderr)")
        let after = try home.gymlog(["show"]).stdout
        #expect(!after.contains("squat") && after.contains("bench"), "\(after)")
    }

    @Test func theConfigSetsTheBarThePlatesTheRampAndShowPlates() throws {
        // Given a home gym: a 15kg bar, few plates, a three-step ramp, plates shown
        let home = try TemporaryHome()
        try """
        show_plates = true
        [plates]
        kg_bar = 15
        kg = "20x2, 10x1, 5x1, 2.5x1"
        lb_bar = 35.5
        [warmup]
        ramp = "bar x8, 50% x5, 80% x2"
        """.write(toFile: home.config, atomically: true, encoding: .utf8)
        // When plates and a ramp are asked for
        let plates = try home.gymlog(["plates", "90"])
        let ramp = try home.gymlog(["warmup", "deadlift", "99"])
        // Then they use that bar, those plates and those steps
        #expect(plates.stdout == "15kg bar + per side: 20 10 5 2.5\n", "\(plates.stderr)")
        #expect(ramp.stdout.split(separator: "\n").map(String.init) == [
            "Warm-up for deadlift to 99 kg:",
            "  bar x8  15kg bar, no plates",
            "  50x5    15kg bar + per side: 10 5 2.5",
            "  80x2    15kg bar + per side: 20 10 2.5",
            "99 kg can't be made with your plates; nearest: 95 kg (15kg bar + per side: 20 20) or 100 kg (15kg bar + per side: 20 20 2.5)",
            "Log it as warm-up sets: `gymlog warmup deadlift 99 log`.",
        ], "\(ramp.stdout)")
        let settings = try ConfigFile.load(home.config)
        #expect(settings.poundPlates == PlateInventory(bar: Fixed(thousandths: 35_500), plates: PlateInventory.pounds.plates))
        #expect(settings.showPlates && settings.warmupSteps.count == 3)
    }

    @Test func dumbbellWorkRampsByTheDumbbellsAndShowsNoBarOrPlates() throws {
        // Given plates shown, 2 kg dumbbells, and a routine with a barbell and a dumbbell line
        let home = try TemporaryHome()
        try "show_plates = true\n[plates]\nkg_dumbbell_step = 2\n".write(toFile: home.config, atomically: true, encoding: .utf8)
        // When a dumbbell exercise is warmed up, by a name that says so or a logged one that does
        let typed = try home.gymlog(["warmup", "incline", "db", "press", "30"])
        #expect(try home.gymlog(["log", "Curl (Dumbbell) 16x10"]).status == 0)
        let logged = try home.gymlog(["warmup", "Curl (Dumbbell)", "16", "--json"])
        // Then the ramp starts from no bar and steps by the dumbbells, with no plates
        #expect(typed.stdout.split(separator: "\n").first == "Warm-up for incline db press to 30 kg: 14x5, 18x3, 22x2, 26x1", "\(typed.stdout)")
        #expect(!typed.stdout.contains("bar") && !typed.stdout.contains("per side"), "\(typed.stdout)")
        let json = try JSONSerialization.jsonObject(with: Data(logged.stdout.utf8)) as! [String: Any]
        #expect(json["bar"] is NSNull && json["exercise"] as? String == "Curl (Dumbbell)", "\(logged.stdout)")
        #expect((json["sets"] as! [[String: Any]]).map { $0["weight"] as! Double } == [8, 10, 12, 14], "\(logged.stdout)")
        // And a routine shows plates for its barbell line only
        #expect(try home.gymlog(["routine", "add", "--file", "-"], stdin: "# Arms\nbench 3x5 100\ncurl (dumbbell) 3x10 16\n").status == 0)
        let shown = try home.gymlog(["routine", "show", "Arms"]).stdout
        #expect(shown.components(separatedBy: "plates:").count == 2, "\(shown)")
    }

    @Test(arguments: [
        ("show_plates = 1", "show_plates = 1 must be true or false."),
        ("plates.kg_bar = -5", "plates.kg_bar = -5 must be the bar's weight in kg"),
        ("plates.kg_bar = 20.0005", "with at most 3 decimals, e.g. plates.kg_bar = 20."),
        ("plates.lb_bar = \"45\"", "plates.lb_bar = \"45\" must be the bar's weight in lb"),
        ("plates.kg = 25", "plates.kg = 25 must be a quoted list of plates, e.g. plates.kg = \"25x6, 20x2, 15x2, 10x2, 5x2, 2.5x2, 1.25x2\""),
        ("plates.kg = \"25, 20\"", "has '25', which is not a plate and a count"),
        ("plates.lb = \"45x0\"", "has 0 plates of 45 per side; give 1 to 20"),
        ("warmup.ramp = \"60x3\"", "warmup.ramp = \"60x3\" has '60x3', which is not a step; write `bar x10` or a percentage"),
        ("warmup.ramp = \"bar x10, 120% x1\"", "less than 100% of the working weight; e.g. warmup.ramp = \"bar x10, 45% x5"),
        ("plates.bar = 20", "unknown setting 'plates.bar'; known settings are unit, e1rm_formula, idle_gap_minutes, rest_seconds, show_plates, plates.kg_bar"),
    ])
    func badSettingsNameTheKeyAndWhatToType(line: String, says: String) throws {
        let dir = try temporaryDirectory("gymlog-plates-config")
        let path = dir + "/config.toml"
        try line.write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: UserError.self) { try ConfigFile.load(path) }
        #expect(error?.message.hasPrefix(path + ": ") == true && error?.message.contains(says) == true, "\(error?.message ?? "")")
    }

    @Test func theDefaultsAreTheStandardPlatesAndRamp() throws {
        let settings = try ConfigFile.settings(from: [:], path: "x")
        #expect(settings.kilogramPlates == .kilograms && settings.poundPlates == .pounds)
        #expect(settings.warmupSteps == WarmupRamp.defaultSteps && !settings.showPlates)
        // And a bar alone keeps the standard plates
        let bar = try ConfigFile.settings(from: ["plates.kg_bar": .float(15.5)], path: "x")
        #expect(bar.kilogramPlates == PlateInventory(bar: Fixed(thousandths: 15_500), plates: PlateInventory.kilograms.plates))
    }
}

/// The same commands typed in the REPL: the same answers, never taken for exercise names,
/// while exercises whose names hold those words still log.
@Suite struct PlatesReplTests {
    @Test func platesAndWarmupInTheReplAnswerAndCreateNoExercise() async throws {
        let s = try ReplTestSession()
        // When `plates` and `warmup` are typed
        #expect(await s.repl.handle("plates 142.5") == .ok)
        #expect(s.output.take().out == ["20kg bar + per side: 25 25 10 1.25"])
        #expect(await s.repl.handle("PLATES 25 20") == .ok)
        #expect(s.output.take().out == ["20kg bar + per side 25 20 = 110 kg"])
        #expect(await s.repl.handle("warmup squat 140") == .ok)
        // Then the hint is written as the REPL types it
        #expect(s.output.take().out == ["Warm-up for squat to 140 kg: bar x10, 62.5x5, 85x3, 105x2, 120x1",
                                        "Log it as warm-up sets: `warmup squat 140 log`."])
        // And no exercise named plates or warmup (or squat) was created
        #expect(try s.context.db().exerciseNames().isEmpty)
        // And a bad load is a usage error with what to type, REPL-style
        #expect(await s.repl.handle("plates 1o0") == .failed)
        #expect(s.output.take().err.first?.contains("'1o0' is not a load; type a weight like `plates 142.5`") == true)
    }

    @Test func aWarmupLoggedInTheReplIsOneActionThatUndoRemoves() async throws {
        // Given an open workout with a working set, in pounds by default
        let s = try ReplTestSession(settings: Settings(defaultUnit: .lb))
        #expect(await s.repl.handle("bench 135x5") == .ok)
        _ = s.output.take()
        // When a ramp is logged in kilograms
        #expect(await s.repl.handle("warmup squat 100kg log") == .ok)
        let out = s.output.take().out
        // Then the line names the unit on every set, and five warm-ups were logged
        #expect(out.first == "squat w20kgx10 w45kgx5 w60kgx3 w75kgx2 w85kgx1", "\(out)")
        #expect(out.filter { $0.contains("warm-up") }.count == 5, "\(out)")
        #expect(s.repl.prompt().contains("6 sets"))
        // When `undo` is typed once
        #expect(await s.repl.handle("undo") == .ok)
        #expect(s.output.take().out.first?.hasPrefix("Undid squat w20kgx10") == true)
        // Then the whole ramp is gone and the bench set stays
        #expect(s.repl.prompt().contains("1 set · "))
        #expect(try s.context.db().exerciseNames() == ["bench"])
    }

    @Test func aRampWhoseExerciseWordsReadAsSomethingElseLogsNothing() async throws {
        let s = try ReplTestSession()
        // When the exercise words hold a note mark, the built line would not be the ramp
        #expect(await s.repl.handle("warmup squat#2 100 log") == .failed)
        // Then nothing is logged and the error says what to do
        #expect(s.output.take().err.first?.contains("'squat#2' does not read as an exercise name") == true)
        #expect(try s.context.db().exerciseNames().isEmpty)
    }

    @Test func exerciseNamesWithTheseWordsStillLog() async throws {
        let s = try ReplTestSession()
        // When a new exercise's line starts with `warmup`, the command says how to log it
        #expect(await s.repl.handle("warmup row 40x10") == .failed)
        #expect(s.output.take().err.first?.contains("type `log warmup row 40x10`") == true)
        // And once it exists (logged with `log`), its lines log without `log`
        #expect(await s.repl.handle("log warmup row 40x10") == .ok)
        _ = s.output.take()
        #expect(await s.repl.handle("Warmup Row 42.5x10") == .ok)
        #expect(s.output.take().out.contains { $0.contains("warmup row #2") && $0.contains("42.5kg x 10") })
        // And words in the middle of a name never were commands
        #expect(await s.repl.handle("band warmup 10x20") == .ok)
        #expect(await s.repl.handle("plate raise 20x10") == .ok)
        _ = s.output.take()
        #expect(Set(try s.context.db().exerciseNames()) == ["warmup row", "band warmup", "plate raise"])
        // And the commands still run with those exercises around
        #expect(await s.repl.handle("warmup warmup row 60") == .ok)
        #expect(s.output.take().out.first == "Warm-up for warmup row to 60 kg: bar x10, 27.5x5, 35x3, 45x2, 50x1")
    }
}
