import Foundation
import Testing
import GymLogCore

@Suite("displayWidth: terminal columns, so tables of names line up")
struct DisplayWidthTests {
    @Test("wide characters take two columns, accented letters one, however they are encoded", arguments: [
        ("Bench", 5), ("深蹲", 4), ("스쿼트", 6), ("Développé", 9), ("De\u{0301}veloppe\u{0301}", 9), ("💪 day", 6), ("ＯＨＰ", 6),
    ])
    func widths(text: String, columns: Int) {
        #expect(displayWidth(text) == columns)
    }

    @Test("padding fills to the column, never cuts")
    func padding() {
        #expect(padded("深蹲", toColumns: 6) == "深蹲  ")
        #expect(padded("Bench Press", toColumns: 4) == "Bench Press")
    }
}
