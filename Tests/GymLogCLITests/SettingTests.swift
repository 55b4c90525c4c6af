import Foundation
import Testing
@testable import GymLogCLI
import GymLogCore
import GymLogTestSupport
import GymLogTOML

/// The table of settings is where `config.toml` is read and where `--help` lists the keys, so
/// what `--help` shows must be what the reader takes.
@Suite("Setting table")
struct SettingTests {
    @Test func everyKeyAsHelpShowsItIsReadWithoutComplaint() throws {
        // Given each key set to the value `--help` shows for it (the CA file is checked on disk)
        for setting in Setting.all where setting.key != "sync.ca_file" {
            let text = "\(setting.key) = \(setting.shown)"
            // When the config holds only that line, then it is read
            #expect(throws: Never.self, "\(text)") { try ConfigFile.settings(from: values(text), path: "config.toml") }
        }
    }

    @Test func theShownDefaultsAreTheDefaults() throws {
        // Given the config keys whose shown value is the default (the rest are unset by
        // default and show an example), read back from the table
        let unset = ["rest_seconds", "plates.kg_round", "plates.lb_round"]
        #expect(Setting.all.filter { $0.group == .config && $0.exampleOnly }.map(\.key) == unset)
        let defaults = Setting.all.filter { $0.group == .config && !$0.exampleOnly }
        let text = defaults.map { "\($0.key) = \($0.shown)" }.joined(separator: "\n")
        // When read, then they change nothing from an empty config
        #expect(try ConfigFile.settings(from: values(text), path: "config.toml") == Settings())
    }

    @Test func helpListsEachKeyOnceAndWrapsAnAsideWhole() {
        // Given the config block of `--help`
        let lines = Setting.helpText(.config).split(separator: "\n").map(String.init)
        // Then each config key starts exactly one line, and no credentials key is there
        for setting in Setting.all {
            let count = lines.filter { $0.hasPrefix("  \(setting.key) = ") }.count
            #expect(count == (setting.group == .config ? 1 : 0), "\(setting.key)")
        }
        // And a parenthesised aside is never split over two lines
        for line in lines { #expect(line.filter { $0 == "(" }.count == line.filter { $0 == ")" }.count, "\(line)") }
        #expect(Setting.wrapped("a workout ends this long after its last set (1 to 10080)", width: 48)
                == ["a workout ends this long after its last set", "(1 to 10080)"])
    }

    /// The README's example config is the table's, so it lists every key with its default as
    /// `--help` and the man page do; `GYMLOG_RECORD_GOLDENS=1` rewrites it (and fails).
    @Test func theReadmesExampleConfigIsMadeFromTheTable() throws {
        // Given the README and the example the table makes
        let url = repositoryRoot.appendingPathComponent("README.md")
        let readme = try String(contentsOf: url, encoding: .utf8)
        let marker = "<!-- Setting.exampleConfig(): SettingTests checks this block. -->\n```toml\n"
        let start = try #require(readme.range(of: marker), "the README has lost its example config's marker")
        let end = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
        let example = Setting.exampleConfig()
        if ProcessInfo.processInfo.environment["GYMLOG_RECORD_GOLDENS"] == "1" {
            try readme.replacingCharacters(in: start.upperBound..<end.lowerBound, with: example).write(to: url, atomically: true, encoding: .utf8)
            Issue.record("Recorded the README's example config; unset GYMLOG_RECORD_GOLDENS and run again to compare.")
            return
        }
        // Then the README shows exactly it
        #expect(String(readme[start.upperBound..<end.lowerBound]) == example, "the README's example config is stale; run this test with GYMLOG_RECORD_GOLDENS=1")
        // And it reads back as the defaults
        #expect(try ConfigFile.settings(from: values(example), path: "README.md") == Settings())
    }

