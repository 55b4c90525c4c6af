import Foundation
import GymLogTestSupport
import Testing

/// Exercises linked to the catalog (issue 30, items 2 and 3), through the real binary.
@Suite struct ExerciseLinkCommandTests {
    @Test func infoNamesTheMusclesTheLinkAndTheLiftersNumbers() throws {
        // Given squats logged as lifters type them
        let home = try TemporaryHome()
        #expect(try home.gymlog(["log", "squat 140x5x3"]).status == 0)
        // When asked about the squat
        let run = try home.gymlog(["exercises", "info", "squat"])
        // Then it names the quadriceps, says the link was found from the name, and counts the sets
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "squat · weighted · barbell", "\(lines)")
        #expect(lines.contains("Linked automatically to Barbell Squat in the catalog."), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Muscles: quadriceps; also ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("3 sets, first ") }, "\(lines)")
        #expect(lines.contains { $0.contains("best e1RM") }, "\(lines)")
        // And --json carries the link and the records
        let json = try object(try home.gymlog(["exercises", "info", "squat", "--json"]).stdout)
        let link = try #require(json["link"] as? [String: Any])
        #expect(link["source"] as? String == "automatic" && link["catalog_id"] as? String == "Barbell_Squat")
        #expect(link["primary_muscles"] as? [String] == ["quadriceps"])
        #expect((json["records"] as? [[String: Any]])?.isEmpty == false && json["set_count"] as? Int == 3)
        // And a search by muscle lists your own exercises that train it, by their links
        let search = try home.gymlog(["exercises", "search", "--muscle", "quadriceps"])
        #expect(search.stdout.hasPrefix("Yours:\n  squat  weighted, 3 sets\nIn the catalog ("), "\(search.stdout.prefix(200))")
        #expect(try home.gymlog(["exercises", "search", "--muscle", "biceps"]).stdout.hasPrefix("In the catalog ("))
    }

    @Test func linkUnlinkAndMusclesAreSyncedChangesThatUndoTakesBack() throws {
        // Given an exercise the matcher leaves unlinked
        let home = try TemporaryHome()
        #expect(try home.gymlog(["exercises", "add", "Frog Pump"]).status == 0)
        #expect(try home.gymlog(["log", "frog pump 100x10"]).status == 0)
        let before = try object(try home.gymlog(["exercises", "info", "frog pump", "--json"]).stdout)
        #expect((before["link"] as? [String: Any])?["source"] as? String == "unlinked")
        // When it is linked by hand to an entry named by its name
        let link = try home.gymlog(["exercises", "link", "Frog Pump", "barbell", "hip", "thrust"])
        #expect(link.status == 0 && link.stdout == "'Frog Pump' is linked to Barbell Hip Thrust · barbell · glutes; also calves, hamstrings.\n",
                "\(link.stdout)\(link.stderr)")
        #expect(try home.gymlog(["exercises", "info", "frog pump"]).stdout.contains("Linked by hand to Barbell Hip Thrust"))
        // Then undo takes it back
        #expect(try home.gymlog(["undo"]).status == 0)
        #expect(try home.gymlog(["exercises", "info", "frog pump"]).stdout.contains("Not linked: no catalog entry matches its name well"))
        // When described by hand, a muscle the catalog does not name is refused, naming it and the valid ones
        let bad = try home.gymlog(["exercises", "muscles", "frog pump", "--primary", "glutes,booty"])
        #expect(bad.status == 64 && bad.stderr.contains("'booty' is not a muscle gymlog knows; use abdominals, abductors,"), "\(bad.stderr)")
        let good = try home.gymlog(["exercises", "muscles", "frog pump", "--primary", "Glutes", "--secondary", "hamstrings", "--equipment", "machine"])
        #expect(good.status == 0 && good.stdout == "'Frog Pump' trains glutes; also hamstrings, with machine.\n", "\(good.stdout)\(good.stderr)")
        let custom = try object(try home.gymlog(["exercises", "--json"]).stdout)
        let listed = try #require((custom["exercises"] as? [[String: Any]])?.first?["link"] as? [String: Any])
        #expect(listed["source"] as? String == "custom" && listed["primary_muscles"] as? [String] == ["glutes"])
        // And an entry the catalog does not have is refused, with what it may have meant
        let unknown = try home.gymlog(["exercises", "link", "frog pump", "hip", "thrusts", "deluxe"])
        #expect(unknown.status == 1 && unknown.stderr.contains("'hip thrusts deluxe' is not an entry of the catalog"), "\(unknown.stderr)")
        // And the changes wait in the outbox like any other
        #expect(try home.gymlog(["status", "--json"]).stdout.contains("\"outbox_depth\""))
    }

    @Test func anUnlinkedExercisesSetsAreCountedAsUnlinkedNotGuessed() throws {
        // Given a squat and a dumbbell skullcrusher, unlinked by hand
        let home = try TemporaryHome()
        #expect(try home.gymlog(["log", "squat 140x5x3"]).status == 0)
        #expect(try home.gymlog(["exercises", "add", "Skullcrusher (Dumbbell)"]).status == 0)
        #expect(try home.gymlog(["log", "skullcrusher 20x10x2"]).status == 0)
        #expect(try home.gymlog(["exercises", "unlink", "skullcrusher"]).status == 0)
        // When the week is shown by muscle
        let json = try object(try home.gymlog(["stats", "--weeks", "1", "--by", "muscle", "--json"]).stdout)
        let week = try #require((json["weekly"] as? [[String: Any]])?.last)
        let groups = try #require(week["groups"] as? [[String: Any]])
        func sets(_ name: String) -> Double? { (groups.first { $0["name"] as? String == name }?["sets"] as? NSNumber)?.doubleValue }
        // Then the squat's primary muscle counts its 3 sets, a secondary half of them, and the unlinked 2 are named
        #expect(sets("quadriceps") == 3 && sets("glutes") == 1.5, "\(groups)")
        #expect(sets("unlinked") == 2 && sets("triceps") == nil && sets("chest") == nil, "\(groups)")
        #expect(week["unlinked_exercises"] as? [String] == ["Skullcrusher (Dumbbell)"])
        #expect(groups.first { $0["name"] as? String == "quadriceps" }?["range"] as? String == "under")
        // And the text names the unlinked exercise and marks the muscles under the range
        let text = try home.gymlog(["stats", "--weeks", "1", "--by", "muscle"])
        #expect(text.stdout.contains("under 10") && text.stdout.contains("Unlinked, so on no muscle: Skullcrusher (Dumbbell)."), "\(text.stdout)")
        // And a config may count a secondary muscle's set in full
        try "[stats]\nsecondary_weight = 1\n".write(toFile: home.config, atomically: true, encoding: .utf8)
        let full = try object(try home.gymlog(["stats", "--weeks", "1", "--by", "muscle", "--json"]).stdout)
        let fullGroups = try #require(((full["weekly"] as? [[String: Any]])?.last?["groups"]) as? [[String: Any]])
        #expect((fullGroups.first { $0["name"] as? String == "glutes" }?["sets"] as? NSNumber)?.doubleValue == 3)
    }

    @Test func aLinkedMachineLiftWarmsUpWithoutTheBar() throws {
        // Given a hack squat, whose name says nothing of a machine but whose link does
        let home = try TemporaryHome()
        #expect(try home.gymlog(["log", "hack squat 100x8"]).status == 0)
        // When it is warmed up
        let json = try object(try home.gymlog(["warmup", "hack squat", "100", "--json"]).stdout)
        // Then the ramp starts from no bar (the name alone read it as a barbell lift)
        #expect(json["bar"] is NSNull, "\(json)")
        // And unlinked by hand, the name's rule is back: the bar
        #expect(try home.gymlog(["exercises", "unlink", "hack squat"]).status == 0)
        let barbell = try object(try home.gymlog(["warmup", "hack squat", "100", "--json"]).stdout)
        #expect(barbell["bar"] as? Int == 20, "\(barbell)")
        // And linked from its name again, the machine is back
        let auto = try home.gymlog(["exercises", "link", "hack squat", "--auto"])
        #expect(auto.status == 0 && auto.stdout == "'hack squat' is linked from its name: Hack Squat · machine · quadriceps; also calves, glutes, hamstrings.\n",
                "\(auto.stdout)\(auto.stderr)")
        #expect(try object(try home.gymlog(["warmup", "hack squat", "100", "--json"]).stdout)["bar"] is NSNull)
        #expect(try home.gymlog(["exercises", "link", "hack squat"]).status == 64)
    }

    @Test func anEZBarCurlRampsFromTheEZBarOfTheConfig() throws {
        // Given an EZ bar of 7.5 kg in the config
        let home = try TemporaryHome()
        try "[plates]\nkg_ez_bar = 7.5\n".write(toFile: home.config, atomically: true, encoding: .utf8)
        // When an EZ bar curl is warmed up
        let json = try object(try home.gymlog(["warmup", "EZ Bar Curl", "40", "--json"]).stdout)
        // Then the ramp starts from that bar, with the plates
        #expect((json["bar"] as? NSNumber)?.doubleValue == 7.5, "\(json)")
        #expect(try home.gymlog(["warmup", "Deadlift (Trap Bar)", "140", "--json"]).stdout.contains("\"bar\": 25"))
    }
}
