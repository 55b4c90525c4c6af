import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore
import GymLogWire
import GymLogSyncClient

struct Login: SavesCredentials {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Check the sync server and your token, then save them in the credentials file (mode 0600).",
        discussion: """
          gymlog login --server http://127.0.0.1:8080
              (asks for the token)
          gymlog login --server http://127.0.0.1:8080 < token.txt
          gymlog login --server http://127.0.0.1:8080 --register alice

        Without --token or --register the token is read from standard input: typed after a \
        prompt, not shown, on a terminal; the first line of a pipe or file otherwise. That \
        keeps it out of the shell's history and `ps`. --register works on servers with open \
        registration.

        The server is asked first: nothing is saved when it cannot be reached, is not a gymlog \
        server, or refuses the token.

        End-to-end encryption: the first device of a new account makes the account's key (press \
        Enter when asked for a recovery phrase, or give an empty line after the token on a \
        pipe) and shows its recovery phrase once; `gymlog key` shows it again. Every other \
        device gives that phrase when asked (not shown on a terminal; the line after the token \
        on a pipe). A phrase that is not the account's key is refused and nothing is saved. An \
        account made before encryption stays in the clear until `gymlog key enable`.
        """
    )
    @OptionGroup var global: GlobalOptions
    @Option(help: "The server's base URL, e.g. http://127.0.0.1:8080.") var server: String
    @Option(help: "The bearer token from `gymlog-server user add` (left out, it is read from standard input).") var token: String?
    @Option(help: "Create an account on a server with open registration.") var register: String?
    @Option(help: ArgumentHelp("Trust the certificates in this PEM file too (a server with a certificate of its own); the certificates themselves are saved with the token, so the file may go afterwards.",
                               valueName: "pem-file"))
    var caFile: String?

    func validate() throws {
        guard let url = URL(string: server), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("--server \(server) is not an http(s) URL, e.g. http://127.0.0.1:8080.")
        }
        guard token == nil || register == nil else {
            throw ValidationError("Give either --token TOKEN or --register NAME, not both.")
        }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw ValidationError("--ca-file \(caFile): there is no readable file there; give the path of the server's certificate (PEM).")
        }
    }

    /// The server's base URL as gymlog keeps it: without a trailing `/`, `/v1` or `/v2`
    /// (a URL copied from an endpoint would otherwise ask for `/v1/v1/pull`).
    static func baseURL(_ typed: String) -> String {
        var base = typed
        while true {
            if base.hasSuffix("/") { base.removeLast(); continue }
            if let tail = Endpoint.versionPrefixes.first(where: base.hasSuffix) { base.removeLast(tail.count); continue }
            return base
        }
    }

    func run(in context: CLIContext) async throws {
        let server = Self.baseURL(self.server)
        if server != self.server { context.print("Using \(server), the server's base URL (from \(self.server)).") }
        let url = URL(string: server)!
        let existing = try context.existingDB()
        // A device that has not synced yet has no id the server knows; the check only reads.
        let deviceID = existing?.deviceID ?? "login-check"
        var token = self.token
        if token == nil, register == nil {
            let typed = context.readSecret?("Token for \(server) (from `gymlog-server user add`; not shown): ")?
                .trimmingCharacters(in: .whitespaces)
            guard let typed, !typed.isEmpty else {
                throw UserError("No token was given on standard input, so nothing was saved. Paste the token from "
                    + "`gymlog-server user add` when asked, pipe it in (`gymlog login --server \(server) < token.txt`), "
                    + "or use --register NAME on a server with open registration.")
            }
            token = typed
        }
        // The certificate itself is saved with the token, not the file's path: the file may be
        // deleted or moved once the device logged in (a path broke every sync then).
        let caCertificate = try self.caFile.map { file in
            guard let data = FileManager.default.contents(atPath: file) else {
                throw UserError("--ca-file \(file): the file cannot be read; give the path of the server's certificate (PEM).")
            }
            return String(decoding: data, as: UTF8.self)
        } ?? context.settings.caCertificate
        let info: AccountInfo?
        let key: AccountKey?
        do {
            if let name = register {
                try await HTTPSyncTransport(baseURL: url, token: nil, timeout: 15, caCertificate: caCertificate).checkLogin(deviceID: deviceID)
                let response = try await HTTPSyncTransport(baseURL: url, token: nil, timeout: 15, caCertificate: caCertificate).register(name: name)
                token = response.token
                context.print("Registered '\(response.user)'. Your token (also saved in the credentials file): \(response.token)")
            }
            var transport = try HTTPSyncTransport(baseURL: url, token: token, timeout: 15, caCertificate: caCertificate)
            try await transport.checkServer()
            info = try await transport.account()
            key = try await accountKey(of: info, transport: transport, in: context)
            transport.keyVerifier = key?.verifier
            try await transport.checkToken(deviceID: deviceID)
        } catch let error as SyncTransportError {
            throw UserError(Self.explain(error, server: server))
        }
        try ConfigFile.saveCredentials(context.paths.credentialsFile, server: server, token: token, caCertificate: caCertificate,
                                       account: info?.user, key: key?.phrase.joined(separator: " "))
        try existing?.clearSyncError()
        // What this device made before it held the key (exercises named, files imported) gets
        // keyed ids before anything of it is sent.
        if let key { try existing?.keyDerivedIDs(with: key) }
        if info == nil {
            // A server from before 0.12.0: no `/v1/account`, no encryption, for a new account too.
            context.print("The server at \(server) is older than gymlog 0.12.0 and does not offer end-to-end encryption: it keeps "
                + "your history in the clear. Once its administrator upgrades it, `gymlog key enable` encrypts it.")
        } else if let info, key == nil {
            context.print("The account \(info.user)'s history is kept in the clear on the server (it was made before end-to-end "
                + "encryption); `gymlog key enable` encrypts it.")
        }
        context.print("Logged in to \(server). " + (key == nil ? "" : "Your history is encrypted end to end. ") + (context.settings.autoSync
            ? "From now on changes sync by themselves in the background (`sync.auto`); `gymlog sync` syncs now."
            : "Run `gymlog sync` to sync (`sync.auto` is off)."))
        // What another device logged comes in, and what this device logged before it was
        // logged in goes up, now, in the background (this command's own check ran with the
        // settings from before the login). A device with no database yet makes none here: its
        // first command's cycle brings the history in.
        if context.settings.autoSync, existing != nil {
            BackgroundSync.start(context, afterExit: true, pulling: true)
        }
        // The user's lines are theirs to remove: say that they are no longer read.
        if ConfigFile.hasOldSyncLines(context.paths.config) {
            context.print("The [sync] lines in \(context.paths.config) are no longer read (the server and token are now in "
                + "\(context.paths.credentialsFile)); you can delete them.")
        }
    }

    /// The key this device seals the account's values with: the account's own for an
    /// encrypted account (the one saved here before, or the recovery phrase asked for); a new
    /// one, or the phrase given, made the key of an empty account (shown once when new); nil
    /// for an account kept in the clear, or a server from before end-to-end encryption.
    func accountKey(of info: AccountInfo?, transport: HTTPSyncTransport, in context: CLIContext) async throws -> AccountKey? {
        guard let info, info.encrypted || info.empty else {
            try Self.refuseDowngrade(info, server: Self.baseURL(server), in: context)
            return nil
        }
        if info.encrypted {
            // Logging in again to the same account (a new token, after `logout`) needs no phrase.
            if context.settings.account == info.user, let saved = try? context.settings.valueSeal()?.key {
                var check = transport
                check.keyVerifier = saved.verifier
                if (try? await check.checkToken(deviceID: "login-check")) != nil { return saved }
            }
            let typed = context.readSecret?("Recovery phrase of \(info.user)'s history (24 words; not shown): ")?
                .trimmingCharacters(in: .whitespaces) ?? ""
            guard !typed.isEmpty else {
                throw UserError("The account \(info.user)'s history is encrypted end to end, and no recovery phrase was given, so nothing "
                    + "was saved. Run `gymlog key` on a device that syncs and give its 24 words when asked (on a pipe: the line after the token).")
            }
            return try Self.key(typed, reask: Self.reaskOnTerminal(context))
        }
        guard info.empty else { return nil }
        let typed = context.readSecret?("Recovery phrase (Enter makes a new key; not shown): ")?.trimmingCharacters(in: .whitespaces) ?? ""
        let key = typed.isEmpty ? AccountKey.random() : try Self.key(typed, reask: Self.reaskOnTerminal(context))
        do {
            _ = try await transport.setAccountKey(verifier: key.verifier)
        } catch let error as SyncTransportError where error.code == ErrorCode.keyExists.rawValue {
            throw UserError("Another device made this account's key meanwhile, so nothing was saved. Run `gymlog key` there and "
                + "log in again here with its recovery phrase.")
        }
        if typed.isEmpty {
            context.print("Your history is encrypted end to end with a new key that only your devices hold. Write down its recovery "
                + "phrase: a new device needs it, and nobody can recover your history without it (`gymlog key` shows it again):")
            for line in AccountKeyText.phraseLines(key) { context.print(line) }
        }
        return key
    }

    /// A device that holds the account's key (it has synced the account encrypted) or is given
    /// a recovery phrase never sends the history in the clear: when the server says the
    /// account is kept in the clear (`info` unencrypted) or knows no encryption (`info` nil),
    /// the login is refused, naming the conflict. A server's word is not enough to give up
    /// encryption: a malicious or replaced one would then read every change sent.
    static func refuseDowngrade(_ info: AccountInfo?, server: String, in context: CLIContext) throws {
        let settings = context.settings
        let heldKey = settings.accountKey != nil && settings.server.map(baseURL) == server && (info == nil || settings.account == info?.user)
        // The phrase, on a pipe, is the line after the token; a terminal is asked nothing here.
        let givenPhrase = heldKey || isatty(STDIN_FILENO) == 1 ? nil
            : (context.readSecret?("")?.trimmingCharacters(in: .whitespaces)).flatMap { $0.isEmpty ? nil : $0 }
        guard heldKey || givenPhrase != nil else { return }
        let says = info.map { "says the account \($0.user)'s history is kept in the clear" } ?? "does not know end-to-end encryption"
        let why = heldKey ? "this device holds the account's key (it has synced the account encrypted)"
                          : "a recovery phrase was given for it"
        throw UserError("The server at \(server) \(says), but \(why). Sending to it in the clear would let the server read your "
            + "history, so nothing was saved. If its administrator really reset the account, run `gymlog logout` and log in again "
            + "without a phrase; otherwise do not trust this server (check its URL).")
    }

    /// How a terminal asks for one word again (not shown); nil off a terminal, where the
    /// phrase is the line after the token and a wrong word stays an error.
    static func reaskOnTerminal(_ context: CLIContext) -> ((String) -> String?)? {
        isatty(STDIN_FILENO) == 1 ? context.readSecret : nil
    }

    /// The key a typed recovery phrase spells, or what is wrong with it. With `reask` (a
    /// terminal), a word that is no recovery word is asked for again by its position, as
    /// often as it takes, so one typo does not cost the token and the other 23 words; an
    /// empty answer gives up.
    static func key(_ typed: String, reask: ((String) -> String?)? = nil) throws -> AccountKey {
        var phrase = typed
        while true {
            do { return try AccountKey(phrase: phrase) } catch {
                guard let reask, case .unknownWord(let position, _) = error else {
                    throw UserError("That recovery phrase is not readable: \(error) Nothing was saved.")
                }
                let again = reask("The \(error) Type word \(position) again (not shown; an empty line gives up): ")?
                    .trimmingCharacters(in: .whitespaces) ?? ""
                guard !again.isEmpty else {
                    throw UserError("That recovery phrase is not readable: \(error) Nothing was saved.")
                }
                phrase = RecoveryPhrase.replacingWord(position, in: phrase, with: again)
            }
        }
    }

    /// Why a login was refused, and that nothing was saved.
    static func explain(_ error: SyncTransportError, server: String) -> String {
        switch error {
        case .unauthorized(_, nil):
            return "The server at \(server) refused the token (HTTP 401: unknown to it); nothing was saved. "
                + "Check the token, or ask the server's operator for one (`gymlog-server user add NAME`)."
        case .unauthorized(_, .rotated?):
            return "The server at \(server) refused the token: its administrator replaced it with a new one (`gymlog-server user rotate`). "
                + "Nothing was saved; log in with the new token."
        case .unauthorized(_, .revoked?):
            return "The server at \(server) refused the token: its administrator revoked the account (`gymlog-server user revoke`). "
                + "Nothing was saved; ask them to let it in again (`gymlog-server user activate` gives a new token) and log in with that."
        case .unauthorized(_, .deleted?):
            return "The server at \(server) refused the token: its administrator deleted the account (`gymlog-server user delete`). "
                + "Nothing was saved; ask them for a new account and log in with its token."
        case .unreachable(_, let reason):
            return "Cannot reach \(server): \(reason). Nothing was saved; check the URL and that gymlog-server is running there."
        case .invalidResponse(_, let status, let reason):
            return "\(server) does not answer as a gymlog sync server (HTTP \(status): \(reason.prefix(120))). "
                + "Nothing was saved; check the URL (the server's base URL, e.g. http://127.0.0.1:8080)."
        case .server(let status, let body):
            // A refused key's message already says the server stored nothing; here, nothing was saved either.
            let message = body.error.message.replacingOccurrences(of: " Nothing of this device was stored.", with: "")
            return "The server at \(server) refused (HTTP \(status)): \(message) Nothing was saved."
        }
    }
}
