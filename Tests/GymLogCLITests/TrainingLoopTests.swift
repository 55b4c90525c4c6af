import Foundation
import GymLogCore
@testable import GymLogCLI
import GymLogTestSupport
import Testing

/// Last time's numbers while logging, and past sessions logged at their real time (`--at`).
/// The clock starts on Fri 2025-11-21 05:40 local (UTC+1).
@Suite struct TrainingLoopTests {
    private typealias Session = ReplTestSession

    /// Logs a bench session with a warm-up, three sets at one RPE and a drop set, then moves on two days.
    private func benchSessionTwoDaysAgo(_ s: Session) async {
        await s.type("bench w60x10")
        await s.type("bench 100x5 @8")
        await s.type("+")
        await s.type("+ x4")
        await s.type("bench 80x8 drop")
        await s.type("finish")
        s.world.advance(minutes: 2 * 24 * 60)
    }

    @Test func theFirstSetOfAnExerciseShowsLastTimeUnderIt() async throws {
        let s = try Session()
        await benchSessionTwoDaysAgo(s)
        // When bench is logged in a new workout
        let first = await s.type("bench 102.5x5x2").out
        // Then, under its sets, last time: warm-ups left out, one RPE said once, the drop set marked
        #expect(first.last == "  last time Fri 21 Nov: 100kg x 5, 5, 4 @8; 80kg x 8 (drop)", "\(first)")
        #expect(first.dropLast().allSatisfy { !$0.contains("last time") }, "only once, after the line's sets: \(first)")
        // And not again for the next set of the same exercise, nor for an exercise never done
        #expect(await s.type("+").out.allSatisfy { !$0.contains("last time") })
        #expect(await s.type("squat 140x5").out.allSatisfy { !$0.contains("last time") })
    }

    @Test func aRepeatWithOtherRepsSaysItCarriedTheEffort() async throws {
        // Given `bench 100x8 @8`
        let s = try Session()
        await s.type("bench 100x8 @8")
        // When `+ x4` repeats it with fewer reps, then the set keeps @8 and a line says it was carried
        let fewer = await s.type("+ x4").out
        #expect(fewer.contains { $0.contains("100kg x 4 @8") }, "\(fewer)")
        #expect(fewer.last == "  @8 carried from the set it repeats; `edit @N` or `edit rirN` says how this one felt.", "\(fewer)")
        // And `+` alone, or `+ x3 @9` with its own effort, says nothing of the kind
        #expect(!(await s.type("+").out.contains { $0.contains("carried") }))
        #expect(!(await s.type("+ x3 @9").out.contains { $0.contains("carried") }))
    }

    @Test func lastPrintsTheSameOnDemandAndAsJSON() async throws {
        let s = try Session()
        await benchSessionTwoDaysAgo(s)
        // While today's bench is open, `last` still means the workout before it
        await s.type("bench 102.5x5")
        let text = await s.type("last bench").out
        #expect(text.first == "bench: last time Fri 21 Nov: 100kg x 5, 5, 4 @8; 80kg x 8 (drop)", "\(text)")
        #expect(text.count == 6 && text[1].hasSuffix("warm-up 60kg x 10") && text[5].hasSuffix("drop 80kg x 8"), "every set, numbered: \(text)")
        let json = try JSONSerialization.jsonObject(with: Data(await s.type("last bench --json").out.joined(separator: "\n").utf8)) as? [String: Any]
        let last = json?["last"] as? [String: Any]
        #expect(last?["summary"] as? String == "100kg x 5, 5, 4 @8; 80kg x 8 (drop)")
        #expect((last?["sets"] as? [Any])?.count == 5)
        #expect((last?["started_at"] as? String)?.hasPrefix("2025-11-21T05:40") == true, "\(String(describing: last))")
        // An exercise done only today has no last time
        await s.type("squat 140x5")
        #expect(await s.type("last squat").out == ["No earlier workout with squat yet."])
    }

