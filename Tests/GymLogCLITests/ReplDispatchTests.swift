import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore
@testable import GymLogCLI
import GymLogTestSupport
import Testing

/// The REPL runs the shell's command tree: async commands run to completion from a line, and
/// `help` and completion list exactly the tree's commands.
@Suite struct ReplDispatchTests {
    @Test func aLoginTypedInTheReplAwaitsTheServerAndSavesWhatItAnswered() async throws {
        // Given a real server with a user, and a REPL session
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let s = try ReplTestSession()
        // When `login` is typed (the command awaits HTTP requests)
        let outcome = await s.repl.handle("login --server \(server.url) --token \(token)")
        // Then it ran to the end: it asked the server, printed, and saved the config after the awaits
        let (out, err) = s.output.take()
        #expect(outcome == .ok, "\(err)")
        #expect(server.requests(to: "/v1/capabilities") == 1 && server.requests(to: "/v2/pull") == 1, "\(server.log())")
        // A new account: its key is made here (nobody to ask for a phrase), shown once as 24 words
        #expect(server.requests(to: "/v1/account/key") == 1 && server.requests(to: "/v1/account") == 2, "\(server.log())")
        #expect(out.first?.hasPrefix("Your history is encrypted end to end with a new key") == true, "\(out)")
        #expect(out.dropFirst().prefix(6).allSatisfy { $0.hasPrefix(" ") && $0.contains(". ") } && out.count == 8, "\(out)")
        #expect(out.last == "Logged in to \(server.url). Your history is encrypted end to end. From now on changes sync by themselves in the background (`sync.auto`); `sync` syncs now.")
        let settings = try ConfigFile.load(s.context.paths.config, credentials: s.context.paths.credentialsFile)
        #expect(settings.server == server.url && settings.token == token && settings.account == "alice")
        let phrase = try #require(settings.accountKey)
        #expect(phrase.split(separator: " ").count == 24 && out.dropFirst().prefix(6).joined().contains(phrase.split(separator: " ")[5]))
        // And the lines after it sync with what it saved (`status`, `sync`, the sync by itself)
        #expect(s.repl.context.settings.server == server.url && s.repl.context.settings.token == token)
    }

