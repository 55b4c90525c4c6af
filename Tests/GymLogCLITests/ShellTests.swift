import Foundation
import GymLogCore
@testable import GymLogCLI
import GymLogTestSupport
import Testing

/// The shell around the commands: the version, a mistyped command, read commands that must
/// not create a database, the entry language in `log --help` and the man page.
@Suite struct ShellTests {
    @Test(arguments: [
        ("Bench\\ Press\\ \\(", "Bench Press ("), ("\"Bench Pr", "Bench Pr"), ("'Bench (Bar", "Bench (Bar"),
        ("squ", "squ"), ("\"a \\\" b\"", "a \" b"), ("'it'\\''s'", "it's"), ("", ""),
    ])
    func aWordBeingCompletedIsReadAsTheShellReadsIt(typed: String, read: String) {
        #expect(shellUnquoted(typed) == read, "\(typed)")
    }

    @Test func versionAndItsShortFlagPrintTheOneVersion() throws {
        let home = try TemporaryHome()
        for flag in ["--version", "-V"] {
            // When the version is asked for
            let run = try home.gymlog([flag])
            // Then it is the one version constant, and nothing else
            #expect(run.status == 0, "\(flag): \(run.stderr)")
            #expect(run.stdout == gymlogVersion + "\n", "\(flag)")
        }
    }

    @Test func aMistypedCommandNamesTheNearestInsteadOfTheReplsUsage() throws {
        let home = try TemporaryHome()
        // When a command is mistyped
        let run = try home.gymlog(["hisotry"])
        // Then the nearest command is named, as a usage error, and no database was made
        #expect(run.status == 64)
        #expect(run.stderr.contains("Unknown command 'hisotry'. Did you mean `history`?"), "\(run.stderr)")
        #expect(!run.stderr.contains("Usage"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.database))
        // And a set line typed without `log` is shown how to log it
        let set = try home.gymlog(["bench", "100x5"])
        #expect(set.status == 64)
        #expect(set.stderr.contains("`gymlog log \"bench 100x5\"`"), "\(set.stderr)")
        // And real commands and flags are untouched
        #expect(try home.gymlog(["help"]).status == 0)
        #expect(Gymlog.unknownCommandMessage(["--db", "x", "show"]) == nil)
        #expect(Gymlog.nearestCommand(to: "sttaus") == "status" && Gymlog.nearestCommand(to: "shwo") == "show")
        #expect(Gymlog.nearestCommand(to: "squat") == nil && Gymlog.nearestCommand(to: "row") == nil)
        // And a set line is never taken for a command, however close its first word is
        #expect(Gymlog.nearestCommand(to: "press", rest: ["60x5"]) == nil && Gymlog.nearestCommand(to: "press") == "prs")
        #expect(try home.gymlog(["press", "60x5"]).stderr.contains("`gymlog log \"press 60x5\"`"))
    }

