import Foundation
import GymLogCore
@testable import GymLogServer
@testable import GymLogServerCore
import GymLogWire
import GymLogTestSupport
import Testing

/// The storage conformance suite at the storage API: the same calls on every backend in
/// `Backend.conformance` (memory, SQLite, PostgreSQL), and the same answers from all of them.
/// ProtocolTests and EndpointTests run the rules through the router on the same backends.
@Suite("Storage conformance")
struct StorageConformanceTests {
    @Test(arguments: Backend.conformance) func valuesKeepTheirTypeExactly(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let auth = try await storage.newUser("alice")
            let clock = HLC(millis: testNow - 1, counter: 0, node: "dev")
            let values: [String: FieldValue] = [
                "a": .int(Int64.max), "b": .int(Int64.min), "c": .real(0.1), "d": .real(-1e300), "e": .text(""),
                "f": .text("héllo \"q\" 💪\n"), "g": .null, "h": .real(2),
            ]
            // Given one event holding every kind of value, when pushed and pulled back...
            let event = ValidEvent(seq: 1, idempotencyKey: "k", entity: "sets", entityID: "s1",
                                   fields: values.keys.sorted().map { ValidField(name: $0, value: values[$0]!, clock: clock, clockText: clock.description) })
            _ = try await storage.push(user: auth, deviceID: "dev", items: [.valid(event)], now: testNow)
            let page = try await storage.pull(user: auth, deviceID: "dev", after: 0, limit: .fieldRows(100), maxBytes: 1 << 20)
            // ...then each value comes back with its type, in field name order.
            #expect(page.rows.count == 1)
            #expect(Dictionary(uniqueKeysWithValues: page.rows[0].fields.map { ($0.name, $0.value) }) == values)
            #expect(page.rows[0].fields.map(\.name) == values.keys.sorted(), "fields of one change come in name order on every backend")
        }
    }

    @Test(arguments: Backend.conformance) func storedClocksAreFoundForEveryRowOfABigPush(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let auth = try await storage.newUser("alice")
            // Given 1,201 rows written by device a (more than one lookup chunk of stored clocks)
            let rows = 1_201
            let first = (1...rows).map { Script.item(Int64($0), "r\($0)", "reps", .int(1), millis: 20, node: "a") }
            _ = try await storage.push(user: auth, deviceID: "a", items: first, now: testNow)
            // When device b writes every row again, older than a's on even rows and newer on odd ones
            let second = (1...rows).map { Script.item(Int64($0), "r\($0)", "reps", .int(2), millis: $0 % 2 == 0 ? 10 : 30, node: "b") }
            let outcome = try await storage.push(user: auth, deviceID: "b", items: second, now: testNow)
            // Then only the odd rows changed: every stored clock was found, in every chunk
            guard case .completed(_, let head, _, _) = outcome else { Issue.record("\(outcome)"); return }
            #expect(head == Int64(rows + (rows + 1) / 2))
            var values: [String: FieldValue] = [:]
            var after: Int64 = 0
            while true {
                let page = try await storage.pull(user: auth, deviceID: "b", after: after, limit: .fieldRows(1_000), maxBytes: 1 << 22)
                for row in page.rows { values[row.entityID] = row.fields.first { $0.name == "reps" }?.value }
                after = page.cursor
                if !page.hasMore { break }
            }
            #expect(values.count == rows)
            #expect((1...rows).allSatisfy { values["r\($0)"] == ($0 % 2 == 0 ? .int(1) : .int(2)) })
        }
    }

    @Test(arguments: Backend.conformance) func aGapRollsBackEvenTheEventsBeforeIt(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let auth = try await storage.newUser("alice")
            // Given a batch whose third event skips a seq...
            let items = [Script.item(1, "a", "reps", .int(1), millis: 1), Script.item(2, "b", "reps", .int(2), millis: 2),
                         Script.item(4, "c", "reps", .int(4), millis: 4)]
            let outcome = try await storage.push(user: auth, deviceID: "dev", items: items, now: testNow)
            // ...then it is a gap naming the ack, and nothing of it was stored: not the rows,
            // not the ack, not the idempotency keys (they apply under the right seqs afterwards).
            #expect(outcome == .sequenceGap(lastAppliedSeq: 0, got: 4))
            let page = try await storage.pull(user: auth, deviceID: "dev", after: 0, limit: .fieldRows(100), maxBytes: 1 << 20)
            #expect(page.rows.isEmpty && page.lastAppliedSeq == 0 && page.cursor == 0)
            let retry = try await storage.push(user: auth, deviceID: "dev", items: Array(items.prefix(2)), now: testNow)
            guard case .completed(let last, let head, let results, _) = retry else { Issue.record("\(retry)"); return }
            #expect(last == 2 && head == 2 && results.allSatisfy { $0.status == .applied })
        }
    }

    @Test(arguments: Backend.conformance) func anEventWhoseWritesAllLoseTakesNoCounterValue(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let auth = try await storage.newUser("alice")
            _ = try await storage.push(user: auth, deviceID: "a", items: [Script.item(1, "s1", "reps", .int(5), millis: 100, node: "a")], now: testNow)
            // When another device pushes an older write of the same field and a newer one of another...
            let outcome = try await storage.push(user: auth, deviceID: "b", items: [
                Script.item(1, "s1", "reps", .int(9), millis: 50, node: "b"),
                Script.item(2, "s1", "note", .text("x"), millis: 200, node: "b"),
            ], now: testNow)
            // ...then both are applied, but only the winning one advanced the counter.
            #expect(outcome == .completed(lastAppliedSeq: 2, head: 2, results: [PushResult(seq: 1, status: .applied), PushResult(seq: 2, status: .applied)], headBefore: 1))
            let page = try await storage.pull(user: auth, deviceID: "b", after: 1, limit: .fieldRows(100), maxBytes: 1 << 20)
            // The record comes whole, the losing write nowhere: reps is still a's 5.
            #expect(page.rows.map { $0.fields.map(\.name) } == [["note", "reps"]] && page.cursor == 2 && page.lastAppliedSeq == 2)
            #expect(page.rows.first?.fields.last?.value == .int(5))
        }
    }

    @Test(arguments: Backend.conformance) func aPullSinceACompletePullSendsEachRecordsLaterChangesOnly(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let auth = try await storage.newUser("alice")
            // Given s1 written whole (seq 1), s2 written (seq 2), then s1's reps edited (seq 3)
            _ = try await storage.push(user: auth, deviceID: "a", items: [
                Script.event(1, "s1", node: "a", millis: 10, [("reps", .int(5)), ("weight", .real(62.5))]),
                Script.event(2, "s2", node: "a", millis: 20, [("reps", .int(8))]),
                Script.item(3, "s1", "reps", .int(6), millis: 30, node: "a"),
            ], now: testNow)
            func names(_ page: PullPage) -> [String] { page.rows.flatMap { row in row.fields.map { "\(row.entityID).\($0.name)" } } }
            // When a device whose last complete pull ended at 1 pulls after 1, since 1: s2 and s1's new reps only
            let since = try await storage.pull(user: auth, deviceID: "b", after: 1, since: 1, limit: .changes(100), maxBytes: 1 << 20)
            #expect(names(since) == ["s2.reps", "s1.reps"] && since.fieldCount == 2 && since.cursor == 3)
            // Without since, or from the start, s1 comes whole (a device paging when s1 moved needs it)
            let whole = try await storage.pull(user: auth, deviceID: "b", after: 1, limit: .changes(100), maxBytes: 1 << 20)
            #expect(names(whole) == ["s2.reps", "s1.reps", "s1.weight"] && whole.fieldCount == 3)
            let v2 = String(decoding: since.jsonBytes(epoch: "e", version: .v2), as: UTF8.self)
            #expect(!v2.contains("weight") && v2.contains("\"fields\":{\"reps\":6}"), "\(v2)")
            // A since past the cursor is the cursor
            let past = try await storage.pull(user: auth, deviceID: "b", after: 1, since: 9, limit: .changes(100), maxBytes: 1 << 20)
            #expect(names(past) == names(since))
        }
    }

    @Test(arguments: Backend.conformance) func aKeyReusedWithOtherContentIsRefusedAndTheFirstContentStays(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let auth = try await storage.newUser("alice")
            // Given key k applied with reps = 5
            _ = try await storage.push(user: auth, deviceID: "a", items: [Script.item(1, "s1", "reps", .int(5), millis: 10, key: "k")], now: testNow)
            // When another device pushes k with other content, then the same content again
            let outcome = try await storage.push(user: auth, deviceID: "b", items: [
                Script.item(1, "s1", "reps", .int(8), millis: 20, key: "k"),
                Script.item(2, "s1", "reps", .int(5), millis: 10, key: "k"),
                Script.item(3, "s2", "reps", .int(1), millis: 30, key: "k2"),
                Script.item(4, "s2", "reps", .int(2), millis: 40, key: "k2"),
            ], now: testNow)
            // Then the first is refused as key_reused, the second is a duplicate, and within one
            // batch the same holds; every seq is consumed
            guard case .completed(let last, let head, let results, _) = outcome else { Issue.record("\(outcome)"); return }
            #expect(results.map(\.status) == [.rejected, .duplicate, .applied, .rejected])
            #expect(results[0].error?.code == "key_reused" && results[3].error?.code == "key_reused")
            #expect(last == 4 && head == 2)
            // And the stored state is the first content of each key
            let page = try await storage.pull(user: auth, deviceID: "b", after: 0, limit: .fieldRows(100), maxBytes: 1 << 20)
            #expect(page.rows.map(\.entityID) == ["s1", "s2"])
            #expect(page.rows.map { $0.fields.map(\.value) } == [[.int(5)], [.int(1)]])
        }
    }

    @Test(arguments: Backend.conformance) func aNewHistoryGenerationForgetsTheUsersIdempotencyKeys(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let aliceAuth = try await storage.newUser("alice", tokenHash: "a"), bobAuth = try await storage.newUser("bob", tokenHash: "b")
            // Given key k applied for alice and for bob
            for user in [aliceAuth, bobAuth] {
                _ = try await storage.push(user: user, deviceID: "a", items: [Script.item(1, "s1", "reps", .int(5), millis: 10, key: "k")], now: testNow)
            }
            // When alice's history starts a new generation (her devices re-send all under new keys)
            #expect(try await storage.startNewHistoryGeneration(user: aliceAuth, now: testNow, perHour: 3) == 1)
            // Then her past keys are gone: k applies again, as new; bob's k is still known
            let again = try await storage.push(user: aliceAuth, deviceID: "a", items: [Script.item(2, "s1", "reps", .int(6), millis: 20, key: "k")], now: testNow)
            #expect(again == .completed(lastAppliedSeq: 2, head: 2, results: [PushResult(seq: 2, status: .applied)], headBefore: 1))
            let bobAgain = try await storage.push(user: bobAuth, deviceID: "a", items: [Script.item(2, "s1", "reps", .int(6), millis: 20, key: "k")], now: testNow)
            guard case .completed(_, _, let results, _) = bobAgain else { Issue.record("\(bobAgain)"); return }
            #expect(results.map(\.status) == [.rejected] && results.first?.error?.code == "key_reused")
        }
    }

    @Test(arguments: Backend.conformance) func aWithdrawnTokenIsRememberedWithWhatTheAdministratorDid(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            // Given alice and bob, each with a token that works
            _ = try await storage.newUser("alice", tokenHash: "alice-1"); _ = try await storage.newUser("bob", tokenHash: "bob-1")
            #expect(try await storage.withdrawal(ofTokenHash: "alice-1") == nil)
            #expect(try await storage.withdrawal(ofTokenHash: "never-issued") == nil)

            // When alice's token is rotated, then she is revoked, then activated, then deleted
            _ = try await storage.replaceToken(name: "alice", tokenHash: "alice-2", reactivate: false)
            _ = try await storage.revokeUser(name: "alice", now: testNow)
            #expect(try await storage.withdrawal(ofTokenHash: "alice-2") == .revoked)
            _ = try await storage.replaceToken(name: "alice", tokenHash: "alice-3", reactivate: true)
            _ = try await storage.deleteUser(name: "alice")
            _ = try await storage.revokeUser(name: "bob", now: testNow)

            // Then each token she had says what happened to it, and bob's revoked one says revoked
            #expect(try await storage.withdrawal(ofTokenHash: "alice-1") == .rotated)
            #expect(try await storage.withdrawal(ofTokenHash: "alice-2") == .revoked, "a revoked token activate replaced stays revoked")
            #expect(try await storage.withdrawal(ofTokenHash: "alice-3") == .deleted)
            #expect(try await storage.withdrawal(ofTokenHash: "bob-1") == .revoked)
        }
    }

    @Test(arguments: Backend.conformance) func aTakenNameIsRefusedAndASecondRevocationKeepsTheFirstTime(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            // Given alice
            let alice = try await storage.createUser(name: "alice", tokenHash: "alice-1", now: testNow)

            // When her name is taken again in another case, nothing is added
            await #expect(throws: StorageError.userExists("ALICE")) { try await storage.createUser(name: "ALICE", tokenHash: "other", now: testNow) }
            #expect(try await storage.listUsers().map(\.id) == [alice.id])
            #expect(try await storage.userForTokenHash("other") == nil)

            // When she is revoked twice, the first time stays
            #expect(try await storage.revokeUser(name: "Alice", now: testNow + 1).revokedAt == testNow + 1)
            let again = try await storage.revokeUser(name: "alice", now: testNow + 2)
            #expect(again.revokedAt == testNow + 1 && again.name == "alice")
            #expect(try await storage.listUsers().map(\.revokedAt) == [testNow + 1])
        }
    }

    @Test(arguments: Backend.conformance) func accountsAreRotatedReactivatedListedAndDeleted(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            // Given alice with one pushed row from each of two devices, and bob with one row
            let aliceAuth = try await storage.newUser("alice", tokenHash: "alice-1"), bobAuth = try await storage.newUser("bob", tokenHash: "bob-1")
            _ = try await storage.push(user: aliceAuth, deviceID: "phone", items: [Script.item(1, "s1", "reps", .int(5), millis: 1)], now: testNow - 10)
            _ = try await storage.push(user: aliceAuth, deviceID: "laptop", items: [Script.item(1, "s2", "note", .text("héllo"), millis: 2)], now: testNow)
            _ = try await storage.push(user: bobAuth, deviceID: "phone", items: [Script.item(1, "s1", "reps", .null, millis: 3)], now: testNow)

            // Then the list shows each user's devices, latest push, records and bytes (entity, id
            // and the record's stored text, in UTF-8)
            let clockBytes = HLC(millis: 0, counter: 0, node: "dev").description.utf8.count
            func bytes(_ row: String, _ text: (String, String)) -> Int { ("sets" + row + text.0 + text.1).utf8.count + clockBytes }
            let listed = try await storage.listUsers()
            #expect(listed.map(\.name) == ["alice", "bob"])
            #expect(listed[0].usage == UserUsage(devices: 2, lastPushAt: testNow, records: 2,
                                                 storedBytes: Int64(bytes("s1", ("[{\"c\":\"", "\",\"s\":1,\"f\":{\"reps\":5}}]"))
                                                                    + bytes("s2", ("[{\"c\":\"", "\",\"s\":2,\"f\":{\"note\":\"héllo\"}}]")))))
            #expect(listed[1].usage == UserUsage(devices: 1, lastPushAt: testNow, records: 1,
                                                 storedBytes: Int64(bytes("s1", ("[{\"c\":\"", "\",\"s\":1,\"f\":{\"reps\":null}}]")))))

            // When alice's token is rotated, the old hash stops authenticating and the new one works
            _ = try await storage.replaceToken(name: "ALICE", tokenHash: "alice-2", reactivate: false)
            #expect(try await storage.userForTokenHash("alice-1") == nil)
            #expect(try await storage.userForTokenHash("alice-2")?.id == aliceAuth.id)
            await #expect(throws: StorageError.noSuchUser("carol")) { try await storage.replaceToken(name: "carol", tokenHash: "c", reactivate: false) }

            // When she is revoked, a rotation is refused; activation lifts it with a new token only
            _ = try await storage.revokeUser(name: "alice", now: testNow)
            await #expect(throws: StorageError.userRevoked("alice")) { try await storage.replaceToken(name: "alice", tokenHash: "alice-3", reactivate: false) }
            #expect(try await storage.userForTokenHash("alice-2") == nil)
            #expect(try await storage.userForTokenHash("alice-3") == nil)
            let active = try await storage.replaceToken(name: "alice", tokenHash: "alice-4", reactivate: true)
            #expect(active.revokedAt == nil)
            #expect(try await storage.userForTokenHash("alice-2") == nil, "the revoked token stays dead")
            #expect(try await storage.userForTokenHash("alice-4")?.id == aliceAuth.id)
            let kept = try await storage.pull(user: aliceAuth, deviceID: "phone", after: 0, limit: .fieldRows(100), maxBytes: 1 << 20)
            #expect(kept.fieldCount == 2 && kept.lastAppliedSeq == 1, "rotating and re-activating keep the data")

            // When alice is deleted, she and every row of hers are gone, and bob is untouched
            let deleted = try await storage.deleteUser(name: "Alice")
            #expect(deleted.id == aliceAuth.id)
            await #expect(throws: StorageError.noSuchUser("alice")) { try await storage.deleteUser(name: "alice") }
            #expect(try await storage.userForTokenHash("alice-4") == nil)
            #expect(try await storage.listUsers().map(\.name) == ["bob"])
            let bobPage = try await storage.pull(user: bobAuth, deviceID: "phone", after: 0, limit: .fieldRows(100), maxBytes: 1 << 20)
            #expect(bobPage.fieldCount == 1 && bobPage.lastAppliedSeq == 1)

            // Then the name is free again, for an account that starts empty and takes the same keys anew
            let againAuth = try await storage.newUser("alice", tokenHash: "alice-5")
            let empty = try await storage.pull(user: againAuth, deviceID: "phone", after: 0, limit: .fieldRows(100), maxBytes: 1 << 20)
            #expect(empty.fieldCount == 0 && empty.lastAppliedSeq == 0 && empty.cursor == 0)
            let repushed = try await storage.push(user: againAuth, deviceID: "phone", items: [Script.item(1, "s1", "reps", .int(5), millis: 1)], now: testNow)
            #expect(repushed == .completed(lastAppliedSeq: 1, head: 1, results: [PushResult(seq: 1, status: .applied)], headBefore: 0))
        }
    }

    /// Issue 27, defect 2: the token is checked again inside the push's write, so a push
    /// authenticated before a revoke or a rotation (its body still arriving) writes nothing.
    @Test(arguments: Backend.conformance) func aRevokedOrRotatedTokenNoLongerWrites(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            // Given alice authenticated by her first token
            let first = try await storage.newUser("alice", tokenHash: "alice-1")
            // When her token is rotated before the push's write, then the push writes nothing
            _ = try await storage.replaceToken(name: "alice", tokenHash: "alice-2", reactivate: false)
            await #expect(throws: StorageError.tokenWithdrawn) {
                try await storage.push(user: first, deviceID: "a", items: [Script.item(1, "s1", "reps", .int(5), millis: 1)], now: testNow)
            }
            // And the new token writes
            let second = try #require(try await storage.userForTokenHash("alice-2"))
            let pushed = try await storage.push(user: second, deviceID: "a", items: [Script.item(1, "s1", "reps", .int(6), millis: 2)], now: testNow)
            #expect(pushed == .completed(lastAppliedSeq: 1, head: 1, results: [PushResult(seq: 1, status: .applied)], headBefore: 0))
            // When she is revoked, her push authenticated before writes nothing either
            _ = try await storage.revokeUser(name: "alice", now: testNow)
            await #expect(throws: StorageError.tokenWithdrawn) {
                try await storage.push(user: second, deviceID: "a", items: [Script.item(2, "s2", "reps", .int(7), millis: 3)], now: testNow)
            }
            let page = try await storage.pull(user: second, deviceID: "a", after: 0, limit: .fieldRows(100), maxBytes: 1 << 20)
            #expect(page.rows.map(\.entityID) == ["s1"] && page.lastAppliedSeq == 1, "only the push of the live token was stored")
        }
    }

    /// Issue 27, defect 1: a deleted user's id is never handed out again (SQLite reused the
    /// highest), and a push authenticated as the deleted user cannot land in a new account.
    @Test(arguments: Backend.conformance) func aDeletedUsersIdIsNeverHandedOutAgain(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            // Given alice and mallory, the newest account, authenticated
            _ = try await storage.newUser("alice", tokenHash: "a")
            let mallory = try await storage.newUser("mallory", tokenHash: "m")
            // When mallory is deleted and newbie is made
            _ = try await storage.deleteUser(name: "mallory")
            let newbie = try await storage.newUser("newbie", tokenHash: "n")
            // Then newbie has an id of its own
            #expect(newbie.id > mallory.id, "a deleted user's id was handed out again")
            // And mallory's in-flight push, even with newbie's id, writes nothing
            var stale = mallory
            stale.id = newbie.id
            await #expect(throws: StorageError.tokenWithdrawn) {
                try await storage.push(user: stale, deviceID: "m", items: [Script.item(1, "s1", "reps", .int(5), millis: 1)], now: testNow)
            }
            let page = try await storage.pull(user: newbie, deviceID: "n", after: 0, limit: .fieldRows(100), maxBytes: 1 << 20)
            #expect(page.fieldCount == 0 && page.cursor == 0, "newbie's account holds mallory's rows")
        }
    }

    /// Issue 27 (hygiene): one token made 20,000 device rows. A device that pushed before may
    /// always push; a new one only while the user has fewer than the limit. Issue 49: the
    /// count is read in the push's own transaction, so new devices racing each other cannot
    /// pass the cap together (they could when it was checked before the push).
    @Test(arguments: Backend.conformance) func aUsersDevicesAreCapped(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let alice = try await storage.newUser("alice", tokenHash: "a"), bob = try await storage.newUser("bob", tokenHash: "b")
            func push(_ user: AuthenticatedUser, _ device: String, seq: Int64 = 1, limit: Int) async throws -> PushOutcome {
                try await storage.push(user: user, deviceID: device, items: [Script.item(seq, "s-\(device)-\(seq)", "reps", .int(5), millis: seq)],
                                       now: testNow, deviceLimit: limit)
            }
            // Given alice with two devices that pushed
            for device in ["phone", "laptop"] {
                guard case .completed = try await push(alice, device, limit: 2) else { Issue.record("\(device) refused"); continue }
            }
            // Then at a limit of 2, both may push again, a third may not and writes nothing; bob is not affected
            guard case .completed = try await push(alice, "phone", seq: 2, limit: 2) else { Issue.record("phone refused"); return }
            #expect(try await push(alice, "tablet", limit: 2) == .tooManyDevices)
            #expect(try await storage.pull(user: alice, deviceID: "phone", after: 0, since: 0, limit: .fieldRows(100), maxBytes: 1 << 20)
                .records.allSatisfy { !$0.entityID.contains("tablet") })
            guard case .completed = try await push(alice, "tablet", limit: 3) else { Issue.record("tablet refused under 3"); return }
            guard case .completed = try await push(bob, "tablet", limit: 2) else { Issue.record("bob refused"); return }
            // And new devices racing each other: of eight at once with room for one more, one gets in
            let carol = try await storage.newUser("carol", tokenHash: "c")
            _ = try await push(carol, "first", limit: 2)
            let outcomes = try await withThrowingTaskGroup(of: PushOutcome.self) { group in
                for i in 0..<8 { group.addTask { try await push(carol, "racer-\(i)", limit: 2) } }
                return try await group.reduce(into: [PushOutcome]()) { $0.append($1) }
            }
            #expect(outcomes.count { if case .completed = $0 { true } else { false } } == 1, "\(outcomes)")
            #expect(outcomes.count { $0 == .tooManyDevices } == 7)
        }
    }

    /// Issue 27 (hygiene): the limit on new history generations was per instance and in
    /// memory, so every instance (and every restart) allowed its own three an hour. The store
    /// now counts them per user.
    @Test(arguments: Backend.conformance) func newHistoryGenerationsAreLimitedPerUserInTheStore(_ backend: Backend) async throws {
        try await backend.withStorage { storage in
            let alice = try await storage.newUser("alice", tokenHash: "a"), bob = try await storage.newUser("bob", tokenHash: "b")
            // Given three generations of alice's within an hour
            for expected in Int64(1)...3 {
                #expect(try await storage.startNewHistoryGeneration(user: alice, now: testNow + expected, perHour: 3) == expected)
            }
            // Then a fourth within the hour is refused, and changes nothing
            #expect(try await storage.startNewHistoryGeneration(user: alice, now: testNow + 3_599_000, perHour: 3) == nil)
            #expect(try await storage.userForTokenHash("a")?.historyGeneration == 3)
            // And bob's are his own; an hour after alice's first, she may start one again
            #expect(try await storage.startNewHistoryGeneration(user: bob, now: testNow + 10, perHour: 3) == 1)
            #expect(try await storage.startNewHistoryGeneration(user: alice, now: testNow + 3_600_001, perHour: 3) == 4)
        }
    }

    /// The drift this suite exists for: the same pushes must give the same pull pages, in the
    /// same order, byte for byte, on every backend.
    @Test func everyBackendGivesTheSamePagesInTheSameOrder() async throws {
        var answers: [(Backend, [PushOutcome], [PullPage])] = []
        for backend in Backend.conformance {
            let answer = try await backend.withStorage { storage in try await Script.run(on: storage) }
            answers.append((backend, answer.pushes, answer.pages))
        }
        let (_, pushes, pages) = try #require(answers.first)
        #expect(pages.count > 3, "the script must page")
        #expect(pages.reduce(0) { $0 + $1.fieldCount } > 20)
        for (backend, otherPushes, otherPages) in answers.dropFirst() {
            #expect(otherPushes == pushes, "push outcomes on \(backend) differ from memory")
            #expect(otherPages == pages, "pull pages on \(backend) differ from memory")
        }
    }
}

