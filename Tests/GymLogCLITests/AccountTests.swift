import Foundation
import GymLogTestSupport
import Testing

/// `gymlog-server user rotate | list | revoke | activate | delete` through the real binaries:
/// what a self-hoster types, and what the user's devices see afterwards.
@Suite struct AccountTests {
    private func admin(_ server: ServerInstance, _ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.runProduct("gymlog-server", ["user"] + arguments + ["--db", server.database])
    }

    @Test func aRotatedTokenSendsEveryDeviceBackToLoginAndTheNewOneSyncs() throws {
        // Given a device of alice that synced
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let phone = try TemporaryHome()
        #expect(try phone.gymlog(["login", "--server", server.url, "--token", token]).status == 0)
        #expect(try phone.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try phone.gymlog(["sync"]).status == 0)

        // When the operator rotates her token
        let rotate = try admin(server, ["rotate", "alice"])
        #expect(rotate.status == 0, "\(rotate.stderr)")
        let newToken = String(rotate.stdout.split(separator: "\n").last ?? "")
        #expect(newToken.hasPrefix("glt_") && newToken != token)
        #expect(rotate.stdout.contains("the old one no longer works"), "\(rotate.stdout)")
        // And its hint keeps the token off the command line (README: standard input)
        #expect(!rotate.stdout.contains("--token") && rotate.stdout.contains("standard input"), "\(rotate.stdout)")

        // Then the device's next sync fails, telling the user to log in again, and status keeps saying so
        #expect(try phone.gymlog(["log", "bench 100x5"]).status == 0)
        let refused = try phone.gymlog(["sync"])
        #expect(refused.status != 0)
        // (saying an administrator gave the account a new token, and to log in with it on standard input)
        #expect(refused.stderr.contains("administrator gave this account a new token") && refused.stderr.contains("gymlog login --server"),
                "\(refused.stderr)")
        #expect(!refused.stderr.contains("--token"), "\(refused.stderr)")
        let status = try phone.gymlog(["status"])
        #expect(status.stdout.contains("Last error:") && status.stdout.contains("gymlog login"), "\(status.stdout)")

        // And after logging in with the new token, the kept outbox goes up
        #expect(try phone.gymlog(["login", "--server", server.url, "--token", newToken]).status == 0)
        let again = try phone.gymlog(["sync"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try phone.gymlog(["status"]).stdout.contains("0 unsynced changes"))
    }

    @Test func listRevokeActivateAndDeleteAUser() throws {
        // Given alice, whose device pushed, and bob, who never synced
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        _ = try server.addUser("bob")
        let phone = try TemporaryHome()
        #expect(try phone.gymlog(["login", "--server", server.url, "--token", token]).status == 0)
        #expect(try phone.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try phone.gymlog(["sync"]).status == 0)

        // Then the list shows her one device, a push time and her records (the exercise, the
        // workout, the set), and bob's none
        let list = try admin(server, ["list"])
        #expect(list.status == 0, "\(list.stderr)")
        let lines = list.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(lines.first == ["NAME", "CREATED", "REVOKED", "DEVICES", "LAST", "PUSH", "RECORDS", "STORED"], "\(list.stdout)")
        let alice = try #require(lines.first { $0.first == "alice" }), bob = try #require(lines.first { $0.first == "bob" })
        #expect(alice[2] == "-" && alice[3] == "1" && alice[4] != "never" && Int(alice[5]) == 3, "\(list.stdout)")
        #expect(bob[3] == "0" && bob[4] == "never" && bob[5] == "0" && bob[6] == "0", "\(list.stdout)")

        // When alice is revoked, a rotation is refused with the way out; activation gives her a token that syncs
        #expect(try admin(server, ["revoke", "alice"]).status == 0)
        let rotate = try admin(server, ["rotate", "alice"])
        #expect(rotate.status != 0 && rotate.stderr.contains("user activate alice"), "\(rotate.stderr)")
        let activate = try admin(server, ["activate", "alice"])
        #expect(activate.status == 0, "\(activate.stderr)")
        let newToken = String(activate.stdout.split(separator: "\n").last ?? "")
        let revoked = try phone.gymlog(["sync"])
        #expect(revoked.status != 0, "the revoked token still works")
        #expect(revoked.stderr.contains("administrator revoked this account") && revoked.stderr.contains("user activate"), "\(revoked.stderr)")
        #expect(try phone.gymlog(["login", "--server", server.url, "--token", newToken]).status == 0)
        #expect(try phone.gymlog(["sync"]).status == 0)

        // When she is deleted without --purge, nothing happens; with it, she and her data are gone
        let unconfirmed = try admin(server, ["delete", "alice"])
        #expect(unconfirmed.status == 64 && unconfirmed.stderr.contains("--purge"), "\(unconfirmed.stderr)")
        let purge = try admin(server, ["delete", "alice", "--purge"])
        #expect(purge.status == 0 && purge.stdout.contains("deleted user alice"), "\(purge.stderr)")
        let after = try admin(server, ["list"])
        #expect(!after.stdout.contains("alice") && after.stdout.contains("bob"), "\(after.stdout)")
        let gone = try phone.gymlog(["sync"])
        #expect(gone.status != 0, "a deleted user's token still works")
        #expect(gone.stderr.contains("administrator deleted this account") && gone.stderr.contains("new account"), "\(gone.stderr)")
        // And a login with that token says the account was deleted, not that the token is unknown
        let relogin = try phone.gymlog(["login", "--server", server.url, "--token", newToken])
        #expect(relogin.status != 0 && relogin.stderr.contains("deleted the account"), "\(relogin.stderr)")
        let missing = try admin(server, ["delete", "alice", "--purge"])
        #expect(missing.status != 0 && missing.stderr.contains("no user named \"alice\""), "\(missing.stderr)")
    }
}
