import Foundation
import GymLogCore
import GymLogServerCore
import GymLogWire

/// The longest text value a field may hold, in UTF-8 bytes: the client's own limit, so a
/// client never writes a value the server refuses.
public let maxValueBytes = maxTextFieldBytes

/// The longest sealed value of an encrypted account: the sealed form of the JSON of the
/// longest text, every byte of it escaped to two (a note of newlines).
public let maxSealedValueBytes = AccountKey.sealedLength(ofPlaintextBytes: 2 * maxValueBytes + 2)

/// The pure push checks: names, sizes, clocks. No I/O; `now` comes in.
enum PushValidation {
    /// `^[a-z_]{1,32}$` (`WireNames`: devices check pulled changes by the same rule).
    static func isEntityName(_ s: String) -> Bool { WireNames.isEntityName(s) }

    /// `^[a-z_][a-z0-9_]{0,63}$` (`WireNames`).
    static func isFieldName(_ s: String) -> Bool { WireNames.isFieldName(s) }

    /// `^[A-Za-z0-9_.-]{1,64}$`: device ids (and, with a letter or digit first, user names).
    static func isPlainName(_ s: String) -> Bool {
        let u = s.utf8
        return (1...64).contains(u.count) && u.allSatisfy {
            ($0 >= 97 && $0 <= 122) || ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 95 || $0 == 46 || $0 == 45
        }
    }

    /// Why `name` cannot be a user name, or nil when it can: `^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`.
    /// The one rule for `POST /v1/register` and `gymlog-server user add`. A letter or digit
    /// first keeps out `.`, `..` (path-like) and `-h`, `--help` (option-like), which read as
    /// something else wherever a name is typed or shown.
    static func userNameProblem(_ name: String) -> String? {
        let shown = "\"\(name.prefix(80))\"\(name.count > 80 ? "..." : "")"
        guard isPlainName(name) else {
            return "the user name \(shown) is not 1 to 64 letters, digits, '_', '.' or '-'; choose another name."
        }
        guard let first = name.utf8.first, (48...57).contains(first) || (65...90).contains(first) || (97...122).contains(first) else {
            return "the user name \(shown) must start with a letter or digit; choose another name."
        }
        return nil
    }

    /// Printable ASCII without spaces, 1...128 bytes: idempotency keys.
    static func isKey(_ s: String, maxBytes: Int) -> Bool {
        let u = s.utf8
        return (1...maxBytes).contains(u.count) && u.allSatisfy { $0 > 32 && $0 < 127 }
    }

