import Foundation
import PostgresNIO
import GymLogServerCore

/// The parts of a `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE]` URL
/// (`postgresql://` too), checked part by part so an error can name the part that is wrong.
public struct PostgresURL: Equatable, Sendable {
    /// The PostgreSQL password, read where the `--db` URL has none (before `PGPASSWORD`); never a flag.
    package static let passwordVariable = "GYMLOG_SERVER_DB_PASSWORD"
    /// How the connection uses TLS, as libpq's `sslmode` names it.
    public enum TLSMode: String, Equatable, Sendable, CaseIterable {
        /// Plain TCP (the default: a server on the same machine or a private network).
        case disable
        /// TLS when the server offers it, without checking its certificate.
        case prefer
        /// TLS or no connection, without checking the certificate.
        case require
        /// TLS with the certificate checked against the system's roots and the host name.
        case verifyFull = "verify-full"
    }

    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    public var tls: TLSMode

    public init(user: String, password: String? = nil, host: String, port: Int = 5432, database: String, tls: TLSMode = .disable) {
        self.user = user; self.password = password; self.host = host; self.port = port; self.database = database; self.tls = tls
    }

    /// Parses the URL; a password missing from it is taken from `GYMLOG_SERVER_DB_PASSWORD`, else `PGPASSWORD`, as psql does.
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let shown = Self.redact(text)
        func bad(_ what: String) -> ServerSetupError {
            ServerSetupError("the database URL \(shown) \(what); write it as postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, for example postgres://gymlog@127.0.0.1:5432/gymlog.")
        }
        guard let colon = text.firstIndex(of: ":"), ["postgres", "postgresql"].contains(text[..<colon].lowercased()) else {
            throw bad("does not start with postgres:// or postgresql://")
        }
        var rest = text[text.index(after: colon)...]
        guard rest.hasPrefix("//") else { throw bad("lacks the // after the scheme") }
        rest = rest.dropFirst(2)

        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") { query = rest[rest.index(after: mark)...]; rest = rest[..<mark] }
        guard let slash = rest.firstIndex(of: "/") else { throw bad("has no database name (the part after the last /)") }
        let authority = rest[..<slash]
        let path = rest[rest.index(after: slash)...]

        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
            if let sep = userInfo.firstIndex(of: ":") {
                user = try Self.decode(userInfo[..<sep], part: "user name", shown: shown)
                password = try Self.decode(userInfo[userInfo.index(after: sep)...], part: "password", shown: shown)
            } else {
                user = try Self.decode(userInfo, part: "user name", shown: shown)
                password = nil
            }
        } else {
            user = ""
            password = nil
        }
        guard !user.isEmpty else { throw bad("has no user name (the part before @)") }
        if password?.isEmpty ?? false { password = nil }
        for variable in [Self.passwordVariable, "PGPASSWORD"] where password == nil {
            if let fromEnvironment = environment[variable], !fromEnvironment.isEmpty { password = fromEnvironment }
        }

        var portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw bad("has an IPv6 host without its closing ]") }
            host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            let after = hostPort[hostPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw bad("has something other than :PORT after the IPv6 host") }
                portText = after.dropFirst()
            }
        } else if let sep = hostPort.lastIndex(of: ":") {
            host = String(hostPort[..<sep])
            portText = hostPort[hostPort.index(after: sep)...]
        } else {
            host = String(hostPort)
        }
        guard !host.isEmpty else { throw bad("has no host (the part between @ and the port or /)") }
        if let portText {
            guard let n = Int(portText), (1...65535).contains(n), portText.allSatisfy(\.isASCII) else {
                throw bad("has the port \"\(portText)\", which is not a number from 1 to 65535")
            }
            port = n
        } else {
            port = 5432
        }

        database = try Self.decode(path, part: "database name", shown: shown)
        guard !database.isEmpty else { throw bad("has no database name (the part after the last /)") }
        guard !database.contains("/") else { throw bad("has the database name \"\(database)\", which contains a /") }

        tls = .disable
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(kv[0]), value = kv.count > 1 ? String(kv[1]) : ""
            guard key == "sslmode" else {
                throw bad("has the parameter \"\(key)\", which gymlog-server does not understand (only sslmode is)")
            }
            guard let mode = TLSMode(rawValue: value) else {
                throw bad("has sslmode=\(value); use one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            tls = mode
        }
    }

    /// The URL as it may be shown in logs and messages: the password replaced by `***`.
    public var redacted: String {
        let h = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)\(password == nil ? "" : ":***")@\(h):\(port)/\(database)" + (tls == .disable ? "" : "?sslmode=\(tls.rawValue)")
    }

    /// `HOST:PORT`, for messages.
    var endpoint: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

    /// The PostgresNIO client configuration for this URL.
    func clientConfiguration(poolSize: Int) -> PostgresClient.Configuration {
        var config = PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: clientTLS)
        config.options.maximumConnections = poolSize
        config.options.minimumConnections = 0
        config.options.connectTimeout = .seconds(10)
        return config
    }

    /// The configuration of one connection (the one the migrations run on).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch self.tls {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(try NIOSSLContext(configuration: tlsConfiguration))
        case .require, .verifyFull: tls = .require(try NIOSSLContext(configuration: tlsConfiguration))
        }
        var config = PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls)
        config.options.connectTimeout = .seconds(10)
        return config
    }

    private var clientTLS: PostgresClient.Configuration.TLS {
        switch tls {
        case .disable: .disable
        case .prefer: .prefer(tlsConfiguration)
        case .require, .verifyFull: .require(tlsConfiguration)
        }
    }

    private var tlsConfiguration: TLSConfiguration {
        var config = TLSConfiguration.makeClientConfiguration()
        // libpq's prefer and require encrypt without checking the certificate; verify-full checks it.
        if tls != .verifyFull { config.certificateVerification = .none }
        return config
    }

    private static func decode(_ part: Substring, part name: String, shown: String) throws -> String {
        guard let decoded = String(part).removingPercentEncoding else {
            throw ServerSetupError("the \(name) in the database URL \(shown) has a broken %-escape; write a literal % as %25.")
        }
        return decoded
    }

    /// Replaces the password of a URL-like text by `***` without parsing it fully.
    package static func redact(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let afterScheme = text[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<authority.index(after: colon)]) + "***" + String(text[at...])
    }
}
