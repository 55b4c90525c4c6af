import Foundation
import GRDB
import GRDBSQLite
import GymLogCore

// Raw SQLite binding on GRDB statements for the push loop, and FieldValue <-> DatabaseValue.

// SQLITE_TRANSIENT: SQLite copies the bound bytes before the Swift string goes away.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension Statement {
    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(sqliteStatement, index, value) }

    func bind(_ index: Int32, _ value: String) {
        var value = value
        value.withUTF8 { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else { sqlite3_bind_text(sqliteStatement, index, "", 0, transient); return }
            base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                _ = sqlite3_bind_text(sqliteStatement, index, $0, Int32(bytes.count), transient)
            }
        }
    }

    func bind(_ index: Int32, _ value: FieldValue) {
        switch value {
        case .null: sqlite3_bind_null(sqliteStatement, index)
        case .int(let i): sqlite3_bind_int64(sqliteStatement, index, i)
        case .real(let d): sqlite3_bind_double(sqliteStatement, index, d)
        case .text(let s): bind(index, s)
        }
    }

    /// Drops the bound values (reset keeps them), so no bound text outlives its use.
    func clearBindings() { sqlite3_clear_bindings(sqliteStatement) }

    /// Steps a bound write to completion, then resets it for the next use.
    func stepDone(_ db: Database) throws {
        let code = sqlite3_step(sqliteStatement)
        sqlite3_reset(sqliteStatement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
        }
    }

    /// Steps a bound query, calling `body` per row, then resets it.
    func eachRow(_ db: Database, _ body: (SQLiteStatement) throws -> Void) throws {
        defer { sqlite3_reset(sqliteStatement) }
        while true {
            let code = sqlite3_step(sqliteStatement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
            }
            try body(sqliteStatement)
        }
    }
}

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
        case .blob(let b): self = .text(String(decoding: b, as: UTF8.self))
        }
    }
}
