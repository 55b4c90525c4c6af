/// Control characters in text people type, import or sync: which ones gymlog keeps, how it
/// names them in errors, and how imported text is cleaned of them.
///
/// Tab and line feed are text (a note may span lines). Every other C0 control, DEL and the
/// C1 controls are not: they are invisible, and printed raw some of them drive the terminal
/// (Escape starts sequences that move the cursor, retitle the window or write the clipboard;
/// U+009B is a one-byte CSI; carriage return overprints a line).
public enum ControlCharacters {
    /// A scalar gymlog neither stores nor prints raw. Line feed and tab count only where
    /// `lineBreaks` are allowed (notes); names are one line.
    @inline(__always)
    public static func isForbidden(_ scalar: Unicode.Scalar, lineBreaks: Bool) -> Bool {
        let v = scalar.value
        if v == 0x0A || v == 0x09 { return !lineBreaks }
        return v < 0x20 || (v >= 0x7F && v <= 0x9F)
    }

    /// The first forbidden scalar and its position (1-based, in characters as people count them).
    public static func firstForbidden(in text: String, lineBreaks: Bool) -> (scalar: Unicode.Scalar, position: Int)? {
        // Most text has no byte below 0x20, no DEL and no 0xC2 lead byte (which begins U+0080-U+00BF).
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return nil }
        for (i, character) in text.enumerated() {
            if let s = character.unicodeScalars.first(where: { isForbidden($0, lineBreaks: lineBreaks) }) { return (s, i + 1) }
        }
        return nil
    }

    /// `U+001B (Escape)`: the code point, and its name where people know it.
    public static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        let name: String? = switch scalar.value {
        case 0x00: "NUL"
        case 0x07: "bell"
        case 0x08: "backspace"
        case 0x09: "tab"
        case 0x0A: "line feed"
        case 0x0D: "carriage return"
        case 0x1B: "Escape"
        case 0x7F: "delete"
        case 0x9B: "CSI"
        default: nil
        }
        return name.map { "\(code) (\($0))" } ?? code
    }

    /// Imported text as gymlog stores it: CR LF and lone CR become line feeds (or spaces, in a
    /// one-line name), tabs in a name become spaces, other controls are dropped. Text with
    /// none comes back unchanged.
    public static func cleaned(_ text: String, lineBreaks: Bool) -> String {
        guard firstForbidden(in: text, lineBreaks: lineBreaks) != nil else { return text }
        var out = String.UnicodeScalarView()
        var previousWasCR = false
        for s in text.unicodeScalars {
            defer { previousWasCR = s.value == 0x0D }
            switch s.value {
            case 0x0A where previousWasCR: continue
            case 0x0A, 0x0D: out.append(lineBreaks ? "\n" : " ")
            case 0x09: out.append(lineBreaks ? s : " ")
            default: if !isForbidden(s, lineBreaks: lineBreaks) { out.append(s) }
            }
        }
        return String(out)
    }
}
