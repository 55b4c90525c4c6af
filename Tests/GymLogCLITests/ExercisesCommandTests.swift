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
}
