import GymLogCore
import GymLogServerCore

/// The one rule for a JSON number in a field value: it is stored exactly, or refused.
///
/// An integral number (`5`, `5.0`, `5e0`) from Int64.min to Int64.max is `.int`. Any other
/// number is `.real` when the nearest 64-bit float, written in its shortest round-trip form
/// (Swift's `description`, what every gymlog client sends), is the same decimal number as the
/// text: `0.1`, `62.5`, `1e+20`, `-2.5e-7`. Everything else has no exact stored form and is
/// refused: 2^63 (`9223372036854775808` would become `9.223372036854776e+18`), a 30-digit
/// integer (its last digits would be lost), `1e-400` (0), `1e400` (infinity), or
/// `0.30000000000000001` (it would come back as `0.3`).
public enum ExactNumber {
    /// The stored value of a JSON number's text, or nil when none holds it exactly.
    public static func fieldValue(_ text: some StringProtocol) -> FieldValue? {
        guard let exact = Canonical(text) else { return nil }
        if let int = exact.int64 { return .int(int) }
        guard let d = Double(String(text)), d.isFinite, Canonical(d.description) == exact else { return nil }
        return .real(d)
    }

    /// What a 64-bit float would make of the text (`9.223372036854776e+18`, `0.0`,
    /// `infinity`), for a refusal's message.
    public static func nearestDouble(_ text: some StringProtocol) -> String {
        guard let d = Double(String(text)) else { return "nothing" }
        return d.isFinite ? d.description : (d < 0 ? "-infinity" : "infinity")
    }

    /// A decimal number as `digits × 10^exponent`, with no leading or trailing zero digits
    /// (zero has no digits and is never negative): equal numbers have equal forms.
    private struct Canonical: Equatable {
        var negative = false
        var digits: [UInt8] = []
        var exponent = 0

        /// Reads JSON's number grammar (and Swift's `description` of a finite Double, which
        /// writes `e+20`); nil for anything else.
        init?(_ text: some StringProtocol) {
            var u = Array(text.utf8)[...]
            if u.first == UInt8(ascii: "-") { negative = true; u = u.dropFirst() }
            var fraction = 0, sawDigit = false, inFraction = false
            while let c = u.first {
                if c == UInt8(ascii: ".") {
                    guard !inFraction else { return nil }
                    inFraction = true
                } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) {
                    sawDigit = true
                    if !(digits.isEmpty && c == UInt8(ascii: "0")) { digits.append(c - UInt8(ascii: "0")) }
                    if inFraction { fraction += 1 }
                } else {
                    break
                }
                u = u.dropFirst()
            }
            guard sawDigit else { return nil }
            var power = 0
            if let e = u.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
                u = u.dropFirst()
                var minus = false
                if let s = u.first, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { minus = s == UInt8(ascii: "-"); u = u.dropFirst() }
                guard !u.isEmpty else { return nil }
                for c in u {
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) else { return nil }
                    // Saturates: past a billion the number is out of every range anyway.
                    power = min(power * 10 + Int(c - UInt8(ascii: "0")), 1_000_000_000)
                }
                if minus { power = -power }
            } else if !u.isEmpty {
                return nil
            }
            exponent = power - fraction
            while digits.last == 0 { digits.removeLast(); exponent += 1 }
            if digits.isEmpty { negative = false; exponent = 0 }
        }

        /// The number as an Int64 when it is an integer in range.
        var int64: Int64? {
            if digits.isEmpty { return 0 }
            guard exponent >= 0, digits.count + exponent <= 19 else { return nil }
            var magnitude: UInt64 = 0
            for d in digits + [UInt8](repeating: 0, count: exponent) {
                let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(UInt64(d))
                guard !o1, !o2 else { return nil }
                magnitude = a
            }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
                return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
            }
            return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
        }
    }
}
