import Foundation
import Testing
@testable import GymLogCLI
import GymLogCore
import GymLogTOML
import SplitMix

/// The settings files as TOMLKit reads them for gymlog (`SettingsFile`), and `config set`'s
/// edit of one line (`ConfigEdit`).
@Suite("Settings file")
struct SettingsFileTests {
    @Test("reads comments, tables, quoted and dotted keys and every value type a setting takes")
    func readsConfig() throws {
        // Given
        let text = """
            # gymlog config
            unit = "kg"   # default load unit
            idle_minutes = 90
            'literal key' = 'C:\\no\\escapes'
            "quoted key" = "tab\\there \\"quoted\\" \\\\ \\u00e9 \\U0001F3CB"
            a.b = -0
            x = inf

            [sync]
            server = "https://gym.example.com"
            token = ''
            interval = 1_800
            enabled = true\r

            [display . "bar weight"]
            value = 20.5
            ratio = -1.5e-3
            hex = 0xDEAD_beef
            inline = { off = false }
            """
        // When
        let read = try values(text)
        // Then
        #expect(read == [
            "unit": .string("kg"),
            "idle_minutes": .integer(90),
            "literal key": .string("C:\\no\\escapes"),
            "quoted key": .string("tab\there \"quoted\" \\ é 🏋"),
            "a.b": .integer(0),
            "x": .float(.infinity),
            "sync.server": .string("https://gym.example.com"),
            "sync.token": .string(""),
            "sync.interval": .integer(1800),
            "sync.enabled": .bool(true),
            "display.bar weight.value": .float(20.5),
            "display.bar weight.ratio": .float(-0.0015),
            "display.bar weight.hex": .integer(0xDEAD_BEEF),
            "display.bar weight.inline.off": .bool(false),
        ])
    }

    @Test("text that is not TOML is named by file, line and column; a value no setting takes by file and key", arguments: [
        ("unit = kg", "config.toml, line 1, column "),
        ("a = 1\n\nunit =   # oops", "config.toml, line 3, column "),
        ("a = 1\na = 2", "config.toml, line 2, column "),
        ("a = \"open", "config.toml, line 1, column "),
        ("[[a]]\nb = 1", "config.toml: a = "),
        ("plates.kg = [25, 20]", "config.toml: plates.kg = [ 25, 20 ] is a list; a setting takes one value, and a list is one quoted string with commas"),
        ("d = 2026-11-21", "config.toml: d = 2026-11-21 is a date or a time, which no setting takes; quote it if it is meant as text."),
    ])
    func errors(text: String, expected: String) {
        let error = #expect(throws: SettingsFileError.self) { try SettingsFile.entries(text, path: "config.toml") }
        #expect(error?.message.hasPrefix(expected) == true, "\(error?.message ?? "")")
    }

    @Test func anUnquotedWordIsShownQuoted() {
        let error = #expect(throws: SettingsFileError.self) { try SettingsFile.entries("# mine\nunit = kg  # lifting\n", path: "c.toml") }
        #expect(error?.message.hasPrefix("c.toml, line 2, column ") == true, "\(error?.message ?? "")")
        #expect(error?.message.hasSuffix(" Text needs quotes: unit = \"kg\".") == true, "\(error?.message ?? "")")
    }

    @Test("random values survive being written as TOML and read back")
    func roundTrip() throws {
        // Given random keys and values, including awkward strings and extreme numbers
        var rng = SplitMix64(seed: 5)
        let pieces = ["a", "Z", "_", "-", "9", " ", "\"", "\\", "\n", "\t", "\r", "\u{1}", "\u{8}", "\u{C}", "\u{7F}", "\u{85}", "é", "🏋️", "#", "=", "'", "[", "]", "."]
        for i in 0..<300 {
            let key = (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined() + "k\(i)"
            let value: SettingValue = switch Int.random(in: 0..<4, using: &rng) {
            case 0: .string((0..<Int.random(in: 0...10, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined())
            case 1: .integer([Int64.min, Int64.max, 0, -1, Int64.random(in: -1_000_000...1_000_000, using: &rng)].randomElement(using: &rng)!)
            case 2: .float([0.1, -2.5, 1e-5, 5e22, 1.7976931348623157e308, 5e-324, .infinity, -.infinity,
                            Double.random(in: -1e6...1e6, using: &rng)].randomElement(using: &rng)!)
            default: .bool(Bool.random(using: &rng))
            }
            // When
            let text = "\(SettingsFile.key(key)) = \(value)\n"
            let back = try SettingsFile.entries(text, path: "x")
            // Then
            #expect(back.count == 1 && back.first?.key == key && back.first?.value == value, "\(text)")
        }
    }

    @Test("setting a key changes its one line and keeps every other line and comment")
    func settingAKeyKeepsTheRest() throws {
        func set(_ text: String, _ key: String, _ value: SettingValue) throws -> String {
            try ConfigEdit.setting(text, key: key, to: value, path: "config.toml")
        }
        let text = "# my gym\nunit = \"kg\"   # what I lift in\n\n[plates]\n# the home gym\nkg_bar = 20\n"
        // A key that is set gets the new value on its line, its comment kept
        #expect(try set(text, "unit", .string("lb")) == "# my gym\nunit = \"lb\"   # what I lift in\n\n[plates]\n# the home gym\nkg_bar = 20\n")
        #expect(try set("unit='kg'#x\n", "unit", .string("lb")) == "unit=\"lb\"#x\n")
        // A new top-level key goes after the top-level keys, not into the last table
        #expect(try set(text, "rest_seconds", .integer(150))
                == "# my gym\nunit = \"kg\"   # what I lift in\nrest_seconds = 150\n\n[plates]\n# the home gym\nkg_bar = 20\n")
        // A new key of a table goes beside its keys; one of a table not there, into a new table
        #expect(try set(text, "plates.lb_bar", .integer(35))
                == "# my gym\nunit = \"kg\"   # what I lift in\n\n[plates]\n# the home gym\nkg_bar = 20\nlb_bar = 35\n")
        #expect(try set(text, "sync.interval", .integer(60)) == text + "\n[sync]\ninterval = 60\n")
        // Into an empty file, and beside a dotted top-level key
        #expect(try set("", "unit", .string("lb")) == "unit = \"lb\"\n")
        #expect(try set("sync.auto = false\n", "sync.interval", .integer(60)) == "sync.auto = false\nsync.interval = 60\n")
        // A file the line scan would misread is refused, not spoiled
        let tricky = "note = \"\"\"\nunit = \"kg\"\n\"\"\"\n"
        #expect(throws: UserError.self) { try set(tricky, "unit", .string("lb")) }
        // A value typed on the command line is TOML when it reads as TOML, else a string
        #expect(ConfigFile.typed("lb") == .string("lb"))
        #expect(ConfigFile.typed("2:30") == .string("2:30"))
        #expect(ConfigFile.typed("180") == .integer(180))
        #expect(ConfigFile.typed("true") == .bool(true))
        #expect(ConfigFile.typed("\"3:00\"") == .string("3:00"))
        #expect(ConfigFile.typed("25x4, 20x2") == .string("25x4, 20x2"))
        #expect(ConfigFile.typed("1, 2") == .string("1, 2"))
    }
}
