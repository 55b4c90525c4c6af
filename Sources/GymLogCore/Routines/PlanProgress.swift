/// How far a workout started from a routine has come: which planned sets are done, and
/// which is next. Pure: the caller says which exercise each routine line and each done set is.
public struct PlanProgress: Equatable, Sendable {
    /// Per routine line: how many sets it plans today and how many are done (may exceed it).
    public var planned: [Int]
    public var done: [Int]
    /// Routine lines (0-based) dropped from today's plan with `skip`.
    public var skipped: Set<Int>
    /// Per line, the first line of its superset (`Routine.supersetStarts`); its own index
    /// when it is not in one.
    public var supersetStarts: [Int]

    /// The line (0-based) each done set went to, in the order of `doneSets`; nil for a set of
    /// an exercise the routine does not plan.
    public var lineOfDoneSet: [Int?]

    /// Counts `doneSets` (the exercise of each working set logged, in order) against `lines`
    /// (the exercise and planned set count of each routine line), each set going to the line
    /// `LineHistory.lines` says; a set of an exercise not in the routine counts for nothing.
    /// A line skipped after `doneWhenSkipped[line]` of its sets takes no more, so the sets
    /// after the skip go to the next line of the exercise.
    public init<Key: Hashable>(lines: [(exercise: Key, sets: Int)], doneSets: [Key], skipped: Set<Int>,
                               doneWhenSkipped: [Int: Int] = [:], supersetStarts: [Int]? = nil) {
        planned = lines.map(\.sets)
        done = Array(repeating: 0, count: lines.count)
        self.skipped = skipped
        self.supersetStarts = supersetStarts ?? Array(lines.indices)
        let takes = lines.enumerated().map { i, line in
            (exercise: line.exercise, sets: skipped.contains(i) ? min(line.sets, doneWhenSkipped[i] ?? line.sets) : line.sets)
        }
        lineOfDoneSet = LineHistory.lines(of: doneSets, in: takes)
        for case let line? in lineOfDoneSet { done[line] += 1 }
    }

    /// The next planned set: its routine line (0-based) and which of its sets (0-based).
    public var next: (line: Int, set: Int)? { nextRound.first }

    /// The next planned sets done together: the next set alone, or in a superset one set of
    /// each of its lines with sets still to do, in order (`bench` set 2, then `row` set 2).
    public var nextRound: [(line: Int, set: Int)] {
        guard let first = planned.indices.first(where: isOpen) else { return [] }
        let start = supersetStarts[first]
        return planned.indices.filter { supersetStarts[$0] == start && isOpen($0) }.map { ($0, done[$0]) }
    }

    /// Whether line `i` still has planned sets to do today.
    func isOpen(_ i: Int) -> Bool { !skipped.contains(i) && done[i] < planned[i] }

    /// Planned sets done and planned in all: the prompt's `7/15`. A skipped line plans only
    /// the sets done before it was skipped.
    public var counts: (done: Int, total: Int) {
        planned.indices.reduce(into: (0, 0)) { acc, i in
            let did = min(done[i], planned[i])
            acc.0 += did; acc.1 += skipped.contains(i) ? did : planned[i]
        }
    }

    /// Lines (0-based) with planned sets still to do and not skipped, with how many remain.
    public var undone: [(line: Int, remaining: Int)] {
        planned.indices.compactMap { i in
            skipped.contains(i) || done[i] >= planned[i] ? nil : (i, planned[i] - done[i])
        }
    }
}
