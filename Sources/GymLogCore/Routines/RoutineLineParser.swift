import Foundation

/// The part of a routine line after the exercise name: sets x reps (or a time or distance),
/// load, RPE, rule, rest and warm-up in any order, each at most once.
struct RoutineLineParser: EntryMeasureRules {
    let chars: [Character]
    let tokens: [EntryToken]
    let name: String
    let nameSpan: Span
    var i = 0

    var plan: (sets: Int, reps: RepTarget, span: Span)?
    var load: (value: LoadSpec, span: Span)?
    var percent: (value: Int, span: Span)?
    /// `tm 100` after a share (`70% tm 100`): the line's own training max.
    var ownTrainingMax: (value: WeightSpec, span: Span)?
    /// `of deadlift` after a share (`30% of deadlift`): the lift whose 5/3/1 training max it is.
    var shareOf: (name: String, span: Span)?
    var rpe: (value: Fixed, span: Span)?
    /// The rule as typed; a double rule's range is nil when it comes from the reps.
    var rule: (value: TypedRule, span: Span)?
    var rest: Int?
    var warmup = false

    /// A rule before it is checked against the plan.
    enum TypedRule {
        case linear(WeightSpec)
        case double(range: (ClosedRange<Int>, Span)?, WeightSpec)
        case fiveThreeOne(WeightSpec)
    }

    init(chars: [Character], tokens: [EntryToken], name: String, nameSpan: Span) {
        self.chars = chars; self.tokens = tokens; self.name = name; self.nameSpan = nameSpan
    }

    mutating func parse() throws(EntryError) -> PlannedExercise {
        try rejectRuleInName()
        while i < tokens.count {
            let t = tokens[i]
            switch t.kind {
            case .number where startsWave(i):
                try parseWave()
            case .number where startsPercent(i):
                try parsePercent()
            case .number where startsMeasure(i):
                try parseMeasurePlan(sets: 1, from: t.start)
            case .number where i + 1 < tokens.count && tokens[i + 1].kind == .times:
                try parsePlan()
            case .number:
                try parseWeight()
            case .word(.bodyweight):
                try parseBodyweight()
            case .at:
                try parseRPE()
            case .word(.kind(.warmup)):
                if warmup { throw EntryError("'\(text(t))' given twice; keep one", at: t.span) }
                warmup = true
                i += 1
            case .word(.other):
                try parseKeyword(t)
            default:
                throw unexpected(t)
            }
        }
        return try planned()
    }

    // MARK: Parts

    /// `3x5`, `3x8-12`, `3x60s`, `3x40m`.
    mutating func parsePlan() throws(EntryError) {
        let countToken = tokens[i], x = tokens[i + 1]
        if i + 2 < tokens.count, tokens[i + 2].kind == .number, startsMeasure(i + 2) {
            let sets = try count(countToken)
            i += 2
            try parseMeasurePlan(sets: sets, from: countToken.start)
            return
        }
        guard i + 2 < tokens.count, tokens[i + 2].kind == .number else {
            throw EntryError("expected reps after '\(text(Span(countToken.start, x.end)))', e.g. `3x5` or `3x8-12`",
                             at: Span(countToken.start, x.end))
        }
        let lowToken = tokens[i + 2]
        var highToken: EntryToken?
        i += 3
        if i + 1 < tokens.count, tokens[i].kind == .minus, !tokens[i].spaced, tokens[i + 1].kind == .number {
            highToken = tokens[i + 1]
            i += 2
        }
        let span = Span(countToken.start, tokens[i - 1].end)
        // `100x5x3` first: it is a logged set, and its "100 sets" would be a puzzling complaint.
        if i < tokens.count, tokens[i].kind == .times {
            let end = i + 1 < tokens.count && tokens[i + 1].kind == .number ? tokens[i + 1].end : tokens[i].end
            throw EntryError("'\(text(Span(countToken.start, end)))' is how a set is logged; a routine line plans "
                + "sets x reps, then the weight, e.g. `\(name) 3x5 100`", at: Span(countToken.start, end))
        }
        let sets = try count(countToken)
        let low = try reps(lowToken)
        var target = RepTarget.exact(low)
        if let highToken {
            target = .range(try repRange(low, try reps(highToken), span: Span(lowToken.start, highToken.end)))
        }
        if let earlier = plan {
            throw twice("sets x reps", earlier.span, span)
        }
        plan = (sets, target, span)
    }