    /// Checks one event; a failure rejects only this event. An encrypted account's (`sealed`)
    /// values are opaque here: each must be a sealed value within the size limit, and the
    /// value rules move to the receiving devices (`PulledChangeRules`).
    static func validate(_ e: IncomingEvent, sealed: Bool = false) -> PushItem {
        func reject(_ code: ErrorCode, _ message: String) -> PushItem {
            .rejected(seq: e.seq, error: ErrorDetail(code: code, message: message))
        }
        guard let key = e.idempotencyKey, isKey(key, maxBytes: 128) else {
            return reject(.invalidIdempotencyKey, "event \(e.seq) needs an idempotency_key of 1 to 128 printable ASCII characters without spaces (a UUID).")
        }
        guard let entity = e.entity, isEntityName(entity) else {
            return reject(.invalidEntity, "event \(e.seq) has entity \(quoted(e.entity)); an entity name is 1 to 32 lowercase letters or underscores.")
        }
        guard let entityID = e.entityID, isKey(entityID, maxBytes: 64) else {
            return reject(.invalidEntityID, "event \(e.seq) has entity_id \(quoted(e.entityID)); an entity_id is 1 to 64 printable ASCII characters without spaces.")
        }
        guard let op = e.op, isEntityName(op) else {
            return reject(.invalidOp, "event \(e.seq) has op \(quoted(e.op)); use create, update, delete or restore.")
        }
        guard let raw = e.fields else {
            return reject(.invalidFields, "event \(e.seq) needs \"fields\": an object of {\"v\": value, \"c\": clock}.")
        }
        guard e.fieldCount <= maxEventFields else {
            return reject(.tooManyFields, "event \(e.seq) sets \(e.fieldCount) fields; at most \(maxEventFields) are allowed per event.")
        }
        var fields: [ValidField] = []
        fields.reserveCapacity(raw.count)
        for (name, field) in raw {
            guard isFieldName(name) else {
                return reject(.invalidFieldName, "event \(e.seq) has field \(quoted(name)); a field name is a lowercase letter or underscore then up to 63 lowercase letters, digits or underscores.")
            }
            guard let text = field.clock, let hlc = SyncRules.clock(text) else {
                return reject(.invalidClock, "event \(e.seq) field \"\(name)\" has clock \(quoted(field.clock)); a clock looks like 001763719000000-00000-<device id>.")
            }
            if sealed {
                guard case .text(let s)? = field.value, AccountKey.looksSealed(s) else {
                    return reject(.notSealed, "event \(e.seq) field \"\(name)\" holds a value in the clear, but this account's history is encrypted end to end; every value must be sealed with the account key (update gymlog on that device).")
                }
                guard s.utf8.count <= maxSealedValueBytes else {
                    return reject(.valueTooLarge, "event \(e.seq) field \"\(name)\" holds a sealed value of \(s.utf8.count) bytes; a sealed value may hold at most \(maxSealedValueBytes) bytes.")
                }
                fields.append(ValidField(name: name, value: .text(s), clock: hlc, clockText: text))
                continue
            }
            if let text = field.inexactNumber {
                let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
                return reject(.invalidValue, "event \(e.seq) field \"\(name)\" holds the number \(shown), which the server cannot store exactly (a 64-bit float makes it \(ExactNumber.nearestDouble(text))); send an integer from -9223372036854775808 to 9223372036854775807, a decimal in its shortest round-trip form (such as 0.1 or 1e+20), or the value as a string.")
            }
            guard let value = field.value else {
                return reject(.invalidValue, "event \(e.seq) field \"\(name)\" needs \"v\": null, a number or a string.")
            }
            if case .text(let s) = value, s.utf8.count > maxValueBytes {
                return reject(.valueTooLarge, "event \(e.seq) field \"\(name)\" holds \(s.utf8.count) bytes; a value may hold at most \(maxValueBytes) bytes.")
            }
            // Neither store keeps a NUL intact (PostgreSQL refuses it, SQLite cuts the text
            // there): reject the event rather than store something other than what was sent.
            if case .text(let s) = value, s.utf8.contains(0) {
                return reject(.invalidValue, "event \(e.seq) field \"\(name)\" contains a NUL character (\\u0000), which cannot be stored; remove it from the value.")
            }
            if let problem = FieldRules.problem(entity: entity, field: name, value: value) {
                return reject(.invalidValue, "event \(e.seq) field \"\(name)\" holds \(shown(value)); \(problem).")
            }
            fields.append(ValidField(name: name, value: value, clock: hlc, clockText: text))
        }
        fields.sort { $0.name < $1.name }
        return .valid(ValidEvent(seq: e.seq, idempotencyKey: key, entity: entity, entityID: entityID, fields: fields))
    }

    /// A value as the message shows it: JSON, cut at 40 characters.
    private static func shown(_ value: FieldValue) -> String {
        var json = ""
        appendJSON(value, to: &json)
        return json.count > 40 ? String(json.prefix(40)) + "…" : json
    }

    private static func quoted(_ s: String?) -> String {
        guard let s else { return "(missing)" }
        return "\"" + String(s.prefix(80)) + (s.count > 80 ? "…" : "") + "\""
    }
}

/// "2 hours 5 minutes": the largest one or two units of a duration, for people.
func describeDuration(ms: Int64) -> String {
    var rest = max(0, ms / 1000)
    var parts: [String] = []
    for (name, size) in [("day", Int64(86_400)), ("hour", 3_600), ("minute", 60), ("second", 1)] {
        let n = rest / size
        rest %= size
        if n > 0 { parts.append("\(n) \(name)\(n == 1 ? "" : "s")") }
        if parts.count == 2 || (!parts.isEmpty && n == 0) { break }
    }
    return parts.isEmpty ? "0 seconds" : parts.joined(separator: " ")
}
