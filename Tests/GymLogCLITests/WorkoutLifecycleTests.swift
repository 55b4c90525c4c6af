import Foundation
import GymLogCore
import GymLogStore
@testable import GymLogCLI
import GymLogTestSupport
import Testing

/// What a lifter sees of undo, redo and the workout's lifecycle in the REPL.
@Suite struct WorkoutLifecycleTests {
    private typealias Session = ReplTestSession

    @Test func oneUndoRevertsAMultiSetLineAndTheExerciseItCreated() async throws {
        // Given a three-set line that created an exercise
        let s = try Session()
        let logged = await s.type("Benchpress 100x5x3")
        // Then its notice tells the truth about `undo`
        #expect(logged.out.contains { $0.contains("`undo` removes it and this line") }, "\(logged.out)")
        // When `undo` is typed, the whole line and the exercise go, named in the message
        #expect(await s.type("undo").out == ["Undid Benchpress 100x5x3: Benchpress 100kg x 5 (3 sets), and the new exercise 'Benchpress'"])
        #expect(await s.type("exercises").out.contains { $0.contains("Benchpress") } == false)
        // And `redo` brings it back
        #expect(await s.type("redo").out == ["Redid Benchpress 100x5x3: Benchpress 100kg x 5 (3 sets), and the new exercise 'Benchpress'"])
        #expect(s.repl.prompt().contains("3 sets"))
    }

    @Test func redoAfterANewLineHasNothingToBringBack() async throws {
        // Given `row 70x8`, `undo`, `row 65x8`
        let s = try Session()
        await s.type("row 70x8")
        await s.type("undo")
        await s.type("row 65x8")
        // When `redo` is typed, it says there is nothing, and why
        let redo = await s.type("redo", .failed)
        #expect(redo.err.contains { $0.contains("Nothing to redo") }, "\(redo.err)")
        // Then `show` lists 65x8 only
        let show = await s.type("show").out
        #expect(show.contains { $0.contains("65kg x 8") } && !show.contains { $0.contains("70kg x 8") }, "\(show)")
    }

