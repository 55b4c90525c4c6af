// The checks a number token must pass to be a weight, reps, a set count, an RPE..., with
// errors that quote it. One home for them: the entry parser and the routine parser
// (`RoutineParser`) refuse the same values in the same words, within `SetLimits`.

/// A parser over the tokens of one line that checks values by the entry language's rules.
protocol EntryValueRules {
    /// The line's characters, for quoting tokens in errors.
    var chars: [Character] { get }
    /// The line's tokens.
    var tokens: [EntryToken] { get }
}

extension EntryValueRules {
    func weight(_ n: EntryToken) throws(EntryError) -> Fixed {
        try load(n, named: "weight", ifZero: "use `bw` for bodyweight")
    }

    func addedWeight(_ n: EntryToken, assisted: Bool) throws(EntryError) -> Fixed {
        try load(n, named: assisted ? "assistance" : "added weight", ifZero: "use `bw` alone for bodyweight")
    }

    /// A load of at most 3 decimals in (0, `SetLimits.maxLoad`]; `ifZero` tells the user what to type instead of 0.
    func load(_ n: EntryToken, named what: String, ifZero hint: String) throws(EntryError) -> Fixed {
        if n.decimals > 3 {
            throw EntryError("'\(text(n))': use at most 3 decimals", at: n.span)
        }
        if n.thousandths == 0 {
            throw EntryError("'\(text(n))': \(what) must be more than 0; \(hint)", at: n.span)
        }
        if n.thousandths > SetLimits.maxLoad.thousandths {
            throw EntryError("'\(text(n))': \(what) must be at most \(SetLimits.maxLoad)", at: n.span)
        }
        return Fixed(thousandths: n.thousandths)
    }

    /// Planned reps (a routine's): at least 1.
    func reps(_ n: EntryToken) throws(EntryError) -> Int { try wholeNumber(n, "reps", SetLimits.reps, example: "`bench 100x5`") }

    /// A performed set's reps: 0 is a missed attempt (`deadlift 150x0 f`).
    func performedReps(_ n: EntryToken) throws(EntryError) -> Int {
        try wholeNumber(n, "reps", SetLimits.performedReps, example: "`bench 100x5`")
    }

    func count(_ n: EntryToken) throws(EntryError) -> Int { try wholeNumber(n, "set count", SetLimits.setCount, example: "`bench 100x5x3`") }

    /// A whole number within `range`, or an error naming `what`, an example and the range.
    private func wholeNumber(_ n: EntryToken, _ what: String, _ range: ClosedRange<Int>, example: String) throws(EntryError) -> Int {
        guard n.isInteger else {
            throw EntryError("'\(text(n))': \(what) must be a whole number, e.g. \(example)", at: n.span)
        }
        guard range.contains(n.integer) else {
            throw EntryError("'\(text(n))': \(what) must be between \(range.lowerBound) and \(range.upperBound)", at: n.span)
        }
        return n.integer
    }

    func distance(_ n: EntryToken, _ unit: EntryToken, _ distanceUnit: DistanceUnit) throws(EntryError) -> Fixed {
        let span = Span(n.start, unit.end)
        if n.decimals > 3 {
            throw EntryError("'\(text(span))': use at most 3 decimals", at: span)
        }
        if n.thousandths == 0 {
            throw EntryError("'\(text(span))': distance must be more than 0", at: span)
        }
        if n.thousandths > SetLimits.maxDistance.thousandths {
            throw EntryError("'\(text(span))': distance must be at most \(SetLimits.maxDistance)", at: span)
        }
        return Fixed(thousandths: n.thousandths)
    }

    func clock(_ t: EntryToken) throws(EntryError) -> Int {
        guard let seconds = t.clockSeconds else {
            throw EntryError("'\(text(t))': write times as m:ss or h:mm:ss, e.g. `7:41` or `1:02:03`", at: t.span)
        }
        return seconds
    }

    /// The number after `@` as an RPE; `span` is what the error quotes (the `@` and the number).
    func rpe(_ n: EntryToken, quoting span: Span) throws(EntryError) -> Fixed {
        guard n.decimals <= 3, SetLimits.isValidRPE(Fixed(thousandths: n.thousandths)) else {
            throw EntryError("'\(text(span))': RPE must be between 1 and 10 in steps of 0.5, e.g. `@8` or `@8.5`",
                             at: span)
        }
        return Fixed(thousandths: n.thousandths)
    }

    /// The number after `rir` as reps in reserve; `span` is what the error quotes (`rir` and the number).
    func rir(_ n: EntryToken, quoting span: Span) throws(EntryError) -> Fixed {
        guard n.decimals <= 3, SetLimits.isValidRIR(Fixed(thousandths: n.thousandths)) else {
            throw EntryError("'\(text(span))': RIR must be between \(SetLimits.rir.lowerBound) and \(SetLimits.rir.upperBound) "
                + "in steps of \(SetLimits.rpeStep), e.g. `rir2` or `rir1.5`", at: span)
        }
        return Fixed(thousandths: n.thousandths)
    }

    /// `102,5x5`: a comma glued between the digits of a weight is a decimal comma, never a reps list.
    func rejectDecimalComma(at k: Int) throws(EntryError) {
        guard k + 2 < tokens.count, tokens[k].kind == .number, tokens[k + 1].kind == .comma,
              !tokens[k + 1].spaced, tokens[k + 2].kind == .number, !tokens[k + 2].spaced else { return }
        let whole = text(tokens[k]), fraction = text(tokens[k + 2])
        throw EntryError("'\(whole),\(fraction)': use a decimal point: \(whole).\(fraction)", at: Span(tokens[k].start, tokens[k + 2].end))
    }

    func text(_ t: EntryToken) -> String { text(t.span) }
    func text(_ span: Span) -> String { String(chars[span.start..<span.end]) }
}
