import Foundation
import GymLogCore
@testable import GymLogCLI
import GymLogTestSupport
import GymLogWire
import Testing

/// `login`, `logout` and `sync` through the real binary against a real server on loopback.
@Suite struct LoginTests {
    @Test func aRefusedTokenIsNotSavedAndTheMessageSaysWhy() throws {
        // Given a running server and a token it never issued
        let server = try ServerInstance()
        let home = try TemporaryHome()
        // When the user logs in with it
        let run = try home.gymlog(["login", "--server", server.url, "--token", "glt_wrong"])
        // Then the login fails, says the token was refused, and nothing was written
        #expect(run.status == 1)
        #expect(run.stderr.contains("refused the token (HTTP 401"), "\(run.stderr)")
        #expect(run.stderr.contains("nothing was saved"))
        #expect(!run.stdout.contains("Logged in"))
        #expect(!FileManager.default.fileExists(atPath: home.config))
        #expect(!FileManager.default.fileExists(atPath: home.database), "login made a database")
    }

    /// `gymlog-server serve --tls-cert --tls-key` serves HTTPS; a device trusts its own
    /// certificate with `login --ca-file` and syncs over it, and without it is told why not.
    @Test func syncOverHTTPSWithACertificateOfOneOwn() throws {
        // Given a certificate for 127.0.0.1 made now, and a server serving HTTPS with it
        let dir = try temporaryDirectory("gymlog-tls")
        let made = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/openssl"), [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
            "-keyout", dir + "/key.pem", "-out", dir + "/cert.pem", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"])
        try #require(made.status == 0, "openssl: \(made.stderr)")
        let server = try ServerInstance(extraArguments: ["--tls-cert", dir + "/cert.pem", "--tls-key", dir + "/key.pem"])
        #expect(server.url.hasPrefix("https://127.0.0.1:"), "\(server.url)")
        let token = try server.addUser("alice")
        let phone = try TemporaryHome(), laptop = try TemporaryHome()
        // When a device logs in without trusting the certificate, it is refused, naming the fix
        let untrusted = try phone.gymlog(["login", "--server", server.url, "--token", token])
        #expect(untrusted.status == 1 && untrusted.stderr.contains("certificate is not trusted") && untrusted.stderr.contains("--ca-file"),
                "\(untrusted.stderr)")
        #expect(!FileManager.default.fileExists(atPath: phone.config))
        // And http:// to the HTTPS port says to try https:// (issue 26, item 21)
        let plain = "http://" + server.url.dropFirst("https://".count)
        let wrongScheme = try phone.gymlog(["login", "--server", plain, "--token", token])
        #expect(wrongScheme.status == 1 && wrongScheme.stderr.contains("if it speaks HTTPS, try \(server.url)"), "\(wrongScheme.stderr)")
        // Then with --ca-file both log in (saving the file in the config) and a set crosses over HTTPS
        for device in [phone, laptop] {
            // The first device makes the account's key; the second gives its recovery phrase
            let phrase = try phone.accountKeyPhrase().map { $0 + "\n" } ?? ""
            let login = try device.gymlog(["login", "--server", server.url, "--token", token, "--ca-file", dir + "/cert.pem"], stdin: phrase)
            #expect(login.status == 0, "\(login.stderr)")
            // The certificate itself is saved with the token, not the file's path (issue 49, item 7)
            let saved = try String(contentsOfFile: device.credentials, encoding: .utf8)
            #expect(saved.contains("ca_certificate = \"-----BEGIN CERTIFICATE-----\\n") && !saved.contains("ca_file"), "\(saved)")
        }
        #expect(try phone.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try phone.gymlog(["sync"]).status == 0)
        let pulled = try laptop.gymlog(["sync"])
        #expect(pulled.status == 0 && pulled.stdout.contains("https://"), "\(pulled.stderr)")
        #expect(try laptop.gymlog(["history"]).stdout.contains("bench: 100kg x 5"))
        // And once the PEM file is gone, both still sync over HTTPS (it was a path, and every sync broke)
        try FileManager.default.removeItem(atPath: dir + "/cert.pem")
        #expect(try phone.gymlog(["log", "squat 140x5"]).status == 0)
        let afterPhone = try phone.gymlog(["sync"])
        #expect(afterPhone.status == 0, "\(afterPhone.stderr)")
        let afterLaptop = try laptop.gymlog(["sync"])
        #expect(afterLaptop.status == 0, "\(afterLaptop.stderr)")
        #expect(try laptop.gymlog(["history"]).stdout.contains("squat: 140kg x 5"))
        // And a credentials file of gymlog 0.11.0, holding the path of a file that is gone, is
        // refused naming the key the file has (`ca_file`, not `sync.ca_file`) and the way out
        let old = try String(contentsOfFile: laptop.credentials, encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("ca_certificate") }.joined(separator: "\n") + "\nca_file = \"\(dir)/cert.pem\"\n"
        try old.write(toFile: laptop.credentials, atomically: true, encoding: .utf8)
        let gone = try laptop.gymlog(["sync"])
        #expect(gone.status != 0 && gone.stderr.contains("ca_file = ") && !gone.stderr.contains("sync.ca_file"), "\(gone.stderr)")
        #expect(gone.stderr.contains("gymlog login --ca-file"), "\(gone.stderr)")
    }

    /// The client speaks HTTP through AsyncHTTPClient: the binary links neither
    /// FoundationNetworking nor curl (whose start-up relocations a one-shot `gymlog log` paid).
    @Test func theClientLinksNoCurl() throws {
        let ldd = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/ldd"), [builtProducts.appendingPathComponent("gymlog").path])
        try #require(ldd.status == 0, "\(ldd.stderr)")
        #expect(!ldd.stdout.contains("curl") && !ldd.stdout.contains("FoundationNetworking"), "\(ldd.stdout)")
        #expect(ldd.stdout.contains("libsqlite3"), "the check reads ldd's list: \(ldd.stdout)")
    }

    /// Issue 26, item 21: an https:// URL on a plain HTTP port printed BoringSSL's error with
    /// the build path.
    @Test func httpsToAPlainServerSaysToTryHTTP() throws {
        let server = try ServerInstance()
        let home = try TemporaryHome()
        let secure = "https://" + server.url.dropFirst("http://".count)
        let run = try home.gymlog(["login", "--server", secure, "--token", try server.addUser("alice")])
        #expect(run.status == 1)
        #expect(run.stderr.contains("does not speak HTTPS (try \(server.url))"), "\(run.stderr)")
        #expect(!run.stderr.contains("BoringSSL") && !run.stderr.contains(".build"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.credentials))
    }

    /// Issue 26, item 28: the token could only be given on the command line (shell history, `ps`).
    @Test func theTokenIsReadFromAPipeWhenNotGiven() throws {
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let home = try TemporaryHome()
        // When nothing comes on standard input, then nothing is saved and it says how to give one
        let none = try home.gymlog(["login", "--server", server.url])
        #expect(none.status == 1 && none.stderr.contains("No token was given on standard input"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.credentials))
        // When the token comes on a pipe, then it is checked and saved, and not echoed
        let piped = try home.gymlog(["login", "--server", server.url], stdin: token + "\n")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(!piped.stdout.contains(token) && !piped.stderr.contains(token))
        #expect(try String(contentsOfFile: home.credentials, encoding: .utf8).contains(token))
    }

    @Test func anUnreachableServerIsNotSaved() throws {
        let home = try TemporaryHome()
        // When the server does not answer (nothing listens on port 9)
        let run = try home.gymlog(["login", "--server", "http://127.0.0.1:9", "--token", "glt_x"])
        // Then it says so and saves nothing
        #expect(run.status == 1)
        #expect(run.stderr.contains("Cannot reach http://127.0.0.1:9"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.config))
    }

    /// Issue 26, item 22: a URL copied with `/v1` asked for `/v1/v1/pull`.
    @Test func aServerURLWithAnEndpointPathIsCutToItsBase() throws {
        // Given a server and a URL typed with `/v1/` after it
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let home = try TemporaryHome()
        // (the set below waits for the `gymlog sync` that counts it)
        try home.turnOffAutoSync()
        // When the lifter logs in with it and syncs
        let login = try home.gymlog(["login", "--server", server.url + "/v1/", "--token", token])
        // Then gymlog says which base it uses, saves that, and syncs
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("Using \(server.url), the server's base URL (from \(server.url)/v1/)."), "\(login.stdout)")
        #expect(try String(contentsOfFile: home.credentials, encoding: .utf8).contains("server = \"\(server.url)\""))
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)
        let sync = try home.gymlog(["sync"])
        #expect(sync.status == 0 && sync.stdout.contains("pushed 3"), "\(sync.stdout) \(sync.stderr)")
        #expect(Login.baseURL("https://gym.example/v2//") == "https://gym.example")
        #expect(Login.baseURL("http://h:8080/sync/") == "http://h:8080/sync")
    }

    @Test func aGoodTokenIsSavedAndSyncCountsOnlyOtherDevicesChanges() throws {
        // Given a server, a user and two devices
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let phone = try TemporaryHome(), laptop = try TemporaryHome()
        for device in [phone, laptop] {
            let phrase = try phone.accountKeyPhrase().map { $0 + "\n" } ?? ""
            let login = try device.gymlog(["login", "--server", server.url, "--token", token], stdin: phrase)
            #expect(login.status == 0 && login.stdout.contains("Logged in to \(server.url)"), "\(login.stderr)")
        }
        // When the phone logs two sets and syncs twice
        #expect(try phone.gymlog(["log", "bench 100x5x2"]).status == 0)
        let first = try phone.gymlog(["sync"])
        #expect(first.stdout.contains("pulled 0 changes"), "\(first.stdout)")
        let second = try phone.gymlog(["sync"])
        // Then its own changes coming back are not counted as pulled
        #expect(second.status == 0)
        #expect(second.stdout.contains("pulled 0 changes"), "own changes counted: \(second.stdout)")
        // And the laptop pulls them as changes (the exercise, the workout, the sets)
        let laptopSync = try laptop.gymlog(["sync"])
        #expect(laptopSync.stdout.contains("pulled ") && !laptopSync.stdout.contains("pulled 0 "), "\(laptopSync.stdout)")
    }

    /// The config is the user's: login and logout write the credentials file, never the config.
    @Test func loginThenLogoutLeaveACommentedConfigByteIdentical() throws {
        // Given a server, a user, and a config full of comments, odd spacing and no final newline
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let home = try TemporaryHome()
        let config = "# my gym\nunit = \"lb\"     # pounds, always\n\n#  the plates at the club\n[plates]\nlb_bar = 45 # the stiff bar\n# end"
        try config.write(toFile: home.config, atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: URL(fileURLWithPath: home.config))
        // When the user logs in, syncs and logs out through the real binary
        let login = try home.gymlog(["login", "--server", server.url, "--token", token])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(!login.stdout.contains("[sync] lines"), "\(login.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.config)) == before)
        // Then the server and token are in the credentials file, readable by its owner only
        let saved = try String(contentsOfFile: home.credentials, encoding: .utf8)
        #expect(saved.contains("server = \"\(server.url)\"") && saved.contains("token = \"\(token)\""), "\(saved)")
        let mode = try FileManager.default.attributesOfItem(atPath: home.credentials)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try home.gymlog(["sync"]).status == 0)
        #expect(try home.gymlog(["logout"]).status == 0)
        // And after logout the config is still byte for byte what the user wrote, and sync has no server
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.config)) == before)
        #expect(try home.gymlog(["sync"]).stderr.contains("No sync server is set"))
    }

    /// An older config's `[sync]` lines keep working until the next login, which leaves them
    /// in place, says they are no longer read, and from then on they are ignored.
    @Test func anOldSyncSectionWorksUntilLoginThenIsLeftAndIgnored() throws {
        // Given a config an older gymlog wrote, with the server and token in [sync]
        let server = try ServerInstance()
        let token = try server.addUser("alice")
        let home = try TemporaryHome()
        let config = "unit = \"kg\"\n\n[sync]\nserver = \"\(server.url)\"\ntoken = \"\(token)\"\n"
        try config.write(toFile: home.config, atomically: true, encoding: .utf8)
        // When it syncs, it uses them
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)
        let sync = try home.gymlog(["sync"])
        #expect(sync.status == 0 && sync.stdout.contains(server.url), "\(sync.stderr)")
        // Then a login saves the credentials apart, leaves the config as it was and says the lines can go
        let login = try home.gymlog(["login", "--server", server.url, "--token", token])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("[sync] lines in \(home.config) are no longer read"), "\(login.stdout)")
        #expect(try String(contentsOfFile: home.config, encoding: .utf8) == config)
        // And after logout the old lines do not log the user back in
        #expect(try home.gymlog(["logout"]).status == 0)
        #expect(try String(contentsOfFile: home.config, encoding: .utf8) == config)
        let after = try home.gymlog(["sync"])
        #expect(after.status != 0 && after.stderr.contains("No sync server is set"), "\(after.stderr)")
    }

    @Test func aBadConfigValueNamesTheFileTheKeyAndWhatIsAllowed() throws {
        // Given a config whose third line holds a value out of range
        let home = try TemporaryHome()
        try "# mine\nunit = \"kg\"\nidle_gap_minutes = 0\n".write(toFile: home.config, atomically: true, encoding: .utf8)
        // When any command reads it
        let run = try home.gymlog(["history"])
        // Then the error names the file, quotes the key and value, and says what is allowed
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(home.config): idle_gap_minutes = 0 must be a whole number of minutes from 1 to 10080"),
                "\(run.stderr)")
    }

    @Test func logoutClearsTheLastErrorStatusShows() throws {
        // Given a device whose last sync failed
        let home = try TemporaryHome()
        try "[sync]\nserver = \"http://127.0.0.1:9\"\ntoken = \"glt_x\"\n".write(toFile: home.config, atomically: true, encoding: .utf8)
        #expect(try home.gymlog(["log", "bench 100x5"]).status == 0)
        #expect(try home.gymlog(["sync"]).status == 1)
        #expect(try home.gymlog(["status"]).stdout.contains("Last error:"))
        // When the user logs out
        #expect(try home.gymlog(["logout"]).status == 0)
        // Then status no longer shows that error; the outbox is kept
        let status = try home.gymlog(["status"])
        #expect(!status.stdout.contains("Last error:"), "\(status.stdout)")
        #expect(status.stdout.contains("unsynced change") && !status.stdout.contains("Outbox:     0"), "\(status.stdout)")
    }
}

