// JSON text written by hand where a JSONEncoder would cost too much (the outbox payload, the
// sync wire, `--json` output): one escaping rule for every module that writes JSON.

/// Whether `s` needs any escape as a JSON string literal (`appendJSONString`): names, ids,
/// clocks and most notes do not, and are copied whole. DEL and the C1 controls (lead byte
/// 0xC2) count too, so no JSON gymlog prints carries a raw control.
@inlinable public func jsonStringNeedsEscaping(_ s: String) -> Bool {
    @inline(__always) func needs(_ b: UInt8) -> Bool { b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F || b == 0xC2 }
    // A native string's bytes scanned in place: the generic `contains(where:)` over the view
    // was 1.7 % of a logged set's CPU (every field name and value of its payload passes here).
    if let found = s.utf8.withContiguousStorageIfAvailable({ bytes in bytes.contains(where: needs) }) { return found }
    return s.utf8.contains(where: needs)
}

/// Appends `s` as a JSON string literal: quotes, backslashes and control characters escaped.
public func appendJSONString(_ s: String, to out: inout String) {
    if !jsonStringNeedsEscaping(s) {
        out += "\""
        out += s
        out += "\""
        return
    }
    out += "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case let c where c.value < 0x20 || (c.value >= 0x7F && c.value <= 0x9F):
            let hex = String(c.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    out += "\""
}