    /// `GYMLOG_<KEY>` overrides a config key, as atuin's `ATUIN_*` do: the environment over the
    /// file over the default, a bad value named by its variable.
    @Test func aVariableOverridesTheFileWhichOverridesTheDefault() throws {
        // Given a file setting the unit and the dumbbell step, and variables for the unit, auto-sync and the bar
        let file: [String: SettingValue] = ["unit": .string("kg"), "plates.kg_dumbbell_step": .integer(2), "sync.auto": .bool(true)]
        let environment = ["GYMLOG_UNIT": "lb", "GYMLOG_SYNC_AUTO": "false", "GYMLOG_PLATES_KG_BAR": "15", "GYMLOG_REST_SECONDS": "2:30",
                           "GYMLOG_IDLE_GAP_MINUTES": "", "GYMLOG_DB": "x.sqlite"]
        // When read
        let settings = try ConfigFile.settings(from: file, path: "config.toml", environment: environment)
        // Then each variable wins over the file, the file over the default, and an empty variable is unset
        #expect(settings.defaultUnit == .lb && !settings.autoSync && settings.kilogramPlates.bar == Fixed(15) && settings.restSeconds == 150)
        #expect(settings.kilogramDumbbellStep == Fixed(2) && settings.idleGapMinutes == Settings().idleGapMinutes)
        // And a bad value names the variable, not the file
        let bad = #expect(throws: UserError.self) { try ConfigFile.settings(from: file, path: "config.toml", environment: ["GYMLOG_UNIT": "stone"]) }
        #expect(bad?.message == "GYMLOG_UNIT=\"stone\" is not a unit; use \"kg\" or \"lb\".", "\(bad?.message ?? "")")
        // And no config key's variable is one gymlog, its server or its tests use for something else
        let variables = Setting.all.compactMap(\.variable)
        #expect(Set(variables).count == variables.count)
        let taken = ["GYMLOG_DB", "GYMLOG_CONFIG", "GYMLOG_FORCE_COLOR", "GYMLOG_BINARY", "GYMLOG_KEEP_TEST_FILES", "GYMLOG_RECORD_GOLDENS", "GYMLOG_PG_BIN",
                     "GYMLOG_CREADLINE_SHIM_H"]
        let takenPrefixes = ["GYMLOG_SERVER_", "GYMLOG_TEST_", "GYMLOG_RELIABILITY_", "GYMLOG_FUZZ_"]
        for variable in variables {
            #expect(!taken.contains(variable) && !takenPrefixes.contains { variable.hasPrefix($0) }, "\(variable)")
        }
        #expect(Setting.named("sync.token")?.variable == nil, "a credential is saved by `gymlog login`, not set by a variable")
    }

