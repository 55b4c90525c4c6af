import Foundation
import GymLogCore
@testable import GymLogServer
@testable import GymLogServerCore
import GymLogWire
import GymLogTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// Runs `body` against the in-process app of `backend` with one user, alice, and her token.
private func withAlice(_ backend: Backend, configure: (inout ServerConfig) -> Void = { _ in },
                       _ body: @Sendable (Harness, any TestClientProtocol, String) async throws -> Void) async throws {
    try await Harness.with(backend, configure: configure) { h in
        let token = try await h.addUser("alice")
        try await h.router { client in try await body(h, client, token) }
    }
}

/// The storage conformance suite, with EndpointTests: every protocol rule and every error,
/// through the real router, on every backend in `Backend.conformance` (memory, SQLite and PostgreSQL).
@Suite("Push and pull protocol")
struct ProtocolTests {
    @Test(arguments: Backend.conformance) func pushThenPull(_ backend: Backend) async throws {
        try await withAlice(backend) { h, client, token in
            let a = Device()
            // Given two events, when pushed, then both are applied and acked.
            let events = [
                event(1, "w1", entity: "workouts", op: "create", ["started_at": (.int(testNow), a.clock(testNow - 10)), "name": (.text("Push day"), a.clock(testNow - 10))]),
                event(2, "s1", op: "create", ["reps": (.int(5), a.clock(testNow - 5)), "weight": (.text("100"), a.clock(testNow - 5)),
                                              "rpe": (.real(8.5), a.clock(testNow - 5)), "note": (.null, a.clock(testNow - 5)),
                                              "future_field": (.text("kept"), a.clock(testNow - 5))]),
            ]
            let r = try await client.push(token, device: a, events)
            #expect(r.status == .ok)
            let push: PushResponse = try decodeBody(r)
            #expect(push.lastAppliedSeq == 2)
            #expect(push.results == [PushResult(seq: 1, status: .applied), PushResult(seq: 2, status: .applied)])
            let epoch = try await h.storage.epoch()
            #expect(push.epoch == epoch && push.cursor == "\(epoch):2")

            // Then a pull from the start returns both rows, one item per row, with every field.
            let page: PullResponse = try decodeBody(try await client.pull(token, device: a))
            #expect(page.epoch == epoch && page.cursor == "\(epoch):2" && !page.hasMore && page.lastAppliedSeq == 2)
            #expect(page.changes.map(\.entityID) == ["w1", "s1"])
            let s1 = page.changes[1]
            #expect(s1.entity == "sets")
            #expect(s1.fields["reps"] == WireField(v: .int(5), c: a.clock(testNow - 5)))
            #expect(s1.fields["rpe"]?.v == .real(8.5))
            #expect(s1.fields["note"]?.v == .null)
            #expect(s1.fields["future_field"]?.v == .text("kept"))

            // And a pull from the returned cursor is empty.
            let next: PullResponse = try decodeBody(try await client.pull(token, device: a, cursor: page.cursor))
            #expect(next.changes.isEmpty && next.cursor == page.cursor && !next.hasMore)
        }
    }

    @Test(arguments: Backend.conformance) func samePushTwiceIsAllDuplicate(_ backend: Backend) async throws {
        try await withAlice(backend) { h, client, token in
            let a = Device()
            let events = (1...5).map { event(Int64($0), "s\($0)", ["reps": (.int(Int64($0)), a.clock(testNow - 100 + Int64($0)))]) }
            let first: PushResponse = try decodeBody(try await client.push(token, device: a, events))
            let before = try await client.pullAll(token, device: a)
            // When the same push arrives again (a retry after a lost response)...
            let second: PushResponse = try decodeBody(try await client.push(token, device: a, events))
            // ...then every event is a duplicate, the ack is the same, and nothing changed.
            #expect(second.results.allSatisfy { $0.status == .duplicate })
            #expect(second.lastAppliedSeq == 5 && second.cursor == first.cursor)
            let after = try await client.pullAll(token, device: a)
            #expect(after.cursor == before.cursor)
            #expect(merged(after.changes) == merged(before.changes))
        }
    }

    @Test(arguments: Backend.conformance) func knownIdempotencyKeyUnderNewSeqIsDuplicateAndAdvances(_ backend: Backend) async throws {
        try await withAlice(backend) { h, client, token in
            let a = Device()
            let key = UUID().uuidString.lowercased()
            let clock = a.clock(testNow - 9)
            _ = try await client.push(token, device: a, [event(1, "s1", key: key, ["reps": (.int(5), clock)])])
            // Given the client lost its state and re-numbered the same event as seq 2 (the same
            // content: with other content it is key_reused, see StorageConformanceTests).
            let again: PushResponse = try decodeBody(try await client.push(token, device: a, [event(2, "s1", key: key, ["reps": (.int(5), clock)])]))
            #expect(again.results == [PushResult(seq: 2, status: .duplicate)])
            #expect(again.lastAppliedSeq == 2 && again.cursor.hasSuffix(":1"))
            let page: PullResponse = try decodeBody(try await client.pull(token, device: a))
            #expect(page.changes.first?.fields["reps"]?.v == .int(5))
        }
    }

