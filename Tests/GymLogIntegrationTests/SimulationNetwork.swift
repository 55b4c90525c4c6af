import Foundation
import GymLogCore
import GymLogTestSupport
import GymLogWire
import GymLogSyncClient
import SplitMix

// MARK: What the server acknowledged

extension Sim {
    /// What the server said, seen on the wire before any fault touches the answer. This is
    /// the ground truth the oracle checks against: an event counts as acknowledged when the
    /// server answered its push with 200, whether or not the client got that answer.
    struct Ledger: Sendable {
        /// The events applied in the server's current life: (device, seq) -> idempotency key.
        var appliedBySeq: [String: String] = [:]
        /// Each applied idempotency key and the epoch its push was answered under: a new
        /// history generation deletes the keys of the past ones, so only the keys answered
        /// under the current epoch must still be on the server.
        var appliedKeys: [String: String] = [:]
        /// Every field of every acknowledged event (applied now or before), across lives.
        var acknowledged: [Write] = []
        /// Every field any device ever pushed, by `entity/id/field/clock`: where each final value came from.
        var pushed: [String: FieldValue] = [:]
        var violations: [String] = []
        var appliedEvents = 0, duplicateEvents = 0, rejectedEvents = 0

        struct Write: Sendable {
            var row: String, field: String, value: FieldValue, clock: HLC
        }

        /// The part that a restore from a backup taken now would bring back.
        struct Life: Sendable { var appliedBySeq: [String: String]; var appliedKeys: [String: String] }
        var life: Life { Life(appliedBySeq: appliedBySeq, appliedKeys: appliedKeys) }
        mutating func restore(_ life: Life) { appliedBySeq = life.appliedBySeq; appliedKeys = life.appliedKeys }

        /// An event's fields; one that does not read back is a violation (the outbox payload is sent as stored).
        mutating func readFields(_ event: PushEvent) -> [String: WireField] {
            do { return try event.fields.decoded() } catch {
                violations.append("event \(event.seq)'s fields do not read back: \(error)")
                return [:]
            }
        }

        mutating func notePushed(_ request: PushRequest) {
            for event in request.events {
                for (name, field) in readFields(event) { pushed["\(event.entity)/\(event.entityID)/\(name)/\(field.c)"] = field.v }
            }
        }

        /// Checks one answered push against exactly-once and records what it acknowledged.
        mutating func noteAnswered(_ request: PushRequest, _ response: PushResponse) {
            let events = Dictionary(request.events.map { ($0.seq, $0) }, uniquingKeysWith: { a, _ in a })
            for result in response.results {
                guard let event = events[result.seq] else {
                    violations.append("the server answered seq \(result.seq), which device \(request.deviceID) did not send")
                    continue
                }
                let slot = "\(request.deviceID)#\(event.seq)"
                switch result.status {
                case .applied:
                    appliedEvents += 1
                    // A key of a past generation was deleted with it and may apply anew.
                    if appliedKeys[event.idempotencyKey] == response.epoch || appliedBySeq[slot] != nil {
                        violations.append("event \(slot) (key \(event.idempotencyKey)) was applied a second time")
                    }
                    appliedKeys[event.idempotencyKey] = response.epoch
                    appliedBySeq[slot] = event.idempotencyKey
                case .duplicate:
                    duplicateEvents += 1
                    if appliedBySeq[slot] == nil && appliedKeys[event.idempotencyKey] == nil {
                        violations.append("event \(slot) (key \(event.idempotencyKey)) was answered duplicate but never applied")
                    }
                case .rejected:
                    rejectedEvents += 1
                    violations.append("event \(slot) was rejected: \(result.error.map { "\($0.code): \($0.message)" } ?? "?")")
                    continue
                }
                for (name, field) in readFields(event) {
                    acknowledged.append(Write(row: "\(event.entity)/\(event.entityID)", field: name, value: field.v, clock: field.c))
                }
            }
        }
    }
}

// MARK: The fault-injecting exchange

extension Sim {
    enum Fault: String, CaseIterable, Sendable {
        /// Never reaches the server.
        case dropRequest
        /// The connection dies before the request is sent.
        case resetBeforeSend
        /// A proxy answers 503 without asking the server.
        case proxyError
        /// The server gets a prefix of the body.
        case truncateRequest
        /// Other actors overtake the request before it is sent.
        case delay
        /// The server gets the request twice; the client sees the second answer.
        case duplicate
        /// A copy is kept and sent again later, after newer requests (reordering).
        case replayLater
        /// The server commits; the answer is lost.
        case dropResponse
        /// The server commits; the connection dies while the answer is read.
        case resetAfterCommit
        /// The server commits; a proxy replaces the answer with a 502 page.
        case gatewayErrorAfterCommit
        /// The server commits; the client gets a prefix of the answer.
        case truncateResponse
    }

    /// The seam between every device and the server: it gates each request through `Turns`,
    /// records the server's real answers in the ledger, and, while faults are on, breaks
    /// requests and answers in the ways `Fault` lists.
    final class Network: @unchecked Sendable {
        let turns: Turns
        let ledger: Box<Ledger>
        private let state: Box<State>
        private let base: HTTPExchange

