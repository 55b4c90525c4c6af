import Foundation
import Logging
import PostgresNIO
import GymLogServerCore

/// One-off statements on a short-lived connection of their own, outside the pool: the
/// tests' and the benchmark's database setup (CREATE/DROP DATABASE cannot run in a
/// transaction) and checks on the schema.
enum PostgresAdmin {
    static let logger = Logger(label: "gymlog-server.postgres-admin", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Runs each statement in turn (no transaction around them).
    static func execute(_ location: PostgresURL, _ statements: [String]) async throws {
        try await withConnection(location) { connection in
            for sql in statements { try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
        }
    }

    /// The first column of the first row as Int64 (nil for no row or NULL).
    static func int64(_ location: PostgresURL, _ sql: String) async throws -> Int64? {
        try await withConnection(location) { connection in
            for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Int64?.self) { return value }
            return nil
        }
    }

    /// The first column of every row as text.
    static func strings(_ location: PostgresURL, _ sql: String) async throws -> [String] {
        try await withConnection(location) { connection in
            var out: [String] = []
            for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(String.self) { out.append(value) }
            return out
        }
    }

    /// Opens a connection, runs `body`, closes it.
    static func withConnection<T: Sendable>(_ location: PostgresURL, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await PostgresConnection.connect(configuration: try location.connectionConfiguration(), id: 1, logger: logger)
        do {
            let result = try await body(connection)
            try? await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// The SQLSTATE of a PostgreSQL server error, e.g. "23505" for a unique violation.
    static func sqlState(of error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// Runs the migrations on a connection to `location`, for tests of the runner itself.
    static func migrate(_ location: PostgresURL, migrations: [PostgresMigration]) async throws {
        try await withConnection(location) { connection in
            try await PostgresSchema.migrate(connection, location: location, logger: logger, migrations: migrations)
        }
    }
}
