import Foundation
@testable import GymLogServer
@testable import GymLogServerCore
@testable import GymLogServerPostgres
@testable import GymLogServerSQLite
import Testing

/// A storage backend the conformance suite runs against.
public enum Backend: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case memory, sqlite, postgres

    public var testDescription: String { rawValue }

    /// The stores a server runs on in production: the simulation and integration tests run
    /// on these. PostgreSQL is left out only locally without a server (`PostgresEnvironmentTests`
    /// prints the notice); under CI=true it is always in, and a missing server fails its cases
    /// instead of skipping them.
    public static let all: [Backend] = PostgresTestDatabase.isRequested ? [.sqlite, .postgres] : [.sqlite]

    /// Every store the sync rules run on: the in-memory one first (fast, and the reference
    /// the others are compared with), then `all`.
    public static let conformance: [Backend] = [.memory] + all

    /// Runs `body` on a fresh, empty store of this backend and removes it afterwards.
    public func withStorage<T>(_ body: (any SyncStorage) async throws -> T) async throws -> T {
        switch self {
        case .memory:
            return try await body(MemorySyncStorage())
        case .sqlite:
            let path = temporaryFile("gymlog-store-test", extension: "sqlite")
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            return try await body(try SQLiteSyncStorage(path: path))
        case .postgres:
            return try await PostgresTestDatabase.with { url in
                let storage = try PostgresSyncStorage(url: url, poolSize: 4, logger: PostgresAdmin.logger)
                // The store is shut down whatever the body did, then its answer or error is passed on.
                var outcome: Result<T, any Error>
                do {
                    try await storage.prepare()
                    outcome = .success(try await body(storage))
                } catch {
                    outcome = .failure(error)
                }
                await storage.shutdown()
                return try outcome.get()
            }
        }
    }
}

/// Throwaway PostgreSQL databases on the server named by `GYMLOG_TEST_POSTGRES_URL`
/// (`scripts/test` starts one): each test gets its own database, dropped afterwards, so
/// tests running in parallel never see each other's rows.
public enum PostgresTestDatabase {
    static let environment = ProcessInfo.processInfo.environment
    /// The admin URL (`postgres://postgres@127.0.0.1:PORT/gymlog_test` under scripts/test).
    public static let url: String? = environment["GYMLOG_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    public static let underCI = environment["CI"] == "true"
    public static var isRequested: Bool { url != nil || underCI }

    public static let missingMessage = """
        GYMLOG_TEST_POSTGRES_URL is not set, so the PostgreSQL store cannot be tested. Run the suite with \
        ./scripts/test (it starts a throwaway PostgreSQL cluster), or point GYMLOG_TEST_POSTGRES_URL at a \
        server where this user may CREATE DATABASE.
        """

    public struct Unavailable: Error, CustomStringConvertible { public var description: String { missingMessage } }

    /// The admin location, or a recorded failure (under CI) / thrown skip reason.
    public static func adminLocation(sourceLocation: SourceLocation = #_sourceLocation) throws -> PostgresURL {
        guard let url else {
            Issue.record(Comment(rawValue: missingMessage), sourceLocation: sourceLocation)
            throw Unavailable()
        }
        return try PostgresURL(parsing: url)
    }

    /// Creates a new empty database, runs `body` with its URL, then drops it.
    public static func with<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: (String) async throws -> T) async throws -> T {
        let admin = try adminLocation(sourceLocation: sourceLocation)
        let name = "gymlog_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await PostgresAdmin.execute(admin, ["CREATE DATABASE \(name)"])
        var location = admin
        location.database = name
        do {
            let result = try await body(url(for: location))
            try await PostgresAdmin.execute(admin, ["DROP DATABASE IF EXISTS \(name) WITH (FORCE)"])
            return result
        } catch {
            try? await PostgresAdmin.execute(admin, ["DROP DATABASE IF EXISTS \(name) WITH (FORCE)"])
            throw error
        }
    }

    /// A URL the storage accepts for `location` (with its password, unlike `redacted`).
    public static func url(for location: PostgresURL) -> String {
        var userInfo = location.user.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? location.user
        if let password = location.password {
            userInfo += ":" + (password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? password)
        }
        return "postgres://\(userInfo)@\(location.endpoint)/\(location.database)" + (location.tls == .disable ? "" : "?sslmode=\(location.tls.rawValue)")
    }
}