extension SyncStorage {
    /// Creates a user and returns it as its token authenticates it.
    func newUser(_ name: String, tokenHash: String = "h") async throws -> AuthenticatedUser {
        let user = try await createUser(name: name, tokenHash: tokenHash, now: testNow)
        return AuthenticatedUser(id: user.id, name: user.name, tokenHash: tokenHash)
    }
}

/// A deterministic push script: several devices, overwrites in and across batches, equal and
/// older clocks, replays, a reused idempotency key, rejected events, tombstones, rows touched
/// in an order that is not their sort order, then a full pull in small pages.
enum Script {
    static func item(_ seq: Int64, _ entityID: String, _ field: String, _ value: FieldValue, millis: Int64,
                     node: String = "dev", key: String? = nil, entity: String = "sets") -> PushItem {
        let clock = HLC(millis: testNow - 100_000 + millis, counter: 0, node: node)
        return .valid(ValidEvent(seq: seq, idempotencyKey: key ?? "\(node)-\(seq)-\(entityID)", entity: entity, entityID: entityID,
                                 fields: [ValidField(name: field, value: value, clock: clock, clockText: clock.description)]))
    }

    static func event(_ seq: Int64, _ entityID: String, node: String, millis: Int64, entity: String = "sets",
                      _ fields: [(String, FieldValue)]) -> PushItem {
        let clock = HLC(millis: testNow - 100_000 + millis, counter: 0, node: node)
        return .valid(ValidEvent(seq: seq, idempotencyKey: "\(node)-\(seq)", entity: entity, entityID: entityID,
                                 fields: fields.map { ValidField(name: $0.0, value: $0.1, clock: clock, clockText: clock.description) }))
    }

