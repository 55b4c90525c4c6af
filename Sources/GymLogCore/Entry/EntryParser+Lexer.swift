// The tokenizer behind `EntryParser`: turns the set part of a line into a flat token list.
// Offsets are Character indexes so spans line up with what the user sees on screen.

/// A keyword the set grammar knows, recognised case-insensitively.
enum EntryWord: Equatable {
    case weightUnit(WeightUnit)
    case distanceUnit(DistanceUnit)
    /// A duration unit and how many seconds one of it is.
    case timeUnit(Int)
    case bodyweight
    /// `w`: warm-up, as a prefix (`w60x10`) or a suffix (`60x10 w`).
    case w
    case kind(SetKind)
    /// `rpe`: not grammar, but recognised to suggest `@8`.
    case rpe
    /// `rir`: reps in reserve, before its number (`rir2`, `rir 1.5`).
    case rir
    case other

    init(_ text: Substring) {
        let lower = text.lowercased()
        switch lower {
        case "bw": self = .bodyweight
        case "w": self = .w
        case "d", "drop": self = .kind(.drop)
        case "f", "failure": self = .kind(.failure)
        case "warmup": self = .kind(.warmup)
        case "rpe": self = .rpe
        case "rir": self = .rir
        case "s", "sec", "secs", "second", "seconds": self = .timeUnit(1)
        case "min", "mins", "minute", "minutes": self = .timeUnit(60)
        case "h", "hr", "hrs", "hour", "hours": self = .timeUnit(3600)
        default:
            if let unit = WeightUnit(spelling: Substring(lower)) {
                self = .weightUnit(unit)
            } else if let unit = DistanceUnit(spelling: Substring(lower)) {
                self = .distanceUnit(unit)
            } else {
                self = .other
            }
        }
    }
}

/// One token of the set part of a line.
struct EntryToken {
    enum Kind: Equatable {
        /// `100`, `102.5`, `.5`
        case number
        /// `7:41`, `1:02:03`
        case clock
        case word(EntryWord)
        /// `x`, `X`, `×`
        case times
        case at
        case plus
        case minus
        case comma
        /// Anything else, as one run of non-space characters.
        case junk
    }

    var kind: Kind
    var start: Int
    var end: Int
    /// Whether whitespace (or the start of the lexed range) separates this token from the previous one.
    var spaced: Bool
    /// Numbers: the value in thousandths (first three decimals only), saturated for huge inputs.
    var thousandths: Int64 = 0
    /// Numbers: how many digits follow the decimal point (0 when there is no point).
    var decimals: Int = 0
    var hasPoint = false
    /// Clocks: total seconds, or nil when a field after the first is not two digits below 60.
    var clockSeconds: Int? = nil

    var span: Span { Span(start, end) }
    var isInteger: Bool { kind == .number && !hasPoint }
    /// The whole value of an integer number token (saturated).
    var integer: Int { Int(thousandths / 1000) }
}

/// The largest whole part a number keeps exactly; anything bigger saturates (and fails a limit).
private let saturatedWhole: Int64 = 1_000_000_000_000

@inline(__always) func asciiDigit(_ c: Character) -> Int64? {
    guard let a = c.asciiValue, a >= 48, a <= 57 else { return nil }
    return Int64(a - 48)
}

@inline(__always) func isSpace(_ c: Character) -> Bool { c.isWhitespace }

/// A C0 or C1 control character other than whitespace (tab, CR, LF, VT, FF and NEL are spaces).
/// A control always forms a character of its own, so its first scalar decides.
@inline(__always) func isControl(_ c: Character) -> Bool {
    let v = c.unicodeScalars.first!.value
    return v < 0x09 || (v > 0x0D && v < 0x20) || (v >= 0x7F && v <= 0x9F && v != 0x85)
}

@inline(__always) func isTimes(_ c: Character) -> Bool { c == "x" || c == "X" || c == "×" }

