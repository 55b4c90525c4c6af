import CSQLite

/// A failed SQLite call, with SQLite's own message.
struct SQLiteFailure: Error, CustomStringConvertible {
    var description: String
}

/// A bare SQLite connection over the C API: the baseline the store is measured against,
/// and the bulk loader of the history generator. No caching, no wrappers, no Foundation.
final class RawConnection {
    let handle: OpaquePointer

    /// Opens (creating if needed) the file at `path`.
    init(path: String) throws {
        var handle: OpaquePointer?
        let rc = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(rc)"
            sqlite3_close_v2(handle)
            throw SQLiteFailure(description: "cannot open \(path): \(message)")
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, 10_000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that return no rows.
    func exec(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw SQLiteFailure(description: "\(message) in: \(sql.prefix(120))")
        }
    }

    /// Compiles one statement, to bind and step many times.
    func prepare(_ sql: String) throws -> RawStatement {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil) == SQLITE_OK, let stmt else {
            throw SQLiteFailure(description: "\(String(cString: sqlite3_errmsg(handle))) in: \(sql.prefix(120))")
        }
        return RawStatement(stmt, connection: self)
    }

    /// The first column of the first row of `sql`, as an integer.
    func int(_ sql: String) throws -> Int64? {
        let stmt = try prepare(sql)
        return try stmt.step() ? stmt.int64(0) : nil
    }

    /// The first column of the first row of `sql`, as text.
    func text(_ sql: String) throws -> String? {
        let stmt = try prepare(sql)
        return try stmt.step() ? stmt.text(0) : nil
    }

    var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }
}

/// A prepared statement. Binding copies the value (SQLITE_TRANSIENT) so Swift strings can go away.
final class RawStatement {
    let stmt: OpaquePointer
    private let connection: RawConnection

    init(_ stmt: OpaquePointer, connection: RawConnection) { self.stmt = stmt; self.connection = connection }
    deinit { sqlite3_finalize(stmt) }

    // SQLITE_TRANSIENT is a macro cast of -1, which Swift does not import.
    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    func bind(_ index: Int32, _ value: String?) {
        guard let value else { sqlite3_bind_null(stmt, index); return }
        sqlite3_bind_text(stmt, index, value, -1, Self.transient)
    }

    func bind(_ index: Int32, _ value: Int64?) {
        guard let value else { sqlite3_bind_null(stmt, index); return }
        sqlite3_bind_int64(stmt, index, value)
    }

    func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(stmt, index, Int64(value)) }

    func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(stmt, index, value) }

    /// Steps once: true when a row is available, false when done.
    @discardableResult
    func step() throws -> Bool {
        switch sqlite3_step(stmt) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteFailure(description: connection.errorMessage)
        }
    }

    /// Steps to completion and makes the statement ready for the next bindings.
    func run() throws {
        defer { sqlite3_reset(stmt) }
        while try step() {}
    }

    func reset() { sqlite3_reset(stmt) }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(stmt, column) }

    func text(_ column: Int32) -> String? {
        guard let cString = sqlite3_column_text(stmt, column) else { return nil }
        return String(cString: cString)
    }
}

/// The linked SQLite library's version, for the report.
func sqliteLibraryVersion() -> String { String(cString: sqlite3_libversion()) }
