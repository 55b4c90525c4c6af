import Foundation
import GymLogServerCore
import GymLogServerPostgres
import GymLogServerSQLite

/// Where the server keeps its data, from the `--db` URL.
public enum StorageLocation: Equatable, Sendable {
    case sqlite(path: String)
    case postgres(url: String)

    /// Parses `sqlite:PATH`, a bare path, or `postgres://...`; nil/empty is the default SQLite file.
    public static func parse(_ text: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> StorageLocation {
        guard let text, !text.isEmpty else { return .sqlite(path: defaultSQLitePath(environment: environment)) }
        if let colon = text.firstIndex(of: ":"), isScheme(text[..<colon]) {
            let scheme = text[..<colon].lowercased()
            var rest = String(text[text.index(after: colon)...])
            switch scheme {
            case "sqlite", "file":
                if rest.hasPrefix("//") { rest.removeFirst(2) }
                guard !rest.isEmpty else { throw ServerSetupError("the database URL \"\(text)\" has no path; use sqlite:/path/to/server.sqlite.") }
                return .sqlite(path: expandTilde(rest, environment: environment))
            case "postgres", "postgresql":
                return .postgres(url: text)
            default:
                throw ServerSetupError("unsupported database URL scheme \"\(scheme):\" in \"\(PostgresURL.redact(text))\"; use sqlite:PATH (or a plain file path) or postgres://USER@HOST:PORT/DATABASE.")
            }
        }
        return .sqlite(path: expandTilde(text, environment: environment))
    }

    /// `$XDG_DATA_HOME/gymlog-server/server.sqlite`, or `~/.local/share/...` when unset.
    public static func defaultSQLitePath(environment: [String: String]) -> String {
        let base: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { base = xdg }
        else { base = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share" }
        return base + "/gymlog-server/server.sqlite"
    }

    // A scheme is letters then letters/digits/+-. and at least 2 characters, so `C:` or a
    // path with a colon later on is not taken for one.
    private static func isScheme(_ s: Substring) -> Bool {
        guard s.count >= 2, let first = s.first, first.isASCII, first.isLetter else { return false }
        return s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }

    private static func expandTilde(_ path: String, environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return (environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst()
    }
}

/// Opens the storage a `--db` URL names. This is the one place a backend is chosen.
///
/// A PostgreSQL store connects and migrates when its pool starts (as a service of the
/// application, or on its first call); that call reports an unreachable database or a failed
/// migration. `poolSize` is its connection pool's size.
public func openSyncStorage(_ url: String?, poolSize: Int = 10,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> any SyncStorage {
    switch try StorageLocation.parse(url, environment: environment) {
    case .sqlite(let path):
        // Only the default location's folder is made; a --db path's must exist.
        return try SQLiteSyncStorage(path: path, createFolder: url?.isEmpty ?? true)
    case .postgres(let url):
        return try PostgresSyncStorage(url: url, poolSize: poolSize, environment: environment)
    }
}
