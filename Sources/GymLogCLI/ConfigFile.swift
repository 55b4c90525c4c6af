import Foundation
import GymLogCore

/// Reads `config.toml` (never writes it) and reads and writes the sync credentials file. Unknown keys and bad values are errors that name the
/// file, the line's key and what is accepted, so a typo never silently changes nothing.
public enum ConfigFile {
    public static let keys = ["unit", "e1rm_formula", "idle_gap_minutes", "rest_seconds", "show_plates", "plates.kg_bar", "plates.kg",
                              "plates.lb_bar", "plates.lb", "warmup.ramp", "sync.server", "sync.token", "sync.ca_file"]

    /// The keys of the credentials file, each read as the `[sync]` key of the same name.
    public static let credentialKeys = ["server", "token", "ca_file"]

    /// The settings in the config at `path`, with the sync server, token and CA file from the
    /// credentials file when it exists. Without one, an older config's `[sync]` lines are used
    /// (written there by gymlog before the credentials moved out); once it exists they are ignored.
    public static func load(_ path: String, credentials: String? = nil) throws -> Settings {
        var settings = try settings(from: read(path), path: path, lines: lines(path))
        guard let credentials, FileManager.default.fileExists(atPath: credentials) else { return settings }
        let saved = try read(credentials)
        for key in saved.keys where !credentialKeys.contains(key) {
            throw UserError("\(credentials): unknown key '\(key)'; this file holds only \(credentialKeys.joined(separator: ", ")) "
                + "(written by `gymlog login`).")
        }
        let fromLogin = try self.settings(from: Dictionary(uniqueKeysWithValues: saved.map { ("sync." + $0.key, $0.value) }), path: credentials,
                                          lines: Dictionary(uniqueKeysWithValues: lines(credentials).map { ("sync." + $0.key, $0.value) }))
        settings.server = fromLogin.server; settings.token = fromLogin.token; settings.caFile = fromLogin.caFile
        return settings
    }

