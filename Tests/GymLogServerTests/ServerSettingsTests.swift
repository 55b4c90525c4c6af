import Foundation
import Testing
@testable import GymLogServer
@testable import GymLogServerCore
import GymLogTestSupport

/// Issue 49, item 11: the server's settings in a TOML file and in `GYMLOG_SERVER_*`
/// variables, each one of `serve`'s flags by its long name; the command line wins over the
/// environment, which wins over the file.
@Suite("Server settings from a file and the environment")
struct ServerSettingsTests {
    private static let file = """
        # /etc/gymlog/server.toml
        db = "sqlite:/var/lib/gymlog/server.sqlite"
        port = 8443
        open-registration = true
        max_connections = 100
        trusted-proxy = "127.0.0.1, ::1"
        """

    private func arguments(_ given: [String], _ environment: [String: String] = [:], file: String = Self.file) throws -> [String] {
        try ServerSettings.arguments(given, environment: environment, read: { _ in file }).arguments
    }

    @Test func theFilesSettingsBecomeServesFlags() throws {
        let args = try arguments(["serve", "--config", "/etc/gymlog/server.toml"])
        // (in the order of the keys' names, as TOMLKit gives them; the order of flags means nothing)
        #expect(args == ["serve", "--config", "/etc/gymlog/server.toml", "--db", "sqlite:/var/lib/gymlog/server.sqlite", "--max-connections", "100",
                         "--open-registration", "--port", "8443", "--trusted-proxy", "127.0.0.1", "--trusted-proxy", "::1"])
        // And ArgumentParser reads them as it reads the command line
        let serve = try #require(try ServerCommand.parseAsRoot(args) as? ServeCommand)
        #expect(serve.port == 8443 && serve.openRegistration && serve.maxConnections == 100 && serve.trustedProxies == ["127.0.0.1", "::1"])
    }

    @Test func theCommandLineWinsOverTheEnvironmentWhichWinsOverTheFile() throws {
        let environment = ["GYMLOG_SERVER_CONFIG": "/etc/gymlog/server.toml", "GYMLOG_SERVER_PORT": "9000", "GYMLOG_SERVER_MAX_CONNECTIONS": "50",
                           "GYMLOG_SERVER_OPEN_REGISTRATION": "false", "GYMLOG_SERVER_DB_PASSWORD": "s3cret", "HOME": "/root"]
        let args = try arguments(["--max-connections", "10"], environment)
        let serve = try #require(try ServerCommand.parseAsRoot(args) as? ServeCommand)
        #expect(serve.port == 9000, "the environment over the file")
        #expect(serve.maxConnections == 10, "the command line over both")
        #expect(!serve.openRegistration, "false turns the file's flag off")
        #expect(!args.contains { $0.contains("s3cret") }, "the password is never a flag: \(args)")
        // And the admin commands take the database alone, after their own words
        #expect(try arguments(["user", "add", "alice"], environment) == ["user", "add", "alice", "--db", "sqlite:/var/lib/gymlog/server.sqlite"])
        #expect(try arguments(["--version"], environment) == ["--version"])
    }

    @Test func aBadSettingIsNamedWhereItCameFrom() throws {
        // A value the flag refuses: the error is ArgumentParser's, and the line says where it came from
        let settled = try ServerSettings.arguments(["serve"], environment: ["GYMLOG_SERVER_CONFIG": "/etc/s.toml"], read: { _ in "port = 70000\n" })
        #expect(throws: (any Error).self) { try ServerCommand.parseAsRoot(settled.arguments) }
        #expect(ServerSettings.origin(of: "Error: --port must be from 0 to 65535, not 70000.", settled.origins) == "--port came from port in /etc/s.toml.")
        // A table, a key under one, or the file's own path is refused naming the key; text that is not TOML, with its line and column
        for text in ["[server]\nport = 1\n", "server.port = 1\n"] {
            #expect(throws: ServerSetupError.self) { try ServerSettings.arguments(["serve", "--config", "f"], environment: [:], read: { _ in text }) }
        }
        let broken = #expect(throws: ServerSetupError.self) {
            try ServerSettings.arguments(["serve", "--config", "/etc/s.toml"], environment: [:], read: { _ in "port = \n" })
        }
        #expect(broken?.message.hasPrefix("/etc/s.toml, line 1, column ") == true, "\(String(describing: broken))")
    }

    /// The real binary: `serve --config` listens as the file says; `user add` with only
    /// `GYMLOG_SERVER_CONFIG` set adds the user to the file's database; an unknown key is
    /// refused naming it and the file.
    @Test func theServerRunsFromItsConfigFile() throws {
        let dir = try temporaryDirectory("gymlog-server-config")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let database = "sqlite:\(dir)/server.sqlite"
        let config = dir + "/server.toml"
        try "db = \"\(database)\"\nport = 0\nmetrics-address = \"127.0.0.1:0\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let added = try ProcessRunner.runProduct("gymlog-server", ["user", "add", "alice"], environment: ["GYMLOG_SERVER_CONFIG": config], timeout: 60)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(dir)/server.sqlite"))
        let server = try ServerInstance(database: database, arguments: ["serve", "--config", config])
        defer { server.stop() }
        // The file's metrics address is served (the log says so once its listener is up)
        let deadline = Date().addingTimeInterval(20)
        while !server.log().contains("metrics listening") && Date() < deadline { usleep(50_000) }
        #expect(server.log().contains("metrics listening"), "\(server.log())")
        #expect(try server.addUser("bob").hasPrefix("glt_"))

        try "db = \"\(database)\"\nmax-conections = 5\n".write(toFile: config, atomically: true, encoding: .utf8)
        let typo = try ProcessRunner.runProduct("gymlog-server", ["serve", "--config", config], timeout: 60)
        #expect(typo.status != 0 && !typo.timedOut)
        #expect(typo.stderr.contains("--max-conections came from max-conections in \(config)."), "\(typo.stderr)")
    }
}
