import Foundation
import GymLogTestSupport
import Testing

/// deploy/: the systemd unit and the container file start the real server as they are written
/// (their command lines, with paths and ports moved into a temporary folder), and the unit
/// passes systemd's own checks.
@Suite("deploy/ files")
struct DeployFilesTests {
    static let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("deploy")

    static func read(_ name: String) throws -> String { try String(contentsOf: deploy.appendingPathComponent(name), encoding: .utf8) }

    /// `KEY=value` settings of the unit's lines (the last wins, as in systemd, except lists).
    static func settings(_ unit: String) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for line in unit.split(separator: "\n") where !line.hasPrefix("#") && line.contains("=") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            out[parts[0], default: []].append(parts.count > 1 ? parts[1] : "")
        }
        return out
    }

    /// A command line with its database under `dir` and every port free.
    static func relocated(_ arguments: [String], stateDirectory: String, to dir: String) -> [String] {
        arguments.map { argument in
            argument.replacingOccurrences(of: stateDirectory, with: dir)
                .replacingOccurrences(of: "127.0.0.1:9090", with: "127.0.0.1:0")
        }.map { $0 == "8080" ? "0" : $0 }.map { $0 == "0.0.0.0" ? "127.0.0.1" : $0 }
    }

    /// `KEY=value KEY=value` words (a unit's `Environment=` lines, an image's `ENV` lines) as
    /// variables, moved as `relocated` moves a command line.
    static func environment(_ lines: [String], stateDirectory: String, to dir: String) -> [String: String] {
        var out: [String: String] = [:]
        for word in lines.flatMap({ $0.split(separator: " ") }) where word.contains("=") {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            out[parts[0]] = relocated([parts.count > 1 ? parts[1] : ""], stateDirectory: stateDirectory, to: dir)[0]
        }
        return out
    }

    static func ready(_ server: ServerInstance) async throws -> Int? {
        let port = try #require(Int(server.url.split(separator: ":").last ?? ""))
        return try await HostileRawHTTP.exchange(port: port, Array("GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)).status
    }

    @Test func theSystemdUnitIsHardenedAndItsCommandServes() async throws {
        let unit = Self.settings(try Self.read("gymlog-server.service"))
        // The issue's hardening, named
        #expect(unit["DynamicUser"] == ["yes"] && unit["StateDirectory"] == ["gymlog"] && unit["ProtectSystem"] == ["strict"])
        #expect(unit["UMask"] == ["0077"] && unit["NoNewPrivileges"] == ["yes"])
        let words = try #require(unit["ExecStart"]?.last).split(separator: " ").map(String.init)
        #expect(words.first == "/usr/local/bin/gymlog-server")
        let settings = unit["Environment"] ?? []
        #expect(settings.joined(separator: " ").contains("GYMLOG_SERVER_DB=sqlite:/var/lib/gymlog/server.sqlite"), "the database lives in StateDirectory: \(settings)")
        #expect(unit["EnvironmentFile"] == ["-/etc/gymlog/server.env"], "the admin's own settings override the unit's")
        // When its command line runs with its settings (moved into a temporary folder), the server serves and is ready
        let dir = try temporaryDirectory("gymlog-unit")
        let arguments = Self.relocated(Array(words.dropFirst()), stateDirectory: "/var/lib/gymlog", to: dir)
        let server = try ServerInstance(database: "sqlite:\(dir)/server.sqlite", arguments: arguments,
                                        environment: Self.environment(settings, stateDirectory: "/var/lib/gymlog", to: dir))
        defer { server.stop() }
        #expect(try await Self.ready(server) == 200, "\(server.log())")
        #expect(server.metricsURL != nil, "the unit keeps /metrics on its own address")
    }

    @Test func systemdAcceptsTheUnitAndRatesItsExposureLow() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            // Debian machines of this kind have systemd's tools; a CI machine without them must say so.
            if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("systemd-analyze is missing: install systemd") }
            return
        }
        let dir = try temporaryDirectory("gymlog-unit-check")
        // Exposure is rated 0-10 (the threshold in tenths); verify needs the ExecStart binary to exist: point it at the built one.
        let unit = try Self.read("gymlog-server.service")
            .replacingOccurrences(of: "/usr/local/bin/gymlog-server ", with: builtProducts.appendingPathComponent("gymlog-server").path + " ")
        let path = dir + "/gymlog-server.service"
        try unit.write(toFile: path, atomically: true, encoding: .utf8)
        let verify = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/systemd-analyze"), ["verify", path])
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")
        let security = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/systemd-analyze"), ["security", "--offline=yes", "--threshold=20", path])
        #expect(security.status == 0, "exposure above 2: \(security.stdout.suffix(400))")
    }

    @Test func theContainerCommandServesFromItsVolume() async throws {
        let file = try Self.read("Containerfile")
        let cmdLine = try #require(file.split(separator: "\n").last { $0.hasPrefix("CMD ") })
        let cmd = try #require(try JSONSerialization.jsonObject(with: Data(cmdLine.dropFirst(4).utf8)) as? [String])
        #expect(file.contains(#"ENTRYPOINT ["/usr/local/bin/gymlog-server"]"#) && file.contains("VOLUME /data"))
        #expect(file.contains("USER 65532"), "not root")
        let settings = file.split(separator: "\n").filter { $0.hasPrefix("ENV ") }.map { String($0.dropFirst(4)) }
        #expect(settings.joined(separator: " ").contains("GYMLOG_SERVER_DB=sqlite:/data/server.sqlite"), "the database lives in the volume")
        let dir = try temporaryDirectory("gymlog-container")
        let server = try ServerInstance(database: "sqlite:\(dir)/server.sqlite", arguments: Self.relocated(cmd, stateDirectory: "/data", to: dir),
                                        environment: Self.environment(settings, stateDirectory: "/data", to: dir))
        defer { server.stop() }
        #expect(try await Self.ready(server) == 200, "\(server.log())")
        #expect(FileManager.default.fileExists(atPath: dir + "/server.sqlite"))
    }
}
