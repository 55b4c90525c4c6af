// The canonical text of a routine: what `routine export` prints and `RoutineParser` reads back
// to the same value (parse(text(r)) == r). One order for every line, the issue's own:
//
//   NAME [bw load] SETSxREPS [weight | PERCENT% [tm TM]] [@RPE] [rule] [rest M:SS] [warmup]
//   NAME [bw load] [SETSx]TIME-OR-DISTANCE [weight] [@RPE] [rest M:SS] [warmup]
//   NAME 5/3/1 tm TM [rest M:SS] [warmup]
//
// and the lines of a superset on one line, joined by ` & `.
//
// A bodyweight load leads (`dip bw 3x8-12`, read "dips at bodyweight"), a weight follows the
// sets (`squat 3x5 100`, read "3x5 at 100").

extension Routine {
    /// `# Name`, then one line per planned exercise (a superset's joined by ` & `), each ending in a line feed.
    public var text: String {
        var out = "# \(name)\n"
        for (i, line) in lines.enumerated() {
            out += (line.joinsPrevious && i > 0 ? " & " : (i > 0 ? "\n" : "")) + line.text
        }
        return out + "\n"
    }
}

extension PlannedExercise {
    /// This line in canonical form: `bench 3x5 @8 linear +2.5 rest 3:00 warmup`.
    public var text: String {
        var parts = [exerciseName]
        if case .fiveThreeOne(let trainingMax) = rule {
            parts.append("\(FiveThreeOne.keyword) tm \(trainingMax)")
        } else {
            let leads = load.map(isBodyweight) ?? false
            if leads, let load { parts.append(load.canonical) }
            // A single timed or distance set is written as a set line would log it: `row 2000m`.
            parts.append(sets == 1 && reps.isMeasure ? "\(reps)" : "\(sets)x\(reps)")
            if !leads, let load { parts.append(load.canonical) }
            if let percentOfTrainingMax { parts.append("\(percentOfTrainingMax)%") }
            if let ownTrainingMax { parts.append("tm \(ownTrainingMax)") }
            if let shareOf { parts.append("of \(shareOf)") }
            if let rpe { parts.append("@\(rpe)") }
            if let ruleText = ruleText { parts.append(ruleText) }
        }
        if let restSeconds { parts.append("rest " + RestTimer.clock(restSeconds)) }
        if warmup { parts.append("warmup") }
        return parts.joined(separator: " ")
    }

    /// `linear +2.5`, `double +2` (the range is the reps'), `double 8-12 +2`; nil with no rule.
    private var ruleText: String? {
        switch rule {
        case .none, .fiveThreeOne: return nil
        case .linear(let increment): return "linear +\(increment)"
        case .double(let range, let increment):
            let rangeText = reps.range == range ? "" : "\(range.lowerBound)-\(range.upperBound) "
            return "double \(rangeText)+\(increment)"
        }
    }
}


/// Whether a load is bodyweight (`bw`, `bw+10`) rather than an external weight.
func isBodyweight(_ load: LoadSpec) -> Bool {
    if case .weight = load { return false }
    return true
}