    /// The real binary: `log` (its fast path), `config list` and `config get` read the variables.
    @Test func theBinaryReadsTheVariables() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try "unit = \"kg\"\n".write(toFile: home.config, atomically: true, encoding: .utf8)
        let pounds = ["GYMLOG_UNIT": "lb"]
        #expect(try home.gymlog(["log", "bench 135x5"], env: pounds).stdout.contains("135lb"))
        #expect(try home.gymlog(["config", "get", "unit"], env: pounds).stdout == "lb\n")
        let list = try home.gymlog(["config", "list"], env: pounds).stdout
        #expect(list.contains("unit = \"lb\"") && list.contains("# $GYMLOG_UNIT, over the file's \"kg\""), "\(list)")
        let set = try home.gymlog(["config", "set", "unit", "kg"], env: pounds)
        #expect(set.stdout == "unit = \"kg\" in \(home.config). $GYMLOG_UNIT overrides it while it is set.\n", "\(set.stdout)\(set.stderr)")
        let bad = try home.gymlog(["log", "bench 135x5"], env: ["GYMLOG_UNIT": "stone"])
        #expect(bad.status == 1 && bad.stderr.contains("GYMLOG_UNIT=\"stone\" is not a unit; use \"kg\" or \"lb\"."), "\(bad.stderr)")
    }

    /// `gymlog config set|get|list`: the unit set from the command line, the file's comments
    /// kept, a bad value or key refused with the file untouched.
    @Test func configSetThenGetSaysTheValueAndKeepsTheFilesComments() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try "# my gym\nunit = \"kg\" # for now\n".write(toFile: home.config, atomically: true, encoding: .utf8)
        // When the unit is set to lb
        let set = try home.gymlog(["config", "set", "unit", "lb"])
        #expect(set.status == 0 && set.stdout == "unit = \"lb\" in \(home.config).\n", "\(set.stderr)")
        // Then `config get unit` says lb, the comments stay, and commands read it
        #expect(try home.gymlog(["config", "get", "unit"]).stdout == "lb\n")
        #expect(try String(contentsOfFile: home.config, encoding: .utf8) == "# my gym\nunit = \"lb\" # for now\n")
        #expect(try home.gymlog(["log", "bench 135x5"]).stdout.contains("135lb"))
        // And hints are written in pounds: no `bw 82.5`, no `ok 20`
        #expect(try home.gymlog(["bw"]).stdout == "No bodyweight yet; record it with `gymlog bw 180`.\n")
        #expect(try home.gymlog(["bw", "heavy"]).stderr.contains("`bw 180` or `bw 82.5kg`"))
        #expect(try home.gymlog(["routine", "add", "--file", "-"], stdin: "# Arms\ncurl 3x10\n").status == 0)
        let next = try home.gymlog([], stdin: "start arms\nnext\nok\n")
        #expect(next.stdout.contains("(e.g. `ok 45`)") && next.stderr.contains("e.g. `ok 45`, or `ok bw`"), "\(next.stdout)\n\(next.stderr)")
        // And `config set` in the REPL is read by the lines after it
        let repl = try home.gymlog([], stdin: "config set unit kg\nrow 60x8\n")
        #expect(repl.stdout.contains("60kg"), "\(repl.stdout)")
        #expect(try home.gymlog(["config", "set", "unit", "lb"]).status == 0)
        // And an unset key gets its default; a rest with no default says how to set it
        #expect(try home.gymlog(["config", "get", "idle_gap_minutes"]).stdout == "120\n")
        let rest = try home.gymlog(["config", "get", "rest_seconds"])
        #expect(rest.status == 1 && rest.stderr.contains("`gymlog config set rest_seconds 3:00` sets it"), "\(rest.stderr)")
        // And a new key goes under its table; `list` shows it and marks the defaults
        #expect(try home.gymlog(["config", "set", "sync.interval", "60"]).status == 0)
        let list = try home.gymlog(["config", "list"]).stdout
        #expect(list.contains("unit = \"lb\"\n") && list.contains("sync.interval = 60\n") && list.contains("# default"), "\(list)")
        // And a bad value, an unknown key and a credential are refused, the file untouched
        let before = try String(contentsOfFile: home.config, encoding: .utf8)
        let bad = try home.gymlog(["config", "set", "unit", "stone"])
        #expect(bad.status == 1 && bad.stderr.contains("unit = \"stone\" is not a unit; use \"kg\" or \"lb\". Nothing was changed."), "\(bad.stderr)")
        let typo = try home.gymlog(["config", "set", "unti", "lb"])
        #expect(typo.status == 1 && typo.stderr.contains("Unknown setting 'unti'. Did you mean `unit`?"), "\(typo.stderr)")
        #expect(try home.gymlog(["config", "set", "sync.token", "x"]).stderr.contains("`gymlog login`"))
        #expect(try String(contentsOfFile: home.config, encoding: .utf8) == before)
    }

    /// Found by the REPL history model (issue 44): the database kept the settings it was opened
    /// with, so after `config set unit lb` in the REPL a bare `bench 135x5` went in as 135 kg,
    /// and a routine's bare `ok 135` with it, until the REPL ended.
    @Test func aUnitSetInTheReplIsTheUnitOfTheNextBareNumber() async throws {
        // Given a REPL in kg with a set logged (the database is open)
        let s = try ReplTestSession()
        #expect(await s.type("bench 100x5").out.contains { $0.contains("100kg x 5") })
        // When the lifter switches to pounds in the same REPL
        await s.type("config set unit lb")
        // Then a bare number is in pounds, and the set before it stays as typed
        let logged = await s.type("bench 135x5").out
        #expect(logged.contains { $0.contains("135lb x 5") }, "\(logged)")
        let shown = await s.type("show").out.joined(separator: "\n")
        #expect(shown.contains("100kg x 5") && shown.contains("135lb x 5"), "\(shown)")
    }
}

/// The keys and values of the TOML `text`.
func values(_ text: String) throws -> [String: SettingValue] {
    Dictionary(uniqueKeysWithValues: try SettingsFile.entries(text, path: "config.toml").map { ($0.key, $0.value) })
}
