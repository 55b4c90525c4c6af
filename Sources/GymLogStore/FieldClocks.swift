import Foundation
import GymLogCore
import GymLogWire

/// The `clocks` column of a synced row: each field's last write, `{"reps":"<hlc>",...}`.
/// Per-field last-writer-wins reads it on every pulled row, undo reads it to find foreign
/// writes, and the write pipeline patches it (`json_patch`) with the clocks of each change.
/// This is its one codec; nothing else parses or writes the column's text.
struct FieldClocks {
    private(set) var byField: [String: HLC]

    init(_ byField: [String: HLC] = [:]) { self.byField = byField }

    /// The clocks stored in `column`; none for a row not there (nil) or a column that does not
    /// read, so any write wins over it, as over a field never written. A clock that is not an
    /// HLC's text is no clock, likewise.
    init(column: String?) {
        guard let column, column != "{}",
              let object = try? JSONDecoder().decode([String: String].self, from: Data(column.utf8)) else {
            self.byField = [:]
            return
        }
        self.byField = object.compactMapValues(HLC.init)
    }

    subscript(field: String) -> HLC? {
        get { byField[field] }
        set { byField[field] = newValue }
    }

    /// The row's first write: its creation.
    var oldest: HLC? { byField.values.min() }

    var isEmpty: Bool { byField.isEmpty }

    /// The column's text, fields in name order (the same row always reads the same).
    var column: String {
        var out = "{"
        for (i, name) in byField.keys.sorted().enumerated() {
            if i > 0 { out += "," }
            appendJSONString(name, to: &out)
            out += ":\"" + byField[name]!.description + "\""
        }
        return out + "}"
    }

    /// The clocks `changes` write, as a patch for the column (`json_patch(clocks, ?)`). Made by
    /// hand on every write, in the order of the change's fields, a shared clock formatted once.
    static func patch(_ changes: [FieldChange]) -> String {
        encodeFieldObject(changes, reservingPerField: 48) { _, clockText, json in json += "\"" + clockText + "\"" }
    }
}
