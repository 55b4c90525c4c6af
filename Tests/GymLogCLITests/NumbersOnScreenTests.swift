import Foundation
@testable import GymLogCLI
import GymLogCore
@testable import GymLogStore
import GymLogTestSupport
import Testing

/// One unit on one screen; records, stats and charts that do not mislead; PR lines that wrap.
@Suite struct NumbersOnScreenTests {
    @Test func aNumberShowsAtMostOneDecimalAsPrintfRoundsIt() {
        // Given values around every rounding edge, negative ones and zero's sign included
        // (Render.number writes them out itself: `String(format:)` cost a start-up, issue 31)
        let values: [Double] = [0, -0.0, 0.04, 0.05, 0.95, -0.04, -0.05, -0.5, -12.34, 1, 9.95, 99.96, 116.66, 142.5,
                                1e6 + 0.25, -1e6 - 0.75, 2.675, 1.25e12]
        for v in values + (0..<2000).map { Double($0) * 0.0137 - 13 } {
            // Then each shows as printf's one decimal, the ".0" of a whole number dropped
            let tenths = (v * 10).rounded() / 10
            let printf = String(format: "%.1f", tenths)
            let expected = tenths == tenths.rounded() ? String(Int64(tenths)) : printf
            #expect(Render.number(v) == expected, "\(v)")
        }
    }

    // MARK: one unit on one screen

    @Test func everyComputedValueIsInTheConfiguredUnitAndTheSetAsTyped() throws {
        // Given kilograms configured and a set typed in pounds
        let home = try TemporaryHome()
        let logged = try home.gymlog(["log", "bench 225lb x5"])
        // Then its e1RM echo is in kilograms (102.06 kg x 7/6), the set as typed
        #expect(logged.stdout.contains("225lb x 5") && logged.stdout.contains("e1RM 119.1kg"), "\(logged.stdout)")
        // And the records table names every record in kilograms
        let prs = try home.gymlog(["prs"]).stdout
        #expect(row(prs, "heaviest weight").hasPrefix("102.1kg"), "\(prs)")
        #expect(row(prs, "best e1RM").hasPrefix("119.1kg") && row(prs, "best set volume").hasPrefix("510.3kg"))
        #expect(prs.contains("(225lb x 5,"), "the set holding the record shows as typed")
    }

    /// Issue 26 item 9: reps in reserve, typed instead of an RPE, is kept and shown as typed.
    @Test func anRIRIsShownAsTypedWhereverTheSetIs() throws {
        // Given squats logged from the shell with an RIR, then a repeat with one rep fewer
        let home = try TemporaryHome()
        let logged = try home.gymlog(["log", "squat 140x3 rir2"])
        #expect(logged.status == 0 && logged.stdout.contains("140kg x 3 rir2"), "\(logged.stdout)\(logged.stderr)")
        #expect(try home.gymlog(["log", "+ x2"]).status == 0)
        // Then `show` prints each set as typed
        let shown = try home.gymlog(["show"]).stdout
        #expect(shown.contains("140kg x 3 rir2") && shown.contains("140kg x 2 rir2"), "\(shown)")
        #expect(!shown.contains("@"), "no RPE is made up: \(shown)")
        // And `last` in a later workout says the shared RIR once, as it does an RPE
        #expect(try home.gymlog(["finish"]).status == 0)
        let last = try home.gymlog(["last", "squat"]).stdout
        #expect(last.contains("140kg x 3, 2 rir2"), "\(last)")
        // And `--json` carries it beside `rpe`
        let json = try JSONSerialization.jsonObject(with: Data(try home.gymlog(["last", "squat", "--json"]).stdout.utf8)) as? [String: Any]
        let sets = ((json?["last"] as? [String: Any])?["sets"] as? [[String: Any]]) ?? []
        #expect(sets.map { $0["rir"] as? Double } == [2, 2] && sets.allSatisfy { $0["rpe"] is NSNull }, "\(sets)")
        // And a line with both an RPE and an RIR is refused at the caret, logging nothing
        let both = try home.gymlog(["log", "squat 140x3 @8 rir2"])
        #expect(both.status != 0 && both.stderr.contains("give RPE (@8) or RIR (rir2), not both"), "\(both.stderr)")
        #expect(both.stderr.contains("  squat 140x3 @8 rir2\n                 ^^^^"), "the caret is under rir2: \(both.stderr)")
        let tooMany = try home.gymlog(["log", "squat 140x3 rir12"])
        #expect(tooMany.status != 0 && tooMany.stderr.contains("'rir12': RIR must be between 0 and 10"), "\(tooMany.stderr)")
        // And the native export holds the two sets, each with its RIR in the `rir` column
        let rows = try home.gymlog(["export"]).stdout.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let rirColumn = try #require(rows.first?.firstIndex(of: "rir"))
        #expect(rows.count == 3 && rows.dropFirst().allSatisfy { $0[rirColumn] == "2" }, "\(rows)")
    }