    @Test func undoAcrossWorkoutsAsksForUndoBangAndDoesNothingUntilThen() async throws {
        // Given a set logged yesterday and no workout open today
        let s = try Session()
        await s.type("start Push day")
        await s.type("Deadlift 180x5")
        s.world.advance(minutes: 24 * 60)
        // When `undo` is typed
        let asked = await s.type("undo", .failed)
        // Then it names the workout, asks for `undo!` in REPL syntax, and undid nothing
        let message = asked.err.joined(separator: "\n")
        #expect(message.contains("'Push day'") && message.contains("`undo!`") && message.contains("Nothing was undone"), "\(message)")
        #expect(!message.contains("--yes"))
        #expect(await s.type("history").out.contains { $0.contains("180kg x 5") })
        // And `undo!` does it
        let undone = await s.type("undo!").out
        #expect(undone.count == 1 && undone[0].hasPrefix("Undid `Deadlift 180x5` in the workout of Fri 2025-11-21 ")
                && undone[0].hasSuffix(" 'Push day': Deadlift 180kg x 5, and the new exercise 'Deadlift'"), "\(undone)")
    }

    @Test func undoInAnOldWorkoutAsksEachTimeAndTakesBackOneActionNamingIt() async throws {
        // Given a workout three days ago, and today's workout open
        let s = try Session()
        await s.type("log --at 2025-11-18 18:00 bench 100x5x3")
        await s.type("finish")
        await s.type("squat 140x5")
        // And, just now, that old workout renamed and one of its sets deleted
        await s.type("edit --workout 2025-11-18 --name Legs")
        await s.type("delete 2 --workout 2025-11-18")
        // When `undo` is typed, then it asks for `undo!` and undoes nothing
        let asked = await s.type("undo", .failed).err.joined(separator: "\n")
        #expect(asked.contains("`delete 2 --workout 2025-11-18`") && asked.contains("`undo!`") && asked.contains("Nothing was undone"), "\(asked)")
        #expect(await s.type("show --workout 2025-11-18").out.filter { $0.contains("100kg x 5") }.count == 2)
        // And `undo!` takes back the delete alone, naming the workout
        #expect(await s.type("undo!").out == ["Undid `delete 2 --workout 2025-11-18` in the workout of Tue 2025-11-18 18:00 'Legs': bench 100kg x 5"])
        // And the rename asks again, and then is undone alone
        let again = await s.type("undo", .failed).err.joined(separator: "\n")
        #expect(again.contains("`edit --workout 2025-11-18 --name Legs`") && again.contains("`undo!`"), "\(again)")
        #expect(await s.type("undo!").out == ["Undid `edit --workout 2025-11-18 --name Legs` in the workout of Tue 2025-11-18 18:00: the workout of 2025-11-18 18:00 renamed to 'Legs'"])
        #expect(await s.type("show --workout 2025-11-18").out.filter { $0.contains("100kg x 5") }.count == 3)
    }

    @Test func aWorkoutLastsItsSetsOwnTimesAndAPastSessionsLengthIsUnknown() async throws {
        // Given a 47:43 run logged as one line and the workout finished right away
        let s = try Session()
        await s.type("run 5km 47:43")
        let run = await s.type("finish").out
        // Then it lasted the run, in `finish` and in `history`
        #expect(run.first?.hasPrefix("Finished the workout started at ") == true && run.first?.contains(": 47 min, 1 set") == true, "\(run)")
        #expect(await s.type("history").out.first?.contains("(47 min)") == true)
        // And a past session typed in with `start --at` has no known length (not `0 min`)
        await s.type("start --at yesterday 18:00 Push")
        await s.type("bench 100x5x3")
        let past = await s.type("finish").out
        #expect(past.first?.hasPrefix("Finished 'Push': length unknown, 3 sets") == true, "\(past)")
        #expect(await s.type("show --workout yesterday").out.first?.contains("(length unknown)") == true)
    }

    @Test func startWithAnOpenWorkoutFinishesItAndSaysSoWithItsSummary() async throws {
        // Given an open workout with sets, 40 minutes long
        let s = try Session()
        await s.type("start Push")
        await s.type("bench 100x5x3")
        s.world.advance(minutes: 40)
        // When `start Legs` is typed
        let out = await s.type("start Legs").out
        // Then the open workout is finished with the summary `finish` prints, and Legs starts
        #expect(out.first == "Finished 'Push': 40 min, 3 sets, 1500kg working volume.", "\(out)")
        #expect(out.last?.hasPrefix("Started 'Legs' at") == true)
        #expect(s.repl.prompt().hasPrefix("[Legs · 0 sets]"))
    }

    @Test func finishListsThePRsTheLoggedLinesAnnounced() async throws {
        // Given a first workout where a later bench set beat an earlier one, and squat done once
        let s = try Session()
        await s.type("start Push")
        await s.type("bench 100x5")
        let pr = await s.type("bench 105x5").out.joined(separator: " ")
        #expect(pr.contains("PR!"), "\(pr)")
        await s.type("squat 140x5")
        // When it is finished
        let out = await s.type("finish").out
        // Then the summary lists the bench PRs the line announced, and nothing for squat
        let bench = out.first { $0.contains("PR") && $0.contains("bench") }
        #expect(bench?.contains("bench: heaviest weight 105kg, best e1RM") == true, "in the order the line named them: \(out)")
        #expect(!out.contains { $0.contains("squat") }, "a first value beats nothing: \(out)")
    }

    @Test func finishingAnEmptyWorkoutDiscardsIt() async throws {
        // Given a workout started with nothing logged
        let s = try Session()
        await s.type("start Push")
        // When it is finished
        #expect(await s.type("finish").out == ["Nothing logged; the empty workout was discarded."])
        // Then `show` and `history` agree there is no workout
        #expect(await s.type("show").out.first?.hasPrefix("No workouts yet") == true)
        #expect(await s.type("history").out.first?.hasPrefix("No workouts yet") == true)
    }

    @Test func afterTheIdleGapThePromptAndShowAgreeTheWorkoutIsOver() async throws {
        // Given a set logged and then the idle gap (120 minutes) passed
        let s = try Session()
        await s.type("bench 100x5")
        #expect(await s.type("show").out.first?.contains("(in progress)") == true)
        s.world.advance(minutes: 121)
        // Then the prompt says none is open, and `show` and `history` no longer say "in progress"
        #expect(s.repl.prompt() == "gymlog> ")
        let show = await s.type("show").out
        #expect(show.first?.contains("(in progress)") == false && show.first?.contains("(length unknown)") == true, "\(show)")
        #expect(await s.type("history").out.contains { $0.contains("(in progress)") } == false)
        // And the JSON of both gives the workout an end (its last set), not null
        for command in ["show --json", "history --json"] {
            let json = await s.type(command).out.joined(separator: "\n")
            #expect(!json.contains("\"ended_at\": null") && json.contains("\"ended_at\": \""), "\(command): \(json)")
        }
    }

    @Test func finishPrintsDurationSetsVolumeAndPRs() async throws {
        // Given bench done two days ago and a heavier bench now
        let s = try Session()
        await s.type("Bench 100x5")
        await s.type("finish")
        s.world.advance(minutes: 2 * 24 * 60)
        await s.type("Bench 110x5")
        s.world.advance(minutes: 65)
        // When `finish` is typed
        let out = await s.type("finish").out
        // Then it prints the summary with the PRs set today
        #expect(out.first?.hasPrefix("Finished the workout started at") == true, "\(out)")
        #expect(out.first?.hasSuffix(": 1 h 05 min, 1 set, 550kg working volume.") == true, "\(out)")
        #expect(out.contains { $0.contains("PR") && $0.contains("Bench:") && $0.contains("5RM 110kg") }, "\(out)")
    }

    @Test func finishShowAndStatsCountWorkingSetsAlikeAndNameTheWarmUps() async throws {
        // Given a workout of two warm-ups, three working sets and a missed attempt
        let s = try Session()
        await s.type("bench w60x5 w80x3 100x5x3")
        await s.type("bench 105x0")
        // When it is finished, shown, and `stats` counts the week
        let finish = await s.type("finish").out
        let show = await s.type("show").out
        let stats = await s.type("stats").out
        // Then `finish` and `show` count 4 working sets and say the 2 warm-ups apart
        #expect(finish.first?.contains(", 4 working sets + 2 warm-ups, 1500kg working volume.") == true, "\(finish)")
        #expect(show.first?.contains("4 working sets + 2 warm-ups") == true, "\(show)")
        // And `stats` counts the same 4 sets
        #expect(stats.contains { $0.hasPrefix("  bench") && $0.split(separator: " ").contains("4") }, "\(stats)")
        // And a workout with no warm-up says plain sets
        await s.type("squat 100x5")
        #expect(await s.type("finish").out.first?.contains(", 1 set, 500kg working volume.") == true)
    }

    @Test func everyCommandInsideABackDatedWorkoutActsOnIt() async throws {
        // Given bench logged and finished today, then a past workout opened in the REPL with a curl
        let s = try Session()
        await s.type("bench 100x5")
        await s.type("finish")
        await s.type("start --at yesterday 12:00 Arms")
        await s.type("curl 20x10")
        // When `+` is typed, then the curl is repeated, into Arms, with no PR
        let plus = await s.type("+").out
        #expect(plus.contains { $0.contains("curl #2") && $0.contains("20kg x 10") } && !plus.joined().contains("PR"), "\(plus)")
        // And `show` lists Arms, not today's workout
        let show = await s.type("show").out
        #expect(show.first?.contains("Arms") == true && show.count == 3 && !show.joined().contains("bench"), "\(show)")
        // And `edit`, `delete` and `note` change Arms
        #expect(await s.type("edit 1 x6").out == ["Edited: 20kg x 6"])
        #expect(await s.type("delete 1").out == ["Deleted set 1: 20kg x 6"])
        #expect(await s.type("note arms day").out == ["Noted."])
        // Then today's bench is as it was, no workout was opened today, and Arms has the note
        let history = await s.type("history").out
        #expect(history.contains { $0.contains("bench: 100kg x 5") }, "\(history)")
        #expect(history.contains { $0.contains("curl: 20kg x 10") } && history.contains { $0.contains("note: arms day") }, "\(history)")
        #expect(try s.context.db().openWorkout() == nil)
        #expect(s.repl.prompt().hasPrefix("[Arms · 1 set · "), "\(s.repl.prompt())")
    }

    @Test func aPastWorkoutFinishedLaterEndsAtItsLastSet() async throws {
        // Given a workout finished today, then a session logged at 18:00, 18:10 and 18:30 yesterday
        let s = try Session()
        await s.type("row 70x8")
        await s.type("finish")
        await s.type("log --at yesterday 18:00 squat 140x5")
        await s.type("log --at yesterday 18:10 squat 140x5")
        await s.type("log --at yesterday 18:30 squat 140x5")
        // When `finish` is typed (no workout is open)
        let out = await s.type("finish").out
        // Then that session ends at its last set, 30 minutes after its start
        #expect(out.first?.hasPrefix("Finished the workout of Thu 2025-11-20 18:00: 30 min, 3 sets") == true, "\(out)")
        #expect(await s.type("show --workout yesterday --json").out.joined().contains("\"ended_at\": \"2025-11-20T18:30:00+01:00\""))
        // And a past workout opened with `start --at` ends at its last set too
        await s.type("start --at yesterday 20:00 Legs")
        await s.type("log --at yesterday 20:10 squat 140x5")
        await s.type("log --at yesterday 20:25 squat 140x5")
        #expect(await s.type("finish").out.first?.hasPrefix("Finished 'Legs': 25 min, 2 sets") == true)
    }

    @Test func anyWorkoutIsShownFixedRenamedMovedAndDeletedByReference() async throws {
        // Given a workout yesterday (bench) and one today (squat)
        let s = try Session()
        await s.type("log --at yesterday 18:00 bench 100x5 105x5")
        await s.type("finish")
        await s.type("squat 140x5")
        // Then `history` prints each workout's reference
        let history = await s.type("history").out
        #expect(history.contains { $0.hasPrefix("Thu 2025-11-20 18:00") && $0.hasSuffix("ref 2025-11-20") }, "\(history)")
        #expect(history.contains { $0.hasPrefix("Fri 2025-11-21") && $0.hasSuffix("ref 2025-11-21") }, "\(history)")
        // When yesterday's is shown by date, by `-2`, and by `--workout=-2`
        for line in ["show --workout 2025-11-20", "show --workout -2", "show --workout=-2", "show --workout yesterday"] {
            let show = await s.type(line).out
            #expect(show.first?.contains("ref 2025-11-20") == true && show.count == 3 && show[2].contains("105kg x 5"), "\(line): \(show)")
        }
        // And its sets are edited and deleted, options before or after the set number
        #expect(await s.type("edit --workout -2 2 x3").out == ["Edited: 105kg x 3"])
        #expect(await s.type("delete 1 --workout 2025-11-20").out == ["Deleted set 1: 100kg x 5"])
        #expect(await s.type("note --workout -2 gym was packed").out == ["Noted on the workout of Thu 2025-11-20 18:00."])
        // And it is renamed and moved, its set going with it
        let edited = await s.type("edit --workout -2 --name Push A --start 2025-11-19 17:00").out
        #expect(edited == ["Edited the workout of Thu 2025-11-20 18:00: now Wed 2025-11-19 17:00 'Push A' (2025-11-19)."], "\(edited)")
        let moved = await s.type("show --workout 2025-11-19").out
        #expect(moved.first?.hasPrefix("Wed 2025-11-19 17:00  Push A") == true && moved.contains { $0.contains("105kg x 3") }, "\(moved)")
        #expect(moved.first?.contains("note: gym was packed") == false && moved.contains { $0.contains("note: gym was packed") }, "\(moved)")
        // And today's workout was never touched
        let today = await s.type("show").out
        #expect(today.count == 2 && today[1].contains("squat") && today[1].contains("140kg x 5"), "\(today)")
        // And a reference that names nothing says so, and what to do
        let none = await s.type("show --workout 2025-11-18", .failed).err.joined()
        #expect(none.contains("No workout on 2025-11-18. `history` lists workouts with their references."), "\(none)")
        let bad = await s.type("edit --workout 2025-13-01 1 x5", .failed).err.joined()
        #expect(bad.contains("--workout 2025-13-01 is not a workout reference"), "\(bad)")
    }

    @Test func aWholeWorkoutIsDeletedAfterAYesAndOneUndoBringsItBack() async throws {
        // Given a workout yesterday with two sets and one today
        let s = try Session()
        await s.type("log --at yesterday 18:00 bench 100x5x2")
        await s.type("finish")
        await s.type("squat 140x5")
        // When it is deleted from piped input (nobody to ask), then it asks for --yes and deletes nothing
        let refused = await s.type("delete --workout 2025-11-20", .failed).err.joined()
        #expect(refused.contains("there is no terminal to ask on: run `delete --workout 2025-11-20 --yes`"), "\(refused)")
        #expect(refused.contains("Nothing was deleted"))
        // And at a terminal, `n` deletes nothing
        var asked: [String] = []
        s.repl.context.ask = { asked.append($0); return "n" }
        #expect(await s.type("delete --workout -2").out == ["Nothing was deleted."])
        #expect(asked == ["Delete the workout of Thu 2025-11-20 18:00 (2025-11-20, 2 sets)? `undo` brings it back. [y/N] "], "\(asked)")
        // And `y` deletes it, with its sets
        s.repl.context.ask = { _ in "y" }
        #expect(await s.type("delete --workout -2").out == ["Deleted the workout of Thu 2025-11-20 18:00 (2025-11-20, 2 sets). `undo` brings it back."])
        #expect(await s.type("history").out.contains { $0.contains("bench") } == false)
        // And one `undo!` (it is yesterday's workout) brings the workout and both sets back
        _ = await s.type("undo", .failed)
        let undo = await s.type("undo!").out
        #expect(undo == ["Undid `delete --workout -2` in the workout of Thu 2025-11-20 18:00: the whole workout (2 sets)"], "\(undo)")
        #expect(await s.type("show --workout -2").out.filter { $0.contains("100kg x 5") }.count == 2)
        // And `--yes` deletes without asking
        s.repl.context.ask = { _ in Issue.record("asked"); return nil }
        #expect(await s.type("delete --workout yesterday --yes").out.first?.hasPrefix("Deleted the workout of Thu 2025-11-20 18:00") == true)
    }
}