    /// `60s`, `2000m` (one set), or the time or distance of each set after `3x`, read as a set
    /// line reads it.
    mutating func parseMeasurePlan(sets: Int, from start: Int) throws(EntryError) {
        var duration: Int?, distance: Distance?
        _ = try parseMeasure(duration: &duration, distance: &distance)
        let span = Span(start, tokens[i - 1].end)
        if i < tokens.count, tokens[i].kind == .number, startsMeasure(i) {
            let second = Span(tokens[i].start, tokens[i + 1].end)
            throw EntryError("'\(text(second))': a routine line plans a time or a distance for each set, not both; "
                + "keep '\(text(span))'", at: second)
        }
        if let earlier = plan { throw twice("sets x reps", earlier.span, span) }
        plan = (sets, distance.map(RepTarget.distance) ?? .time(duration ?? 0), span)
    }

    /// `8-12`: low below high.
    func repRange(_ low: Int, _ high: Int, span: Span) throws(EntryError) -> ClosedRange<Int> {
        if low == high {
            throw EntryError("'\(text(span))' is a single rep count; write `\(low)`", at: span)
        }
        if low > high {
            throw EntryError("'\(text(span))': write a rep range low to high, e.g. `\(high)-\(low)`", at: span)
        }
        return low...high
    }

    /// `100`, `100kg`, `225 lb`: the weight to start from.
    mutating func parseWeight() throws(EntryError) {
        try rejectDecimalComma(at: i)
        let n = tokens[i]
        let value = try weight(n)
        var unit: WeightUnit?
        var end = n.end
        i += 1
        if i < tokens.count, case .word(.weightUnit(let u)) = tokens[i].kind {
            unit = u
            end = tokens[i].end
            i += 1
        } else if i < tokens.count, tokens[i].kind == .word(.other), !tokens[i].spaced {
            throw EntryError("unknown unit '\(text(tokens[i]))'; weights are in kg or lb, e.g. `100kg`", at: tokens[i].span)
        }
        try setLoad(.weight(value, unit), Span(n.start, end))
    }

    /// `50%` glued: a number, then `%` (the lexer reads it as junk).
    func startsPercent(_ k: Int) -> Bool {
        k + 1 < tokens.count && tokens[k + 1].kind == .junk && !tokens[k + 1].spaced && text(tokens[k + 1]) == "%"
    }

    /// `50%`: a share of the training max of this exercise's 5/3/1 line, 1 to 100.
    mutating func parsePercent() throws(EntryError) {
        let n = tokens[i], span = Span(n.start, tokens[i + 1].end)
        guard n.isInteger, (1...100).contains(n.integer) else {
            throw EntryError("'\(text(span))': a share of the training max is a whole percentage from 1 to 100, e.g. `50%`", at: span)
        }
        if let earlier = percent { throw twice("a percentage", earlier.span, span) }
        percent = (n.integer, span)
        i += 2
    }

    /// `bw`, `bw+10`, `bw+10kg`, `bw-20` (assisted).
    mutating func parseBodyweight() throws(EntryError) {
        let bw = tokens[i]
        i += 1
        guard i < tokens.count, tokens[i].kind == .plus || tokens[i].kind == .minus else {
            try setLoad(.bodyweight, bw.span)
            return
        }
        let sign = tokens[i]
        let assisted = sign.kind == .minus
        guard i + 1 < tokens.count, tokens[i + 1].kind == .number else {
            throw EntryError(assisted ? "expected a weight after '-', e.g. `bw-20` for 20 of assistance"
                                      : "expected a weight after '+', e.g. `bw+10`", at: sign.span)
        }
        i += 1
        try rejectDecimalComma(at: i)
        let value = try addedWeight(tokens[i], assisted: assisted)
        var end = tokens[i].end
        var unit: WeightUnit?
        i += 1
        if i < tokens.count, case .word(.weightUnit(let u)) = tokens[i].kind {
            unit = u
            end = tokens[i].end
            i += 1
        }
        try setLoad(.bodyweightPlus(assisted ? -value : value, unit), Span(bw.start, end))
    }