    /// Issue 26 item 18: a session-volume record is beaten once, against earlier sessions, and
    /// said again at `finish`; later sets of the same session do not announce it again.
    @Test func aSessionVolumeRecordIsAnnouncedOnceAgainstEarlierSessions() throws {
        // Given an earlier session of 4 x 5 at 225 lb (4,500 lb)
        let home = try TemporaryHome()
        try "unit = \"lb\"\n".write(toFile: home.config, atomically: true, encoding: .utf8)
        #expect(try home.gymlog(["log", "--at", "2026-11-20 18:00", "bench 225x5x4"]).status == 0)
        // When today's session logs 7 sets of the same, one at a time
        let echoes = try (1...7).map { _ in try home.gymlog(["log", "bench 225x5"]).stdout }
        // Then only the fifth set announces the session record, against the earlier session
        let announcing = echoes.indices.filter { echoes[$0].contains("best session volume") }
        #expect(announcing == [4], "\(echoes)")
        #expect(echoes[4].contains("best session volume (was 4500lb)"), "\(echoes[4])")
        // And finish says the session's record once, at its total
        let finished = try home.gymlog(["finish"]).stdout
        #expect(finished.contains("best session volume 7875lb"), "\(finished)")
    }

    @Test func withPoundsConfiguredNothingComputedShowsKilograms() throws {
        // Given unit = "lb" and sets typed in kilograms and pounds
        let home = try TemporaryHome()
        try "unit = \"lb\"\n".write(toFile: home.config, atomically: true, encoding: .utf8)
        _ = try home.gymlog(["log", "bench 100kg x5"])
        let second = try home.gymlog(["log", "bench 105kg x3"]).stdout
        let third = try home.gymlog(["log", "bench 230lb x5"]).stdout
        // Then echoes and PR lines speak pounds
        #expect(second.contains("e1RM 254.6lb") && !second.contains("e1RM 115"), "\(second)")
        #expect(third.contains("5RM (was 220.5lb)"), "\(third)")
        // And the table's loads, e1RM, volumes and rep maxes are all in pounds
        let prs = try home.gymlog(["prs"]).stdout
        for label in ["heaviest weight", "best e1RM", "best set volume", "best session volume"] {
            let value = row(prs, label).prefix { $0 != " " }
            #expect(value.hasSuffix("lb"), "\(label): \(value)")
        }
        let repMaxes = try #require(prs.split(separator: "\n").first { $0.contains("exact-rep maxes") })
        #expect(repMaxes.contains("3RM 231.5lb") && repMaxes.contains("5RM 230lb") && !repMaxes.contains("kg"), "\(repMaxes)")
        // And JSON agrees
        let json = try object(try home.gymlog(["prs", "--json"]).stdout)
        let records = try #require(((json["exercises"] as? [[String: Any]])?.first?["records"]) as? [[String: Any]])
        #expect(records.allSatisfy { ["lb", "reps", "s", "m"].contains($0["unit"] as? String ?? "") })
    }

    // MARK: records that do not mislead

    @Test func aFasterRunIsAnnouncedWithItsDistanceAndPace() throws {
        let home = try TemporaryHome()
        _ = try home.gymlog(["log", "run 5km 25:10"])
        let faster = try home.gymlog(["log", "run 5km 24:20"]).stdout
        #expect(faster.contains("5km in 24:20 · 4:52/km"), "\(faster)")
        #expect(faster.contains("PR! fastest 5km (was 25:10), best pace 4:52/km (was 5:02/km)"), "\(faster)")
        let slower = try home.gymlog(["log", "run 5km 26:00"]).stdout
        #expect(!slower.contains("PR!"), "a slower 5 km is no record: \(slower)")
        let prs = try home.gymlog(["prs", "run"]).stdout
        #expect(row(prs, "fastest 5km").hasPrefix("24:20") && row(prs, "best pace").hasPrefix("4:52/km"), "\(prs)")
    }

