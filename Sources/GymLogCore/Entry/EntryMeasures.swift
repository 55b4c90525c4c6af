/// Times and distances as the entry language writes them (`60s`, `2m30s`, `7:41`, `2000m`,
/// `5 km`): one home for set lines and routine lines (`plank 3x60s`, `row 2000m`).
protocol EntryMeasureRules: EntryValueRules {
    /// The token being read.
    var i: Int { get set }
}

extension EntryMeasureRules {
    /// Reads the time or distance at `i` into whichever of `duration` and `distance` it is;
    /// false, reading nothing, when that one is already given (it starts the next set).
    mutating func parseMeasure(duration: inout Int?, distance: inout Distance?) throws(EntryError) -> Bool {
        let t = tokens[i]
        if t.kind == .clock {
            if duration != nil { return false }
            duration = try durationValue(try clock(t), span: t.span)
            i += 1
            return true
        }
        try rejectDecimalComma(at: i)
        let unitToken = tokens[i + 1]
        if case .word(.distanceUnit(let unit)) = unitToken.kind, !isMinutesSecondsAt(i) {
            if distance != nil { return false }
            distance = Distance(try self.distance(t, unitToken, unit), unit)
            i += 2
        } else {
            if duration != nil { return false }
            duration = try parseDuration()
        }
        return true
    }

    /// Whether the token at `k` begins a duration or distance: `60s`, `2min`, `2m30s`, `7:41`, `2000m`, `5 km`.
    func startsMeasure(_ k: Int) -> Bool {
        guard k < tokens.count else { return false }
        if tokens[k].kind == .clock { return true }
        guard tokens[k].kind == .number, k + 1 < tokens.count else { return false }
        switch tokens[k + 1].kind {
        case .word(.timeUnit), .word(.distanceUnit): return true
        default: return false
        }
    }

    /// `2m30s`: a glued `m` followed by seconds means minutes (a spaced or lone `m` is metres).
    func isMinutesSecondsAt(_ k: Int) -> Bool {
        guard k + 3 < tokens.count, tokens[k + 1].kind == .word(.distanceUnit(.m)),
              !tokens[k + 1].spaced, tokens[k + 2].kind == .number, !tokens[k + 2].spaced,
              tokens[k + 3].kind == .word(.timeUnit(1)), !tokens[k + 3].spaced else { return false }
        return true
    }

    /// `60s`, `90 s`, `2min`, `2m30s`, `1h30min`, `1h30m`: glued parts must go from larger to smaller units.
    mutating func parseDuration() throws(EntryError) -> Int {
        let start = tokens[i].start
        var total: Int64 = 0
        var lastMultiplier = Int64.max
        var end = start
        var exact = true
        var first = true
        while i + 1 < tokens.count, tokens[i].kind == .number {
            let n = tokens[i], u = tokens[i + 1]
            if !first && (n.spaced || u.spaced) { break }
            var multiplier: Int64
            switch u.kind {
            case .word(.timeUnit(let m)): multiplier = Int64(m)
            case .word(.distanceUnit(.m)) where first || lastMultiplier > 60: multiplier = 60
            default: multiplier = 0
            }
            if multiplier == 0 || multiplier >= lastMultiplier { break }
            if n.decimals > 3 {
                throw EntryError("'\(text(Span(n.start, u.end)))': use at most 3 decimals", at: Span(n.start, u.end))
            }
            let product = n.thousandths * multiplier
            if product % 1000 != 0 { exact = false }
            total = min(total + product / 1000, Int64(saturatedSeconds))
            lastMultiplier = multiplier
            end = u.end
            i += 2
            first = false
        }
        let span = Span(start, end)
        if !exact {
            throw EntryError("'\(text(span))': durations are whole seconds, e.g. `90s` or `1:30`", at: span)
        }
        return try durationValue(Int(total), span: span)
    }

    func durationValue(_ seconds: Int, span: Span) throws(EntryError) -> Int {
        if seconds <= 0 {
            throw EntryError("'\(text(span))': duration must be more than 0", at: span)
        }
        if seconds > SetLimits.maxDurationSeconds {
            throw EntryError("'\(text(span))': duration must be at most 24h (24:00:00)", at: span)
        }
        return seconds
    }

}

/// Durations saturate here while being added up; anything this big fails the 24h limit.
private let saturatedSeconds = 1_000_000_000