    mutating func setLoad(_ value: LoadSpec, _ span: Span) throws(EntryError) {
        if let earlier = load { throw twice("a load", earlier.span, span) }
        load = (value, span)
    }

    /// `@8`, `@8.5`: the planned effort.
    mutating func parseRPE() throws(EntryError) {
        let at = tokens[i]
        guard i + 1 < tokens.count, tokens[i + 1].kind == .number else {
            throw EntryError("expected a number after '@', e.g. `@8` or `@8.5`", at: at.span)
        }
        let span = Span(at.start, tokens[i + 1].end)
        let value = try self.rpe(tokens[i + 1], quoting: span)
        if let earlier = rpe { throw twice("RPE", earlier.span, span) }
        rpe = (value, span)
        i += 2
    }

    /// `linear +2.5`, `double +2`, `double 8-12 +2`, `rest 3:00`; `tm` out of place.
    mutating func parseKeyword(_ t: EntryToken) throws(EntryError) {
        switch text(t).lowercased() {
        case "linear":
            i += 1
            let increment = try parseIncrement(after: t, rule: "linear")
            try setRule(.linear(increment), Span(t.start, tokens[i - 1].end))
        case "double":
            i += 1
            var range: (ClosedRange<Int>, Span)?
            if i + 2 < tokens.count, tokens[i].kind == .number, tokens[i + 1].kind == .minus,
               tokens[i + 2].kind == .number {
                let span = Span(tokens[i].start, tokens[i + 2].end)
                range = (try repRange(try reps(tokens[i]), try reps(tokens[i + 2]), span: span), span)
                i += 3
            }
            let increment = try parseIncrement(after: t, rule: "double")
            try setRule(.double(range: range, increment), Span(t.start, tokens[i - 1].end))
        case "rest":
            i += 1
            rest = try parseRest(after: t)
        case "of":
            try parseShareOf(t)
        case "tm":
            // The training max of a share (`70% tm 100`); a 5/3/1 line reads its own in parseWave.
            if let shareOf {
                throw EntryError("'\(text(shareOf.span))' and '\(text(t))' both say whose training max \(text(percent!.span)) is of; keep one",
                                 at: t.span)
            }
            guard percent != nil, ownTrainingMax == nil else {
                throw EntryError("'\(text(t))' is the training max of a 5/3/1 line (`\(name) 5/3/1 tm 60`) or of a share "
                    + "of it (`\(name) 5x5 70% tm 100`)", at: t.span)
            }
            i += 1
            guard i < tokens.count, tokens[i].kind == .number else {
                throw EntryError("expected the training max after '\(text(t))', e.g. `70% tm 100`", at: t.span)
            }
            let trainingMax = try parseWeightSpec(named: "training max", ifZero: "give the weight the share is of")
            ownTrainingMax = (trainingMax, Span(t.start, tokens[i - 1].end))
        default:
            throw EntryError("unknown word '\(text(t))'; after the sets come a weight (`100`), `@8`, a rule "
                + "(`linear +2.5`, `double +2`, `5/3/1 tm 60`), `rest 3:00` or `warmup`", at: t.span)
        }
    }

