import Foundation
import GRDB
import GymLogTestSupport
import Testing

/// The sync that runs by itself in an open REPL: the real `gymlog` in a real terminal (a tmux
/// pane) against a real `gymlog-server` on loopback, with nobody typing `sync`.
@Suite(.serialized) struct ReplAutoSyncTests {
    private func loggedIn(_ server: ServerInstance, token: String) throws -> TemporaryHome {
        let home = try TemporaryHome()
        let login = try home.login(server, token: token)
        #expect(login.status == 0, "\(login.stderr)")
        return home
    }

    /// Polls `check` for up to `seconds` and says whether it came true.
    private func eventually(_ seconds: Double = 30, _ check: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try check() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return try check()
    }

    /// The prompt line: the last line on the screen that ends like a prompt.
    private func prompt(_ pane: Tmux) -> String {
        String(pane.screen().split(separator: "\n").last { $0.hasSuffix(">") } ?? "")
    }

    /// The processes the pane's gymlog started that have ended and were not collected (zombies).
    private func uncollectedChildren(_ pane: Tmux) throws -> [String] {
        let panePID = try pane.tmux(["display-message", "-p", "-t", pane.session, "#{pane_pid}"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let children = { (pid: Substring) in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? "").split(separator: " ")
        }
        return children(Substring(panePID)).flatMap(children).filter { pid in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            return status.contains("State:\tZ")
        }.map(String.init)
    }

    @Test(.tmux)
    func aRunOfSetsTypedInTheReplReachesTheServerInOneCycleAndFinishSendsAtOnce() throws {
        // Given a device logged in, with no database yet, and the REPL open in a terminal
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let home = try loggedIn(server, token: token)
        defer { home.remove() }
        let pane = try Tmux.repl(home: home)
        defer { pane.close() }
        // (whose first cycle, from opening, pulls nothing and is done)
        #expect(eventually(10) { prompt(pane) == "gymlog>" && server.requests(to: "/v2/pull") == 2 }, "\(pane.screen())\n\(server.log())")

        // When a run of sets is typed, one right after the other
        pane.enter("bench 100x5")
        pane.enter("+")
        try pane.waitFor("bench #2")

        // Then the prompt shows the changes waiting, until one cycle sends all of them by itself
        try pane.waitFor("2 sets · rest 0:0")
        #expect(eventually(10) { prompt(pane).contains("↑4]") }, "\(pane.screen())")
        #expect(eventually { server.requests(to: "/v1/push") == 1 && !prompt(pane).contains("↑") && !prompt(pane).contains("syncing") },
                "\(pane.screen())\n\(server.log())")
        #expect(server.requests(to: "/v1/push") == 1, "the run of lines made more than one cycle: \(server.log())")
        // And the cycle's process was collected, not left a zombie
        #expect(try eventually(5) { try uncollectedChildren(pane).isEmpty })

        // When the workout is finished, its cycle starts at once (no quiet to wait out)
        pane.enter("finish")
        try pane.waitFor("Finished the workout")
        #expect(eventually(10) { server.requests(to: "/v1/push") == 2 }, "\(server.log())")

        // Then another device reads both sets and the finished workout back
        let laptop = try loggedIn(server, token: token)
        defer { laptop.remove() }
        #expect(try laptop.gymlog(["sync"]).status == 0)
        let show = try laptop.gymlog(["show"])
        #expect(show.stdout.contains("bench") && show.stdout.contains("2 sets") && !show.stdout.contains("in progress"),
                "\(show.stdout) \(show.stderr)")
    }

    @Test(.tmux)
    func aNewDevicesReplBringsTheHistoryInAndThePromptShowsItAtOnce() throws {
        // Given a phone that logged a set into a workout still going, and synced
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let phone = try loggedIn(server, token: token)
        defer { phone.remove() }
        try phone.turnOffAutoSync()
        #expect(try phone.gymlog(["log", "squat 140x5"]).status == 0)
        #expect(try phone.gymlog(["sync"]).status == 0)

        // When a new device logs in and opens the REPL, and nothing is typed
        let laptop = try loggedIn(server, token: token)
        defer { laptop.remove() }
        let pane = try Tmux.repl(home: laptop)
        defer { pane.close() }

        // Then its first cycle pulls the phone's workout, and the prompt shows it without a key pressed
        #expect(eventually { prompt(pane).contains("1 set") }, "\(pane.screen())")
        pane.enter("show")
        try pane.waitFor("squat  140kg x 5")
    }

    @Test(.tmux)
    func anOpenReplCatchesUpWhenTheServerComesBack() throws {
        // Given a device logged in to a server that then goes down, with the REPL open
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let home = try loggedIn(server, token: token)
        defer { home.remove() }
        let port = try #require(server.url.split(separator: ":").last.map(String.init))
        server.stop()
        let pane = try Tmux.repl(home: home)
        defer { pane.close() }

        // When a set is logged while it is down
        pane.enter("bench 100x5")
        try pane.waitFor("bench #1")

        // Then the prompt says it is offline with the changes kept, and the REPL is not held up
        #expect(eventually(15) { prompt(pane).contains("offline ↑3") }, "\(pane.screen())")
        pane.enter("+")
        try pane.waitFor("bench #2")

        // When the server comes back on the same address, with nothing typed
        let back = try ServerInstance(database: server.database, arguments: ["serve", "--db", server.database, "--port", port])
        defer { back.stop() }

        // Then the open REPL sends everything by itself within its backoff (far less than the interval)
        #expect(eventually(40) { back.requests(to: "/v1/push") >= 1 && !prompt(pane).contains("↑") && !prompt(pane).contains("offline") },
                "\(pane.screen())\n\(back.log())")
        let status = try home.gymlog(["status"])
        #expect(status.stdout.contains("0 unsynced changes") && !status.stdout.contains("Last error"), "\(status.stdout)")
    }

    @Test(.tmux)
    func aRefusedTokenStopsTheReplsSyncAndIsSaidOnce() throws {
        // Given a device with a set logged whose token the operator then rotated
        let server = try ServerInstance()
        let home = try loggedIn(server, token: try server.addUser("alice"))
        defer { home.remove() }
        try home.turnOffAutoSync()
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)
        try FileManager.default.removeItem(atPath: home.config)
        #expect(try ProcessRunner.runProduct("gymlog-server", ["user", "rotate", "alice", "--db", server.database]).status == 0)

        // When the REPL opens, its first cycle is refused
        let pane = try Tmux.repl(home: home)
        defer { pane.close() }
        #expect(eventually(15) { prompt(pane).contains("sync stopped") }, "\(pane.screen())")
        let pulls = server.requests(to: "/v2/pull")

        // Then the next line says so once, with what to do; the one after does not repeat it
        pane.enter("+")
        try pane.waitFor("Sync by itself is stopped")
        pane.enter("+")
        try pane.waitFor("bench #3")
        try pane.waitUntil("the prompt after bench #3") { $0.split(separator: "\n").last?.contains("3 sets") == true }
        #expect(pane.screen().components(separatedBy: "Sync by itself is stopped").count == 2, "\(pane.screen())")
        // And it is not tried again in a loop
        Thread.sleep(forTimeInterval: 4)
        #expect(server.requests(to: "/v2/pull") == pulls, "\(server.log())")
        #expect(prompt(pane).contains("sync stopped"), "\(pane.screen())")
    }

    @Test(.tmux)
    func twoReplsAndShellCommandsOnOneDatabaseSendEverySetOnce() throws {
        // Given one database open in two REPLs (two terminals) of a logged-in device
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let home = try loggedIn(server, token: token)
        defer { home.remove() }
        let other = try loggedIn(server, token: token)
        defer { other.remove() }
        let first = try Tmux.repl(home: home)
        defer { first.close() }
        let second = try Tmux(home: other, arguments: ["--db", home.database])
        defer { second.close() }

        // When both log sets while one-shot commands log from a shell, all at once
        for round in 1...4 {
            first.enter("bench 100x\(round)")
            second.enter("squat 140x\(round)")
            #expect(try home.gymlog(["log", "row 80x\(round)"]).status == 0)
            Thread.sleep(forTimeInterval: 0.7)
        }
        try first.waitFor("bench #4")
        try second.waitFor("squat #4")

        // Then the outbox empties by itself, with nothing typed and no `sync`
        #expect(try eventually(60) {
            let status = try home.gymlog(["status", "--json"])
            return status.stdout.contains("\"outbox_depth\": 0,") && !prompt(first).contains("syncing") && !prompt(second).contains("syncing")
        }, "\(first.screen())\n\(second.screen())\n\(server.log())")
        // And another device gets each of the twelve sets exactly once
        let laptop = try loggedIn(server, token: token)
        defer { laptop.remove() }
        #expect(try laptop.gymlog(["sync"]).status == 0)
        let history = try laptop.gymlog(["history", "--json"])
        let workouts = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])["workouts"] as? [[String: Any]]
        let logged = (workouts ?? []).flatMap { ($0["sets"] as? [[String: Any]]) ?? [] }
            .map { "\($0["exercise"] ?? "") \($0["weight"] ?? "")x\($0["reps"] ?? "")" }.sorted()
        let typed = (1...4).flatMap { ["bench 100x\($0)", "squat 140x\($0)", "row 80x\($0)"] }.sorted()
        #expect(logged == typed, "\(history.stdout)")
    }

    @Test(.tmux)
    func anIdleReplBringsInAnotherDevicesSetWithinTheInterval() throws {
        // Given a laptop's REPL open and idle, pulling every 30 s (the shortest interval)
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let laptop = try loggedIn(server, token: token)
        defer { laptop.remove() }
        try "[sync]\ninterval = 30\n".write(toFile: laptop.config, atomically: true, encoding: .utf8)
        let pane = try Tmux.repl(home: laptop)
        defer { pane.close() }
        #expect(eventually(10) { prompt(pane) == "gymlog>" && server.requests(to: "/v2/pull") == 2 }, "\(pane.screen())\n\(server.log())")

        // When a phone logs a set and syncs, and nothing is typed on the laptop
        let phone = try loggedIn(server, token: token)
        defer { phone.remove() }
        try phone.turnOffAutoSync()
        #expect(try phone.gymlog(["log", "row 80x8"]).status == 0)
        #expect(try phone.gymlog(["sync"]).status == 0)

        // Then the laptop's prompt shows the phone's open workout within one interval, unasked
        #expect(eventually(45) { prompt(pane).contains("1 set") }, "\(pane.screen())\n\(server.log())")
        pane.enter("show")
        try pane.waitFor("row  80kg x 8")
    }

    /// A REPL opened seconds after another device logged shows that device's set without
    /// `sync`: opening pulls, however recent the last pull, before anything is typed. And
    /// `login` on a device with a database pulls too.
    @Test(.tmux)
    func aReopenedReplAndALoginPullWhatAnotherDeviceLoggedAtOnce() throws {
        // Given a desktop that synced a moment ago (well within the 5-minute interval)
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let desktop = try loggedIn(server, token: token)
        defer { desktop.remove() }
        #expect(try desktop.gymlog(["sync"]).status == 0)
        // When a laptop logs a set and syncs, and the desktop's REPL opens, and nothing is typed
        let laptop = try loggedIn(server, token: token)
        defer { laptop.remove() }
        try laptop.turnOffAutoSync()
        #expect(try laptop.gymlog(["log", "squat 140x5"]).status == 0)
        #expect(try laptop.gymlog(["sync"]).status == 0)
        let pane = try Tmux.repl(home: desktop)
        // Then the prompt shows the laptop's open workout, unasked
        #expect(eventually(15) { prompt(pane).contains("1 set") }, "\(pane.screen())\n\(server.log())")
        pane.close()

        // When the laptop logs another set, and the desktop logs in again from the shell
        #expect(try laptop.gymlog(["log", "squat 140x5"]).status == 0)
        #expect(try laptop.gymlog(["sync"]).status == 0)
        #expect(try desktop.login(server, token: token).status == 0)
        // Then the login's pull brings it in, with no other command run
        let db = try DatabaseQueue(path: desktop.database)
        #expect(try eventually(15) { try db.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sets WHERE deleted_at IS NULL") } == 2 })
    }
}
