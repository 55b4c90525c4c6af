/// How far a workout started from a routine has come: which planned sets are done, and
/// which is next. Pure: the caller says which exercise each routine line and each done set is.
public struct PlanProgress: Equatable, Sendable {
    /// Per routine line: how many sets it plans today and how many are done (may exceed it).
    public var planned: [Int]
    public var done: [Int]
    /// Routine lines (0-based) dropped from today's plan with `skip`.
    public var skipped: Set<Int>

    /// Counts `doneSets` (the exercise of each working set logged, in order) against `lines`
    /// (the exercise and planned set count of each routine line). A set goes to the first line
    /// of its exercise that still has sets to do, else to the last line of its exercise, so an
    /// exercise planned twice (heavy, then light) fills in order; a set of an exercise not in
    /// the routine counts for nothing.
    public init<Key: Hashable>(lines: [(exercise: Key, sets: Int)], doneSets: [Key], skipped: Set<Int>) {
        planned = lines.map(\.sets)
        done = Array(repeating: 0, count: lines.count)
        self.skipped = skipped
        for key in doneSets {
            let candidates = lines.indices.filter { lines[$0].exercise == key }
            guard let last = candidates.last else { continue }
            let open = candidates.first { done[$0] < planned[$0] } ?? last
            done[open] += 1
        }
    }

    /// The next planned set: its routine line (0-based) and which of its sets (0-based).
    public var next: (line: Int, set: Int)? {
        for i in planned.indices where !skipped.contains(i) && done[i] < planned[i] { return (i, done[i]) }
        return nil
    }

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
