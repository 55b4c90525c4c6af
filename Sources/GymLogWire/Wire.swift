import Foundation
import GymLogCore

/// The versions of the sync protocol. v2 is v1 with a compact pull (`GET /v2/pull`): each
/// change carries one clock for the fields written together, device ids are indexes into a
/// table of the page, and `limit` counts changes instead of field rows. Every other endpoint
/// is the same in both and keeps its `/v1` path.
public enum SyncProtocol: Int, CaseIterable, Comparable, Sendable {
    case v1 = 1
    case v2 = 2

    /// What this module speaks best; a client falls back to v1 against an older server.
    public static let newest = SyncProtocol.v2

    public static func < (a: SyncProtocol, b: SyncProtocol) -> Bool { a.rawValue < b.rawValue }
}

/// The version every gymlog speaks: `Capabilities.protocolVersion`, which v1 clients check
/// equals 1, so a v2 server keeps answering 1 there and lists all it speaks in `protocolVersions`.
public let syncProtocolVersion = SyncProtocol.v1.rawValue

/// A position in one user's change stream on one server: `<epoch>:<n>`.
///
/// `n` is the user's change counter; `epoch` names the server database, so a cursor from a
/// wiped or replaced server is recognised instead of silently skipping changes.
public struct SyncCursor: Hashable, Sendable, CustomStringConvertible {
    /// The server database the position belongs to; nil means "from the beginning, any server".
    public var epoch: String?
    /// The last change counter value already seen (0 = nothing seen).
    public var position: Int64

    public init(epoch: String?, position: Int64) { self.epoch = epoch; self.position = position }

    /// The beginning of the stream: the wire form is `0`.
    public static let start = SyncCursor(epoch: nil, position: 0)

    /// Parses `<epoch>:<n>` or `0`; nil for anything else.
    public init?(_ text: String) {
        if text == "0" { self = .start; return }
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let epoch = String(text[..<colon]), number = text[text.index(after: colon)...]
        guard !epoch.isEmpty, epoch.count <= 64,
              epoch.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }),
              !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int64(number), n >= 0 else { return nil }
        self.init(epoch: epoch, position: n)
    }

    public var description: String {
        guard let epoch else { return "0" }
        return "\(epoch):\(position)"
    }
}

/// One outbox event as pushed: the fields it set, each with its clock.
public struct PushEvent: Codable, Hashable, Sendable {
    /// The gapless per-device sequence number (1, 2, 3, ...).
    public var seq: Int64
    /// Unique per user; the server applies an event with a known key only once.
    public var idempotencyKey: String
    /// The table name (`exercises`, `aliases`, `workouts`, `sets`; the server accepts any `^[a-z_]{1,32}$`).
    public var entity: String
    /// The row id (at most 64 characters).
    public var entityID: String
    /// `create`, `update`, `delete` or `restore`; informational, merging only looks at fields.
    public var op: String
    /// Field name -> value and clock. A tombstone is the field `deleted_at`.
    public var fields: EventFields

    public init(seq: Int64, idempotencyKey: String, entity: String, entityID: String, op: String, fields: EventFields) {
        self.seq = seq; self.idempotencyKey = idempotencyKey; self.entity = entity
        self.entityID = entityID; self.op = op; self.fields = fields
    }

    /// Builds an event from the core types an outbox row holds.
    public init(seq: Int64, idempotencyKey: String, entity: EntityKind, entityID: String, op: ChangeOp, changes: [FieldChange]) {
        self.init(seq: seq, idempotencyKey: idempotencyKey, entity: entity.rawValue, entityID: entityID, op: op.rawValue,
                  fields: EventFields(json: encodePayload(changes)))
    }

    public enum CodingKeys: String, CodingKey {
        case seq, entity, op, fields
        case idempotencyKey = "idempotency_key"
        case entityID = "entity_id"
    }
}

