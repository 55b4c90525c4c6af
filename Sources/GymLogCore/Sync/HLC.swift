/// A hybrid logical clock timestamp: wall milliseconds, a counter for events in the same
/// millisecond, and the device id as the final tie-breaker.
///
/// The string form (`001763719000000-00000-<device>`) sorts exactly like the value, so
/// SQL can compare clocks as TEXT.
public struct HLC: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    public var millis: Int64
    public var counter: Int
    public var node: String

    public init(millis: Int64, counter: Int, node: String) {
        self.millis = millis; self.counter = counter; self.node = node
    }

    /// The clock that every real clock beats.
    public static let zero = HLC(millis: 0, counter: 0, node: "")

    public static func < (a: HLC, b: HLC) -> Bool {
        (a.millis, a.counter, a.node) < (b.millis, b.counter, b.node)
    }

    /// `001795849771766-00000-node`: the millis and the counter zero-padded, so clocks sort as text.
    public var description: String {
        // Written byte by byte into one buffer: formatted for every write (the row's clocks and its
        // outbox payload), the padded concatenation of five strings showed in a logged set's profile.
        String(unsafeUninitializedCapacity: 42 + node.utf8.count) { buffer in
            var end = 0
            func put(_ value: UInt64, width: Int) {
                var digits = 1, rest = value / 10
                while rest > 0 { digits += 1; rest /= 10 }
                var v = value
                for i in stride(from: end + max(width, digits) - 1, through: end, by: -1) {
                    buffer[i] = UInt8(ascii: "0") + UInt8(v % 10)
                    v /= 10
                }
                end += max(width, digits)
            }
            put(UInt64(max(0, millis)), width: 15)
            buffer[end] = UInt8(ascii: "-"); end += 1
            put(UInt64(max(0, counter)), width: 5)
            buffer[end] = UInt8(ascii: "-"); end += 1
            for byte in node.utf8 { buffer[end] = byte; end += 1 }
            return end
        }
    }

    public init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 15, parts[1].count == 5,
              let ms = Int64(parts[0]), let c = Int(parts[1]), ms >= 0, c >= 0 else { return nil }
        self.init(millis: ms, counter: c, node: String(parts[2]))
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let clock = HLC(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a clock: \(text)"))
        }
        self = clock
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    /// The next local clock after `self`, given the wall time now (Kulkarni et al., send/local event).
    public func tick(now: Int64, node: String) -> HLC {
        if now > millis { return HLC(millis: now, counter: 0, node: node) }
        return HLC(millis: millis, counter: counter + 1, node: node)
    }

    /// The local clock after seeing a remote clock (receive event). A skewed remote clock
    /// moves us forward, never backward; `now` keeps us close to real time.
    public func receiving(_ remote: HLC, now: Int64, node: String) -> HLC {
        let top = max(millis, remote.millis, now)
        let counter: Int
        if top == millis && top == remote.millis { counter = max(self.counter, remote.counter) + 1 }
        else if top == millis { counter = self.counter + 1 }
        else if top == remote.millis { counter = remote.counter + 1 }
        else { counter = 0 }
        return HLC(millis: top, counter: counter, node: node)
    }
}
