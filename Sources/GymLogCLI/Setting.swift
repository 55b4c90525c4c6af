import Foundation
import GymLogCore
import GymLogTOML

/// One key of `config.toml`: its name, the value `--help` shows, what it does and how a value
/// is read and checked. `Setting.all` is the one list of them: `ConfigFile` loads and validates
/// the file and the `GYMLOG_<KEY>` variables through it, `gymlog --help` (so the man page,
/// generated from it) lists it, and it makes the README's example config.
struct Setting: Sendable {
    /// Which section of `--help` lists the key.
    enum Group: Sendable {
        /// A setting of the user's config.
        case config
        /// A `[sync]` key an older gymlog wrote into the config; `gymlog login` now saves it in
        /// the credentials file, under the same name without `sync.`.
        case credentials
    }

    /// Why a value was refused: the words after `key = value` in the error
    /// (` must be true or false.`).
    struct Refusal: Error { let words: String }

    /// The settings being read, with the bars and plates kept apart until the end: each is its
    /// own key, but a unit's bar and plates make one inventory, set in any order.
    struct Reading {
        var settings = Settings()
        var bars: [WeightUnit: Fixed] = [:]
        var plates: [WeightUnit: [PlateCount]] = [:]

        /// The settings, with each unit's inventory made of the bar and plates read (the
        /// standard ones for what was not set).
        func finished() -> Settings {
            var s = settings
            for unit in WeightUnit.allCases where bars[unit] != nil || plates[unit] != nil {
                let standard = PlateInventory.standard(unit)
                let inventory = PlateInventory(bar: bars[unit] ?? standard.bar, plates: plates[unit] ?? standard.plates)
                switch unit {
                case .kg: s.kilogramPlates = inventory
                case .lb: s.poundPlates = inventory
                }
            }
            return s
        }
    }

    /// The full key, `idle_gap_minutes` or `plates.kg`.
    let key: String
    /// The value `--help` shows after `key = `, spelled as TOML: the default where there is one,
    /// else an example.
    let shown: String
    /// What the key does, one sentence for `--help`, which wraps it.
    let help: String
    let group: Group
    /// `shown` is an example, not what an unset key means (`rest_seconds`: none).
    let exampleOnly: Bool
    /// Reads `value` into `reading`, or refuses it.
    let read: @Sendable (SettingValue, inout Reading) throws(Refusal) -> Void

    init(_ key: String, shown: String, help: String, group: Group = .config, exampleOnly: Bool = false,
         read: @escaping @Sendable (SettingValue, inout Reading) throws(Refusal) -> Void) {
        self.key = key; self.shown = shown; self.help = help; self.group = group; self.exampleOnly = exampleOnly || group == .credentials
        self.read = read
    }
}