    @Test func sessionVolumeNamesTheWorkoutNotOneSet() throws {
        let home = try TemporaryHome()
        try seed(home, [(daysAgo: 3, lines: ["row w40x10", "row 50x10x3"]), (daysAgo: 1, lines: ["row 50x10"])])
        let prs = try home.gymlog(["prs"]).stdout
        let session = row(prs, "best session volume")
        #expect(session.hasPrefix("1500kg") && session.contains("(3 sets on "), "\(session)")
        #expect(!session.contains("50kg x 10"), "not one set's summary")
        let json = try object(try home.gymlog(["prs", "--json"]).stdout)
        let records = try #require(((json["exercises"] as? [[String: Any]])?.first?["records"]) as? [[String: Any]])
        let workout = try #require(records.first { $0["metric"] as? String == "session_volume" }?["workout"] as? [String: Any])
        #expect(workout["sets"] as? Int == 3)
    }

    @Test func eachExercisesSessionVolumeCountsItsOwnSetsInASharedWorkout() throws {
        // Given one workout with three working sets of bench and one of row (row logged last)
        let home = try TemporaryHome()
        try seed(home, [(daysAgo: 1, lines: ["bench w60x10", "bench 100x5x3", "row 65x8"])])
        // When the records are listed
        let prs = try home.gymlog(["prs"]).stdout
        // Then bench's session volume names its own 3 sets, not the row's 1
        let bench = try #require(prs.components(separatedBy: "\nrow").first)
        #expect(row(bench, "best session volume").contains("(3 sets on "), "\(prs)")
        let rowPart = try #require(prs.components(separatedBy: "\nrow").last)
        #expect(row(rowPart, "best session volume").contains("(1 set on "), "\(prs)")
    }

    @Test func theWeeklyAverageStartsAtTheFirstWorkout() throws {
        // Given a new lifter's two weeks: 4 working sets last week, 2 this week
        let home = try TemporaryHome()
        try seed(home, [(daysAgo: 7, lines: ["bench 100x5x4"]), (daysAgo: 0, lines: ["bench 100x5x2"])])
        // When asked for the usual eight weeks
        let json = try object(try home.gymlog(["stats", "--json"]).stdout)
        // Then the average is over the two weeks trained, not eight
        let average = try #require(json["average"] as? [String: Any])
        #expect(average["weeks"] as? Int == 2 && (average["sets"] as? NSNumber)?.doubleValue == 3)
        let text = try home.gymlog(["stats"]).stdout
        let averageRow = try #require(text.split(separator: "\n").first { $0.hasPrefix("Weekly average") })
        #expect(averageRow.split(separator: " ").map(String.init).contains("3"), "\(averageRow)")
        #expect(text.contains("2 weeks since your first workout"))
        #expect(text.split(separator: "\n").filter { parseDay(String($0.prefix(10))) != nil }.count == 2, "no empty weeks before the first: \(text)")
    }

    // MARK: charts

    @Test func chartPicksAMetricWithDataForEveryKind() throws {
        let home = try TemporaryHome()
        try seed(home, [
            (daysAgo: 9, lines: ["pullup bw+10x5", "run 5km 25:10", "plank 60s"]),
            (daysAgo: 2, lines: ["pullup bw+20x5", "run 5km 24:20", "plank 90s"]),
        ])
        let pullup = try home.gymlog(["chart", "pullup"]).stdout
        #expect(pullup.contains("heaviest added weight per workout (kg)") && pullup.contains("best 20kg"), "\(pullup)")
        let run = try home.gymlog(["chart", "run"]).stdout
        #expect(run.contains("best pace per workout (min/km)") && run.contains("best 4:52/km"), "\(run)")
        let plank = try home.gymlog(["chart", "plank"]).stdout
        #expect(plank.contains("longest time per workout") && plank.contains("best 1:30"), "\(plank)")
        // And the records say what a weighted pull-up's weight is, label whole
        let prs = try home.gymlog(["prs", "pullup"]).stdout
        #expect(row(prs, "heaviest added weight").hasPrefix("+20kg  (bw+20kg x 5,"), "\(prs)")
        let asked = try home.gymlog(["chart", "pullup", "--metric", "e1rm"])
        #expect(asked.status == 0 && asked.stdout.contains("no best e1RM to chart"), "\(asked.stdout)")
    }

