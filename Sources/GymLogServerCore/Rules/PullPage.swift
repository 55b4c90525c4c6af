import Foundation
import GymLogCore
import GymLogWire

// A pull page as the server's store reads it, and the two answers the server writes by hand
// (a pull page; a push answer without errors): they carry up to thousands of fields and
// JSONEncoder would dominate the cost of the query. The client decodes both with the
// `Codable` types of Wire.swift; tests hold the two forms to each other and to openapi.yaml.

/// One record of a pull page as the server stores it: its row and its stored text (`RecordText`).
public struct PulledRecord: Hashable, Sendable {
    public var entity: String
    public var entityID: String
    /// The change counter value of the last event that wrote the record.
    public var changeSeq: Int64
    public var text: String

    public init(entity: String, entityID: String, changeSeq: Int64, text: String) {
        self.entity = entity; self.entityID = entityID; self.changeSeq = changeSeq; self.text = text
    }
}

/// One page of a user's change stream.
public struct PullPage: Hashable, Sendable {
    /// The records, whole, in pull order, as stored (their texts checked by `RecordText.counts`).
    public var records: [PulledRecord]
    /// The change counter to resume after.
    public var cursor: Int64
    public var hasMore: Bool
    /// The (user, device) acknowledged sequence.
    public var lastAppliedSeq: Int64
    /// Field rows in the page.
    public var fieldCount: Int
    /// Of each record, only the changes written after this counter value are sent: the
    /// device has every field written at or before it (`since` of the pull; 0 sends records whole).
    public var since: Int64

    public init(records: [PulledRecord], cursor: Int64, hasMore: Bool, lastAppliedSeq: Int64, fieldCount: Int, since: Int64 = 0) {
        self.records = records; self.cursor = cursor; self.hasMore = hasMore; self.lastAppliedSeq = lastAppliedSeq; self.fieldCount = fieldCount
        self.since = since
    }

    /// The records as the page sends them, decoded: each with its fields written after
    /// `since`, in name order (a v1 page, and tests). A record whose text does not read (the
    /// page builder checked them all) is left out.
    public var rows: [RecordRow] {
        records.compactMap { record in
            (try? RecordText.decode(record.text)).map {
                RecordRow(entity: record.entity, entityID: record.entityID, changeSeq: record.changeSeq, fields: $0.filter { $0.changeSeq > since })
            }
        }
    }
}

/// Writes the pull answer by hand, in the protocol version the client asked for: it carries
/// up to thousands of fields and JSONEncoder would dominate the cost of the query.
/// `epochChanged` marks the empty page that tells a device to start over.
extension PullPage {
    public func json(epoch: String, epochChanged: Bool = false, version: SyncProtocol) -> String {
        String(decoding: jsonBytes(epoch: epoch, epochChanged: epochChanged, version: version), as: UTF8.self)
    }

    /// The answer's bytes. A v2 page copies each change's fields as stored (`RecordText`); a
    /// v1 page decodes its records and writes every field with its clock.
    public func jsonBytes(epoch: String, epochChanged: Bool = false, version: SyncProtocol) -> [UInt8] {
        var out = JSONBytes()
        out.bytes.reserveCapacity(256 + records.reduce(0) { $0 + $1.text.utf8.count + 96 })
        typealias Key = PullResponse.CodingKeys
        out.appendMember("{", Key.epoch)
        out.appendString(epoch)
        out.appendMember(",", Key.changes)
        out.append("[")
        switch version {
        case .v1:
            var text = ""
            appendFieldChanges(rows, to: &text)
            out.bytes += text.utf8
        case .v2:
            let devices = appendCompactChanges(records, since: since, to: &out)
            out.appendMember("],", CompactPullResponse.CodingKeys.devices)
            out.append("[")
            for (i, device) in devices.enumerated() {
                if i > 0 { out.append(",") }
                out.appendString(device)
            }
        }
        out.appendMember("],", Key.cursor)
        out.appendString("\(epoch):\(cursor)")
        out.appendMember(",", Key.hasMore)
        out.append(hasMore ? "true" : "false")
        out.appendMember(",", Key.lastAppliedSeq)
        out.bytes += String(lastAppliedSeq).utf8
        if epochChanged {
            out.appendMember(",", Key.epochChanged)
            out.append("true")
        }
        out.append("}")
        return out.bytes
    }
}

/// An answer written as bytes.
struct JSONBytes {
    var bytes: [UInt8] = []

    mutating func append(_ literal: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    mutating func append(_ raw: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: raw) }

    /// `prefix` then `"key":`, the key as the answer's `CodingKeys` spell it.
    mutating func appendMember<Key: CodingKey>(_ prefix: StaticString, _ key: Key) {
        append(prefix)
        bytes += jsonMember(key).utf8
    }

    /// A JSON string literal; most (ids, names, clocks) need no escape and are copied whole.
    mutating func appendString(_ s: String) {
        if jsonStringNeedsEscaping(s) {
            var text = ""
            appendJSONString(s, to: &text)
            bytes += text.utf8
        } else {
            bytes.append(UInt8(ascii: "\""))
            bytes += s.utf8
            bytes.append(UInt8(ascii: "\""))
        }
    }
}

