import GymLogCore
import GymLogTOML

/// `gymlog config set`'s edit of the user's config: one key's value changed on its own line,
/// every other line and comment as it was. TOMLKit reads a file but cannot write one back with
/// its comments, so this finds the key's line itself: a scan of `[table]` headers and
/// `key = value` lines, no more. What it writes is read back by TOMLKit and must hold every
/// value the file held, with the key's new one, so a file the scan misreads (a multi-line
/// string that looks like keys) is refused, never spoiled.
enum ConfigEdit {
    /// `text`, the config at `path`, with `key` set to `value`: a key already set gets the new
    /// value on its own line (its comment kept); a new one goes beside the keys of its group,
    /// under its table's header, or into a new table at the end.
    static func setting(_ text: String, key: String, to value: SettingValue, path: String) throws -> String {
        let before = try SettingsFile.entries(text, path: path)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let rendered = value.description
        // Each line's table, each header's line, and each key's line and where its value starts.
        var tableOf: [String] = [], headers: [(line: Int, name: String)] = [], keys: [(line: Int, key: String, value: String.Index)] = []
        var current = ""
        for (i, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("["), !trimmed.hasPrefix("[["), let header = keyPath(trimmed.dropFirst()) {
                current = header.path.joined(separator: ".")
                headers.append((i, current))
            } else if let first = trimmed.first, first != "#", let found = keyPath(trimmed), line[found.end...].first == "=" {
                keys.append((i, (current.isEmpty ? "" : current + ".") + found.path.joined(separator: "."), line.index(after: found.end)))
            }
            tableOf.append(current)
        }
        func local(_ table: String) -> String {
            let leaf = table.isEmpty ? key : String(key.dropFirst(table.count + 1))
            return leaf.split(separator: ".").map { SettingsFile.key(String($0)) }.joined(separator: ".")
        }
        func inTable(_ table: String) -> Bool { table.isEmpty || key.hasPrefix(table + ".") }
        if let set = keys.first(where: { $0.key == key }) {
            let line = lines[set.line]
            let start = line[set.value...].firstIndex { $0 != " " && $0 != "\t" } ?? line.endIndex
            lines[set.line] = String(line[..<start]) + rendered + line[valueEnd(line, from: start)...]
        } else if let sibling = keys.last(where: { $0.key.split(separator: ".").first == key.split(separator: ".").first && inTable(tableOf[$0.line]) }) {
            // Beside a key of the same group (`sync.interval` under `sync.auto`).
            lines.insert("\(local(tableOf[sibling.line])) = \(rendered)", at: sibling.line + 1)
        } else if let header = headers.last(where: { key.hasPrefix($0.name + ".") }) {
            lines.insert("\(local(header.name)) = \(rendered)", at: header.line + 1)
        } else if !key.contains(".") {
            // After the other top-level keys, or before the first table, where TOML reads it as top-level.
            if let last = keys.last(where: { tableOf[$0.line].isEmpty }) {
                lines.insert("\(SettingsFile.key(key)) = \(rendered)", at: last.line + 1)
            } else if let first = headers.first {
                lines.insert(contentsOf: ["\(SettingsFile.key(key)) = \(rendered)", ""], at: first.line)
            } else {
                lines.append("\(SettingsFile.key(key)) = \(rendered)")
            }
        } else {
            let table = key.split(separator: ".").dropLast().map { SettingsFile.key(String($0)) }.joined(separator: ".")
            if !(lines.last?.isEmpty ?? true) { lines.append("") }
            lines.append("[\(table)]")
            lines.append("\(local(key.split(separator: ".").dropLast().joined(separator: "."))) = \(rendered)")
        }
        let result = lines.joined(separator: "\n") + "\n"
        var expected = Dictionary(before.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        expected[key] = value
        let after = try? SettingsFile.entries(result, path: path)
        guard let after, Dictionary(after.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }) == expected else {
            throw UserError("\(path): gymlog cannot find \(key)'s own line to change in this file; set \(key) = \(rendered) by hand (nothing was changed).")
        }
        return result
    }

    /// A dotted key at the start of `text` (`unit`, `plates.kg_bar`, `"a b".c`) and the index
    /// after it and the spaces that follow; nil when `text` starts with no key.
    private static func keyPath(_ text: Substring) -> (path: [String], end: String.Index)? {
        var path: [String] = [], i = text.startIndex
        func skipSpaces() { while i < text.endIndex, text[i] == " " || text[i] == "\t" { i = text.index(after: i) } }
        while true {
            skipSpaces()
            guard i < text.endIndex else { return nil }
            if text[i] == "\"" || text[i] == "'" {
                let quote = text[i]
                var segment = "", j = text.index(after: i)
                while j < text.endIndex, text[j] != quote {
                    if quote == "\"", text[j] == "\\", text.index(after: j) < text.endIndex { j = text.index(after: j) }
                    segment.append(text[j]); j = text.index(after: j)
                }
                guard j < text.endIndex else { return nil }
                path.append(segment); i = text.index(after: j)
            } else {
                let start = i
                while i < text.endIndex, text[i].isASCII, text[i].isLetter || text[i].isNumber || text[i] == "_" || text[i] == "-" { i = text.index(after: i) }
                guard i > start else { return nil }
                path.append(String(text[start..<i]))
            }
            skipSpaces()
            guard i < text.endIndex, text[i] == "." else { return (path, i) }
            i = text.index(after: i)
        }
    }

    /// Where the one-line value starting at `start` ends: after its closing quote, or at the
    /// space or `#` after a bare value.
    private static func valueEnd(_ line: String, from start: String.Index) -> String.Index {
        guard start < line.endIndex else { return start }
        let quote = line[start]
        guard quote == "\"" || quote == "'" else { return line[start...].firstIndex { $0 == " " || $0 == "\t" || $0 == "#" } ?? line.endIndex }
        var j = line.index(after: start)
        while j < line.endIndex, line[j] != quote {
            if quote == "\"", line[j] == "\\", line.index(after: j) < line.endIndex { j = line.index(after: j) }
            j = line.index(after: j)
        }
        return j < line.endIndex ? line.index(after: j) : j
    }
}
