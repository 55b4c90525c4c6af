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
        #expect(await s.type("undo!").out == ["Undid Deadlift 180x5: Deadlift 180kg x 5, and the new exercise 'Deadlift'"])
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
        #expect(show.first?.contains("(in progress)") == false && show.first?.contains("(0 min)") == true, "\(show)")
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
}
