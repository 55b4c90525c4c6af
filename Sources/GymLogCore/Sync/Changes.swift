import Foundation

/// A column value as it travels in outbox payloads and over the wire.
public enum FieldValue: Hashable, Sendable {
    case null
    case int(Int64)
    case real(Double)
    case text(String)

    public var text: String? { if case .text(let s) = self { s } else { nil } }
    public var int: Int64? {
        switch self {
        case .int(let i): i
        // `Int64(exactly:)`: a pulled `1e30` is a whole number too big for 64 bits, not a trap.
        case .real(let d): Int64(exactly: d)
        default: nil
        }
    }
    public var isNull: Bool { self == .null }
}

/// One field set by one event, with the clock that orders it against other writes.
public struct FieldChange: Hashable, Sendable {
    public var name: String
    public var value: FieldValue
    public var clock: HLC
    public init(_ name: String, _ value: FieldValue, _ clock: HLC) { self.name = name; self.value = value; self.clock = clock }
}

/// The synced tables. Names are the wire names and the local table names.
public enum EntityKind: String, CaseIterable, Sendable, Codable {
    case exercises, aliases, workouts, sets, routines, bodyweights
}

/// What an outbox event did, for people reading the outbox (`gymlog status`); merging only
/// looks at fields and clocks.
public enum ChangeOp: String, Sendable, Codable {
    case create, update, delete, restore
}

/// Per-field last-writer-wins: the incoming value replaces the stored one only when its
/// clock is strictly newer. Equal clocks are the same write seen twice (idempotent).
///
/// Deletion is the `deleted_at` field with its own clock, so an edit, older or newer,
/// never resurrects a row; only a newer write of `deleted_at = null` (an explicit
/// undo/restore) does.
@inlinable
public func incomingWins(stored: HLC?, incoming: HLC) -> Bool {
    guard let stored else { return true }
    return incoming > stored
}

/// The field name that carries a row's tombstone.
public let tombstoneField = "deleted_at"

/// The most UTF-8 bytes one text field may hold. The sync server refuses bigger values
/// (`maxValueBytes` in GymLogServer/HTTP/PushValidation.swift), so the client never writes one.
public let maxTextFieldBytes = 16 * 1024
