/// Which routine line each set of a routine workout was done for, and so which earlier
/// sessions a line's rule reads: a line's history is the sets done for that line in workouts
/// of its routine, never a workout of the exercise outside it, nor another line of the same
/// exercise (a Boring But Big `squat 5x10` never reads the 5/3/1 line's top set).
public enum LineHistory {
    /// For each done set (its exercise's key, in the order done), the line (0-based) it counts
    /// for: the first line of its exercise that still has sets to do, else the last line of its
    /// exercise, so an exercise planned twice (heavy, then light) fills in order; nil for a set
    /// of an exercise no line plans.
    public static func lines<Key: Hashable>(of doneSets: [Key], in lines: [(exercise: Key, sets: Int)]) -> [Int?] {
        var done = Array(repeating: 0, count: lines.count)
        return doneSets.map { key in
            let candidates = lines.indices.filter { lines[$0].exercise == key }
            guard let last = candidates.last else { return nil }
            let open = candidates.first { done[$0] < lines[$0].sets } ?? last
            done[open] += 1
            return open
        }
    }

    /// The sessions of line `index`, oldest first: from each earlier workout of the routine
    /// (`sessions`: the sets of the line's exercise in each, warm-ups included), the sets that
    /// went to this line, counted as `PlanProgress` counts them (warm-ups count for no line).
    /// A workout whose sets all went to other lines is no session of this line.
    public static func sessions<Key: Hashable>(ofLine index: Int, in lines: [(exercise: Key, sets: Int)],
                                               from sessions: [PastSession]) -> [PastSession] {
        sessions.sorted { $0.startedAt < $1.startedAt }.compactMap { session in
            let mine = Self.sets(session.sets, ofLine: index, in: lines, kind: \.kind)
            guard !mine.isEmpty else { return nil }
            var own = session
            own.sets = mine
            return own
        }
    }

    /// The sets of one workout of the routine (all of line `index`'s exercise, in the order
    /// done) that went to line `index`; warm-ups go to no line.
    public static func sets<Key: Hashable, Set>(_ sets: [Set], ofLine index: Int, in lines: [(exercise: Key, sets: Int)],
                                                kind: (Set) -> SetKind) -> [Set] {
        let counted = sets.filter { kind($0) != .warmup }
        let went = Self.lines(of: Array(repeating: lines[index].exercise, count: counted.count), in: lines)
        return zip(counted, went).filter { $0.1 == index }.map(\.0)
    }

    /// The history a line's rule reads, and what it is, for `routine show` to say.
    ///
    /// - Parameters:
    ///   - lineSessions: the line's own sessions (`sessions(ofLine:in:from:)`), oldest first.
    ///   - since: when the line's text was saved as it is now. A line that says where it starts
    ///     (a typed load, a training max) starts again when that changes: only its sessions
    ///     entered since count. A session counts by when it was done, whatever day it was
    ///     entered, so a back-dated session entered since counts at its own date.
    ///   - exerciseSessions: the exercise's sessions anywhere, read only by a line with no
    ///     start of its own and no session yet, as a first weight (nil when the routine plans
    ///     the exercise on another line too: that line's sets say nothing about this one).
    public static func basis(for planned: PlannedExercise, lineSessions: [PastSession], since: Int64?,
                             exerciseSessions: [PastSession]?) -> (sessions: [PastSession], basis: HistoryBasis) {
        let ownStart: Bool = if case .fiveThreeOne = planned.rule { true } else { planned.load != nil }
        let counted = ownStart ? lineSessions.filter { s in since.map { s.enteredAt >= $0 } ?? true } : lineSessions
        if let first = counted.first {
            return (counted, .line(sessions: counted.count, first: first.startedAt, since: ownStart ? since : nil))
        }
        if !ownStart, let seed = exerciseSessions?.max(by: { $0.startedAt < $1.startedAt }) {
            return ([seed], .exercise(last: seed.startedAt))
        }
        return ([], ownStart ? .typedStart(since: since) : .none)
    }
}

/// What a line's plan was computed from, as `routine show` says it.
public enum HistoryBasis: Equatable, Sendable {
    /// `sessions` of this line, the first done at `first`; counted from `since` when the line
    /// starts from a typed load or training max saved then.
    case line(sessions: Int, first: Int64, since: Int64?)
    /// No session of this line yet: the exercise's last session, done at `last`, outside it.
    case exercise(last: Int64)
    /// No session of this line since its typed start (load or training max) was saved.
    case typedStart(since: Int64?)
    /// Nothing: no session and no typed start.
    case none
}
