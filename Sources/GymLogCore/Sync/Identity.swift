import Foundation

/// Where ids and time come from. Injected so the core and store are deterministic in tests.
public struct Environment: Sendable {
    /// Milliseconds since 1970, UTC.
    public var now: @Sendable () -> Int64
    /// The local UTC offset at a given instant, in seconds.
    public var utcOffset: @Sendable (Int64) -> Int
    public var newID: @Sendable () -> UUID

    public init(now: @escaping @Sendable () -> Int64, utcOffset: @escaping @Sendable (Int64) -> Int,
                newID: @escaping @Sendable () -> UUID) {
        self.now = now; self.utcOffset = utcOffset; self.newID = newID
    }

    /// The real clock, the process time zone and random UUIDs.
    public static let live = Environment(
        now: { Int64((Date().timeIntervalSince1970 * 1000).rounded()) },
        utcOffset: { TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0) / 1000)) },
        newID: { UUID.timeOrdered(millis: Int64((Date().timeIntervalSince1970 * 1000).rounded())) }
    )
}

/// Lower-cases, trims and collapses spaces so `Bench  Press` and `bench press` are one key.
public func nameKey(_ name: String) -> String {
    name.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
}

/// The key typed names are matched by: case, accents, punctuation and spaces folded away, so
/// `Pull-up`, `pull up` and `PULLUP` are one key and `developpe` is `Développé`'s.
///
/// Lookup only: ids derive from `nameKey`, which two devices and every version must compute
/// alike, so this key may grow smarter without moving anyone's exercises.
public func matchKey(_ name: String) -> String { matchWords(name).joined() }

/// The folded words of a name (`T-Bar Row` -> `t`, `bar`, `row`), for word-prefix matching.
/// A name with no letter or digit (`💪`) is its own single word.
public func matchWords(_ name: String) -> [Substring] {
    let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    let words = folded.split(whereSeparator: { !($0.isLetter || $0.isNumber) })
    if words.isEmpty {
        let key = nameKey(name)
        return key.isEmpty ? [] : [Substring(key)]
    }
    return words
}

/// A name-derived UUID (version 5 layout over a FNV/SplitMix hash; not cryptographic).
///
/// Exercises and aliases get ids from their normalised name so that two devices creating
/// "Bench Press" offline converge on one row instead of two look-alikes.
public func derivedID(namespace: String, key: String) -> UUID {
    var h1: UInt64 = 0xcbf29ce484222325, h2: UInt64 = 0x84222325cbf29ce4
    for b in (namespace + "\u{0}" + key).utf8 {
        h1 = (h1 ^ UInt64(b)) &* 0x100000001b3
        h2 = (h2 &+ UInt64(b)) &* 0x9E3779B97F4A7C15
        h2 ^= h2 >> 29
    }
    func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E3779B97F4A7C15
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
    let a = mix(h1 ^ mix(h2)), b = mix(h2 ^ a)
    var bytes = [UInt8](repeating: 0, count: 16)
    for i in 0..<8 { bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * UInt64(i))) }
    for i in 0..<8 { bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * UInt64(i))) }
    bytes[6] = (bytes[6] & 0x0F) | 0x50
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                       bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
}

extension UUID {
    /// Whether this id is one `derivedID` made (its version nibble is 5; gymlog's random ids
    /// are version 7, its keyed ids version 8): an id a server could test guesses against.
    public var isDerived: Bool { uuid.6 >> 4 == 5 }
}

/// Parses the 36-character UUID text form (either case) without Foundation's sscanf path;
/// reading rows back (export streams millions) parses several ids per row.
public func parseUUID(_ text: String) -> UUID? {
    var text = text
    return text.withUTF8 { bytes -> UUID? in
        guard bytes.count == 36 else { return nil }
        var out = [UInt8](repeating: 0, count: 16)
        var i = 0, o = 0
        @inline(__always) func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 97...102: c - 87
            case 65...70: c - 55
            default: nil
            }
        }
        while i < 36 {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard bytes[i] == 45 else { return nil }
                i += 1
                continue
            }
            guard let hi = nibble(bytes[i]), let lo = nibble(bytes[i + 1]) else { return nil }
            out[o] = hi << 4 | lo
            o += 1; i += 2
        }
        return UUID(uuid: (out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7],
                           out[8], out[9], out[10], out[11], out[12], out[13], out[14], out[15]))
    }
}

extension UUID {
    /// The lower-case text form ids are stored and sent in, formatted without `uuidString`'s
    /// printf path (it runs several times for every logged set).
    public var key: String {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: uuid) { raw in
            String(unsafeUninitializedCapacity: 36) { out in
                var o = 0
                for (i, byte) in raw.enumerated() {
                    if i == 4 || i == 6 || i == 8 || i == 10 { out[o] = 45; o += 1 }
                    out[o] = hex[Int(byte >> 4)]; out[o + 1] = hex[Int(byte & 0x0F)]
                    o += 2
                }
                return 36
            }
        }
    }

    /// A version-7 UUID: 48 bits of Unix milliseconds, then random bits. Ids of new rows sort
    /// by creation time, so inserts land on the hot end of each index instead of a random page.
    public static func timeOrdered(millis: Int64) -> UUID {
        var bytes = UUID().uuid
        let ms = UInt64(max(0, millis))
        bytes.0 = UInt8(truncatingIfNeeded: ms >> 40); bytes.1 = UInt8(truncatingIfNeeded: ms >> 32)
        bytes.2 = UInt8(truncatingIfNeeded: ms >> 24); bytes.3 = UInt8(truncatingIfNeeded: ms >> 16)
        bytes.4 = UInt8(truncatingIfNeeded: ms >> 8); bytes.5 = UInt8(truncatingIfNeeded: ms)
        bytes.6 = (bytes.6 & 0x0F) | 0x70
        bytes.8 = (bytes.8 & 0x3F) | 0x80
        return UUID(uuid: bytes)
    }
}