    static func run(on storage: any SyncStorage) async throws -> (pushes: [PushOutcome], pages: [PullPage]) {
        let auth = try await storage.newUser("alice", tokenHash: "script")
        var pushes: [PushOutcome] = []
        func push(_ device: String, _ items: [PushItem]) async throws {
            pushes.append(try await storage.push(user: auth, deviceID: device, items: items, now: testNow))
        }
        let ids = ["zeta", "alpha", "Mid", "b-2", "b-10", "a"]
        // Device A: 30 events over six rows, 1 to 4 fields each, inserted out of sort order.
        try await push("A", (1...30).map { i in
            event(Int64(i), ids[i % ids.count], node: "A", millis: Int64(i) * 10, entity: i % 4 == 0 ? "workouts" : "sets",
                  (0..<(i % 4 + 1)).map { ("f\($0)", i % 3 == 0 ? .text("v\(i)") : .int(Int64(i))) })
        })
        // Device B: older and newer writes of A's fields, an equal clock (a no-op), a rejected
        // event, a replay of its own seq, and a tombstone.
        try await push("B", [
            event(1, "zeta", node: "B", millis: 5, [("f0", .int(-1))]),
            event(2, "alpha", node: "B", millis: 1_000, [("f0", .real(2.5)), ("deleted_at", .int(testNow))]),
            .rejected(seq: 3, error: ErrorDetail(code: "invalid_value", message: "no")),
            event(4, "Mid", node: "B", millis: 1_000, [("note", .null)]),
        ])
        try await push("B", [event(4, "Mid", node: "B", millis: 2_000, [("note", .text("replayed"))]),
                             event(5, "a", node: "B", millis: 2_000, [("f0", .text("b")), ("f1", .text("b"))])])
        // Device A again: a key it already used under a new seq, then a restore with a newer clock.
        try await push("A", [item(31, "zeta", "f0", .int(99), millis: 3_000, node: "A", key: "A-1"),
                             event(32, "alpha", node: "A", millis: 3_000, [("deleted_at", .null)])])
        // A gap: nothing of it lands.
        try await push("C", [event(2, "zeta", node: "C", millis: 9_000, [("f0", .int(7))])])

        var pages: [PullPage] = []
        var cursor: Int64 = 0
        repeat {
            let page = try await storage.pull(user: auth, deviceID: "A", after: cursor, limit: .fieldRows(7), maxBytes: 1 << 20)
            pages.append(page)
            cursor = page.cursor
        } while pages.last?.hasMore == true && pages.count < 100
        return (pushes, pages)
    }
}

