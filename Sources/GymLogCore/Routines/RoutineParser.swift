import Foundation

/// Why a routine's text was refused: which line (1-based), where in it, and what to type instead.
///
/// Rendered like a set line's error: `description` is `line 3: message`, and `pointing` shows
/// the line with a caret under `span` (0-based character columns in `lineText`).
public struct RoutineParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based number of the refused line in the text.
    public var line: Int
    /// Where in the line the problem is (0-based character offsets, end exclusive).
    public var span: Span
    /// What is wrong and what to type instead.
    public var message: String
    /// The refused line as it was in the text, for the caret display.
    public var lineText: String

    /// An error from its line number, span, message and the line's text.
    public init(line: Int, span: Span, message: String, lineText: String) {
        self.line = line; self.span = span; self.message = message; self.lineText = lineText
    }

    /// `line 3: unknown word 'dbl'; ...`.
    public var description: String { "line \(line): \(message)" }

    /// The line with a caret under the offending span, as `EntryError.pointing` draws it.
    public func pointing(indent: String = "  ", message withMessage: Bool = true,
                         columns: (Character) -> Int = { _ in 1 }) -> String {
        EntryError(message, at: span).pointing(into: lineText, indent: indent, message: withMessage, columns: columns)
    }
}

extension RoutineParseError: LocalizedError {
    /// `line 3: message`, for `localizedDescription`.
    public var errorDescription: String? { description }
}

/// Reads a routine's plain text: an optional `# Name` header, then one planned exercise per line
/// in the entry language's words (`bench 3x5 @8 linear +2.5`). Blank lines and other `#`
/// lines are comments, and `#` after a line's plan starts a comment too; comments are not kept.
///
/// All or nothing: the first line that does not parse refuses the whole text.
public enum RoutineParser {
    /// Parses `text`; `name`, when given, names the routine (it wins over the header, so the
    /// same text can be saved under another name), else the header must.
    public static func parse(_ text: String, name: String? = nil) -> Result<Routine, RoutineParseError> {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var header: (name: String, line: Int)?
        var seenText = false
        var planned: [PlannedExercise] = []
        var origins: [RoutineLineOrigin] = []
        for (index, line) in lines.enumerated() {
            let chars = Array(line)
            func refuse(_ error: EntryError) -> Result<Routine, RoutineParseError> {
                .failure(RoutineParseError(line: index + 1, span: error.span, message: error.message, lineText: String(line)))
            }
            do {
                try EntryParser.rejectControlCharacters(chars)
            } catch {
                return refuse(error)
            }
            let (start, end) = EntryParser.trimmed(chars, 0, chars.count)
            if start == end { continue }
            let isFirst = !seenText
            seenText = true
            if chars[start] == "#" {
                // The first line with text names the routine when it is a `#` line; other `#` lines are comments.
                if isFirst {
                    header = (String(chars[(start + 1)..<end]).trimmingCharacters(in: .whitespaces), index + 1)
                }
                continue
            }
            do throws(EntryError) {
                for (k, part) in try supersetParts(chars, from: start).enumerated() {
                    if planned.count == Routine.maxExercises {
                        throw EntryError("a routine holds at most \(Routine.maxExercises) exercises; split it in two", at: Span(start, end))
                    }
                    let parsed = try plannedExercise(part, from: EntryParser.trimmed(part, 0, part.count).0)
                    var exercise = parsed.0
                    exercise.joinsPrevious = k > 0
                    planned.append(exercise)
                    origins.append(RoutineLineOrigin(line: index + 1, nameSpan: parsed.1, lineText: String(line)))
                }
            } catch {
                return refuse(error)
            }
        }
        // A share of the training max (`squat 5x10 50%`, `good morning 3x8 30% of squat`) needs a
        // 5/3/1 line of its lift to take it from.
        for (k, line) in planned.enumerated() where line.percentOfTrainingMax != nil && line.ownTrainingMax == nil {
            let lift = line.shareOf ?? line.exerciseName
            if RoutineParser.waveLine(of: lift, in: planned) == nil {
                let percent = "\(line.percentOfTrainingMax!)%"
                let waves = planned.filter { if case .fiveThreeOne = $0.rule { true } else { false } }.map { "'\($0.exerciseName)'" }
                return .failure(origins[k].refusing("\(percent)\(line.shareOf == nil ? "" : " of \(lift)") is a share of the training max "
                    + "of a 5/3/1 line of '\(lift)', and the routine has none; add one, e.g. `\(lift) 5/3/1 tm 100`"
                    + (line.shareOf == nil ? ", give the line its own (`\(percent) tm 100`)"
                        : waves.isEmpty ? "" : ", name a lift that has one (\(waves.joined(separator: ", ")))")
                    + ", or give a weight"))
            }
        }
        return named(planned, given: name, header: header, lines: lines).map { Routine(name: $0.name, lines: $0.lines, origins: origins) }
    }

