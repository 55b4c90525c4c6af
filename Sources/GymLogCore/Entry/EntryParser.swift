/// Parses one line of the set-entry language (`bench 100x5x3 @8 # felt fast`, `+ x6`, `undo`).
///
/// A hand-written tokenizer and recursive descent over the line's characters: pure, no
/// regular expressions, no Foundation. Error spans are 0-based Character offsets into the line.
public enum EntryParser {
    /// The most sets one line may log (`bench 100x5x50 100x5x50` is the most).
    public static let maxSetsPerLine = 100

    /// Parses `line`, or says what is wrong with it and where.
    public static func parse(_ line: String) -> Result<EntryLine, EntryError> {
        let chars = Array(line)
        do {
            return .success(try parseLine(chars))
        } catch {
            return .failure(error)
        }
    }

    private static func parseLine(_ chars: [Character]) throws(EntryError) -> EntryLine {
        try rejectControlCharacters(chars)
        // `#` anywhere starts the note.
        var hash = chars.count
        for (i, c) in chars.enumerated() where c == "#" { hash = i; break }
        var note: String? = nil
        if hash < chars.count {
            let (s, e) = trimmed(chars, hash + 1, chars.count)
            if s < e { note = String(chars[s..<e]) }
        }
        let (start, end) = trimmed(chars, 0, hash)
        if start == end {
            if hash < chars.count {
                throw EntryError("expected a set before the note, e.g. `bench 100x5 # felt fast`",
                                 at: Span(hash, hash + 1))
            }
            throw EntryError("empty line; type a set, e.g. `bench 100x5`", at: Span(0, chars.count))
        }

        // `bench 100x5 & row 70x8`: each part between `&`s is a set line of its own, parsed in
        // place (the rest blanked out) so errors point into the line as typed.
        let ampersands = (start..<end).filter { chars[$0] == "&" }
        if !ampersands.isEmpty {
            var parts: [EntryPart] = []
            var total = 0
            for (from, to) in zip([start] + ampersands.map { $0 + 1 }, ampersands + [end]) {
                let (s, e) = trimmed(chars, from, to)
                guard s < e else {
                    throw EntryError("expected an exercise and its sets on each side of '&', e.g. `bench 100x5 & row 70x8`",
                                     at: Span(min(from, chars.count - 1), min(max(to, from + 1), chars.count)))
                }
                var part = Array(repeating: Character(" "), count: chars.count)
                for k in s..<e { part[k] = chars[k] }
                switch try parseLine(part) {
                case .log(let mention, var sets):
                    if let note { for k in sets.indices { sets[k].note = note } }
                    total += sets.count
                    // The same bound as one exercise's line, over the whole round.
                    if total > maxSetsPerLine {
                        throw EntryError("'\(String(chars[s..<e]))' goes past \(maxSetsPerLine) sets, the most one line logs; "
                            + "log the rest on another line", at: Span(s, e))
                    }
                    parts.append(EntryPart(exercise: mention, sets: sets))
                default:
                    throw EntryError("each part of a superset names an exercise and its sets, e.g. `bench 100x5 & row 70x8`",
                                     at: Span(s, e))
                }
            }
            return .superset(parts)
        }

        if chars[start] == "+" {
            var parser = GroupParser(chars: chars, tokens: EntryLexer.tokens(chars, from: start + 1, to: end,
                                                                             spacedAtStart: false))
            var patch = try parser.parsePatch()
            patch.note = note
            return .repeatLast(patch)
        }

        let firstEnd = wordEnd(chars, start, end)
        if firstEnd - start == 4, String(chars[start..<firstEnd]).lowercased() == "undo" {
            let (restStart, restEnd) = trimmed(chars, firstEnd, chars.count)
            if restStart < restEnd {
                throw EntryError("undo takes no arguments; type `undo` alone", at: Span(restStart, restEnd))
            }
            return .undo
        }

        let (name, nameEnd, i) = leadingName(chars, from: start, to: end)
        if name.isEmpty {
            // Quote the line back in the suggestions only when it would then be valid.
            let typed = String(chars[start..<end])
            let tokens = EntryLexer.tokens(chars, from: start, to: end, spacedAtStart: true)
            var asSets = GroupParser(chars: chars, tokens: tokens)
            var asRepeat = GroupParser(chars: chars, tokens: tokens)
            let example = (try? asSets.parseSets()) != nil ? "bench \(typed)" : "bench 100x5"
            var message = "missing exercise name: start the line with one, e.g. `\(example)`"
            if (try? asRepeat.parsePatch()) != nil {
                message += ", or type `+ \(typed)` to repeat the last exercise"
            }
            throw EntryError(message, at: Span(start, wordEnd(chars, start, end)))
        }
        let mention = ExerciseMention(name: name, span: Span(start, nameEnd))
        if i >= end {
            throw EntryError("expected a set after '\(name)', e.g. `\(name) 100x5`", at: mention.span)
        }

        var parser = GroupParser(chars: chars, tokens: EntryLexer.tokens(chars, from: i, to: end,
                                                                         spacedAtStart: true))
        var sets = try parser.parseSets()
        if let note {
            for k in sets.indices { sets[k].note = note }
        }
        return .log(exercise: mention, sets: sets)
    }

