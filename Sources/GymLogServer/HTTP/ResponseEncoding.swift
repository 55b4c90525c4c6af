import Foundation
import GymLogCore
import GymLogWire

/// Writes the pull answer by hand: it carries up to thousands of fields and JSONEncoder
/// would dominate the cost of the query.
func encodePullResponse(_ page: PullPage, epoch: String) -> String {
    var out = "{\"epoch\":"
    out.reserveCapacity(128 + page.fieldCount * 96)
    appendJSONString(epoch, to: &out)
    out += ",\"changes\":["
    for (i, row) in page.rows.enumerated() {
        if i > 0 { out += "," }
        out += "{\"entity\":"
        appendJSONString(row.entity, to: &out)
        out += ",\"entity_id\":"
        appendJSONString(row.entityID, to: &out)
        out += ",\"fields\":{"
        for (j, field) in row.fields.enumerated() {
            if j > 0 { out += "," }
            appendJSONString(field.name, to: &out)
            out += ":{\"v\":"
            appendJSON(field.value, to: &out)
            out += ",\"c\":"
            appendJSONString(field.clock, to: &out)
            out += "}"
        }
        out += "}}"
    }
    out += "],\"cursor\":"
    appendJSONString("\(epoch):\(page.cursor)", to: &out)
    out += ",\"has_more\":\(page.hasMore),\"last_applied_seq\":\(page.lastAppliedSeq)}"
    return out
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