    /// The index of the 5/3/1 line of `lift` (compared as names are: case, spaces and
    /// punctuation aside), whose training max a share of `lift` reads.
    public static func waveLine(of lift: String, in lines: [PlannedExercise]) -> Int? {
        let key = matchKey(lift)
        return lines.firstIndex { line in
            if case .fiveThreeOne = line.rule { matchKey(line.exerciseName) == key } else { false }
        }
    }

    /// The routine once every line parsed: it needs a name and at least one exercise.
    static func named(_ planned: [PlannedExercise], given: String?, header: (name: String, line: Int)?,
                      lines: [Substring]) -> Result<Routine, RoutineParseError> {
        let candidates = [given?.trimmingCharacters(in: .whitespaces), header?.name].compactMap { $0 }
        guard let name = candidates.first(where: { !$0.isEmpty }) else {
            return .failure(RoutineParseError(line: 1, span: Span(0, 0),
                message: "a routine needs a name: start the text with a header line, e.g. `# Push A`",
                lineText: lines.first.map(String.init) ?? ""))
        }
        if planned.isEmpty {
            // Point past the end of the header, where the first exercise would follow.
            let line = header?.line ?? 1
            let lineText = lines.indices.contains(line - 1) ? String(lines[line - 1]) : ""
            return .failure(RoutineParseError(line: line, span: Span(lineText.count, lineText.count),
                message: "routine '\(name)' has no exercises; add one per line, e.g. `bench 3x5 linear +2.5`",
                lineText: lineText))
        }
        return .success(Routine(name: name, lines: planned))
    }

    /// The line's superset parts (`bench 3x5 & row 3x8`), each the line with everything but
    /// the part blanked out so errors point into the line as typed; one part without `&`.
    static func supersetParts(_ chars: [Character], from start: Int) throws(EntryError) -> [[Character]] {
        let hash = chars.firstIndex(of: "#") ?? chars.count
        let ampersands = (start..<hash).filter { chars[$0] == "&" }
        if ampersands.isEmpty { return [chars] }
        var parts: [[Character]] = []
        for (from, to) in zip([start] + ampersands.map { $0 + 1 }, ampersands + [hash]) {
            let (s, e) = EntryParser.trimmed(chars, from, to)
            guard s < e else {
                throw EntryError("expected an exercise and its sets on each side of '&', e.g. `bench 3x5 & row 3x8`",
                                 at: Span(min(from, chars.count - 1), min(max(to, from + 1), chars.count)))
            }
            var part = Array(repeating: Character(" "), count: chars.count)
            for k in s..<e { part[k] = chars[k] }
            parts.append(part)
        }
        return parts
    }

    /// One planned exercise from the non-blank line `chars`, whose text starts at `start`, and
    /// where its name is.
    static func plannedExercise(_ chars: [Character], from start: Int) throws(EntryError) -> (PlannedExercise, Span) {
        var hash = chars.count
        for (i, c) in chars.enumerated() where c == "#" { hash = i; break }
        let (_, end) = EntryParser.trimmed(chars, start, hash)
        let (name, nameEnd, restStart) = EntryParser.leadingName(chars, from: start, to: end)
        if name.isEmpty {
            throw EntryError("missing exercise name: start the line with one, e.g. `bench 3x5`",
                             at: Span(start, EntryParser.wordEnd(chars, start, end)))
        }
        var line = RoutineLineParser(chars: chars, tokens: EntryLexer.tokens(chars, from: restStart, to: end, spacedAtStart: true),
                                     name: name, nameSpan: Span(start, nameEnd))
        return (try line.parse(), Span(start, nameEnd))
    }
}

extension RoutineParser {
    /// A rest time as a routine line's `rest` takes it (`3:00`, `90s`, `2min`), in seconds,
    /// 1 s to 60:00: what the REPL's `rest 2:30` and the config's `rest_seconds` read.
    public static func restSeconds(_ text: String) -> Result<Int, EntryError> {
        let chars = Array("rest " + text)
        var line = RoutineLineParser(chars: chars, tokens: EntryLexer.tokens(chars, from: 0, to: chars.count, spacedAtStart: true),
                                     name: "", nameSpan: Span(0, 0))
        do throws(EntryError) {
            let word = line.tokens[0]
            line.i = 1
            let seconds = try line.parseRest(after: word)
            if line.i < line.tokens.count { throw EntryError("'\(text)' is not one rest time; type e.g. `3:00` or `90s`", at: Span(0, chars.count)) }
            return .success(seconds)
        } catch {
            // Point into the text as typed, without the `rest ` put in front.
            return .failure(EntryError(error.message, at: Span(max(0, error.span.start - 5), max(0, error.span.end - 5))))
        }
    }
}