/// An event's `fields` object as JSON text: `{"name":{"v":value,"c":"clock"},...}`.
///
/// The client's outbox stores each event's payload in exactly this shape (`encodePayload`),
/// so a push splices the stored text into the body instead of decoding it only to encode it
/// again. The text must be one JSON object of such fields, each name once; the server
/// refuses anything else.
public struct EventFields: Hashable, Sendable, ExpressibleByDictionaryLiteral {
    public var json: String

    /// Takes JSON text already in the wire shape (an outbox payload) as it is.
    public init(json: String) { self.json = json }

    /// Encodes the fields sorted by name.
    public init(_ fields: [String: WireField]) {
        json = encodePayload(fields.map { FieldChange($0.key, $0.value.v, $0.value.c) }.sorted { $0.name < $1.name })
    }

    public init(dictionaryLiteral elements: (String, WireField)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// The fields as changes, sorted by name (applying an event locally; tests).
    public var changes: [FieldChange] { get throws { try decodePayload(json) } }

    /// The fields read back (tests and tools; the push path never decodes them).
    public func decoded() throws -> [String: WireField] {
        Dictionary(uniqueKeysWithValues: try decodePayload(json).map { ($0.name, WireField(v: $0.value, c: $0.clock)) })
    }
}

extension EventFields: Codable {
    public init(from decoder: Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([String: WireField].self))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(try decoded())
    }
}

/// `POST /v1/push` body.
public struct PushRequest: Codable, Hashable, Sendable {
    /// The pushing database's device id (lowercase UUID).
    public var deviceID: String
    /// Events in ascending `seq` order.
    public var events: [PushEvent]
    /// The epoch this device numbered its outbox under (from its last pull). The server
    /// refuses the push with `epoch_changed` when its history has moved on since, so a stale
    /// copy of an old push cannot consume sequence numbers the device has reused.
    public var epoch: String?

    public init(deviceID: String, events: [PushEvent], epoch: String? = nil) {
        self.deviceID = deviceID; self.events = events; self.epoch = epoch
    }

    public enum CodingKeys: String, CodingKey {
        case events, epoch
        case deviceID = "device_id"
    }
}

extension PushRequest {
    /// The request body as `HTTPSyncTransport` sends it, written by hand: each event's
    /// `fields` is spliced in as its stored text (`EventFields.json`), so a push never decodes
    /// the outbox. The same JSON as the `Codable` form, which tests use to read a body back.
    public func jsonBody() -> Data {
        typealias Body = Self.CodingKeys
        typealias Event = PushEvent.CodingKeys
        var out = "{" + Self.member(Body.deviceID)
        out.reserveCapacity(64 + events.reduce(0) { $0 + 160 + $1.fields.json.utf8.count })
        appendJSONString(deviceID, to: &out)
        out += "," + Self.member(Body.events) + "["
        for (i, e) in events.enumerated() {
            if i > 0 { out += "," }
            out += "{" + Self.member(Event.seq) + String(e.seq) + "," + Self.member(Event.idempotencyKey)
            appendJSONString(e.idempotencyKey, to: &out)
            out += "," + Self.member(Event.entity)
            appendJSONString(e.entity, to: &out)
            out += "," + Self.member(Event.entityID)
            appendJSONString(e.entityID, to: &out)
            out += "," + Self.member(Event.op)
            appendJSONString(e.op, to: &out)
            out += "," + Self.member(Event.fields) + e.fields.json + "}"
        }
        out += "]"
        if let epoch {
            out += "," + Self.member(Body.epoch)
            appendJSONString(epoch, to: &out)
        }
        out += "}"
        return Data(out.utf8)
    }

    @inline(__always) static func member<Key: CodingKey>(_ key: Key) -> String { jsonMember(key) }
}

/// `"key":` for the hand-written JSON of the protocol's types, the key spelled by their
/// `CodingKeys` alone (no escape: every key is snake_case).
@inline(__always) public func jsonMember<Key: CodingKey>(_ key: Key) -> String { "\"" + key.stringValue + "\":" }