    /// A control character (NUL, Escape from an arrow key, ...) is never meant, cannot all be
    /// stored (SQLite cuts text at a NUL) and would garble the terminal when echoed back.
    static func rejectControlCharacters(_ chars: [Character]) throws(EntryError) {
        guard let bad = chars.firstIndex(where: isControl) else { return }
        var code = String(chars[bad].unicodeScalars.first!.value, radix: 16, uppercase: true)
        while code.count < 4 { code = "0" + code }
        throw EntryError("unexpected control character U+\(code); remove it (type plain text)", at: Span(bad, bad + 1))
    }

    /// The exercise name at the start of `chars[start..<end]`: the leading words up to the first
    /// word that starts a set, joined by single spaces; where the name ends and where the rest starts.
    /// Routine lines (`RoutineParser`) name their exercise by the same rule.
    static func leadingName(_ chars: [Character], from start: Int, to end: Int)
        -> (name: String, nameEnd: Int, restStart: Int) {
        var name = ""
        var nameEnd = start
        var i = start
        while i < end {
            if isSpace(chars[i]) { i += 1; continue }
            let e = wordEnd(chars, i, end)
            if startsSet(chars, i, e) { break }
            if !name.isEmpty { name.append(" ") }
            name.append(contentsOf: chars[i..<e])
            nameEnd = e
            i = e
        }
        return (name, nameEnd, i)
    }

    /// `chars[from..<to]` without leading and trailing whitespace.
    static func trimmed(_ chars: [Character], _ from: Int, _ to: Int) -> (Int, Int) {
        var s = from, e = to
        while s < e && isSpace(chars[s]) { s += 1 }
        while e > s && isSpace(chars[e - 1]) { e -= 1 }
        return (s, e)
    }

    static func wordEnd(_ chars: [Character], _ from: Int, _ limit: Int) -> Int {
        var e = from
        while e < limit && !isSpace(chars[e]) { e += 1 }
        return e
    }

    /// Whether the word `chars[s..<e]` begins the sets of a line rather than continuing the name:
    /// `100x5`, `.5`, `w60x10`, `x8`, `bw`, `bwx8`, `bw+20`, `+20x6`, `+`, `-20x8`, `@8`.
    static func startsSet(_ chars: [Character], _ s: Int, _ e: Int) -> Bool {
        let c0 = chars[s]
        let c1: Character? = s + 1 < e ? chars[s + 1] : nil
        let digitNext = c1.map { asciiDigit($0) != nil } ?? false
        if asciiDigit(c0) != nil || c0 == "@" { return true }
        switch c0 {
        case ".", "w", "W", "x", "X", "×", "-": return digitNext
        case "+": return c1 == nil || digitNext
        case "b", "B":
            guard c1 == "w" || c1 == "W" else { return false }
            guard s + 2 < e else { return true }
            let c2 = chars[s + 2]
            return c2 == "+" || c2 == "-" || isTimes(c2) || asciiDigit(c2) != nil
        default: return false
        }
    }
}

