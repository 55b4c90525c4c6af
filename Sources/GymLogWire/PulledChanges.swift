import Foundation
import GymLogCore

/// The names the protocol allows, one rule each, for both sides: the server refuses a push
/// that breaks them, and a device sets aside a pulled change that does (a server may lie).
public enum WireNames {
    /// `^[a-z_]{1,32}$`: entities and ops.
    public static func isEntityName(_ s: String) -> Bool {
        let u = s.utf8
        return (1...32).contains(u.count) && u.allSatisfy { ($0 >= 97 && $0 <= 122) || $0 == 95 }
    }

    /// `^[a-z_][a-z0-9_]{0,63}$`
    public static func isFieldName(_ s: String) -> Bool {
        let u = s.utf8
        guard (1...64).contains(u.count), let first = u.first, (first >= 97 && first <= 122) || first == 95 else { return false }
        return u.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }

    /// A row id: 1 to 128 bytes of printable ASCII (every id gymlog makes is a UUID).
    public static func isRowID(_ s: String) -> Bool {
        let u = s.utf8
        return (1...128).contains(u.count) && u.allSatisfy { $0 > 32 && $0 < 127 }
    }
}

/// A pulled change that could not be read, or that breaks the protocol's limits: set aside
/// whole (kept and shown in `gymlog status`, never applied), so it costs itself only and the
/// rest of its page applies (issue 45).
public struct UnreadableChange: Error, Hashable, Sendable {
    /// The row, when the change names one readably.
    public var entity: String?
    public var entityID: String?
    public var reason: String

    public init(entity: String?, entityID: String?, reason: String) {
        self.entity = entity; self.entityID = entityID; self.reason = reason
    }
}

/// Reads a pull page change by change. One malformed change (a boolean value, `1e400`,
/// invalid UTF-8, a key twice) used to fail the whole page, on every pull, for ever; now the
/// page's envelope is read as before and each change on its own.
public enum PulledChanges {
    /// `data` (a pull answer: an object with a `changes` array) as the answer with no changes,
    /// and each change's own bytes; nil when the text is not shaped like one (unbalanced,
    /// no `changes` array at the top). Strings are skipped, not read, so bytes that are not
    /// UTF-8 inside one change do not stop the others.
    static func split(_ data: Data) -> (envelope: Data, changes: [Data])? {
        let b = [UInt8](data)
        var i = 0
        func skipSpace() { while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 } }
        func skipString() -> Bool {
            i += 1
            while i < b.count {
                if b[i] == UInt8(ascii: "\\") { i += 2; continue }
                if b[i] == UInt8(ascii: "\"") { i += 1; return true }
                i += 1
            }
            return false
        }
        func skipValue() -> Bool {
            guard i < b.count else { return false }
            switch b[i] {
            case UInt8(ascii: "\""): return skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while i < b.count {
                    switch b[i] {
                    case UInt8(ascii: "\""): if !skipString() { return false }; continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { i += 1; return true }
                    default: break
                    }
                    i += 1
                }
                return false
            default:
                let start = i
                while i < b.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(b[i]) { i += 1 }
                return i > start
            }
        }
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        skipSpace()
        guard i < b.count, b[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        var found: (start: Int, end: Int, changes: [Data])?
        while true {
            skipSpace()
            guard i < b.count else { return nil }
            if b[i] == UInt8(ascii: "}") { break }
            guard b[i] == UInt8(ascii: "\"") else { return nil }
            let keyStart = i
            guard skipString() else { return nil }
            let key = b[keyStart..<i]
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            skipSpace()
            if key.elementsEqual("\"changes\"".utf8), i < b.count, b[i] == UInt8(ascii: "[") {
                let start = i
                i += 1
                var changes: [Data] = []
                skipSpace()
                if i < b.count, b[i] == UInt8(ascii: "]") { i += 1 } else {
                    while true {
                        skipSpace()
                        let element = i
                        guard skipValue() else { return nil }
                        changes.append(Data(b[element..<i]))
                        skipSpace()
                        guard i < b.count else { return nil }
                        if b[i] == UInt8(ascii: ",") { i += 1; continue }
                        guard b[i] == UInt8(ascii: "]") else { return nil }
                        i += 1
                        break
                    }
                }
                found = (start, i, changes)
            } else {
                guard skipValue() else { return nil }
            }
            skipSpace()
            guard i < b.count else { return nil }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            guard b[i] == UInt8(ascii: "}") else { return nil }
            break
        }
        guard let found else { return nil }
        var envelope = Data(b[0..<found.start])
        envelope.append(contentsOf: Array("[]".utf8))
        envelope.append(contentsOf: b[found.end...])
        return (envelope, found.changes)
    }

