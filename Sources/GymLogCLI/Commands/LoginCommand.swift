import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore
import GymLogWire
import GymLogSyncClient
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct Login: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Save the sync server and your token in the config (mode 0600).",
        discussion: """
          gymlog login --server http://127.0.0.1:8080 --token glt_...
          gymlog login --server http://127.0.0.1:8080 --register alice   (servers with open registration)
        """
    )
    @OptionGroup var global: GlobalOptions
    @Option(help: "The server's base URL, e.g. http://127.0.0.1:8080.") var server: String
    @Option(help: "The bearer token from `gymlog-server user add`.") var token: String?
    @Option(help: "Create an account on a server with open registration.") var register: String?

    func validate() throws {
        guard let url = URL(string: server), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("--server \(server) is not an http(s) URL, e.g. http://127.0.0.1:8080.")
        }
        guard (token == nil) != (register == nil) else {
            throw ValidationError("Give either --token TOKEN or --register NAME.")
        }
    }

    func run(in context: CLIContext) async throws {
        let url = URL(string: server)!
        var token = self.token
        if let name = register {
            let transport = HTTPSyncTransport(baseURL: url, token: nil)
            let response = try await transport.register(name: name)
            token = response.token
            context.print("Registered '\(response.user)'. Your token (also saved in the config): \(response.token)")
        } else {
            let transport = HTTPSyncTransport(baseURL: url, token: token)
            _ = try await transport.capabilities()
        }
        try ConfigFile.update(context.paths.config, ["sync.server": .string(server), "sync.token": .string(token!)])
        context.print("Logged in to \(server). Run `gymlog sync` to sync.")
    }
}
