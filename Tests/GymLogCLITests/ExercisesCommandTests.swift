import Foundation
import GymLogCore
@testable import GymLogCLI
import GymLogTestSupport
import Testing

/// `gymlog exercises` and its subcommands, through the real binary.
@Suite struct ExercisesCommandTests {
    @Test func jsonListsNameKindAliasesSetCountAndLastPerformed() throws {
        // Given a bench with an alias and two sets, a pull-up and a plank made by `add`
        let home = try TemporaryHome()
        #expect(try home.gymlog(["log", "Bench Press 100x5x2"]).status == 0)
        #expect(try home.gymlog(["exercises", "alias", "bp", "bench press"]).status == 0)
        #expect(try home.gymlog(["log", "Pullup bw+10x5"]).status == 0)
        #expect(try home.gymlog(["exercises", "add", "Plank", "--kind", "duration"]).status == 0)
        // When listed as JSON
        let run = try home.gymlog(["exercises", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let doc = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let list = try #require(doc["exercises"] as? [[String: Any]])
        // Then each exercise has its name, kind, aliases, set count and last set's time
        #expect(list.map { $0["name"] as? String } == ["Bench Press", "Plank", "Pullup"])
        #expect(list.map { $0["kind"] as? String } == ["weighted", "timed", "bodyweight"])
        #expect(list[0]["aliases"] as? [String] == ["bp"])
        #expect(list.map { $0["set_count"] as? Int } == [2, 0, 1])
        #expect((list[0]["last_performed_at"] as? String)?.hasSuffix("+00:00") == true)
        #expect(list[1]["last_performed_at"] is NSNull)
        // And the text list shows the kind too
        let text = try home.gymlog(["exercises"]).stdout
        #expect(text.contains("Plank        timed       0 sets"), "\(text)")
    }

    @Test func readCommandsFindNamesInAnyOrderAndListCandidatesWithSetCounts() throws {
        // Given glute bridges and benches as an import names them
        let home = try TemporaryHome()
        for line in ["Glute Bridge (Dumbbell) 20x12x3", "Glute Bridge (Barbell) 60x10", "Bench Press (Barbell) 100x5x2",
                     "Bench Press (Dumbbell) 30x10x3", "Bench Dip bw x12"] {
            #expect(try home.gymlog(["log", line]).status == 0)
        }
        // When the words come in another order, then history finds the exercise
        let bridge = try home.gymlog(["history", "dumbbell glute bridge"])
        #expect(bridge.status == 0, "\(bridge.stderr)")
        #expect(bridge.stdout.contains("Glute Bridge (Dumbbell): 20kg x 12 x3"), "\(bridge.stdout)")
        // And one word of several names lists them with their set counts, most trained first
        let bench = try home.gymlog(["history", "bench"])
        #expect(bench.status != 0)
        #expect(bench.stderr.contains("'bench' matches several exercises: 'Bench Press (Dumbbell)' (3 sets), "
            + "'Bench Press (Barbell)' (2 sets), 'Bench Dip' (1 set). Type more of the name, in any order."), "\(bench.stderr)")
        // And words of several names in any order list them too, where nothing was suggested
        let dumbbell = try home.gymlog(["last", "dumbbell"])
        #expect(dumbbell.stderr.contains("'Bench Press (Dumbbell)' (3 sets), 'Glute Bridge (Dumbbell)' (3 sets)"), "\(dumbbell.stderr)")
        // And words of only one name find it
        #expect(try home.gymlog(["history", "barbell bridge"]).stdout.contains("Glute Bridge (Barbell): 60kg x 10"))
    }

    @Test func theListLinesUpWideAndAccentedNames() throws {
        // Given names in Chinese, French (decomposed accents) and English
        let home = try TemporaryHome()
        for line in ["深蹲 100x5", "De\u{0301}veloppe\u{0301} 80x5", "Bench Press 60x5"] {
            #expect(try home.gymlog(["log", line]).status == 0)
        }
        // When listed, then the kind column starts at the same terminal column on every line
        let lines = try home.gymlog(["exercises"]).stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let columns = lines.map { line in TerminalText.width(String(line[..<line.range(of: "weighted")!.lowerBound])) }
        #expect(Set(columns) == [13], "\(lines)")
    }

