import ArgumentParser
import Foundation
import GymLogServerCore
import GymLogServerPostgres
import GymLogServerSQLite

/// `gymlog-server backup`: a consistent copy of the SQLite store while the server runs.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the SQLite server database to FILE, safely while the server runs.",
        discussion: """
        The copy is one consistent snapshot (SQLite's VACUUM INTO), checked with PRAGMA \
        integrity_check before it is renamed to FILE, so FILE is never half written. \
        Put it back with `gymlog-server restore`. For PostgreSQL use pg_dump (see README.md).

        Examples:
          gymlog-server backup --db sqlite:/srv/gymlog/server.sqlite \\
            /backups/gymlog.sqlite
          gymlog-server backup /backups/latest.sqlite --force
        """
    )

    @OptionGroup var db: DatabaseOption
    @Argument(help: ArgumentHelp("Where to write the backup; its folder must exist.", valueName: "file")) var file: String
    @Flag(help: "Replace FILE if it already exists.") var force = false

    func run() throws {
        switch try StorageLocation.parse(db.url) {
        case .postgres(let url):
            throw ServerSetupError("""
                gymlog-server backup supports SQLite databases only, not \(PostgresURL.redact(url)). \
                Back up PostgreSQL with pg_dump: pg_dump --format=custom --file \(file) 'postgres://USER@HOST:PORT/DATABASE'
                """)
        case .sqlite(let path):
            let summary = try SQLiteBackup.backup(databasePath: path, to: file, force: force)
            print("backed up \(path) to \(file): \(summary.users) users, \(summary.records) records, \(summary.bytes) bytes, integrity ok.")
            print("to put it back: stop the server, then run gymlog-server restore --db sqlite:\(path) \(file)")
        }
    }
}
