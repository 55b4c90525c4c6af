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
        """
    )
    @OptionGroup var global: GlobalOptions
    @Option(help: "The server's base URL, e.g. http://127.0.0.1:8080.") var server: String
    @Option(help: "The bearer token from `gymlog-server user add` (left out, it is read from standard input).") var token: String?
    @Option(help: "Create an account on a server with open registration.") var register: String?
    @Option(help: ArgumentHelp("Trust the certificates in this PEM file too (a server with a certificate of its own); saved with the token.",
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
            if let tail = ["/v1", "/v2"].first(where: base.hasSuffix) { base.removeLast(tail.count); continue }
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
        // A relative --ca-file is saved as the absolute path it names now.
        let caFile = self.caFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? context.settings.caFile
        do {
            if let name = register {
                try await HTTPSyncTransport(baseURL: url, token: nil, timeout: 15, caFile: caFile).checkLogin(deviceID: deviceID)
                let response = try await HTTPSyncTransport(baseURL: url, token: nil, timeout: 15, caFile: caFile).register(name: name)
                token = response.token
                context.print("Registered '\(response.user)'. Your token (also saved in the credentials file): \(response.token)")
            }
            try await HTTPSyncTransport(baseURL: url, token: token, timeout: 15, caFile: caFile).checkLogin(deviceID: deviceID)
        } catch let error as SyncTransportError {
            throw UserError(Self.explain(error, server: server))
        }
        try ConfigFile.saveCredentials(context.paths.credentialsFile, server: server, token: token, caFile: caFile)
        try existing?.clearSyncError()
        context.print("Logged in to \(server). " + (context.settings.autoSync
            ? "From now on changes sync by themselves in the background (`sync.auto`); `gymlog sync` syncs now."
            : "Run `gymlog sync` to sync (`sync.auto` is off)."))
        // The user's lines are theirs to remove: say that they are no longer read.
        if ConfigFile.hasOldSyncLines(context.paths.config) {
            context.print("The [sync] lines in \(context.paths.config) are no longer read (the server and token are now in "
                + "\(context.paths.credentialsFile)); you can delete them.")
        }
    }

    /// Why a login was refused, and that nothing was saved.
    static func explain(_ error: SyncTransportError, server: String) -> String {
        switch error {
        case .unauthorized:
            return "The server at \(server) refused the token (HTTP 401: unknown or revoked); nothing was saved. "
                + "Check the token, or ask the server's operator for one (`gymlog-server user add NAME`)."
        case .unreachable(_, let reason):
            return "Cannot reach \(server): \(reason). Nothing was saved; check the URL and that gymlog-server is running there."
        case .invalidResponse(_, let status, let reason):
            return "\(server) does not answer as a gymlog sync server (HTTP \(status): \(reason.prefix(120))). "
                + "Nothing was saved; check the URL (the server's base URL, e.g. http://127.0.0.1:8080)."
        case .server(let status, let body):
            return "The server at \(server) refused (HTTP \(status)): \(body.error.message) Nothing was saved."
        }
    }
}