/// The members of a change object, `"entity":` and the rest, spelled once from the
/// `Codable` types' keys and kept as bytes: a page writes them for each of its changes.
private enum ChangeMember {
    typealias V1 = PullChange.CodingKeys
    typealias V2 = CompactPullChange.CodingKeys
    static let entity = "{" + jsonMember(V1.entity)
    static let entityID = "," + jsonMember(V1.entityID)
    static let fields = "," + jsonMember(V1.fields)
    static let value = "{" + jsonMember(WireField.CodingKeys.v)
    static let clock = "," + jsonMember(WireField.CodingKeys.c)
    static let compactEntity = Array(("{" + jsonMember(V2.entity)).utf8)
    static let compactEntityID = Array(("," + jsonMember(V2.entityID)).utf8)
    static let compactClock = Array(("," + jsonMember(V2.clock) + "\"").utf8)
    static let compactDevice = Array(("\"," + jsonMember(V2.device)).utf8)
    static let compactFields = Array(("," + jsonMember(V2.fields)).utf8)
}

/// v1: one object per record, every field with its full clock.
private func appendFieldChanges(_ rows: [RecordRow], to out: inout String) {
    for (i, row) in rows.enumerated() {
        if i > 0 { out += "," }
        out += ChangeMember.entity
        appendJSONString(row.entity, to: &out)
        out += ChangeMember.entityID
        appendJSONString(row.entityID, to: &out)
        out += ChangeMember.fields
        out += "{"
        for (i, field) in row.fields.enumerated() {
            if i > 0 { out += "," }
            appendJSONString(field.name, to: &out)
            out += ":"
            out += ChangeMember.value
            appendJSON(field.value, to: &out)
            out += ChangeMember.clock
            appendJSONString(field.clock, to: &out)
            out += "}"
        }
        out += "}}"
    }
}

/// v2: one object per record and change, the clock's time part once and its device as an
/// index into the returned table (a 36-character device id per field was most of a v1 page).
/// The fields are the stored change's `f` object, copied: no value is decoded or re-escaped.
/// A record whose text does not read (the page builder checked them all) is left out.
private func appendCompactChanges(_ records: [PulledRecord], since: Int64, to out: inout JSONBytes) -> [String] {
    var devices: [String] = []
    var deviceIndex: [String: Int] = [:]
    // Most changes of a page come from the device of the change before.
    var lastDevice: [UInt8] = [], lastIndex = -1
    var first = true
    for record in records {
        var text = record.text
        text.withUTF8 { bytes in
            try? RecordText.eachChange(bytes) { change in
                guard change.seq > since else { return }
                // Stored clocks are canonical (`HLC.description`): 15 digits, '-', 5 digits, '-', device.
                let clock = change.clock
                let canonical = clock.count > 22 && !clock.contains(UInt8(ascii: "\\"))
                let device = canonical ? UnsafeBufferPointer(rebasing: clock[22...]) : UnsafeBufferPointer(rebasing: clock[clock.count...])
                let index: Int
                if lastIndex >= 0, lastDevice.elementsEqual(device) { index = lastIndex } else {
                    let name = String(decoding: device, as: UTF8.self)
                    if let known = deviceIndex[name] { index = known } else {
                        index = devices.count
                        deviceIndex[name] = index
                        devices.append(name)
                    }
                    lastDevice = Array(device)
                    lastIndex = index
                }
                if !first { out.append(",") }
                first = false
                out.bytes += ChangeMember.compactEntity
                out.appendString(record.entity)
                out.bytes += ChangeMember.compactEntityID
                out.appendString(record.entityID)
                out.bytes += ChangeMember.compactClock
                // A canonical clock's time part is digits and '-': nothing to escape. Another
                // clock is written whole, as stored (its escapes kept), with device "".
                out.append(canonical ? UnsafeBufferPointer(rebasing: clock[..<21]) : clock)
                out.bytes += ChangeMember.compactDevice
                out.bytes += String(index).utf8
                out.bytes += ChangeMember.compactFields
                out.append(change.fields)
                out.append("}")
            }
        }
    }
    return devices
}

extension PushResponse {
    /// The answer written by hand when no result carries an error (the common case: a
    /// thousand `applied` results), byte for byte what JSONEncoder with sorted keys writes;
    /// nil otherwise, so answers with error messages still go through JSONEncoder.
    public func handWrittenJSON() -> String? {
        func plain(_ s: String) -> Bool { s.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7f && $0 != 0x22 && $0 != 0x5c } }
        guard plain(cursor), plain(epoch), previousCursor.map(plain) ?? true, results.allSatisfy({ $0.error == nil }) else { return nil }
        typealias Key = CodingKeys
        typealias Result = PushResult.CodingKeys
        // Sorted keys, as JSONEncoder's `.sortedKeys` writes them.
        var out = "{" + jsonMember(Key.cursor) + "\"" + cursor + "\"," + jsonMember(Key.epoch) + "\"" + epoch + "\","
            + jsonMember(Key.lastAppliedSeq) + String(lastAppliedSeq)
        if let previousCursor { out += "," + jsonMember(Key.previousCursor) + "\"" + previousCursor + "\"" }
        out += "," + jsonMember(Key.results) + "["
        out.reserveCapacity(out.utf8.count + results.count * 40 + 2)
        let seqMember = "{" + jsonMember(Result.seq), statusMember = "," + jsonMember(Result.status) + "\""
        for (i, result) in results.enumerated() {
            if i > 0 { out += "," }
            out += seqMember
            out += String(result.seq)
            out += statusMember
            out += result.status.rawValue
            out += "\"}"
        }
        out += "]}"
        return out
    }
}
