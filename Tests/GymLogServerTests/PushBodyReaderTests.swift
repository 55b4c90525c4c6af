import Foundation
import GymLogCore
@testable import GymLogServer
import GymLogWire
import GymLogTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// The hand-written push body reader must read exactly what JSONDecoder reads, or step aside
/// (nil) so JSONDecoder decides; it must never crash on malformed input.
@Suite struct PushBodyReaderTests {
    /// A comparable rendering of a decoded push.
    static func render(_ p: IncomingPush) -> String {
        var out = "device=\(p.deviceID)\n"
        for e in p.events {
            out += "seq=\(e.seq) key=\(String(describing: e.idempotencyKey)) entity=\(String(describing: e.entity)) "
                + "id=\(String(describing: e.entityID)) op=\(String(describing: e.op))"
            if let fields = e.fields {
                for (name, f) in fields.sorted(by: { $0.key < $1.key }) {
                    let value: String
                    switch f.value {
                    case nil: value = "missing \(f.inexactNumber ?? "")"
                    case .null?: value = "null"
                    case .int(let i)?: value = "int \(i)"
                    case .real(let d)?: value = "real \(d.bitPattern)"
                    case .text(let s)?: value = "text \(Array(s.utf8))"
                    }
                    out += " [\(Array(name.utf8)): \(value) c=\(String(describing: f.clock))]"
                }
            } else {
                out += " fields=nil"
            }
            out += "\n"
        }
        return out
    }

    /// Checks the reader against JSONDecoder on one input; returns whether the reader answered.
    @discardableResult
    static func agree(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let fast = PushBodyReader.read(bytes)
        // The JSONDecoder path as the route takes it: decode, then re-read numbers exactly.
        var slow = try? JSONDecoder().decode(IncomingPush.self, from: Data(bytes))
        slow?.rereadFieldNumbers(from: Data(bytes))
        if let fast {
            #expect(slow != nil, "reader accepted what JSONDecoder rejects: \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
            // The reader must never take a body the strict check refuses (a duplicate key, ...).
            #expect(JSONDiagnosis.problem(in: Data(bytes)) == nil, "reader accepted what the strict check refuses: \(String(decoding: bytes, as: UTF8.self))",
                    sourceLocation: sourceLocation)
            if let slow { #expect(render(fast) == render(slow), sourceLocation: sourceLocation) }
        }
        return fast != nil
    }

