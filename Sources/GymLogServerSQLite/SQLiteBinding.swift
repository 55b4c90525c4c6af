import Foundation
import GRDB
import GRDBSQLite
import GymLogCore
import GymLogServerCore

// Raw SQLite binding and column reading on GRDB statements: they run once per pushed or
// pulled field, where GRDB's StatementArguments and Row boxing would cost more than SQLite.

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

/// A column of the current row of a stepped statement as text (a BLOB's bytes read as UTF-8).
func columnText(_ statement: SQLiteStatement, _ index: Int32) -> String {
    guard let bytes = sqlite3_column_text(statement, index) else { return "" }
    return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, index))), as: UTF8.self)
}

/// A column's bytes in the current row (valid until the statement steps again).
func columnBytes(_ statement: SQLiteStatement, _ index: Int32) -> UnsafeBufferPointer<UInt8> {
    guard let bytes = sqlite3_column_text(statement, index) else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, index)))
}

extension FieldValue {
    /// The value of a column of the current row, by its SQLite storage class.
    init(column index: Int32, of statement: SQLiteStatement) {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_NULL: self = .null
        case SQLITE_INTEGER: self = .int(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: self = .real(sqlite3_column_double(statement, index))
        default: self = .text(columnText(statement, index))
        }
    }
}
