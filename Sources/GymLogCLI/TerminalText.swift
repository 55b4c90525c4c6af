import GymLogCore

/// Text on its way to stdout or stderr, made safe to print: every control character a name or
/// note could carry (from another app's export, another device, an old version) becomes
/// U+FFFD, so it cannot move the cursor, retitle the window, write the clipboard or
/// overprint a line. Line feeds and tabs stay, and so do the exact colour sequences `Style`
/// itself emits; any other escape sequence is broken at its Escape.
enum TerminalText {
    /// The SGR parameters `Style` uses, as `ESC [ <params> m`.
    static let styleSequences: [[UInt8]] = ["0", "1", "2", "36", "1;31", "1;32"].map { Array("\u{1B}[\($0)m".utf8) }

    static func safe(_ text: String) -> String {
        // The common case, with nothing to replace, costs one pass over the bytes.
        guard text.utf8.contains(where: { ($0 < 0x20 && $0 != 0x0A && $0 != 0x09) || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B, let sequence = styleSequences.first(where: { bytes[i...].starts(with: $0) }) {
                out += sequence
                i += sequence.count
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
}
