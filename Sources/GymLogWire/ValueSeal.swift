import Foundation
import GymLogCore

/// End-to-end encryption applied to the protocol: every field value of a pushed event sealed
/// on the way out, every pulled value opened on the way in. Entities, row ids, field names
/// and clocks stay in the clear, so the server merges, pages and acknowledges as it does for
/// a plaintext account. The outbox keeps plaintext (logging a set seals nothing); sealing
/// happens when an event is sent.
public struct ValueSeal: Sendable {
    public let key: AccountKey
    /// The account's user name on the server: part of every value's place, so a value cannot
    /// be moved from one account to another that shares the key.
    public let account: String
    /// Values in the `s1:` format (gymlog before 0.12.0), which does not bind the write's
    /// clock, open only under clocks up to this time (Unix ms): the database's
    /// `unbound_seals_until`, when it first ran 0.12.0. Anything later in that format is a
    /// server serving an old value under a new clock, or a device still on an old gymlog.
    public var unboundUntil: Int64

    public init(key: AccountKey, account: String, unboundUntil: Int64 = .min) {
        self.key = key; self.account = account; self.unboundUntil = unboundUntil
    }

    /// `events` sealed (`sealed(_:)` each), in order, the batch split over the processor's
    /// cores: a push batch of a thousand set events is 15,000 values, each its own HMAC and
    /// ChaCha20-Poly1305, and the work is independent per event. A few events are sealed here.
    public func sealed(_ events: [PushEvent]) async throws -> [PushEvent] {
        try await Self.inParts(events, sealed)
    }

    /// Fewer events (or pulled changes) than this per core are sealed (or opened) on one: a task
    /// costs more than a few.
    static let eventsPerPart = 100

    /// `items` transformed by `transform`, in order, split over the processor's cores when
    /// there are enough of them: sealing a push batch and opening a pull page.
    private static func inParts<T: Sendable, R: Sendable>(_ items: [T], _ transform: @escaping @Sendable (T) throws -> R) async throws -> [R] {
        let parts = min(ProcessInfo.processInfo.activeProcessorCount, items.count / eventsPerPart)
        guard parts > 1 else { return try items.map(transform) }
        let size = (items.count + parts - 1) / parts
        return try await withThrowingTaskGroup(of: (Int, [R]).self) { group in
            for start in stride(from: 0, to: items.count, by: size) {
                let part = items[start..<min(start + size, items.count)]
                group.addTask { (start, try part.map(transform)) }
            }
            var done: [(start: Int, results: [R])] = []
            for try await part in group { done.append(part) }
            return done.sorted { $0.start < $1.start }.flatMap(\.results)
        }
    }

