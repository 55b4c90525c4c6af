import Foundation
import GymLogCore
@testable import GymLogCLI
@testable import GymLogStore
import GymLogTestSupport
import Testing

/// `chart`, `stats`, `--json`, colour, completions and the man page, through the real binary.
@Suite struct LookBackTests {
    // MARK: chart

    @Test(arguments: [80, 200])
    func chartFitsTheWidthWithLabelledAxes(width: Int) throws {
        // Given 40 bench workouts two days apart, rising 2.5kg a time, with a heavy warm-up once
        let home = try TemporaryHome()
        let days = try seedBench(home)
        // When charted at this width
        let run = try home.gymlog(["chart", "bench", "--width", String(width)])
        // Then every line fits, the axes carry the max value, its unit and the first and last dates
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.allSatisfy { $0.count <= width }, "\(lines.map(\.count))")
        #expect(lines.map(\.count).max() == width)
        #expect(lines[0].hasPrefix("Bench · best e1RM per workout (kg) · 40 workouts"))
        let best = 197.5 * (1 + 5.0 / 30)
        #expect(lines[1].hasPrefix(number(best) + "kg ┤"), "the max value labels the top row")
        #expect(run.stdout.contains(LineChart.dayLabel(days.first!)) && run.stdout.contains(LineChart.dayLabel(days.last!)))
        #expect(lines.last!.contains("best \(number(best))kg"))
        #expect(!run.stdout.contains("233.3kg"), "the 200kg warm-up never counts")
    }

    @Test func chartFollowsTheTerminalWidthFromColumns() throws {
        let home = try TemporaryHome()
        try seedBench(home)
        let wide = try home.gymlog(["chart", "bench"], env: ["COLUMNS": "200"])
        #expect(wide.stdout.split(separator: "\n").map(\.count).max() == 200)
        let piped = try home.gymlog(["chart", "bench"])
        #expect(piped.stdout.split(separator: "\n").map(\.count).max() == 80, "80 columns when piped")
    }

    @Test func chartMetricsFiltersAndEdgeCases() throws {
        let home = try TemporaryHome()
        let days = try seedBench(home)
        // Heaviest weight and session volume
        #expect(try home.gymlog(["chart", "bench", "--metric", "weight"]).stdout.contains("197.5kg ┤"))
        #expect(try home.gymlog(["chart", "bench", "--metric", "volume"]).stdout.contains("2962.5kg ┤"))
        // --since keeps the last ten workouts
        let since = try home.gymlog(["chart", "bench", "--since", LineChart.dayLabel(days[30])])
        #expect(since.stdout.contains("· 10 workouts, \(LineChart.dayLabel(days[30])) to \(LineChart.dayLabel(days[39]))"))
        // A flat series has one value label; a single workout is one point with its date
        let flat = try home.gymlog(["chart", "row", "--metric", "weight"])
        #expect(flat.stdout.components(separatedBy: "┤").count == 2 && flat.stdout.contains("100kg ┤"))
        let one = try home.gymlog(["chart", "ohp", "--metric", "weight"])
        #expect(one.status == 0 && one.stdout.contains("1 workout,") && one.stdout.contains("70kg on \(LineChart.dayLabel(days[5]))"))
        // A timed exercise charts its time; a metric without data says so; a bad metric or width is a usage error
        let plank = try home.gymlog(["chart", "plank"])
        #expect(plank.status == 0 && plank.stdout.contains("longest time per workout") && plank.stdout.contains("1:00 on"))
        let none = try home.gymlog(["chart", "bench", "--metric", "pace"])
        #expect(none.status == 0 && none.stdout.contains("no best pace to chart"))
        #expect(try home.gymlog(["chart", "bench", "--metric", "speed"]).status == 64)
        #expect(try home.gymlog(["chart", "bench", "--width", "10"]).status == 64)
        #expect(try home.gymlog(["chart", "squat"]).status == 1)
    }

    @Test func chartBucketsALongHistory() throws {
        // Given 1,500 workouts of one set each, a day apart
        let home = try TemporaryHome()
        try seed(home, (0..<1500).map { i in (daysAgo: 1500 - i, lines: ["deadlift \(150 + (i % 40))x3"]) })
        // When charted in 80 columns
        let run = try home.gymlog(["chart", "deadlift", "--metric", "weight"])
        // Then it still fits and shows the extremes
        #expect(run.status == 0)
        #expect(run.stdout.contains("1500 workouts"))
        #expect(run.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 })
        #expect(run.stdout.contains("189kg ┤") && run.stdout.contains("150kg ┤"))
        let json = try object(try home.gymlog(["chart", "deadlift", "--metric", "weight", "--json"]).stdout)
        #expect((json["points"] as? [[String: Any]])?.count == 1500)
    }

    // MARK: stats

    @Test func statsCountsWeeklyFrequencySetsAndVolume() throws {
        // Given five workouts in the last four weeks (warm-ups in each)
        let home = try TemporaryHome()
        try seed(home, [
            (daysAgo: 27, lines: ["Bench w60x10", "bench 100x5x3", "squat 140x5x2"]),
            (daysAgo: 20, lines: ["bench w60x10", "bench 100x5x3", "pullup bw x8"]),
            (daysAgo: 13, lines: ["squat w100x5", "squat 150x5x3", "Zercher Thing 60x10"]),
            (daysAgo: 6, lines: ["bench 105x5x2", "row 80x8x3"]),
            (daysAgo: 0, lines: ["bench w60x10", "bench 102.5x5", "plank 60s"]),
        ])
        // When asked for five weeks as JSON
        let json = try object(try home.gymlog(["stats", "--weeks", "5", "--json"]).stdout)
        let weekly = try #require(json["weekly"] as? [[String: Any]])
        // Then every working set is counted once, warm-ups never
        #expect(weekly.count == 5 && json["by"] as? String == "exercise" && json["unit"] as? String == "kg")
        let expectedSets = [3 + 2, 3 + 1, 3 + 1, 2 + 3, 1 + 1].reduce(0, +)
        #expect(weekly.map { $0["sets"] as! Int }.reduce(0, +) == expectedSets)
        #expect(weekly.map { $0["workouts"] as! Int }.reduce(0, +) == 5)
        let volume = weekly.map { ($0["volume"] as! NSNumber).doubleValue }.reduce(0, +)
        let expectedVolume: Double = [1500, 1400, 1500, 2250, 600, 1050, 1920, 512.5].reduce(0, +)
        #expect(abs(volume - expectedVolume) < 0.01)
        // Weeks start on Mondays, oldest first, and this week holds today's workout
        let starts = weekly.map { $0["week_start"] as! String }
        #expect(starts == starts.sorted())
        for start in starts {
            let d = try #require(parseDay(start))
            #expect(((daysFromCivil(year: d.year, month: d.month, day: d.day) % 7) + 7) % 7 == 4, "1970-01-05 was a Monday")
        }
        let thisWeek = try #require(weekly.last?["groups"] as? [[String: Any]])
        #expect(thisWeek.contains { $0["name"] as? String == "Bench" && $0["sets"] as? Int == 1 && $0["workouts"] as? Int == 1 })
        // By muscle, from the exercises' catalog links; what links to nothing is "unlinked", never guessed
        let muscles = try object(try home.gymlog(["stats", "--weeks", "5", "--by", "muscle", "--json"]).stdout)
        let muscleWeeks = muscles["weekly"] as! [[String: Any]]
        let names = Set(muscleWeeks.flatMap { ($0["groups"] as! [[String: Any]]).map { $0["name"] as! String } })
        #expect(names.isSuperset(of: ["chest", "triceps", "quadriceps", "lats", "abdominals", "unlinked"]), "\(names)")
        #expect(!names.contains("other") && !names.contains("legs") && !names.contains("back"), "\(names)")
        let unlinked = Set(muscleWeeks.flatMap { $0["unlinked_exercises"] as! [String] })
        #expect(unlinked == ["Zercher Thing", "row"], "\(unlinked)")
        // And the text form lists the weeks and the exercises
        let text = try home.gymlog(["stats", "--weeks", "5"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("Zercher Thing") && text.stdout.contains("Weekly average"))
        #expect(text.stdout.contains(starts.last!))
        #expect(try home.gymlog(["stats", "--weeks", "0"]).status == 64)
        #expect(try home.gymlog(["stats", "--by", "planet"]).status == 64)
    }

    // MARK: --json

    /// Issue 26, item 31: `bw` with no database said "No bodyweight yet" and exited 0.
    @Test func everyReadCommandNamesAMissingDatabase() throws {
        let home = try TemporaryHome()
        let missing = home.root + "/nowhere.sqlite"
        for args in [["bw"], ["bw", "--json"], ["history"], ["prs"]] {
            let run = try home.gymlog(args + ["--db", missing])
            #expect(run.status == 1 && run.stderr.contains("There is no gymlog database at \(missing)"), "\(args): \(run.status) \(run.stdout) \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test func everyReadCommandSpeaksJSON() throws {
        // Given a workout logged at UTC+01:00 with a typed 102.5, pounds, RPE, a note and a bodyweight set
        let home = try TemporaryHome()
        try seed(home, [(daysAgo: 1, lines: ["Bench 102.5x5 @8 # fast", "bench 225lb x 3", "pullup bw+20x6"])], offset: 3600)
        let iso = try Regex(#"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+01:00$"#)

        // show: numbered sets exactly as typed
        let show = try home.gymlog(["show", "--json"])
        #expect(show.stdout.contains("\"weight\": 102.5,") && show.stdout.contains("\"weight_unit\": \"lb\""))
        let workout = try #require(try object(show.stdout)["workout"] as? [String: Any])
        let sets = try #require(workout["sets"] as? [[String: Any]])
        #expect(sets.map { $0["number"] as! Int } == [1, 2, 3])
        #expect((sets[0]["weight"] as! NSNumber).doubleValue == 102.5 && sets[0]["rpe"] as? Int == 8 && sets[0]["note"] as? String == "fast")
        #expect(sets[2]["bodyweight"] as? Bool == true && sets[2]["reps"] as? Int == 6)
        #expect((sets[0]["performed_at"] as! String).wholeMatch(of: iso) != nil)
        #expect((workout["started_at"] as! String).wholeMatch(of: iso) != nil)

        // history
        let history = try object(try home.gymlog(["history", "bench", "--json"]).stdout)
        #expect(history["exercise"] as? String == "Bench")
        #expect(((history["workouts"] as! [[String: Any]])[0]["sets"] as! [[String: Any]]).count == 2)

        // prs: values in the default unit, the set as typed
        let prs = try object(try home.gymlog(["prs", "--json"]).stdout)
        let bench = try #require((prs["exercises"] as! [[String: Any]]).first { $0["exercise"] as? String == "Bench" })
        let records = bench["records"] as! [[String: Any]]
        let heaviest = try #require(records.first { $0["metric"] as? String == "weight" })
        #expect((heaviest["value"] as! NSNumber).doubleValue == 102.5 && heaviest["unit"] as? String == "kg")
        #expect((heaviest["set"] as! [String: Any])["summary"] as? String == "102.5kg x 5 @8  # fast")
        #expect(records.contains { $0["metric"] as? String == "rep_max" && $0["reps"] as? Int == 3 })

        // status, stats, chart
        let status = try object(try home.gymlog(["status", "--json"]).stdout)
        #expect(status["outbox_depth"] as? Int ?? 0 > 0 && status["server"] is NSNull && status["last_sync_at"] is NSNull)
        #expect(try object(try home.gymlog(["stats", "--json"]).stdout)["weeks"] as? Int == 8)
        let chart = try object(try home.gymlog(["chart", "bench", "--json", "--metric", "weight"]).stdout)
        let point = try #require((chart["points"] as? [[String: Any]])?.first)
        #expect((point["value"] as! NSNumber).doubleValue == 102.5 && point["sets"] as? Int == 2 && chart["unit"] as? String == "kg")

        // Empty databases still answer with the same shapes (read commands create none: make it)
        let empty = try TemporaryHome()
        _ = try GymLogDatabase(path: empty.database)
        #expect(try object(try empty.gymlog(["show", "--json"]).stdout)["workout"] is NSNull)
        #expect((try object(try empty.gymlog(["history", "--json"]).stdout)["workouts"] as? [Any])?.isEmpty == true)
        #expect((try object(try empty.gymlog(["prs", "--json"]).stdout)["exercises"] as? [Any])?.isEmpty == true)
    }

    // MARK: colour

    @Test func colourOnlyWhenForcedOrOnATerminalAndNeverWithNoColor() throws {
        let home = try TemporaryHome()
        try seedBench(home)
        let commands: [[String]] = [["prs"], ["history"], ["show"], ["chart", "bench"], ["stats"], ["status"], ["log", "bench 300x1"]]
        // Piped: plain text
        for args in commands {
            let run = try home.gymlog(args)
            #expect(!run.stdout.contains("\u{1B}") && !run.stderr.contains("\u{1B}"), "\(args)")
        }
        // Forced: PRs highlighted, secondary text dim
        let pr = try home.gymlog(["log", "bench 310x1"], env: ["GYMLOG_FORCE_COLOR": "1"])
        #expect(pr.stdout.contains("\u{1B}[1;32mPR! "))
        #expect(try home.gymlog(["prs"], env: ["GYMLOG_FORCE_COLOR": "1"]).stdout.contains("\u{1B}[1;32m310kg\u{1B}[0m"))
        #expect(try home.gymlog(["chart", "bench"], env: ["GYMLOG_FORCE_COLOR": "1"]).stdout.contains("\u{1B}[2m"))
        // NO_COLOR wins, whatever its value
        for value in ["", "1"] {
            for args in commands {
                let run = try home.gymlog(args, env: ["GYMLOG_FORCE_COLOR": "1", "NO_COLOR": value])
                #expect(!run.stdout.contains("\u{1B}"), "\(args)")
            }
        }
    }

    // MARK: completions and man page

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsNameEveryCommand(shell: String) throws {
        // Given the command tree as ArgumentParser describes it
        let home = try TemporaryHome()
        let dump = try object(try home.gymlog(["--experimental-dump-help"]).stdout)
        let commands = (dump["command"] as! [String: Any])["subcommands"] as! [[String: Any]]
        // When the binary writes the shell's completion script
        let run = try home.gymlog(["--generate-completion-script", shell])
        #expect(run.status == 0, "\(run.stderr)")
        // Then it offers every subcommand
        let missing = commands.map { $0["commandName"] as! String }.filter { !run.stdout.contains($0) }
        #expect(missing.isEmpty, "the \(shell) script does not offer \(missing)")
        // And bash reads the bash script without a syntax error
        if shell == "bash" {
            let script = try temporaryDirectory("gymlog-completion") + "/gymlog.bash"
            try run.stdout.write(toFile: script, atomically: true, encoding: .utf8)
            let parsed = try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-n", script])
            #expect(parsed.status == 0, "\(parsed.stderr)")
        }
    }

    @Test func theManPageCoversEveryCommandAndOption() throws {
        // Given the command tree as ArgumentParser describes it
        let dump = try object(try TemporaryHome().gymlog(["--experimental-dump-help"]).stdout)
        let manual = try String(contentsOf: repositoryRoot.appendingPathComponent("man/gymlog.1"), encoding: .utf8)
        // Then the page names every subcommand and every long option
        var missing: [String] = []
        func visit(_ command: [String: Any], path: [String]) {
            let name = command["commandName"] as! String
            let here = path + [name]
            if here.count > 1, !manual.contains(".It Em \(name)\n") { missing.append(here.joined(separator: " ")) }
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                guard argument["shouldDisplay"] as? Bool ?? true, let names = argument["names"] as? [[String: Any]] else { continue }
                for n in names where n["kind"] as? String == "long" {
                    let flag = n["name"] as! String
                    if !manual.contains("Fl -\(flag)") { missing.append("\(here.joined(separator: " ")) --\(flag)") }
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { visit(sub, path: here) }
        }
        visit(dump["command"] as! [String: Any], path: [])
        #expect(missing.isEmpty, "man/gymlog.1 is stale; run scripts/generate-manual: \(missing)")

        // And when swift-argument-parser's generate-manual has been built (scripts/generate-manual
        // builds it), the page is exactly what it generates today
        let generator = builtProducts.appendingPathComponent("generate-manual")
        guard FileManager.default.isExecutableFile(atPath: generator.path) else { return }
        let script = try String(contentsOf: repositoryRoot.appendingPathComponent("scripts/generate-manual"), encoding: .utf8)
        let date = try #require(script.firstMatch(of: /MANUAL_DATE=(\S+)/)?.1)
        let out = URL(fileURLWithPath: try temporaryDirectory("gymlog-man"))
        let generated = try ProcessRunner.run(generator, [builtProducts.appendingPathComponent("gymlog").path, "--date", String(date), "--output-directory", out.path])
        #expect(generated.status == 0, "\(generated.stderr)")
        let finished = try ProcessRunner.run(repositoryRoot.appendingPathComponent("scripts/finish-manual"),
                                             [builtProducts.appendingPathComponent("gymlog").path, out.appendingPathComponent("gymlog.1").path])
        #expect(finished.status == 0, "\(finished.stderr)")
        try compareGenerated(try String(contentsOf: out.appendingPathComponent("gymlog.1"), encoding: .utf8), "man/gymlog.1")
    }
}

// MARK: - Helpers

private func number(_ v: Double) -> String {
    let r = (v * 10).rounded() / 10
    return r == r.rounded() ? String(Int64(r)) : String(format: "%.1f", r)
}

/// The checkout the tests run from: the README, the man page, the scripts.
var repositoryRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// Compares generated text with the committed file; `GYMLOG_RECORD_GOLDENS=1` rewrites it and fails.
private func compareGenerated(_ text: String, _ path: String) throws {
    let url = repositoryRoot.appendingPathComponent(path)
    if ProcessInfo.processInfo.environment["GYMLOG_RECORD_GOLDENS"] == "1" {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        Issue.record("Recorded \(path); unset GYMLOG_RECORD_GOLDENS and run again to compare.")
        return
    }
    let committed = try? String(contentsOf: url, encoding: .utf8)
    #expect(committed == text, "\(path) is stale; run scripts/generate-manual")
}

func object(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text.prefix(200))")
}

/// Logs workouts straight into the home's database, oldest first: each is (days before
/// today, lines in the entry language), starting at 10:00 UTC, a minute per line.
@discardableResult
func seed(_ home: TemporaryHome, _ workouts: [(daysAgo: Int, lines: [String])], offset: Int = 0) throws -> [Int64] {
    let clock = FakeClock()
    let environment = clock.environment(utcOffset: offset, newID: { UUID() })
    let db = try GymLogDatabase(path: home.database, environment: environment)
    let today = Int64(Date().timeIntervalSince1970) / 86_400
    var days: [Int64] = []
    for w in workouts {
        let day = today - Int64(w.daysAgo)
        clock.set(day * 86_400_000 + 10 * 3_600_000)
        days.append(LineChart.day(millis: clock.now(), utcOffsetSeconds: offset))
        for line in w.lines {
            guard case .success(.log(let mention, let specs)) = EntryParser.parse(line) else {
                throw UserError("seed line does not parse: \(line)")
            }
            _ = try db.logSets(exercise: mention, specs: specs)
            clock.advance(60_000)
        }
        _ = try db.finishWorkout()
    }
    return days
}

/// 40 bench workouts two days apart (100kg to 197.5kg x 5 x 3, a 200kg warm-up in the
/// tenth), a flat row, one OHP workout and a plank; returns the bench workouts' days.
@discardableResult
func seedBench(_ home: TemporaryHome) throws -> [Int64] {
    var workouts: [(daysAgo: Int, lines: [String])] = []
    for i in 0..<40 {
        var lines = ["Bench w60x10", "bench \(number(100 + Double(i) * 2.5))x5x3"]
        if i == 9 { lines.append("bench w200x1") }
        if i % 8 == 0 { lines.append("row 100x8") }
        if i == 5 { lines.append("ohp 70x5") }
        if i == 6 { lines.append("plank 60s") }
        workouts.append((daysAgo: 90 - i * 2, lines: lines))
    }
    return try seed(home, workouts)
}

/// Issue 26, item 26: `import --help` and `gymlog-server serve --help` came out ragged, their
/// prose broken by hand at one width and wrapped again by the help formatter at another.
@Suite struct HelpTextTests {
    @Test(arguments: ["gymlog", "gymlog-server"])
    func everyDiscussionLetsTheFormatterWrapAndFitsEightyColumns(binary: String) throws {
        // Given every command's discussion as ArgumentParser describes it
        let run = try ProcessRunner.runProduct(binary, ["--experimental-dump-help"])
        #expect(run.status == 0, "\(run.stderr)")
        var problems: [String] = []
        func visit(_ command: [String: Any], path: [String]) {
            let here = path + [command["commandName"] as! String]
            let lines = (command["discussion"] as? String ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            for (line, next) in zip(lines, lines.dropFirst()) {
                // Then a paragraph of prose is one line (the formatter wraps it to the terminal)
                let prose: (Substring) -> Bool = { !$0.isEmpty && !$0.hasPrefix(" ") }
                if prose(line) && prose(next) { problems.append("\(here.joined(separator: " ")): a line break in prose after '\(line.suffix(30))'") }
            }
            // And an indented line (an example, a table) fits 80 columns, where it is not rewrapped
            for line in lines where line.hasPrefix(" ") && line.count > 80 {
                problems.append("\(here.joined(separator: " ")): \(line.count) columns: '\(line.prefix(40))…'")
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { visit(sub, path: here) }
        }
        visit(try object(run.stdout)["command"] as! [String: Any], path: [])
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}

/// Issue 26, item 25: at 60 columns `prs` wrapped in the middle of numbers (`5RM 6` / `5kg`).
@Suite struct NarrowTerminalTests {
    @Test func theRecordsTableFitsSixtyColumnsWithoutSplittingANumber() throws {
        // Given an exercise with a long name and eight rep maxes
        let set = { (reps: Int, kg: Int) in
            LoggedSet(id: UUID(), workoutID: UUID(), exerciseID: UUID(), values: SetValues(weight: Weight(Fixed(kg), .kg), reps: reps),
                      performedAt: 1_764_000_000_000)
        }
        let records = [1, 2, 3, 4, 5, 6, 8, 10].map { RecordEntry(metric: .repMax, reps: $0, value: Double(200 - $0 * 5), set: set($0, 200 - $0 * 5)) }
            + [RecordEntry(metric: .weight, reps: 0, value: 195, set: set(1, 195))]
        let exercise = Exercise(id: UUID(), name: "Bench Press (Barbell)", kind: .weighted)
        // When it is rendered for a 60-column terminal
        let lines = Render.records([(exercise, records)], settings: Settings(), width: 60).flatMap { $0.split(separator: "\n") }
        // Then every line fits, and every rep max is whole on one line
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(lines.joined(separator: "\n"))")
        let text = lines.joined(separator: "\n")
        for r in [1, 2, 3, 4, 5, 6, 8, 10] { #expect(text.contains("\(r)RM \(200 - r * 5)kg"), "\(r)RM in \(text)") }
        // And piped (no width) it stays one line per row
        #expect(Render.records([(exercise, records)], settings: Settings()).count == 3)
    }

    /// `routine show` and `start`'s plan at 60 columns split `a\ns many reps` and `5/\n3/1`.
    @Test func aPlanFitsSixtyColumnsBreakingBetweenWords() {
        let reason = "     5/3/1 cycle 1 week 1: 65/75/85% of TM 140kg, last set as many reps as you can"
        let lines = Render.wrapped(["  1  squat     90kg x 5, 105kg x 5, 120kg x 5+", reason], width: 60).flatMap { $0.split(separator: "\n") }
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(lines)")
        #expect(lines.dropFirst(2).allSatisfy { $0.hasPrefix("     ") && !$0.hasPrefix("      ") }, "\(lines)")
        #expect(lines.joined(separator: " ").split(separator: " ") == ["1", "squat", "90kg", "x", "5,", "105kg", "x", "5,", "120kg", "x", "5+"]
            + reason.split(separator: " "), "\(lines)")
        #expect(Render.wrapped([reason], width: nil) == [reason])
        // A dim line (its escape before its indent) goes on under its own first word too
        let dim = Style(enabled: true).dim("  vs 'Press day' on Fri 27 Nov: 16 sets (-14), 4269kg (-3841.5kg)")
        let wrapped = Render.wrapped([dim], width: 60)[0].split(separator: "\n")
        #expect(wrapped.count == 2 && wrapped[1].hasPrefix("  ") && !wrapped[1].hasPrefix("   "), "\(wrapped)")
    }

    /// A planned line's sets break between sets, going on under the first set, never inside
    /// one (`70lb x` / `12`) or back at the line number.
    @Test func aPlannedLinesSetsBreakBetweenSets() async throws {
        let s = try ReplTestSession()
        let file = temporaryFile("routine", extension: "txt")
        try "# Legs\nsingle leg romanian deadlift 5/3/1 tm 100\n".write(toFile: file, atomically: true, encoding: .utf8)
        await s.type("routine add --file \(file)")
        let db = try s.context.db()
        let plan = try TodayPlan.build(db, settings: Settings(), routine: try db.routine(named: "legs"), workout: nil, now: s.world.now())
        let lines = plan.lines(settings: Settings(), now: s.world.now(), utcOffset: 3600, columns: 60)
        #expect(lines[1] == "  1  single leg romanian deadlift  65kg x 5, 75kg x 5,", "\(lines)")
        #expect(lines[2] == String(repeating: " ", count: 35) + "85kg x 5+", "\(lines)")
        #expect(plan.lines(settings: Settings(), now: s.world.now(), utcOffset: 3600)[1].hasSuffix("65kg x 5, 75kg x 5, 85kg x 5+"))
    }
}

/// `gymlog calendar` through the real binary (issue 30, item 6).
@Suite struct CalendarCommandTests {
    /// Today and the days a week and three weeks before, in the local time the binary uses.
    @Test func theMonthMarksTrainingDaysAndTheStreakCountsWeeks() throws {
        let home = try TemporaryHome()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let today = LineChart.day(millis: now, utcOffsetSeconds: TimeZone.current.secondsFromGMT())
        for back in [21, 7] {
            #expect(try home.gymlog(["log", "--at", LineChart.dayLabel(today - Int64(back)) + " 12:00", "bench 100x5"]).status == 0)
        }
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)
        // The month shown piped marks today with `*`, and the summary counts weeks
        let run = try home.gymlog(["calendar"])
        #expect(run.status == 0, "\(run.stderr)")
        let d = civilFromDays(today)
        #expect(run.stdout.contains(String(format: "%2d*", d.day)), "\(run.stdout)")
        #expect(run.stdout.contains("Streak: 2 weeks in a row with a workout (your longest)."), "\(run.stdout)")
        #expect(run.stdout.split(separator: "\n").allSatisfy { $0.count <= 60 }, "a month fits 60 columns")
        // And --json gives the days, the workouts and both streaks
        let json = try JSONSerialization.jsonObject(with: Data(try home.gymlog(["calendar", "--year", "--json"]).stdout.utf8)) as! [String: Any]
        #expect((json["current_streak"] as? [String: Any])?["weeks"] as? Int == 2)
        #expect((json["longest_streak"] as? [String: Any])?["from"] as? String == LineChart.dayLabel(mondayOf(today - 7)))
        let thisYear = [21, 7, 0].filter { civilFromDays(today - Int64($0)).year == d.year }.count
        #expect(json["workouts"] as? Int == thisYear && json["workouts_this_year"] as? Int == thisYear)
        #expect((json["days"] as? [[String: Any]])?.count == thisYear)
        // And a period that is not one is refused as bad input, naming it
        let bad = try home.gymlog(["calendar", "2026-13"])
        #expect(bad.status == 64 && bad.stderr.contains("'2026-13' is not a month; give one like `2026-10`."), "\(bad.stderr)")
    }
}

/// Issue 49: the version both binaries print has its section in CHANGELOG.md, so a release is
/// never numbered without saying what it changed.
@Test func theChangelogHasASectionForThisVersion() throws {
    let changelog = try String(contentsOf: repositoryRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    #expect(changelog.contains("\n## [\(gymlogVersion)] - "), "CHANGELOG.md has no `## [\(gymlogVersion)] - DATE` section")
    #expect(changelog.contains("## [Unreleased]"))
}
