import Foundation
import GymLogCore
import GymLogStore

/// Reads `config.toml` (which only `gymlog config set` writes, one line at a time) and reads and
/// writes the sync credentials file. Unknown keys and bad values are errors that name the
/// file, the line's key and what is accepted, so a typo never silently changes nothing.
public enum ConfigFile {
    /// The keys of the credentials file, each read as the `[sync]` key of the same name.
    static let credentialKeys = Setting.all.filter { $0.group == .credentials }.map { String($0.key.dropFirst(syncPrefix.count)) }
    private static let syncPrefix = "sync."

    /// The settings in the config at `path`, with the sync server, token and CA file from the
    /// credentials file when it exists. Without one, an older config's `[sync]` lines are used
    /// (written there by gymlog before the credentials moved out); once it exists they are ignored.
    public static func load(_ path: String, credentials: String? = nil) throws -> Settings {
        let config = try read(path)
        if let line = config.lines["sync.key"] {
            throw UserError("\(path), line \(line): the account key does not belong in the config file, which may be shared or "
                + "backed up in the clear; delete the line. `gymlog login` keeps the key in the credentials file (mode 0600).")
        }
        var settings = try settings(from: config.values, path: path, lines: config.lines)
        guard let credentials, FileManager.default.fileExists(atPath: credentials) else {
            try readOldCAFile(&settings, path: path)
            return settings
        }
        let saved = try read(credentials)
        for key in saved.values.keys where !credentialKeys.contains(key) {
            throw UserError("\(credentials): unknown key '\(key)'; this file holds only \(credentialKeys.joined(separator: ", ")) "
                + "(written by `gymlog login`).")
        }
        // Errors name the key as the file spells it (`ca_file`, not `sync.ca_file`).
        let fromLogin = try self.settings(from: Dictionary(uniqueKeysWithValues: saved.values.map { (syncPrefix + $0.key, $0.value) }), path: credentials,
                                          lines: Dictionary(uniqueKeysWithValues: saved.lines.map { (syncPrefix + $0.key, $0.value) }),
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

    /// The keys and values of the TOML file at `path`, and the 1-based line each is set on;
    /// none when there is no file.
    static func read(_ path: String) throws -> (values: [String: TOMLValue], lines: [String: Int]) {
        guard let data = FileManager.default.contents(atPath: path) else { return ([:], [:]) }
        do {
            // The reader refuses a key set twice, so each key has one value and one line.
            let entries = try parseTOMLLines(String(decoding: data, as: UTF8.self))
            return (Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) }), Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.line) }))
        } catch { throw UserError("\(path): \(error)") }
    }

    /// Whether the config at `path` still holds the `[sync]` server or token an older gymlog wrote there.
    public static func hasOldSyncLines(_ path: String) -> Bool {
        guard let values = try? read(path).values else { return false }
        return values["sync.server"] != nil || values["sync.token"] != nil
    }

    /// The settings `values` hold, read through `Setting.all`. A bad value or an unknown key
    /// names `path` and the line it is on (from `lines`), so the user goes straight to it.
    static func settings(from values: [String: TOMLValue], path: String, lines: [String: Int] = [:],
                         shown: (String) -> String = { $0 }) throws -> Settings {
        var reading = Setting.Reading()
        for (key, value) in values {
            let place = lines[key].map { "\(path), line \($0)" } ?? path
            guard let setting = Setting.named(key) else {
                throw UserError("\(place): unknown setting '\(key)'; known settings are \(Setting.keys.joined(separator: ", ")).")
            }
            do { try setting.read(value, &reading) } catch { throw UserError("\(place): \(shown(key)) = \(value)\(error.words)") }
        }
        return reading.finished()
    }

    /// Writes the credentials file at `path` (`gymlog login`; `logout` writes it without the
    /// server and token, so an older config's `[sync]` lines do not log the user back in).
    /// Written to a temporary file with mode 0600 and renamed, so a crash never leaves half a
    /// file and the token is never readable by others. The user's config is never touched.
    public static func saveCredentials(_ path: String, server: String?, token: String?, caCertificate: String?,
                                       account: String?, key: String?) throws {
        var entries: [(key: String, value: TOMLValue)] = []
        if let server { entries.append(("server", .string(server))) }
        if let token { entries.append(("token", .string(token))) }
        // The certificate itself, never a path: the file may go once the device logged in.
        if let caCertificate { entries.append(("ca_certificate", .string(caCertificate))) }
        if let account { entries.append(("account", .string(account))) }
        if let key { entries.append(("key", .string(key))) }
        // A bare file name lives in the current directory.
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty {
            do { try OwnerOnlyFiles.makeFolder(dir) } catch {
                throw UserError("Cannot create the directory \(dir) for the sync credentials: \(error.localizedDescription)")
            }
        }
        let text = "# gymlog's sync credentials, written by `gymlog login` and `gymlog logout` (mode 0600).\n"
            + "# Settings belong in config.toml (`gymlog config set`).\n" + renderTOML(entries)
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