/// Issue 48 (10): a recovery phrase with one word that is no recovery word.
@Suite struct RecoveryPhraseTypoTests {
    static let key = AccountKey.random()
    static var typo: String {
        var words = key.phrase
        words[6] = "zzzz" + words[6]
        return words.joined(separator: " ")
    }

    @Test func onATerminalTheWrongWordIsAskedForAgainByItsPosition() throws {
        // Given the 24 words with word 7 mistyped, typed at a terminal
        var asked: [String] = []
        let answers = ["notaword", Self.key.phrase[6]]
        // When the login reads the phrase and the word is typed wrong again, then right
        let key = try Login.key(Self.typo, reask: { prompt in asked.append(prompt); return answers[asked.count - 1] })
        // Then it is asked for by its position, naming what was typed, until it is a recovery word
        #expect(key.phrase == Self.key.phrase)
        #expect(asked.count == 2)
        #expect(asked[0].contains("word 7, 'zzzz\(Self.key.phrase[6])', is not a recovery word") && asked[0].contains("Type word 7 again"), "\(asked)")
        #expect(asked[1].contains("word 7, 'notaword'"), "\(asked)")
    }

    @Test func anEmptyAnswerGivesUpAndOffATerminalTheTypoIsTheError() throws {
        let gaveUp = #expect(throws: UserError.self) { try Login.key(Self.typo, reask: { _ in "" }) }
        #expect(gaveUp?.message.contains("word 7") == true && gaveUp?.message.contains("Nothing was saved") == true)
        let piped = #expect(throws: UserError.self) { try Login.key(Self.typo, reask: nil) }
        #expect(piped?.message.contains("word 7, 'zzzz") == true, "\(String(describing: piped))")
    }

    @Test func aWordIsReplacedInPlaceWhateverTheSeparators() {
        #expect(RecoveryPhrase.replacingWord(2, in: "abandon, ablee  about", with: " able ") == "abandon able about")
        #expect(RecoveryPhrase.replacingWord(9, in: "abandon able", with: "x") == "abandon able")
    }
}
