// A line chart drawn with Unicode braille: every character cell holds 2 x 4 dots, so a
// terminal row of 70 cells has 140 dot columns. Pure: points in, lines of text out. The
// caller decides colour from the role of each span.

/// One point of a chart: `day` is a local calendar day (days since 1970-01-01).
public struct ChartPoint: Equatable, Sendable {
    public var day: Int64
    public var value: Double
    public init(day: Int64, value: Double) { self.day = day; self.value = value }
}

/// What a piece of a chart line is, so a terminal can colour it.
public enum ChartRole: Equatable, Sendable {
    /// Axis lines and tick marks.
    case axis
    /// Value and date labels.
    case label
    /// The plotted line.
    case plot
}

/// A run of text with one role.
public struct ChartSpan: Equatable, Sendable {
    public var text: String
    public var role: ChartRole
    public init(_ text: String, _ role: ChartRole) { self.text = text; self.role = role }
}

/// One line of a rendered chart.
public struct ChartLine: Equatable, Sendable {
    public var spans: [ChartSpan]
    public init(_ spans: [ChartSpan]) { self.spans = spans }
    /// The line without roles.
    public var text: String { spans.map(\.text).joined() }
}

/// Renders a progression as a braille line chart with a labelled y axis (values) and x axis (dates).
public enum LineChart {
    /// Below this the plot area is too narrow to read; the CLI rejects smaller widths.
    public static let minimumWidth = 30
    public static let minimumHeight = 3

    /// Draws `points` in at most `width` columns and `height` plot rows, plus two axis rows.
    ///
    /// The x axis is proportional to time. Points that fall into the same dot column (a long
    /// history in a narrow terminal) are bucketed: the column shows their whole range and the
    /// line joins the last point of one column to the first of the next. The top label is
    /// always the largest value and the bottom label the smallest; a flat series is drawn
    /// across the middle with its one value as the only label.
    public static func render(_ input: [ChartPoint], width: Int, height: Int,
                              formatValue: (Double) -> String) -> [ChartLine] {
        guard !input.isEmpty else { return [] }
        // A stable sort by day keeps same-day workouts in the order given.
        let points = input.enumerated().sorted { ($0.element.day, $0.offset) < ($1.element.day, $1.offset) }.map(\.element)
        let height = max(minimumHeight, height)
        let dotRows = height * 4

        let lo = points.map(\.value).min()!, hi = points.map(\.value).max()!
        let flat = hi - lo <= 1e-9 * max(1, abs(hi))
        let flatRow = height / 2
        func dotRow(_ v: Double) -> Int {
            if flat { return flatRow * 4 + 1 }
            return Int(((hi - v) / (hi - lo) * Double(dotRows - 1)).rounded())
        }

        // Y labels: the extremes always, intermediate rows about every third row.
        var labels = [String?](repeating: nil, count: height)
        if flat {
            labels[flatRow] = formatValue(hi)
        } else {
            labels[0] = formatValue(hi)
            labels[height - 1] = formatValue(lo)
            let step = height >= 12 ? 4 : 3
            var r = step
            while r <= height - 3 {
                let v = hi - (Double(r * 4) + 1.5) / Double(dotRows - 1) * (hi - lo)
                let text = formatValue(v)
                if !labels.contains(text) { labels[r] = text }
                r += step
            }
        }
        let labelWidth = labels.compactMap { $0?.count }.max() ?? 0
        let cells = max(8, width - labelWidth - 2)
        let dotColumns = cells * 2

        let d0 = points.first!.day, d1 = points.last!.day
        func dotColumn(_ day: Int64) -> Int {
            if d0 == d1 { return dotColumns / 2 }
            return Int((Double(day - d0) / Double(d1 - d0) * Double(dotColumns - 1)).rounded())
        }

        // Bucket points per dot column: their range, and where the line enters and leaves.
        struct Bucket { var top: Int; var bottom: Int; var first: Int; var last: Int }
        var buckets = [Bucket?](repeating: nil, count: dotColumns)
        for p in points {
            let c = dotColumn(p.day), r = dotRow(p.value)
            if var b = buckets[c] {
                b.top = min(b.top, r); b.bottom = max(b.bottom, r); b.last = r
                buckets[c] = b
            } else {
                buckets[c] = Bucket(top: r, bottom: r, first: r, last: r)
            }
        }

        var grid = [[UInt8]](repeating: [UInt8](repeating: 0, count: cells), count: height)
        func dot(_ c: Int, _ r: Int) {
            guard c >= 0, c < dotColumns, r >= 0, r < dotRows else { return }
            let bits: [UInt8] = c % 2 == 0 ? [0x01, 0x02, 0x04, 0x40] : [0x08, 0x10, 0x20, 0x80]
            grid[r / 4][c / 2] |= bits[r % 4]
        }
        func line(_ c0: Int, _ r0: Int, _ c1: Int, _ r1: Int) {
            // Bresenham, all octants.
            var x = c0, y = r0
            let dx = abs(c1 - c0), dy = -abs(r1 - r0)
            let sx = c0 < c1 ? 1 : -1, sy = r0 < r1 ? 1 : -1
            var err = dx + dy
            while true {
                dot(x, y)
                if x == c1 && y == r1 { break }
                let e2 = 2 * err
                if e2 >= dy { err += dy; x += sx }
                if e2 <= dx { err += dx; y += sy }
            }
        }
        var previous: (column: Int, row: Int)?
        for c in 0..<dotColumns {
            guard let b = buckets[c] else { continue }
            for r in b.top...b.bottom { dot(c, r) }
            if let p = previous { line(p.column, p.row, c, b.first) }
            previous = (c, b.last)
        }

        var lines: [ChartLine] = []
        for r in 0..<height {
            let label = labels[r].map { String(repeating: " ", count: labelWidth - $0.count) + $0 }
                ?? String(repeating: " ", count: labelWidth)
            var plot = String(grid[r].map { $0 == 0 ? " " : Character(Unicode.Scalar(0x2800 + UInt32($0))!) })
            while plot.last == " " { plot.removeLast() }
            var spans = [ChartSpan(label + " ", .label), ChartSpan(labels[r] == nil ? "│" : "┤", .axis)]
            if !plot.isEmpty { spans.append(ChartSpan(plot, .plot)) }
            lines.append(ChartLine(spans))
        }

        // X axis: tick marks on whole days spread evenly, labelled with dates that never overlap.
        let ticks: [Int64]
        if d0 == d1 {
            ticks = [d0]
        } else {
            let n = Int(min(Int64(max(2, (cells + 2) / 14)), d1 - d0 + 1))
            ticks = (0..<n).map { d0 + (d1 - d0) * Int64($0) / Int64(n - 1) }
        }
        var axis = [Character](repeating: "─", count: cells)
        let offset = labelWidth + 2
        var text = [Character](repeating: " ", count: offset + cells)
        var placed: [(start: Int, end: Int)] = []
        // Ends first so the first and last dates are always shown.
        let order = ticks.count <= 2 ? Array(ticks.indices) : [0, ticks.count - 1] + Array(1..<(ticks.count - 1))
        for i in order {
            let cell = dotColumn(ticks[i]) / 2
            let date = dayLabel(ticks[i])
            var start: Int
            if ticks.count == 1 { start = offset + cell - date.count / 2 }
            else if i == 0 { start = offset + cell }
            else if i == ticks.count - 1 { start = offset + cell - date.count + 1 }
            else { start = offset + cell - date.count / 2 }
            start = max(0, min(start, text.count - date.count))
            let end = start + date.count
            guard start >= 0, !placed.contains(where: { start < $0.end + 2 && end + 2 > $0.start }) else { continue }
            placed.append((start, end))
            axis[cell] = "┬"
            for (k, ch) in date.enumerated() { text[start + k] = ch }
        }
        lines.append(ChartLine([ChartSpan(String(repeating: " ", count: labelWidth + 1), .label),
                                ChartSpan("└" + String(axis), .axis)]))
        var dates = String(text)
        while dates.last == " " { dates.removeLast() }
        lines.append(ChartLine([ChartSpan(dates, .label)]))
        return lines
    }