    @Test func logAtPutsAForgottenSessionAtItsRealTimeWithItsRecords() async throws {
        let s = try Session()
        await s.type("bench 100x5")
        // When yesterday's heavier session is logged afterwards
        let out = await s.type("log --at yesterday 18:00 bench 110x5").out
        // Then it is its own workout on that day, and its set holds the records, but announces
        // none: as of its date there was no bench, and today's 100kg came after it (issue 48)
        #expect(out.first == "Started a past workout on Thu 2025-11-20 18:00.", "\(out)")
        #expect(out.contains { $0.contains("110kg x 5") } && !out.contains { $0.contains("PR!") }, "\(out)")
        let history = await s.type("history").out
        #expect(history.contains { $0.hasPrefix("Thu 2025-11-20 18:00") }, "\(history)")
        #expect(await s.type("prs bench").out.contains { $0.contains("heaviest weight") && $0.contains("110kg x 5, 2025-11-20") })
        // And `undo` asks first (it is yesterday's workout, not today's), then `undo!` takes it back
        let asked = await s.type("undo", .failed).err.joined()
        #expect(asked.contains("`undo!`") && asked.contains("Thu 2025-11-20 18:00"), "\(asked)")
        let undone = await s.type("undo!").out
        #expect(undone == ["Undid `bench 110x5` in the workout of Thu 2025-11-20 18:00: bench 110kg x 5"], "\(undone)")
        #expect(await s.type("prs bench").out.contains { $0.contains("heaviest weight") && $0.contains("100kg x 5") })
    }

    @Test func aTimeInTheFutureOrNotATimeIsRefusedAndWritesNothing() async throws {
        let s = try Session()
        let future = await s.type("log --at 23:00 bench 100x5", .failed)
        #expect(future.err.joined().contains("--at 23:00 is in the future (it is 05:40 now)"), "\(future.err)")
        let typo = await s.type("log --at 25:00 bench 100x5", .failed)
        #expect(typo.err.joined().contains("--at 25:00 is not a time; use YYYY-MM-DD HH:MM"), "\(typo.err)")
        #expect(await s.type("history").out.first?.hasPrefix("No workouts yet") == true)
    }

    @Test func startAtFillsInAPastWorkoutUntilFinish() async throws {
        let s = try Session()
        let started = await s.type("start --at yesterday 17:00 Push A").out
        #expect(started == ["Started 'Push A' at Thu 2025-11-20 17:00; the lines you type now go into it, until `finish`."], "\(started)")
        #expect(s.repl.prompt() == "[Push A · 0 sets · Thu 20 Nov 17:00] > ")
        await s.type("bench 100x5x3")
        await s.type("ohp 60x8")
        #expect(s.repl.prompt() == "[Push A · 4 sets · Thu 20 Nov 17:00] > ")
        let finished = await s.type("finish").out
        #expect(finished.first?.hasPrefix("Finished 'Push A': length unknown, 4 sets") == true, "\(finished)")
        #expect(s.repl.prompt() == "gymlog> ")
        // The sets are in that workout, in the order typed, from its start on
        let json = try JSONSerialization.jsonObject(with: Data(await s.type("history --json").out.joined(separator: "\n").utf8)) as? [String: Any]
        let workout = (json?["workouts"] as? [[String: Any]])?.first
        #expect(workout?["name"] as? String == "Push A")
        let times = (workout?["sets"] as? [[String: Any]])?.compactMap { $0["performed_at"] as? String } ?? []
        #expect(times == ["2025-11-20T17:00:00+01:00", "2025-11-20T17:00:01+01:00", "2025-11-20T17:00:02+01:00", "2025-11-20T17:00:03+01:00"], "\(times)")
        // And the next line logs now again
        #expect(await s.type("squat 140x5").out.first == "Started a workout at 05:40.")
    }

