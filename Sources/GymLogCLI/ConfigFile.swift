import Foundation
import GymLogCore
import GymLogStore
import GymLogTOML

/// Reads `config.toml` (which only `gymlog config set` writes, one line at a time), the
/// `GYMLOG_<KEY>` variables that override it, and reads and writes the sync credentials file.
/// Unknown keys and bad values are errors that name the file (or the variable), the key and
/// what is accepted, so a typo never silently changes nothing.
public enum ConfigFile {
    /// The keys of the credentials file, each read as the `[sync]` key of the same name.
    static let credentialKeys = Setting.all.filter { $0.group == .credentials }.map { String($0.key.dropFirst(syncPrefix.count)) }
    private static let syncPrefix = "sync."

    /// The settings in the config at `path`, each overridden by its `GYMLOG_<KEY>` variable in
    /// `environment`, with the sync server, token and CA file from the credentials file when it
    /// exists. Without one, an older config's `[sync]` lines are used (written there by gymlog
    /// before the credentials moved out); once it exists they are ignored.
    public static func load(_ path: String, credentials: String? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Settings {
        let config = try read(path)
        if config["sync.key"] != nil {
            throw UserError("\(path): sync.key: the account key does not belong in the config file, which may be shared or "
                + "backed up in the clear; delete the line. `gymlog login` keeps the key in the credentials file (mode 0600).")
        }
        var settings = try settings(from: config, path: path, environment: environment)
        guard let credentials, FileManager.default.fileExists(atPath: credentials) else {
            try readOldCAFile(&settings, path: path)
            return settings
        }
        let saved = try read(credentials)
        for key in saved.keys.sorted() where !credentialKeys.contains(key) {
            throw UserError("\(credentials): unknown key '\(key)'; this file holds only \(credentialKeys.joined(separator: ", ")) "
                + "(written by `gymlog login`).")
        }
        // Errors name the key as the file spells it (`ca_file`, not `sync.ca_file`).
        let fromLogin = try self.settings(from: Dictionary(uniqueKeysWithValues: saved.map { (syncPrefix + $0.key, $0.value) }), path: credentials,
                                          shown: { String($0.dropFirst(syncPrefix.count)) })
        settings.server = fromLogin.server; settings.token = fromLogin.token
        settings.caFile = fromLogin.caFile; settings.caCertificate = fromLogin.caCertificate
        try readOldCAFile(&settings, path: credentials)
        settings.account = fromLogin.account; settings.accountKey = fromLogin.accountKey
        return settings
    }

    /// The certificates of a `ca_file` path that gymlog 0.11.0 saved, read now (the next login
    /// saves them as `ca_certificate` instead).
    private static func readOldCAFile(_ settings: inout Settings, path: String) throws {
        guard settings.caCertificate == nil, let file = settings.caFile else { return }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw UserError("\(path): ca_file = \"\(file)\": the file cannot be read; run `gymlog login --ca-file FILE` again with the server's certificate, which then saves the certificate itself.")
        }
        settings.caCertificate = String(decoding: data, as: UTF8.self)
    }

