import GRDB
import GymLogCore

/// A synced field's value as SQLite stores it, and back (a BLOB reads as UTF-8 text).
extension FieldValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .int(let i): i.databaseValue
        case .real(let d): d.databaseValue
        case .text(let s): s.databaseValue
        }
    }

    init(_ dbValue: DatabaseValue) {
        switch dbValue.storage {
        case .null: self = .null
        case .int64(let i): self = .int(i)
        case .double(let d): self = .real(d)
        case .string(let s): self = .text(s)
        case .blob(let data): self = .text(String(decoding: data, as: UTF8.self))
        }
    }
}
