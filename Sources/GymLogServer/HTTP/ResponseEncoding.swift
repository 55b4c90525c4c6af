import Foundation
import GymLogCore
import GymLogWire

/// Writes the pull answer by hand, in the protocol version the client asked for: it carries
/// up to thousands of fields and JSONEncoder would dominate the cost of the query.
/// `epochChanged` marks the empty page that tells a device to start over.
func encodePullResponse(_ page: PullPage, epoch: String, epochChanged: Bool = false, version: SyncProtocol) -> String {
    var out = "{\"epoch\":"
    out.reserveCapacity(128 + page.fieldCount * (version == .v1 ? 96 : 40))
    appendJSONString(epoch, to: &out)
    out += ",\"changes\":["
    switch version {
    case .v1: appendFieldChanges(page.rows, to: &out)
    case .v2:
        let devices = appendCompactChanges(page.rows, to: &out)
        out += "],\"devices\":["
        for (i, device) in devices.enumerated() {
            if i > 0 { out += "," }
            appendJSONString(device, to: &out)
        }
    }
    out += "],\"cursor\":"
    appendJSONString("\(epoch):\(page.cursor)", to: &out)
    out += ",\"has_more\":\(page.hasMore),\"last_applied_seq\":\(page.lastAppliedSeq)"
    if epochChanged { out += ",\"epoch_changed\":true" }
    out += "}"
    return out
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

/// The push answer written by hand when no result carries an error (the common case: a
/// thousand `applied` results), byte for byte what `jsonResponse` would send (sorted keys);
/// nil otherwise, so answers with error messages still go through JSONEncoder.
func encodePushResponse(_ r: PushResponse) -> String? {
    func plain(_ s: String) -> Bool { s.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7f && $0 != 0x22 && $0 != 0x5c } }
    guard plain(r.cursor), plain(r.epoch), r.results.allSatisfy({ $0.error == nil }) else { return nil }
    var out = "{\"cursor\":\"" + r.cursor + "\",\"epoch\":\"" + r.epoch + "\",\"last_applied_seq\":" + String(r.lastAppliedSeq) + ",\"results\":["
    out.reserveCapacity(out.utf8.count + r.results.count * 40 + 2)
    for (i, result) in r.results.enumerated() {
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