/// What the server did with one pushed event.
public enum PushStatus: String, Codable, Hashable, Sendable {
    /// Applied now (some or none of its fields may have lost to newer clocks).
    case applied
    /// Already applied earlier (by seq or by idempotency key); nothing changed.
    case duplicate
    /// Invalid; its seq is consumed, the client keeps the event with the error and re-sends it later under a new seq.
    case rejected
}

/// One entry of `PushResponse.results`.
public struct PushResult: Codable, Hashable, Sendable {
    public var seq: Int64
    public var status: PushStatus
    /// Set when `status == .rejected`.
    public var error: ErrorDetail?

    public init(seq: Int64, status: PushStatus, error: ErrorDetail? = nil) { self.seq = seq; self.status = status; self.error = error }

    public enum CodingKeys: String, CodingKey { case seq, status, error }
}

/// `POST /v1/push` 200 answer.
public struct PushResponse: Codable, Hashable, Sendable {
    /// The server database's epoch.
    public var epoch: String
    /// The device's acknowledged sequence: every outbox event with `seq <= lastAppliedSeq` is done.
    public var lastAppliedSeq: Int64
    /// The user's change-stream head after this push (`<epoch>:<n>`). Not a pull cursor:
    /// pulling from it would skip other devices' changes.
    public var cursor: String
    /// One result per event processed, in request order.
    public var results: [PushResult]
    /// The head this push's writes started from (`<epoch>:<n>`; absent from servers before it):
    /// the writes took every counter value after it up to `cursor`, so a device whose pull
    /// cursor is this one has seen everything up to `cursor` and need not pull its own writes back.
    public var previousCursor: String?

    public init(epoch: String, lastAppliedSeq: Int64, cursor: String, results: [PushResult], previousCursor: String? = nil) {
        self.epoch = epoch; self.lastAppliedSeq = lastAppliedSeq; self.cursor = cursor; self.results = results
        self.previousCursor = previousCursor
    }

    public enum CodingKeys: String, CodingKey {
        case epoch, cursor, results
        case lastAppliedSeq = "last_applied_seq"
        case previousCursor = "previous_cursor"
    }
}

/// One changed row in a pull page: its fields written after the pull's `since` (all of them without it).
public struct PullChange: Codable, Hashable, Sendable {
    public var entity: String
    public var entityID: String
    public var fields: [String: WireField]

    public init(entity: String, entityID: String, fields: [String: WireField]) {
        self.entity = entity; self.entityID = entityID; self.fields = fields
    }

    /// The fields as core changes, sorted by name.
    public var changes: [FieldChange] {
        fields.map { FieldChange($0.key, $0.value.v, $0.value.c) }.sorted { $0.name < $1.name }
    }

    public enum CodingKeys: String, CodingKey {
        case entity, fields
        case entityID = "entity_id"
    }
}

/// `GET /v1/pull` 200 answer.
public struct PullResponse: Codable, Hashable, Sendable {
    public var epoch: String
    /// Changed rows in change-counter order; one change counter value is never split across pages.
    public var changes: [PullChange]
    /// Where the next pull starts (`<epoch>:<n>`); store it with the page in one transaction.
    public var cursor: String
    /// More changes are waiting: pull again from `cursor`.
    public var hasMore: Bool
    /// The device's acknowledged sequence (heals a lost push response).
    public var lastAppliedSeq: Int64
    /// The cursor named another server database: reset the cursor to `cursor` and re-send all local state.
    public var epochChanged: Bool
    /// The page's changes that did not read (`PulledChanges`): never sent, only found by the
    /// client reading a page, and set aside there.
    public var unreadable: [UnreadableChange] = []