    @Test func sinceAndUntilTakeAgesAndWords() throws {
        // Given 40 bench workouts, 90 to 12 days ago
        let home = try TemporaryHome()
        try seedBench(home)
        #expect(try home.gymlog(["chart", "bench", "--since", "30d"]).stdout.contains("· 10 workouts,"))
        #expect(try home.gymlog(["chart", "bench", "--since", "12w"]).stdout.contains("· 37 workouts,"))
        #expect(try home.gymlog(["chart", "bench", "--since", "yesterday"]).stdout.contains("nothing to chart"))
        #expect(try home.gymlog(["chart", "bench", "--until", "30 days ago", "--json"]).stdout.components(separatedBy: "workout_id").count == 1 + 31)
        let bad = try home.gymlog(["chart", "bench", "--since", "lately"])
        #expect(bad.status == 64 && bad.stderr.contains("--since lately is not a day") && bad.stderr.contains("30d"))
        let backwards = try home.gymlog(["chart", "bench", "--since", "yesterday", "--until", "30d"])
        #expect(backwards.status != 0 && backwards.stderr.contains("is after --until"), "\(backwards.stderr)")
        // Export takes the same phrases
        let export = try home.gymlog(["export", "--since", "30d", "--exercise", "bench"])
        #expect(export.status == 0 && export.stdout.split(whereSeparator: \.isNewline).count == 1 + 10 * 4, "header + 10 workouts x (3 sets + warm-up)")
    }

    @Test(arguments: 20...120)
    func theSummaryLineIsNeverCutMidNumber(width: Int) {
        let first = ChartPoint(day: 20_000, value: 100), best = ChartPoint(day: 20_050, value: 1234.5), last = ChartPoint(day: 20_090, value: 1200.25)
        let format = { (v: Double) in Render.number(v) + "lb" }
        let line = ChartCommand.summary(first: first, best: best, last: last, single: false, format: format, width: width, style: .plain)
        #expect(line.count <= width, "\(line)")
        #expect(line.contains("best 1234.5lb"))
        for item in line.components(separatedBy: " · ") {
            #expect(["first 100lb", "best 1234.5lb", "best 1234.5lb on \(LineChart.dayLabel(20_050))", "latest 1200.3lb"].contains(item), "\(item)")
        }
    }

    // MARK: PR lines wrap

    @Test(arguments: [30, 40, 50, 60, 80])
    func longPRLinesWrapBetweenWordsUnderTheSet(width: Int) {
        // Given a set that beat five records
        let set = LoggedSet(id: UUID(), workoutID: UUID(), exerciseID: UUID(),
                            values: SetValues(weight: Weight(Fixed(parsing: "102.5")!, .kg), reps: 5, rpe: Fixed(8)), performedAt: 0)
        let breaks = [RecordMetric.weight, .e1rm, .setVolume].map { RecordBreak(metric: $0, reps: 0, value: 1, previous: 100) }
            + [RecordBreak(metric: .repMax, reps: 5, value: 102.5, previous: 100), RecordBreak(metric: .sessionVolume, reps: 0, value: 2000, previous: 1500)]
        let stored = StoredSet(set: set, order: 2, records: breaks)
        let exercise = Exercise(id: UUID(), name: "Bench Press", kind: .weighted)
        // When echoed at this width
        let text = Render.stored(stored, exercise: exercise, settings: Settings(), style: .plain, width: width)
        let unwrapped = Render.stored(stored, exercise: exercise, settings: Settings(), style: .plain, width: nil)
        // Then every line fits, continuation lines start under the set, and no word was cut
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= width }, "\(lines)")
        // (A narrow terminal keeps at least half its width for the text.)
        let indent = min("  Bench Press #2  ".count, width / 2)
        #expect(lines.dropFirst().allSatisfy { $0.prefix(indent).allSatisfy { $0 == " " } && $0.dropFirst(indent).first != " " })
        let wrappedWords: [String] = lines.flatMap { $0.split(separator: " ").map(String.init) }
        let words: [String] = unwrapped.split(separator: " ").map(String.init)
        #expect(wrappedWords == words)
    }

    @Test(arguments: 20...60)
    func aListBreakingAtTheEdgeKeepsItsMarkOnTheLine(width: Int) {
        // Given rep maxes that fill a line to the edge at some width (issue 48: `·` alone at 110 columns)
        let items = (1...12).map { (plain: "\($0)RM 60lb", styled: "\($0)RM 60lb") }
        // When wrapped
        let lines = Render.wrapItems(items, separator: " · ", style: .plain, width: width, first: "  maxes  ")
        // Then every line fits, ends with its mark when one follows, and none is only a mark
        #expect(lines.allSatisfy { TerminalText.width($0) <= width }, "\(lines)")
        #expect(lines.dropLast().allSatisfy { $0.hasSuffix("lb ·") }, "\(lines)")
    }

    @Test func prLinesWrapOnlyOnATerminal() {
        #expect(Render.wrapWidth(isTerminal: false, terminal: 60, columns: "60") == nil)
        #expect(Render.wrapWidth(isTerminal: true, terminal: 60, columns: "100") == 60)
        #expect(Render.wrapWidth(isTerminal: true, terminal: nil, columns: "100") == 100)
        #expect(Render.wrap([StyledText("  a short line")], width: 80, indent: 2) == "  a short line")
    }

    @Test func wrappingCountsTerminalColumnsNotCharacters() {
        // Given words of wide characters: 6 characters, 12 columns
        let text = "  ベンチプレス ベンチプレス ベンチプレス"
        // When wrapped at 30 columns (the text is 20 characters but 38 columns)
        let lines = Render.wrap([StyledText(text)], width: 30, indent: 2).split(separator: "\n").map(String.init)
        // Then it wraps, and no line is wider than the terminal
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.allSatisfy { TerminalText.width($0) <= 30 }, "\(lines)")
    }
}

