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

    @Test("receive: the wall time wins when it is ahead of both clocks")
    func receiveWallTimeAhead() {
        let local = HLC(millis: 1000, counter: 3, node: "a"), remote = HLC(millis: 1500, counter: 9, node: "b")
        #expect(local.receiving(remote, now: 2000, node: "a") == HLC(millis: 2000, counter: 0, node: "a"))
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

    @Test("receive: our own clock ahead keeps its time and counts up")
    func receiveLocalAhead() {
        let local = HLC(millis: 3000, counter: 3, node: "a"), remote = HLC(millis: 1000, counter: 9, node: "b")
        #expect(local.receiving(remote, now: 2000, node: "a") == HLC(millis: 3000, counter: 4, node: "a"))
    }

    @Test("receive: equal times take the larger counter plus one")
    func receiveSameMillis() {
        let local = HLC(millis: 3000, counter: 3, node: "a"), remote = HLC(millis: 3000, counter: 9, node: "b")
        #expect(local.receiving(remote, now: 2000, node: "a") == HLC(millis: 3000, counter: 10, node: "a"))
        #expect(remote.receiving(local, now: 3000, node: "b") == HLC(millis: 3000, counter: 10, node: "b"))
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
        #expect(HLC("12-00001-x") == nil && HLC("000000000000001-1-x") == nil)
    }
}
