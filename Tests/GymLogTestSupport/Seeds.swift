import Foundation
import SplitMix

/// The seed and length of every randomized suite (the simulation, the history models): one
/// seed replays a run, whichever suite printed it.
public enum Sim {
    public static let environment = ProcessInfo.processInfo.environment

    /// `GYMLOG_RELIABILITY_SCALE` multiplies the work of every randomized reliability suite
    /// (CI runs 1; `GYMLOG_RELIABILITY_SCALE=20 ./scripts/test --filter Simulation` is a long run).
    public static let scale = max(1, Int(environment["GYMLOG_RELIABILITY_SCALE"] ?? "") ?? 1)

    /// `GYMLOG_RELIABILITY_SEED` replays a run; otherwise each run draws a new seed and prints it.
    public static func seed(offset: UInt64 = 0) -> UInt64 {
        if let text = environment["GYMLOG_RELIABILITY_SEED"], let seed = UInt64(text) { return seed &+ offset }
        return UInt64.random(in: 1..<(1 << 48))
    }

    /// How a failure names a run of `seed`, with how to replay it.
    public static func replay(seed: UInt64) -> String { "seed=\(seed) scale=\(scale) (rerun with GYMLOG_RELIABILITY_SEED=\(seed))" }
}

/// Draws from a seeded generator, as every randomized suite draws.
extension SplitMix64 {
    public mutating func int(_ range: Range<Int>) -> Int { Int(next() % UInt64(range.count)) + range.lowerBound }
    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int(next() % UInt64(range.count)) + range.lowerBound }
    public mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
    public mutating func pick<T>(_ items: [T]) -> T { items[int(0..<items.count)] }
    /// A version-7 UUID from the generator instead of the system's random source.
    public mutating func uuid(millis: Int64) -> UUID {
        let a = next(), b = next()
        var bytes = [UInt8](repeating: 0, count: 16)
        let ms = UInt64(max(0, millis))
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: ms >> (8 * UInt64(5 - i))) }
        for i in 6..<8 { bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * UInt64(i))) }
        for i in 8..<16 { bytes[i] = UInt8(truncatingIfNeeded: b >> (8 * UInt64(i - 8))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

