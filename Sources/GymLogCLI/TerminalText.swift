import GymLogCore

/// Text on its way to stdout or stderr, made safe to print: every control character a name or
/// note could carry (from another app's export, another device, a server's error message, an
/// old version) becomes U+FFFD, so it cannot move the cursor, retitle the window, write the
/// clipboard, colour the screen or overprint a line. Line feeds and tabs stay, and so do the
/// colour sequences `Style` itself emitted: only those carry `styleMark`, which data cannot
/// know, so an `ESC [ 1 ; 31 m` that came with a name is broken at its Escape like any other.
enum TerminalText {
    /// The SGR parameters `Style` uses, as `ESC [ <params> m`.
    static let styleSequences: [[UInt8]] = ["0", "1", "2", "4", "36", "1;31", "1;32", "7;32"].map { Array("\u{1B}[\($0)m".utf8) }

    /// What `Style` puts before each of its sequences: three private-use characters drawn at
    /// random once per process, so no stored, pulled or typed text can carry it. `safe` keeps
    /// a style sequence only after it, and drops the mark.
    static let styleMark: String = String(String.UnicodeScalarView((0..<3).map { _ in
        Unicode.Scalar(UInt32.random(in: 0xF0000...0xFFFFD))!
    }))
    private static let markBytes = Array(styleMark.utf8)
    private static let markScalars = Set(styleMark.unicodeScalars)

    /// `text` safe to print (see the type).
    static func safe(_ text: String) -> String { safe(text, keepingCRLF: false) }

    /// `text` safe to print; `keepingCRLF` keeps a carriage return that ends a line (CSV's
    /// CRLF), which cannot overprint anything.
    static func safe(_ text: String, keepingCRLF: Bool) -> String {
        // The common case, with nothing to replace, costs one pass over the bytes.
        guard text.utf8.contains(where: { ($0 < 0x20 && $0 != 0x0A && $0 != 0x09) || $0 == 0x7F || $0 == 0xC2 || $0 == markBytes[0] })
        else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == markBytes[0], bytes[i...].starts(with: markBytes),
               let sequence = styleSequences.first(where: { bytes[(i + markBytes.count)...].starts(with: $0) }) {
                out += sequence
                i += markBytes.count + sequence.count
            } else if keepingCRLF, b == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A {
                out += [0x0D, 0x0A]
                i += 2
            } else if (b < 0x20 && b != 0x0A && b != 0x09) || b == 0x7F {
                out += replacement
                i += 1
            } else if b == 0xC2, i + 1 < bytes.count, (0x80...0x9F).contains(bytes[i + 1]) {
                out += replacement
                i += 2
            } else {
                out.append(b)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let replacement = Array("\u{FFFD}".utf8)

    // MARK: display width

    /// How many terminal columns `text` takes: CJK and emoji take two, combining accents and
    /// zero-width characters none. Every padded column measures with this, so a table of
    /// names like `Développé couché`, `ベンチプレス` or `💪 Curl` stays aligned.
    static func width(_ text: String) -> Int {
        shown(text).reduce(0) { $0 + width(of: $1) }
    }

    /// The characters of `text` that take columns: a style's escape sequence (`ESC [ 2 m`) and
    /// its mark take none.
    static func shown(_ text: String) -> [Character] {
        var out: [Character] = [], inEscape = false
        for c in text {
            if inEscape {
                if let v = c.unicodeScalars.first?.value, v >= 0x40, v <= 0x7E, c != "[" { inEscape = false }
                continue
            }
            if c == "\u{1B}" { inEscape = true; continue }
            if let scalar = c.unicodeScalars.first, markScalars.contains(scalar) { continue }
            out.append(c)
        }
        return out
    }

    /// The blank columns `text` starts with, a style's escape sequence before or among them
    /// taking none: how far in a wrapped line's continuation goes.
    static func leadingBlanks(_ text: String) -> Int { shown(text).prefix { $0 == " " }.count }

    /// The columns one character (a grapheme cluster, so `e` + U+0301 is one) takes.
    static func width(of c: Character) -> Int {
        guard let first = c.unicodeScalars.first else { return 0 }
        let v = first.value
        if v < 0x7F { return v < 0x20 ? 0 : 1 }
        // An emoji presentation selector or an emoji sequence shows as one wide glyph.
        if c.unicodeScalars.contains(where: { $0.value == 0xFE0F }) || first.properties.isEmojiPresentation { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        return wideRanges.contains { $0.contains(v) } ? 2 : 1
    }

    /// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth W and F, by block).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
        0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// `text` followed by spaces up to `columns` display columns (never cut).
    static func pad(_ text: String, to columns: Int) -> String {
        text + String(repeating: " ", count: max(0, columns - width(text)))
    }

    /// `text` in exactly `columns` display columns: padded, or cut with `…` at a character
    /// boundary when it is wider.
    static func fit(_ text: String, to columns: Int) -> String {
        guard width(text) > columns else { return pad(text, to: columns) }
        var out = "", used = 0
        for c in text {
            let w = width(of: c)
            if used + w > columns - 1 { break }
            out.append(c); used += w
        }
        return pad(out + "…", to: columns)
    }

    /// The widest of `texts`, in display columns.
    static func columns(_ texts: some Sequence<String>) -> Int {
        texts.map(width).max() ?? 0
    }
}