@Suite("Sync rules (pure)")
struct SyncRulesTests {
    @Test func replaysAreSkippedAndAGapNamesItsSeq() {
        let items: [PushItem] = [Script.item(3, "a", "f", .int(1), millis: 1), Script.item(4, "a", "f", .int(1), millis: 1),
                                 .rejected(seq: 5, error: ErrorDetail(code: "x", message: "x")), Script.item(6, "b", "f", .int(1), millis: 1)]
        // Given the device's ack at 3, when the batch 3...6 arrives, then 3 is a replay and 5 consumes its seq.
        guard case .candidates(let events) = SyncRules.sequence(items, lastAppliedSeq: 3) else { Issue.record("no gap expected"); return }
        #expect(events.map(\.seq) == [4, 6])
        // Given the ack at 1, the same batch skips seq 2.
        #expect(SyncRules.sequence(items, lastAppliedSeq: 1) == .gap(got: 3))
    }

    @Test func decideTurnsOneReadIntoTheWholePushOrAGap() {
        let items = [Script.item(3, "a", "reps", .int(1), millis: 10, key: "old"), Script.item(4, "b", "reps", .int(2), millis: 10),
                     Script.item(5, "a", "reps", .int(3), millis: 20)]
        // Given what a store read for the batch: the ack at 2, the key "old" recorded before
        // digests were kept, row a stored with an older clock
        let plan = SyncRules.readPlan(items)
        #expect(plan.keys == ["old", "dev-4-b", "dev-5-a"] && plan.rows.map(\.entityID) == ["a", "b"])
        let stored = Self.stored("a", reps: 1, clock: HLC(millis: testNow - 100_000, counter: 0, node: "dev"), changeSeq: 3)
        let state = PushState(lastAppliedSeq: 2, head: 7, recordedKeys: ["old": nil], stored: stored)
        // When decided, then seq 3 is a duplicate by its key, 4 and 5 apply under counters 8 and 9,
        // and the writes hold exactly the new keys, the two records, the ack and the counter
        guard case .apply(let writes, .completed(let last, let head, let results, _)) = SyncRules.decide(items, state: state) else {
            Issue.record("expected writes"); return
        }
        #expect(results.map(\.status) == [.duplicate, .applied, .applied])
        #expect(writes.keys.map(\.key) == ["dev-4-b", "dev-5-a"] && writes.records.map(\.changeSeq) == [8, 9])
        #expect(writes.records.map(\.entityID) == ["b", "a"] && writes.records[1].fields.map(\.value) == [.int(3)])
        #expect(last == 5 && head == 9 && writes.head == 9 && writes.headBefore == 7 && writes.lastAppliedSeq == 5)
        // And with the ack at 1 the same batch is a gap at 3, with nothing to write
        #expect(SyncRules.decide(items, state: PushState(lastAppliedSeq: 1, head: 7)) == .gap(lastAppliedSeq: 1, got: 3))
    }

