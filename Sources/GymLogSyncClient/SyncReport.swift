import Foundation
import GymLogCore
import GymLogWire

// What a sync cycle reports: its counts, its refusals, its progress and its errors.

/// A pulled change this device cannot read (a sealed value that does not open), and why.
public struct RefusedChange: Sendable {
    public var change: PullChange
    public var reason: String
    public init(change: PullChange, reason: String) { self.change = change; self.reason = reason }
}

/// What one cycle did.
public struct SyncReport: Equatable, Sendable {
    /// Changes another device made; this device's own changes coming back are not counted.
    public var pulledChanges = 0
    public var mergedFields = 0
    public var keptFields = 0
    /// Pulled changes set aside unapplied: they break the rules of a local write.
    public var parkedChanges = 0
    public var pushed = 0
    public var duplicates = 0
    public var rejected: [String] = []
    /// The server's state was new or older than ours, so the full local state was re-sent.
    public var rebased = false
    /// Pending writes stamped while the device clock was far ahead were given fresh clocks.
    public var restamped = 0
    /// The database turned out to be a copy of another device's (a backup restored, a
    /// snapshot): it became this new device and sent everything again.
    public var newDeviceID: String?
    public var roundTrips = 0
    public init() {}
}

/// Why a sync cycle stopped, when the server answered within the protocol but unusably.
public enum SyncEngineError: Error, LocalizedError, Equatable, Sendable, CustomStringConvertible {
    /// A pull answered "more to come" with a cursor at or before the one asked from.
    case cursorDidNotAdvance(from: Int64, to: Int64)
    /// An event for an encrypted account still names a plain derived id after keying.
    case plainDerivedID
    /// The server showed another database syncing under this device's id (`key_reused`, or an
    /// acknowledgement past any seq written here): this one is a copy. `run` makes it a
    /// device of its own; raised to the caller only if that happens twice in one run.
    case copyOfAnotherDevice
    /// The server kept answering "more to come" with pages that brought nothing this device did
    /// not already hold (`SyncEngine.maxIdlePages` of them in one run): `pages` pulled, `seconds` taken.
    case endlessPages(pages: Int, seconds: Int)
    /// The run went past `SyncEngine.timeLimit` (`seconds`) after `pages` pulled pages.
    case timeLimitReached(pages: Int, seconds: Int)
    /// The server refused sealed values as not sealed: it knows only the sealed format of a
    /// gymlog from before 0.12.0 (`s1:`).
    case serverTakesNoBoundSeals

    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case .cursorDidNotAdvance(let from, let to):
            "the sync server said more changes follow but did not move its cursor forward (\(to) after \(from)), "
                + "so pulling stopped. A gymlog-server never does this: check what answers at the server's URL; local changes stay in the outbox."
        case .plainDerivedID:
            "a change waiting to be sent names an exercise, routine or imported row by an id the server could guess, and keying it "
                + "did not help, so nothing was sent (the changes stay in the outbox). Please report this with `gymlog status --json`."
        case .copyOfAnotherDevice:
            "the sync server showed another database syncing as this device even after this one took a new device id, so nothing "
                + "more was sent (the changes stay in the outbox). Please report this with `gymlog status --json`."
        case .endlessPages(let pages, let seconds):
            "the sync server kept sending pages that brought nothing new and said more follow; stopped after \(pages) pages/\(seconds) s, "
                + "so this sync holds the database no longer. Local changes stay in the outbox, and the next sync goes on from "
                + "where this one stopped. A gymlog-server never does this: check what answers at the server's URL (`gymlog status` shows it)."
        case .timeLimitReached(let pages, let seconds):
            "the sync server kept sending pages for longer than one sync may take; stopped after \(pages) pages/\(seconds) s, "
                + "so this sync holds the database no longer. What arrived is kept, local changes stay in the outbox, and the "
                + "next sync goes on from where this one stopped. If every sync ends like this, check what answers at the server's URL "
                + "(`gymlog status` shows it) and how fast the network to it is."
        case .serverTakesNoBoundSeals:
            "the sync server refused this device's sealed values as not sealed: it is older than this gymlog, which seals each "
                + "value bound to its write (the s2 format of gymlog 0.12.0). Upgrade gymlog-server to 0.12.0 or later; nothing was "
                + "lost, the changes stay in the outbox."
        }
    }
}

/// Progress of a cycle, for a progress bar.
public struct SyncProgress: Sendable {
    public var phase: String
    public var done: Int
    public var total: Int?
}
