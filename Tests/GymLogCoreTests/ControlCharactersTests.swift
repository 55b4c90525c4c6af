import GymLogCore
import Testing

@Suite struct ControlCharactersTests {
    @Test func forbiddenAreC0ButTabAndLineFeedInNotesAndDELAndC1() {
        for v in UInt32(0)...0xFF {
            let s = Unicode.Scalar(v)!
            let control = v < 0x20 || (0x7F...0x9F).contains(v)
            #expect(ControlCharacters.isForbidden(s, lineBreaks: false) == control, "U+\(String(v, radix: 16)) in a name")
            #expect(ControlCharacters.isForbidden(s, lineBreaks: true) == (control && v != 0x09 && v != 0x0A), "U+\(String(v, radix: 16)) in a note")
        }
    }

    @Test func theFirstOneIsFoundAtItsCharacterPosition() {
        #expect(ControlCharacters.firstForbidden(in: "plain «text» 💪 ¡olé!", lineBreaks: false) == nil)
        #expect(ControlCharacters.firstForbidden(in: "two\nlines\tand a tab", lineBreaks: true) == nil)
        let inName = ControlCharacters.firstForbidden(in: "two\nlines", lineBreaks: false)
        #expect(inName?.scalar == "\n" && inName?.position == 4)
        // Positions count characters as people see them, not bytes or scalars.
        let afterEmoji = ControlCharacters.firstForbidden(in: "💪é\u{301}x\u{1B}[2J", lineBreaks: true)
        #expect(afterEmoji?.scalar == "\u{1B}" && afterEmoji?.position == 4)
        let csi = ControlCharacters.firstForbidden(in: "a\u{9B}31m", lineBreaks: true)
        #expect(csi?.scalar == "\u{9B}" && csi?.position == 2)
        #expect(ControlCharacters.firstForbidden(in: "windows\r\nline", lineBreaks: true)?.position == 8)
    }

    @Test func theyAreNamedByCodePoint() {
        #expect(ControlCharacters.describe("\u{1B}") == "U+001B (Escape)")
        #expect(ControlCharacters.describe("\u{0}") == "U+0000 (NUL)")
        #expect(ControlCharacters.describe("\u{9B}") == "U+009B (CSI)")
        #expect(ControlCharacters.describe("\u{1F}") == "U+001F")
    }

    @Test func importedTextIsCleaned() {
        #expect(ControlCharacters.cleaned("grip slipped\r\nlast set\rhard", lineBreaks: true) == "grip slipped\nlast set\nhard")
        #expect(ControlCharacters.cleaned("Bench\tPress\r\n", lineBreaks: false) == "Bench Press ")
        #expect(ControlCharacters.cleaned("felt \u{1B}]52;c;eA==\u{7}good\u{0}\u{9B}\u{7F}", lineBreaks: true) == "felt ]52;c;eA==good")
        let clean = "nothing to do «é» 💪"
        #expect(ControlCharacters.cleaned(clean, lineBreaks: false) == clean)
        for text in ["a\u{1B}b\r\nc\u{85}d\te", "\u{0}\u{0}", "x\r"] {
            #expect(ControlCharacters.firstForbidden(in: ControlCharacters.cleaned(text, lineBreaks: true), lineBreaks: true) == nil)
            #expect(ControlCharacters.firstForbidden(in: ControlCharacters.cleaned(text, lineBreaks: false), lineBreaks: false) == nil)
        }
    }
}
