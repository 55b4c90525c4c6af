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
        newID: { UUID() }
    )
}

/// Lower-cases, trims and collapses spaces so `Bench  Press` and `bench press` are one key.
public func nameKey(_ name: String) -> String {
    name.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
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
