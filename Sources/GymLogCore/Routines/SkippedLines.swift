/// The routine lines skipped in a workout, each with how many of its working sets were done
/// when it was skipped, so sets logged after the skip go to the lines still planned (a `skip`
/// of 5/3/1 after one set, then the Boring But Big sets of the same lift).
///
/// Stored as the workout's synced `skipped` field: `2:1,4` is line 2 skipped after one set and
/// line 4 skipped before any. A line skipped before any set is written as its number alone,
/// as versions before the count wrote every entry, so they still read it.
public struct SkippedLines: Equatable, Sendable {
    /// 1-based line number -> its sets done when it was skipped (nil: not recorded, as an
    /// older version wrote it).
    public private(set) var doneWhenSkipped: [Int: Int?] = [:]

    public init() {}

    /// The stored text; an entry that does not read is left out.
    public init(parsing text: String?) {
        for entry in (text ?? "").split(separator: ",") {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
            guard let line = Int(parts[0]), line > 0, parts.count <= 2 else { continue }
            if parts.count == 2 {
                guard let done = Int(parts[1]), done >= 0 else { continue }
                doneWhenSkipped[line] = .some(done)
            } else {
                doneWhenSkipped[line] = .some(nil)
            }
        }
    }

    /// The skipped lines, 1-based.
    public var lines: Set<Int> { Set(doneWhenSkipped.keys) }

    /// Line `line` (1-based) skipped with `done` of its sets done; a line already skipped keeps
    /// its first record.
    public mutating func skip(line: Int, done: Int) {
        if doneWhenSkipped[line] == nil { doneWhenSkipped[line] = .some(done) }
    }

    /// The stored form, lines in order.
    public var text: String {
        doneWhenSkipped.keys.sorted().map { line -> String in
            if let recorded = doneWhenSkipped[line], let done = recorded, done > 0 { return "\(line):\(done)" }
            return "\(line)"
        }.joined(separator: ",")
    }
}
