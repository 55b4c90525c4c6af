@testable import GymLogCLI
import Testing

@Suite struct TerminalTextTests {
    @Test func plainTextAndTheColoursGymlogPrintsPassUnchanged() {
        let style = Style(enabled: true)
        for line in ["bench 100x5 · PR!", "two\nlines\twith a tab", "¡olé! «ça» 💪 é\u{301}"] {
            #expect(TerminalText.safe(line) == line)
        }
        // Style's own sequences pass, their marks dropped.
        let styled = style.record("PR") + " " + style.error("error:") + style.dim("dim") + style.bold("b") + style.plot("⣿")
        #expect(TerminalText.safe(styled)
                == "\u{1B}[1;32mPR\u{1B}[0m \u{1B}[1;31merror:\u{1B}[0m\u{1B}[2mdim\u{1B}[0m\u{1B}[1mb\u{1B}[0m\u{1B}[36m⣿\u{1B}[0m")
    }

    @Test func colourSequencesThatCameWithDataAreBrokenLikeAnyOther() {
        // Given text from elsewhere holding exactly the sequences Style emits, next to Style's own
        let r = "\u{FFFD}", style = Style(enabled: true)
        let data = "\u{1B}[1;31mred\u{1B}[0m \u{1B}[2m\u{1B}[36m"
        // When it is made safe, then only Style's own sequences stay
        #expect(TerminalText.safe(data) == "\(r)[1;31mred\(r)[0m \(r)[2m\(r)[36m")
        #expect(TerminalText.safe(style.bold(data)) == "\u{1B}[1m\(r)[1;31mred\(r)[0m \(r)[2m\(r)[36m\u{1B}[0m")
        // And a mark without a sequence after it is kept as text (it cannot be guessed anyway)
        #expect(TerminalText.safe(TerminalText.styleMark + "x") == TerminalText.styleMark + "x")
    }

    @Test func aLineEndingCRLFIsKeptOnlyWhenAsked() {
        let r = "\u{FFFD}"
        #expect(TerminalText.safe("a,b\r\nc\rd\r\n", keepingCRLF: true) == "a,b\r\nc\(r)d\r\n")
        #expect(TerminalText.safe("a\r\n") == "a\(r)\n")
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
        #expect(TerminalText.safe("\u{1B}[8mhidden\u{1B}[0m") == "\(r)[8mhidden\(r)[0m")
        #expect(TerminalText.safe("\u{1B}[1") == "\(r)[1")
    }
}

@Suite struct DisplayWidthTests {
    @Test func wideCharactersTakeTwoColumnsAndCombiningMarksNone() {
        #expect(TerminalText.width("bench") == 5)
        #expect(TerminalText.width("\u{1B}[2mbench\u{1B}[0m") == 5)
        #expect(TerminalText.width(Style(enabled: true).record("PR!") + " " + Style(enabled: true).dim("x")) == 5)
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