    /// The keys and values of the TOML file at `path`; none when there is no file.
    static func read(_ path: String) throws -> [String: TOMLValue] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        do { return try parseTOML(String(decoding: data, as: UTF8.self)) } catch { throw UserError("\(path): \(error)") }
    }

    /// The 1-based line each key of the file at `path` is set on; none when it cannot be read.
    static func lines(_ path: String) -> [String: Int] {
        guard let data = FileManager.default.contents(atPath: path),
              let entries = try? parseTOMLLines(String(decoding: data, as: UTF8.self)) else { return [:] }
        return Dictionary(entries.map { ($0.key, $0.line) }) { first, _ in first }
    }

    /// Whether the config at `path` still holds the `[sync]` server or token an older gymlog wrote there.
    public static func hasOldSyncLines(_ path: String) -> Bool {
        guard let values = try? read(path) else { return false }
        return values["sync.server"] != nil || values["sync.token"] != nil
    }

    static func settings(from values: [String: TOMLValue], path: String, lines: [String: Int] = [:]) throws -> Settings {
        do { return try settingsNamingFile(from: values, path: path) } catch let error as KeyedError {
            // A bad value names the line it is on, so the user goes straight to it.
            let place = lines[error.key].map { "\(path), line \($0)" } ?? path
            throw UserError(place + error.message.dropFirst(path.count))
        }
    }

    /// A `UserError` raised while reading `key`, so the caller can add the key's line.
    struct KeyedError: Error { let key: String; let message: String }

    /// The settings `values` hold; a bad one throws `KeyedError` with a message that starts with `path`.
    static func settingsNamingFile(from values: [String: TOMLValue], path: String) throws -> Settings {
        var s = Settings()
        // The bar and the plates are separate keys but one inventory: set them in any order.
        var bars: [WeightUnit: Fixed] = [:], plates: [WeightUnit: [PlateCount]] = [:]
        for (key, value) in values {
            do {
                switch key {
                case "unit":
                    guard let text = value.stringValue, let unit = WeightUnit(spelling: Substring(text)) else {
                        throw UserError("\(path): unit = \(value) is not a unit; use \"kg\" or \"lb\".")
                    }
                    s.defaultUnit = unit
                case "e1rm_formula":
                    guard let text = value.stringValue, let f = E1RMFormula(rawValue: text.lowercased()) else {
                        throw UserError("\(path): e1rm_formula = \(value) is not known; use \"epley\" or \"brzycki\".")
                    }
                    s.e1rmFormula = f
                case "idle_gap_minutes":
                    guard let n = value.integerValue, n >= 1, n <= 7 * 24 * 60 else {
                        throw UserError("\(path): idle_gap_minutes = \(value) must be a whole number of minutes from 1 to 10080.")
                    }
                    s.idleGapMinutes = Int(n)
                case "rest_seconds":
                    // A number of seconds, or a time as a routine's `rest` takes it ("3:00", "90s").
                    let seconds = value.integerValue.map { Int(clamping: $0) }
                        ?? value.stringValue.flatMap { try? RoutineParser.restSeconds($0).get() }
                    guard let seconds, seconds >= 1, seconds <= PlannedExercise.maxRestSeconds else {
                        throw UserError("\(path): rest_seconds = \(value) must be a rest from 1 second to 60:00: seconds (rest_seconds = 180) "
                            + "or a time (rest_seconds = \"3:00\").")
                    }
                    s.restSeconds = seconds
                case "show_plates":
                    guard let b = value.boolValue else {
                        throw UserError("\(path): show_plates = \(value) must be true or false.")
                    }
                    s.showPlates = b
                case "plates.kg_bar", "plates.lb_bar":
                    let unit: WeightUnit = key == "plates.kg_bar" ? .kg : .lb
                    guard let bar = exactNumber(value), bar.thousandths >= 0, bar <= PlateInventory.Limits.heaviestItem else {
                        throw UserError("\(path): \(key) = \(value) must be the bar's weight in \(unit.rawValue), a number from 0 to "
                            + "\(PlateInventory.Limits.heaviestItem) with at most 3 decimals, e.g. \(key) = \(PlateInventory.standard(unit).bar).")
                    }
                    bars[unit] = bar
                case "plates.kg", "plates.lb":
                    let unit: WeightUnit = key == "plates.kg" ? .kg : .lb
                    let example = "\(key) = \"\(PlateInventory.standard(unit).platesText)\" (each plate in \(unit.rawValue), x how many per side)"
                    guard let text = value.stringValue else {
                        throw UserError("\(path): \(key) = \(value) must be a quoted list of plates, e.g. \(example).")
                    }
                    switch PlateInventory.parsePlates(text) {
                    case .success(let list): plates[unit] = list
                    case .failure(let e): throw UserError("\(path): \(key) = \(value) \(e.message); e.g. \(example).")
                    }
                case "warmup.ramp":
                    let example = "warmup.ramp = \"\(WarmupRamp.defaultSteps.map(\.description).joined(separator: ", "))\""
                    guard let text = value.stringValue else {
                        throw UserError("\(path): warmup.ramp = \(value) must be a quoted list of steps, e.g. \(example).")
                    }
                    switch WarmupRamp.parseSteps(text) {
                    case .success(let steps): s.warmupSteps = steps
                    case .failure(let e): throw UserError("\(path): warmup.ramp = \(value) \(e.message); e.g. \(example).")
                    }
                case "sync.server": s.server = value.stringValue
                case "sync.token": s.token = value.stringValue
                case "sync.ca_file":
                    guard let file = value.stringValue, file.hasPrefix("/") else {
                        throw UserError("\(path): sync.ca_file = \(value) must be the quoted absolute path of a PEM file, e.g. sync.ca_file = \"/etc/gymlog/server-ca.pem\".")
                    }
                    guard FileManager.default.isReadableFile(atPath: file) else {
                        throw UserError("\(path): sync.ca_file = \(value): there is no readable file at \(file); copy the server's certificate there or fix the path.")
                    }
                    s.caFile = file
                default:
                    throw UserError("\(path): unknown setting '\(key)'; known settings are \(keys.joined(separator: ", ")).")
                }
            } catch let error as UserError { throw KeyedError(key: key, message: error.message) }
        }
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

    /// A TOML integer or float as an exact `Fixed`, or nil when it is neither or has more than
    /// three decimals (`20`, `15.5`, `2.25`; a float is read back through its shortest decimal
    /// spelling, so 15.5 is 15.5 and not 15.4999).
    static func exactNumber(_ value: TOMLValue) -> Fixed? {
        switch value {
        case .integer(let i): return i >= 0 && i <= 1_000_000 ? Fixed(Int(i)) : nil
        case .float(let d):
            guard d.isFinite, d >= 0, d <= 1_000_000 else { return nil }
            return Fixed(parsing: "\(d)")
        default: return nil
        }
    }

    /// Writes the credentials file at `path` (`gymlog login`; `logout` writes it without the
    /// server and token, so an older config's `[sync]` lines do not log the user back in).
    /// Written to a temporary file with mode 0600 and renamed, so a crash never leaves half a
    /// file and the token is never readable by others. The user's config is never touched.
    public static func saveCredentials(_ path: String, server: String?, token: String?, caFile: String?) throws {
        var entries: [(key: String, value: TOMLValue)] = []
        if let server { entries.append(("server", .string(server))) }
        if let token { entries.append(("token", .string(token))) }
        if let caFile { entries.append(("ca_file", .string(caFile))) }
        // A bare file name lives in the current directory.
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty {
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw UserError("Cannot create the directory \(dir) for the sync credentials: \(error.localizedDescription)")
            }
        }
        let text = "# gymlog's sync credentials, written by `gymlog login` and `gymlog logout` (mode 0600).\n"
            + "# Settings belong in config.toml; gymlog never rewrites that file.\n" + renderTOML(entries)
        let tmp = path + ".tmp-\(getpid())"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw UserError("Cannot write \(tmp): \(String(cString: strerror(errno))).") }
        let bytes = Array(text.utf8)
        let ok = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count && fsync(fd) == 0
        close(fd)
        guard ok, rename(tmp, path) == 0 else {
            unlink(tmp)
            throw UserError("Cannot write the credentials file \(path): \(String(cString: strerror(errno))).")
        }
        chmod(path, 0o600)
    }
}
