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

    @Test func aSealedValueOpensOnlyWithItsKeyAtItsPlace() throws {
        let key = AccountKey.random()
        let place = AccountKey.Place(account: "alice", entity: "sets", rowID: "01a2", field: "weight")
        let sealed = key.seal(Data("102.5".utf8), for: place, occasion: "key-1")
        // The wire form hides the value and has the shape a server checks
        #expect(sealed.hasPrefix("s1:") && !sealed.contains("102.5") && AccountKey.looksSealed(sealed))
        #expect(!AccountKey.looksSealed("102.5") && !AccountKey.looksSealed("s1:short"))
        #expect(sealed.utf8.count == AccountKey.sealedLength(ofPlaintextBytes: 5))
        // One event re-sent is the same bytes (the server would refuse other content under its
        // key); another event, value or place gets another nonce
        #expect(key.seal(Data("102.5".utf8), for: place, occasion: "key-1") == sealed)
        let nonce = { (s: String) in Data(base64Encoded: String(s.dropFirst(3)))!.prefix(12) }
        #expect(nonce(key.seal(Data("102.5".utf8), for: place, occasion: "key-2")) != nonce(sealed))
        #expect(nonce(key.seal(Data("102.0".utf8), for: place, occasion: "key-1")) != nonce(sealed))
        #expect(try key.open(sealed, for: place) == Data("102.5".utf8))
        // Moved to another field, row, entity or account, or opened with another key: refused
        for moved in [
            AccountKey.Place(account: "alice", entity: "sets", rowID: "01a2", field: "reps"),
            AccountKey.Place(account: "alice", entity: "sets", rowID: "01a3", field: "weight"),
            AccountKey.Place(account: "alice", entity: "workouts", rowID: "01a2", field: "weight"),
            AccountKey.Place(account: "bob", entity: "sets", rowID: "01a2", field: "weight"),
            // The parts are length-prefixed: moving a character across a boundary is another place
            AccountKey.Place(account: "alice", entity: "sets0", rowID: "1a2", field: "weight"),
        ] {
            #expect(throws: AccountKey.OpenFailure.wrongKeyOrPlace) { try key.open(sealed, for: moved) }
        }
        #expect(throws: AccountKey.OpenFailure.wrongKeyOrPlace) { try AccountKey.random().open(sealed, for: place) }
        // A changed byte, or a plain value, does not open
        var bytes = Array(Data(base64Encoded: String(sealed.dropFirst(3)))!)
        bytes[bytes.count / 2] ^= 1
        #expect(throws: AccountKey.OpenFailure.wrongKeyOrPlace) { try key.open("s1:" + Data(bytes).base64EncodedString(), for: place) }
        #expect(throws: AccountKey.OpenFailure.notSealed) { try key.open("102.5", for: place) }
    }

    /// The wire form pinned byte for byte: every device, and every version of gymlog, must seal
    /// one write to the same bytes (the server's idempotency digest compares them) and open what
    /// the others sealed. The expected strings come from an independent implementation (Python's
    /// `cryptography`: HKDF-SHA256, HMAC-SHA256, ChaCha20-Poly1305) of the construction in
    /// DESIGN.md, for the key 00 01 02 ... 1f.
    @Test func sealingMatchesAnIndependentImplementation() throws {
        let key = try #require(AccountKey(bytes: Array(0..<32)))
        let cases: [(plaintext: String, place: AccountKey.Place, occasion: String, sealed: String)] = [
            ("102.5", AccountKey.Place(account: "alice", entity: "sets", rowID: "01a2", field: "weight"), "001763719000000-00000-dev",
             "s1:XjINGSzMs1F+ZjK9D3qCt+p/UFT9k7qxPC9QIZkKUYCq"),
            (#""felt strong, \"easy\" é""#, AccountKey.Place(account: "alice", entity: "sets", rowID: "01a2", field: "note"),
             "001763719000000-00001-dev", "s1:43gY9Hi+XZT96R0AlxTgE1nJSTtbRUg+lMqXHPkAYvucFNr5iC3LiOx6OY4GVP248LYoPC4K"),
            ("null", AccountKey.Place(account: "böb", entity: "sets", rowID: "01a2", field: "superset_id"), "o",
             "s1:GVk1WmOT+KVKHbVG3NgShKyUjSo3SeppfmGbe7MVabs="),
        ]
        for c in cases {
            #expect(key.seal(Data(c.plaintext.utf8), for: c.place, occasion: c.occasion) == c.sealed)
            #expect(try key.open(c.sealed, for: c.place) == Data(c.plaintext.utf8))
        }
        // A whole event: each value's JSON text sealed at its field, names and clocks as they were
        let clock = "001763719000000-00003-dev"
        let event = PushEvent(seq: 1, idempotencyKey: "k", entity: "sets", entityID: "row1", op: "create",
                              fields: EventFields(json: #"{"note":{"v":"felt \"ok\"","c":"\#(clock)"},"reps":{"v":5,"c":"\#(clock)"}}"#))
        #expect(try ValueSeal(key: key, account: "alice").sealed(event).fields.json
            == #"{"note":{"v":"s1:+9I5E/mzVOsSiKZ93HbbQK0BKWvTAN0BpDYEzL7kPea7TtbxbPoh2hQ=","c":"\#(clock)"},"#
            + #""reps":{"v":"s1:s+o7YM/51+EC1zvp+in+gFJhx16SjKf5gqnyT0Q=","c":"\#(clock)"}}"#)
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
    }
}