        struct State {
            var random: SplitMix64
            var faultRate = 0.0
            var counts: [Fault: Int] = [:]
            var requests = 0
            var replays = 0
            var stash: [HTTPExchangeRequest] = []
            /// Pushes refused because they were numbered under an epoch that had moved on.
            var staleEpochPushes = 0
        }

        init(turns: Turns, ledger: Box<Ledger>, seed: UInt64) {
            self.turns = turns; self.ledger = ledger
            state = Box(State(random: SplitMix64(seed: seed)))
            base = HTTPSyncTransport.networkExchange(client: NetworkClients.systemTrust, server: "simulated server")
        }

        /// Turns faults on (a fraction of requests) or off (0).
        func setFaultRate(_ rate: Double) { state.with { $0.faultRate = rate } }
        /// Drops the stale copies (at a restore or wipe): letting them cross (CI seed
        /// 123632983783011, PostgreSQL) still loses acknowledged writes, even with pushes
        /// refused by epoch (RELIABILITY.md, known limits; `Options.stashCrossesRestores`).
        func forgetStash() { state.with { $0.stash.removeAll() } }
        var counts: [Fault: Int] { state.get.counts }
        var requests: Int { state.get.requests }
        var replays: Int { state.get.replays }
        var staleEpochPushes: Int { state.get.staleEpochPushes }

        /// Odd devices speak protocol v1 (an old gymlog beside new ones), even ones the newest.
        func transport(port: Int, token: String, actor: Int) -> HTTPSyncTransport {
            HTTPSyncTransport(baseURL: URL(string: "http://127.0.0.1:\(port)")!, token: token, timeout: 60,
                              protocolVersion: actor.isMultiple(of: 2) ? .newest : .v1) { request in
                await self.turns.gate(actor)
                return try await self.send(request, actor: actor)
            }
        }

        private func send(_ request: HTTPExchangeRequest, actor: Int) async throws -> (status: Int, body: Data) {
            let (fault, replay) = state.with { s -> (Fault?, HTTPExchangeRequest?) in
                s.requests += 1
                var replay: HTTPExchangeRequest?
                if !s.stash.isEmpty && s.random.chance(0.3) { replay = s.stash.remove(at: s.random.int(0..<s.stash.count)); s.replays += 1 }
                guard s.faultRate > 0, s.random.chance(s.faultRate) else { return (nil, replay) }
                let fault = s.random.pick(Fault.allCases)
                s.counts[fault, default: 0] += 1
                return (fault, replay)
            }
            if let replay { _ = try? await deliver(replay) }
            let unreachable = { (reason: String) in SyncTransportError.unreachable(server: "simulated server", reason: reason) }
            switch fault {
            case nil:
                return try await deliver(request)
            case .dropRequest:
                throw unreachable("the request timed out (fault: dropped)")
            case .resetBeforeSend:
                throw unreachable("connection reset by peer (fault)")
            case .proxyError:
                return (503, Data("<html><body>503 Service Unavailable</body></html>".utf8))
            case .truncateRequest:
                var cut = request
                if let body = request.body, body.count > 1 {
                    cut.body = body.prefix(state.with { $0.random.int(1..<body.count) })
                }
                return try await deliver(cut)
            case .delay:
                for _ in 0..<state.with({ $0.random.int(1...4) }) { await turns.gate(actor) }
                return try await deliver(request)
            case .duplicate:
                _ = try await deliver(request)
                return try await deliver(request)
            case .replayLater:
                state.with { $0.stash.append(request) }
                return try await deliver(request)
            case .dropResponse:
                _ = try await deliver(request)
                throw unreachable("the request timed out (fault: answer dropped)")
            case .resetAfterCommit:
                _ = try await deliver(request)
                throw unreachable("connection reset by peer (fault, after commit)")
            case .gatewayErrorAfterCommit:
                _ = try await deliver(request)
                return (502, Data("<html><body>502 Bad Gateway</body></html>".utf8))
            case .truncateResponse:
                let answer = try await deliver(request)
                return (answer.status, answer.body.prefix(state.with { $0.random.int(0..<max(1, answer.body.count)) }))
            }
        }

        /// Sends to the real server and records what it answered.
        private func deliver(_ request: HTTPExchangeRequest) async throws -> (status: Int, body: Data) {
            let pushBody = request.url.path.hasSuffix("/v1/push") ? request.body : nil
            let pushed = pushBody.flatMap { try? JSONDecoder().decode(PushRequest.self, from: $0) }
            if let pushed { ledger.with { $0.notePushed(pushed) } }
            let answer = try await base(request)
            if let pushed, answer.status == 200 {
                guard let response = try? JSONDecoder().decode(PushResponse.self, from: answer.body) else {
                    ledger.with { $0.violations.append("a 200 push answer did not decode: \(String(decoding: answer.body.prefix(200), as: UTF8.self))") }
                    return answer
                }
                ledger.with { $0.noteAnswered(pushed, response) }
            } else if pushed != nil, answer.status == 409, String(decoding: answer.body, as: UTF8.self).contains("\"epoch_changed\"") {
                state.with { $0.staleEpochPushes += 1 }
            }
            return answer
        }
    }
}
