import Foundation
import GRDB
import GymLogCore
@testable import GymLogCLI
import GymLogTestSupport
import Testing

/// Drives the real `gymlog` executable the way a script or a shell user does.
@Suite struct PipedSessionTests {
    @Test func aPipedWorkoutLogsExactlyTheGoodLinesAndFailsForTheBadOnes() throws {
        // Given a realistic session with three bad lines
        let home = try TemporaryHome()
        let session = try String(contentsOf: fixture("sessions/push-day.txt"), encoding: .utf8)
        // When it is piped into `gymlog`
        let run = try home.gymlog([], stdin: session)
        // Then the exit status says a line failed, and each bad line was pointed at
        #expect(run.status == 1)
        #expect(run.stderr.contains("Did you mean 'Bench'?"))
        #expect(run.stderr.contains("expected reps after 'x'"))
        #expect(run.stderr.contains("squat 140x5x0"))
        #expect(run.stdout.contains("PR!"))

        let db = try DatabaseQueue(path: home.database)
        try db.read { db in
            // 2 warm-ups + 4 + 2 bench, 3 incline, 1 ohp, 2 dips, 3 pull-ups (the whole line undone), 2 planks, 1 row
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sets") == 20)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sets WHERE deleted_at IS NOT NULL") == 3)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sets WHERE kind = 'warmup'") == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM exercises") == 7, "no 'Bnech', no 'Squat'")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM exercises WHERE deleted_at IS NULL") == 6, "`undo` took the line's new 'Pullup' too")
            #expect(try String.fetchOne(db, sql: "SELECT note FROM workouts") == "Shoulder felt fine")
            #expect(try Int.fetchOne(db, sql: "SELECT ended_at IS NOT NULL FROM workouts") == 1)
            // One outbox event per change: 7 exercises (1 undone), 1 workout create + rename-less start + note + finish,
            // 20 set creates, 3 undone, 1 edit.
            let events = try Row.fetchAll(db, sql: "SELECT entity, op, COUNT(*) FROM outbox GROUP BY entity, op ORDER BY entity, op")
                .map { "\($0[0] as String).\($0[1] as String)=\($0[2] as Int)" }
            #expect(events == ["exercises.create=7", "exercises.delete=1", "sets.create=20", "sets.delete=3", "sets.update=1",
                               "workouts.create=1", "workouts.update=2"])
            let seqs = try Int.fetchAll(db, sql: "SELECT seq FROM outbox ORDER BY seq")
            #expect(seqs == Array(1...seqs.count), "gapless")
            // The edit changed set #2 (the second warm-up) to 6 reps.
            #expect(try Int.fetchOne(db, sql: "SELECT reps FROM sets WHERE deleted_at IS NULL ORDER BY performed_at LIMIT 1 OFFSET 1") == 6)
            // Records: the heaviest working bench is 102.5; warm-ups never count.
            #expect(try Double.fetchOne(db, sql: """
                SELECT r.value FROM records r JOIN exercises e ON e.id = r.exercise_id WHERE e.name = 'Bench' AND r.metric = 'weight'
                """) == 102.5)
        }

        // And the export parses as CSV with one row per live set
        let export = try home.gymlog(["export"])
        #expect(export.status == 0)
        let rows = ImportCSVCursor.rows(export.stdout)
        #expect(rows.first == ExportFormat.native.header(unit: .kg))
        #expect(rows.count == 1 + 17)
        #expect(Set(rows.dropFirst().map(\.count)) == [ExportFormat.native.header(unit: .kg).count])
    }

    @Test func oneShotCommandsShareTheDatabaseAndExplainBadInput() throws {
        let home = try TemporaryHome()
        #expect(try home.gymlog(["log", "Bench 100x5 @8"]).stdout.contains("Bench #1  100kg x 5 @8  e1RM 116.7kg"))
        #expect(try home.gymlog(["log", "bench", "105x3"]).stdout.contains("PR! heaviest weight (was 100kg)"))
        let bad = try home.gymlog(["log", "bench 100x5 @11"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("RPE"))
        #expect(try home.gymlog(["prs", "ben"]).stdout.contains("heaviest weight     105kg"))
        #expect(try home.gymlog(["history", "bench"]).stdout.contains("Bench: 100kg x 5 @8, 105kg x 3"))
        #expect(try home.gymlog(["undo"]).stdout.contains("Undid bench 105x3: Bench 105kg x 3"))
        #expect(try home.gymlog(["exercises", "alias", "bp", "bench"]).status == 0)
        #expect(try home.gymlog(["log", "bp 90x8"]).stdout.contains("Bench #2"))
        let list = try home.gymlog(["exercises"])
        #expect(list.stdout.contains("aliases: bp"))
        let unknown = try home.gymlog(["prs", "squat"])
        #expect(unknown.status == 1 && unknown.stderr.contains("No exercise is called 'squat'"))
        let badDate = try home.gymlog(["export", "--since", "2026-02-30"])
        #expect(badDate.status == 64 && badDate.stderr.contains("2026-02-30"))
    }

    @Test func exportWritesStrongLayoutToAFileAndFiltersByExercise() throws {
        let home = try TemporaryHome()
        _ = try home.gymlog([], stdin: "Bench w60x10\nbench 100x5x2\nsquat 140x5\nbench 80x10 d\n")
        let out = home.root + "/strong.csv"
        let run = try home.gymlog(["export", "--format", "strong", "--exercise", "bench", "--out", out])
        #expect(run.status == 0)
        let rows = ImportCSVCursor.rows(try String(contentsOfFile: out, encoding: .utf8), delimiter: ";")
        #expect(rows[0].joined(separator: ";") == "Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes;Workout Duration")
        #expect(rows.dropFirst().map { $0[3] } == ["W", "1", "2", "D"])
        #expect(rows.dropFirst().allSatisfy { $0[2] == "Bench" })
    }

    @Test func configSettingsApplyAndBadOnesAreNamed() throws {
        let home = try TemporaryHome()
        try "unit = \"lb\"\n".write(toFile: home.config, atomically: true, encoding: .utf8)
        #expect(try home.gymlog(["log", "bench 225x5"]).stdout.contains("225lb x 5"))
        try "unit = \"stone\"\n".write(toFile: home.config, atomically: true, encoding: .utf8)
        let bad = try home.gymlog(["log", "bench 225x5"])
        #expect(bad.status != 0 && bad.stderr.contains("stone"))
    }
}

func fixture(_ path: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures").appendingPathComponent(path)
}

@Suite struct FastPathTests {
    @Test func theHotVerbsReadByHandAreReadWithEveryOptionTheyHave() {
        // Given the verbs the fast path reads by hand, and what it reads of each
        let read: [(any ContextCommand.Type, [String])] = [
            (Status.self, ["--db", "--json"]), (Rest.self, ["--db", "<target>", "--json"]), (Finish.self, ["--db", "--workout"]),
        ]
        for (command, words) in read {
            // Then the parser knows no other option or argument for it (a new one must be read
            // by `Gymlog.hotCommand` too, or the verb left to the parser)
            let usage = Gymlog.usageString(for: command, includeHidden: true).split(separator: " ")
                .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) }
            let known = usage.enumerated().filter { i, word in
                word.hasPrefix("--") || (word.hasPrefix("<") && !(i > 0 && usage[i - 1].hasPrefix("--")))
            }.map(\.element)
            #expect(known == words, "\(usage)")
        }
        // And what they read becomes the command the parser would have made
        let status = Gymlog.hotCommand(["status", "--json", "--db=x.sqlite"]) as? Status
        #expect(status?.global.db == "x.sqlite" && status?.output.json == true)
        let rest = Gymlog.hotCommand(["rest", "2:30", "--db", "x.sqlite"]) as? Rest
        #expect(rest?.target == "2:30" && rest?.global.db == "x.sqlite" && rest?.output.json == false)
        let finish = Gymlog.hotCommand(["finish", "--workout", "-2"]) as? Finish
        #expect(finish?.which.workout == "-2" && finish?.global.db == nil)
        // And anything else is left to the parser
        for arguments in [["status", "--help"], ["status", "extra"], ["rest", "1", "2"], ["finish", "--json"], ["finish", "--workout"],
                          ["status", "--db", "a", "--db", "b"], ["rest", "-h"], ["status", "--bogus"]] {
            #expect(Gymlog.hotCommand(arguments) == nil, "\(arguments)")
        }
    }

    /// One command table: what `gymlog log` and `--version` read by hand (`Gymlog.fastCommand`)
    /// is either declined, for the full parser to answer, or the very command ArgumentParser
    /// makes of the same words.
    @Test(arguments: [
        ["--version"], ["-V"], ["log", "bench", "100x5"], ["log", "bench 100x5 @8"], ["log", "--db", "x.sqlite", "bench 100x5"],
        ["log", "--db=x.sqlite", "bench 100x5"], ["log", "bench 100x5", "--db", "x.sqlite"], ["log", "--db=", "x"],
        ["log", "--db", "a.sqlite", "--db", "b.sqlite", "row 60x8"], ["log", "--db"], ["log", "--db", "x.sqlite"], ["log"],
        ["log", "--help"], ["log", "-h"], ["log", "help"], ["log", "--bogus", "bench 100x5"], ["log", "-x", "bench"],
        ["log", "--at", "yesterday 10:00", "bench 100x5"], ["log", "--at=yesterday", "bench 100x5"], ["log", "bench", "--version"],
        ["log", "--", "dip", "-20x8"], ["log", "dip", "bw-20x8"], ["log", "dip", "-20x8"], ["log", "plank", "-5"], ["log", "-"],
        ["--db", "x.sqlite", "log", "bench 100x5"], ["logs", "bench 100x5"], ["help", "log"], ["--version", "log"], ["-V", "x"],
    ])
    func theFastPathReadsWhatTheParserReads(arguments: [String]) throws {
        guard let fast = Gymlog.fastCommand(arguments) else { return }
        switch fast {
        case .version:
            // Then the parser stops at its version flag (`-V` is turned into it before parsing) with the same text
            let flag = arguments == ["-V"] ? ["--version"] : arguments
            #expect(throws: (any Error).self) { try Gymlog.parseAsRoot(flag) }
            do { _ = try Gymlog.parseAsRoot(flag) } catch { #expect(Gymlog.fullMessage(for: error) == gymlogVersion) }
        case .log(let db, let words):
            // Then the parser makes `log` of the same database and words, at no other time, from
            // the words as typed (a word of a dash and a digit, `dip -20x8`, included) and after `--`.
            let canonical = ["log"] + (db.map { ["--db", $0] } ?? []) + ["--"] + words
            for form in [arguments, canonical] {
                let parsed = try #require(try Gymlog.parseAsRoot(form) as? Log, "\(form)")
                #expect(parsed.global.db == db && parsed.lineWords == words && parsed.past.at == nil, "\(form)")
            }
        }
    }

    @Test func theFastPathBehavesLikeTheFullParser() throws {
        let home = try TemporaryHome()
        // (--db makes a database only in a folder that exists)
        try FileManager.default.createDirectory(atPath: home.root + "/data", withIntermediateDirectories: true)
        // Fast path: words, --db anywhere, a negative-looking load.
        let fast = try home.gymlog(["log", "--db", home.database, "Dip", "bw-20x8"])
        #expect(fast.status == 0 && fast.stdout.contains("bw-20kg x 8"))
        // Falls back for flags the fast path does not know; the parser answers.
        let help = try home.gymlog(["log", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE"))
        let unknown = try home.gymlog(["log", "--bogus", "bench 100x5"])
        #expect(unknown.status == 64 && unknown.stderr.contains("--bogus"))
        // A bad line fails the same way on both paths, writing nothing: a line that cannot be
        // read exits 64, as an unknown option does (issue 26, item 31)
        let bad = try home.gymlog(["log", "bench", "100x"])
        #expect(bad.status == 64 && bad.stderr.contains("expected reps after 'x'"))
        let badFull = try home.gymlog(["log", "--at", "yesterday 10:00", "bench", "100x"])
        #expect(badFull.status == 64 && badFull.stderr.contains("expected reps after 'x'"), "\(badFull.stderr)")
        // And a line that reads but cannot be done exits 1
        let refused = try home.gymlog(["log", "Dpi 20x5"])
        #expect(refused.status == 1 && refused.stderr.contains("Did you mean"), "\(refused.stderr)")
        #expect(try home.gymlog(["history"]).stdout.contains("Dip: bw-20kg x 8"))
    }
}

@Suite struct ConfigFileTests {
    @Test func credentialsCanBeSavedToABareRelativePath() throws {
        // Given a config path with no directory part, as in the README's two-device example
        let dir = try temporaryDirectory("gymlog-cfg")
        let previous = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath(dir)
        defer { FileManager.default.changeCurrentDirectoryPath(previous) }
        // When the server and token are saved
        try ConfigFile.saveCredentials("b.toml", server: "http://127.0.0.1:8080", token: "glt_x", caCertificate: nil, account: nil, key: nil)
        // Then the file is there, private, and reads back
        let settings = try ConfigFile.load(dir + "/none.toml", credentials: dir + "/b.toml")
        #expect(settings.server == "http://127.0.0.1:8080" && settings.token == "glt_x")
        let mode = try FileManager.default.attributesOfItem(atPath: dir + "/b.toml")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}

@Suite struct PipedLineNumberTests {
    @Test func pipedInputNamesTheLineOfEachErrorOnce() throws {
        // Given a script whose second and fourth lines are wrong
        let home = try TemporaryHome()
        let run = try home.gymlog([], stdin: "bench 100x5\nbench 100x\n// a comment\nhisotry\nbench 105x3\n")
        // Then each error starts with its line number, once, and the good lines logged
        #expect(run.status == 1)
        let errors = run.stderr.split(separator: "\n").map(String.init)
        let numbered = errors.filter { $0.hasPrefix("line ") }
        #expect(numbered.map { String($0.prefix(15)) } == ["line 2: error: ", "line 4: error: "], "\(errors)")
        #expect(numbered.last?.contains("Unknown command 'hisotry'. Did you mean `history`?") == true, "\(errors)")
        #expect(errors.count { $0.contains("expected reps") } == 1, "\(errors)")
        #expect(run.stdout.contains("bench #2"), "\(run.stdout)")
    }
}