    @Test(arguments: Backend.conformance) func gapRejectsTheWholeRequest(_ backend: Backend) async throws {
        try await withAlice(backend) { h, client, token in
            let a = Device()
            _ = try await client.push(token, device: a, [event(1, "s1", ["reps": (.int(1), a.clock(testNow - 9))])])
            // When a push holds seq 2 then skips to 4...
            let r = try await client.push(token, device: a, [event(2, "s2", ["reps": (.int(2), a.clock(testNow - 8))]),
                                                             event(4, "s4", ["reps": (.int(4), a.clock(testNow - 7))])])
            // ...then it is a 409 naming the ack, and not even seq 2 was committed.
            let body = try expectError(r, .conflict, "sequence_gap")
            #expect(body.lastAppliedSeq == 1)
            let page: PullResponse = try decodeBody(try await client.pull(token, device: a))
            #expect(page.changes.map(\.entityID) == ["s1"] && page.lastAppliedSeq == 1)
            // A push starting right after the ack goes through.
            let ok: PushResponse = try decodeBody(try await client.push(token, device: a, [event(2, "s2", ["reps": (.int(2), a.clock(testNow - 8))])]))
            #expect(ok.lastAppliedSeq == 2)
            // A first push that does not start at 1 is a gap too.
            try expectError(try await client.push(token, device: Device(), [event(3, "x", [:])]), .conflict, "sequence_gap")
        }
    }

    @Test(arguments: Backend.conformance) func aTextValueWithANulCharacterIsRejectedNotTruncated(_ backend: Backend) async throws {
        try await withAlice(backend) { h, client, token in
            let a = Device()
            let c = a.clock(testNow - 50)
            let r: PushResponse = try decodeBody(try await client.push(token, device: a, [
                event(1, "x", ["note": (.text("before\u{0}after"), c)]),
                event(2, "y", ["note": (.text("fine"), c)]),
            ]))
            #expect(r.lastAppliedSeq == 2)
            #expect(r.results[0].status == .rejected && r.results[0].error?.code == "invalid_value")
            #expect(r.results[0].error?.message.contains("NUL") == true)
            #expect(r.results[1].status == .applied)
        }
    }

    @Test(arguments: Backend.conformance) func rejectedEventsConsumeTheirSeqButNotTheirKey(_ backend: Backend) async throws {
        try await withAlice(backend) { h, client, token in
            let a = Device()
            let c = a.clock(testNow - 50)
            let cases: [(PushEvent, String)] = [
                (event(1, "x", entity: "Sets", ["reps": (.int(1), c)]), "invalid_entity"),
                (event(2, "x", entity: String(repeating: "a", count: 33), ["reps": (.int(1), c)]), "invalid_entity"),
                (event(3, "x", ["Reps": (.int(1), c)]), "invalid_field_name"),
                (event(4, "x", ["1reps": (.int(1), c)]), "invalid_field_name"),
                (event(5, "x", ["note": (.text(String(repeating: "n", count: 16 * 1024 + 1)), c)]), "value_too_large"),
                (event(6, "x", Dictionary(uniqueKeysWithValues: (0...64).map { ("f\($0)", (FieldValue.int(1), c)) })), "too_many_fields"),
                (event(7, String(repeating: "i", count: 65), ["reps": (.int(1), c)]), "invalid_entity_id"),
                (event(8, "x", key: "", ["reps": (.int(1), c)]), "invalid_idempotency_key"),
                (event(9, "x", op: "Create!", ["reps": (.int(1), c)]), "invalid_op"),
            ]
            let good = event(10, "ok", ["note": (.text(String(repeating: "n", count: 16 * 1024)), c)])
            let r: PushResponse = try decodeBody(try await client.push(token, device: a, cases.map(\.0) + [good]))
            #expect(r.lastAppliedSeq == 10)
            for (i, (_, code)) in cases.enumerated() {
                #expect(r.results[i].status == .rejected)
                #expect(r.results[i].error?.code == code, "event \(i + 1)")
            }
            #expect(r.results[9] == PushResult(seq: 10, status: .applied))

            // Clocks and values that the typed client cannot even produce: raw JSON.
            let raw = """
            {"device_id":"\(a.id)","events":[
             {"seq":11,"idempotency_key":"k11","entity":"sets","entity_id":"x","op":"update","fields":{"reps":{"v":1,"c":"yesterday"}}},
             {"seq":12,"idempotency_key":"k12","entity":"sets","entity_id":"x","op":"update","fields":{"reps":{"v":1}}},
             {"seq":13,"idempotency_key":"k13","entity":"sets","entity_id":"x","op":"update","fields":{"reps":{"v":true,"c":"\(c)"}}},
             {"seq":14,"idempotency_key":"k14","entity":"sets","entity_id":"x","op":"update","fields":{"reps":{"v":[1],"c":"\(c)"}}},
             {"seq":15,"idempotency_key":"k15","entity":"sets","entity_id":"x","op":"update","fields":{"reps":{"c":"\(c)"}}},
             {"seq":16,"idempotency_key":"k16","entity":"sets","entity_id":"x","op":"update","fields":[1]},
             {"seq":17,"idempotency_key":"k17","entity":"sets","entity_id":"x","op":"update","fields":{"reps":{"v":1,"c":"000001763719000000-00000-"}}},
             {"seq":18,"entity":"sets","entity_id":"x","op":"update","fields":{}},
             {"seq":19,"idempotency_key":"k19","entity":"sets","entity_id":"x","fields":{"reps":{"v":1,"c":"\(c)"}}}
            ]}
            """
            let rr: PushResponse = try decodeBody(try await client.execute(uri: "/v1/push", method: .post, headers: authHeaders(token), body: ByteBuffer(string: raw)))
            #expect(rr.results.map(\.error?.code) == ["invalid_clock", "invalid_clock", "invalid_value", "invalid_value", "invalid_value",
                                                       "invalid_fields", "invalid_clock", "invalid_idempotency_key", "invalid_op"])
            #expect(rr.lastAppliedSeq == 19)
            // The message's example clock is itself a clock the server takes, with its device id filled in
            let message = try #require(rr.results.first?.error?.message)
            let example = try #require(message.split(separator: " ").first { $0.hasSuffix("-<device") }).dropLast("<device".count)
            #expect(HLC(example + "device-1") != nil, "\(message)")

