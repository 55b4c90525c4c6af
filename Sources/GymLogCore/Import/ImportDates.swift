import Foundation

// Dates as apps write them in the phone's language and region: `15 sept. 2025, 19:48`,
// `15. Sept. 2025, 7:48 PM`, `15 сент. 2025 г., 07:48`, `2025年9月15日 午後7:48`, `Sep 15, 2025`,
// `29.04.2025`, `4/29/25 7:48 PM`. The words come from the platform's locale data (CLDR, which
// Foundation carries), never from a list written here, so a language nobody here has seen
// reads as well as English.

/// A date read apart from its layout: the numbers and the month word found in it.
struct WrittenDate: Equatable {
    /// The date's parts in the order written: a month named by a word, or three numbers.
    enum Parts: Equatable {
        /// A month named by a word, with the day and the year (`15 Sep 2025`, `Sep 15, 2025`).
        case named(day: Int, month: Int, year: Int)
        /// The year first (`2025/09/15`, `2025年9月15日`): never ambiguous.
        case yearFirst(year: Int, month: Int, day: Int)
        /// Two numbers, then the year (`03/04/2024`, `29.04.2025`): day and month in an order
        /// the file settles (`DateOrder`). `dotted` when written with dots, which every region
        /// that writes them so reads day first.
        case numeric(first: Int, second: Int, year: Int, dotted: Bool)
    }

    var parts: Parts
    /// Seconds after midnight; nil when no time is written.
    var clock: Int?

    /// The wall-clock milliseconds (as if UTC) in `order` where the parts need one; nil when
    /// they name no day of the calendar or the order is not known and the numbers do not tell.
    func local(order: DateOrder?) -> Int64? {
        let (year, month, day): (Int, Int, Int)
        switch parts {
        case let .named(d, m, y): (year, month, day) = (y, m, d)
        case let .yearFirst(y, m, d): (year, month, day) = (y, m, d)
        case let .numeric(first, second, y, dotted):
            guard let order = order ?? Self.told(first, second) ?? (dotted ? .dmy : nil) else { return nil }
            (year, month, day) = order == .dmy ? (y, second, first) : (y, first, second)
        }
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month) else {
            return nil
        }
        return epochMillis(year: year, month: month, day: day, utcOffsetSeconds: 0) + Int64(clock ?? 0) * 1000
    }

    /// The order two leading numbers tell by one of them being above 12 (and so a day).
    static func told(_ first: Int, _ second: Int) -> DateOrder? {
        if first > 12 && second <= 12 { return .dmy }
        if second > 12 && first <= 12 { return .mdy }
        return nil
    }

    /// Reads a date with an optional time in any locale's way of writing it; nil when the
    /// text is not one (an unknown word longer than a particle like `de`, `г.` or `um`, a
    /// number too many, no year).
    static func read(_ text: String) -> WrittenDate? {
        var numbers: [(value: Int, digits: Int, separator: Character?)] = []
        var month: Int?
        var half: LocaleWords.Half?
        var clock: Int?
        let all = tokens(text)
        var skipNext = false
        for (i, token) in all.enumerated() {
            if skipNext { skipNext = false; continue }
            switch token {
            case .time(let t):
                guard clock == nil, let seconds = ImportValue.timeOfDay(t) else { return nil }
                clock = seconds
            case .number(let digits, let separator):
                guard let n = Int(digits), numbers.count < 3 else { return nil }
                numbers.append((n, digits.count, separator))
            case .word(let w):
                let key = LocaleWords.key(w)
                if key.isEmpty { continue }
                // A marker written in two words: `p. m.`
                if i + 1 < all.count, case .word(let next) = all[i + 1], let h = LocaleWords.shared.halves[key + LocaleWords.key(next)],
                   LocaleWords.shared.months[key] == nil {
                    half = h
                    skipNext = true
                    continue
                }
                if let m = LocaleWords.shared.months[key] {
                    guard month == nil else { return nil }
                    month = m
                } else if let h = LocaleWords.shared.halves[key] {
                    half = h
                } else if LocaleWords.shared.ignorable.contains(key) || key.count <= 3 {
                    continue
                } else {
                    return nil
                }
            }
        }
        if let h = half {
            guard let c = clock else { return nil }
            // A 24-hour time (`19:48`) has no half to read.
            if c / 3600 <= 12 { clock = c % 3600 + ((c / 3600) % 12 + (h == .pm ? 12 : 0)) * 3600 }
        }
        let year = { (n: (value: Int, digits: Int, separator: Character?)) in n.digits == 2 ? 2000 + n.value : n.value }
        if let month {
            guard numbers.count == 2 else { return nil }
            // The year is the four-digit number (`Sep 15, 2025`, `15 Sep 2025`), else the last.
            let y = numbers[0].digits == 4 ? 0 : 1
            guard numbers[y].digits == 4 || (numbers[y].digits == 2 && y == 1), numbers[1 - y].digits <= 2 else { return nil }
            return WrittenDate(parts: .named(day: numbers[1 - y].value, month: month, year: year(numbers[y])), clock: clock)
        }
        guard numbers.count == 3, numbers[1].digits <= 2 else { return nil }
        if numbers[0].digits == 4 {
            guard numbers[2].digits <= 2 else { return nil }
            return WrittenDate(parts: .yearFirst(year: numbers[0].value, month: numbers[1].value, day: numbers[2].value), clock: clock)
        }
        guard numbers[0].digits <= 2, numbers[2].digits == 4 || numbers[2].digits == 2 else { return nil }
        return WrittenDate(parts: .numeric(first: numbers[0].value, second: numbers[1].value, year: year(numbers[2]),
                                           dotted: numbers[0].separator == "."), clock: clock)
    }

    enum Token: Equatable {
        case number(String, separator: Character?)
        case time(String)
        case word(String)
    }

    /// Runs of digits (a time when joined by colons), and of letters; everything else (spaces,
    /// commas, slashes, dots, `年`...) separates them. A number keeps the separator after it, so
    /// `29.04.2025` is told from `04/29/2025`.
    static func tokens(_ text: String) -> [Token] {
        var out: [Token] = []
        var chars = Array(text)
        chars.append(" ")
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c.isASCII && c.isNumber {
                var j = i
                while j < chars.count, (chars[j].isASCII && chars[j].isNumber) || (chars[j] == ":" && j + 1 < chars.count && chars[j + 1].isNumber) {
                    j += 1
                }
                let run = String(chars[i..<j])
                out.append(run.contains(":") ? .time(run) : .number(run, separator: chars[j] == " " ? nil : chars[j]))
                i = j
            } else if c.isLetter, !"年月日시년월일".contains(c) {
                var j = i
                while j < chars.count, chars[j].isLetter || chars[j] == "." || chars[j] == "'", !"年月日시년월일".contains(chars[j]) { j += 1 }
                out.append(.word(String(chars[i..<j])))
                i = j
            } else {
                i += 1
            }
        }
        return out
    }
}

