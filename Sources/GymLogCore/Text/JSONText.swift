// JSON text written by hand where a JSONEncoder would cost too much (the outbox payload, the
// sync wire, `--json` output): one escaping rule for every module that writes JSON.

/// Whether `s` needs any escape as a JSON string literal (`appendJSONString`): names, ids,
/// clocks and most notes do not, and are copied whole. DEL and the C1 controls (lead byte
/// 0xC2) count too, so no JSON gymlog prints carries a raw control.
@inlinable public func jsonStringNeedsEscaping(_ s: String) -> Bool {
    s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2 })
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