    /// `+2.5`, `+5lb` after a rule word; the error says what to type.
    mutating func parseIncrement(after word: EntryToken, rule: String) throws(EntryError) -> WeightSpec {
        let example = "`\(rule) +2.5`"
        guard i < tokens.count else {
            throw EntryError("\(rule) needs an increment, e.g. \(example)", at: word.span)
        }
        let plus = tokens[i]
        if plus.kind == .number {
            throw EntryError("write the increment with a plus, e.g. `\(rule) +\(text(plus))`", at: plus.span)
        }
        guard plus.kind == .plus else {
            throw EntryError("\(rule) needs an increment, e.g. \(example)", at: word.span)
        }
        guard i + 1 < tokens.count, tokens[i + 1].kind == .number else {
            throw EntryError("expected a weight after '+', e.g. \(example)", at: plus.span)
        }
        i += 1
        return try parseWeightSpec(named: "increment", ifZero: "leave the rule out to keep the weight")
    }

    /// `60`, `60kg` at `i`: an increment or a training max.
    mutating func parseWeightSpec(named what: String, ifZero hint: String) throws(EntryError) -> WeightSpec {
        try rejectDecimalComma(at: i)
        let value = try load(tokens[i], named: what, ifZero: hint)
        i += 1
        var unit: WeightUnit?
        if i < tokens.count, case .word(.weightUnit(let u)) = tokens[i].kind {
            unit = u
            i += 1
        }
        return WeightSpec(value, unit)
    }

    /// `5/3/1` glued: a number 5, `/`, 3, `/`, 1 (the lexer reads `/` as junk).
    func startsWave(_ k: Int) -> Bool {
        guard k + 1 < tokens.count, tokens[k + 1].kind == .junk, !tokens[k + 1].spaced,
              text(tokens[k + 1]) == "/" else { return false }
        return true
    }

    /// `5/3/1 tm 60`, `5/3/1 tm 135lb`.
    mutating func parseWave() throws(EntryError) {
        let first = tokens[i]
        let parts = ["5", "/", "3", "/", "1"]
        var k = 0
        while k < parts.count, i + k < tokens.count, k == 0 || !tokens[i + k].spaced, text(tokens[i + k]) == parts[k] {
            k += 1
        }
        var waveEnd = i
        while waveEnd < tokens.count, waveEnd == i || !tokens[waveEnd].spaced { waveEnd += 1 }
        let waveSpan = Span(first.start, tokens[waveEnd - 1].end)
        guard k == parts.count, waveEnd == i + parts.count else {
            throw EntryError("'\(text(waveSpan))': the wave rule is written `5/3/1`, e.g. `\(name) 5/3/1 tm 60`", at: waveSpan)
        }
        i = waveEnd
        guard i < tokens.count, tokens[i].kind == .word(.other), text(tokens[i]).lowercased() == "tm" else {
            throw EntryError("5/3/1 needs a training max, e.g. `\(name) 5/3/1 tm 60`", at: waveSpan)
        }
        let tm = tokens[i]
        i += 1
        guard i < tokens.count, tokens[i].kind == .number else {
            throw EntryError("expected the training max after '\(text(tm))', e.g. `5/3/1 tm 60`", at: tm.span)
        }
        let trainingMax = try parseWeightSpec(named: "training max", ifZero: "give the weight 5/3/1 computes from")
        try setRule(.fiveThreeOne(trainingMax), Span(first.start, tokens[i - 1].end))
    }

    mutating func setRule(_ value: TypedRule, _ span: Span) throws(EntryError) {
        if let earlier = rule {
            throw EntryError("a line has one progression rule; keep '\(text(earlier.span))' or '\(text(span))'", at: span)
        }
        rule = (value, span)
    }

    /// `rest 3:00`, `rest 90s`, `rest 2min`: the target rest in seconds.
    mutating func parseRest(after word: EntryToken) throws(EntryError) -> Int {
        if rest != nil { throw EntryError("'\(text(word))' given twice; keep one", at: word.span) }
        guard i < tokens.count else {
            throw EntryError("rest needs a time, e.g. `rest 3:00`", at: word.span)
        }
        let t = tokens[i]
        let seconds: Int
        let span: Span
        if t.kind == .clock {
            seconds = try clock(t)
            span = t.span
            i += 1
        } else if t.kind == .number, t.isInteger, i + 1 < tokens.count, case .word(.timeUnit(let unit)) = tokens[i + 1].kind {
            seconds = min(t.integer, PlannedExercise.maxRestSeconds + 1) * unit
            span = Span(t.start, tokens[i + 1].end)
            i += 2
        } else {
            throw EntryError("rest needs a time, e.g. `rest 3:00` or `rest 90s`", at: t.span)
        }
        guard seconds > 0, seconds <= PlannedExercise.maxRestSeconds else {
            throw EntryError("'\(text(span))': rest must be more than 0 and at most \(RestTimer.clock(PlannedExercise.maxRestSeconds))",
                             at: span)
        }
        return seconds
    }

