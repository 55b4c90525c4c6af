@testable import GymLogCLI
import Testing

@Suite struct TerminalTextTests {
    @Test func plainTextAndTheColoursGymlogPrintsPassUnchanged() {
        let style = Style(enabled: true)
        for line in ["bench 100x5 · PR!", "two\nlines\twith a tab", "¡olé! «ça» 💪 é\u{301}",
                     style.record("PR") + " " + style.error("error:") + style.dim("dim") + style.bold("b") + style.plot("⣿")] {
            #expect(TerminalText.safe(line) == line)
        }
    }

    @Test func everyOtherControlBecomesAReplacementCharacter() {
        let r = "\u{FFFD}"
        // Set the window title, write the clipboard (OSC 52), clear the screen, one-byte CSI,
        // overprint with a carriage return, bell, backspace, delete, NEL.
        #expect(TerminalText.safe("a\u{1B}]0;pwned\u{7}b") == "a\(r)]0;pwned\(r)b")
        #expect(TerminalText.safe("\u{1B}]52;c;cm0gLXJm\u{1B}\\") == "\(r)]52;c;cm0gLXJm\(r)\\")
        #expect(TerminalText.safe("x\u{1B}[2J\u{9B}31my") == "x\(r)[2J\(r)31my")
        #expect(TerminalText.safe("real\rfake\u{8}\u{7F}\u{85}") == "real\(r)fake\(r)\(r)\(r)")
        // A colour sequence gymlog never emits is broken too, even next to one it does.
        #expect(TerminalText.safe("\u{1B}[8mhidden\u{1B}[0m") == "\(r)[8mhidden\u{1B}[0m")
        #expect(TerminalText.safe("\u{1B}[1") == "\(r)[1")
    }
}

@Suite struct DisplayWidthTests {
    @Test func wideCharactersTakeTwoColumnsAndCombiningMarksNone() {
        #expect(TerminalText.width("bench") == 5)
        #expect(TerminalText.width("ベンチ") == 6)
        #expect(TerminalText.width("💪") == 2)
        #expect(TerminalText.width("e\u{301}") == 1)
        #expect(TerminalText.width("Développé") == 9)
        #expect(TerminalText.width("한국") == 4)
        #expect(TerminalText.width("❤️") == 2)
        #expect(TerminalText.width("深蹲") == 4)
        #expect(TerminalText.width("ＯＨＰ") == 6)
        #expect(TerminalText.width("De\u{0301}veloppe\u{0301}") == 9)
        #expect(TerminalText.width("💪 day") == 6)
    }

    @Test func padAndFitCountColumnsNotCharacters() {
        #expect(TerminalText.pad("ベンチ", to: 8) == "ベンチ  ")
        #expect(TerminalText.pad("toolong", to: 3) == "toolong")
        #expect(TerminalText.fit("ベンチプレス", to: 6) == "ベン… ")
        #expect(TerminalText.width(TerminalText.fit("ベンチプレス", to: 6)) == 6)
        #expect(TerminalText.fit("row", to: 5) == "row  ")
    }
}