    /// One item of a one-line summary or title: its full form, a shorter form for narrow
    /// terminals, and how much it matters (0 first).
    public struct Item: Equatable, Sendable {
        public var full: String
        public var short: String
        public var priority: Int
        public init(_ full: String, short: String? = nil, priority: Int) { self.full = full; self.short = short ?? full; self.priority = priority }
    }

    /// The items that fit in `width` columns joined by `separator`, in their order: each item
    /// whole, never cut. Least important items shorten first, then drop, until the line fits;
    /// the most important one always stays (in its short form). Returns the positions kept
    /// and the text chosen for each.
    public static func fit(_ items: [Item], separator: String = " · ", width: Int) -> [(index: Int, text: String)] {
        var chosen: [(index: Int, text: String)] = items.enumerated().map { ($0.offset, $0.element.full) }
        func length() -> Int { chosen.reduce(0) { $0 + $1.text.count } + max(0, chosen.count - 1) * separator.count }
        let leastFirst = items.indices.sorted { (items[$0].priority, $0) > (items[$1].priority, $1) }
        for i in leastFirst where length() > width {
            if let k = chosen.firstIndex(where: { $0.index == i }) { chosen[k].text = items[i].short }
        }
        for i in leastFirst.dropLast() where length() > width {
            chosen.removeAll { $0.index == i }
        }
        return chosen
    }

    /// `2026-03-02` for a day number.
    public static func dayLabel(_ day: Int64) -> String {
        let d = civilFromDays(day)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(d.year)-\(two(d.month))-\(two(d.day))"
    }

    /// The local calendar day of an instant, as `ChartPoint.day` wants it.
    public static func day(millis: Int64, utcOffsetSeconds: Int) -> Int64 {
        let seconds = (millis >= 0 ? millis / 1000 : (millis - 999) / 1000) + Int64(utcOffsetSeconds)
        return seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    }
}
