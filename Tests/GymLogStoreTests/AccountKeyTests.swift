import Foundation
import GymLogCore
import GymLogWire
import Testing

/// The account key of end-to-end encrypted sync: its recovery phrase, the verifier the server
/// keeps, keyed ids, and values sealed to their place.
@Suite struct AccountKeyTests {
    /// BIP39's published English vectors for 256-bit entropy (also what trezor's `mnemonic` gives).
    static let vectors: [(hex: String, phrase: String)] = [
        (String(repeating: "00", count: 32), Array(repeating: "abandon", count: 23).joined(separator: " ") + " art"),
        (String(repeating: "7f", count: 32),
         "legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth title"),
        (String(repeating: "80", count: 32),
         "letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic bless"),
        (String(repeating: "ff", count: 32), Array(repeating: "zoo", count: 23).joined(separator: " ") + " vote"),
        ("68a79eaca2324873eacc50cb9c6eca8cc68ea5d936f98787c60c7ebc74e6ce7c",
         "hamster diagram private dutch cause delay private meat slide toddler razor book happy fancy gospel tennis maple dilemma loan word shrug inflict delay length"),
    ]

    static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
    }

    @Test func aKeyIsSpelledAsBIP39sWordsAndReadBack() throws {
        for (hex, phrase) in Self.vectors {
            let key = try #require(AccountKey(bytes: Self.bytes(hex)))
            #expect(key.phrase.joined(separator: " ") == phrase)
            #expect(try AccountKey(phrase: phrase) == key)
        }
        // A random key reads back from its words, typed by four letters, in capitals, on several lines
        let key = AccountKey.random()
        let typed = key.phrase.enumerated().map { $0.offset % 2 == 0 ? String($0.element.prefix(4)).uppercased() : $0.element }
            .joined(separator: " ").replacingOccurrences(of: " ", with: "\n", options: [], range: nil)
        #expect(try AccountKey(phrase: typed) == key)
        #expect(key != AccountKey.random())
    }

    @Test func aMistypedPhraseSaysWhatIsWrong() {
        let words = Self.vectors[4].phrase.split(separator: " ").map(String.init)
        // One word too few
        #expect(throws: RecoveryPhrase.Problem.wordCount(23)) { try AccountKey(phrase: words.dropLast().joined(separator: " ")) }
        // A word not in the list, named by its position
        var typo = words
        typo[6] = "privte"
        #expect(throws: RecoveryPhrase.Problem.unknownWord(position: 7, word: "privte")) { try AccountKey(phrase: typo.joined(separator: " ")) }
        // Three letters are not enough to name a word
        var short = words
        short[0] = "ham"
        #expect(throws: RecoveryPhrase.Problem.unknownWord(position: 1, word: "ham")) { try AccountKey(phrase: short.joined(separator: " ")) }
        // Two words swapped: every word is real, the checksum catches it
        var swapped = words
        swapped.swapAt(0, 1)
        #expect(throws: RecoveryPhrase.Problem.checksum) { try AccountKey(phrase: swapped.joined(separator: " ")) }
        #expect(RecoveryPhrase.Problem.checksum.description.contains("two are swapped"))
    }

    @Test func aSealedValueOpensOnlyWithItsKeyAtItsPlaceAndClock() throws {
        let key = AccountKey.random()
        let clock = "001763719000000-00000-dev"
        let place = AccountKey.Place(account: "alice", entity: "sets", rowID: "01a2", field: "weight", clock: clock)
        let sealed = key.seal(Data("102.5".utf8), for: place)
        // The wire form hides the value and has the shape a server checks
        #expect(sealed.hasPrefix("s2:") && !sealed.contains("102.5") && AccountKey.looksSealed(sealed))
        #expect(!AccountKey.looksSealed("102.5") && !AccountKey.looksSealed("s2:short") && !AccountKey.looksSealed("s3:" + sealed.dropFirst(3)))
        #expect(sealed.utf8.count == AccountKey.sealedLength(ofPlaintextBytes: 5))
        // One write re-sent is the same bytes (the server would refuse other content under its
        // key); another write (clock), value or place gets another nonce
        #expect(key.seal(Data("102.5".utf8), for: place) == sealed)
        let nonce = { (s: String) in Data(base64Encoded: String(s.dropFirst(3)))!.prefix(12) }
        var later = place
        later.clock = "001763719000001-00000-dev"
        #expect(nonce(key.seal(Data("102.5".utf8), for: later)) != nonce(sealed))
        #expect(nonce(key.seal(Data("102.0".utf8), for: place)) != nonce(sealed))
        #expect(try key.open(sealed, for: place) == Data("102.5".utf8))
        // Moved to another field, row, entity or account, served under another write's clock
        // (issue 45: an old value replayed as newer), or opened with another key: refused
        for moved in [
            AccountKey.Place(account: "alice", entity: "sets", rowID: "01a2", field: "reps", clock: clock),
            AccountKey.Place(account: "alice", entity: "sets", rowID: "01a3", field: "weight", clock: clock),
            AccountKey.Place(account: "alice", entity: "workouts", rowID: "01a2", field: "weight", clock: clock),
            AccountKey.Place(account: "bob", entity: "sets", rowID: "01a2", field: "weight", clock: clock),
            later,
            AccountKey.Place(account: "alice", entity: "sets", rowID: "01a2", field: "weight", clock: "001763719000000-00000-other"),
            // The parts are length-prefixed: moving a character across a boundary is another place
            AccountKey.Place(account: "alice", entity: "sets0", rowID: "1a2", field: "weight", clock: clock),
        ] {
            #expect(throws: AccountKey.OpenFailure.wrongKeyOrPlace) { try key.open(sealed, for: moved) }
        }
        #expect(throws: AccountKey.OpenFailure.wrongKeyOrPlace) { try AccountKey.random().open(sealed, for: place) }
        // A changed byte, or a plain value, does not open
        var bytes = Array(Data(base64Encoded: String(sealed.dropFirst(3)))!)
        bytes[bytes.count / 2] ^= 1
        #expect(throws: AccountKey.OpenFailure.wrongKeyOrPlace) { try key.open("s2:" + Data(bytes).base64EncodedString(), for: place) }
        #expect(throws: AccountKey.OpenFailure.notSealed) { try key.open("102.5", for: place) }
    }

    /// Issue 45 (4): the server learns no value's length below 32 bytes, and only its power of
    /// two above: exercise names of 3 and 17 bytes, every number and null seal to one length.
    @Test func valuesArePaddedSoShortOnesSealAlike() throws {
        let key = AccountKey.random()
        let place = AccountKey.Place(account: "alice", entity: "exercises", rowID: "e1", field: "name", clock: "001763719000000-00000-dev")
        let lengths = Set(["\"Row\"", "\"Romanian Deadlift\"", "\"\"", "5", "102.5", "null", "9223372036854775807", "\"" + String(repeating: "x", count: 29) + "\""]
            .map { key.seal(Data($0.utf8), for: place).utf8.count })
        #expect(lengths.count == 1, "\(lengths)")
        // Longer ones by powers of two, and each opens to exactly what was sealed
        for length in [31, 32, 33, 63, 64, 100, 1000, 5000] {
            let text = "\"" + String(repeating: "é", count: length / 2) + "\""
            let sealed = key.seal(Data(text.utf8), for: place)
            #expect(sealed.utf8.count == AccountKey.sealedLength(ofPlaintextBytes: text.utf8.count))
            #expect(try key.open(sealed, for: place) == Data(text.utf8))
        }
        #expect(AccountKey.sealedLength(ofPlaintextBytes: 40) == AccountKey.sealedLength(ofPlaintextBytes: 60))
        #expect(AccountKey.sealedLength(ofPlaintextBytes: 64) > AccountKey.sealedLength(ofPlaintextBytes: 60))
    }

    /// The wire form pinned byte for byte: every device, and every version of gymlog, must seal
    /// one write to the same bytes (the server's idempotency digest compares them) and open what
    /// the others sealed. The expected strings come from an independent implementation (Python's
    /// `cryptography`: HKDF-SHA256, HMAC-SHA256, ChaCha20-Poly1305) of the construction in
    /// DESIGN.md, for the key 00 01 02 ... 1f.
    @Test func sealingMatchesAnIndependentImplementation() throws {
        let key = try #require(AccountKey(bytes: Array(0..<32)))
        let cases: [(plaintext: String, place: AccountKey.Place, sealed: String)] = [
            ("102.5", AccountKey.Place(account: "alice", entity: "sets", rowID: "01a2", field: "weight", clock: "001763719000000-00000-dev"),
             "s2:1Xe9cLQrRGVaYL6h913zOUG/q5yAmFCDpddUrt70eYjmuE4de7f+rNwcj2BX/ZlenJXWvaVaokYI2zfb"),
            (#""felt strong, \"easy\" é""#, AccountKey.Place(account: "alice", entity: "sets", rowID: "01a2", field: "note", clock: "001763719000000-00001-dev"),
             "s2:F/wycTrepdbqiNmpt42zrIgolDnBHiSarvVYIkwgzCLqc1eUBAH+CgOOQJsk7pT4y1AqSNNSKx6dYDyX"),
            ("null", AccountKey.Place(account: "böb", entity: "sets", rowID: "01a2", field: "superset_id", clock: "o"),
             "s2:jjU1pf18RYOLS3CCL8u+cY0HV99IV1Ywgf3GAujakxWaThc0jThSV+N3QRuQCciAGBzR+eC3tyr1AKQP"),
            ("\"" + String(repeating: "x", count: 40) + "\"", AccountKey.Place(account: "alice", entity: "exercises", rowID: "e1", field: "name", clock: "001763719000000-00002-dev"),
             "s2:gZr+/5yYi7gfqM846V8PZ5hCJvO1mmjF2gHM0nuKfC49IB/k9MhSb1g3AWDMKpA0Uek4+3PO5mTWVqhdknr0eT7bp8UhIZCVxCk/DurEM0qVjCJSCsNyxnlGP/w="),
        ]
        for c in cases {
            #expect(key.seal(Data(c.plaintext.utf8), for: c.place) == c.sealed)
            #expect(try key.open(c.sealed, for: c.place) == Data(c.plaintext.utf8))
        }
        // A whole event: each value's JSON text sealed at its field and clock, names and clocks as they were
        let clock = "001763719000000-00003-dev"
        let event = PushEvent(seq: 1, idempotencyKey: "k", entity: "sets", entityID: "row1", op: "create",
                              fields: EventFields(json: #"{"note":{"v":"felt \"ok\"","c":"\#(clock)"},"reps":{"v":5,"c":"\#(clock)"}}"#))
        #expect(try ValueSeal(key: key, account: "alice").sealed(event).fields.json
            == #"{"note":{"v":"s2:EFCfNmE4wlO65VKmOJGEjTbOSbDsb/ihYnYlqFgePBl03oEu2GFzl5y4SJMNVezWP0SiePd/e9exUnZ+","c":"\#(clock)"},"#
            + #""reps":{"v":"s2:Q/3xFr2d4et4s3UzsfpxWzs34MydZ3CU+oMGhjbsE1r+s4BffMmT4xZEi1vLrRLXgLkw/Lm7b+whb4iS","c":"\#(clock)"}}"#)
    }

    /// Values gymlog before 0.12.0 sealed (`s1:`: neither clock nor padding bound) still open,
    /// pinned against the same independent implementation, but only where the caller accepts an
    /// unbound clock: `ValueSeal` does for clocks from before the database first ran 0.12.0.
    @Test func valuesSealedTheOldWayOpenOnlyUnderClocksFromBeforeTheUpgrade() throws {
        let key = try #require(AccountKey(bytes: Array(0..<32)))
        let old = "s1:XjINGSzMs1F+ZjK9D3qCt+p/UFT9k7qxPC9QIZkKUYCq"
        let place = AccountKey.Place(account: "alice", entity: "sets", rowID: "01a2", field: "weight", clock: "001763719000000-00000-dev")
        #expect(try key.open(old, for: place, acceptsUnbound: true) == Data("102.5".utf8))
        #expect(try key.open("s1:43gY9Hi+XZT96R0AlxTgE1nJSTtbRUg+lMqXHPkAYvucFNr5iC3LiOx6OY4GVP248LYoPC4K",
                             for: AccountKey.Place(account: "alice", entity: "sets", rowID: "01a2", field: "note", clock: "any"), acceptsUnbound: true)
            == Data(#""felt strong, \"easy\" é""#.utf8))
        #expect(throws: AccountKey.OpenFailure.unboundClock) { try key.open(old, for: place) }
        // Through ValueSeal: the clock decides
        let change = { (millis: Int64) in
            PullChange(entity: "sets", entityID: "01a2", fields: ["weight": WireField(v: .text(old), c: HLC(millis: millis, counter: 0, node: "dev"))])
        }
        let seal = ValueSeal(key: key, account: "alice", unboundUntil: 1_763_719_000_000)
        #expect(try seal.opened(change(1_763_719_000_000)).get().fields["weight"]?.v == .real(102.5))
        guard case .failure(let problem) = seal.opened(change(1_763_719_000_001)) else { Issue.record("an unbound value opened under a later clock"); return }
        #expect(problem.field == "weight" && problem.reason.contains("before 0.12.0") && problem.reason.contains("replayed"), "\(problem.reason)")
    }

    /// A push batch is sealed split over the cores: the same events, in the same order, as
    /// each sealed alone.
    @Test func aBatchSealsToEachEventSealedAloneInOrder() async throws {
        let seal = ValueSeal(key: AccountKey.random(), account: "alice")
        // More events than one core seals alone (a hundred per part), an odd number of them
        let events = (1...1003).map { i in
            let clock = "001763719000000-\(String(format: "%05d", i % 100_000))-dev"
            return PushEvent(seq: Int64(i), idempotencyKey: "k\(i)", entity: "sets", entityID: "row\(i)", op: "create",
                             fields: EventFields(json: #"{"reps":{"v":\#(i),"c":"\#(clock)"}}"#))
        }
        for batch in [events, Array(events.prefix(3)), []] {
            #expect(try await seal.sealed(batch) == (try batch.map(seal.sealed)))
        }
    }

    /// The sealer copies a clock's bytes from the payload into the associated data and the
    /// sealed event: a payload whose clock is not a plain string (escaped, or not a string) is
    /// refused naming the field, never sealed under bytes another device would not rebuild.
    @Test func anEventWhoseClockIsNotAnHLCsTextIsRefusedByField() throws {
        let seal = ValueSeal(key: AccountKey.random(), account: "alice")
        for clock in [#""001763719000000-00001-d\u0065v""#, "42", "null"] {
            let event = PushEvent(seq: 7, idempotencyKey: "k", entity: "sets", entityID: "row1", op: "create",
                                  fields: EventFields(json: #"{"reps":{"v":5,"c":\#(clock)}}"#))
            #expect(throws: PayloadError.self) { try seal.sealed(event) }
            do { _ = try seal.sealed(event) } catch { #expect("\(error)".contains("field reps of event 7"), "\(error)") }
        }
    }

    @Test func theVerifierAndKeyedIDsNameTheKeyWithoutGivingItAway() throws {
        let key = try #require(AccountKey(bytes: Self.bytes(Self.vectors[4].hex)))
        let same = try AccountKey(phrase: Self.vectors[4].phrase)
        let other = AccountKey.random()
        // The verifier is stable for a key, differs between keys, and holds none of its bytes
        #expect(key.verifier == same.verifier && key.verifier != other.verifier)
        #expect(key.verifier.count == 64 && !key.verifier.contains(Self.vectors[4].hex.prefix(8)))
        // A keyed id is stable for a key and a derived id, differs with either, and is no longer a derived id
        let bench = derivedID(namespace: "exercise", key: "bench press"), squat = derivedID(namespace: "exercise", key: "squat")
        #expect(key.keyedID(bench) == same.keyedID(bench))
        #expect(key.keyedID(bench) != key.keyedID(squat))
        #expect(key.keyedID(bench) != other.keyedID(bench))
        #expect(key.keyedID(bench).uuidString.dropFirst(14).first == "8")
        #expect(bench.isDerived && !key.keyedID(bench).isDerived && !UUID.timeOrdered(millis: 1_763_719_000_000).isDerived)
    }

    /// A value sealed and opened reads back exactly as the same value pulled unsealed does:
    /// the opening's direct readers of common shapes agree with the decoder they stand in for.
    @Test func aSealedEventOpensToWhatAnUnsealedPullReads() throws {
        let seal = ValueSeal(key: AccountKey.random(), account: "alice")
        let clock = HLC(millis: 1_763_719_000_000, counter: 3, node: "dev")
        let values: [FieldValue] = [
            .null, .int(0), .int(-5), .int(Int64.max), .int(Int64.min), .real(100), .real(0.1), .real(-2.5), .real(1e20),
            .text(""), .text("heavy"), .text("said \"go\" \\ é 😀"), .text("line\nbreak"), .text("12"), .text("null"),
        ]
        var fields: [String: WireField] = [:]
        for (i, value) in values.enumerated() { fields["f\(i)"] = WireField(v: value, c: clock) }
        let event = PushEvent(seq: 1, idempotencyKey: "k", entity: "sets", entityID: "row", op: "create", fields: EventFields(fields))
        let sealed = try seal.sealed(event)
        #expect(!sealed.fields.json.contains("heavy") && !sealed.fields.json.contains("100"))
        let change = PullChange(entity: "sets", entityID: "row", fields: try sealed.fields.decoded())
        let opened = try seal.opened(change).get()
        // What an unsealed pull of the same event reads (the wire's own decoder)
        #expect(opened.fields == (try event.fields.decoded()))
        // And a value moved to another row does not open, naming the field
        let moved = PullChange(entity: "sets", entityID: "other", fields: change.fields)
        guard case .failure(let problem) = seal.opened(moved) else { Issue.record("a moved value opened"); return }
        #expect(problem.reason.contains("does not open with this device's key"))
        // And a value served under a newer clock than its own (a rollback) does not open either
        var replayed = change
        replayed.fields["f10"]?.c = HLC(millis: 1_763_719_000_001, counter: 0, node: "dev")
        guard case .failure(let rolled) = seal.opened(replayed) else { Issue.record("a value opened under another clock"); return }
        #expect(rolled.field == "f10" && rolled.reason.contains("another write's clock"))
    }
}
