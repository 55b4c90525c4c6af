import Foundation
import GymLogCore
import GymLogServer
import GymLogServerCore
import GymLogTestSupport
import GymLogWire
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 29 on every store: the key verifier is set once, drops the plaintext history with a
/// new generation, and every push and pull of an encrypted account is checked against it
/// before anything is read or stored.
@Suite("Account key")
struct AccountKeyEndpointTests {
    private func setKey(_ client: some TestClientProtocol, _ token: String, _ verifier: String) async throws -> TestResponse {
        try await client.execute(uri: "/v1/account/key", method: .put, headers: authHeaders(token),
                                 body: ByteBuffer(string: "{\"verifier\":\"\(verifier)\"}"))
    }

    private func pull(_ client: some TestClientProtocol, _ token: String, key: String?, device: Device) async throws -> TestResponse {
        try await client.execute(uri: "/v2/pull?device_id=\(device.id)", method: .get, headers: authHeaders(token, json: false, key: key))
    }

    @Test(arguments: Backend.conformance) func theKeyIsSetOnceAndCheckedOnEveryPushAndPull(_ backend: Backend) async throws {
        try await Harness.with(backend) { h in
            let token = try await h.addUser("lifter")
            let app = try await buildApplication(h.config, storage: h.storage)
            let device = Device()
            let key = AccountKey.random(), other = AccountKey.random()
            let seal = ValueSeal(key: key, account: "lifter")
            try await app.test(.router) { client in
                // Given an account that synced in the clear
                let plain = try await client.push(token, device: device, [event(1, "s1", ["reps": (.int(5), device.clock(testNow))])])
                #expect(plain.status == .ok)
                let before: AccountInfo = try decodeBody(try await client.execute(uri: "/v1/account", method: .get, headers: authHeaders(token, json: false)))
                #expect(before == AccountInfo(user: "lifter", encrypted: false, empty: false))

                // When its key is set: the plaintext is dropped, once
                let set = try await setKey(client, token, key.verifier)
                #expect(set.status == .ok)
                #expect(try (decodeBody(set) as AccountKeyResponse).droppedHistory)
                let after: AccountInfo = try decodeBody(try await client.execute(uri: "/v1/account", method: .get, headers: authHeaders(token, json: false)))
                #expect(after == AccountInfo(user: "lifter", encrypted: true, empty: true))
                #expect(try (decodeBody(try await setKey(client, token, key.verifier)) as AccountKeyResponse).droppedHistory == false)
                let second = try await setKey(client, token, other.verifier)
                #expect(second.status == .conflict && String(buffer: second.body).contains("key_exists"))

                // Then a pull without the key, or with another, is refused; with it, the history is gone
                let none = try await pull(client, token, key: nil, device: device)
                #expect(none.status == .forbidden && String(buffer: none.body).contains("key_required"))
                let wrong = try await pull(client, token, key: other.verifier, device: device)
                #expect(wrong.status == .forbidden && String(buffer: wrong.body).contains("wrong_key"))
                let right = try await pull(client, token, key: key.verifier, device: device)
                #expect(right.status == .ok)
                #expect(try (decodeBody(right) as CompactPullResponse).changes.isEmpty)

                // And a push with another key stores nothing; a plaintext value is refused per event; sealed values go in
                let clock = device.clock(testNow + 1000)
                let plainEvent = event(2, "s2", ["reps": (.int(6), clock)])
                let sealedEvent = try seal.sealed(event(3, "s3", ["reps": (.int(7), clock), "note": (.text("heavy"), clock)]))
                let body = { (events: [PushEvent]) in ByteBuffer(data: PushRequest(deviceID: device.id, events: events).jsonBody()) }
                let refused = try await client.execute(uri: "/v1/push", method: .post, headers: authHeaders(token, key: other.verifier), body: body([plainEvent, sealedEvent]))
                #expect(refused.status == .forbidden && String(buffer: refused.body).contains("wrong_key"))
                let pushed = try await client.execute(uri: "/v1/push", method: .post, headers: authHeaders(token, key: key.verifier), body: body([plainEvent, sealedEvent]))
                #expect(pushed.status == .ok, "\(String(buffer: pushed.body))")
                let results = try (decodeBody(pushed) as PushResponse).results
                #expect(results.map(\.status) == [.rejected, .applied])
                #expect(results.first?.error?.code == "not_sealed")
                let page: CompactPullResponse = try decodeBody(try await pull(client, token, key: key.verifier, device: device))
                let pulled = try #require(page.expanded().changes.first)
                #expect(pulled.entityID == "s3")
                #expect(try seal.opened(pulled).get().fields["note"]?.v == .text("heavy"))
            }
        }
    }

    /// A push authenticated in the clear whose write runs after another device set the key
    /// (`key enable` racing a slow push) would put plaintext into an encrypted account: the
    /// store checks the key again inside the write and stores nothing (answered 403 `key_required`).
    @Test(arguments: Backend.conformance) func aPushCheckedBeforeTheKeyWasSetStoresNothing(_ backend: Backend) async throws {
        try await Harness.with(backend) { h in
            let token = try await h.addUser("lifter")
            let authenticated = try #require(try await h.storage.userForTokenHash(Tokens.hash(token)))
            #expect(authenticated.keyVerifier == nil)
            let verifier = AccountKey.random().verifier
            #expect(try await h.storage.setKeyVerifier(user: authenticated, verifier: verifier) == .set(droppedHistory: false))
            let plaintext = Script.event(1, "set-1", node: "dev", millis: 10, [("reps", .int(5)), ("note", .text("heavy"))])
            let refused = await #expect(throws: StorageError.self) {
                _ = try await h.storage.push(user: authenticated, deviceID: "dev", items: [plaintext], now: testNow)
            }
            #expect(refused == .keyChanged)
            #expect(try await !h.storage.hasHistory(user: authenticated))
            // And the same device, authenticated again with the key, pushes as before
            let now = try #require(try await h.storage.userForTokenHash(Tokens.hash(token)))
            #expect(now.keyVerifier == verifier)
            let outcome = try await h.storage.push(user: now, deviceID: "dev", items: [plaintext], now: testNow)
            guard case .completed(let lastApplied, _, _, _) = outcome else { Issue.record("\(outcome)"); return }
            #expect(lastApplied == 1)
        }
    }
}