    public init(epoch: String, changes: [PullChange], cursor: String, hasMore: Bool, lastAppliedSeq: Int64, epochChanged: Bool = false,
                unreadable: [UnreadableChange] = []) {
        self.epoch = epoch; self.changes = changes; self.cursor = cursor
        self.hasMore = hasMore; self.lastAppliedSeq = lastAppliedSeq; self.epochChanged = epochChanged
        self.unreadable = unreadable
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        epoch = try c.decode(String.self, forKey: .epoch)
        changes = try c.decode([PullChange].self, forKey: .changes)
        cursor = try c.decode(String.self, forKey: .cursor)
        hasMore = try c.decode(Bool.self, forKey: .hasMore)
        lastAppliedSeq = try c.decode(Int64.self, forKey: .lastAppliedSeq)
        epochChanged = try c.decodeIfPresent(Bool.self, forKey: .epochChanged) ?? false
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(epoch, forKey: .epoch)
        try c.encode(changes, forKey: .changes)
        try c.encode(cursor, forKey: .cursor)
        try c.encode(hasMore, forKey: .hasMore)
        try c.encode(lastAppliedSeq, forKey: .lastAppliedSeq)
        if epochChanged { try c.encode(true, forKey: .epochChanged) }
    }

    public enum CodingKeys: String, CodingKey {
        case epoch, changes, cursor
        case hasMore = "has_more"
        case lastAppliedSeq = "last_applied_seq"
        case epochChanged = "epoch_changed"
    }
}

/// One change of a v2 pull page: the fields of one row that one event wrote under one clock.
public struct CompactPullChange: Codable, Hashable, Sendable {
    public var entity: String
    public var entityID: String
    /// The clock without its device part: `<15-digit ms>-<5-digit counter>`.
    public var clock: String
    /// The clock's device: an index into the page's `devices`.
    public var device: Int
    /// Field name -> value; all written at `clock`.
    public var fields: [String: FieldValue]

    public init(entity: String, entityID: String, clock: String, device: Int, fields: [String: FieldValue]) {
        self.entity = entity; self.entityID = entityID; self.clock = clock; self.device = device; self.fields = fields
    }

    public enum CodingKeys: String, CodingKey {
        case entity, clock, device, fields
        case entityID = "entity_id"
    }
}

/// `GET /v2/pull` 200 answer: `PullResponse` with compact changes.
public struct CompactPullResponse: Codable, Hashable, Sendable {
    public var epoch: String
    /// Changes in change-counter order; one change counter value is never split across pages.
    public var changes: [CompactPullChange]
    /// The device ids the page's clocks name, each once.
    public var devices: [String]
    public var cursor: String
    public var hasMore: Bool
    public var lastAppliedSeq: Int64
    public var epochChanged: Bool

    public init(epoch: String, changes: [CompactPullChange], devices: [String], cursor: String, hasMore: Bool,
                lastAppliedSeq: Int64, epochChanged: Bool = false) {
        self.epoch = epoch; self.changes = changes; self.devices = devices; self.cursor = cursor
        self.hasMore = hasMore; self.lastAppliedSeq = lastAppliedSeq; self.epochChanged = epochChanged
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        epoch = try c.decode(String.self, forKey: .epoch)
        changes = try c.decode([CompactPullChange].self, forKey: .changes)
        devices = try c.decode([String].self, forKey: .devices)
        cursor = try c.decode(String.self, forKey: .cursor)
        hasMore = try c.decode(Bool.self, forKey: .hasMore)
        lastAppliedSeq = try c.decode(Int64.self, forKey: .lastAppliedSeq)
        epochChanged = try c.decodeIfPresent(Bool.self, forKey: .epochChanged) ?? false
    }

    public enum CodingKeys: String, CodingKey {
        case epoch, changes, devices, cursor
        case hasMore = "has_more"
        case lastAppliedSeq = "last_applied_seq"
        case epochChanged = "epoch_changed"
    }

