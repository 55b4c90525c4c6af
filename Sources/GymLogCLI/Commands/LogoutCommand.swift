import ArgumentParser
import GymLogCore
import GymLogStore

struct Logout: SavesCredentials {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Forget the sync server and token (local data stays).",
        discussion: """
          gymlog logout
              forgets the server and token
          gymlog login --server URL < token.txt
              sets them again (without the file it asks for the token)

        Unsynced changes stay in the outbox and are sent after the next login and sync; the last \
        sync error that `gymlog status` showed is cleared.
        """
    )
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        // The file stays, without server and token: its presence is what makes an older config's
        // `[sync]` lines ignored, so they cannot log the user back in. The trusted certificate is kept for the next login.
        // The key stays too: logging in to the same account again needs no recovery phrase.
        try ConfigFile.saveCredentials(context.paths.credentialsFile, server: nil, token: nil, caCertificate: context.settings.caCertificate,
                                       account: context.settings.account, key: context.settings.accountKey)
        // The last sync's error was about that server or token; `status` should not keep showing it.
        try context.existingDB()?.clearSyncError()
        context.print("Logged out. Local data is untouched; unsynced changes stay in the outbox.")
    }
}