extension Setting {
    /// Every key, in the order `--help` lists them and the unknown-key error names them.
    static let all: [Setting] = [
        choice("unit", default: Settings().defaultUnit.rawValue, \.defaultUnit, refusal: "is not a unit",
               help: "a bare weight's unit, and the unit of totals:") { WeightUnit(spelling: Substring($0)) },
        choice("e1rm_formula", default: Settings().e1rmFormula.rawValue, \.e1rmFormula, refusal: "is not known",
               help: "the estimated one-rep max:") { E1RMFormula(rawValue: $0.lowercased()) },
        wholeNumber("idle_gap_minutes", \.idleGapMinutes, of: "minutes", range: 1...(7 * 24 * 60),
                    help: "a workout ends this long after its last set"),
        Setting("rest_seconds", shown: quoted("3:00"),
                help: "the rest the REPL prompt counts to between sets (unset: none; a routine line's `rest` wins)", exampleOnly: true) { value, reading throws(Refusal) in
            // A number of seconds, or a time as a routine's `rest` takes it ("3:00", "90s").
            let seconds = value.integerValue.map { Int(clamping: $0) } ?? value.stringValue.flatMap { try? RoutineParser.restSeconds($0).get() }
            guard let seconds, seconds >= 1, seconds <= PlannedExercise.maxRestSeconds else {
                throw Refusal(words: " must be a rest from 1 second to 60:00: seconds (rest_seconds = 180) or a time (rest_seconds = \"3:00\").")
            }
            reading.settings.restSeconds = seconds
        },
        flag("show_plates", \.showPlates, help: "true shows the plates of each `warmup` step, planned set and `next`"),
        bar(.kg, help: "the bar for loads in kg (`plates`, `warmup`)"),
        plates(.kg, help: "its plates: weight x how many per side"),
        bar(.lb, help: "the same for loads in lb"),
        plates(.lb, help: ""),
        ownBar(.kg, "ez", \.ezBar, help: "the EZ curl bar's weight in kg, for exercises done with one"),
        ownBar(.lb, "ez", \.ezBar, help: "the same in lb"),
        ownBar(.kg, "trap", \.trapBar, help: "the trap (hex) bar's weight in kg"),
        ownBar(.lb, "trap", \.trapBar, help: "the same in lb"),
        step(.kg, "round", what: "the step planned loads round to", example: "2.5",
             help: "planned loads and barbell warm-ups in kg round to this step (unset: to what the plates make)") { $0.kilogramRoundTo = $1 },
        step(.lb, "round", what: "the step planned loads round to", example: "5", help: "the same in lb") { $0.poundRoundTo = $1 },
        step(.kg, "dumbbell_step", what: "the step between your dumbbells", example: "2.5",
             help: "the step between your dumbbells in kg: dumbbell warm-ups round to it") { $0.kilogramDumbbellStep = $1 },
        step(.lb, "dumbbell_step", what: "the step between your dumbbells", example: "5",
             help: "the same in lb") { $0.poundDumbbellStep = $1 },
        Setting("warmup.ramp", shown: quoted(rampText(WarmupRamp.defaultSteps)),
                help: "`warmup`'s steps: the bar or a share of the working weight, x reps") { value, reading throws(Refusal) in
            let example = "warmup.ramp = \(quoted(rampText(WarmupRamp.defaultSteps)))"
            guard let text = value.stringValue else { throw Refusal(words: " must be a quoted list of steps, e.g. \(example).") }
            switch WarmupRamp.parseSteps(text) {
            case .success(let steps): reading.settings.warmupSteps = steps
            case .failure(let e): throw Refusal(words: " \(e.message); e.g. \(example).")
            }
        },
        Setting("stats.secondary_weight", shown: "\(Settings().secondaryMuscleWeight)",
                help: "what a working set counts for each secondary muscle in `stats --by muscle` (a primary muscle's counts 1)") { value, reading throws(Refusal) in
            guard let weight = exactNumber(value), weight.thousandths >= 0, weight <= Fixed(1) else {
                throw Refusal(words: " must be a number from 0 to 1 with at most 3 decimals, e.g. stats.secondary_weight = 0.5.")
            }
            reading.settings.secondaryMuscleWeight = weight
        },
        wholeNumber("stats.muscle_sets_low", \.muscleSetsLow, of: "sets", range: 0...100,
                    help: "`stats --by muscle` marks a muscle trained fewer sets than this in a week"),
        wholeNumber("stats.muscle_sets_high", \.muscleSetsHigh, of: "sets", range: 1...200,
                    help: "and one trained more sets than this"),
        flag("sync.auto", \.autoSync,
             help: "once logged in, each change is synced in the background by itself (false: only by `gymlog sync`)"),
        wholeNumber("sync.interval", \.syncIntervalSeconds, of: "seconds", range: 30...(24 * 3600),
                    help: "seconds between pulls of other devices' changes, and the longest a failed sync waits before it is tried again"),
        Setting("sync.server", shown: quoted("URL"), help: "the sync server", group: .credentials) { value, reading in
            reading.settings.server = value.stringValue
        },
        Setting("sync.token", shown: quoted("glt_..."), help: "the account's token", group: .credentials) { value, reading in
            reading.settings.token = value.stringValue
        },
        Setting("sync.account", shown: quoted("NAME"), help: "the account's user name on the server", group: .credentials) { value, reading in
            reading.settings.account = value.stringValue
        },
        Setting("sync.key", shown: quoted("24 words"), help: "the recovery phrase of the account's key, when its history is encrypted end to end (credentials file only)",
                group: .credentials) { value, reading throws(Refusal) in
            // Its words are checked where the key is used (`Settings.valueSeal`), which names the fix.
            guard let phrase = value.stringValue else { throw Refusal(words: " must be the quoted recovery phrase `gymlog key` shows.") }
            reading.settings.accountKey = phrase
        },
        Setting("sync.ca_certificate", shown: quoted("-----BEGIN CERTIFICATE-----..."),
                help: "certificates trusted besides the system's (`login --ca-file`)",
                group: .credentials) { value, reading throws(Refusal) in
            guard let pem = value.stringValue, pem.contains("-----BEGIN CERTIFICATE-----") else {
                throw Refusal(words: " must be the quoted PEM text of certificates; run `gymlog login --ca-file FILE` again to save the server's certificate.")
            }
            reading.settings.caCertificate = pem
        },
        // gymlog 0.11.0 saved the path of the file; it is still read, and replaced at the next login.
        Setting("sync.ca_file", shown: quoted("FILE"), help: "their file, as gymlog 0.11.0 saved it",
                group: .credentials) { value, reading throws(Refusal) in
            guard let file = value.stringValue, file.hasPrefix("/") else {
                throw Refusal(words: " must be the quoted absolute path of a PEM file; run `gymlog login --ca-file FILE` again to save the certificate itself.")
            }
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw Refusal(words: ": there is no readable file at \(file); run `gymlog login --ca-file FILE` again with the server's certificate, which then saves the certificate itself, not its path.")
            }
            reading.settings.caFile = file
        },
    ]

    /// Every key's name.
    static let keys = all.map(\.key)

    /// The environment variable that overrides a config setting, as atuin's `ATUIN_*` do: the
    /// key upper-cased, its dots and dashes as underscores (`sync.auto`: `GYMLOG_SYNC_AUTO`).
    /// The credential keys have none: `gymlog login` saves them.
    var variable: String? {
        guard group == .config else { return nil }
        return "GYMLOG_" + String(key.uppercased().map { $0 == "." || $0 == "-" ? "_" : $0 })
    }

    /// The setting named `key`, or nil for a key gymlog does not know.
    static func named(_ key: String) -> Setting? { all.first { $0.key == key } }

    /// The `group` settings as `--help` lists them: `key = shown` and what it does beside it, or
    /// under it when the value is too long to leave room.
    static func helpText(_ group: Group) -> String {
        let helpColumn = 26, helpWidth = 48
        let indent = String(repeating: " ", count: helpColumn)
        return all.filter { $0.group == group }.flatMap { setting -> [String] in
            let left = "\(setting.key) = \(setting.shown)"
            let help = wrapped(setting.help, width: helpWidth)
            guard left.count + 2 <= helpColumn, let first = help.first else { return [left] + help.map { indent + $0 } }
            return [left.padding(toLength: helpColumn, withPad: " ", startingAt: 0) + first] + help.dropFirst().map { indent + $0 }
        }.map { "  " + $0 }.joined(separator: "\n")
    }

    /// A config file setting every config key to the value `--help` shows, each under its help
    /// and the variable that overrides it, keys of a table under its header; a key whose
    /// value is an example is commented out. The README's example is this text, as a test checks.
    static func exampleConfig() -> String {
        var out = "", table = ""
        for setting in all where setting.group == .config {
            let parts = setting.key.split(separator: ".").map(String.init)
            let here = parts.dropLast().joined(separator: ".")
            if here != table {
                out += "\n[\(here)]\n"
                table = here
            }
            let help = setting.help.isEmpty ? "" : setting.help + " "
            out += wrapped(help + "(\(setting.variable!))", width: 88).map { "# \($0)\n" }.joined()
            out += (setting.exampleOnly ? "# " : "") + "\(parts.last!) = \(setting.shown)\n"
        }
        return out
    }

    /// `text` in lines of at most `width` characters, broken between words but not inside a
    /// parenthesis, so `(1 to 10080)` reads as one aside.
    static func wrapped(_ text: String, width: Int) -> [String] {
        var words: [String] = []
        for word in text.split(separator: " ").map(String.init) {
            if let last = words.last, last.hasPrefix("("), !last.hasSuffix(")") {
                words[words.count - 1] = last + " " + word
            } else {
                words.append(word)
            }
        }
        var lines: [String] = []
        for word in words {
            if let last = lines.last, last.count + 1 + word.count <= width {
                lines[lines.count - 1] = last + " " + word
            } else {
                lines.append(String(word))
            }
        }
        return lines
    }

    // MARK: The kinds of value

    /// One of a few words, read by `parse` into the `Settings` field at `path`; the accepted
    /// words are those of `T`'s cases.
    static func choice<T: CaseIterable & RawRepresentable & Sendable>(
        _ key: String, default shown: String, _ path: WritableKeyPath<Settings, T> & Sendable, refusal: String, help: String,
        parse: @escaping @Sendable (String) -> T?
    ) -> Setting where T.RawValue == String {
        let words = T.allCases.map { quoted($0.rawValue) }.joined(separator: " or ")
        return Setting(key, shown: quoted(shown), help: help + " " + words) { value, reading throws(Refusal) in
            guard let text = value.stringValue, let chosen = parse(text) else { throw Refusal(words: " \(refusal); use \(words).") }
            reading.settings[keyPath: path] = chosen
        }
    }

    /// A whole number within `range`, counted in `unit`.
    static func wholeNumber(_ key: String, _ path: WritableKeyPath<Settings, Int> & Sendable, of unit: String, range: ClosedRange<Int>,
                            help: String) -> Setting {
        Setting(key, shown: "\(Settings()[keyPath: path])", help: help + " (\(range.lowerBound) to \(range.upperBound))") { value, reading throws(Refusal) in
            guard let n = value.integerValue, n >= range.lowerBound, n <= range.upperBound else {
                throw Refusal(words: " must be a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound).")
            }
            reading.settings[keyPath: path] = Int(n)
        }
    }

    /// `true` or `false`.
    static func flag(_ key: String, _ path: WritableKeyPath<Settings, Bool> & Sendable, help: String) -> Setting {
        Setting(key, shown: "\(Settings()[keyPath: path])", help: help) { value, reading throws(Refusal) in
            guard let b = value.boolValue else { throw Refusal(words: " must be true or false.") }
            reading.settings[keyPath: path] = b
        }
    }

    /// `plates.kg_bar`: the bar's weight in `unit`, at most the heaviest item an inventory holds.
    static func bar(_ unit: WeightUnit, help: String) -> Setting {
        let key = "plates.\(unit.rawValue)_bar"
        return Setting(key, shown: "\(PlateInventory.standard(unit).bar)", help: help) { value, reading throws(Refusal) in
            guard let bar = exactNumber(value), bar.thousandths >= 0, bar <= PlateInventory.Limits.heaviestItem else {
                throw Refusal(words: " must be the bar's weight in \(unit.rawValue), a number from 0 to \(PlateInventory.Limits.heaviestItem) "
                    + "with at most 3 decimals, e.g. \(key) = \(PlateInventory.standard(unit).bar).")
            }
            reading.bars[unit] = bar
        }
    }

    /// `plates.kg_ez_bar`: another bar's weight in `unit` (the plates are the barbell's).
    static func ownBar(_ unit: WeightUnit, _ name: String, _ path: WritableKeyPath<Settings, PerUnit<Fixed>> & Sendable,
                       help: String) -> Setting {
        let key = "plates.\(unit.rawValue)_\(name)_bar", standard = Settings()[keyPath: path][unit]
        return Setting(key, shown: "\(standard)", help: help) { value, reading throws(Refusal) in
            guard let bar = exactNumber(value), bar.thousandths >= 0, bar <= PlateInventory.Limits.heaviestItem else {
                throw Refusal(words: " must be the bar's weight in \(unit.rawValue), a number from 0 to \(PlateInventory.Limits.heaviestItem) "
                    + "with at most 3 decimals, e.g. \(key) = \(standard).")
            }
            reading.settings[keyPath: path][unit] = bar
        }
    }

    /// `plates.kg`: the plates in `unit`, each weight x how many per side.
    static func plates(_ unit: WeightUnit, help: String) -> Setting {
        let key = "plates.\(unit.rawValue)"
        let standard = quoted(PlateInventory.standard(unit).platesText)
        return Setting(key, shown: standard, help: help) { value, reading throws(Refusal) in
            let example = "\(key) = \(standard) (each plate in \(unit.rawValue), x how many per side)"
            guard let text = value.stringValue else { throw Refusal(words: " must be a quoted list of plates, e.g. \(example).") }
            switch PlateInventory.parsePlates(text) {
            case .success(let list): reading.plates[unit] = list
            case .failure(let e): throw Refusal(words: " \(e.message); e.g. \(example).")
            }
        }
    }

    /// A step in `unit` (`plates.lb_round`, `plates.kg_dumbbell_step`): above 0 and at most 100.
    static func step(_ unit: WeightUnit, _ name: String, what: String, example: String, help: String,
                     set: @escaping @Sendable (inout Settings, Fixed) -> Void) -> Setting {
        let key = "plates.\(unit.rawValue)_\(name)"
        // Unset, planned loads round to what the plates make: `round`'s value is an example;
        // the dumbbell step's is the default.
        return Setting(key, shown: example, help: help, exampleOnly: name == "round") { value, reading throws(Refusal) in
            guard let step = exactNumber(value), step.thousandths > 0, step <= Fixed(100) else {
                throw Refusal(words: " must be \(what) in \(unit.rawValue), a number above 0 and at most 100 "
                    + "with at most 3 decimals, e.g. \(key) = \(example).")
            }
            set(&reading.settings, step)
        }
    }

    /// `text` as a TOML string, `"kg"`.
    static func quoted(_ text: String) -> String { SettingsFile.quoted(text) }

    /// Warm-up steps as `warmup.ramp` spells them.
    static func rampText(_ steps: [WarmupStep]) -> String { steps.map(\.description).joined(separator: ", ") }

    /// A TOML integer or float as an exact `Fixed`, or nil when it is neither or has more than
    /// three decimals (`20`, `15.5`, `2.25`; a float is read back through its shortest decimal
    /// spelling, so 15.5 is 15.5 and not 15.4999).
    static func exactNumber(_ value: SettingValue) -> Fixed? {
        switch value {
        case .integer(let i): return i >= 0 && i <= 1_000_000 ? Fixed(Int(i)) : nil
        case .float(let d):
            guard d.isFinite, d >= 0, d <= 1_000_000 else { return nil }
            return Fixed(parsing: "\(d)")
        default: return nil
        }
    }
}