    @Test func laterEventsOfABatchSeeEarlierWritesAndOnlyTheFinalWriteIsStored() {
        let items = [Script.item(1, "s", "reps", .int(1), millis: 10), Script.item(2, "s", "reps", .int(2), millis: 30),
                     Script.item(3, "s", "reps", .int(3), millis: 20), Script.item(4, "s", "reps", .int(4), millis: 40, key: "dev-1-s")]
        let keys: Set<String> = ["dev-1-s", "dev-2-s", "dev-3-s"]
        // When merged over a stored clock older than all of them...
        let stored = Self.stored("s", reps: 0, clock: HLC(millis: testNow - 100_000, counter: 0, node: "dev"), changeSeq: 5)
        let merge = SyncRules.merge(items, lastAppliedSeq: 0, keys: RecordedKeys(new: keys), stored: stored, head: 7)
        // ...then seq 3 loses to seq 2 in the same batch and takes no counter value, seq 4 reuses
        // seq 1's key with other content (refused, applying nothing), and one write (seq 2's) is
        // stored under counter 9.
        #expect(merge.results.map(\.status) == [.applied, .applied, .applied, .rejected])
        #expect(merge.results[3].error?.code == "key_reused")
        #expect(merge.writes.count == 1 && merge.writes[0].fields.map(\.value) == [.int(2)])
        #expect(merge.writes[0].changeSeq == 9 && merge.writes[0].fields.map(\.changeSeq) == [9])
        #expect(merge.head == 9 && merge.lastAppliedSeq == 4)
    }