    /// `event` with each value (null included: that a field was cleared is the lifter's
    /// business too) replaced by its sealed form, a string.
    ///
    /// The plaintext sealed is each value's JSON text exactly as the outbox payload holds it
    /// (`appendJSON`'s), cut out by the strict reader rather than decoded and written again:
    /// a push seals every field of every event, and decoding cost more than the sealing.
    public func sealed(_ event: PushEvent) throws -> PushEvent {
        // Written as UTF-8 bytes and made a String once: appending to a String per piece cost
        // more than the sealing.
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(event.fields.json.utf8.count * 3 + 64)
        // The place's bytes up to the field are the event's: made once, each field's name
        // and clock added in the same buffer.
        var associatedData = AccountKey.Place.associatedData(account: account, entity: event.entity, rowID: event.entityID)
        let eventPart = associatedData.count
        var payload = event.fields.json
        try payload.withUTF8 { bytes in
            var reader = JSONReader(bytes)
            try reader.document { r in
                try r.object { r, name in
                    guard let name else { throw PayloadError("a field name of event \(event.seq) is not readable text") }
                    var value: Range<Int>?, clock: Range<Int>?
                    try r.object { r, member in
                        switch member {
                        case "v": let start = r.i; try r.skipValue(); value = start..<r.i
                        // The clock as the payload spells it, quotes and all: an HLC's text is
                        // letters, digits and dashes, so its JSON is its bytes in quotes.
                        case "c": let start = r.i; try r.skipValue(); clock = start..<r.i
                        default: try r.skipValue()
                        }
                    }
                    guard let value, let clock else { throw PayloadError("field \(name) of event \(event.seq) has no value or no clock") }
                    guard clock.count >= 2, bytes[clock.lowerBound] == UInt8(ascii: "\""), !bytes[clock].contains(UInt8(ascii: "\\")) else {
                        throw PayloadError("the clock of field \(name) of event \(event.seq) is not an HLC's text")
                    }
                    let clockText = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[(clock.lowerBound + 1)..<(clock.upperBound - 1)]))
                    associatedData.removeSubrange(eventPart...)
                    AccountKey.Place.appendPart(name, to: &associatedData)
                    AccountKey.Place.appendPart(clockText, to: &associatedData)
                    if out.count > 1 { out.append(UInt8(ascii: ",")) }
                    var field = ""
                    appendJSONString(name, to: &field)
                    out.append(contentsOf: field.utf8)
                    out.append(contentsOf: #":{"v":""#.utf8)
                    // The write's clock is bound to the value and names the occasion: one write is
                    // always the same bytes, re-sent under its key after a lost answer or under a
                    // new key after a rebase, and opens under no other clock.
                    key.appendSealed(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[value])), associatedData: associatedData,
                                     clock: clockText, to: &out)
                    out.append(contentsOf: #"","c":"#.utf8)
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clock]))
                    out.append(UInt8(ascii: "}"))
                }
            }
        }
        out.append(UInt8(ascii: "}"))
        var sealed = event
        sealed.fields = EventFields(json: String(decoding: out, as: UTF8.self))
        return sealed
    }

    /// Why a pulled change did not open: the field and what was wrong, for `gymlog status`.
    public struct Unopened: Error, Equatable, Sendable {
        public var field: String
        public var reason: String
    }

    /// `change` with its values opened, or which field did not open and why.
    public func opened(_ change: PullChange) -> Result<PullChange, Unopened> {
        // As in `sealed`: the change's part of the place made once per format, each field's
        // name and clock added.
        var places: [AccountKey.SealFormat: (data: [UInt8], count: Int)] = [:]
        var fields: [String: WireField] = [:]
        fields.reserveCapacity(change.fields.count)
        for (name, field) in change.fields {
            guard case .text(let text) = field.v, let format = AccountKey.SealFormat(of: text) else {
                return .failure(Unopened(field: name, reason: "its value is not sealed, though this account is encrypted (a server that changed it, or a device that skipped the key)"))
            }
            var place = places[format] ?? {
                let data = AccountKey.Place.associatedData(account: account, entity: change.entity, rowID: change.entityID, format: format)
                return (data, data.count)
            }()
            place.data.removeSubrange(place.count...)
            AccountKey.Place.appendPart(name, to: &place.data)
            if format == .v2 { AccountKey.Place.appendPart(field.c.description, to: &place.data) }
            places[format] = place
            let plaintext: Data
            do {
                plaintext = try key.open(text, format: format, associatedData: place.data, acceptsUnbound: field.c.millis <= unboundUntil)
            } catch {
                return .failure(Unopened(field: name, reason: Self.reason(error)))
            }
            guard let value = plaintext.withUnsafeBytes({ Self.fieldValue(json: $0) }) else {
                return .failure(Unopened(field: name, reason: "its value opened but is not a JSON value gymlog writes"))
            }
            fields[name] = WireField(v: value, c: field.c)
        }
        var opened = change
        opened.fields = fields
        return .success(opened)
    }

    /// Why a value did not open, in words for `gymlog status`.
    static func reason(_ failure: AccountKey.OpenFailure) -> String {
        switch failure {
        case .notSealed:
            "its value is not sealed, though this account is encrypted (a server that changed it, or a device that skipped the key)"
        case .wrongKeyOrPlace:
            "its value does not open with this device's key at its place and clock (sealed with another key, for another "
                + "row or field, served under another write's clock: an older value replayed as newer, or changed on the server)"
        case .unboundClock:
            "its value is sealed the way gymlog before 0.12.0 sealed (s1, which does not bind the write's clock) under a clock "
                + "after this device moved to 0.12.0: an older value replayed as newer, or a device still on an older gymlog "
                + "(upgrade it and sync it again)"
        }
    }

    /// Each of `changes` opened (`opened(_:)`), in order, a pull page split over the
    /// processor's cores as a push batch is for sealing.
    public func opened(_ changes: [PullChange]) async -> [Result<PullChange, Unopened>] {
        // `opened(_:)` returns its failures as values, so no part throws.
        (try? await Self.inParts(changes, opened)) ?? changes.map(opened)
    }

    /// One JSON value (null, a number, a string), as `appendJSON` writes it, read as a pulled
    /// value is (`FieldValue`'s decoding). The common shapes are read directly; anything else
    /// (a decimal, an escaped string) goes through the same decoder as an unsealed pull.
    static func fieldValue(json bytes: UnsafeRawBufferPointer) -> FieldValue? {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        if bytes.elementsEqual("null".utf8) { return .null }
        if bytes.count >= 2, bytes.first == quote, bytes.last == quote {
            let inner = UnsafeRawBufferPointer(rebasing: bytes.dropFirst().dropLast())
            if !inner.contains(where: { $0 == quote || $0 == backslash }) { return .text(String(decoding: inner, as: UTF8.self)) }
        }
        if !bytes.isEmpty, bytes.count <= 19, bytes.enumerated().allSatisfy({ $1 >= 48 && $1 <= 57 || ($0 == 0 && $1 == UInt8(ascii: "-") && bytes.count > 1) }),
           let int = Int64(String(decoding: bytes, as: UTF8.self)) {
            return .int(int)
        }
        // Wrapped in an array: a bare number or string at the top is refused by some decoders.
        var wrapped = Data("[".utf8)
        wrapped.append(contentsOf: bytes)
        wrapped.append(contentsOf: Array("]".utf8))
        return (try? JSONDecoder().decode([FieldValue].self, from: wrapped)).flatMap { $0.count == 1 ? $0[0] : nil }
    }
}

