import Foundation
import GymLogCore
@testable import GymLogServer
@testable import GymLogServerCore
import GymLogWire
import GymLogTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// The one push body reader: what it reads, what it refuses and how it names the problem.
@Suite struct PushBodyReaderTests {
    /// A comparable rendering of a read push.
    static func render(_ p: IncomingPush) -> String {
        var out = "device=\(p.deviceID) epoch=\(String(describing: p.epoch))\n"
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

    /// The reader's answer on a text: the push or the refusal.
    static func answer(_ text: String) -> Result<IncomingPush, PushBodyReader.Refusal> {
        Result { () throws(PushBodyReader.Refusal) in try PushBodyReader.read(Array(text.utf8)) }
    }

    /// Stops at the first event past the limit: nothing after it is read.
    @Test func eventsAreCountedUpToTheLimit() throws {
        let events = (1...10).map { #"{"seq":\#($0)}"# }.joined(separator: ",")
        let body = Data(#"{"x":[1,{"events":[]}],"device_id":"d","events":[\#(events)]}"#.utf8)
        #expect(throws: PushBodyReader.Refusal.tooManyEvents) { try PushBodyReader.read(body, maxEvents: 9) }
        #expect(try PushBodyReader.read(body, maxEvents: 10).events.count == 10)
        let broken = Data(#"{"device_id":"d","events":[\#(events),{"seq":11},{"seq":"#.utf8)
        #expect(throws: PushBodyReader.Refusal.tooManyEvents) { try PushBodyReader.read(broken, maxEvents: 10) }
        // A problem before the limit is named; event 11 is never reached.
        let early = Data(#"{"device_id":"d","events":[{"seq":1},]"#.utf8 + Array(events.utf8))
        #expect(throws: PushBodyReader.Refusal.invalidJSON("unexpected ']' at byte offset 37")) { try PushBodyReader.read(early, maxEvents: 1) }
    }

    /// An event's fields past the limit are counted, not kept (190,000 fields once took a
    /// pull from 3.7 ms to 153 ms and the server to 411 MB), and the event is rejected naming the count.
    @Test func fieldsPastTheLimitAreCountedNotKept() throws {
        let clock = "001763719000000-00000-d"
        let fields = (0..<200_000).map { #""f\#($0)":{"v":1,"c":"\#(clock)"}"# }.joined(separator: ",")
        let body = #"{"device_id":"d","events":[{"seq":1,"idempotency_key":"k","entity":"sets","entity_id":"x","op":"update","fields":{\#(fields)}}]}"#
        let event = try #require(try PushBodyReader.read(Array(body.utf8)).events.first)
        #expect(event.fields?.count == maxEventFields)
        #expect(event.fieldCount == 200_000)
        guard case .rejected(_, let error) = PushValidation.validate(event) else { Issue.record("an event of 200,000 fields was valid"); return }
        #expect(error.code == "too_many_fields" && error.message.contains("sets 200000 fields"), "\(error)")
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

    @Test func readsWhatTheClientSends() throws {
        let sample = try Self.sampleBody()
        let request = try JSONDecoder().decode(PushRequest.self, from: Data(sample))
        for body in [sample, Array(request.jsonBody())] {
            let push = try PushBodyReader.read(body)
            #expect(push.deviceID == request.deviceID && push.epoch == nil)
            #expect(push.events.map(\.seq) == request.events.map(\.seq))
            for (read, sent) in zip(push.events, request.events) {
                #expect(read.idempotencyKey == sent.idempotencyKey && read.entity == sent.entity
                        && read.entityID == sent.entityID && read.op == sent.op)
                let fields = try #require(read.fields)
                let expected = try sent.fields.decoded()
                #expect(Set(fields.keys) == Set(expected.keys))
                for (name, field) in expected {
                    #expect(fields[name]?.value == field.v && fields[name]?.clock == field.c.description, "\(name)")
                }
            }
        }
    }

    @Test func unknownKeysNullsEscapesAndLenientPartsAreRead() throws {
        let read: [(String, String)] = [
            (#"{"extra":[1,{"a":[true,false,null,-0.5e+3,"x"]}],"device_id":"d","events":[{"seq":1,"idempotency_key":null,"op":"x","zz":{},"fields":{"a":{"v":null,"c":null,"q":1}}}]}"#,
             "device=d epoch=nil\nseq=1 key=nil entity=nil id=nil op=Optional(\"x\") [[97]: null c=nil]\n"),
            (#" { "device\u005fid" : "d\u00e9" , "events" : [ { "seq" : -0 , "fields" : null } ] , "epoch": "e" } "#,
             "device=dé epoch=Optional(\"e\")\nseq=0 key=nil entity=nil id=nil op=nil fields=nil\n"),
            (#"{"device_id":"d","events":[{"seq":4.0,"entity":5,"fields":{"a":{"v":5.0},"b":{"v":"\/\b\ud83d\ude00"},"c":1,"d":{"v":true},"e":{"v":1e400}}}]}"#,
             "device=d epoch=nil\nseq=4 key=nil entity=nil id=nil op=nil [[97]: int 5 c=nil] [[98]: text [47, 8, 240, 159, 152, 128] c=nil] [[99]: missing  c=nil] [[100]: missing  c=nil] [[101]: missing 1e400 c=nil]\n"),
            (#"{"device_id":"d","events":[{"seq":1e2,"op":"\ud800","fields":{"a":{"v":"\udc00","\ud800":1}}},{"seq":-9223372036854775808,"fields":{"\ud800":{}}}]}"#,
             "device=d epoch=nil\nseq=100 key=nil entity=nil id=nil op=nil [[97]: missing  c=nil]\nseq=-9223372036854775808 key=nil entity=nil id=nil op=nil fields=nil\n"),
            ("\u{FEFF}{\"device_id\":\"d\",\"x\":{\"\\ud800\":1},\"events\":[]}", "device=d epoch=nil\n"),
        ]
        for (text, expected) in read {
            #expect((try? Self.answer(text).get()).map(Self.render) == expected, "\(text)")
        }
    }

    @Test func refusalsNameTheProblem() {
        let refused: [(String, PushBodyReader.Refusal)] = [
            ("", .invalidJSON("the body is empty")),
            (" ", .invalidJSON("it ends after 1 bytes before a complete value")),
            (#"{"device_id":"d","events":[{"seq":1}"#, .invalidJSON("it ends after 36 bytes with 2 array(s) or object(s) still open")),
            (#"{"device_id":"d","events":[],}"#, .invalidJSON("unexpected '}' at byte offset 29")),
            (#"{"device_id":"d","events":[]} x"#, .invalidJSON("unexpected 'x' at byte offset 30 after the end of the JSON value")),
            (#"{"device_id":"d","events":[{"seq":01}]}"#, .invalidJSON("unexpected '1' at byte offset 35")),
            (#"{"device_id":"d","events":[{"seq":-}]}"#, .invalidJSON("a malformed number at byte offset 34")),
            (#"{"device_id":"\x","events":[]}"#, .invalidJSON("an invalid escape at byte offset 14")),
            (#"{"device_id":"\u12","events":[]}"#, .invalidJSON("an invalid \\u escape at byte offset 14")),
            ("{\"device_id\":\"a\tb\",\"events\":[]}", .invalidJSON("a control character (U+0009) at byte offset 15 inside a string; escape it")),
            (#"{"device_id":"d","events":[{"seq":1,"fields":{"a":{"v":1,"q":1,"q":2}}}]}"#,
             .invalidJSON(#"the key "q" at byte offset 63 repeats a key of the same object; send each key once (the server refuses duplicate keys instead of picking one)"#)),
            (#"{"device_id":"d","x":[{"y":{"b":1,"b":2}}],"events":[]}"#,
             .invalidJSON(#"the key "b" at byte offset 34 repeats a key of the same object; send each key once (the server refuses duplicate keys instead of picking one)"#)),
            (#"{"device_id":"d","device\u005fid":"e","events":[]}"#,
             .invalidJSON(#"the key "device\u005fid" at byte offset 17 repeats a key of the same object; send each key once (the server refuses duplicate keys instead of picking one)"#)),
            (#"{"device_id":"\ud83d","events":[]}"#, .invalidJSON("an unpaired UTF-16 surrogate escape at byte offset 14")),
            (#"{"device_id":"d","events":[{"seq":1,"\udc00":1}]}"#, .invalidJSON("an unpaired UTF-16 surrogate escape at byte offset 37")),
            (String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
             .invalidJSON("its arrays and objects are nested more than 512 levels deep (at byte offset 512); the server reads at most 512")),
            ("[]", .invalidRequest("the body has the wrong type")),
            ("{}", .invalidRequest(".device_id is missing")),
            (#"{"device_id":null,"events":7}"#, .invalidRequest(".device_id has the wrong type")),
            (#"{"device_id":"d"}"#, .invalidRequest(".events is missing")),
            (#"{"device_id":"d","events":{}}"#, .invalidRequest(".events has the wrong type")),
            (#"{"device_id":"d","events":[{"seq":1},7,{}]}"#, .invalidRequest(".events[1] has the wrong type")),
            (#"{"device_id":"d","events":[{"op":"x"}]}"#, .invalidRequest(".events[0].seq is missing")),
            (#"{"device_id":"d","events":[{"seq":1.5}]}"#, .invalidRequest(".events[0].seq has the wrong type")),
            (#"{"device_id":"d","events":[{"seq":99999999999999999999}]}"#, .invalidRequest(".events[0].seq has the wrong type")),
            (#"{"device_id":"d","events":[{"seq":"1"}],"epoch":null}"#, .invalidRequest(".events[0].seq has the wrong type")),
            (#"{"device_id":"d","events":[],"epoch":null}"#, .invalidRequest(".epoch has the wrong type")),
        ]
        for (text, refusal) in refused {
            #expect(throws: refusal, "\(text)") { try PushBodyReader.read(Array(text.utf8)) }
        }
        // Invalid UTF-8 anywhere is named first, even after another problem.
        let bytes = Array(#"{"device_id":"d","events":[],}"#.utf8) + [0xFF]
        #expect(throws: PushBodyReader.Refusal.invalidJSON("byte offset 30 is not valid UTF-8")) { try PushBodyReader.read(bytes) }
        #expect(JSONReader.problem(in: Data(bytes)) == "byte offset 30 is not valid UTF-8")
    }

    /// Random mutations of a real body: the reader never crashes, and refuses as invalid JSON
    /// exactly what the strict check of any other body refuses.
    @Test func mutatedBodiesNeverCrashAndAgreeWithTheStrictCheck() throws {
        let body = try Self.sampleBody()
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("{}[]\",:\\0123456789-+.eEtrufalsn u".utf8) + [0x00, 0x09, 0x0A, 0x7F, 0x80, 0xC3, 0xFF]
        var read = 0
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
            let strict = JSONReader.problem(in: Data(b))
            switch Result(catching: { () throws(PushBodyReader.Refusal) in try PushBodyReader.read(b) }) {
            case .success: read += 1; #expect(strict == nil, "\(String(decoding: b, as: UTF8.self))")
            case .failure(.invalidJSON(let problem)) where !problem.hasPrefix("an unpaired"):
                #expect(strict == problem, "\(String(decoding: b, as: UTF8.self))")
            case .failure: #expect(strict == nil, "\(String(decoding: b, as: UTF8.self))")
            }
        }
        #expect(read > 0)
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
        let hand = try #require(response.handWrittenJSON())
        #expect(hand == String(decoding: try encoder.encode(response), as: UTF8.self))
        let empty = PushResponse(epoch: "e", lastAppliedSeq: 0, cursor: "e:0", results: [])
        #expect(empty.handWrittenJSON() == String(decoding: try encoder.encode(empty), as: UTF8.self))
        let rejected = PushResponse(epoch: "e", lastAppliedSeq: 1, cursor: "e:0",
                                    results: [PushResult(seq: 1, status: .rejected, error: ErrorDetail(code: "c", message: "m"))])
        #expect(rejected.handWrittenJSON() == nil)
    }
}

/// Either answer of a push: a 200 body or an error body (for "it is JSON" checks).
struct ErrorBodyOrPush: Decodable {
    init(from decoder: Decoder) throws {
        if (try? PushResponse(from: decoder)) != nil { return }
        _ = try ErrorBody(from: decoder)
    }
}
