import ArgumentParser
import Foundation
import GymLogCore
import GymLogTOML

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Read and change the settings in config.toml: get, set, list.",
        discussion: """
        The settings `gymlog --help` lists, in $GYMLOG_CONFIG, else \
        $XDG_CONFIG_HOME/gymlog/config.toml. `set` changes the key's one line (or adds it \
        under its table) and keeps every other line and comment; a value gymlog would refuse \
        is refused before the file is touched. A `GYMLOG_<KEY>` variable (GYMLOG_UNIT, \
        GYMLOG_SYNC_AUTO) overrides the file's value while it is set; `list` says which do.

          gymlog config set unit lb
          gymlog config get unit
          gymlog config set rest_seconds 2:30
          gymlog config set plates.lb "45x4, 25x2, 10x2, 5x2, 2.5x2"
          gymlog config list
        """,
        subcommands: [ListConfig.self, GetConfig.self, SetConfig.self],
        defaultSubcommand: ListConfig.self
    )

    /// The config setting named `key`, or an error naming the nearest one.
    static func setting(_ key: String) throws -> Setting {
        if let setting = Setting.named(key), setting.group == .config { return setting }
        if Setting.named(key)?.group == .credentials {
            throw UserError("\(key) is saved by `gymlog login` in the credentials file, not in the config; `gymlog status` shows the server.")
        }
        let keys = Setting.all.filter { $0.group == .config }.map(\.key)
        let near = keys.map { ($0, editDistance(key.lowercased(), $0, limit: 3)) }.filter { $0.1 <= 3 }.min { $0.1 < $1.1 }?.0
        throw UserError("Unknown setting '\(key)'." + (near.map { " Did you mean `\($0)`?" } ?? "") + " `gymlog config list` lists them.")
    }

    /// A value as `get` prints it: a string without its quotes.
    static func plain(_ value: SettingValue) -> String { value.stringValue ?? value.description }

    /// The variables overriding a config setting now, by key: the variable and its value.
    static func overrides() -> [String: (variable: String, value: SettingValue)] {
        Dictionary(uniqueKeysWithValues: ConfigFile.overrides(ProcessInfo.processInfo.environment).map {
            ($0.setting.key, ($0.variable, ConfigFile.typed($0.text)))
        })
    }
}

struct ListConfig: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Show every setting's value, and which are defaults or set by a variable.")
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        let values = try ConfigFile.read(context.paths.config)
        let overrides = ConfigCommand.overrides()
        let settings = Setting.all.filter { $0.group == .config }
        let rows = settings.map { s -> (String, String) in
            if let override = overrides[s.key] {
                return ("\(s.key) = \(override.value)", "$\(override.variable)" + (values[s.key].map { ", over the file's \($0)" } ?? ""))
            }
            if let value = values[s.key] { return ("\(s.key) = \(value)", "") }
            return s.exampleOnly ? ("\(s.key)", "not set (e.g. \(s.shown))") : ("\(s.key) = \(s.shown)", "default")
        }
        let width = TerminalText.columns(rows.map(\.0))
        context.print("# \(context.paths.config)")
        for (left, note) in rows { context.print(note.isEmpty ? left : TerminalText.pad(left, to: width) + "  # " + note) }
    }
}

struct GetConfig: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "get", abstract: "Print one setting's value: its GYMLOG_ variable's, the file's, else the default.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The setting, e.g. unit or plates.lb_bar.", valueName: "key")) var key: String

    func run(in context: CLIContext) async throws {
        let setting = try ConfigCommand.setting(key)
        if let value = try ConfigCommand.overrides()[setting.key]?.value ?? ConfigFile.read(context.paths.config)[setting.key] {
            return context.print(ConfigCommand.plain(value))
        }
        guard !setting.exampleOnly else {
            throw UserError("\(setting.key) is not set in \(context.paths.config); "
                + "`gymlog config set \(setting.key) \(ConfigCommand.plain(ConfigFile.typed(setting.shown)))` sets it.")
        }
        context.print(ConfigCommand.plain(ConfigFile.typed(setting.shown)))
    }
}

struct SetConfig: ChangesSettings {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Change one setting in config.toml, keeping the file's other lines and comments.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The setting, e.g. unit or plates.lb_bar.", valueName: "key")) var key: String
    @Argument(help: ArgumentHelp("Its value: lb, 180, 2:30, true, \"45x4, 25x2\".", valueName: "value")) var value: [String] = []

    func run(in context: CLIContext) async throws {
        let setting = try ConfigCommand.setting(key)
        guard !value.isEmpty else {
            throw UserError("`config set \(setting.key)` needs a value, e.g. `gymlog config set \(setting.key) \(ConfigCommand.plain(ConfigFile.typed(setting.shown)))`.")
        }
        let typed = ConfigFile.typed(value.joined(separator: " "))
        var reading = Setting.Reading()
        do { try setting.read(typed, &reading) } catch {
            throw UserError("\(setting.key) = \(typed)\(error.words) Nothing was changed.")
        }
        let path = context.paths.config
        let old = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let new: String
        do { new = try ConfigEdit.setting(old, key: setting.key, to: typed, path: path) } catch {
            throw UserError("\(error) (Fix the file first; nothing was changed.)")
        }
        // Read whole, as the next command will: a kg bar with lb plates and the like.
        let values = try SettingsFile.entries(new, path: path)
        _ = try ConfigFile.settings(from: Dictionary(values.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }), path: path)
        try ConfigFile.saveConfig(new, to: path)
        let overridden = ConfigCommand.overrides()[setting.key].map { " $\($0.variable) overrides it while it is set." } ?? ""
        context.print("\(setting.key) = \(typed) in \(path)." + overridden)
    }
}