    @Test func aLineWithALeadingMinusReachesTheEntryParserAndAMistypedOptionIsRefused() throws {
        let home = try TemporaryHome()
        let db = home.root + "/x.sqlite"
        // When a set line with a leading minus is logged through ArgumentParser (--db, --at)
        let minus = try home.gymlog(["--db", db, "log", "dip", "-20x8"])
        // Then the entry parser answers it, with one error line and how to write it
        #expect(minus.status == 64)
        #expect(minus.stderr.contains("write assisted bodyweight as `bw-20`"), "\(minus.stderr)")
        #expect(!minus.stderr.contains("Unknown option"), "\(minus.stderr)")
        #expect(minus.stderr.components(separatedBy: "error:").count == 2, "one error line: \(minus.stderr)")
        // And the same line written as the hint says goes into the past workout, options on either side
        let past = try home.gymlog(["--db", db, "log", "dip", "bw-20x8", "--at", "yesterday 18:00"])
        #expect(past.status == 0, "\(past.stderr)")
        #expect(past.stdout.contains("Started a past workout") && past.stdout.contains("bw-20kg x 8"), "\(past.stdout)")
        let terminated = try home.gymlog(["--db", db, "log", "--at", "yesterday 18:01", "--", "dip", "bw-20x6"])
        #expect(terminated.status == 0 && terminated.stdout.contains("bw-20kg x 6"), "\(terminated.stderr)")
        // And a mistyped option is refused by name, not made part of an exercise's name
        let typo = try home.gymlog(["--db", db, "log", "--att", "18:00", "bench", "100x5"])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("Unknown option '--att'"), "\(typo.stderr)")
        #expect(try !home.gymlog(["--db", db, "exercises", "list"]).stdout.contains("--att"))
    }

    @Test(arguments: [["show"], ["history"], ["prs"], ["chart", "bench"], ["stats"], ["export"], ["exercises"], ["exercises", "list"],
                            ["undo"], ["redo"], ["finish"], ["delete", "1"], ["edit", "x6"], ["note", "felt good"]])
    func aCommandOnWhatIsLoggedCreatesNothingOnANewPathAndSaysWhereItLooked(_ args: [String]) throws {
        // Given a --db path in folders that do not exist
        let home = try TemporaryHome()
        let path = home.root + "/new/dir/x.sqlite"
        // When a read command runs on it
        let run = try home.gymlog(args + ["--db", path])
        // Then it says there is no database there and how to start one, and made nothing
        #expect(run.status == 1, "\(args): \(run.stdout)")
        #expect(run.stderr.contains("There is no gymlog database at \(path) yet"), "\(args): \(run.stderr)")
        #expect(run.stderr.contains("`bench 100x5`"))
        #expect(!FileManager.default.fileExists(atPath: home.root + "/new"), "\(args) created the folders")
    }

    /// Issue 26, item 24: a mistyped `--db` path silently made its folders and a new, empty log.
    @Test(arguments: [["log", "bench 100x5"], ["start"], ["bw", "80"], ["exercises", "add", "squat"]])
    func aWritingCommandMakesNoDatabaseInAFolderThatDoesNotExist(_ args: [String]) throws {
        // Given a --db path whose folder does not exist (a typo)
        let home = try TemporaryHome()
        let path = home.root + "/tyop/x.sqlite"
        // When a command that would create the database runs on it
        let run = try home.gymlog(["--db", path] + args)
        // Then it names the folder and the path, says how to make it, and made nothing
        #expect(run.status == 1, "\(args): \(run.stdout)")
        #expect(run.stderr.contains("There is no folder \(home.root)/tyop for the database --db \(path)"), "\(args): \(run.stderr)")
        #expect(run.stderr.contains("mkdir -p \(shellQuoted(home.root + "/tyop"))"), "\(args): \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.root + "/tyop"), "\(args) created the folder")
        // And in a folder that exists, a new database is made
        #expect(try home.gymlog(["--db", home.root + "/x.sqlite", "log", "bench 100x5"]).status == 0)
    }

    @Test func dbBeforeTheCommandWorksAsAfterIt() throws {
        // Given a database with one set, named with --db in front of the command (as `git -C`)
        let home = try TemporaryHome()
        let path = home.root + "/front.sqlite"
        #expect(try home.gymlog(["--db", path, "log", "bench 100x5"]).status == 0)
        // When read back the same way, and with `--db=` spelled as one word
        let show = try home.gymlog(["--db", path, "show"])
        let history = try home.gymlog(["--db=" + path, "history"])
        // Then both find that set, not the REPL's usage
        #expect(show.status == 0 && show.stdout.contains("bench"), "\(show.stderr)")
        #expect(history.status == 0 && history.stdout.contains("100kg x 5"), "\(history.stderr)")
        // And only a command word is moved: `--db PATH` alone still opens the REPL on it
        #expect(Gymlog.commandFirst(["--db", path]) == ["--db", path])
        #expect(Gymlog.commandFirst(["--db", path, "bench 100x5"]) == ["--db", path, "bench 100x5"])
        // A nested command gets the option after its last word, where ArgumentParser reads it
        #expect(Gymlog.commandFirst(["--db", path, "routine", "add", "--file", "r.txt"]) == ["routine", "add", "--db", path, "--file", "r.txt"])
        #expect(Gymlog.commandFirst(["--db=" + path, "exercises", "rest", "bench", "3:00"]) == ["exercises", "rest", "--db=" + path, "bench", "3:00"])
    }

    @Test func statusWithoutADatabaseSaysSoAndALogCreatesIt() throws {
        let home = try TemporaryHome()
        let path = home.root + "/new/x.sqlite"
        // When status runs before anything was logged
        let status = try home.gymlog(["status", "--db", path])
        // Then it says there is none yet, without making one
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("none yet at \(path)"))
        #expect(!FileManager.default.fileExists(atPath: path))
        // And a command that writes creates it once its folder exists (a missing folder is
        // refused: a mistyped --db must not start a new log)
        #expect(try home.gymlog(["log", "--db", path, "bench 100x5"]).status == 1)
        try FileManager.default.createDirectory(atPath: home.root + "/new", withIntermediateDirectories: true)
        #expect(try home.gymlog(["log", "--db", path, "bench 100x5"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try home.gymlog(["show", "--db", path]).stdout.contains("bench"))
    }

    @Test func everyExampleOfTheEntryLanguageParsesAndLogHelpShowsThemAll() throws {
        // Given the one table of entry-line forms
        for form in EntryLanguage.forms {
            for example in form.examples {
                // Then each example is a line the parser accepts
                if case .failure(let error) = EntryParser.parse(example) { Issue.record("`\(example)`: \(error.message)") }
            }
        }
        // And `gymlog log --help` shows every one of them
        let help = try TemporaryHome().gymlog(["log", "--help"])
        #expect(help.status == 0)
        for example in EntryLanguage.forms.flatMap(\.examples) {
            #expect(help.stdout.contains(example), "log --help lacks `\(example)`")
        }
        for word in ["warm-up", "drop", "failure", "note", "bodyweight", "assisted", "timed", "distance", "RPE", "RIR", "kg or lb"] {
            #expect(help.stdout.contains(word), "log --help lacks \(word)")
        }
    }

    @Test func theRootHelpDocumentsEveryConfigKey() throws {
        let help = try TemporaryHome().gymlog(["--help"])
        for key in Setting.keys { #expect(help.stdout.contains("\(key) = "), "\(key)") }
    }

    @Test func theManPageRendersWithoutWarningsAndDocumentsTheLanguageTheKeysAndTheVersion() throws {
        let page = repositoryRoot.appendingPathComponent("man/gymlog.1").path
        let manual = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!manual.contains("\n\n"), "an empty line is an mdoc warning")
        #expect(manual.contains(".Os gymlog \(gymlogVersion)\n"))
        for example in EntryLanguage.forms.flatMap(\.examples) { #expect(manual.contains(example), "\(example)") }
        for key in Setting.keys { #expect(manual.contains("\(key) = "), "\(key)") }
        // And groff, where installed, renders it without a warning
        let groff = URL(fileURLWithPath: "/usr/bin/groff")
        guard FileManager.default.isExecutableFile(atPath: groff.path) else { return }
        let run = try ProcessRunner.run(groff, ["-ww", "-mandoc", "-z", page])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
    }

    @Test func shellCompletionCompletesExerciseNamesFromTheDatabase() throws {
        // Given a log with two exercises and an alias
        let home = try TemporaryHome()
        _ = try home.gymlog([], stdin: "bench 100x5\nsquat 140x5\nexercises alias bp bench\n")
        // When the completion script asks for `gymlog history b<Tab>`
        let run = try home.gymlog(["---completion", "history", "--", "positional@0", "2", "1", "gymlog", "history", "b"])
        // Then the names and aliases starting with it come back
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").map { $0.lowercased() } == ["bench", "bp"], "\(run.stdout)")
        // And with no database it offers nothing and creates none
        let empty = try TemporaryHome()
        #expect(try empty.gymlog(["---completion", "history", "--", "positional@0", "2", "1", "gymlog", "history", "b"]).stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: empty.database))
    }
}