/// What one group of a line (`100x5x3 @8 d`) or a `+` line says, before it is expanded into sets.
private struct Group {
    var kind: SetKind?
    var load: LoadSpec?
    var reps: [Int] = []
    var count = 1
    var rpe: Fixed?
    var rir: Fixed?
    var duration: Int?
    var distance: Distance?
    /// Where the reps list started, for the one-reps-value rule of `+` lines.
    var repsListSpan: Span?

    var hasMeasure: Bool { !reps.isEmpty || duration != nil || distance != nil }
}

private enum Mode { case log, patch }

/// Recursive descent over the tokens of the set part of a line.
private struct GroupParser: EntryMeasureRules {
    let chars: [Character]
    let tokens: [EntryToken]
    var i = 0

    init(chars: [Character], tokens: [EntryToken]) {
        self.chars = chars
        self.tokens = tokens
    }

    // MARK: Lines

    mutating func parseSets() throws(EntryError) -> [SetSpec] {
        var sets: [SetSpec] = []
        var first = true
        while i < tokens.count {
            let groupStart = tokens[i].start
            let g = try parseGroup(.log, first: first)
            first = false
            // Bounded so one pasted or garbled line cannot log (and take minutes over) thousands of sets.
            if sets.count + g.count * max(1, g.reps.count) > EntryParser.maxSetsPerLine {
                let span = Span(groupStart, tokens[i - 1].end)
                throw EntryError("'\(text(span))' goes past \(EntryParser.maxSetsPerLine) sets, the most one line logs; "
                    + "log the rest on another line", at: span)
            }
            let template = SetSpec(kind: g.kind ?? .working, load: g.load, rpe: g.rpe, rir: g.rir,
                                   durationSeconds: g.duration, distance: g.distance)
            if g.reps.isEmpty {
                for _ in 0..<g.count { sets.append(template) }
            } else {
                for _ in 0..<g.count {
                    for r in g.reps {
                        var s = template
                        s.reps = r
                        sets.append(s)
                    }
                }
            }
        }
        return sets
    }

    mutating func parsePatch() throws(EntryError) -> SetPatch {
        guard i < tokens.count else { return SetPatch() }
        let g = try parseGroup(.patch, first: true)
        if i < tokens.count {
            let t = tokens[i]
            if startsGroup(i) {
                throw EntryError("a `+` line repeats one set; unexpected '\(text(t))', "
                    + "log more sets on their own `+` lines or with a count, e.g. `+ x6x3`", at: t.span)
            }
            throw unexpected(at: i)
        }
        if g.reps.count > 1, let span = g.repsListSpan {
            throw EntryError("a `+` line takes one reps value; type e.g. `+ x5`, or `+ x5x3` for three sets",
                             at: span)
        }
        return SetPatch(kind: g.kind, load: g.load, reps: g.reps.first, rpe: g.rpe, rir: g.rir,
                        durationSeconds: g.duration, distance: g.distance, count: g.count)
    }

    // MARK: Groups

    /// Whether the token at `k` can begin a group of sets.
    func startsGroup(_ k: Int) -> Bool {
        guard k < tokens.count else { return false }
        switch tokens[k].kind {
        case .number, .clock, .plus, .minus, .times, .word(.bodyweight): return true
        case .word(.w): return isWarmupPrefix(k)
        default: return false
        }
    }

    /// `w` glued to the load that follows (`w60x10`) is a prefix of that group; otherwise it is a suffix.
    func isWarmupPrefix(_ k: Int) -> Bool {
        guard k + 1 < tokens.count, !tokens[k + 1].spaced else { return false }
        switch tokens[k + 1].kind {
        case .number, .clock, .plus, .word(.bodyweight): return true
        default: return false
        }
    }