    @Test func aKeyIsADuplicateOnlyWithTheContentItCarriedBefore() {
        let first = Script.item(1, "s", "reps", .int(5), millis: 10, key: "k")
        guard case .valid(let event) = first else { Issue.record("valid"); return }
        let digest = SyncRules.digest(event)
        // The digest covers what merging reads: entity, id, each field's name, value (and its type) and clock
        for other in [Script.item(1, "s", "reps", .int(6), millis: 10, key: "k"), Script.item(1, "s", "reps", .real(5), millis: 10, key: "k"),
                      Script.item(1, "s", "reps", .text("5"), millis: 10, key: "k"), Script.item(1, "s", "reps", .int(5), millis: 11, key: "k"),
                      Script.item(1, "t", "reps", .int(5), millis: 10, key: "k"), Script.item(1, "s", "sets", .int(5), millis: 10, key: "k"),
                      Script.item(1, "s", "reps", .int(5), millis: 10, key: "k", entity: "reps")] {
            guard case .valid(let e) = other else { continue }
            #expect(SyncRules.digest(e) != digest, "\(e)")
        }
        // ...but not the order of the fields
        let clock = HLC(millis: 1, counter: 0, node: "d")
        let a = ValidField(name: "a", value: .int(1), clock: clock, clockText: clock.description)
        let b = ValidField(name: "b", value: .null, clock: clock, clockText: clock.description)
        #expect(SyncRules.digest(ValidEvent(seq: 1, idempotencyKey: "k", entity: "sets", entityID: "s", fields: [a, b]))
                == SyncRules.digest(ValidEvent(seq: 2, idempotencyKey: "k", entity: "sets", entityID: "s", fields: [b, a])))