/// The words of dates in every locale the platform knows: month names and their abbreviations
/// (as written in a date and standing alone), the am/pm markers, and the weekday names a date
/// may start with. Built once, the first time a date is not ISO.
final class LocaleWords: Sendable {
    enum Half: Sendable { case am, pm }

    /// Each month word (`key`ed) with its month, 1-12. A word two languages give different
    /// months (`listopad`: November in Polish and Czech, October in Croatian) is the month
    /// most languages give it.
    let months: [String: Int]
    /// Each am or pm marker (`午後`, `p. m.`, `nachm.`).
    let halves: [String: Half]
    /// Weekday names and other words a date carries that say nothing of the day.
    let ignorable: Set<String>

    static let shared = LocaleWords()

    /// A word as looked up: lower case, dots and spaces dropped (`Sept.` is `sept`, `p. m.` is `pm`).
    static func key(_ word: String) -> String {
        String(word.lowercased().filter { $0 != "." && $0 != " " && $0 != "\u{00A0}" && $0 != "'" })
    }

    private init() {
        var monthVotes: [String: [Int: Set<String>]] = [:]
        var halfVotes: [String: [Bool: Set<String>]] = [:]
        var ignorable: Set<String> = []
        let formatter = DateFormatter()
        for id in Locale.availableIdentifiers {
            let locale = Locale(identifier: id)
            let language = String(id.prefix { $0 != "_" && $0 != "-" })
            formatter.locale = locale
            for list in [formatter.monthSymbols, formatter.shortMonthSymbols, formatter.standaloneMonthSymbols,
                         formatter.shortStandaloneMonthSymbols] {
                for (i, word) in (list ?? []).enumerated() where i < 12 {
                    let k = Self.key(word)
                    // Numbered months (`9月`, `M09`) are read as numbers.
                    guard !k.isEmpty, !k.contains(where: \.isNumber) else { continue }
                    monthVotes[k, default: [:]][i + 1, default: []].insert(language)
                }
            }
            for (word, pm) in [(formatter.amSymbol, false), (formatter.pmSymbol, true)] {
                let k = Self.key(word ?? "")
                if !k.isEmpty, !k.contains(where: \.isNumber) { halfVotes[k, default: [:]][pm, default: []].insert(language) }
            }
            for list in [formatter.weekdaySymbols, formatter.shortWeekdaySymbols] {
                for word in list ?? [] { ignorable.insert(Self.key(word)) }
            }
        }
        let winner = { (votes: [Int: Set<String>]) in votes.max { ($0.value.count, -$0.key) < ($1.value.count, -$1.key) }!.key }
        // A word of one or two Latin letters (`de`, `pm`) is a month's abbreviation in a few
        // locales but a particle or a clock's half in many: never read as a month.
        months = monthVotes.filter { !($0.key.count <= 2 && $0.key.allSatisfy(\.isASCII)) }.mapValues(winner)
        // So is a marker of two Latin letters (Hungarian's `de.`, the Portuguese `de`) other than am and pm.
        var halves = halfVotes.filter { !($0.key.count <= 2 && $0.key.allSatisfy(\.isASCII)) }
            .mapValues { votes in (votes[true]?.count ?? 0) > (votes[false]?.count ?? 0) ? Half.pm : .am }
        // English's own, whatever the locale data holds: `a.m.` and `p.m.` are `am` and `pm` as keys.
        halves["am"] = .am; halves["pm"] = .pm
        self.halves = halves
        self.ignorable = ignorable.subtracting(months.keys)
    }
}
