import Foundation
import GymLogCore

/// A clock tests move by hand, and sequential ids, so a run writes the same rows every time.
public final class FakeClock: @unchecked Sendable {
    private let lock = NSLock()
    private var millis: Int64
    private var issued: UInt64 = 0
    private let idVersion: Int

    /// Starts at `millis` (default 2025-11-21T04:40:00Z); ids are `00000000-0000-V000-8000-<n>`
    /// with `idVersion` as V (4, or 7 for time-ordered ones).
    public init(millis: Int64 = 1_763_700_000_000, idVersion: Int = 4) {
        self.millis = millis
        self.idVersion = idVersion
    }

    /// The current time, in milliseconds since 1970.
    public func now() -> Int64 { lock.withLock { millis } }
    public func set(_ value: Int64) { lock.withLock { millis = value } }
    public func advance(_ ms: Int64) { lock.withLock { millis += ms } }
    public func advance(minutes: Int64) { advance(minutes * 60_000) }

    /// The next sequential id.
    public func newID() -> UUID {
        lock.withLock {
            issued += 1
            return UUID(uuidString: String(format: "00000000-0000-%d000-8000-%012llx", idVersion, issued))!
        }
    }

    /// An environment on this clock, one hour east of UTC, with sequential ids.
    public var environment: Environment { environment(utcOffset: 3600) }

    /// An environment on this clock with a fixed UTC offset; ids are sequential unless `newID` is given.
    public func environment(utcOffset: Int, newID: (@Sendable () -> UUID)? = nil) -> Environment {
        Environment(now: { [self] in now() }, utcOffset: { _ in utcOffset }, newID: newID ?? { [self] in self.newID() })
    }
}
