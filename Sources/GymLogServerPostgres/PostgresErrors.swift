import Foundation
import PostgresNIO
import GymLogServerCore

// What a PostgreSQL failure means for the operator and for a request: the words an operator
// reads when the server cannot connect, and which errors are the database being away (503)
// or its disk full, rather than a refused statement.
extension PostgresSyncStorage {
    static func describeConnectFailure(_ error: any Error, location: PostgresURL) -> String {
        let at = "PostgreSQL at \(location.endpoint)"
        if let psql = error as? PSQLError, let state = psql.serverInfo?[.sqlState] {
            let message = describePostgresError(psql)
            switch state {
            case "3D000":
                return "\(at) has no database \"\(location.database)\" (\(message)). Create it (`createdb --owner \(location.user) \(location.database)` as the postgres user, see the README) or fix the database name in --db."
            case "28P01", "28000":
                return "\(at) refused user \"\(location.user)\": \(message). Check the user name and password in --db (or PGPASSWORD), and that pg_hba.conf lets this user reach database \"\(location.database)\" from this machine."
            case "57P03":
                return "\(at) is starting up or shutting down (\(message)); try again in a moment."
            default:
                return "cannot open the database \(location.redacted): \(message)."
            }
        }
        if let psql = error as? PSQLError {
            switch psql.code {
            case .authMechanismRequiresPassword:
                return "\(at) wants a password for user \"\(location.user)\"; put it in --db (postgres://\(location.user):PASSWORD@...) or in PGPASSWORD."
            case .sslUnsupported:
                return "\(at) does not offer TLS but --db asks for sslmode=\(location.tls.rawValue); enable ssl on the server or use sslmode=disable on a trusted network."
            default:
                break
            }
        }
        return "cannot connect to \(at) (\(describeConnectionProblem(error))). Check that PostgreSQL is running and listening on that host and port (`pg_isready -h \(location.host) -p \(location.port)`; listen_addresses and port in postgresql.conf), that the --db URL names the right host and port, and that no firewall is in the way."
    }

    // The socket-level reason in a few words; NIO's own text lists every address it tried.
    private static func describeConnectionProblem(_ error: any Error) -> String {
        let text = describePostgresError(error)
        let known: [(String, String)] = [
            ("Connection refused", "connection refused: nothing listens there"),
            ("No route to host", "no route to host"),
            ("Network is unreachable", "network is unreachable"),
            ("connectTimeout", "no answer within 10 seconds"),
            ("timeout", "no answer within 10 seconds"),
            ("resolve", "the host name does not resolve"),
            ("DNS error", "the host name does not resolve"),
            ("UnknownHost", "the host name does not resolve"),
            ("NXDOMAIN", "the host name does not resolve"),
        ]
        return known.first { text.localizedCaseInsensitiveContains($0.0) }?.1 ?? text
    }

    /// Whether `error` is the pool's `ConnectionPoolError` (its connection attempts kept
    /// failing, so it fails requests rather than queue them): PostgresNIO maps its other
    /// cases to `PSQLError`, and its module is not one this target imports, so it is known by name.
    static func isPoolGivingUp(_ error: any Error) -> Bool {
        String(describing: type(of: error)) == "ConnectionPoolError"
    }

    /// Whether `error` says the database could not be reached or went away, rather than
    /// refused a statement: the connection failed or closed, or the server is shutting down,
    /// starting up, or refusing connections (SQLSTATE class 08, 57P01 to 57P03).
    static func isUnreachable(_ error: PSQLError) -> Bool {
        if let state = error.serverInfo?[.sqlState] {
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        }
        return [.connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed].contains(error.code)
    }

    /// Whether `error` is the database server's disk running full (SQLSTATE 53100).
    static func isDiskFull(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] == "53100"
    }
}