    @Test func aLoginToSomethingThatIsNotAGymlogServerSavesNothing() async throws {
        // Given a web server that answers 200 with JSON of another shape
        let server = try OneAnswerHTTPServer(body: #"{"hello":"world"}"#)
        let s = try ReplTestSession()
        // When `login` is typed
        let outcome = await s.repl.handle("login --server \(server.url) --token glt_test")
        // Then it says the URL is no gymlog server, and nothing was saved
        let (_, err) = s.output.take()
        #expect(outcome == .failed)
        #expect(server.requestLine() == "GET /v1/capabilities HTTP/1.1")
        #expect(err.count == 1 && err[0].contains("\(server.url) does not answer as a gymlog sync server") && err[0].contains("Nothing was saved"), "\(err)")
        #expect(!FileManager.default.fileExists(atPath: s.context.paths.config))
    }

    @Test func aSyncTypedInTheReplThatCannotConnectFinishesAndRecordsWhy() async throws {
        // Given a session whose server refuses connections
        let s = try ReplTestSession(settings: Settings(server: "http://127.0.0.1:9", token: "glt_x"))
        #expect(await s.repl.handle("bench 100x5") == .ok)
        _ = s.output.take()
        // When `sync` is typed
        let outcome = await s.repl.handle("sync")
        // Then it fails with one line, and the failure was recorded after the awaited request
        let (_, err) = s.output.take()
        #expect(outcome == .failed)
        #expect(err.count == 1 && err.first?.hasPrefix("error: Sync failed:") == true, "\(err)")
        let state = try s.context.db().syncState()
        #expect(state.lastError != nil && state.outboxDepth > 0)
        #expect(await s.repl.handle("status") == .ok)
        #expect(s.output.take().out.contains { $0.hasPrefix("Last error:") })
    }

    @Test func helpListsExactlyTheTreesCommandsWithTheirAbstracts() async throws {
        // Given the command tree the shell parses
        let names = Gymlog.configuration.subcommands.map { $0._commandName }
        let s = try ReplTestSession()
        // When `help` is typed
        #expect(await s.repl.handle("help") == .ok)
        let lines = s.output.take().out
        // Then it shows the entry-line forms, each command once with its abstract, and quit
        let first = lines.map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(first == ["bench", "+"] + names + ["help", "quit"])
        for command in Gymlog.configuration.subcommands {
            #expect(lines.contains { $0.hasSuffix("  " + command.configuration.abstract) }, "\(command._commandName)")
        }
        #expect(names.contains("start") && names.contains("redo") && names.contains("login") && names.contains("repl"))
    }

    @Test func replTypedInsideTheReplSaysWhereYouAreAndWritesNothing() async throws {
        // Given a session
        let s = try ReplTestSession()
        // When `repl` is typed (a shell command that makes no sense inside the REPL)
        #expect(await s.repl.handle("REPL") == .ok)
        // Then it says so instead of taking `repl` for an unknown exercise
        let (out, err) = s.output.take()
        #expect(err == [])
        #expect(out == ["You are in the REPL already: type a set like `bench 100x5`, or `help` for the commands."])
        #expect(try s.context.db().exerciseNames().isEmpty)
    }

    @Test func completionOffersEveryCommandAndTheExerciseForms() async throws {
        // Given a session with one exercise
        let s = try ReplTestSession()
        #expect(await s.repl.handle("Bench 100x5") == .ok)
        // When completion words are asked for
        let words = s.repl.completions()
        // Then they hold every command of the tree, the exercise, and `prs/history/chart NAME`
        for command in Gymlog.configuration.subcommands where command._commandName != "repl" {
            #expect(words.contains(command._commandName), "\(command._commandName)")
        }
        #expect(Set(words).isSuperset(of: ["Bench", "prs Bench", "history Bench", "chart Bench", "last Bench", "help", "quit"]))
        #expect(!words.contains("repl") && !words.contains("show Bench"))
    }

    @Test func aTabOverSeveralNamesStopsAtTheirSharedWordsWithoutASpace() {
        let words = ["Lateral Raise (Dumbbell)", "Lateral Raise To Front Raise (Dumbbell)", "Lat Pulldown (Cable)", "last",
                     "last Lateral Raise (Dumbbell)", "Bench Press"]
        // Several names: the shared start without the space after it, then the candidates
        #expect(completion(of: "later", after: "", among: words)
            == ["Lateral Raise", "Lateral Raise (Dumbbell)", "Lateral Raise To Front Raise (Dumbbell)"])
        // One name: it alone (readline adds the space)
        #expect(completion(of: "bench", after: "", among: words) == ["Bench Press"])
        // After `last `, exercise names complete, the line before the word kept
        #expect(completion(of: "Lateral", after: "last ", among: words) == ["Lateral Raise (Dumbbell)"])
        // A shared start shorter than what was typed (`Lat...` and `last` differ in case) keeps what was typed
        #expect(completion(of: "la", after: "", among: words).first == "la")
        #expect(completion(of: "squat", after: "", among: words).isEmpty)
    }

    @Test func everyFirstWordOfTheTreeRunsItsCommandAndOthersAreEntryLines() async throws {
        // Given a session
        let s = try ReplTestSession()
        // When a command's name is typed in any case, then the command answers (not the entry parser)
        #expect(await s.repl.handle("REDO") == .failed)
        #expect(s.output.take().err.first?.hasPrefix("error: ") == true)
        #expect(await s.repl.handle("Finish") == .ok)
        #expect(s.output.take().out == ["No workout is open; log a set to start one, e.g. `bench 100x5`."])
        // And text commands take the rest of the line as typed, options and all
        #expect(await s.repl.handle("start  --leg day") == .ok)
        #expect(s.output.take().out.first?.hasPrefix("Started '--leg day' at ") == true)
        // And `--help` alone shows the command's usage
        #expect(await s.repl.handle("note --help") == .ok)
        #expect(s.output.take().err.contains { $0.contains("USAGE: gymlog note") })
    }
}

/// A loopback HTTP server on a thread of its own that answers one request with 200 and `body`.
final class OneAnswerHTTPServer: @unchecked Sendable {
    let url: String
    private let lock = NSLock()
    private var firstLine: String?
    private let done = DispatchSemaphore(value: 0)

    init(body: String) throws {
        let (fd, port) = try loopbackListener(backlog: 1)
        url = "http://127.0.0.1:\(port)"
        Thread.detachNewThread { [self] in
            defer { close(fd); done.signal() }
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var request = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.suffix(4).elementsEqual([13, 10, 13, 10]) {
                let n = read(connection, &buffer, buffer.count)
                if n <= 0 { break }
                request += buffer[0..<n]
            }
            lock.withLock { firstLine = String(decoding: request, as: UTF8.self).components(separatedBy: "\r\n").first }
            let answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            _ = answer.withCString { write(connection, $0, strlen($0)) }
        }
    }

    /// The request line the server got, once it has answered (nil if no request came within 10 s).
    func requestLine() -> String? {
        guard done.wait(timeout: .now() + 10) == .success else { return nil }
        return lock.withLock { firstLine }
    }
}