/// The request header that carries the account key's verifier (`AccountKey.verifier`) on
/// every push and pull of an encrypted account: the server refuses a device holding another
/// key before anything of it is stored.
public let accountKeyHeader = "Gymlog-Key"

/// `GET /v1/account`: who the token belongs to and whether its history is encrypted.
public struct AccountInfo: Codable, Hashable, Sendable {
    public var user: String
    /// The server holds a key verifier: every value is sealed, and a device needs the key.
    public var encrypted: Bool
    /// The account holds no history yet: the first device may make its key.
    public var empty: Bool

    public init(user: String, encrypted: Bool, empty: Bool) { self.user = user; self.encrypted = encrypted; self.empty = empty }
}

/// `PUT /v1/account/key` body: the verifier of the key the account's history is sealed with
/// from now on.
public struct AccountKeyRequest: Codable, Hashable, Sendable {
    public var verifier: String
    public init(verifier: String) { self.verifier = verifier }
}

/// `PUT /v1/account/key` answer.
public struct AccountKeyResponse: Codable, Hashable, Sendable {
    /// The plaintext history the server held was dropped (a new history generation: every
    /// device re-sends its rows, sealed).
    public var droppedHistory: Bool
    public init(droppedHistory: Bool) { self.droppedHistory = droppedHistory }

    public enum CodingKeys: String, CodingKey { case droppedHistory = "dropped_history" }
}