    // MARK: The line as a whole

    /// `bench linear +2.5`: the rule word came before any sets, so it was read as part of the name.
    func rejectRuleInName() throws(EntryError) {
        let words = name.split(separator: " ")
        guard words.count > 1, let last = words.last, ["linear", "double"].contains(last.lowercased()) else { return }
        let lastStart = nameSpan.end - last.count
        let exercise = words.dropLast().joined(separator: " ")
        throw EntryError("the sets x reps go before '\(last)', e.g. `\(exercise) 3x5 \(last.lowercased()) +2.5`",
                         at: Span(lastStart, nameSpan.end))
    }

    /// The planned exercise, once the parts agree with each other and the rule.
    func planned() throws(EntryError) -> PlannedExercise {
        if case .fiveThreeOne(let trainingMax)? = rule?.value {
            if let plan { throw EntryError("5/3/1 sets its own sets and reps; remove '\(text(plan.span))'", at: plan.span) }
            if let load {
                throw EntryError("5/3/1 takes its weights from the training max; remove '\(text(load.span))'", at: load.span)
            }
            if let rpe { throw EntryError("5/3/1 sets the effort by percentages; remove '\(text(rpe.span))'", at: rpe.span) }
            if let percent { throw EntryError("5/3/1 sets its own percentages; remove '\(text(percent.span))'", at: percent.span) }
            return .fiveThreeOne(name, trainingMax: trainingMax, restSeconds: rest, warmup: warmup)
        }
        guard let plan else {
            let example = load.map { isBodyweight($0.value) ? "\(name) \($0.value.canonical) 3x8" : "\(name) 3x5 \($0.value.canonical)" }
                ?? "\(name) 3x5"
            throw EntryError("expected sets x reps for '\(name)', e.g. `\(example)`", at: nameSpan)
        }
        if let percent {
            if let load { throw EntryError("give a weight or a share of the training max, not both; keep '\(text(load.span))' or '\(text(percent.span))'", at: percent.span) }
            if let rule {
                throw EntryError("'\(text(rule.span))': a line at \(text(percent.span)) of the training max moves with it; leave the rule out", at: rule.span)
            }
        }
        if plan.reps.isMeasure, let rule {
            let what = if case .time = plan.reps { "a time" } else { "a distance" }
            throw EntryError("'\(text(rule.span))': a rule moves weight and reps, and '\(text(plan.span))' plans \(what); "
                + "leave the rule out", at: rule.span)
        }
        return PlannedExercise(exerciseName: name, sets: plan.sets, reps: plan.reps, load: load?.value,
                               percentOfTrainingMax: percent?.value, ownTrainingMax: ownTrainingMax?.value,
                               shareOf: shareOf?.name, rpe: rpe?.value,
                               rule: try progressionRule(plan), restSeconds: rest, warmup: warmup)
    }