    @Test func kindRefusalsRenameMergeAndDeleteSayWhatHappened() throws {
        let home = try TemporaryHome()
        #expect(try home.gymlog(["log", "row 2000m 7:41"]).status == 0)
        // A line of another shape is refused, naming the kind and what to type
        let refused = try home.gymlog(["log", "row 70x8"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("row is a distance exercise"), "\(refused.stderr)")
        #expect(refused.stderr.contains("`barbell row 70x8`"))
        // A rename keeps the old name working
        #expect(try home.gymlog(["exercises", "rename", "row", "Rowing Machine"]).stdout.contains("'row' still finds it"))
        #expect(try home.gymlog(["log", "row 1000m 3:40"]).stdout.contains("Rowing Machine"))
        // A stray exercise merges into the real one; then the stray name logs to it
        #expect(try home.gymlog(["log", "erg 500m 1:45"]).status == 0)
        let merged = try home.gymlog(["exercises", "merge", "erg", "Rowing Machine"])
        #expect(merged.stdout.contains("Moved 1 set from 'erg' to 'Rowing Machine'; 'erg' now means 'Rowing Machine'."), "\(merged.stdout)\(merged.stderr)")
        // Delete refuses an exercise with sets and suggests merge; a bad kind is a usage error
        let delete = try home.gymlog(["exercises", "delete", "Rowing Machine"])
        #expect(delete.status != 0 && delete.stderr.contains("has 3 sets") && delete.stderr.contains("exercises merge"))
        #expect(try home.gymlog(["exercises", "add", "Curl", "--kind", "rowing"]).status == 64)
        #expect(try home.gymlog(["exercises", "add", "Curl"]).status == 0)
        #expect(try home.gymlog(["exercises", "delete", "Curl"]).stdout.contains("Deleted exercise 'Curl'."))
    }

    @Test func aWronglyImportedSquatIsRepairedByItsKindFromAScript() throws {
        // Given Squat (Barbell) as an earlier import made it: bodyweight, its loads added load,
        // its empty-bar warm-up reps with no load
        let home = try TemporaryHome()
        #expect(try home.gymlog(["exercises", "add", "Squat (Barbell)", "--kind", "bodyweight"]).status == 0)
        for line in ["squat (barbell) bw x12 w", "squat (barbell) bw+70x5x3"] {
            #expect(try home.gymlog(["log", line]).status == 0)
        }
        #expect(try home.gymlog(["prs", "squat (barbell)"]).stdout.contains("heaviest added weight"))
        let refused = try home.gymlog(["log", "squat (barbell) 80x5"])
        #expect(refused.status != 0 && refused.stderr.contains("bw+80x5"), "\(refused.stderr)")
        // When its kind is changed from a script without --yes
        let unconfirmed = try home.gymlog(["exercises", "kind", "Squat (Barbell)", "weighted"])
        // Then it shows what would change, refuses naming --yes, and writes nothing
        #expect(unconfirmed.status == 1)
        #expect(unconfirmed.stdout.contains("'Squat (Barbell)' becomes a weight-and-reps exercise (weighted); 4 of its sets change:"), "\(unconfirmed.stdout)")
        #expect(unconfirmed.stderr.contains("Nothing was changed: there is no terminal to ask in. To go ahead, run "
            + "`gymlog exercises kind \"Squat (Barbell)\" weighted --yes`."), "\(unconfirmed.stderr)")
        #expect(try home.gymlog(["log", "squat (barbell) 80x5"]).status != 0)
        // When it is run with --yes
        let run = try home.gymlog(["exercises", "kind", "Squat (Barbell)", "weighted", "--yes"])
        // Then every set is converted, each way shown with an example
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("  3 like `bw+70kg x 5` -> `70kg x 5`"), "\(run.stdout)")
        #expect(run.stdout.contains("  1 like `warm-up bw x 12` -> `warm-up 0kg x 12` (no load becomes a set at 0 load)"), "\(run.stdout)")
        #expect(run.stdout.contains("'Squat (Barbell)' is a weight-and-reps exercise (weighted); 4 sets converted. `gymlog undo` reverts it."))
        // And the records are a weighted exercise's, and `squat 80x5` logs with its records
        let prs = try home.gymlog(["prs", "squat (barbell)"]).stdout
        #expect(prs.contains("heaviest weight") && prs.contains("e1RM") && !prs.contains("added"), "\(prs)")
        let logged = try home.gymlog(["log", "squat (barbell) 80x5"])
        #expect(logged.status == 0, "\(logged.stderr)")
        #expect(logged.stdout.contains("PR"), "\(logged.stdout)")
    }

    @Test func mergeConvertsAcrossKindsOnlyWhenEverySetHasAReading() throws {
        // Given a weighted squat and bodyweight sets of it under another name
        let home = try TemporaryHome()
        #expect(try home.gymlog(["log", "Squat 100x5"]).status == 0)
        #expect(try home.gymlog(["log", "air squat bw+110x3"]).status == 0)
        // When merged without --yes from a script: shown, refused, nothing written
        let unconfirmed = try home.gymlog(["exercises", "merge", "air squat", "Squat"])
        #expect(unconfirmed.status == 1)
        #expect(unconfirmed.stdout.contains("  1 like `bw+110kg x 3` -> `110kg x 3`"), "\(unconfirmed.stdout)")
        #expect(unconfirmed.stderr.contains("`gymlog exercises merge \"air squat\" Squat --yes`"), "\(unconfirmed.stderr)")
        // With --yes the set is converted and moved
        let merged = try home.gymlog(["exercises", "merge", "air squat", "Squat", "--yes"])
        #expect(merged.stdout.contains("Moved 1 set (1 converted) from 'air squat' to 'Squat'"), "\(merged.stdout)\(merged.stderr)")
        #expect(try home.gymlog(["prs", "squat"]).stdout.contains("110kg"))
        // And a set with no reading is named, and the message suggests nothing that would be refused
        #expect(try home.gymlog(["log", "band pullup bw-20x8"]).status == 0)
        #expect(try home.gymlog(["log", "lat pulldown 60x10"]).status == 0)
        let refused = try home.gymlog(["exercises", "merge", "band pullup", "lat pulldown", "--yes"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("band pullup bw-20kg x 8"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("exercises kind"), "\(refused.stderr)")
        let kind = try home.gymlog(["exercises", "kind", "band pullup", "weighted", "--yes"])
        #expect(kind.status != 0 && kind.stderr.contains("band pullup bw-20kg x 8"), "\(kind.stderr)")
        // And a kind change that converts no set needs no --yes
        #expect(try home.gymlog(["exercises", "add", "Hang", "--kind", "weighted"]).status == 0)
        #expect(try home.gymlog(["exercises", "kind", "hang", "timed"]).stdout == "'Hang' is a timed exercise (timed).\n")
    }
}

/// `exercises search` through the real binary (issue 30, item 3).
@Suite struct ExerciseSearchCommandTests {
    @Test func searchShowsYourOwnThenTheCatalog() throws {
        let home = try TemporaryHome()
        #expect(try home.gymlog(["log", "front squat 100x5"]).status == 0)
        let run = try home.gymlog(["exercises", "search", "front", "squat"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Yours:" && lines[1].hasPrefix("  front squat  weighted, 1 set"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("In the catalog (") }, "\(lines)")
        #expect(lines.contains("  Front Barbell Squat · barbell · quadriceps; also calves, glutes, hamstrings"), "\(lines)")
        // A muscle the catalog does not name is bad input, and the error lists the ones it does
        let bad = try home.gymlog(["exercises", "search", "--muscle", "pecs"])
        #expect(bad.status == 64 && bad.stderr.contains("--muscle pecs is not a muscle the catalog names; use one of abdominals,"), "\(bad.stderr)")
        // And --json gives every field kept, equipment matched whatever its case
        let json = try home.gymlog(["exercises", "search", "curl", "--equipment", "E-Z Curl Bar", "--json"])
        #expect(json.status == 0 && json.stdout.contains("\"equipment\": \"e-z curl bar\"") && json.stdout.contains("\"primary_muscles\": ["),
                "\(json.stdout.prefix(400))")
    }
}
