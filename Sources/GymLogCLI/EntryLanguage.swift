/// The set-entry language as users read it: the one table behind `gymlog log --help` (and so
/// the man page) and the README's table. Every example is a line the parser accepts; a test
/// holds them to it.
enum EntryLanguage {
    /// Example lines, and what they log.
    static let forms: [(examples: [String], meaning: String)] = [
        (["bench 100x5"], "one set of 5 reps at 100 in the configured unit (`unit` in the config)"),
        (["bench 100kg x 5", "bench 225lb x5", "bench 225 lbs 5"], "a unit of its own: kg or lb; spaces are optional"),
        (["bench 100x5x3"], "three sets of 5 at 100"),
        (["bench 100x5,5,4"], "three sets at 100 with 5, 5 and 4 reps"),
        (["bench 100x5 @8", "bench 100x5 @8.5"], "RPE, from 1 to 10"),
        (["bench w60x10"], "a warm-up set: never a record, not working volume"),
        (["bench 80x12 d"], "a drop set"),
        (["bench 100x3 f"], "a set taken to failure"),
        (["pullup bw x8"], "bodyweight"),
        (["pullup bw+10x5", "dip +20x6"], "bodyweight with added weight"),
        (["pullup bw-20x8"], "assisted: 20 taken off bodyweight"),
        (["plank 60s", "plank 2min", "plank 1m30s"], "a timed set (s, min, h)"),
        (["row 2000m 7:41", "run 5km 25:30"], "a distance and its time (m, km, mi, yd; time as m:ss)"),
        (["carry 40kg 50m"], "a weight carried over a distance"),
        (["bench 100x5 # felt fast"], "a note on the set: everything after #"),
        (["+", "+ 102.5", "+ x6", "+ @9"], "the last set again, with a new weight, reps or RPE"),
        (["undo"], "take back this device's last action (`redo` brings it back)"),
    ]

    /// The table as help text, one form per line.
    static var helpText: String {
        let left = forms.map { $0.examples.joined(separator: ", ") }
        let width = TerminalText.columns(left)
        return zip(left, forms).map { "  " + TerminalText.pad($0, to: width) + "  " + $1.meaning }.joined(separator: "\n")
    }
}
