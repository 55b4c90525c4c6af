import Foundation
import GymLogTestSupport
import GRDB
import Testing
@testable import GymLogServer
@testable import GymLogServerCore
@testable import GymLogServerPostgres
@testable import GymLogServerSQLite

// MARK: The server's store, with backups, restores and wipes

extension Sim {
    /// The server's database across its lives: a backup taken now, the database replaced by
    /// that backup later (the epoch stays, history goes back), or wiped (a new epoch).
    protocol Store: AnyObject, Sendable {
        var storage: any SyncStorage { get }
        func backup() async throws
        var hasBackup: Bool { get }
        func restoreBackup() async throws
        func wipe() async throws
        /// The idempotency keys applied and each device's last applied seq, read from the tables.
        func audit() async throws -> (keys: Set<String>, lastApplied: [String: Int64])
        func close() async
    }

    /// A SQLite file per life; a backup is `VACUUM INTO`, as an operator's online backup is.
    final class SQLiteStore: Store, @unchecked Sendable {
        let directory: URL
        private(set) var storage: any SyncStorage
        private var path: String
        private var backupPath: String?
        private var lives = 1

        init(directory: URL) throws {
            self.directory = directory
            path = directory.appendingPathComponent("server-1.sqlite").path
            storage = try SQLiteSyncStorage(path: path)
        }

        var hasBackup: Bool { backupPath != nil }

        func backup() async throws {
            let target = directory.appendingPathComponent("backup-\(lives)-\(UUID().uuidString.prefix(8)).sqlite").path
            let queue = try DatabaseQueue(path: path)
            try await queue.writeWithoutTransaction { try $0.execute(sql: "VACUUM INTO ?", arguments: [target]) }
            try queue.close()
            backupPath = target
        }

        private func nextLife(from source: String?) throws {
            lives += 1
            // A fresh path per life: the previous life's pool may still be open in this process.
            path = directory.appendingPathComponent("server-\(lives).sqlite").path
            if let source { try FileManager.default.copyItem(atPath: source, toPath: path) }
            storage = try SQLiteSyncStorage(path: path)
        }

        func restoreBackup() async throws { try nextLife(from: backupPath) }
        func wipe() async throws { backupPath = nil; try nextLife(from: nil) }

        func audit() async throws -> (keys: Set<String>, lastApplied: [String: Int64]) {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            return try await queue.read { db in
                let keys = Set(try String.fetchAll(db, sql: "SELECT idempotency_key FROM applied_keys"))
                var last: [String: Int64] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT device_id, last_applied_seq FROM devices") { last[row[0]] = row[1] }
                return (keys, last)
            }
        }

        func close() async {}
    }

    /// A PostgreSQL database per life; a backup is a template copy of the database, taken with
    /// the server's pool shut down (CREATE DATABASE ... TEMPLATE needs no other sessions).
    final class PostgresStore: Store, @unchecked Sendable {
        let admin: PostgresURL
        private let prefix = "gymlog_sim_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        private(set) var storage: any SyncStorage
        private var live: String
        private var backupName: String?
        private var databases: [String] = []
        private var lives = 1

        init() async throws {
            admin = try PostgresTestDatabase.adminLocation()
            live = prefix + "_1"
            try await PostgresAdmin.execute(admin, ["CREATE DATABASE \(live)"])
            databases.append(live)
            storage = try await Self.open(admin, live)
        }

        private static func open(_ admin: PostgresURL, _ name: String) async throws -> any SyncStorage {
            var location = admin
            location.database = name
            let storage = try PostgresSyncStorage(url: PostgresTestDatabase.url(for: location), poolSize: 4, logger: PostgresAdmin.logger)
            try await storage.prepare()
            return storage
        }

        var hasBackup: Bool { backupName != nil }

        func backup() async throws {
            await storage.shutdown()
            let name = prefix + "_backup_\(databases.count)"
            try await PostgresAdmin.execute(admin, ["CREATE DATABASE \(name) TEMPLATE \(live)"])
            databases.append(name)
            backupName = name
            storage = try await Self.open(admin, live)
        }

        private func nextLife(from template: String?) async throws {
            await storage.shutdown()
            lives += 1
            live = prefix + "_\(lives)"
            try await PostgresAdmin.execute(admin, ["CREATE DATABASE \(live)" + (template.map { " TEMPLATE \($0)" } ?? "")])
            databases.append(live)
            storage = try await Self.open(admin, live)
        }

        func restoreBackup() async throws { try await nextLife(from: backupName) }
        func wipe() async throws { backupName = nil; try await nextLife(from: nil) }

        func audit() async throws -> (keys: Set<String>, lastApplied: [String: Int64]) {
            var location = admin
            location.database = live
            let keys = Set(try await PostgresAdmin.strings(location, "SELECT idempotency_key FROM applied_keys"))
            var last: [String: Int64] = [:]
            for line in try await PostgresAdmin.strings(location, "SELECT device_id || ' ' || last_applied_seq FROM devices") {
                let parts = line.split(separator: " ")
                last[String(parts[0])] = Int64(parts[1])
            }
            return (keys, last)
        }

        func close() async {
            await storage.shutdown()
            for name in databases { try? await PostgresAdmin.execute(admin, ["DROP DATABASE IF EXISTS \(name) WITH (FORCE)"]) }
        }
    }
}
