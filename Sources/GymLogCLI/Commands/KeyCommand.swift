import ArgumentParser
import Foundation
import GymLogCore
import GymLogStore
import GymLogSyncClient
import GymLogWire

struct Key: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Show the recovery phrase of your account's key (end-to-end encryption), or encrypt an older account.",
        discussion: """
          gymlog key
              shows the 24 words a new device needs to log in
          gymlog key enable
              encrypts an account made before end-to-end encryption

        An account's history is encrypted end to end: every value (exercise names, notes, \
        weights, reps) is sealed on the device with a key only your devices hold, so the \
        server and its backups keep nothing readable. `gymlog login` on the account's first \
        device makes the key; every other device logs in with its recovery phrase. Nobody, \
        the server's operator included, can recover an encrypted history without it: write \
        the words down.
        """,
        subcommands: [ShowKey.self, EnableKey.self],
        defaultSubcommand: ShowKey.self
    )
}

struct ShowKey: ContextCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the recovery phrase of this device's account key.")
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        guard let seal = try context.settings.valueSeal() else {
            if context.settings.server == nil {
                throw UserError("This device is not logged in, so it holds no account key. `gymlog login --server URL` first.")
            }
            throw UserError("This account's history is kept in the clear on the server, so there is no key. "
                + "`gymlog key enable` encrypts it end to end.")
        }
        context.print("The recovery phrase of \(seal.account)'s account key (give it to `gymlog login` on a new device; keep it secret):")
        for line in AccountKeyText.phraseLines(seal.key) { context.print(line) }
    }
}

struct EnableKey: SavesCredentials {
    static let configuration = CommandConfiguration(
        commandName: "enable",
        abstract: "Encrypt an account whose history the server keeps in the clear: make its key and re-send everything sealed.",
        discussion: """
        The server drops the history it kept in the clear, and this device sends its whole \
        history again, sealed. Other devices are told at their next sync to log in again \
        with the recovery phrase; their unsynced changes wait for them in their outboxes.
        """
    )
    @OptionGroup var global: GlobalOptions

    func run(in context: CLIContext) async throws {
        guard let server = context.settings.server, let url = URL(string: server), let token = context.settings.token else {
            throw UserError("This device is not logged in. `gymlog login --server URL` first; a new account is encrypted from the start.")
        }
        if context.settings.accountKey != nil {
            throw UserError("This account is already encrypted end to end; `gymlog key` shows its recovery phrase.")
        }
        let transport = try HTTPSyncTransport(baseURL: url, token: token, timeout: 15, caCertificate: context.settings.caCertificate)
        let info: AccountInfo
        do {
            guard let answered = try await transport.account() else {
                throw UserError("The server at \(server) is from before end-to-end encryption; update gymlog-server there first.")
            }
            info = answered
        } catch let error as SyncTransportError {
            throw UserError(Login.explain(error, server: server).replacingOccurrences(of: " Nothing was saved.", with: ""))
        }
        if info.encrypted {
            throw UserError("The account \(info.user) is already encrypted by another device; run `gymlog key` there and "
                + "`gymlog login --server \(server)` here with its recovery phrase.")
        }
        let key = AccountKey.random()
        do {
            _ = try await transport.setAccountKey(verifier: key.verifier)
        } catch let error as SyncTransportError {
            throw UserError("The server did not take the key: \(error.description) Nothing was changed here.")
        }
        // Saved before anything else can fail: the server now refuses this device without it.
        try ConfigFile.saveCredentials(context.paths.credentialsFile, server: server, token: token, caCertificate: context.settings.caCertificate,
                                       account: info.user, key: key.phrase.joined(separator: " "))
        // The ids derived from names and imported rows are keyed before the history is re-sent.
        try context.existingDB()?.keyDerivedIDs(with: key)
        context.print("The account \(info.user) is now encrypted end to end. Write down its recovery phrase; a new device needs it, "
            + "and nobody can recover your history without it:")
        for line in AccountKeyText.phraseLines(key) { context.print(line) }
        context.print("Other devices are asked to log in again with it at their next sync. Run `gymlog sync` to send this device's history, sealed.")
    }
}

/// How the account key is shown and read.
enum AccountKeyText {
    /// The 24 words, numbered, four to a line (55 columns): easy to copy onto paper and to check back.
    static func phraseLines(_ key: AccountKey) -> [String] {
        let words = key.phrase
        return stride(from: 0, to: words.count, by: 4).map { start in
            let entries = (start..<min(start + 4, words.count)).map { i in
                let number = "\(i + 1)."
                return String(repeating: " ", count: 3 - number.count) + number + " " + TerminalText.pad(words[i], to: 8)
            }
            var line = " " + entries.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}

extension Settings {
    /// The sealing of this login's values, when its account is encrypted end to end.
    func valueSeal() throws -> ValueSeal? {
        guard let phrase = accountKey else { return nil }
        guard let account else {
            throw UserError("The credentials file holds an account key but no account name; run `gymlog login` again.")
        }
        do { return ValueSeal(key: try AccountKey(phrase: phrase), account: account) } catch {
            throw UserError("The account key in the credentials file is not readable (\(error)); run `gymlog login` again with the recovery phrase.")
        }
    }
}