        // Given the key stored with that digest, when the same content comes under seq 2 and other content under seq 3
        let items = [Script.item(2, "s", "reps", .int(5), millis: 10, key: "k"), Script.item(3, "s", "reps", .int(9), millis: 10, key: "k"),
                     Script.item(4, "s", "reps", .int(9), millis: 10, key: "old")]
        let merge = SyncRules.merge(items, lastAppliedSeq: 1, keys: RecordedKeys(digests: ["k": digest]), stored: [:], head: 1)
        // Then seq 2 is a duplicate, seq 3 is refused naming its key, and a key stored without a
        // digest (before digests were kept) is a duplicate whatever it carries; all consume their seq
        #expect(merge.results.map(\.status) == [.duplicate, .rejected, .duplicate])
        #expect(merge.results[1].error?.code == "key_reused" && merge.results[1].error?.message.contains("\"k\"") == true)
        #expect(merge.writes.isEmpty && merge.head == 1 && merge.lastAppliedSeq == 4)
    }

    @Test func aNewRowWrittenTwiceInABatchKeepsOnlyTheNewerWriteOfEachField() {
        // Given a row nothing has stored: seq 1 writes it (the fast path for a new row), seq 2
        // overwrites reps with a newer clock and adds weight, seq 3 writes reps with an older clock
        let items = [Script.item(1, "s", "reps", .int(1), millis: 10), Script.item(2, "s", "reps", .int(2), millis: 30),
                     Script.item(3, "s", "weight", .text("100"), millis: 30), Script.item(4, "s", "reps", .int(3), millis: 20)]
        let keys: Set<String> = ["dev-1-s", "dev-2-s", "dev-3-s", "dev-4-s"]
        // When merged with nothing stored
        let merge = SyncRules.merge(items, lastAppliedSeq: 0, keys: RecordedKeys(new: keys), stored: [:], head: 0)
        // Then the record is written once, each field with its newest value under the counter of
        // the event that wrote it last; the losing event takes no counter value
        #expect(merge.results.map(\.status) == [.applied, .applied, .applied, .applied])
        #expect(merge.writes.count == 1 && merge.writes[0].changeSeq == 3)
        let fields = merge.writes.first?.fields ?? []
        #expect(fields.map(\.name) == ["reps", "weight"])
        #expect(fields.map(\.value) == [.int(2), .text("100")] && fields.map(\.changeSeq) == [2, 3])
        #expect(merge.head == 3 && merge.lastAppliedSeq == 4)
    }

    @Test func aPageNeverSplitsARecordButAlwaysProgresses() throws {
        func record(_ seq: Int64, _ fields: [String]) -> RecordRow {
            RecordRow(entity: "sets", entityID: "s\(seq)", changeSeq: seq,
                      fields: fields.map { StoredField(name: $0, value: .int(seq), clock: "c", changeSeq: seq) })
        }
        let snapshot = ChangeSnapshot(head: 3, lastAppliedSeq: 0, records: [record(1, ["a"]), record(2, ["a", "b", "c"]), record(3, ["a"])].map(\.pulled))
        // A limit of 2 stops before record 2's three fields...
        let first = try SyncRules.page(snapshot, after: 0, limit: .fieldRows(2), maxBytes: 1 << 20)
        #expect(first.fieldCount == 1 && first.cursor == 1 && first.hasMore)
        // ...and an empty page takes them whole, beyond the limit.
        let second = try SyncRules.page(ChangeSnapshot(head: 3, lastAppliedSeq: 0, records: Array(snapshot.records.dropFirst())), after: 1, limit: .fieldRows(2), maxBytes: 1 << 20)
        #expect(second.fieldCount == 3 && second.cursor == 2 && second.hasMore)
        // A cursor past the head answers the head (the store lost history).
        #expect(try SyncRules.page(ChangeSnapshot(head: 3, lastAppliedSeq: 0, records: []), after: 9, limit: .fieldRows(2), maxBytes: 1 << 20).cursor == 3)
    }

    @Test func pullOrderIsTheCounterThenBytewise() {
        let records = ["b", "B", "a", "Z", "é"].map { RecordRow(entity: "sets", entityID: $0, changeSeq: 1, fields: []) }
        #expect(records.sorted(by: RecordRow.pullOrder).map(\.entityID) == ["B", "Z", "a", "b", "é"])
        let fields = ["b", "B", "é", "a"].map { StoredField(name: $0, value: .null, clock: "c", changeSeq: 1) }
        #expect(fields.sorted(by: StoredField.nameOrder).map(\.name) == ["B", "a", "b", "é"])
    }

    /// What a store holds for row `id`: a record of one field, reps.
    static func stored(_ id: String, reps: Int64, clock: HLC, changeSeq: Int64) -> [RowKey: RecordRow] {
        let row = RowKey(entity: "sets", entityID: id)
        return [row: RecordRow(row: row, changeSeq: changeSeq,
                               fields: [StoredField(name: "reps", value: .int(reps), clock: clock.description, changeSeq: changeSeq)])]
    }

    @Test func epochsCarryTheHistoryGeneration() {
        #expect(SyncRules.epoch(database: "ab", historyGeneration: 0) == "ab")
        #expect(SyncRules.epoch(database: "ab", historyGeneration: 2) == "ab-g2")
    }
}