            // Nothing of the rejected events was stored.
            let page: PullResponse = try decodeBody(try await client.pull(token, device: a))
            #expect(page.changes.map(\.entityID) == ["ok"])

            // A rejected event's key was not recorded: re-sent valid under a new seq, it applies.
            let retry = event(20, "x", key: "k11", ["reps": (.int(1), c)])
            let rs: PushResponse = try decodeBody(try await client.push(token, device: a, [retry]))
            #expect(rs.results == [PushResult(seq: 20, status: .applied)])
        }
    }

    /// Issue 27, defect 3: a raw client stored `"reps": 1e30`, and every device's sync then
    /// crashed on it. A value outside its field's rule (`FieldRules`) rejects its event; the
    /// rest of the push applies, and a field the server does not know is kept as sent.
    @Test(arguments: Backend.conformance) func valuesOutsideTheirFieldsRuleAreRejected(_ backend: Backend) async throws {
        try await withAlice(backend) { h, client, token in
            let a = Device()
            let c = a.clock(testNow - 50)
            let poison: [(String, FieldValue)] = [
                ("reps", .real(1e30)), ("reps", .int(-1)), ("reps", .int(10_000)), ("reps", .text("5")),
                ("weight", .text("heavy")), ("weight", .text("2000.5")), ("weight", .text("1.0001")), ("rpe", .text("11")),
                ("kind", .text("bogus")), ("bodyweight", .int(2)), ("workout_id", .int(5)), ("workout_id", .null),
                ("performed_at", .real(1e20)), ("utc_offset", .int(100_000)), ("duration_s", .int(0)), ("weight_unit", .text("stone")),
                ("rpe", .text("8.3")), ("exercise_id", .text("not-a-uuid")),
                ("rir", .text("10.5")), ("rir", .text("-1")), ("rir", .text("1.3")),
            ]
            var events = poison.enumerated().map { i, p in event(Int64(i + 1), "p\(i + 1)", [p.0: (p.1, c)]) }
            let good: [String: (FieldValue, HLC)] = [
                "reps": (.int(5), c), "weight": (.text("102.5"), c), "rpe": (.text("8.5"), c), "rir": (.text("0"), c), "kind": (.text("warmup"), c),
                "bodyweight": (.int(0), c), "workout_id": (.text(UUID().uuidString.lowercased()), c), "performed_at": (.int(1_763_719_000_000), c),
                "weight_unit": (.text("lb"), c), "x_future_field": (.real(1e30), c), "deleted_at": (.null, c),
            ]
            events.append(event(Int64(poison.count + 1), "ok", good))
            let r: PushResponse = try decodeBody(try await client.push(token, device: a, events))
            for (i, p) in poison.enumerated() {
                #expect(r.results[i].status == .rejected && r.results[i].error?.code == "invalid_value", "\(p): \(r.results[i])")
                #expect(r.results[i].error?.message.contains("field \"\(p.0)\"") == true, "\(r.results[i])")
            }
            #expect(r.results[0].error?.message.contains("a set's reps is a whole number from 0 to 9999") == true, "\(r.results[0])")
            #expect(r.results.last == PushResult(seq: Int64(poison.count + 1), status: .applied))
            let page: PullResponse = try decodeBody(try await client.pull(token, device: a))
            #expect(page.changes.map(\.entityID) == ["ok"])
            #expect(page.changes.first?.fields.count == good.count)
        }
    }

    @Test(arguments: Backend.conformance) func lastWriterWinsPerField(_ backend: Backend) async throws {
        try await withAlice(backend) { h, client, token in
            let a = Device("aaaa"), b = Device("bbbb")
            let t = testNow - 60_000
            _ = try await client.push(token, device: a, [event(1, "s1", ["reps": (.int(5), a.clock(t)), "note": (.text("a"), a.clock(t))])])
            let start: PullResponse = try decodeBody(try await client.pull(token, device: a))

            // An older clock loses: nothing changes, and the change counter does not move.
            let older: PushResponse = try decodeBody(try await client.push(token, device: b, [event(1, "s1", ["reps": (.int(9), b.clock(t - 1))])]))
            #expect(older.results[0].status == .applied && older.cursor == start.cursor)
            // An equal clock is the same write seen again: a no-op.
            let equal: PushResponse = try decodeBody(try await client.push(token, device: b, [event(2, "s1", ["reps": (.int(9), a.clock(t))])]))
            #expect(equal.cursor == start.cursor)
            // Same millis, higher counter, or same millis and counter with a larger node: newer.
            _ = try await client.push(token, device: b, [event(3, "s1", ["reps": (.int(6), b.clock(t))])])  // "bbbb" > "aaaa"
            // A newer clock on one field wins that field only.
            _ = try await client.push(token, device: b, [event(4, "s1", ["note": (.text("b"), b.clock(t + 1)), "reps": (.int(1), b.clock(t - 5))])])

            let all = try await client.pullAll(token, device: a)
            let state = merged(all.changes)
            #expect(state["sets/s1/reps"] == WireField(v: .int(6), c: b.clock(t)))
            #expect(state["sets/s1/note"] == WireField(v: .text("b"), c: b.clock(t + 1)))
            #expect(all.cursor.hasSuffix(":3"))
            // Incrementally, a pull from the first cursor sees only the two winning writes.
            let since = try await client.pullAll(token, device: a, from: start.cursor)
            #expect(since.changes.flatMap(\.changes).reduce(0) { $0 + $1.fields.count } == 2)
        }
    }

    @Test(arguments: Backend.conformance) func tombstonesBeatOlderAndConcurrentEditsAndRestoreNeedsANewerClock(_ backend: Backend) async throws {
        try await withAlice(backend) { h, client, token in
            let a = Device("aaaa"), b = Device("bbbb")
            let t = testNow - 60_000
            _ = try await client.push(token, device: a, [event(1, "s1", op: "create", ["reps": (.int(5), a.clock(t)), "deleted_at": (.null, a.clock(t))])])
            // A deletes at t+10.
            _ = try await client.push(token, device: a, [event(2, "s1", op: "delete", ["deleted_at": (.int(t + 10), a.clock(t + 10))])])
            // B, offline, edited at t+5 (older) and tries to create the row again with an older clock.
            _ = try await client.push(token, device: b, [event(1, "s1", ["reps": (.int(7), b.clock(t + 5)), "deleted_at": (.null, b.clock(t + 5))])])
            var state = merged(try await client.pullAll(token, device: a).changes)
            #expect(state["sets/s1/deleted_at"]?.v == .int(t + 10))
            #expect(state["sets/s1/reps"]?.v == .int(7))  // the edit lands on its field, the row stays deleted

            // A concurrent edit with the same millis but an older clock (lower counter) loses too.
            _ = try await client.push(token, device: b, [event(2, "s1", ["deleted_at": (.null, HLC(millis: t + 10, counter: 0, node: "aaa"))])])
            state = merged(try await client.pullAll(token, device: a).changes)
            #expect(state["sets/s1/deleted_at"]?.v == .int(t + 10))

            // A later plain edit (not touching deleted_at) does not resurrect.
            _ = try await client.push(token, device: b, [event(3, "s1", ["reps": (.int(8), b.clock(t + 20))])])
            state = merged(try await client.pullAll(token, device: a).changes)
            #expect(state["sets/s1/deleted_at"]?.v == .int(t + 10))
            #expect(state["sets/s1/reps"]?.v == .int(8))

            // An explicit restore with a newer clock does.
            _ = try await client.push(token, device: b, [event(4, "s1", op: "restore", ["deleted_at": (.null, b.clock(t + 30))])])
            state = merged(try await client.pullAll(token, device: a).changes)
            #expect(state["sets/s1/deleted_at"] == WireField(v: .null, c: b.clock(t + 30)))
        }
    }

    @Test(arguments: Backend.conformance, [1, 3, 7, 50, 1000])
    func pagingNeverSplitsAChangeAndReturnsEverythingOnce(_ backend: Backend, limit: Int) async throws {
        try await withAlice(backend) { h, client, token in
            let a = Device()
            // Events with 1...5 fields each, some overwriting earlier rows.
            var events: [PushEvent] = []
            var expected: [String: WireField] = [:]
            for i in 1...120 {
                let id = "s\(i % 45)"
                var fields: [String: (FieldValue, HLC)] = [:]
                for f in 0..<(i % 5 + 1) { fields["f\(f)"] = (.int(Int64(i)), a.clock(testNow - 10_000 + Int64(i))) }
                for (name, value) in fields { expected["sets/\(id)/\(name)"] = WireField(v: value.0, c: value.1) }
                events.append(event(Int64(i), id, fields))
            }
            _ = try await client.push(token, device: a, events)

            let all = try await client.pullAll(token, device: a, limit: limit)
            var seen: [String: Int] = [:]
            for page in all.changes {
                let rows = page.changes.reduce(0) { $0 + $1.fields.count }
                // A page exceeds the limit only when one event alone is bigger than it.
                #expect(rows <= max(limit, 5))
                for change in page.changes { for name in change.fields.keys { seen["sets/\(change.entityID)/\(name)", default: 0] += 1 } }
            }
            #expect(seen.values.allSatisfy { $0 == 1 })
            #expect(merged(all.changes) == expected)

            // Every change counter value is whole in one page: the fields of each final
            // write of an event (same clock = same event) never straddle two pages.
            var pageOfClock: [HLC: Int] = [:]
            for (n, page) in all.changes.enumerated() {
                for change in page.changes { for f in change.fields.values {
                    if let other = pageOfClock[f.c] { #expect(other == n) } else { pageOfClock[f.c] = n }
                } }
            }
        }
    }

    @Test(arguments: Backend.conformance, [1, 3, 7, 50, 1000])
    func aV2PageCountsChangesAndReadsWhatV1Reads(_ backend: Backend, limit: Int) async throws {
        try await withAlice(backend) { h, client, token in
            let a = Device(), b = Device()
            // Rows written by two devices, some events touching a row again, one event's
            // fields under two clocks (a row re-sent whole keeps each field's clock).
            var events: [PushEvent] = []
            for i in 1...90 {
                var fields: [String: (FieldValue, HLC)] = [:]
                for f in 0..<(i % 4 + 1) { fields["f\(f)"] = (.int(Int64(i)), a.clock(testNow - 10_000 + Int64(i))) }
                if i % 10 == 0 { fields["older"] = (.text("kept"), a.clock(testNow - 20_000 + Int64(i))) }
                events.append(event(Int64(i), "s\(i % 35)", fields))
            }
            _ = try await client.push(token, device: a, events)
            _ = try await client.push(token, device: b, (1...20).map { event(Int64($0), "s\($0)", ["by_b": (.int(Int64($0)), b.clock(testNow - 5_000 + Int64($0)))]) })

            let v1 = try await client.pullAll(token, device: a, limit: 1000)
            let v2 = try await client.pullAll(token, device: a, limit: limit, version: .v2)
            #expect(merged(v2.changes) == merged(v1.changes))
            #expect(v2.cursor == v1.cursor)
            // A page holds at most `limit` changes (row and clock pairs), unless it is one record
            // alone (a record sent whole carries a change per clock its fields hold), and every
            // change (one clock) sits whole in one page.
            var pageOfClock: [HLC: Int] = [:]
            for (n, page) in v2.changes.enumerated() {
                let changes = page.changes.reduce(0) { $0 + Set($1.fields.values.map(\.c)).count }
                #expect(changes <= limit || Set(page.changes.map { "\($0.entity)/\($0.entityID)" }).count == 1)
                for change in page.changes { for f in change.fields.values {
                    if let other = pageOfClock[f.c] { #expect(other == n) } else { pageOfClock[f.c] = n }
                } }
            }
        }
    }

    @Test(arguments: Backend.conformance) func pullPageIsBoundedByBytes(_ backend: Backend) async throws {
        try await withAlice(backend, configure: { $0.maxPullBytes = 40_000 }) { h, client, token in
            let a = Device()
            let note = String(repeating: "n", count: 10_000)
            _ = try await client.push(token, device: a, (1...10).map { event(Int64($0), "s\($0)", ["note": (.text(note), a.clock(testNow - 100))]) })
            for version in SyncProtocol.allCases {
                let all = try await client.pullAll(token, device: a, version: version)
                #expect(all.changes.count >= 3)
                #expect(all.changes.allSatisfy { $0.changes.count <= 4 })
                #expect(all.changes.reduce(0) { $0 + $1.changes.count } == 10)
            }
        }
    }

    @Test(arguments: Backend.conformance) func epochMismatchTellsTheClientToReset(_ backend: Backend) async throws {
        try await withAlice(backend) { h, client, token in
            let a = Device()
            _ = try await client.push(token, device: a, [event(1, "s1", ["reps": (.int(1), a.clock(testNow - 1))])])
            let epoch = try await h.storage.epoch()
            let r: PullResponse = try decodeBody(try await client.pull(token, device: a, cursor: "0123456789abcdef:42"))
            #expect(r.epochChanged && r.changes.isEmpty && r.cursor == "\(epoch):0" && r.epoch == epoch)
            #expect(r.lastAppliedSeq == 1)
            // A normal pull does not carry the flag at all.
            let normal = try await client.pull(token, device: a, cursor: "\(epoch):0")
            #expect(!String(buffer: normal.body).contains("epoch_changed"))
        }
    }

    @Test(arguments: Backend.conformance) func aCursorPastTheHeadStartsANewHistoryGeneration(_ backend: Backend) async throws {
        // A server restored from an older backup keeps its database epoch; a device whose
        // cursor is past the head proves the rollback, and the user's epoch moves on.
        try await withAlice(backend) { h, client, token in
            let a = Device(), b = Device()
            _ = try await client.push(token, device: a, [event(1, "s1", ["reps": (.int(1), a.clock(testNow - 1))])])
            let epoch = try await h.storage.epoch()
            let r: PullResponse = try decodeBody(try await client.pull(token, device: a, cursor: "\(epoch):99"))
            #expect(r.epochChanged && r.epoch == "\(epoch)-g1" && r.cursor == "\(epoch)-g1:0" && r.changes.isEmpty && !r.hasMore)
            // Every device of the user now starts over, even one whose cursor looked fine.
            let other: PullResponse = try decodeBody(try await client.pull(token, device: b, cursor: "\(epoch):1"))
            #expect(other.epochChanged && other.epoch == "\(epoch)-g1")
            let fresh: PullResponse = try decodeBody(try await client.pull(token, device: b, cursor: "\(epoch)-g1:0"))
            #expect(!fresh.epochChanged && fresh.changes.count == 1 && fresh.cursor == "\(epoch)-g1:1")
            // Pushes answer in the new generation too.
            let pushed: PushResponse = try decodeBody(try await client.push(token, device: a, [event(2, "s2", ["reps": (.int(2), a.clock(testNow))])]))
            #expect(pushed.epoch == "\(epoch)-g1")
        }
    }

    @Test(arguments: Backend.conformance) func rollbackClaimsRestartTheHistoryAtMostThreeTimesAnHour(_ backend: Backend) async throws {
        let clock = FakeClock(millis: testNow)
        try await Harness.with(backend, configure: { config in config.now = { clock.now() } }) { h in
            let token = try await h.addUser("alice")
            try await h.router { client in
                let a = Device(), b = Device()
                _ = try await client.push(token, device: a, [event(1, "s1", ["reps": (.int(1), a.clock(testNow - 1))])])
                let database = try await h.storage.epoch()
                var epoch = database
                // Given a device that claims, again and again, a cursor past the head: a GET
                // anyone holding the token can send, and each new generation makes every
                // device of the user re-send everything
                for generation in 1...3 {
                    let r: PullResponse = try decodeBody(try await client.pull(token, device: a, cursor: "\(epoch):99"))
                    #expect(r.epochChanged && r.epoch == "\(database)-g\(generation)")
                    epoch = r.epoch
                }
                // Then the fourth claim within the hour starts over only the claimant: the
                // user's epoch stays, so the other devices carry on
                let limited: PullResponse = try decodeBody(try await client.pull(token, device: a, cursor: "\(epoch):99"))
                #expect(limited.epochChanged && limited.epoch == epoch && limited.cursor == "\(epoch):0")
                let other: PullResponse = try decodeBody(try await client.pull(token, device: b, cursor: "\(epoch):0"))
                #expect(!other.epochChanged && other.epoch == epoch)
                // And an hour later a claim restarts the history again
                clock.advance(minutes: 61)
                let later: PullResponse = try decodeBody(try await client.pull(token, device: a, cursor: "\(epoch):99"))
                #expect(later.epochChanged && later.epoch == "\(database)-g4")
            }
        }
    }

    @Test(arguments: Backend.conformance) func aPushNumberedUnderAnOldEpochIsRefusedWhole(_ backend: Backend) async throws {
        // A copy of a push delayed across a rollback must not take sequence numbers the device
        // has reused since it renumbered its outbox in the new generation.
        try await withAlice(backend) { h, client, token in
            let a = Device()
            let epoch = try await h.storage.epoch()
            // Given a push numbered under the current epoch, then it applies (and one without an epoch, as older clients send, too)
            let first: PushResponse = try decodeBody(try await client.push(token, PushRequest(deviceID: a.id, events: [event(1, "s1", ["reps": (.int(1), a.clock(testNow - 9))])], epoch: epoch)))
            #expect(first.results == [PushResult(seq: 1, status: .applied)])
            let legacy: PushResponse = try decodeBody(try await client.push(token, device: a, [event(2, "s2", ["reps": (.int(2), a.clock(testNow - 8))])]))
            #expect(legacy.results == [PushResult(seq: 2, status: .applied)])
            // When a rollback is proven (the user's epoch moves on) and the device renumbers from 3
            let moved: PullResponse = try decodeBody(try await client.pull(token, device: a, cursor: "\(epoch):99"))
            #expect(moved.epochChanged && moved.epoch == "\(epoch)-g1")
            let before = try await client.pullAll(token, device: a)
            // Then a stale copy numbered under the old epoch is refused, naming both epochs, and applies nothing
            let stale = try await client.push(token, PushRequest(deviceID: a.id, events: [event(3, "s3", ["reps": (.int(99), a.clock(testNow - 7))])], epoch: epoch))
            let body = try expectError(stale, .conflict, "epoch_changed")
            #expect(body.error.message.contains("\"\(epoch)\"") && body.error.message.contains("\"\(epoch)-g1\""), "\(body.error.message)")
            let after = try await client.pullAll(token, device: a)
            #expect(after.cursor == before.cursor && merged(after.changes) == merged(before.changes))
            // And seq 3 is still free for the device's own renumbered event under the new epoch
            let renumbered: PushResponse = try decodeBody(try await client.push(token, PushRequest(deviceID: a.id, events: [event(3, "s1", ["reps": (.int(10), a.clock(testNow - 1))])], epoch: "\(epoch)-g1")))
            #expect(renumbered.results == [PushResult(seq: 3, status: .applied)] && renumbered.lastAppliedSeq == 3)
        }
    }

    @Test(arguments: Backend.conformance) func anAckTheServerNeverGaveStartsANewHistoryGeneration(_ backend: Backend) async throws {
        try await Harness.with(backend) { h in
            let token = try await h.addUser("alice")
            let bob = try await h.addUser("bob")
            try await h.router { client in
                let a = Device()
                _ = try await client.push(token, device: a, [event(1, "s1", ["reps": (.int(1), a.clock(testNow - 1))])])
                let epoch = try await h.storage.epoch()
                let honest = try await client.execute(uri: "/v1/pull?device_id=\(a.id)&cursor=\(epoch):1&acked_seq=1", method: .get, headers: authHeaders(token, json: false))
                let same: PullResponse = try decodeBody(honest)
                #expect(!same.epochChanged && same.epoch == epoch)
                // The device was acknowledged seq 5 by a server that has since lost it.
                let rolledBack = try await client.execute(uri: "/v1/pull?device_id=\(a.id)&cursor=\(epoch):1&acked_seq=5", method: .get, headers: authHeaders(token, json: false))
                let r: PullResponse = try decodeBody(rolledBack)
                #expect(r.epochChanged && r.epoch == "\(epoch)-g1" && r.lastAppliedSeq == 1)
                // Only that user's history starts over.
                let other: PullResponse = try decodeBody(try await client.pull(bob, device: Device(), cursor: "\(epoch):0"))
                #expect(!other.epochChanged && other.epoch == epoch)
                let bad = try await client.execute(uri: "/v1/pull?device_id=\(a.id)&cursor=0&acked_seq=-1", method: .get, headers: authHeaders(token, json: false))
                #expect(bad.status == .badRequest && String(buffer: bad.body).contains("invalid_acked_seq"))
                let badSince = try await client.execute(uri: "/v2/pull?device_id=\(a.id)&cursor=0&since=-3", method: .get, headers: authHeaders(token, json: false))
                #expect(badSince.status == .badRequest && String(buffer: badSince.body).contains("invalid_since")
                        && String(buffer: badSince.body).contains("\\\"-3\\\""), "\(String(buffer: badSince.body))")
            }
        }
    }

    @Test(arguments: Backend.conformance) func clockFarAheadRejectsTheWholeRequest(_ backend: Backend) async throws {
        try await withAlice(backend) { h, client, token in
            let a = Device()
            let ok = event(1, "s1", ["reps": (.int(1), a.clock(testNow + 14 * 60_000))])  // within 15 minutes
            let bad = event(2, "s2", ["reps": (.int(1), a.clock(testNow + 2 * 3_600_000 + 5 * 60_000))])
            let body = try expectError(try await client.push(token, device: a, [ok, bad]), .unprocessableContent, "clock_ahead")
            #expect(body.serverTimeMs == testNow)
            #expect(body.error.message.contains("about 2 hours 5 minutes"))
            #expect(body.error.message.contains("date and time"))
            let page: PullResponse = try decodeBody(try await client.pull(token, device: a))
            #expect(page.changes.isEmpty && page.lastAppliedSeq == 0)
            #expect(try await client.push(token, device: a, [ok]).status == .ok)
        }
    }

    @Test(arguments: Backend.conformance) func pullReturnsTheAckThatHealsALostPushResponse(_ backend: Backend) async throws {
        try await withAlice(backend) { h, client, token in
            let a = Device(), b = Device()
            _ = try await client.push(token, device: a, (1...3).map { event(Int64($0), "s\($0)", ["reps": (.int(1), a.clock(testNow - 9))]) })
            // The push response was lost; the next pull acks it.
            #expect(try decodeBody(try await client.pull(token, device: a), as: PullResponse.self).lastAppliedSeq == 3)
            #expect(try decodeBody(try await client.pull(token, device: b), as: PullResponse.self).lastAppliedSeq == 0)
        }
    }

    @Test(arguments: Backend.conformance) func usersAreIsolated(_ backend: Backend) async throws {
        try await Harness.with(backend) { h in
            let alice = try await h.addUser("alice"), bob = try await h.addUser("bob")
            try await h.router { client in
                let a = Device(), b = Device()
                _ = try await client.push(alice, device: a, [event(1, "shared-id", ["reps": (.int(5), a.clock(testNow - 100)), "note": (.text("alice's"), a.clock(testNow - 100))])])
                // Bob sees nothing of Alice's.
                let bobPull: PullResponse = try decodeBody(try await client.pull(bob, device: b))
                #expect(bobPull.changes.isEmpty && bobPull.cursor.hasSuffix(":0"))
                // Bob pulling with Alice's device id learns nothing either.
                let spoof: PullResponse = try decodeBody(try await client.pull(bob, device: a))
                #expect(spoof.changes.isEmpty && spoof.lastAppliedSeq == 0)
                // Bob pushing the same entity id, even with a newer clock and Alice's device id and
                // idempotency key space, makes his own row.
                let bobPush: PushResponse = try decodeBody(try await client.push(bob, device: a, [event(1, "shared-id", ["reps": (.int(99), b.clock(testNow - 1))])]))
                #expect(bobPush.results[0].status == .applied && bobPush.cursor.hasSuffix(":1"))

                let aliceState = merged(try await client.pullAll(alice, device: a).changes)
                #expect(aliceState["sets/shared-id/reps"]?.v == .int(5))
                #expect(aliceState["sets/shared-id/note"]?.v == .text("alice's"))
                let bobState = merged(try await client.pullAll(bob, device: b).changes)
                #expect(bobState == ["sets/shared-id/reps": WireField(v: .int(99), c: b.clock(testNow - 1))])
                // Alice's device sequence is untouched by Bob's push.
                #expect(try decodeBody(try await client.pull(alice, device: a), as: PullResponse.self).lastAppliedSeq == 1)
            }
        }
    }

    @Test(arguments: Backend.conformance)
    func concurrentPushesNeverShareACursorValueAndAPullNeverSkipsALateCommit(_ backend: Backend) async throws {
        // Six devices of one user push at once: lift the per-user push limit, which would
        // refuse some with 429 (SlowClientTests covers it), to reach the stores' concurrency.
        try await withAlice(backend, configure: { $0.maxConcurrentPushesPerUser = 100 }) { h, client, token in
            let devices = (0..<6).map { Device("dev\($0)") }
            let total = devices.count * 12
            // Given a reader pulling incrementally the whole time...
            let reader = Task { () throws -> Set<String> in
                var seen: Set<String> = [], cursor = "0"
                for _ in 0..<10_000 where seen.count < total {
                    let page: PullResponse = try decodeBody(try await client.pull(token, device: Device("reader"), cursor: cursor, limit: 7))
                    for change in page.changes { seen.insert(change.entityID) }
                    cursor = page.cursor
                    await Task.yield()
                }
                return seen
            }
            // ...when six devices push twelve events each, concurrently...
            let heads = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for d in devices {
                    group.addTask {
                        var heads: [Int64] = []
                        for seq in Int64(1)...12 {
                            let r: PushResponse = try decodeBody(try await client.push(token, device: d, [
                                event(seq, "\(d.id)-\(seq)", ["reps": (.int(seq), d.clock(testNow - 1000 + seq))])]))
                            #expect(r.lastAppliedSeq == seq)
                            heads.append(Int64(r.cursor.split(separator: ":").last ?? "") ?? -1)
                        }
                        return heads
                    }
                }
                return try await group.reduce(into: [Int64]()) { $0 += $1 }
            }
            // ...then every push got its own change counter value,
            #expect(heads.sorted() == Array(1...Int64(total)))
            // and the reader, following its cursor, saw every row: none committed behind it.
            #expect(try await reader.value.count == total)
        }
    }
}
