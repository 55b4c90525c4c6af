import Foundation

// What a reader hands the assembler for each row.

/// A set as a reader found it, before ids and times are settled.
struct PendingSet {
    var line: Int
    var id: UUID?
    var exercise: Int
    var values: SetValues
    var performedAt: Int64?
    var utcOffsetSeconds: Int?
    /// The time is to the millisecond (native files since they carry a fraction), so it is kept
    /// as written even when it equals another set's.
    var exactTime = false
    var supersetID: UUID?
    /// The row left its load column blank: no load written at all (a bodyweight set, as
    /// gymlog's and Hevy's exports write one), where Strong writes 0 for every load it lacks.
    var loadLeftBlank = false
}

/// One row's set as another app's reader found it: its values, and whether the load column
/// was left blank, which says more of its exercise's kind than a written 0 (`KindEvidence`).
struct RowSet {
    var values: SetValues
    var loadLeftBlank: Bool
}
