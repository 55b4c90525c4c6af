/// Text a spreadsheet would run as a formula, written so it shows as text (CSV injection,
/// OWASP's advice): a cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return gets
/// a `'` in front, which spreadsheets hide and read as "this is text". gymlog's import drops it
/// again, so an export reads back exactly as typed.
///
/// Leading `'`s are looked past when deciding, which makes the guard reversible for every
/// string: `=1+1` is written `'=1+1`, a note typed as `'=1+1` is written `''=1+1`, and a cell
/// is unguarded only when it begins with `'` and would be guarded without it. A text that
/// begins with `'` followed by anything else (`'90s mix`) is written and read as it is.
public enum FormulaGuard {
    /// Whether a cell beginning with `byte` is a formula to a spreadsheet: `=`, `+`, `-`, `@`, tab, CR.
    @inlinable
    public static func isTrigger(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "@")
            || byte == 9 || byte == 13
    }

    /// Whether `bytes` is written with a `'` in front: past any leading `'`s, it begins with a trigger.
    @inlinable
    public static func needsGuard(_ bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes where byte != UInt8(ascii: "'") { return isTrigger(byte) }
        return false
    }

    /// `text` as a text cell is written: with a `'` in front when it needs one.
    public static func guarded(_ text: String) -> String {
        needsGuard(text.utf8) ? "'" + text : text
    }

    /// A cell as gymlog wrote it, back to the text: the `'` `guarded` put in front is dropped,
    /// and any other cell is left as it is.
    public static func unguarded(_ cell: String) -> String {
        guard cell.utf8.first == UInt8(ascii: "'"), needsGuard(cell.utf8) else { return cell }
        return String(decoding: cell.utf8.dropFirst(), as: UTF8.self)
    }
}
