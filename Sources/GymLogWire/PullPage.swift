import Foundation
import GymLogCore

// A pull page as the server's store reads it, and the two answers the server writes by hand
// (a pull page; a push answer without errors): they carry up to thousands of fields and
// JSONEncoder would dominate the cost of the query. The client decodes both with the
// `Codable` types of Wire.swift; tests hold the two forms to each other and to openapi.yaml.

/// One field of a pulled row, its clock kept as the stored canonical text.
public struct PulledField: Hashable, Sendable {
    public var name: String
    public var value: FieldValue
    public var clock: String

    public init(name: String, value: FieldValue, clock: String) { self.name = name; self.value = value; self.clock = clock }
}

/// One row (entity, entity_id) of a pull page.
public struct PulledRow: Hashable, Sendable {
    public var entity: String
    public var entityID: String
    public var fields: [PulledField]

    public init(entity: String, entityID: String, fields: [PulledField]) { self.entity = entity; self.entityID = entityID; self.fields = fields }
}

extension PulledRow {
    /// The row's fields grouped by clock, in the order each clock first appears: protocol
    /// v2's changes, each carrying its clock once. One event's fields nearly always share one
    /// clock; a row re-sent whole after a rebase keeps each field's own.
    public var changes: [(clock: String, fields: [PulledField])] {
        let clocks = Self.changeClocks(fields)
        if clocks.count == 1 { return [(clocks[0], fields)] }
        return clocks.map { clock in (clock, fields.filter { $0.clock == clock }) }
    }

    /// The distinct clocks of one row's fields, in the order they first appear: one per
    /// change. The one place that says what a v2 change is; `PageBuilder` counts with it.
    @inlinable public static func changeClocks<S: Sequence<PulledField>>(_ fields: S) -> [String] {
        var clocks: [String] = []
        for field in fields where !clocks.contains(field.clock) { clocks.append(field.clock) }
        return clocks
    }
}

/// One page of a user's change stream.
public struct PullPage: Hashable, Sendable {
    public var rows: [PulledRow]
    /// The change counter to resume after.
    public var cursor: Int64
    public var hasMore: Bool
    /// The (user, device) acknowledged sequence.
    public var lastAppliedSeq: Int64
    /// Field rows in the page.
    public var fieldCount: Int

    public init(rows: [PulledRow], cursor: Int64, hasMore: Bool, lastAppliedSeq: Int64, fieldCount: Int) {
        self.rows = rows; self.cursor = cursor; self.hasMore = hasMore; self.lastAppliedSeq = lastAppliedSeq; self.fieldCount = fieldCount
    }
}

/// Writes the pull answer by hand, in the protocol version the client asked for: it carries
/// up to thousands of fields and JSONEncoder would dominate the cost of the query.
/// `epochChanged` marks the empty page that tells a device to start over.
extension PullPage {
    public func json(epoch: String, epochChanged: Bool = false, version: SyncProtocol) -> String {
        var out = "{\"epoch\":"
        out.reserveCapacity(128 + fieldCount * (version == .v1 ? 96 : 40))
        appendJSONString(epoch, to: &out)
        out += ",\"changes\":["
        switch version {
        case .v1: appendFieldChanges(rows, to: &out)
        case .v2:
            let devices = appendCompactChanges(rows, to: &out)
            out += "],\"devices\":["
            for (i, device) in devices.enumerated() {
                if i > 0 { out += "," }
                appendJSONString(device, to: &out)
            }
        }
        out += "],\"cursor\":"
        appendJSONString("\(epoch):\(cursor)", to: &out)
        out += ",\"has_more\":\(hasMore),\"last_applied_seq\":\(lastAppliedSeq)"
        if epochChanged { out += ",\"epoch_changed\":true" }
        out += "}"
        return out
    }
}

/// `{"entity":…,"entity_id":…`: how every change object of both versions starts.
private func appendRowStart(_ row: PulledRow, to out: inout String) {
    out += "{\"entity\":"
    appendJSONString(row.entity, to: &out)
    out += ",\"entity_id\":"
    appendJSONString(row.entityID, to: &out)
}

/// v1: one object per row, every field with its full clock.
private func appendFieldChanges(_ rows: [PulledRow], to out: inout String) {
    for (i, row) in rows.enumerated() {
        if i > 0 { out += "," }
        appendRowStart(row, to: &out)
        out += ",\"fields\":"
        appendFieldObject(row.fields, to: &out) { field, out in
            out += "{\"v\":"
            appendJSON(field.value, to: &out)
            out += ",\"c\":"
            appendJSONString(field.clock, to: &out)
            out += "}"
        }
        out += "}"
    }
}

/// `{"name":member,...}`, `member` appending each field's value: with its clock in v1, bare in v2.
private func appendFieldObject(_ fields: [PulledField], to out: inout String, member: (PulledField, inout String) -> Void) {
    out += "{"
    for (i, field) in fields.enumerated() {
        if i > 0 { out += "," }
        appendJSONString(field.name, to: &out)
        out += ":"
        member(field, &out)
    }
    out += "}"
}

/// v2: one object per row and clock, the clock's time part once and its device as an index
/// into the returned table (a 36-character device id per field was most of a v1 page).
private func appendCompactChanges(_ rows: [PulledRow], to out: inout String) -> [String] {
    var devices: [String] = []
    var deviceIndex: [Substring: Int] = [:]
    // Most changes of a page come from the device of the change before.
    var lastDevice: (name: Substring, index: Int)?
    var first = true
    for row in rows {
        for change in row.changes {
            // Stored clocks are canonical (`HLC.description`): 15 digits, '-', 5 digits, '-', device.
            let clock = change.clock
            let split = clock.utf8.count > 22 ? clock.index(clock.startIndex, offsetBy: 21) : clock.endIndex
            let device = split < clock.endIndex ? clock[clock.index(after: split)...] : ""
            let index: Int
            if let last = lastDevice, last.name == device { index = last.index }
            else if let known = deviceIndex[device] { index = known } else {
                index = devices.count
                deviceIndex[device] = index
                devices.append(String(device))
            }
            lastDevice = (device, index)
            if !first { out += "," }
            first = false
            appendRowStart(row, to: &out)
            out += ",\"clock\":"
            if split < clock.endIndex {
                // A canonical clock's time part is digits and '-': nothing to escape.
                out += "\""
                out += clock[..<split]
                out += "\""
            } else {
                appendJSONString(clock, to: &out)
            }
            out += ",\"device\":\(index),\"fields\":"
            appendFieldObject(change.fields, to: &out) { field, out in appendJSON(field.value, to: &out) }
            out += "}"
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
        var out = "{\"cursor\":\"" + cursor + "\",\"epoch\":\"" + epoch + "\",\"last_applied_seq\":" + String(lastAppliedSeq)
        if let previousCursor { out += ",\"previous_cursor\":\"" + previousCursor + "\"" }
        out += ",\"results\":["
        out.reserveCapacity(out.utf8.count + results.count * 40 + 2)
        for (i, result) in results.enumerated() {
            if i > 0 { out += "," }
            out += "{\"seq\":"
            out += String(result.seq)
            out += ",\"status\":\""
            out += result.status.rawValue
            out += "\"}"
        }
        out += "]}"
        return out
    }
}