    mutating func parseGroup(_ mode: Mode, first: Bool) throws(EntryError) -> Group {
        var g = Group()
        if i < tokens.count, tokens[i].kind == .word(.w), isWarmupPrefix(i) {
            g.kind = .warmup
            i += 1
        }
        let coreStart = i
        if i < tokens.count {
            let t = tokens[i]
            switch t.kind {
            case .number:
                try parseNumberCore(&g, mode, first: first)
            case .clock:
                try parseMeasures(&g)
            case .word(.bodyweight):
                try parseBodyweight(&g, mode)
            case .plus:
                try parseAddedWeight(&g, mode)
            case .minus:
                let end = i + 1 < tokens.count && !tokens[i + 1].spaced ? tokens[i + 1].end : t.end
                throw EntryError("write assisted bodyweight as `bw\(text(Span(t.start, end)))`, e.g. `bw-20x8`",
                                 at: Span(t.start, end))
            case .times:
                if mode == .log {
                    let span = i + 1 < tokens.count && tokens[i + 1].kind == .number
                        ? Span(t.start, tokens[i + 1].end) : t.span
                    let typed = text(span)
                    if first {
                        throw EntryError("'\(typed)' needs a load first; did you mean `bw \(typed)` or `100\(typed)`?",
                                         at: span)
                    }
                    throw EntryError("unexpected '\(typed)'; for more of the same set add a count "
                        + "(`100x5x3`), for another set give its load (`bw \(typed)`)", at: span)
                }
                try parseRepsTail(&g, mode, afterX: true)
            default:
                break
            }
        }
        if mode == .log && !g.hasMeasure {
            // Only reachable when the group did not start with a core token.
            throw misplaced(at: coreStart)
        }
        try parseModifiers(&g)
        return g
    }

    /// A group starting with a number: a weight (`100x5`, `100kg x5`, `225 lbs 5`), a time or a distance.
    mutating func parseNumberCore(_ g: inout Group, _ mode: Mode, first: Bool) throws(EntryError) {
        let n = tokens[i]
        try rejectDecimalComma(at: i)
        if startsMeasure(i) {
            try parseMeasures(&g)
            return
        }
        guard i + 1 < tokens.count else {
            if mode == .patch {
                g.load = .weight(try weight(n), nil)
                i += 1
                return
            }
            throw bareNumber(n, first: first)
        }
        let next = tokens[i + 1]
        switch next.kind {
        case .word(.weightUnit(let unit)):
            g.load = .weight(try weight(n), unit)
            i += 2
            try parseAfterLoad(&g, mode, loadSpan: Span(n.start, next.end), bodyweightLike: false)
        case .times:
            g.load = .weight(try weight(n), nil)
            i += 1
            try parseRepsTail(&g, mode, afterX: true)
        case .number, .clock:
            if startsMeasure(i + 1) {
                let measure = next.kind == .clock ? text(next) : text(Span(next.start, tokens[i + 2].end))
                throw EntryError("'\(text(n))' needs a unit before a time or distance, e.g. `\(text(n))kg \(measure)`",
                                 at: n.span)
            }
            throw EntryError("missing 'x' between '\(text(n))' and '\(text(next))'; type `\(text(n))x\(text(next))`",
                             at: Span(n.start, next.end))
        case .junk where !next.spaced:
            throw unexpected(at: i + 1)
        case .word(.other) where !next.spaced:
            throw EntryError("'\(text(Span(n.start, next.end)))': unknown unit '\(text(next))'; use kg or lb for weights "
                + "(e.g. `\(text(n))kg`), s or min for times, m, km, mi or yd for distances", at: Span(n.start, next.end))
        default:
            if mode == .patch {
                g.load = .weight(try weight(n), nil)
                i += 1
                return
            }
            throw bareNumber(n, first: first)
        }
    }