    /// The same page in v1's shape, which the client applies: every field with its full clock,
    /// one `PullChange` per run of changes of one row. A change that names a device the page
    /// does not list, or a clock that is not `<ms>-<counter>`, is unreadable: it costs itself only.
    public func expanded() -> PullResponse {
        var rows: [PullChange] = []
        var unreadable: [UnreadableChange] = []
        rows.reserveCapacity(changes.count)
        for change in changes {
            guard devices.indices.contains(change.device) else {
                unreadable.append(UnreadableChange(entity: change.entity, entityID: change.entityID,
                    reason: "the change names device \(change.device), but its page lists \(devices.count)"))
                continue
            }
            guard let clock = HLC(change.clock + "-" + devices[change.device]), clock.node == devices[change.device] else {
                unreadable.append(UnreadableChange(entity: change.entity, entityID: change.entityID,
                    reason: "the change has the clock \"\(change.clock)\", not <15-digit ms>-<5-digit counter>"))
                continue
            }
            if let last = rows.last, last.entity == change.entity, last.entityID == change.entityID {
                for (name, value) in change.fields { rows[rows.count - 1].fields[name] = WireField(v: value, c: clock) }
            } else {
                rows.append(PullChange(entity: change.entity, entityID: change.entityID,
                                       fields: change.fields.mapValues { WireField(v: $0, c: clock) }))
            }
        }
        return PullResponse(epoch: epoch, changes: rows, cursor: cursor, hasMore: hasMore,
                            lastAppliedSeq: lastAppliedSeq, epochChanged: epochChanged, unreadable: unreadable)
    }
}

/// `GET /v1/capabilities`: what this server accepts.
public struct Capabilities: Codable, Hashable, Sendable {
    /// Always 1: the version every client understands (v1 clients refuse anything else).
    public var protocolVersion: Int
    /// Every version the server speaks; a server from before v2 sends none, meaning `[1]`.
    public var protocolVersions: [Int]
    public var maxBodyBytes: Int
    public var maxPushEvents: Int
    public var maxPullLimit: Int
    public var registrationOpen: Bool
    public var maxClockAheadMs: Int64
    /// The server's release (`gymlog-server --version`, the same number as the client's
    /// `gymlogVersion` it was built with); nil from a server from before 0.12.0.
    public var serverVersion: String?

    public init(protocolVersion: Int, protocolVersions: [Int], maxBodyBytes: Int, maxPushEvents: Int, maxPullLimit: Int,
                registrationOpen: Bool, maxClockAheadMs: Int64, serverVersion: String? = nil) {
        self.protocolVersion = protocolVersion; self.protocolVersions = protocolVersions
        self.maxBodyBytes = maxBodyBytes; self.maxPushEvents = maxPushEvents
        self.maxPullLimit = maxPullLimit; self.registrationOpen = registrationOpen; self.maxClockAheadMs = maxClockAheadMs
        self.serverVersion = serverVersion
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        protocolVersion = try c.decode(Int.self, forKey: .protocolVersion)
        protocolVersions = try c.decodeIfPresent([Int].self, forKey: .protocolVersions) ?? [protocolVersion]
        maxBodyBytes = try c.decode(Int.self, forKey: .maxBodyBytes)
        maxPushEvents = try c.decode(Int.self, forKey: .maxPushEvents)
        maxPullLimit = try c.decode(Int.self, forKey: .maxPullLimit)
        registrationOpen = try c.decode(Bool.self, forKey: .registrationOpen)
        maxClockAheadMs = try c.decode(Int64.self, forKey: .maxClockAheadMs)
        serverVersion = try c.decodeIfPresent(String.self, forKey: .serverVersion)
    }

    public enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol_version"
        case protocolVersions = "protocol_versions"
        case maxBodyBytes = "max_body_bytes"
        case maxPushEvents = "max_push_events"
        case maxPullLimit = "max_pull_limit"
        case registrationOpen = "registration_open"
        case maxClockAheadMs = "max_clock_ahead_ms"
        case serverVersion = "server_version"
    }
}

/// `POST /v1/register` body.
public struct RegisterRequest: Codable, Hashable, Sendable {
    public var name: String
    public init(name: String) { self.name = name }
}

/// `POST /v1/register` 201 answer; the token is shown only here.
public struct RegisterResponse: Codable, Hashable, Sendable {
    public var user: String
    public var token: String
    public init(user: String, token: String) { self.user = user; self.token = token }
}

/// `GET /healthz` answer.
public struct HealthStatus: Codable, Hashable, Sendable {
    public var status: String
    public init(status: String) { self.status = status }
}
