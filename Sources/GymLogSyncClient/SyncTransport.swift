import Foundation
import GymLogCore
import GymLogWire

/// The client's door to a sync server. The sync engine talks only to this protocol, so
/// tests drive it with in-process or fault-injecting fakes.
public protocol SyncTransport: Sendable {
    /// Sends a batch of outbox events; the answer acknowledges them through `lastAppliedSeq`.
    func push(_ request: PushRequest) async throws -> PushResponse
    /// Fetches the next page of changes after `cursor`; the answer carries the device's ack too.
    /// `ackedSeq` is the highest seq the server acknowledged to this device: a server that
    /// applied less was restored from an older backup, and answers with a new epoch.
    func pull(cursor: SyncCursor, limit: Int?, deviceID: String, ackedSeq: Int64?) async throws -> PullResponse
    /// A pull that says where the device's last complete pull ended (`since`): each record
    /// comes with its changes after it only. A transport that cannot say it pulls whole records.
    func pull(cursor: SyncCursor, limit: Int?, deviceID: String, ackedSeq: Int64?, since: Int64?) async throws -> PullResponse
    /// The server's protocol version and limits.
    func capabilities() async throws -> Capabilities
}

extension SyncTransport {
    /// Whole records: always correct, only bigger.
    public func pull(cursor: SyncCursor, limit: Int?, deviceID: String, ackedSeq: Int64?, since: Int64?) async throws -> PullResponse {
        try await pull(cursor: cursor, limit: limit, deviceID: deviceID, ackedSeq: ackedSeq)
    }

    /// A pull that reports no acknowledged seq (a first sync, or an observer).
    public func pull(cursor: SyncCursor, limit: Int?, deviceID: String) async throws -> PullResponse {
        try await pull(cursor: cursor, limit: limit, deviceID: deviceID, ackedSeq: nil)
    }
}

/// Why a sync request failed, worded for the person running `gymlog sync`.
public enum SyncTransportError: Error, LocalizedError, Equatable, Sendable, CustomStringConvertible {
    /// No HTTP answer at all: offline, connection refused, DNS, timeout.
    case unreachable(server: String, reason: String)
    /// 401: the token is missing or unknown, or an administrator withdrew it (`withdrawal`
    /// says how: a server from before 0.12.0 does not say).
    case unauthorized(server: String, withdrawal: TokenWithdrawal? = nil)
    /// Any other error answer, with the server's own code and sentence.
    case server(status: Int, body: ErrorBody)
    /// An answer that is not the protocol (a proxy's HTML page, a truncated body...).
    case invalidResponse(server: String, status: Int, reason: String)

    /// The server's stable error code, when it sent one.
    public var code: String? {
        switch self {
        case .server(_, let body): body.error.code
        case .unauthorized(_, let withdrawal): (withdrawal?.errorCode ?? .unauthorized).rawValue
        default: nil
        }
    }

    /// Whether trying again cannot help until the user acts: the token is refused (401) or
    /// the account may not do this (403). A sync that runs by itself stops on these instead
    /// of asking again in a loop; `gymlog login` or a manual sync that succeeds starts it again.
    public var mustNotRetry: Bool {
        switch self {
        case .unauthorized: true
        case .server(let status, _), .invalidResponse(_, let status, _): status == 403
        case .unreachable: false
        }
    }

    /// A 404: the server has no such endpoint (its own `not_found`, or a proxy's page).
    var isNotFound: Bool {
        switch self {
        case .server(let status, _), .invalidResponse(_, let status, _): status == 404
        default: false
        }
    }

    public var errorDescription: String? { description }

    /// How a user logs this device in again: the token goes on standard input, not the command
    /// line, where the shell's history and `ps` keep it.
    static func loginAgain(_ server: String) -> String {
        "`gymlog login --server \(server)` with the token (it asks for it; or pipe it in: `gymlog login --server \(server) < token.txt`)"
    }

    /// A 403 `key_required`: the account was encrypted (`gymlog key enable` on another device)
    /// after this device logged in. `gymlog status` knows the case by this text (it is the
    /// stopped sync's last error).
    public static let keyRequiredAdvice =
        "this account's history is now encrypted end to end (`gymlog key enable` on another device), and this device has no key for it, "
            + "so it does not sync. Log in again here with both the token (the same one as before) and the recovery phrase "
            + "(`gymlog key` on the device that encrypted it shows it): `gymlog login --server URL` asks for the token, then the phrase. "
            + "Your unsynced changes are kept and go up, sealed, after that."

    public var description: String {
        switch self {
        case .unreachable(let server, let reason):
            "cannot reach the sync server at \(server): \(reason). Check the network and that the server is running; local changes stay in the outbox."
        case .unauthorized(let server, nil):
            "the server rejected the token (unknown to it); ask the server's administrator for a valid one and run "
                + "\(Self.loginAgain(server)). Your changes are kept on this device."
        case .unauthorized(let server, .rotated?):
            "the server's administrator gave this account a new token (`gymlog-server user rotate`), so this device's no longer works; "
                + "ask them for it and run \(Self.loginAgain(server)). Your changes are kept on this device and go up after that."
        case .unauthorized(let server, .revoked?):
            "the server's administrator revoked this account (`gymlog-server user revoke`); the server keeps its data. Ask them to "
                + "let it in again (`gymlog-server user activate`, which gives a new token), then run \(Self.loginAgain(server)). Your changes are kept on this device."
        case .unauthorized(let server, .deleted?):
            "the server's administrator deleted this account and what the server kept of it (`gymlog-server user delete`); this "
                + "device keeps its whole history. Ask them for a new account, then run \(Self.loginAgain(server)): the history goes up again."
        case .server(_, let body) where body.error.code == ErrorCode.keyRequired.rawValue:
            // The server's own sentence is for clients from before encryption (it says to upgrade).
            Self.keyRequiredAdvice
        case .server(_, let body) where body.error.code == ErrorCode.databaseUnavailable.rawValue:
            // The server answered: not the network, and nothing the user can fix but wait.
            "the sync server is running, but its database is down, so nothing was sent or received; "
                + "your changes are kept on this device and go with a later sync. Try again later; if it lasts, tell the server's operator."
        case .server(_, let body):
            body.error.message
        case .invalidResponse(let server, let status, let reason):
            "the sync server at \(server) sent an answer gymlog does not understand (HTTP \(status)): \(reason). Check that the URL points at a gymlog-server."
        }
    }
}
