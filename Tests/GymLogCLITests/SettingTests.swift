import Foundation
import Testing
@testable import GymLogCLI
import GymLogCore

/// The table of settings is where `config.toml` is read and where `--help` lists the keys, so
/// what `--help` shows must be what the reader takes.
@Suite("Setting table")
struct SettingTests {
    @Test func everyKeyAsHelpShowsItIsReadWithoutComplaint() throws {
        // Given each key set to the value `--help` shows for it (the CA file is checked on disk)
        for setting in Setting.all where setting.key != "sync.ca_file" {
            let text = "\(setting.key) = \(setting.shown)"
            // When the config holds only that line, then it is read
            #expect(throws: Never.self, "\(text)") { try ConfigFile.settings(from: parseTOML(text), path: "config.toml") }
        }
    }

    @Test func theShownDefaultsAreTheDefaults() throws {
        // Given the config keys whose shown value is the default (the rest are unset by
        // default and show an example), read back from the table
        let unset = ["rest_seconds", "plates.kg_round", "plates.lb_round"]
        let defaults = Setting.all.filter { $0.group == .config && !unset.contains($0.key) }
        let text = defaults.map { "\($0.key) = \($0.shown)" }.joined(separator: "\n")
        // When read, then they change nothing from an empty config
        #expect(try ConfigFile.settings(from: parseTOML(text), path: "config.toml") == Settings())
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
}
