import ArgumentParser
import Foundation
import GymLogServerCore

/// `gymlog-server user ...`: accounts. Safe while the server runs (SQLite WAL + busy timeout;
/// PostgreSQL takes concurrent writers anyway).
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Create, list, rotate, revoke, re-activate and delete accounts.",
        subcommands: [UserAddCommand.self, UserListCommand.self, UserRotateCommand.self, UserRevokeCommand.self,
                      UserActivateCommand.self, UserDeleteCommand.self]
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
        try await issueToken(db.url, { try await $0.createUser(name: name, tokenHash: $1, now: wallClockMillis()) }) {
            "created user \($0.name); its token follows and is shown only once (give it to `gymlog login --server URL`, which reads it from standard input):"
        }
    }
}

struct UserListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List users: created, revoked, devices, last push and what they store.",
        discussion: """
        DEVICES counts the devices that ever pushed; LAST PUSH is the latest push of any of them \
        (a pull writes nothing, so a device that only reads does not move it); ROWS and STORED are \
        the user's field rows and their bytes (names, ids, clocks and values, 8 per number).
        """
    )

    @OptionGroup var db: DatabaseOption

    func run() async throws {
        let users = try await withStorage(db.url) { try await $0.listUsers() }
        if users.isEmpty { print("no users yet; create one with `gymlog-server user add NAME`."); return }
        print(userTable(users))
    }
}

/// `user list`'s table: one line per user under a header, columns padded to their widest cell.
func userTable(_ users: [UserRecord]) -> String {
    let header = ["NAME", "CREATED", "REVOKED", "DEVICES", "LAST PUSH", "RECORDS", "STORED"]
    let rows = users.map { user in
        [user.name, formatMillis(user.createdAt), user.revokedAt.map(formatMillis) ?? "-", "\(user.usage.devices)",
         user.usage.lastPushAt.map(formatMillis) ?? "never", "\(user.usage.records)", formatBytes(user.usage.storedBytes)]
    }
    let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
    return ([header] + rows).map { cells in
        zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
            .trimmingCharacters(in: .whitespaces)
    }.joined(separator: "\n")
}

/// Bytes in the unit that keeps the number short: `512 B`, `1.5 KiB`, `12.0 MiB`.
func formatBytes(_ bytes: Int64) -> String {
    let units = ["KiB", "MiB", "GiB", "TiB"]
    guard bytes >= 1024 else { return "\(bytes) B" }
    var value = Double(bytes) / 1024
    var unit = 0
    while value >= 1024, unit < units.count - 1 { value /= 1024; unit += 1 }
    return String(format: "%.1f %@", value, units[unit])
}

struct UserRotateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Give a user a new token (last line; shown only once); the old one stops working at once.",
        discussion: """
        Every device of the user then gets 401 (`token_rotated`: it says an administrator \
        replaced the token) and must log in again with the new token (`gymlog login --server \
        URL`, which reads it from standard input); their data and outboxes are kept. \
        A revoked user is refused: `user activate` lets it in again.

        Examples:
          gymlog-server user rotate alice
          TOKEN=$(gymlog-server user rotate alice | tail -n 1)
        """
    )

    @Argument(help: "The user name.") var name: String
    @OptionGroup var db: DatabaseOption

    func run() async throws {
        try await issueToken(db.url, { try await $0.replaceToken(name: name, tokenHash: $1, reactivate: false) }) {
            "new token for \($0.name); the old one no longer works, so log every device in again with this token "
                + "(`gymlog login --server URL` reads it from standard input; shown only once):"
        }
    }
}

struct UserRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke a user's token: its requests get 401 from now on. The user's data stays.",
        discussion: "`user activate NAME` lets the user in again with a new token; `user delete NAME --purge` removes it and its data."
    )

    @Argument(help: "The user name.") var name: String
    @OptionGroup var db: DatabaseOption

    func run() async throws {
        let user = try await withStorage(db.url) { try await $0.revokeUser(name: name, now: wallClockMillis()) }
        print("revoked user \(user.name) at \(formatMillis(user.revokedAt ?? 0))")
    }
}

struct UserActivateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activate",
        abstract: "Let a revoked user in again with a new token (last line; shown only once).",
        discussion: """
        The token that was revoked stays dead (it may have leaked); the user's devices log in \
        again with the new one (`gymlog login --server URL`, on standard input) and find their \
        data as they left it.

        Examples:
          gymlog-server user activate alice
        """
    )

    @Argument(help: "The user name.") var name: String
    @OptionGroup var db: DatabaseOption

    func run() async throws {
        try await issueToken(db.url, { try await $0.replaceToken(name: name, tokenHash: $1, reactivate: true) }) {
            "user \($0.name) is active; its new token follows and is shown only once (log every device in with it: `gymlog login --server URL` reads it from standard input):"
        }
    }
}

struct UserDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Remove a user and everything the server keeps of theirs (needs --purge).",
        discussion: """
        The user's devices keep their own databases; if the name is added again, they log in \
        with the new token and upload their data afresh. To only lock a user out, use \
        `user revoke`. Take a backup first if you may want the data back.

        Examples:
          gymlog-server user delete alice --purge
        """
    )

    @Argument(help: "The user name.") var name: String
    @Flag(help: "Confirm that every row of the user's synced data is removed, not only the account.") var purge = false
    @OptionGroup var db: DatabaseOption

    func validate() throws {
        guard purge else {
            throw ValidationError("deleting \"\(name)\" removes all of its synced data from the server; add --purge to confirm, or use `gymlog-server user revoke \(name)` to only lock it out.")
        }
    }

    func run() async throws {
        let user = try await withStorage(db.url) { try await $0.deleteUser(name: name) }
        print("deleted user \(user.name) and all of its data")
    }
}

/// Makes a token, has `store` keep its hash for a user, then prints `announce(user)` and the
/// token as the last line (scripts take it with `tail -n 1`); only the hash is kept.
private func issueToken(_ url: String?, _ store: (any SyncStorage, String) async throws -> UserRecord,
                        announce: (UserRecord) -> String) async throws {
    let token = Tokens.generate()
    let user = try await withStorage(url) { try await store($0, Tokens.hash(token)) }
    print(announce(user))
    print(token)
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
