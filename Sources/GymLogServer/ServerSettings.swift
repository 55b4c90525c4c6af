import Foundation
import GymLogCore
import GymLogServerCore
import GymLogServerPostgres
import GymLogTOML

/// Where a server's settings come from besides its flags (issue 49): a TOML file
/// (`serve --config FILE`, or `GYMLOG_SERVER_CONFIG`) and `GYMLOG_SERVER_*` environment
/// variables, so a systemd unit or a container can keep them (and the PostgreSQL password)
/// out of the command line. Each setting is a flag of `serve` under its long name, so the
/// flags stay the one table of settings: the file's `max-connections = 100` and
/// `GYMLOG_SERVER_MAX_CONNECTIONS=100` become `--max-connections 100` before the command line
/// is parsed, and ArgumentParser checks and documents them alike. A flag given on the command
/// line wins over the environment, which wins over the file.
enum ServerSettings {
    /// The environment variable naming the config file, when `--config` is not given.
    static let configVariable = "GYMLOG_SERVER_CONFIG"
    /// The PostgreSQL password, read where the `--db` URL has none (before `PGPASSWORD`); never a flag.
    static let passwordVariable = PostgresURL.passwordVariable
    static let prefix = "GYMLOG_SERVER_"
    /// The subcommands; a command line that names none runs `serve`.
    static let commands: Set<String> = ["serve", "user", "backup", "restore"]

    /// The command line to parse, with the settings of the file and the environment put in
    /// as flags, and where each of those came from (`max-connections` → `GYMLOG_SERVER_MAX_CONNECTIONS`).
    /// Only `serve` takes them all; the admin commands take `db` alone, so `user add` finds
    /// the database the service uses.
    static func arguments(_ given: [String], environment: [String: String],
                          read: (String) throws -> String = { try String(contentsOfFile: $0, encoding: .utf8) })
        throws -> (arguments: [String], origins: [String: String]) {
        if given.contains(where: { ["--help", "-h", "--version", "help"].contains($0) }) { return (given, [:]) }
        let command = given.first.flatMap { commands.contains($0) ? $0 : nil }
        let rest = command == nil ? given : Array(given.dropFirst())
        let onCommandLine = Set(rest.compactMap(flagName))
        var settings: [(key: String, values: [String], origin: String)] = []

        let configPath = value(of: "config", in: rest) ?? environment[configVariable].flatMap { $0.isEmpty ? nil : $0 }
        if let path = configPath {
            let text: String
            do { text = try read(path) } catch {
                throw ServerSetupError("cannot read the config file \(path): \((error as NSError).localizedDescription.trimmingCharacters(in: CharacterSet(charactersIn: ".")))). Give the path of a readable TOML file to --config (or \(configVariable)).")
            }
            let entries: [(key: String, value: SettingValue)]
            do { entries = try SettingsFile.entries(text, path: path) } catch {
                throw ServerSetupError("\(error)")
            }
            for entry in entries {
                let key = entry.key.replacingOccurrences(of: "_", with: "-")
                guard !key.contains("."), key != "config" else {
                    throw ServerSetupError("\(path): \(entry.key) is not a setting: the file holds serve's flags by their long names, at the top (port = 8080, db = \"sqlite:/var/lib/gymlog/server.sqlite\"), without tables.")
                }
                settings.append((key, values(entry.value), "\(entry.key) in \(path)"))
            }
        }
        for (name, text) in environment.sorted(by: { $0.key < $1.key }) where name.hasPrefix(prefix) && name != configVariable && name != passwordVariable {
            let key = name.dropFirst(prefix.count).lowercased().replacingOccurrences(of: "_", with: "-")
            guard !key.isEmpty else { continue }
            let value: SettingValue = text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
            settings.removeAll { $0.key == key }
            settings.append((key, values(value), name))
        }

        var extra: [String] = []
        var origins: [String: String] = [:]
        for setting in settings where !onCommandLine.contains(setting.key) && (command == nil || command == "serve" || setting.key == "db") {
            origins[setting.key] = setting.origin
            extra += setting.values.isEmpty ? [] : setting.values == [""] ? ["--\(setting.key)"] : setting.values.flatMap { ["--\(setting.key)", $0] }
        }
        // After the command's own words: the admin commands' flags belong to their subcommands (`user add`).
        return ([command ?? "serve"] + rest + extra, origins)
    }

    /// A value as the words after its flag: `true` is the bare flag (`[""]`), `false` none, a
    /// string with commas (`trusted-proxy = "127.0.0.1, ::1"`) one flag per item.
    private static func values(_ value: SettingValue) -> [String] {
        switch value {
        case .bool(true): return [""]
        case .bool(false): return []
        case .string(let s) where s.contains(","):
            return s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        case .string(let s): return [s]
        default: return [value.description]
        }
    }

    /// `--max-connections` of `--max-connections=5` or `--max-connections`; nil for other words.
    private static func flagName(_ word: String) -> String? {
        guard word.hasPrefix("--"), word.count > 2 else { return nil }
        return String(word.dropFirst(2).prefix { $0 != "=" })
    }

    /// The value given to `--name` on the command line, as `--name V` or `--name=V`.
    private static func value(of name: String, in words: [String]) -> String? {
        for (i, word) in words.enumerated() {
            if word == "--\(name)", i + 1 < words.count { return words[i + 1] }
            if word.hasPrefix("--\(name)=") { return String(word.dropFirst(name.count + 3)) }
        }
        return nil
    }

    /// The sentence naming where a flag an error mentions came from, if not the command line.
    static func origin(of message: String, _ origins: [String: String]) -> String? {
        origins.sorted { $0.key.count > $1.key.count }.first { message.contains("--\($0.key)") }
            .map { "--\($0.key) came from \($0.value)." }
    }
}