    /// `bw x8`, `bwx8`, `bw 8`, `bw+20kg x6`, `bw-20x8`, `bw 60s`.
    mutating func parseBodyweight(_ g: inout Group, _ mode: Mode) throws(EntryError) {
        let bw = tokens[i]
        i += 1
        g.load = .bodyweight
        var loadEnd = bw.end
        if i < tokens.count, tokens[i].kind == .plus || tokens[i].kind == .minus {
            let sign = tokens[i]
            let assisted = sign.kind == .minus
            guard i + 1 < tokens.count, tokens[i + 1].kind == .number else {
                throw EntryError(assisted
                    ? "expected a weight after '-', e.g. `bw-20x8` for 20 of assistance"
                    : "expected a weight after '+', e.g. `bw+20x6`", at: sign.span)
            }
            i += 1
            let added = try parseAddedLoad(assisted: assisted)
            loadEnd = added.end
            g.load = .bodyweightPlus(assisted ? -added.value : added.value, added.unit)
        }
        try parseAfterLoad(&g, mode, loadSpan: Span(bw.start, loadEnd), bodyweightLike: true)
    }

    /// `dip +20x6`, `dip +20kg x6`: weight added to bodyweight.
    mutating func parseAddedWeight(_ g: inout Group, _ mode: Mode) throws(EntryError) {
        let plus = tokens[i]
        guard i + 1 < tokens.count, tokens[i + 1].kind == .number else {
            throw EntryError("expected a weight after '+', e.g. `+20x6` for 20 added to bodyweight", at: plus.span)
        }
        i += 1
        let added = try parseAddedLoad(assisted: false)
        g.load = .bodyweightPlus(added.value, added.unit)
        try parseAfterLoad(&g, mode, loadSpan: Span(plus.start, added.end), bodyweightLike: true)
    }

    /// The number at `tokens[i]` after a `+` or `-` and its optional unit (`20`, `20kg`): the
    /// weight added to bodyweight or, `assisted`, taken off it (unsigned here), and where it ends.
    mutating func parseAddedLoad(assisted: Bool) throws(EntryError) -> (value: Fixed, unit: WeightUnit?, end: Int) {
        try rejectDecimalComma(at: i)
        let n = tokens[i]
        let value = try addedWeight(n, assisted: assisted)
        i += 1
        guard i < tokens.count, case .word(.weightUnit(let unit)) = tokens[i].kind else { return (value, nil, n.end) }
        i += 1
        return (value, unit, tokens[i - 1].end)
    }

    /// What may follow a load: `x5...`, bare reps after a unit or `bw` (`225 lbs 5`), or a time/distance.
    mutating func parseAfterLoad(_ g: inout Group, _ mode: Mode, loadSpan: Span,
                                 bodyweightLike: Bool) throws(EntryError) {
        if i < tokens.count {
            let t = tokens[i]
            switch t.kind {
            case .times:
                try parseRepsTail(&g, mode, afterX: true)
                return
            case .clock:
                try parseMeasures(&g)
                return
            case .number:
                if startsMeasure(i) {
                    try parseMeasures(&g)
                    return
                }
                let followedByLoad = i + 1 < tokens.count && {
                    if case .word(.weightUnit) = tokens[i + 1].kind { return true }
                    return false
                }()
                if t.isInteger && !followedByLoad {
                    try parseRepsTail(&g, mode, afterX: false)
                    return
                }
                if !t.isInteger && !followedByLoad {
                    throw EntryError("'\(text(t))': reps must be a whole number, e.g. `bench 100x5`", at: t.span)
                }
            default:
                break
            }
        }
        if mode == .patch { return }
        let load = text(loadSpan)
        let example = bodyweightLike ? "`\(load) x8`" : "`\(load) x5`"
        throw EntryError("expected reps after '\(load)', e.g. \(example)", at: loadSpan)
    }

