/// The set-entry language as users read it: the one table behind `gymlog log --help` (and so
/// the man page) and the README's table. Every example is a line the parser accepts; a test
/// holds them to it.
enum EntryLanguage {
    /// Example lines, and what they log.
    static let forms: [(examples: [String], meaning: String)] = [
        (["bench 100x5"], "one set of 5 reps at 100 (the configured unit)"),
        (["bench 100kg x 5", "bench 225lb x5", "bench 225 lbs 5"], "a unit of its own: kg or lb; spaces optional"),
        (["bench 100x5x3"], "three sets of 5 at 100"),
        (["bench 100x5,5,4"], "three sets at 100: 5, 5 and 4 reps"),
        (["bench 100x5 @8", "bench 100x5 @8.5"], "RPE, from 1 to 10"),
        (["squat 140x3 rir2", "squat 140x3 rir1.5"], "RIR (reps in reserve), from 0 to 10, instead of RPE"),
        (["bench w60x10"], "a warm-up set: no records, no working volume"),
        (["bench 80x12 d"], "a drop set"),
        (["bench 100x3 f"], "a set taken to failure"),
        (["pullup bw x8"], "bodyweight"),
        (["pullup bw+10x5", "dip +20x6"], "bodyweight with added weight"),
        (["pullup bw-20x8"], "assisted: 20 taken off bodyweight"),
        (["plank 60s", "plank 2min", "plank 1m30s"], "a timed set (s, min, h)"),
        (["row 2000m 7:41", "run 5km 25:30"], "distance and time (m, km, mi, yd; m:ss)"),
        (["carry 40kg 50m"], "a weight carried over a distance"),
        (["bench 100x5 # felt fast"], "a note on the set: everything after #"),
        (["bench 100x5 & row 70x8"], "a superset round: exercises back to back (A1, A2)"),
        (["+", "+ 102.5", "+ x6", "+ @9"], "the last set (or superset round) again, changed"),
        (["undo"], "take back the last action; `redo` brings it back"),
    ]

    /// The table as help text: each example on a line of its own, the meaning beside the
    /// first, narrow enough for ArgumentParser's 80 columns.
    static var helpText: String {
        let width = TerminalText.columns(forms.flatMap(\.examples))
        return forms.flatMap { form in
            form.examples.enumerated().map { i, example in
                "  " + (i == 0 ? TerminalText.pad(example, to: width) + "  " + form.meaning : example)
            }
        }.joined(separator: "\n")
    }
}