enum EntryLexer {
    /// Tokens of `chars[start..<end]`; the first token counts as spaced when `spacedAtStart`.
    static func tokens(_ chars: [Character], from start: Int, to end: Int, spacedAtStart: Bool) -> [EntryToken] {
        var out: [EntryToken] = []
        out.reserveCapacity(16)
        var i = start
        var spaced = spacedAtStart
        while i < end {
            let c = chars[i]
            if isSpace(c) { spaced = true; i += 1; continue }
            let tokStart = i
            if asciiDigit(c) != nil || (c == "." && i + 1 < end && asciiDigit(chars[i + 1]) != nil) {
                out.append(number(chars, at: &i, end: end, spaced: spaced))
            } else if c.isLetter {
                var j = i
                while j < end && chars[j].isLetter && chars[j] != "×" { j += 1 }
                let text = String(chars[i..<j])[...]
                if text.count == 1 && isTimes(c) {
                    out.append(EntryToken(kind: .times, start: i, end: j, spaced: spaced))
                } else {
                    let word = EntryWord(text)
                    // `bwx8`, `100kgx5`, `60sx3`: a known word glued to an `x` and a number.
                    let last = chars[j - 1]
                    if word == .other, text.count > 1, isTimes(last), j < end, asciiDigit(chars[j]) != nil,
                       case let prefix = EntryWord(text.dropLast()), prefix != .other {
                        out.append(EntryToken(kind: .word(prefix), start: i, end: j - 1, spaced: spaced))
                        out.append(EntryToken(kind: .times, start: j - 1, end: j, spaced: false))
                    } else {
                        out.append(EntryToken(kind: .word(word), start: i, end: j, spaced: spaced))
                    }
                }
                i = j
            } else {
                let kind: EntryToken.Kind?
                switch c {
                case "×": kind = .times
                case "@": kind = .at
                case "+": kind = .plus
                case "-": kind = .minus
                case ",": kind = .comma
                default: kind = nil
                }
                if let kind {
                    out.append(EntryToken(kind: kind, start: i, end: i + 1, spaced: spaced))
                    i += 1
                } else {
                    var j = i + 1
                    while j < end && isJunk(chars, j, end) { j += 1 }
                    out.append(EntryToken(kind: .junk, start: tokStart, end: j, spaced: spaced))
                    i = j
                }
            }
            spaced = false
        }
        return out
    }

    /// Whether the character at `i` would be lexed as (part of) a junk run.
    private static func isJunk(_ chars: [Character], _ i: Int, _ end: Int) -> Bool {
        let c = chars[i]
        if isSpace(c) || c.isLetter || asciiDigit(c) != nil { return false }
        switch c {
        case "×", "@", "+", "-", ",": return false
        case ".": return !(i + 1 < end && asciiDigit(chars[i + 1]) != nil)
        default: return true
        }
    }

    private static func number(_ chars: [Character], at i: inout Int, end: Int, spaced: Bool) -> EntryToken {
        let start = i
        var whole: Int64 = 0
        while i < end, let d = asciiDigit(chars[i]) {
            whole = min(whole * 10 + d, saturatedWhole)
            i += 1
        }
        // A clock: `7:41`, `1:02:03`.
        if i + 1 < end, chars[i] == ":", asciiDigit(chars[i + 1]) != nil {
            var total: Int64 = whole
            var valid = true
            var fields = 1
            while i + 1 < end, chars[i] == ":", asciiDigit(chars[i + 1]) != nil {
                i += 1
                var field: Int64 = 0, digits = 0
                while i < end, let d = asciiDigit(chars[i]) {
                    field = min(field * 10 + d, saturatedWhole)
                    digits += 1
                    i += 1
                }
                fields += 1
                if digits != 2 || field >= 60 || fields > 3 { valid = false }
                total = min(total * 60 + field, saturatedWhole)
            }
            var token = EntryToken(kind: .clock, start: start, end: i, spaced: spaced)
            token.clockSeconds = valid ? Int(total) : nil
            return token
        }
        var fraction: Int64 = 0, decimals = 0, hasPoint = false
        if i + 1 < end, chars[i] == ".", asciiDigit(chars[i + 1]) != nil {
            hasPoint = true
            i += 1
            while i < end, let d = asciiDigit(chars[i]) {
                if decimals < 3 { fraction = fraction * 10 + d }
                decimals += 1
                i += 1
            }
        }
        var scale = min(decimals, 3)
        while scale < 3 { fraction *= 10; scale += 1 }
        var token = EntryToken(kind: .number, start: start, end: i, spaced: spaced)
        token.thousandths = whole * 1000 + fraction
        token.decimals = decimals
        token.hasPoint = hasPoint
        return token
    }
}
