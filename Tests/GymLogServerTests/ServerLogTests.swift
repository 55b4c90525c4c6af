import Foundation
@testable import GymLogServer
@testable import GymLogServerCore
import GymLogTestSupport
import Testing

/// Issue 49 (5): the log an operator reads, from the real `gymlog-server` binary. Every request
/// line names the client's address (behind a proxy the operator trusts, the one it forwards
/// for; nobody else's `X-Forwarded-For` is believed) and the user whose token it carries; an
/// SQLite migration is logged as PostgreSQL's are.
@Suite("Server log", .serialized)
struct ServerLogTests {
    /// A pull with `alice`'s token and an `X-Forwarded-For` header, over a real socket.
    private static func pull(_ server: ServerInstance, token: String, forwardedFor: String, requestID: String) async throws {
        let port = try SlowClientTests.port(server)
        let answer = try await HostileRawHTTP.Connection(port: port).exchange(
            "GET /v1/pull?device_id=phone HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                + "X-Forwarded-For: \(forwardedFor)\r\nX-Request-ID: \(requestID)\r\n\r\n")
        #expect(answer.status == 200, "\(answer.head)")
    }

    /// The log line of the request with this id.
    private static func line(_ server: ServerInstance, _ requestID: String) -> String {
        server.log().split(separator: "\n").first { $0.contains("request_id=\(requestID)") && $0.contains("path=") }.map(String.init) ?? ""
    }

    @Test func requestLinesNameTheUserAndTheClientAddressFromATrustedProxyOnly() async throws {
        // Given a server that trusts the proxy at 127.0.0.1, and one that trusts none
        let behindProxy = try ServerInstance(extraArguments: ["--trusted-proxy", "127.0.0.1"])
        let direct = try ServerInstance()
        let proxiedToken = try behindProxy.addUser("alice"), directToken = try direct.addUser("alice")

        // When alice's device pulls through each with a forwarded-for chain (a forged hop first)
        try await Self.pull(behindProxy, token: proxiedToken, forwardedFor: "198.51.100.9, 203.0.113.7", requestID: "proxied-1")
        try await Self.pull(direct, token: directToken, forwardedFor: "203.0.113.7", requestID: "direct-1")

        // Then the proxied line names alice and the address the proxy saw (the rightmost hop)
        let proxied = Self.line(behindProxy, "proxied-1")
        #expect(proxied.contains("user=alice") && proxied.contains("client=203.0.113.7"), "\(behindProxy.log())")
        // And without a trusted proxy the header is ignored: the peer's address is logged
        let plain = Self.line(direct, "direct-1")
        #expect(plain.contains("user=alice") && plain.contains("client=127.0.0.1") && !plain.contains("203.0.113.7"), "\(direct.log())")
    }

    @Test func aTrustedProxyThatIsNotAnAddressIsRefused() throws {
        let run = try ProcessRunner.runProduct("gymlog-server", ["serve", "--port", "0", "--trusted-proxy", "proxy.example"])
        #expect(run.status == 64 && run.stderr.contains("--trusted-proxy \"proxy.example\" is not an IP address"), "\(run.stderr)")
    }

    @Test func sqliteMigrationsAreLogged() throws {
        // Given a new database, when the server starts on it, then each migration is logged by name
        let server = try ServerInstance()
        #expect(server.log().contains("applied SQLite migration") && server.log().contains("name=server-v9-withdrawn-tokens"), "\(server.log())")
        server.stop()
        // And a restart on the migrated file logs none
        let again = try ServerInstance(database: server.database)
        #expect(!again.log().contains("applied SQLite migration"), "\(again.log())")
    }
}