    @Test func aTimeTypedAfterTheNameAsInAShellIsTheTimeNotPartOfTheName() async throws {
        let s = try Session()
        // `start NAME --at TIME`, quoted or not, as `gymlog start` takes it from a shell
        let started = await s.type(#"start Push A --at "yesterday 17:00""#).out
        #expect(started == ["Started 'Push A' at Thu 2025-11-20 17:00; the lines you type now go into it, until `finish`."], "\(started)")
        await s.type("finish")
        let logged = await s.type("log bench 100x5 --at 2 days ago 18:00").out
        #expect(logged.first == "Started a past workout on Wed 2025-11-19 18:00.", "\(logged)")
    }

    /// A routine written once, started on three days (`--at`), progresses by its rules.
    @Test func aRoutineStartedOnThreeDaysProgressesByItsRules() async throws {
        let s = try Session()
        let file = temporaryFile("routine", extension: "txt")
        try "# Push A\nbench 3x5 linear +2.5\nrow 3x8-10 double +2.5\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(await s.type("routine add --file \(file)").out.first?.hasPrefix("Added the routine 'Push A': 2 exercises, 6 sets.") == true)

        // Day 1: no history, so the weights are picked with `ok WEIGHT`; then `ok` repeats them
        let day1 = await s.type("start --at 2025-11-17 18:00 push").out
        #expect(day1.contains { $0.contains("No weight to suggest yet") }, "\(day1)")
        #expect(s.repl.prompt() == "[Push A · 0/6 · Mon 17 Nov 18:00] > ")
        await s.type("ok", .failed)
        for line in ["ok 100", "ok", "ok", "ok 60", "ok", "ok"] { await s.type(line) }
        #expect(s.repl.prompt() == "[Push A · 6/6 · Mon 17 Nov 18:00] > ")
        #expect(await s.type("next").out == ["Every planned set is done; `finish` ends the workout."])
        await s.type("finish")

        // Day 2: every rep done, so bench goes up 2.5; row adds a rep within 8-10
        let day2 = await s.type("start --at 2025-11-18 18:00 Push A").out
        #expect(day2.contains { $0.contains("bench") && $0.contains("102.5kg x 5 x3") }, "\(day2)")
        #expect(day2.contains { $0.contains("row") && $0.contains("60kg x 9") }, "\(day2)")
        #expect(day2.last?.hasPrefix("  `ok` logs it") == true && day2.dropLast().last == "Next: bench, set 1 of 3: 102.5kg x 5", "\(day2)")
        for line in ["ok", "ok", "ok x4", "ok", "ok", "ok"] { await s.type(line) }
        // And `finish` compares with the last time the routine was done
        let day2Finish = await s.type("finish").out
        #expect(day2Finish.contains("  vs 'Push A' on Mon 17 Nov: 6 sets (+0), 2940kg (+115kg)"), "\(day2Finish)")

        // Day 3: a missed rep repeats the weight; the row keeps climbing
        let day3 = await s.type("start --at 2025-11-19 18:00 push").out
        #expect(day3.contains { $0.contains("bench") && $0.contains("102.5kg x 5 x3") }, "\(day3)")
        #expect(day3.contains { $0.contains("last time 102.5kg x 5,5,4") }, "the reason names the miss: \(day3)")
        #expect(day3.contains { $0.contains("row") && $0.contains("60kg x 10") }, "\(day3)")
        // A set typed by hand counts against the plan; `skip` drops the rest of an exercise
        await s.type("bench 102.5x5")
        #expect(s.repl.prompt() == "[Push A · 1/6 · Wed 19 Nov 18:00] > ")
        let skipped = await s.type("skip").out
        #expect(skipped.first == "Skipped bench for today (2 planned sets left out).", "\(skipped)")
        #expect(s.repl.prompt() == "[Push A · 1/4 · Wed 19 Nov 18:00] > ")
        let finished = await s.type("finish").out
        #expect(finished.last == "  left undone: row 3 sets (60kg x 10 (8-10) x3)", "\(finished)")
    }

    @Test func aRoutineLineThatDoesNotParseIsRefusedWithItsLineAndNothingIsSaved() async throws {
        let s = try Session()
        let file = temporaryFile("routine", extension: "txt")
        try "# Legs\nsquat 3x5 linear +5\nlunge 3x8 lineer +2.5\n".write(toFile: file, atomically: true, encoding: .utf8)
        let refused = await s.type("routine add --file \(file)", .failed)
        #expect(refused.err.first?.contains("line 3: unknown word 'lineer'") == true && refused.err.first?.hasSuffix("nothing was saved.") == true, "\(refused.err)")
        #expect(refused.err.contains("  lunge 3x8 lineer +2.5") && refused.err.contains("            ^^^^^^"), "\(refused.err)")
        #expect(await s.type("routine list").out.first?.hasPrefix("No routines yet") == true)
        // A plain workout name that is no routine still just names the workout
        #expect(await s.type("start Legs day").out == ["Started 'Legs day' at 05:40."])
        #expect(await s.type("next", .failed).err.first?.contains("No workout from a routine is open") == true)
    }

    /// `routine edit` runs $EDITOR on the text; a refused edit keeps the text in a file it names.
    @Test func routineEditRunsTheEditorAndARefusedEditIsKept() throws {
        let home = try TemporaryHome()
        #expect(try home.gymlog(["routine", "add", "--file", "-"], stdin: "# Legs\nrdl 3x8 90\n").status == 0)
        // When the editor changes the weight, the routine has it
        let edited = try home.gymlog(["routine", "edit", "legs"], env: ["EDITOR": "sed -i s/90/95/", "VISUAL": ""])
        #expect(edited.status == 0 && edited.stdout.hasPrefix("Saved the routine 'Legs'"), "\(edited.stderr)")
        #expect(try home.gymlog(["routine", "export", "legs"]).stdout == "# Legs\nrdl 3x8 95\n")
        // When the edit does not parse, nothing is saved and the text is kept where it says
        let refused = try home.gymlog(["routine", "edit", "legs"], env: ["EDITOR": "sed -i s/3x8/3y8/", "VISUAL": ""])
        #expect(refused.status == 1 && refused.stderr.contains("line 2: unknown unit 'y'"), "\(refused.stderr)")
        let kept = try #require(refused.stderr.firstMatch(of: /kept in (\S+):/)?.1)
        #expect(try String(contentsOfFile: String(kept), encoding: .utf8) == "# Legs\nrdl 3y8 95\n")
        #expect(try home.gymlog(["routine", "export", "legs"]).stdout == "# Legs\nrdl 3x8 95\n")
        try? FileManager.default.removeItem(atPath: String(kept))
    }

    /// A 5/3/1 wave counts the sessions since its own line was saved: editing another line of
    /// the routine does not restart it, changing the training max does.
    @Test func aFiveThreeOneWaveSurvivesEditsOfOtherLines() async throws {
        let s = try Session()
        let v1 = temporaryFile("531", extension: "txt"), v2 = temporaryFile("531", extension: "txt"), v3 = temporaryFile("531", extension: "txt")
        try "# Press\nohp 5/3/1 tm 60\n".write(toFile: v1, atomically: true, encoding: .utf8)
        try "# Press\nohp 5/3/1 tm 60\ncurl 3x10\n".write(toFile: v2, atomically: true, encoding: .utf8)
        try "# Press\nohp 5/3/1 tm 65\ncurl 3x10\n".write(toFile: v3, atomically: true, encoding: .utf8)
        await s.type("routine add --file \(v1)")
        s.world.advance(minutes: 60)
        // Week 1 done
        await s.type("start press")
        for line in ["ok", "ok", "ok x8"] { await s.type(line) }
        await s.type("finish")
        s.world.advance(minutes: 2 * 24 * 60)
        // When a curl line is added, the press line is unchanged: the wave goes on to week 2
        await s.type("routine add --file \(v2)")
        #expect(await s.type("routine show press").out.contains { $0.contains("week 2") }, "the wave went on")
        // When the training max changes, that line is new: week 1 of a new wave
        await s.type("routine add --file \(v3)")
        #expect(await s.type("routine show press").out.contains { $0.contains("cycle 1 week 1") && $0.contains("TM 65kg") })
    }

    /// The rest target: this break's `rest M:SS`, else the exercise's own, else the config's.
    @Test func theRestTargetComesFromTheBreakTheExerciseOrTheConfig() async throws {
        var settings = Settings()
        settings.restSeconds = 90
        let s = try Session(settings: settings)
        await s.type("curl 20x10")
        #expect(s.repl.prompt() == "[05:40 · 1 set · rest 0:00/1:30] > ")
        s.world.advance(100_000)
        #expect(s.repl.prompt() == "[05:40 · 1 set · rest 1:40 ✓] > ")
        // An exercise's own rest wins over the config's, and is synced data (one action, undoable)
        #expect(await s.type("exercises rest squat 3:00", .failed).err.first?.contains("No exercise is called 'squat'") == true)
        await s.type("squat 140x5")
        #expect(await s.type("exercises rest squat 3:00").out == ["Rest between sets of 'squat': 3:00."])
        #expect(s.repl.prompt() == "[05:40 · 2 sets · rest 0:00/3:00] > ")
        // This break's `rest` wins over both, until the next set
        #expect(await s.type("rest 2:30").out == ["Rest target for this break: 2:30."])
        #expect(s.repl.prompt() == "[05:40 · 2 sets · rest 0:00/2:30] > ")
        await s.type("+")
        #expect(s.repl.prompt() == "[05:40 · 3 sets · rest 0:00/3:00] > ")
        #expect(await s.type("rest 0:00", .failed).err.first?.contains("rest must be more than 0") == true)
        await s.type("exercises rest squat off")
        #expect(s.repl.prompt() == "[05:40 · 3 sets · rest 0:00/1:30] > ")
        let json = try JSONSerialization.jsonObject(with: Data(await s.type("rest --json").out.joined(separator: "\n").utf8)) as? [String: Any]
        #expect(json?["rest_seconds"] as? Int == 0 && json?["rest_target_seconds"] as? Int == 90, "\(String(describing: json))")
    }

    /// `bw` records bodyweight (a synced row, undoable), lists it, charts it, and a bodyweight
    /// set's e1RM is on the total it moved.
    @Test func bodyweightIsRecordedListedChartedAndCountsInABodyweightSetsE1RM() async throws {
        let s = try Session()
        #expect(await s.type("bw").out == ["No bodyweight yet; record it with `bw 82.5`."])
        #expect(await s.type("bw 82.5 --at 2025-11-19 07:00").out == ["Bodyweight 82.5kg on Wed 2025-11-19 07:00."])
        #expect(await s.type("bw 181lb").out == ["Bodyweight 181lb on Fri 2025-11-21 05:40."])
        #expect(await s.type("bw eighty", .failed).err.first?.contains("'eighty' is not a load") == true)
        #expect(await s.type("bw 90 --at 23:00", .failed).err.first?.contains("is in the future") == true)
        #expect(await s.type("bw").out == ["Fri 2025-11-21 05:40  181lb", "Wed 2025-11-19 07:00  82.5kg"])
        // Epley on 82.5 + 10 = 92.5 kg x 5 is 107.9 kg, with the entry of the day before
        await s.type("undo")
        let pull = await s.type("pullup bw+10x5").out
        #expect(pull.contains { $0.contains("bw+10kg x 5") && $0.contains("e1RM 107.9kg") }, "\(pull)")
        // Records keep the added load, with the total beside it
        let prs = await s.type("prs pullup").out
        #expect(prs.contains { $0.contains("heaviest added weight") && $0.contains("10kg · 92.5kg with bodyweight") }, "\(prs)")
        let chart = await s.type("chart bw --width 60 --height 4").out
        #expect(chart.first?.hasPrefix("Bodyweight · weight per day (kg) · 1 day") == true, "\(chart)")
        let json = try JSONSerialization.jsonObject(with: Data(await s.type("bw --json").out.joined(separator: "\n").utf8)) as? [String: Any]
        let entries = json?["bodyweights"] as? [[String: Any]]
        #expect(entries?.count == 1 && entries?.first?["weight"] as? Double == 82.5 && entries?.first?["weight_unit"] as? String == "kg")
        // The workout's volume counts what was moved: 92.5 x 5 and 82.5 x 10, plus the bench
        await s.type("dip bw x10")
        await s.type("bench 100x5")
        let finished = await s.type("finish").out
        #expect(finished.first?.contains("1787.5kg working volume") == true, "\(finished)")
        let stats = await s.type("stats --weeks 1").out
        #expect(stats.contains { $0.contains("pullup") && $0.hasSuffix(" 463kg") } && stats.contains { $0.contains("dip") && $0.hasSuffix(" 825kg") }, "\(stats)")
    }

    /// Issue 26, item 17: `next --json` with no routine gave only `next`.
    @Test func nextJSONHasOneShapeWithOrWithoutARoutine() async throws {
        let s = try Session()
        let none = try JSONSerialization.jsonObject(with: Data(await s.type("next --json").out.joined(separator: "\n").utf8)) as? [String: Any]
        #expect(Set(none?.keys ?? [:].keys) == ["routine", "done", "total", "next", "round"], "\(String(describing: none))")
        #expect(none?["routine"] is NSNull && none?["next"] is NSNull && (none?["round"] as? [Any])?.isEmpty == true)
        let file = try temporaryDirectory("gymlog-next") + "/legs.txt"
        try "# Legs\nsquat 3x5 100\n".write(toFile: file, atomically: true, encoding: .utf8)
        await s.type("routine add --file \(file)")
        await s.type("start Legs")
        let some = try JSONSerialization.jsonObject(with: Data(await s.type("next --json").out.joined(separator: "\n").utf8)) as? [String: Any]
        #expect(Set(some?.keys ?? [:].keys) == Set(none?.keys ?? [:].keys), "\(String(describing: some))")
    }

    /// Issue 26, item 11: `next` kept saying "Warm up first" after the ramp was logged.
    @Test func nextStopsOfferingTheRampOnceItIsLogged() async throws {
        let s = try Session()
        await s.type("squat 100x5")
        let file = try temporaryDirectory("gymlog-ramp") + "/legs.txt"
        try "# Legs\nsquat 3x5 100 warmup\n".write(toFile: file, atomically: true, encoding: .utf8)
        await s.type("routine add --file \(file)")
        await s.type("start Legs")
        #expect(await s.type("next").out.contains { $0.contains("Warm up first: `warmup squat 100 log`") })
        await s.type("warmup squat 100 log")
        let after = await s.type("next").out
        #expect(after.first?.hasPrefix("Next: squat, set 1 of 3") == true && !after.joined().contains("Warm up first"), "\(after)")
    }

    /// Issue 26, item 12: `PR! heaviest weight (was 100kg)` was said at 100 kg after 220.46 lb.
    @Test func aLoadEqualInTheOtherUnitIsNoRecord() async throws {
        let s = try Session()
        await s.type("bench 220.46lbx5")
        await s.type("finish")
        let same = await s.type("bench 100x5").out
        #expect(same.contains { $0.contains("bench #1  100kg x 5") } && !same.joined().contains("PR!"), "\(same)")
        let heavier = await s.type("bench 100.5x5").out
        #expect(heavier.joined().contains("PR! heaviest weight (was 100kg)"), "\(heavier)")
    }

    /// Issue 26, item 20: before any `bw` entry a weighted dip added nothing to `stats`.
    @Test func statsCountsTheAddedLoadWithoutABodyweightAndSaysSo() async throws {
        let s = try Session()
        await s.type("dip +20x10")
        await s.type("dip bw x10")
        let stats = await s.type("stats --weeks 1").out
        #expect(stats.contains { $0.contains("dip") && $0.hasSuffix(" 200kg") }, "\(stats)")
        #expect(stats.contains("2 bodyweight sets count only their added load: no bodyweight was recorded on or before them. "
            + "Record it with `bw 82.5`."), "\(stats)")
        let json = await s.type("stats --weeks 1 --json").out.joined(separator: "\n")
        #expect(json.contains("\"sets_without_bodyweight\": 2"), "\(json)")
    }

    /// A bodyweight chart has no "best": it says the latest and the range (issue 26, item 13).
    @Test func theBodyweightChartSaysTheRangeNotABest() async throws {
        let s = try Session()
        await s.type("bw 84 --at 2025-11-10 07:00")
        await s.type("bw 86 --at 2025-11-14 07:00")
        await s.type("bw 83")
        let last = try #require(await s.type("chart bw --width 100 --height 4").out.last)
        #expect(last == "first 84kg · lowest 83kg on 2025-11-21 · highest 86kg on 2025-11-14 · latest 83kg", "\(last)")
        // And at 40 columns the latest stays
        let narrow = try #require(await s.type("chart bw --width 40 --height 4").out.last)
        #expect(narrow.contains("latest 83kg") && !narrow.contains("best"), "\(narrow)")
    }

    /// `bench 100x5 & row 70x8` logs a superset round; `+` repeats the round; show and history
    /// mark A1/A2; one `undo` takes the round back.
    @Test func aSupersetIsLoggedRepeatedMarkedAndUndoneAsRounds() async throws {
        let s = try Session()
        let first = await s.type("bench 100x5 & row 70x8").out
        #expect(first.contains { $0.hasPrefix("  bench #1  100kg x 5") } && first.contains { $0.hasPrefix("  row #1  70kg x 8") }, "\(first)")
        // A round is one line, so the rest timer counts from its last exercise
        #expect(s.repl.prompt().contains("2 sets · rest 0:00"), "after the round: \(s.repl.prompt())")
        let again = await s.type("+ x6").out
        #expect(again.contains { $0.hasPrefix("  bench #2  100kg x 6") } && again.contains { $0.hasPrefix("  row #2  70kg x 6") }, "\(again)")
        await s.type("curl 20x10")
        // A set on its own after the superset: `+` repeats only it
        #expect(await s.type("+").out.count == 1)
        let show = await s.type("show").out
        #expect(show[1].contains("A1 bench") && show[2].contains("A2 row") && show[3].contains("A1 bench") && show[5].contains("curl"), "\(show)")
        #expect(!show[5].contains("A"), "a set on its own has no mark: \(show)")
        #expect(await s.type("history").out.contains("  A1 bench: 100kg x 5, 100kg x 6"))
        let json = try JSONSerialization.jsonObject(with: Data(await s.type("show --json").out.joined(separator: "\n").utf8)) as? [String: Any]
        let sets = ((json?["workout"] as? [String: Any])?["sets"] as? [[String: Any]]) ?? []
        let groups = sets.map { $0["superset_id"] as? String }
        #expect(groups[0] != nil && Set(groups[0..<4]).count == 1 && groups[4] == nil, "\(groups)")
        // One undo per round
        await s.type("undo"); await s.type("undo")
        #expect(await s.type("undo").out.first == "Undid + x6: bench 100kg x 6 & row 70kg x 6")
        #expect(await s.type("show").out.count == 3)
        let refused = await s.type("bench 100x5 &", .failed).err
        #expect(refused.first?.contains("on each side of '&'") == true, "\(refused)")
    }

    /// A routine line `curl 2x10 20 & pushdown 2x12` is a superset: `next` offers a round,
    /// `ok` logs it into the superset of the rounds before, `skip` drops it whole.
    @Test func aPlannedSupersetIsDoneRoundByRound() async throws {
        let s = try Session()
        let file = temporaryFile("routine", extension: "txt")
        try "# Arms\nbench 1x5 100\ncurl 2x10 20 & pushdown 2x12\nrow 1x8 60\n".write(toFile: file, atomically: true, encoding: .utf8)
        await s.type("routine add --file \(file)")
        let start = await s.type("start Arms").out
        #expect(start.contains { $0.hasPrefix("  2  A1 curl ") } && start.contains { $0.hasPrefix("  3  A2 pushdown ") }, "\(start)")
        await s.type("ok")
        // The round names a set of each; pushdown has no weight yet, so `ok` says to type the round
        let next = await s.type("next").out
        #expect(next.prefix(3) == ["Next round, back to back:", "  curl, set 1 of 2: 20kg x 10", "  pushdown, set 1 of 2: ? x 12"], "\(next)")
        let refused = await s.type("ok", .failed).err
        #expect(refused.first?.contains("`curl 20kg x10 & pushdown WEIGHT x12`") == true, "\(refused)")
        await s.type("curl 20x10 & pushdown 30x12")
        // Then `ok` logs the next round at those weights, in the same superset
        let json = try JSONSerialization.jsonObject(with: Data(await s.type("next --json").out.joined(separator: "\n").utf8)) as? [String: Any]
        let round = (json?["round"] as? [[String: Any]]) ?? []
        #expect(round.map { $0["exercise"] as? String } == ["curl", "pushdown"] && round.map { $0["set"] as? Int } == [2, 2], "\(round)")
        #expect((json?["next"] as? [String: Any])?["exercise"] as? String == "curl")
        // A weight change would land on every exercise of the round: refused, nothing logged
        let oneWeight = await s.type("ok 25", .failed).err
        #expect(oneWeight.first?.contains("would put one weight on every exercise") == true
                && oneWeight.first?.contains("`curl 20kg x10 & pushdown 30kg x12`") == true, "\(oneWeight)")
        let ok = await s.type("ok x9").out
        #expect(ok.contains { $0.hasPrefix("  curl #2  20kg x 9") } && ok.contains { $0.hasPrefix("  pushdown #2  30kg x 9") }, "\(ok)")
        let show = await s.type("show").out
        #expect(show[2].contains("A1 curl") && show[3].contains("A2 pushdown") && show[4].contains("A1 curl") && show[5].contains("A2 pushdown"),
                "one superset, one letter: \(show)")
        #expect(s.repl.prompt().hasPrefix("[Arms · 5/6"), "\(s.repl.prompt())")
        // `undo` takes the round back as one action
        #expect(await s.type("undo").out.first == "Undid ok x9: curl 20kg x 9 & pushdown 30kg x 9")
        // What is left takes pushdown's weight from the set just done, not `?`
        #expect(await s.type("show").out.last == "  to do: curl 1 more (20kg x 10); pushdown 1 more (30kg x 12); row 1 set (60kg x 8)")
        // And `skip` drops what is left of the superset, not just its first exercise
        #expect(await s.type("skip").out.first == "Skipped curl & pushdown for today (2 planned sets left out).")
        #expect(await s.type("next").out.first == "Next: row, set 1 of 1: 60kg x 8")
    }
}