    /// A v2 pull answer read change by change, expanded to v1's shape: the changes that read,
    /// and the ones that did not, each with why. Throws when the answer itself is not one.
    public static func compactPage(_ data: Data) throws -> PullResponse {
        guard let (envelope, parts) = split(data) else {
            // Not shaped like a page: the decoder's own error says why.
            _ = try JSONDecoder().decode(CompactPullResponse.self, from: data)
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the answer has no readable \"changes\" array"))
        }
        var page = try JSONDecoder().decode(CompactPullResponse.self, from: envelope)
        var unreadable: [UnreadableChange] = []
        for part in parts {
            switch read(CompactPullChange.self, part) {
            case .success(let change): page.changes.append(change)
            case .failure(let problem): unreadable.append(problem)
            }
        }
        var expanded = page.expanded()
        expanded.unreadable = unreadable + expanded.unreadable
        return expanded
    }

    /// A v1 pull answer read change by change.
    public static func page(_ data: Data) throws -> PullResponse {
        guard let (envelope, parts) = split(data) else {
            return try JSONDecoder().decode(PullResponse.self, from: data)
        }
        var page = try JSONDecoder().decode(PullResponse.self, from: envelope)
        for part in parts {
            switch read(PullChange.self, part) {
            case .success(let change): page.changes.append(change)
            case .failure(let problem): page.unreadable.append(problem)
            }
        }
        return page
    }

    /// One change's bytes, read strictly (a key twice, invalid UTF-8, a raw control character
    /// are refused, as the server refuses them in a push), then decoded.
    static func read<Change: Decodable>(_ type: Change.Type, _ bytes: Data) -> Result<Change, UnreadableChange> {
        let row = Self.row(bytes)
        if let problem = JSONReader.problem(in: bytes) {
            return .failure(UnreadableChange(entity: row.entity, entityID: row.entityID, reason: "the change is not readable JSON: \(problem)"))
        }
        do { return .success(try JSONDecoder().decode(Change.self, from: bytes)) } catch {
            return .failure(UnreadableChange(entity: row.entity, entityID: row.entityID, reason: "the change does not read: \(Self.describe(error))"))
        }
    }

    /// The row a change names, read as leniently as possible, for the message.
    private static func row(_ bytes: Data) -> (entity: String?, entityID: String?) {
        struct Row: Decodable {
            var entity: String?
            var entityID: String?
            enum CodingKeys: String, CodingKey { case entity; case entityID = "entity_id" }
            init(from decoder: Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                entity = try? c.decode(String.self, forKey: .entity)
                entityID = try? c.decode(String.self, forKey: .entityID)
            }
        }
        guard let row = try? JSONDecoder().decode(Row.self, from: bytes) else { return (nil, nil) }
        return (row.entity.flatMap { WireNames.isEntityName($0) ? $0 : nil }, row.entityID.flatMap { WireNames.isRowID($0) ? $0 : nil })
    }

    /// A decoding error in a sentence: what was wrong, and at which field.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).filter { !$0.isEmpty && Int($0) == nil }.joined(separator: ".")
            return (path.isEmpty ? "" : "at \(path): ") + context.debugDescription
        @unknown default: return "\(error)"
        }
    }

    /// Why `change` breaks the protocol's limits (names, sizes, text a device stores), or nil.
    /// Checked on what a device applies: after opening, for an encrypted account.
    public static func problem(_ change: PullChange) -> String? {
        guard WireNames.isEntityName(change.entity) else { return "its entity is not a name the protocol allows" }
        guard WireNames.isRowID(change.entityID) else { return "its row id is not one the protocol allows" }
        for (name, field) in change.fields.sorted(by: { $0.key < $1.key }) {
            guard WireNames.isFieldName(name) else {
                return "it names the field \"\(String(name.unicodeScalars.prefix(40)).debugDescription.dropFirst().dropLast())\", which no gymlog writes"
            }
            if case .text(let text) = field.v {
                if text.utf8.count > maxTextFieldBytes {
                    return "its \(name) holds \(text.utf8.count) bytes of text; a field holds at most \(maxTextFieldBytes)"
                }
                if text.utf8.contains(0) { return "its \(name) holds a NUL character, which no gymlog writes" }
            }
        }
        return nil
    }
}
