import Foundation
import Testing
@testable import GymLogCLI
import GymLogCore
import SplitMix

@Suite("TOML")
struct TOMLTests {
    @Test("reads the config subset: comments, tables, quoted keys, every value type")
    func readsConfig() throws {
        // Given
        let text = """
            # gymlog config
            unit = "kg"   # default load unit
            idle_minutes = 90
            'literal key' = 'C:\\no\\escapes'
            "quoted key" = "tab\\there \\"quoted\\" \\\\ \\u00e9 \\U0001F3CB"

            [sync]
            server = "https://gym.example.com"
            token = ''
            interval = 1_800
            enabled = true

            [display . "bar weight"]
            value = 20.5
            ratio = -1.5e-3
            big = +5E+22
            hex = 0xDEAD_beef
            off = false\r
            """
        // When
        let values = try parseTOML(text)
        // Then
        #expect(values == [
            "unit": .string("kg"),
            "idle_minutes": .integer(90),
            "literal key": .string("C:\\no\\escapes"),
            "quoted key": .string("tab\there \"quoted\" \\ é 🏋"),
            "sync.server": .string("https://gym.example.com"),
            "sync.token": .string(""),
            "sync.interval": .integer(1800),
            "sync.enabled": .bool(true),
            "display.bar weight.value": .float(20.5),
            "display.bar weight.ratio": .float(-0.0015),
            "display.bar weight.big": .float(5e22),
            "display.bar weight.hex": .integer(0xDEAD_BEEF),
            "display.bar weight.off": .bool(false),
        ])
        #expect(try parseTOMLLines(text).map(\.key).prefix(3) == ["unit", "idle_minutes", "literal key"])
    }

    @Test("dotted keys, inf, nan and signed integers")
    func dottedAndSpecial() throws {
        let values = try parseTOML("a.b = 1\na.c = -0\nx = inf\ny = -inf\nz = nan\nq = +7\n")
        #expect(values["a.b"] == .integer(1) && values["a.c"] == .integer(0) && values["q"] == .integer(7))
        #expect(values["x"] == .float(.infinity) && values["y"] == .float(-.infinity))
        #expect(values["z"]?.doubleValue?.isNaN == true)
    }

    @Test("errors name the line and the bad text", arguments: [
        ("unit =", "line 1: expected a value after `unit =`"),
        ("a = 1\n\nunit =   # oops", "line 3: expected a value after `unit =`"),
        ("unit = kg", "line 1: `kg` is not a valid value for `unit`; strings need quotes, e.g. `unit = \"kg\"`"),
        ("a = 1\na = 2", "line 2: duplicate key `a` (first set on line 1)"),
        ("[s]\nx = 1\n[t]\n[s]", "line 4: table `[s]` is defined twice (first on line 1)"),
        ("[s]\nx = 1\n\"x\" = 2", "line 3: duplicate key `s.x` (first set on line 2)"),
        ("s = 1\n[s]", "line 2: table `[s]` conflicts with the key `s` set on line 1"),
        ("s.x = 1\ns = 2", "line 2: key `s` is already a table"),
        ("[s]\nx=1\n[s.x]", "line 3: table `[s.x]` conflicts with the key `s.x` set on line 2"),
        ("unit \"kg\"", "line 1: expected `=` after the key `unit`, found `\"kg\"`"),
        ("unit", "line 1: expected `=` and a value after the key `unit`"),
        ("a = \"open", "line 1: unterminated string `\"open`"),
        ("a = 'open", "line 1: unterminated string `'open`"),
        ("a = \"bad \\q\"", "line 1: invalid escape `\\q` in a string; write `\\\\` for a backslash"),
        ("a = \"\\uD800\"", "line 1: invalid escape `\\uD800` in a string; use \\u followed by 4 hex digits of a Unicode scalar"),
        ("a = \"\\u12\"", "line 1: invalid escape `\\u12\"` in a string; use \\u followed by 4 hex digits of a Unicode scalar"),
        ("a = 1 2", "line 1: unexpected `2` after the value of `a`"),
        ("a = \"x\" y", "line 1: unexpected `y` after the value of `a`"),
        ("a = [1, 2]", "line 1: arrays (`[1, 2]`) are not supported in gymlog's config"),
        ("a = { b = 1 }", "line 1: inline tables (`{ b = 1 }`) are not supported in gymlog's config"),
        ("[[a]]", "line 1: arrays of tables (`[[a]]`) are not supported in gymlog's config"),
        ("a = \"\"\"x\"\"\"", "line 1: multi-line strings (`\"\"\"`) are not supported in gymlog's config"),
        ("d = 2026-11-21", "line 1: dates and times (`2026-11-21`) are not supported in gymlog's config; quote it as a string"),
        ("n = 99999999999999999999", "line 1: integer `99999999999999999999` is out of range"),
        ("n = 012", "line 1: `012` is not a valid value for `n`; strings need quotes, e.g. `n = \"012\"`"),
        ("n = 1__0", "line 1: `1__0` is not a valid value for `n`; strings need quotes, e.g. `n = \"1__0\"`"),
        ("n = .5", "line 1: `.5` is not a valid value for `n`; strings need quotes, e.g. `n = \".5\"`"),
        ("n = True", "line 1: `True` is not a valid value for `n`; strings need quotes, e.g. `n = \"True\"`"),
        ("[table", "line 1: expected `]` to close the table header `[table`"),
        ("[a] x", "line 1: unexpected `x` after the table header `[a]`"),
        ("= 1", "line 1: expected a key, found `= 1`"),
        ("a = \"tab\u{7}\"", "line 1: control character U+0007 inside a string; escape it"),
    ])
    func errors(text: String, expected: String) {
        #expect(throws: TOMLError.self) { try parseTOML(text) }
        do {
            _ = try parseTOML(text)
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test("renders tables grouped, root keys first, in the order given")
    func renderLayout() {
        let text = renderTOML([
            ("sync.server", .string("https://gym.example.com")),
            ("unit", .string("lb")),
            ("sync.token", .string("tok\"en\\\n")),
            ("display.bar weight.kg", .float(20)),
            ("idle_minutes", .integer(90)),
            ("sync.enabled", .bool(true)),
        ])
        #expect(text == """
            unit = "lb"
            idle_minutes = 90

            [sync]
            server = "https://gym.example.com"
            token = "tok\\"en\\\\\\n"
            enabled = true

            [display."bar weight"]
            kg = 20.0

            """)
    }

    @Test("random values survive render then parse")
    func roundTrip() throws {
        // Given random keys and values, including awkward strings and extreme numbers
        var rng = SplitMix64(seed: 5)
        let pieces = ["a", "Z", "_", "-", "9", " ", "\"", "\\", "\n", "\t", "\r", "\u{1}", "\u{8}", "\u{C}", "\u{7F}", "\u{85}", "é", "🏋️", "#", "=", "'", "[", "]"]
        for _ in 0..<300 {
            var entries: [(key: String, value: TOMLValue)] = []
            var used: Set<String> = []
            for i in 0..<Int.random(in: 1...8, using: &rng) {
                let table = ["", "sync.", "display.units.", "weird key.", "a\"b."].randomElement(using: &rng)!
                let leaf = (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }
                    .joined().replacingOccurrences(of: ".", with: "") + "k\(i)"
                let key = table + leaf
                guard used.insert(key).inserted else { continue }
                let value: TOMLValue = switch Int.random(in: 0..<4, using: &rng) {
                case 0: .string((0..<Int.random(in: 0...10, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined())
                case 1: .integer([Int64.min, Int64.max, 0, -1, Int64.random(in: -1_000_000...1_000_000, using: &rng)].randomElement(using: &rng)!)
                case 2: .float([0.1, -2.5, 1e-5, 5e22, 1.7976931348623157e308, 5e-324, .infinity, -.infinity,
                                Double.random(in: -1e6...1e6, using: &rng)].randomElement(using: &rng)!)
                default: .bool(Bool.random(using: &rng))
                }
                entries.append((key, value))
            }
            // When
            let text = renderTOML(entries)
            let back = try parseTOML(text)
            // Then
            #expect(back.count == entries.count)
            for (key, value) in entries where back[key] != value {
                Issue.record("\(key.debugDescription) = \(value) came back as \(String(describing: back[key])) from:\n\(text)")
            }
        }
    }

    @Test("setting a key changes its one line and keeps every other line and comment")
    func settingAKeyKeepsTheRest() throws {
        let text = "# my gym\nunit = \"kg\"   # what I lift in\n\n[plates]\n# the home gym\nkg_bar = 20\n"
        // A key that is set gets the new value on its line, its comment kept
        #expect(try settingTOML(text, key: "unit", to: .string("lb"))
                == "# my gym\nunit = \"lb\"   # what I lift in\n\n[plates]\n# the home gym\nkg_bar = 20\n")
        // A new top-level key goes after the top-level keys, not into the last table
        #expect(try settingTOML(text, key: "rest_seconds", to: .integer(150))
                == "# my gym\nunit = \"kg\"   # what I lift in\nrest_seconds = 150\n\n[plates]\n# the home gym\nkg_bar = 20\n")
        // A new key of a table goes beside its keys; one of a table not there, into a new table
        #expect(try settingTOML(text, key: "plates.lb_bar", to: .integer(35))
                == "# my gym\nunit = \"kg\"   # what I lift in\n\n[plates]\n# the home gym\nkg_bar = 20\nlb_bar = 35\n")
        #expect(try settingTOML(text, key: "sync.interval", to: .integer(60))
                == text + "\n[sync]\ninterval = 60\n")
        // Into an empty file, and beside a dotted top-level key
        #expect(try settingTOML("", key: "unit", to: .string("lb")) == "unit = \"lb\"\n")
        #expect(try settingTOML("sync.auto = false\n", key: "sync.interval", to: .integer(60)) == "sync.auto = false\nsync.interval = 60\n")
        // A value typed on the command line is TOML when it reads as TOML, else a string
        #expect(typedTOMLValue("lb") == .string("lb"))
        #expect(typedTOMLValue("2:30") == .string("2:30"))
        #expect(typedTOMLValue("180") == .integer(180))
        #expect(typedTOMLValue("true") == .bool(true))
        #expect(typedTOMLValue("\"3:00\"") == .string("3:00"))
        #expect(typedTOMLValue("25x4, 20x2") == .string("25x4, 20x2"))
    }
}
