import Foundation
import GRDB
import GymLogCore
import GymLogSyncClient
import GymLogTestSupport
import GymLogWire
import Testing

/// Issue 45, defect 2: a server that says an account is kept in the clear (or knows no
/// encryption) cannot make a device give up its key. A device given a recovery phrase, or that
/// has synced the account encrypted, never sends it plaintext: `login` refuses, naming the
/// conflict, and saves nothing.
@Suite struct DowngradeTests {
    /// An account a client from before encryption pushed to: the server keeps it in the clear.
    private func accountInTheClear(_ server: ServerInstance, _ name: String) async throws -> String {
        let token = try server.addUser(name)
        let clock = HLC(millis: 1_763_719_000_000, counter: 0, node: "old-device")
        _ = try await HTTPSyncTransport(baseURL: URL(string: server.url)!, token: token).push(PushRequest(deviceID: "old-device", events: [
            PushEvent(seq: 1, idempotencyKey: "k1", entity: "exercises", entityID: "0193a1b2-0000-7000-8000-000000000002", op: "create",
                      fields: ["name": WireField(v: .text("Plain Pendlay Row"), c: clock), "kind": WireField(v: .text("weighted"), c: clock)]),
        ]))
        return token
    }

    @Test func aPhraseGivenForAnAccountTheServerKeepsInTheClearIsNeverDroppedSilently() async throws {
        // Given an account the server says is kept in the clear
        let server = try ServerInstance()
        let token = try await accountInTheClear(server, "plain")
        let home = try TemporaryHome()
        defer { home.remove() }

        // When a device logs in with a recovery phrase on the line after the token
        let phrase = AccountKey.random().phrase.joined(separator: " ")
        let login = try home.gymlog(["login", "--server", server.url], stdin: token + "\n" + phrase + "\n")

        // Then the login is refused, naming the conflict, and nothing is saved
        #expect(login.status == 1, "\(login.stdout)")
        #expect(login.stderr.contains("kept in the clear") && login.stderr.contains("a recovery phrase was given"), "\(login.stderr)")
        let saved = (try? String(contentsOfFile: home.credentials, encoding: .utf8)) ?? ""
        #expect(!saved.contains(token), "the token was saved: \(saved)")
    }

    @Test func aDeviceThatSyncedEncryptedRefusesAServerThatNowSaysTheAccountIsInTheClear() async throws {
        // Given a device that synced an encrypted account
        let honest = try ServerInstance()
        let token = try honest.addUser("lifter")
        let home = try TemporaryHome()
        defer { home.remove() }
        #expect(try home.login(honest, token: token).status == 0)
        let phrase = try #require(try home.accountKeyPhrase())
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try home.gymlog(["sync"]).status == 0)

        // When the same address now answers as a server that keeps the account in the clear
        // (a replaced or malicious one: here a server on the same port with a plain account)
        let port = try #require(honest.url.split(separator: ":").last.map(String.init))
        honest.stop()
        let folder = try temporaryDirectory("gymlog-replaced")
        let replaced = try ServerInstance(database: "sqlite:\(folder)/server.sqlite", arguments: ["serve", "--db", "sqlite:\(folder)/server.sqlite", "--port", port])
        let plainToken = try await accountInTheClear(replaced, "lifter")
        let login = try home.gymlog(["login", "--server", replaced.url, "--token", plainToken])

        // Then the login is refused, the key stays, and nothing goes out in the clear
        #expect(login.status == 1, "\(login.stdout)")
        #expect(login.stderr.contains("this device holds the account's key"), "\(login.stderr)")
        #expect(try home.accountKeyPhrase() == phrase)
        #expect(try home.gymlog(["log", "squat 140x3 # secret-plan"]).status == 0)
        _ = try home.gymlog(["sync"])
        #expect(!replaced.log().contains("secret-plan"))
        let found = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/grep"), ["-r", "-l", "secret-plan", folder])
        #expect(found.stdout.isEmpty, "plaintext on the replaced server: \(found.stdout)")
    }
}

/// Issue 45, defect 3: the server kept the account key's verifier as a device sends it, so a
/// stolen database (or backup) and a token were enough to pull the sealed history and push
/// forged values. It keeps only the verifier's hash now.
@Suite struct StolenServerDatabaseTests {
    @Test func theServersFilesHoldNoVerifierAsSentAndWhatTheyHoldOpensNothing() async throws {
        // Given an encrypted account with a synced set
        let server = try ServerInstance()
        let token = try server.addUser("keyed")
        let home = try TemporaryHome()
        defer { home.remove() }
        #expect(try home.login(server, token: token).status == 0)
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try home.gymlog(["sync"]).status == 0)
        let verifier = try #require(try home.valueSeal()).key.verifier

        // When the server's files are read, as a thief with a copy of them would
        let file = String(server.database.dropFirst("sqlite:".count))
        let folder = (file as NSString).deletingLastPathComponent
        let found = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/grep"), ["-r", "-l", verifier, folder])
        let stored = try #require(try await DatabaseQueue(path: file).read { try String.fetchOne($0, sql: "SELECT key_verifier FROM users WHERE name = 'keyed'") })

        // Then no file holds the verifier a device sends, and what is stored, sent with the
        // token, is refused
        #expect(found.stdout.isEmpty, "the verifier as sent is in \(found.stdout)")
        #expect(stored != verifier && stored.count == 64)
        var thief = HTTPSyncTransport(baseURL: URL(string: server.url)!, token: token)
        thief.keyVerifier = stored
        await #expect(throws: SyncTransportError.self) {
            _ = try await thief.pull(cursor: SyncCursor(epoch: nil, position: 0), limit: 10, deviceID: "thief")
        }
        // And the device with the key still syncs
        #expect(try home.gymlog(["log", "squat 140x3"]).status == 0)
        #expect(try home.gymlog(["sync"]).status == 0)
    }
}
