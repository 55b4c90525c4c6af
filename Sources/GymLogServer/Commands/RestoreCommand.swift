import ArgumentParser
import Foundation
import GymLogServerCore
import GymLogServerPostgres
import GymLogServerSQLite

/// `gymlog-server restore`: puts a backup in place of the SQLite store; the server must be stopped.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the SQLite server database with a backup made by `gymlog-server backup`.",
        discussion: """
        Stop the server first: restore refuses while another process has the database open. \
        FILE is checked (PRAGMA integrity_check and the gymlog server tables), copied next to \
        the database and renamed over it; the old -wal and -shm files are removed. The restored \
        database gets a new epoch: at its next sync every device sends again what it holds (so \
        what the backup lacks comes back) and pulls the history from the start.

        Examples:
          gymlog-server restore --db sqlite:/srv/gymlog/server.sqlite \\
            /backups/gymlog-2026-11-01.sqlite
        """
    )

    @OptionGroup var db: DatabaseOption
    @Argument(help: ArgumentHelp("A backup made by `gymlog-server backup`.", valueName: "file")) var file: String

    func run() throws {
        switch try StorageLocation.parse(db.url) {
        case .postgres(let url):
            throw ServerSetupError("""
                gymlog-server restore supports SQLite databases only, not \(PostgresURL.redact(url)). \
                Restore a pg_dump backup with pg_restore, servers stopped: pg_restore --clean --if-exists --dbname 'postgres://USER@HOST:PORT/DATABASE' \(file)
                then give the store a new epoch, so every device sends what it holds again and pulls from the start: \
                psql 'postgres://USER@HOST:PORT/DATABASE' -c "UPDATE meta SET epoch = replace(gen_random_uuid()::text, '-', '')"
                """)
        case .sqlite(let path):
            let summary = try SQLiteBackup.restore(from: file, databasePath: path)
            print("restored \(path) from \(file): \(summary.users) users, \(summary.records) records, epoch \(summary.epoch).")
            print("start the server again; at their next sync devices send what they hold again (what the backup lacks comes back) and pull from the start.")
        }
    }
}
