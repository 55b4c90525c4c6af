import Foundation
import GymLogCore
@testable import GymLogStore
import GymLogWire
import Testing

/// The `clocks` column's one codec: what the write pipeline patches in is what a pull and
/// undo read back, and a column that does not read is no clocks rather than an error.
@Suite struct FieldClocksTests {
    let early = HLC(millis: 1_795_849_771_766, counter: 0, node: "aaaa")
    let late = HLC(millis: 1_795_849_771_766, counter: 3, node: "bbbb")

    @Test func aPatchReadsBackAsTheClocksItWrote() {
        let patch = FieldClocks.patch([FieldChange("reps", .int(5), early), FieldChange("weight", .real(100), late)])
        let read = FieldClocks(column: patch)
        #expect(read["reps"] == early)
        #expect(read["weight"] == late)
        #expect(read["notes"] == nil)
        #expect(read.oldest == early)
    }

    @Test func theColumnIsWrittenInFieldOrderAndReadsBackWhole() {
        var clocks = FieldClocks()
        clocks["weight"] = late
        clocks["deleted_at"] = early
        #expect(clocks.column == "{\"deleted_at\":\"\(early)\",\"weight\":\"\(late)\"}")
        #expect(FieldClocks(column: clocks.column).byField == clocks.byField)
    }

    @Test(arguments: [nil, "", "{}", "not json", "[1,2]", "{\"reps\":\"yesterday\"}", "{\"reps\":5}"])
    func aMissingOrUnreadableColumnHoldsNoClocks(_ column: String?) {
        let clocks = FieldClocks(column: column)
        #expect(clocks.isEmpty)
        #expect(clocks.oldest == nil)
    }

    @Test func aClockThatIsNotAnHLCIsDroppedAndTheOthersKept() {
        let clocks = FieldClocks(column: "{\"reps\":\"\(early)\",\"weight\":\"soon\"}")
        #expect(clocks.byField == ["reps": early])
    }
}