    /// `x5`, `x5x3`, `x5,5,4` (or, after a unit, the same without the first `x`).
    mutating func parseRepsTail(_ g: inout Group, _ mode: Mode, afterX: Bool) throws(EntryError) {
        if afterX {
            let x = tokens[i]
            i += 1
            guard i < tokens.count, tokens[i].kind == .number else {
                throw EntryError("expected reps after '\(text(x))', e.g. `100x5`", at: x.span)
            }
        }
        let listStart = tokens[i].start
        g.reps.append(try performedReps(tokens[i]))
        i += 1
        while i < tokens.count, tokens[i].kind == .comma {
            let comma = tokens[i]
            i += 1
            guard i < tokens.count, tokens[i].kind == .number else {
                throw EntryError("expected reps after ',', e.g. `100x5,5,4`", at: comma.span)
            }
            g.reps.append(try performedReps(tokens[i]))
            i += 1
        }
        if g.reps.count > 1 { g.repsListSpan = Span(listStart, tokens[i - 1].end) }
        if i < tokens.count, tokens[i].kind == .times {
            let x = tokens[i]
            guard i + 1 < tokens.count, tokens[i + 1].kind == .number else {
                throw EntryError("expected a set count after '\(text(x))', e.g. `100x5x3`", at: x.span)
            }
            if g.reps.count > 1 {
                throw EntryError("ambiguous: a reps list can't take a set count '\(text(Span(x.start, tokens[i + 1].end)))'; "
                    + "write every set's reps, e.g. `100x5,5,4`, or use `100x5x3`",
                    at: Span(x.start, tokens[i + 1].end))
            }
            i += 1
            g.count = try count(tokens[i])
            i += 1
        }
    }

    /// A duration and/or a distance in either order (`2000m 7:41`), then an optional `x3` count.
    mutating func parseMeasures(_ g: inout Group) throws(EntryError) {
        // A second time or distance of a kind the group already has starts the next group
        // (`plank 60s 45s` is two sets).
        while startsMeasure(i), try parseMeasure(duration: &g.duration, distance: &g.distance) {}
        if i < tokens.count, tokens[i].kind == .times {
            let x = tokens[i]
            guard i + 1 < tokens.count, tokens[i + 1].kind == .number else {
                throw EntryError("expected a set count after '\(text(x))', e.g. `60s x3`", at: x.span)
            }
            i += 1
            g.count = try count(tokens[i])
            i += 1
        }
    }

    /// `@8`, `@ 8.5`, `rir2`, and kinds (`d`, `f`, `w`, `drop`, `failure`, `warmup`) after a group.
    mutating func parseModifiers(_ g: inout Group) throws(EntryError) {
        while i < tokens.count {
            let t = tokens[i]
            switch t.kind {
            case .at, .word(.rir):
                try parseEffort(&g)
            case .word(.kind(let kind)):
                try setKind(&g, kind, t)
                i += 1
            case .word(.w):
                if isWarmupPrefix(i) { return }
                try setKind(&g, .warmup, t)
                i += 1
            default:
                return
            }
        }
    }

    /// `@8` (RPE) or `rir2` (reps in reserve) at `tokens[i]`: a set says how hard it was one
    /// way, once.
    mutating func parseEffort(_ g: inout Group) throws(EntryError) {
        let t = tokens[i], isRPE = t.kind == .at
        guard i + 1 < tokens.count, tokens[i + 1].kind == .number else {
            throw EntryError("expected a number after '\(text(t))', e.g. \(isRPE ? "`@8` or `@8.5`" : "`rir2` or `rir1.5`")",
                             at: t.span)
        }
        let span = Span(t.start, tokens[i + 1].end)
        let value = isRPE ? try rpe(tokens[i + 1], quoting: span) : try rir(tokens[i + 1], quoting: span)
        if (isRPE ? g.rpe : g.rir) != nil {
            throw EntryError("\(isRPE ? "RPE" : "RIR") given twice; keep one, e.g. `\(isRPE ? "@8" : "rir2")`", at: span)
        }
        if (isRPE ? g.rir : g.rpe) != nil {
            throw EntryError("'\(text(span))': give RPE (@8) or RIR (rir2), not both", at: span)
        }
        if isRPE { g.rpe = value } else { g.rir = value }
        i += 2
    }