    /// Item 4: the reader stops at the first event past the limit; the JSONDecoder path
    /// counts events before decoding, up to one past the limit.
    @Test func eventsAreCountedUpToTheLimit() throws {
        let events = (1...10).map { #"{"seq":\#($0)}"# }.joined(separator: ",")
        let body = Data(#"{"x":[1,{"events":[]}],"device_id":"d","events":[\#(events)]}"#.utf8)
        #expect(throws: PushBodyReader.TooManyEvents.self) { try PushBodyReader.read(body, maxEvents: 9) }
        #expect(try PushBodyReader.read(body, maxEvents: 10)?.events.count == 10)
        // Past the limit, nothing after it is read: a broken rest is not noticed.
        let broken = Data(#"{"device_id":"d","events":[\#(events),{"seq":11},{"seq":"#.utf8)
        #expect(throws: PushBodyReader.TooManyEvents.self) { try PushBodyReader.read(broken, maxEvents: 10) }
        #expect(PushBodyReader.eventCount(body, upTo: 100) == 10)
        #expect(PushBodyReader.eventCount(body, upTo: 3) == 4)
        #expect(PushBodyReader.eventCount(Data(#"{"device_id":"d","events":{}}"#.utf8), upTo: 3) == 0)
    }

    static let device = Device("0b7c6f3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f")

    static func sampleBody() throws -> [UInt8] {
        let c = device.clock(testNow)
        let events = [
            event(1, "s1", op: "create", ["reps": (.int(5), c), "weight": (.text("102.5"), c), "rpe": (.real(8.5), c),
                                           "note": (.text("felt \"easy\", \\ / é 😀\n\t\u{1}"), c), "deleted_at": (.null, c),
                                           "big": (.int(Int64.min), c), "neg": (.real(-0.25), c), "tiny": (.real(1e-300), c)]),
            event(2, "s2", ["reps": (.int(-3), c)]),
            event(3, "w1", entity: "workouts", op: "delete", ["deleted_at": (.int(testNow), c)]),
        ]
        return Array(try JSONEncoder().encode(PushRequest(deviceID: device.id, events: events)))
    }

    @Test func readsWhatTheClientSendsLikeJSONDecoder() throws {
        #expect(Self.agree(try Self.sampleBody()))
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted, .sortedKeys]
        let c = Self.device.clock(testNow)
        #expect(Self.agree(Array(try pretty.encode(PushRequest(deviceID: "d", events: [event(7, "x", ["a": (.real(0.1), c)])])))))
        #expect(Self.agree(Array(#"{"device_id":"d","events":[]}"#.utf8)))
    }

    @Test func unknownKeysNullsAndEscapesAreReadOrLeftToJSONDecoder() {
        let accepted = [
            #"{"extra":[1,{"a":[true,false,null,-0.5e+3,"x"]}],"device_id":"d","events":[{"seq":1,"idempotency_key":null,"op":"x","zz":{},"fields":{"a":{"v":null,"c":null,"q":1}}}]}"#,
            #" { "device\u005fid" : "d\u00e9\ud83d\ude00" , "events" : [ { "seq" : -0 , "fields" : null } ] } "#,
            #"{"device_id":"d","events":[{"seq":9223372036854775807,"fields":{"a":{"c":"x"},"b":{"v":"\/\b\f\n\r\t\"\\"}}}]}"#,
            #"{"device_id":"d","events":[{"seq":-9223372036854775808,"fields":{}}]}"#,
        ]
        for text in accepted { #expect(Self.agree(Array(text.utf8)), "\(text)") }

        // Shapes the reader leaves to JSONDecoder (which may accept or reject them).
        let deferred = [
            "", " ", "[]", "{}", "null", #"{"device_id":"d"}"#, #"{"events":[]}"#,
            #"{"device_id":"d","events":[],}"#, #"{"device_id":"d","device_id":"e","events":[]}"#,
            #"{"device_id":"d","events":[]} x"#, #"{"device_id":"d","events":[{"seq":"1"}]}"#,
            #"{"device_id":"d","events":[{"seq":1.0}]}"#, #"{"device_id":"d","events":[{"seq":1.5}]}"#,
            #"{"device_id":"d","events":[{"seq":99999999999999999999}]}"#, #"{"device_id":"d","events":[{"seq":01}]}"#,
            #"{"device_id":"d","events":[{"seq":1,"fields":{"a":{"v":5.0}}}]}"#,
            #"{"device_id":"d","events":[{"seq":1,"fields":{"a":{"v":1e400}}}]}"#,
            #"{"device_id":"d","events":[{"seq":1,"fields":{"a":{"v":2.5e-400}}}]}"#,
            #"{"device_id":"d","events":[{"seq":1,"fields":{"a":{"v":99999999999999999999}}}]}"#,
            #"{"device_id":"d","events":[{"seq":1,"fields":{"a":{"v":true}}}]}"#,
            #"{"device_id":"d","events":[{"seq":1,"fields":{"a":1}}]}"#,
            #"{"device_id":"d","events":[{"seq":1,"fields":[]}]}"#,
            #"{"device_id":"d","events":[{"seq":1,"entity":5}]}"#,
            #"{"device_id":"d","events":[{"seq":1,"fields":{"a":{"v":1},"a":{"v":2}}}]}"#,
            // Duplicate keys anywhere, unknown ones included: the strict check refuses them all.
            #"{"x":1,"device_id":"d","x":2,"events":[]}"#,
            #"{"device_id":"d","device\u005fid":"e","events":[]}"#,
            #"{"device_id":"d","events":[{"seq":1,"zz":1,"zz":2,"fields":{}}]}"#,
            #"{"device_id":"d","events":[{"seq":1,"fields":{"a":{"v":1,"q":1,"q":2}}}]}"#,
            #"{"device_id":"d","events":[{"seq":1,"fields":{"a":{"v":1,"v":2}}}]}"#,
            #"{"device_id":"d","x":[{"y":{"b":1,"b":2}}],"events":[]}"#,
            #"{"device_id":"\ud83d","events":[]}"#, #"{"device_id":"\udc00","events":[]}"#, #"{"device_id":"\x","events":[]}"#,
            "{\"device_id\":\"a\tb\",\"events\":[]}", "\u{FEFF}{\"device_id\":\"d\",\"events\":[]}",
            String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
            "{\"x\":" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + ",\"device_id\":\"d\",\"events\":[]}",
        ]
        for text in deferred { #expect(!Self.agree(Array(text.utf8)), "\(text)") }
        #expect(!Self.agree(Array(#"{"device_id":""#.utf8) + [0xFF, 0x22] + Array(#","events":[]}"#.utf8)))
    }

    /// Random mutations of a real body: the reader never crashes and never disagrees with JSONDecoder.
    @Test func mutatedBodiesNeverCrashOrDisagree() throws {
        let body = try Self.sampleBody()
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("{}[]\",:\\0123456789-+.eEtrufalsn u".utf8) + [0x00, 0x09, 0x0A, 0x7F, 0x80, 0xC3, 0xFF]
        var answered = 0
        for _ in 0..<3000 {
            var b = body
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let at = Int.random(in: 0..<b.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: b.remove(at: at)
                case 1: b.insert(alphabet.randomElement(using: &rng)!, at: at)
                case 2: b[at] = alphabet.randomElement(using: &rng)!
                default: b = Array(b.prefix(at))
                }
                if b.isEmpty { break }
            }
            if Self.agree(b) { answered += 1 }
        }
        #expect(answered > 0)
    }

    @Test func malformedPushBodiesAre400NeverACrash() async throws {
        try await Harness.with { h in
            let token = try await h.addUser("alice")
            try await h.router { client in
                func post(_ bytes: [UInt8]) async throws -> TestResponse {
                    try await client.execute(uri: "/v1/push", method: .post, headers: authHeaders(token), body: ByteBuffer(bytes: bytes))
                }
                let d = Self.device.id
                let cases: [(String, String)] = [
                    (#"{"device_id":"\#(d)","events":[{"seq":1}"#, "invalid_json"),
                    (#"{"device_id":"\#(d)","events":[]} trailing"#, "invalid_json"),
                    (#"{"device_id":"\ud800","events":[]}"#, "invalid_json"),
                    (#"{"device_id":"\#(d)","events":[{"seq":"1"}]}"#, "invalid_request"),
                    (#"{"device_id":5,"events":[]}"#, "invalid_request"),
                    (#"{"device_id":"\#(d)","events":{}}"#, "invalid_request"),
                    (#"{"device_id":"\#(d)","events":[7]}"#, "invalid_request"),
                    (#"{"events":[]}"#, "invalid_request"),
                    (String(repeating: "[", count: 10_000), "invalid_json"),
                ]
                for (text, code) in cases {
                    try expectError(try await post(Array(text.utf8)), .badRequest, code)
                }
                try expectError(try await post(Array(#"{"device_id":""#.utf8) + [0xC3, 0x28] + Array(#"","events":[]}"#.utf8)), .badRequest, "invalid_json")
                // JSONDecoder reads `fields` leniently (one bad event must not fail the request), so a
                // lone surrogate there rejects only its event, as before the reader existed.
                let lenient = try await post(Array(#"{"device_id":"\#(d)","events":[{"seq":1,"idempotency_key":"k0","entity":"sets","entity_id":"s0","fields":{"a":{"v":"\ud800","c":"\#(Self.device.clock(testNow))"}}}]}"#.utf8))
                #expect(lenient.status == .ok)
                let lenientBody: PushResponse = try decodeBody(lenient)
                #expect(lenientBody.results.map(\.status) == [.rejected])

                // Random garbage and mutations: always a JSON answer, never a 5xx.
                var body = try Self.sampleBody()
                var rng = SystemRandomNumberGenerator()
                for n in 0..<150 {
                    if n % 3 == 0 { body = try Self.sampleBody() }
                    body[Int.random(in: 0..<body.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                    let response = try await post(body)
                    #expect(response.status.code < 500, "\(String(buffer: response.body))")
                    _ = try decodeBody(response, as: ErrorBodyOrPush.self)
                }

                // The common shape with unknown keys and escapes is applied like any other.
                let fresh = Device()
                let ok = #"{"device_id":"\#(fresh.id)","x":[1,{"y":null}],"events":[{"seq":1,"idempotency_key":"k1","entity":"sets","entity_id":"q\u0031","op":"create","fields":{"note":{"v":"a\"b","c":"\#(Self.device.clock(testNow))","z":0},"reps":{"v":5,"c":"\#(Self.device.clock(testNow))"}}}]}"#
                let response = try await post(Array(ok.utf8))
                #expect(response.status == .ok)
                let pushed: PushResponse = try decodeBody(response)
                #expect(pushed.results == [PushResult(seq: 1, status: .applied)])
                let pages = try await client.pullAll(token, device: fresh).changes
                let fields = merged(pages)
                #expect(fields["sets/q1/note"]?.v == .text("a\"b"))
                #expect(fields["sets/q1/reps"]?.v == .int(5))
            }
        }
    }

    @Test func handWrittenPushAnswerMatchesJSONEncoder() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let response = PushResponse(epoch: "0123abcd", lastAppliedSeq: 42, cursor: "0123abcd:17",
                                    results: [PushResult(seq: 41, status: .duplicate), PushResult(seq: 42, status: .applied)])
        let hand = try #require(encodePushResponse(response))
        #expect(hand == String(decoding: try encoder.encode(response), as: UTF8.self))
        let empty = PushResponse(epoch: "e", lastAppliedSeq: 0, cursor: "e:0", results: [])
        #expect(encodePushResponse(empty) == String(decoding: try encoder.encode(empty), as: UTF8.self))
        let rejected = PushResponse(epoch: "e", lastAppliedSeq: 1, cursor: "e:0",
                                    results: [PushResult(seq: 1, status: .rejected, error: ErrorDetail(code: "c", message: "m"))])
        #expect(encodePushResponse(rejected) == nil)
    }
}

/// Either answer of a push: a 200 body or an error body (for "it is JSON" checks).
struct ErrorBodyOrPush: Decodable {
    init(from decoder: Decoder) throws {
        if (try? PushResponse(from: decoder)) != nil { return }
        _ = try ErrorBody(from: decoder)
    }
}
