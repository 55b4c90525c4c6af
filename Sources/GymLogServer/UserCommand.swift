import ArgumentParser
import Foundation

/// `gymlog-server user ...`: accounts. Safe while the server runs (SQLite WAL + busy timeout;
/// PostgreSQL takes concurrent writers anyway).
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Create, list and revoke accounts.",
        subcommands: [UserAddCommand.self, UserListCommand.self, UserRevokeCommand.self]
    )
}

struct UserAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Create a user and print its bearer token (last line; shown only once).",
        discussion: """
        Examples:
          gymlog-server user add alice
          TOKEN=$(gymlog-server user add alice | tail -n 1)
          gymlog-server user add alice --db postgres://gymlog@127.0.0.1:5432/gymlog
        """
    )

    @Argument(help: "The user name: 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit.") var name: String
    @OptionGroup var db: DatabaseOption

    func validate() throws {
        if let problem = PushValidation.userNameProblem(name) { throw ValidationError(problem) }
    }

    func run() async throws {
        let token = Tokens.generate()
        let user = try await withStorage(db.url) { try await $0.createUser(name: name, tokenHash: Tokens.hash(token), now: wallClockMillis()) }
        print("created user \(user.name); its token follows and is shown only once (use it with `gymlog login --token`):")
        print(token)
    }
}

struct UserListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List users: name, created, revoked.")

    @OptionGroup var db: DatabaseOption

    func run() async throws {
        let users = try await withStorage(db.url) { try await $0.listUsers() }
        if users.isEmpty { print("no users yet; create one with `gymlog-server user add NAME`."); return }
        let width = max(4, users.map(\.name.count).max() ?? 4)
        print("NAME".padding(toLength: width, withPad: " ", startingAt: 0) + "  CREATED               REVOKED")
        for user in users {
            let revoked = user.revokedAt.map(formatMillis) ?? "-"
            print(user.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + formatMillis(user.createdAt) + "  " + revoked)
        }
    }
}

struct UserRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke a user's token: its requests get 401 from now on. The user's data stays."
    )

    @Argument(help: "The user name.") var name: String
    @OptionGroup var db: DatabaseOption

    func run() async throws {
        let user = try await withStorage(db.url) { try await $0.revokeUser(name: name, now: wallClockMillis()) }
        print("revoked user \(user.name) at \(formatMillis(user.revokedAt ?? 0))")
    }
}

/// Opens the storage for one command and closes it afterwards (PostgreSQL's pool included).
private func withStorage<T: Sendable>(_ url: String?, _ body: (any SyncStorage) async throws -> T) async throws -> T {
    let storage = try openSyncStorage(url, poolSize: 2)
    do {
        let result = try await body(storage)
        await storage.shutdown()
        return result
    } catch {
        await storage.shutdown()
        throw error
    }
}

func wallClockMillis() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

private func formatMillis(_ ms: Int64) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
}
