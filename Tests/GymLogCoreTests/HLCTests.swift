import Testing
import GymLogCore

@Suite("HLC: tick, receive and ordering")
struct HLCTests {
    @Test("tick takes the wall time when it moved on, and resets the counter")
    func tickAdvancesToWallTime() {
        // Given a clock at 1000 ms with a counter
        let clock = HLC(millis: 1000, counter: 7, node: "a")
        // When the wall clock has moved past it
        let next = clock.tick(now: 1005, node: "b")
        // Then the clock jumps to now, counter 0, stamped with the local node
        #expect(next == HLC(millis: 1005, counter: 0, node: "b"))
    }

    @Test("tick counts up within one millisecond and when the wall clock went back", arguments: [1000, 990])
    func tickCountsWhenWallTimeDidNotMove(now: Int) {
        // Given a clock at 1000 ms
        let clock = HLC(millis: 1000, counter: 7, node: "a")
        // When the wall time is the same millisecond or behind (NTP stepped back)
        let next = clock.tick(now: Int64(now), node: "a")
        // Then time never runs backwards: same millis, next counter
        #expect(next == HLC(millis: 1000, counter: 8, node: "a"))
        #expect(next > clock)
    }

    /// (our clock, the remote clock, wall time, the clock after receiving)
    static let receiveCases: [(HLC, HLC, Int64, HLC)] = [
        // The wall time ahead of both clocks wins, counter reset.
        (HLC(millis: 1000, counter: 3, node: "a"), HLC(millis: 1500, counter: 9, node: "b"), 2000,
         HLC(millis: 2000, counter: 0, node: "a")),
        // Our own clock ahead keeps its time and counts up.
        (HLC(millis: 3000, counter: 3, node: "a"), HLC(millis: 1000, counter: 9, node: "b"), 2000,
         HLC(millis: 3000, counter: 4, node: "a")),
        // Equal times take the larger counter plus one, whichever side holds it.
        (HLC(millis: 3000, counter: 3, node: "a"), HLC(millis: 3000, counter: 9, node: "b"), 2000,
         HLC(millis: 3000, counter: 10, node: "a")),
        (HLC(millis: 3000, counter: 9, node: "b"), HLC(millis: 3000, counter: 3, node: "a"), 3000,
         HLC(millis: 3000, counter: 10, node: "b")),
    ]

    @Test("receive: a wall time ahead wins; else the later clock counts up, equal times past the larger counter",
          arguments: receiveCases)
    func receive(local: HLC, remote: HLC, now: Int64, expected: HLC) {
        // Given our clock and a remote one
        // When we receive the remote clock at wall time `now`
        let next = local.receiving(remote, now: now, node: local.node)
        // Then the result is the expected clock, stamped with our node
        #expect(next == expected)
    }

    @Test("receive: a remote clock ahead of us (skewed) pulls us forward, past its counter")
    func receiveRemoteAhead() {
        // Given a remote device whose clock runs ahead of ours and of the wall time
        let local = HLC(millis: 1000, counter: 3, node: "a"), remote = HLC(millis: 5000, counter: 9, node: "b")
        // When we receive it
        let next = local.receiving(remote, now: 1200, node: "a")
        // Then we move to its time, one count past it, so our next write orders after it
        #expect(next == HLC(millis: 5000, counter: 10, node: "a"))
        #expect(next > remote)
    }

    @Test("the text form sorts like the value and parses back")
    func textFormOrdersLikeValue() {
        // Given clocks that differ in millis, counter and node
        let clocks = [HLC(millis: 9, counter: 99_999, node: "z"), HLC(millis: 10, counter: 0, node: "a"),
                      HLC(millis: 10, counter: 1, node: "a"), HLC(millis: 10, counter: 1, node: "b"),
                      HLC(millis: 1_763_719_000_000, counter: 2, node: "dev")]
        // Then their strings sort in the same order, and each parses back to itself
        #expect(clocks.map(\.description) == clocks.map(\.description).sorted())
        #expect(clocks == clocks.sorted())
        #expect(clocks.map { HLC($0.description) } == clocks)
        #expect(HLC(millis: 1_763_719_000_000, counter: 2, node: "dev").description == "001763719000000-00002-dev")
        #expect(HLC(millis: 0, counter: 0, node: "").description == "000000000000000-00000-")
        // Wider than the padding: written whole, never cut.
        #expect(HLC(millis: 1_234_567_890_123_456, counter: 123_456, node: "é").description == "1234567890123456-123456-é")
        #expect(HLC("12-00001-x") == nil && HLC("000000000000001-1-x") == nil)
    }
}