    func setKind(_ g: inout Group, _ kind: SetKind, _ t: EntryToken) throws(EntryError) {
        if let existing = g.kind, existing != kind {
            throw EntryError("'\(text(t))' conflicts with \(kindName(existing)); a set has one kind", at: t.span)
        }
        g.kind = kind
    }

    // MARK: Errors

    func bareNumber(_ n: EntryToken, first: Bool) -> EntryError {
        let typed = text(n)
        if n.isInteger && !first {
            return EntryError("'\(typed)' alone is ambiguous; for \(typed) sets add a count to the set before it "
                + "(`100x5x\(typed)`), for another set give a load (`bw x\(typed)` or `100x\(typed)`)", at: n.span)
        }
        if n.isInteger {
            return EntryError("'\(typed)' alone is ambiguous; did you mean `bw x\(typed)` or `100x\(typed)`? "
                + "(a time or distance needs a unit: `\(typed)s`, `\(typed)m`)", at: n.span)
        }
        return EntryError("'\(typed)' needs reps; did you mean `\(typed)x5`?", at: n.span)
    }

    /// A token where a group should start, or after a complete group.
    func misplaced(at k: Int) -> EntryError {
        let t = tokens[k]
        switch t.kind {
        case .at, .word(.rir):
            let end = k + 1 < tokens.count && tokens[k + 1].kind == .number ? tokens[k + 1].end : t.end
            let example = t.kind == .at ? "@8" : "rir2"
            return EntryError("'\(text(Span(t.start, end)))' must follow a set, e.g. `100x5 \(example)`", at: Span(t.start, end))
        case .word(.kind), .word(.w):
            return EntryError("'\(text(t))' must follow a set, e.g. `80x12 \(text(t))`", at: t.span)
        default:
            return unexpected(at: k)
        }
    }

    func unexpected(at k: Int) -> EntryError {
        let t = tokens[k]
        let typed = text(t)
        switch t.kind {
        case .word(.weightUnit):
            return EntryError("unexpected '\(typed)'; put the unit right after the weight, e.g. `100\(typed) x5`",
                              at: t.span)
        case .word(.distanceUnit), .word(.timeUnit):
            return EntryError("unexpected '\(typed)'; put a number before it, e.g. `60s` or `2000m`", at: t.span)
        case .word(.rpe):
            return EntryError("unexpected '\(typed)'; write RPE as `@8`", at: t.span)
        case .word(.kind), .word(.w), .word(.rir), .at:
            return misplaced(at: k)
        case .word:
            return EntryError("unexpected '\(typed)'; to add a note type `# \(typed)`", at: t.span)
        case .comma:
            return EntryError("unexpected ','; a reps list goes right after the reps, e.g. `100x5,5,4`", at: t.span)
        case .times:
            return EntryError("unexpected '\(typed)'; 'x' goes between weight and reps, e.g. `100x5`", at: t.span)
        case .plus, .minus:
            return EntryError("unexpected '\(typed)'; added weight goes before the reps, e.g. `bw+20x6`", at: t.span)
        case .number, .clock:
            return EntryError("unexpected '\(typed)'; sets look like `100x5`, `bw x8`, `60s` or `2000m`", at: t.span)
        case .junk:
            return EntryError("unexpected '\(typed)'; remove it, or put free text in a note: `# \(typed)`", at: t.span)
        }
    }

    func kindName(_ kind: SetKind) -> String {
        switch kind {
        case .working: "a working set"
        case .warmup: "warm-up"
        case .drop: "drop set"
        case .failure: "failure"
        }
    }

}