    /// The keys and values of the TOML file at `path`; none when there is no file.
    static func read(_ path: String) throws -> [String: SettingValue] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        do {
            // TOML refuses a key set twice, so each key has one value.
            let entries = try SettingsFile.entries(String(decoding: data, as: UTF8.self), path: path)
            return Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        } catch { throw UserError("\(error)") }
    }

    /// Whether the config at `path` still holds the `[sync]` server or token an older gymlog wrote there.
    public static func hasOldSyncLines(_ path: String) -> Bool {
        guard let values = try? read(path) else { return false }
        return values["sync.server"] != nil || values["sync.token"] != nil
    }

    /// The settings `values` hold, read through `Setting.all`, then those of the `GYMLOG_<KEY>`
    /// variables in `environment`, which win. A bad value or an unknown key names `path` and
    /// the key (a variable, itself), so the user goes straight to it.
    static func settings(from values: [String: SettingValue], path: String, shown: (String) -> String = { $0 },
                         environment: [String: String] = [:]) throws -> Settings {
        var reading = Setting.Reading()
        // In the table's order, so the first of two bad keys is the one reported every time.
        for key in values.keys.sorted(by: { (Setting.keys.firstIndex(of: $0) ?? .max, $0) < (Setting.keys.firstIndex(of: $1) ?? .max, $1) }) {
            let value = values[key]!
            guard let setting = Setting.named(key) else {
                throw UserError("\(path): unknown setting '\(key)'; known settings are \(Setting.keys.joined(separator: ", ")).")
            }
            do { try setting.read(value, &reading) } catch { throw UserError("\(path): \(shown(key)) = \(value)\(error.words)") }
        }
        for (setting, variable, text) in overrides(environment) {
            let value = typed(text)
            do { try setting.read(value, &reading) } catch { throw UserError("\(variable)=\(SettingsFile.quoted(text))\(error.words)") }
        }
        return reading.finished()
    }

    /// A value typed after `gymlog config set KEY` or given to a `GYMLOG_<KEY>` variable: TOML
    /// when it reads as a TOML value (`true`, `180`, `2.5`, `"3:00"`), else the words as a string
    /// (`lb`, `3:00`, `20x4, 10x2`).
    static func typed(_ text: String) -> SettingValue { SettingsFile.value(text) ?? .string(text) }

    /// The config settings `environment` overrides: each setting, its `GYMLOG_<KEY>` variable and
    /// the variable's text, in the table's order. An empty variable is as good as unset (as an
    /// empty `GYMLOG_DB` is).
    static func overrides(_ environment: [String: String]) -> [(setting: Setting, variable: String, text: String)] {
        Setting.all.compactMap { setting in
            guard let variable = setting.variable, let text = environment[variable], !text.isEmpty else { return nil }
            return (setting, variable, text)
        }
    }

    /// Writes the credentials file at `path` (`gymlog login`; `logout` writes it without the
    /// server and token, so an older config's `[sync]` lines do not log the user back in).
    /// Written to a temporary file with mode 0600 and renamed, so a crash never leaves half a
    /// file and the token is never readable by others. The user's config is never touched.
    public static func saveCredentials(_ path: String, server: String?, token: String?, caCertificate: String?,
                                       account: String?, key: String?) throws {
        var entries: [(key: String, value: String)] = []
        if let server { entries.append(("server", server)) }
        if let token { entries.append(("token", token)) }
        // The certificate itself, never a path: the file may go once the device logged in.
        if let caCertificate { entries.append(("ca_certificate", caCertificate)) }
        if let account { entries.append(("account", account)) }
        if let key { entries.append(("key", key)) }
        // A bare file name lives in the current directory.
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty {
            do { try OwnerOnlyFiles.makeFolder(dir) } catch {
                throw UserError("Cannot create the directory \(dir) for the sync credentials: \(error.localizedDescription)")
            }
        }
        let text = "# gymlog's sync credentials, written by `gymlog login` and `gymlog logout` (mode 0600).\n"
            + "# Settings belong in config.toml (`gymlog config set`).\n"
            + entries.map { "\($0.key) = \(SettingsFile.quoted($0.value))\n" }.joined()
        try writeWhole(text, to: path, mode: 0o600, what: "the credentials file")
        chmod(path, 0o600)
    }

    /// Writes `text` to a temporary file beside `path` (created with `mode`, fsynced), then
    /// renames it over `path`: a crash never leaves half a file. `what` names the file in errors.
    private static func writeWhole(_ text: String, to path: String, mode: mode_t, what: String) throws {
        let tmp = path + ".tmp-\(getpid())"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, mode)
        guard fd >= 0 else { throw UserError("Cannot write \(tmp): \(String(cString: strerror(errno))); check the folder's permissions.") }
        let bytes = Array(text.utf8)
        let ok = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count && fsync(fd) == 0
        close(fd)
        guard ok, rename(tmp, path) == 0 else {
            unlink(tmp)
            throw UserError("Cannot write \(what) \(path): \(String(cString: strerror(errno))).")
        }
    }

    /// Writes `text` as the config at `path`: to a temporary file beside it, then renamed, so
    /// a crash never leaves half a file; the file keeps its mode (a new one is the umask's).
    static func saveConfig(_ text: String, to path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty { try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        var info = stat()
        let existed = stat(path, &info) == 0
        let mode = existed ? info.st_mode & 0o7777 : 0o666
        try writeWhole(text, to: path, mode: mode, what: "the config file")
        if existed { chmod(path, mode) }
    }
}
