// The client's config and credentials and the server's `serve --config FILE` are TOML, read by
// TOMLKit (toml++). Both sides read them the same way, so the reading lives here, apart from
// GymLogCore, which imports nothing but Foundation.
//
// toml++ says where a document stops being TOML (line and column) but not where a value is, so
// a value the settings refuse is named by its file and its key, which is as quick to find.

import Foundation
import GymLogCore
import TOMLKit

/// One setting's value as a file or a command line gives it: a string, a number or a
/// boolean. A list is one string with commas (`plates.kg = "25x6, 20x2"`), so arrays, dates
/// and times are refused where they are read, naming the key.
public enum SettingValue: Equatable, Sendable, CustomStringConvertible {
    case string(String)
    case integer(Int64)
    case float(Double)
    case bool(Bool)

    /// The value spelled as TOML (`"text"`, `42`, `1.5`, `true`).
    public var description: String {
        switch self {
        case .string(let s): return SettingsFile.quoted(s)
        case .integer(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        case .float(let d):
            if d.isNaN { return "nan" }
            if d.isInfinite { return d < 0 ? "-inf" : "inf" }
            // Swift prints the shortest round-tripping form (`1.0`, `0.1`, `1e-05`), all valid TOML floats.
            return "\(d)"
        }
    }

    /// The string, if this is one.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The integer, if this is one.
    public var integerValue: Int64? { if case .integer(let i) = self { i } else { nil } }
    /// The boolean, if this is one.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
}

/// A settings file that cannot be read: the sentence to show, naming the file and the line
/// and column (text that is not TOML) or the key (a value no setting takes).
public struct SettingsFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The whole sentence, starting with the file's path.
    public let message: String
    public var description: String { message }
}

/// Reads a TOML settings file into its keys and values.
public enum SettingsFile {
    /// The keys and values of `text`, the file at `path` (which errors name), each table's keys
    /// as dotted keys (`[sync]` `auto = true` is `sync.auto`), in the order of their names.
    public static func entries(_ text: String, path: String) throws(SettingsFileError) -> [(key: String, value: SettingValue)] {
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch {
            guard let parse = error as? TOMLParseError else { throw SettingsFileError(message: "\(path): \(error)") }
            throw SettingsFileError(message: "\(path), line \(parse.source.begin.line), column \(parse.source.begin.column): "
                + "\(sentence(parse.description)) \(hint(parse, in: text))")
        }
        var entries: [(key: String, value: SettingValue)] = []
        try flatten(table, prefix: "", path: path, into: &entries)
        return entries
    }

    /// The one value `text` spells when it is a TOML value (`true`, `180`, `2.5`, `"3:00"`), nil
    /// when it is not (`lb`, `3:00`, `20x4, 10x2`): what `config set` and a `GYMLOG_` variable
    /// give is TOML when it reads as such, else the words as a string.
    public static func value(_ text: String) -> SettingValue? {
        guard let table = try? TOMLTable(string: "v = " + text), table.keys == ["v"], let value = table["v"]?.tomlValue else { return nil }
        return try? scalar(value, key: "v", path: "")
    }

    /// `text` as a TOML basic string, `"kg"`. JSON's string escapes (`\"`, `\\`, `\n`,
    /// `\u00XX`) are a subset of TOML's, so the one escaper the JSON output uses writes TOML too.
    public static func quoted(_ text: String) -> String {
        var out = ""
        appendJSONString(text, to: &out)
        return out
    }

    /// A key segment, bare when it can be, else quoted.
    public static func key(_ segment: String) -> String {
        let bare = !segment.isEmpty && segment.utf8.allSatisfy { b in
            (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || (b >= 48 && b <= 57) || b == 45 || b == 95
        }
        return bare ? segment : quoted(segment)
    }

    private static func flatten(_ table: TOMLTable, prefix: String, path: String,
                                into entries: inout [(key: String, value: SettingValue)]) throws(SettingsFileError) {
        for (name, value) in zip(table.keys, table.values) {
            let key = prefix + name
            if let inner = value.table {
                try flatten(inner, prefix: key + ".", path: path, into: &entries)
            } else {
                entries.append((key, try scalar(value, key: key, path: path)))
            }
        }
    }

    private static func scalar(_ value: TOMLValue, key: String, path: String) throws(SettingsFileError) -> SettingValue {
        switch value.type {
        case .string: return .string(value.string ?? "")
        case .int: return .integer(Int64(value.int ?? 0))
        case .double: return .float(value.double ?? 0)
        case .bool: return .bool(value.bool ?? false)
        case .array, .table:
            throw SettingsFileError(message: "\(path): \(key) = \(value.debugDescription) is a list; a setting takes one value, "
                + "and a list is one quoted string with commas (\(key) = \"a, b\").")
        case .date, .time, .dateTime:
            throw SettingsFileError(message: "\(path): \(key) = \(value.debugDescription) is a date or a time, which no setting takes; "
                + "quote it if it is meant as text.")
        }
    }

    /// toml++'s message as a sentence: a capital, a full stop.
    private static func sentence(_ message: String) -> String {
        let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = trimmed.first else { return "This is not TOML." }
        return first.uppercased() + trimmed.dropFirst() + (trimmed.hasSuffix(".") ? "" : ".")
    }

    /// What to do about the likeliest mistake on the error's line: a word left unquoted
    /// (`unit = kg`), which toml++ reports only as a value it cannot read.
    private static func hint(_ error: TOMLParseError, in text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let index = error.source.begin.line - 1
        guard lines.indices.contains(index), let equals = lines[index].firstIndex(of: "=") else {
            return "Settings are `key = value` lines, with text in quotes."
        }
        let key = lines[index][..<equals].trimmingCharacters(in: .whitespaces)
        var word = lines[index][lines[index].index(after: equals)...].trimmingCharacters(in: .whitespaces)
        if let comment = word.firstIndex(of: "#") { word = word[..<comment].trimmingCharacters(in: .whitespaces) }
        guard let first = word.first, !"\"'[{".contains(first), !word.isEmpty, value(word) == nil, !key.isEmpty else {
            return "Settings are `key = value` lines, with text in quotes."
        }
        return "Text needs quotes: \(key) = \(quoted(word))."
    }
}
