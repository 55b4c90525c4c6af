/// An exact decimal number with up to three fractional digits, stored as thousandths.
///
/// Weights, distances and RPE are kept in this form so the number a lifter typed is the
/// number shown back (`102.5` never becomes `102.49999`), and equality is exact.
public struct Fixed: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The value multiplied by 1000.
    public var thousandths: Int64

    public init(thousandths: Int64) { self.thousandths = thousandths }
    public init(_ whole: Int) { self.thousandths = Int64(whole) * 1000 }

    /// Parses a plain decimal like `100`, `102.5` or `0.125`; nil for anything else
    /// (signs, exponents, more than three decimals, or a value too large to hold).
    public init?(parsing text: Substring) {
        guard !text.isEmpty, text.count <= 12 else { return nil }
        var whole: Int64 = 0, fraction: Int64 = 0, fractionDigits = 0
        var seenPoint = false, digits = 0
        for ch in text.utf8 {
            if ch == UInt8(ascii: ".") {
                if seenPoint { return nil }
                seenPoint = true
            } else if ch >= 48 && ch <= 57 {
                digits += 1
                if seenPoint {
                    fractionDigits += 1
                    if fractionDigits > 3 { return nil }
                    fraction = fraction * 10 + Int64(ch - 48)
                } else {
                    whole = whole * 10 + Int64(ch - 48)
                }
            } else {
                return nil
            }
        }
        guard digits > 0 else { return nil }
        while fractionDigits < 3 { fraction *= 10; fractionDigits += 1 }
        self.thousandths = whole * 1000 + fraction
    }

    public init?(parsing text: String) { self.init(parsing: Substring(text)) }

    /// Like `init(parsing:)` but accepts a leading `-` (assisted bodyweight loads are stored negative).
    public init?(parsingSigned text: String) {
        if text.hasPrefix("-") {
            guard let magnitude = Fixed(parsing: text.dropFirst()) else { return nil }
            self = -magnitude
        } else {
            self.init(parsing: Substring(text))
        }
    }

    /// The value rounded to the nearest thousandth; used only for imported or computed numbers.
    /// Never traps: a value past what thousandths in 64 bits hold (a stored `1e30`) is the
    /// nearest end of the range, and NaN is 0.
    public init(rounding value: Double) {
        self = Fixed(roundingWithinRange: value) ?? Fixed(thousandths: value.isNaN ? 0 : value > 0 ? .max : -.max)
    }

    /// The value rounded to the nearest thousandth, or nil when it is not finite or too big
    /// to hold (data from elsewhere: a stored or pulled number is not trusted to fit).
    public init?(roundingWithinRange value: Double) {
        guard let thousandths = Int64(exactly: (value * 1000).rounded()) else { return nil }
        self.thousandths = thousandths
    }

    public var doubleValue: Double { Double(thousandths) / 1000 }
    public var isZero: Bool { thousandths == 0 }

    /// Shortest exact rendering: `100`, `102.5`, `0.125`, `-20`.
    public var description: String {
        let negative = thousandths < 0
        let magnitude = negative ? -thousandths : thousandths
        let whole = magnitude / 1000
        var fraction = magnitude % 1000
        var text = negative ? "-\(whole)" : "\(whole)"
        if fraction != 0 {
            var width = 3
            while fraction % 10 == 0 { fraction /= 10; width -= 1 }
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: width - digits.count) + digits
        }
        return text
    }

    public static func < (lhs: Fixed, rhs: Fixed) -> Bool { lhs.thousandths < rhs.thousandths }
    public static func + (lhs: Fixed, rhs: Fixed) -> Fixed { Fixed(thousandths: lhs.thousandths + rhs.thousandths) }
    public static prefix func - (value: Fixed) -> Fixed { Fixed(thousandths: -value.thousandths) }
}