/// The text after a records-table label: `102.1kg  (225lb x 5, 2026-03-02)`.
private func row(_ table: String, _ label: String) -> String {
    guard let line = table.split(separator: "\n").first(where: { $0.hasPrefix("  " + label + " ") }) else { return "" }
    return String(line.dropFirst(2 + label.count).drop { $0 == " " })
}

/// A missed attempt (`deadlift 150x0 f`) reads as missed wherever sets are listed.
@Suite struct MissedAttemptOnScreenTests {
    @Test func lastTimeSaysMissedNotFailure() {
        // Given a session with two lifts and a missed one at the same load
        let lift = SetValues(weight: Weight(Fixed(150), .kg), reps: 2)
        let missed = SetValues(kind: .failure, weight: Weight(Fixed(150), .kg), reps: 0)
        // Then the compact line says which was missed
        #expect(Render.compactSets([lift, lift, missed]) == "150kg x 2, 2, 0 (missed)")
        #expect(missed.summary == "150kg x 0 (missed)")
        #expect(SetValues(kind: .warmup, bodyweight: true, reps: 0).summary == "warm-up bw x 0 (missed)")
    }
}

/// `history` in a narrow terminal breaks an exercise's sets between sets, under its name.
@Suite struct NarrowHistoryTests {
    @Test func setsWrapBetweenSetsNeverInsideOne() {
        let items = ["warm-up 20kg x 10", "warm-up 40kg x 5", "70kg x 8 @7", "70kg x 8 @8", "150kg x 0 (missed)"]
        // When the terminal is 40 columns wide
        let lines = Render.wrapList("  Squat (Barbell): ", items, width: 40, indent: 4)
        // Then no line is wider, every set is whole on one line, and piped output stays one line
        #expect(lines.allSatisfy { TerminalText.width($0) <= 40 }, "\(lines)")
        #expect(lines.joined(separator: " ").replacingOccurrences(of: "    ", with: "")
            == "  Squat (Barbell): " + items.joined(separator: ", "))
        #expect(lines == ["  Squat (Barbell): warm-up 20kg x 10,", "    warm-up 40kg x 5, 70kg x 8 @7,",
                          "    70kg x 8 @8, 150kg x 0 (missed)"])
        #expect(Render.wrapList("  Squat: ", items, width: nil, indent: 4).count == 1)
    }

    /// `show` and `finish` list a routine's lines still to do the same way, `;` between lines.
    @Test func theLinesToDoWrapBetweenLinesUnderTheFirst() {
        let items = ["squat 1 more (120kg x 5+)", "squat 5 sets (70kg x 10 x5)", "leg curl 3 sets (? x 10 (10-12) x3)"]
        #expect(Render.wrapList("  to do: ", items, separator: ";", width: 60, indent: 9) == [
            "  to do: squat 1 more (120kg x 5+);",
            "         squat 5 sets (70kg x 10 x5);",
            "         leg curl 3 sets (? x 10 (10-12) x3)",
        ])
        #expect(Render.wrapList("  to do: ", items, separator: ";", width: nil, indent: 9) == ["  to do: " + items.joined(separator: "; ")])
    }
}
