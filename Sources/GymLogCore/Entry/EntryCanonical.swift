// A compact, stable, one-line rendering of parsed entry lines, used by the grammar fixture table
// (fixtures/entry-grammar.tsv) and handy in debug output. Changing it means re-recording the table.
//
//   bench 100x5x3 @8 # felt fast   ->  log "bench"@0-5 3*[100 x5 @8 #"felt fast"]
//   dip +20kg x6                   ->  log "dip"@0-3 [bw+20kg x6]
//   + 102.5x6x2                    ->  + 2*[102.5 x6]
//   undo                           ->  undo

extension LoadSpec {
    /// `100`, `100kg`, `225lb`, `bw`, `bw+20`, `bw-20kg`.
    public var canonical: String {
        switch self {
        case .weight(let value, let unit):
            return value.description + (unit?.rawValue ?? "")
        case .bodyweight:
            return "bw"
        case .bodyweightPlus(let value, let unit):
            return "bw" + (value.thousandths < 0 ? "" : "+") + value.description + (unit?.rawValue ?? "")
        }
    }
}

extension SetSpec {
    /// Fields in a fixed order, absent ones left out: `warmup 60 x10 @6 2000m 461s #"note"`.
    /// A working set shows no kind.
    public var canonical: String {
        typed.canonical(kind: kind == .working ? nil : kind)
    }
}

extension SetPatch {
    /// `+ [x6]`, `+ 2*[102.5 x6]`, `+ []` for the empty patch; a kind is shown whenever it is set.
    public var canonical: String {
        "+ " + (count == 1 ? "" : "\(count)*") + "[" + typed.canonical(kind: kind) + "]"
    }
}

extension EntryLine {
    /// `log "name"@start-end` then the sets, runs of identical sets as `N*[...]`; `+ [...]`; `undo`.
    public var canonical: String {
        switch self {
        case .undo:
            return "undo"
        case .repeatLast(let patch):
            return patch.canonical
        case .log(let exercise, let sets):
            var out = "log " + canonicalQuoted(exercise.name) + "@\(exercise.span.start)-\(exercise.span.end)"
            var k = 0
            while k < sets.count {
                var run = 1
                while k + run < sets.count && sets[k + run] == sets[k] { run += 1 }
                out += " " + (run == 1 ? "" : "\(run)*") + "[" + sets[k].canonical + "]"
                k += run
            }
            return out
        case .superset(let parts):
            return parts.map { EntryLine.log(exercise: $0.exercise, sets: $0.sets).canonical }.joined(separator: " & ")
        }
    }
}

extension TypedMeasures {
    /// Fields in a fixed order, absent ones left out, after the kind when there is one.
    fileprivate func canonical(kind: SetKind?) -> String {
        var parts: [String] = []
        if let kind { parts.append(kind.rawValue) }
        if let load { parts.append(load.canonical) }
        if let reps { parts.append("x\(reps)") }
        if let rpe { parts.append("@\(rpe)") }
        if let rir { parts.append("rir\(rir)") }
        if let distance { parts.append(distance.description) }
        if let durationSeconds { parts.append("\(durationSeconds)s") }
        if let note { parts.append("#" + canonicalQuoted(note)) }
        return parts.joined(separator: " ")
    }
}

/// Double-quoted, with `\`, `"`, tab and newline escaped so the rendering stays one TSV-safe line.
private func canonicalQuoted(_ text: String) -> String {
    var out = "\""
    for c in text {
        switch c {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\t": out += "\\t"
        case "\n", "\r\n", "\r": out += "\\n"
        default: out.append(c)
        }
    }
    return out + "\""
}