    /// `of deadlift`, `of Squat (Barbell)` after a share: the name runs to the next part of the
    /// line (a number, `@`, or a word that starts one).
    mutating func parseShareOf(_ of: EntryToken) throws(EntryError) {
        guard let percent else {
            throw EntryError("'\(text(of))' follows a share of a training max, e.g. `\(name) 5x10 50% of squat`", at: of.span)
        }
        if let ownTrainingMax {
            throw EntryError("'\(text(ownTrainingMax.span))' and '\(text(of))' both say whose training max \(text(percent.span)) is of; keep one",
                             at: of.span)
        }
        if let earlier = shareOf { throw twice("the lift of a share", earlier.span, of.span) }
        i += 1
        let first = i
        while i < tokens.count, !startsPart(tokens[i]) { i += 1 }
        guard i > first else {
            throw EntryError("expected the lift after '\(text(of))', e.g. `\(text(percent.span)) of squat`: its 5/3/1 line's training max",
                             at: of.span)
        }
        let span = Span(tokens[first].start, tokens[i - 1].end)
        let lift = text(span).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        shareOf = (lift, Span(of.start, span.end))
    }

    /// Whether `t` starts a part of a routine line after the name (so a lift's name stops there).
    func startsPart(_ t: EntryToken) -> Bool {
        switch t.kind {
        case .number, .at, .clock: return true
        case .word(.kind(.warmup)): return true
        case .word(.other): return ["linear", "double", "rest", "tm", "of"].contains(text(t).lowercased())
        default: return false
        }
    }

    /// The rule with a double rule's range settled: typed, or the reps' own.
    func progressionRule(_ plan: (sets: Int, reps: RepTarget, span: Span)) throws(EntryError) -> ProgressionRule {
        guard let rule else { return .none }
        let span = rule.span
        switch rule.value {
        case .linear(let increment):
            return .linear(increment: increment)
        case .fiveThreeOne(let trainingMax):
            return .fiveThreeOne(trainingMax: trainingMax)
        case .double(let typedRange, let increment):
            switch (typedRange, plan.reps.range) {
            case (nil, nil):
                throw EntryError("double needs a rep range: plan one (`\(plan.sets)x8-12 double +\(increment)`) "
                    + "or give it (`double 8-12 +\(increment)`)", at: span)
            case (nil, let fromReps?):
                return .double(reps: fromReps, increment: increment)
            case ((let range, let rangeSpan)?, let fromReps):
                if let fromReps, fromReps != range {
                    throw EntryError("the reps say \(plan.reps) but double says '\(text(rangeSpan))'; "
                        + "give the range once, e.g. `\(plan.sets)x\(plan.reps) double +\(increment)`", at: rangeSpan)
                }
                return .double(reps: range, increment: increment)
            }
        }
    }

    // MARK: Errors

    func twice(_ what: String, _ first: Span, _ second: Span) -> EntryError {
        EntryError("\(what) given twice ('\(text(first))' and '\(text(second))'); keep one", at: second)
    }

    func unexpected(_ t: EntryToken) -> EntryError {
        let typed = text(t)
        switch t.kind {
        case .word(.weightUnit):
            return EntryError("unexpected '\(typed)'; put the unit right after the weight, e.g. `100\(typed)`", at: t.span)
        case .word(.rpe):
            return EntryError("unexpected '\(typed)'; write RPE as `@8`", at: t.span)
        case .clock:
            return EntryError("unexpected '\(typed)'; a target rest is `rest \(typed)`", at: t.span)
        case .times:
            return EntryError("unexpected '\(typed)'; a routine line plans sets x reps, e.g. `3x5`, then the weight", at: t.span)
        case .plus:
            return EntryError("unexpected '\(typed)'; an increment follows its rule (`linear +2.5`, `double +2`), "
                + "added weight is `bw+10`", at: t.span)
        case .minus:
            return EntryError("unexpected '\(typed)'; a rep range is glued to the reps (`3x8-12`), assistance is `bw-20`",
                              at: t.span)
        case .comma:
            return EntryError("unexpected ','; plan one rep count or range per line, e.g. `3x5` or `3x8-12`", at: t.span)
        case .junk:
            return EntryError("unexpected '\(typed)'; remove it, or put a comment after `#`", at: t.span)
        default:
            return EntryError("unknown word '\(typed)'; after the sets come a weight (`100`), `@8`, a rule "
                + "(`linear +2.5`, `double +2`, `5/3/1 tm 60`), `rest 3:00` or `warmup`", at: t.span)
        }
    }
}
