import Foundation

/// The terminal columns a text takes: East Asian wide and fullwidth characters (CJK, kana,
/// Hangul, fullwidth forms) and emoji take two, everything else one per character (a letter
/// with combining accents is one character), so tables of names line up.
public func displayWidth(_ text: String) -> Int {
    text.reduce(0) { $0 + displayWidth(of: $1) }
}

/// The columns one character takes: 2 for wide and emoji-presentation characters, else 1.
func displayWidth(of c: Character) -> Int {
    guard let s = c.unicodeScalars.first else { return 0 }
    if s.properties.isEmojiPresentation { return 2 }
    switch s.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
         0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
        return 2
    default:
        return 1
    }
}

/// `text` followed by spaces up to `columns` terminal columns (never cut).
public func padded(_ text: String, toColumns columns: Int) -> String {
    text + String(repeating: " ", count: max(0, columns - displayWidth(text)))
}
