import Crypto
import Foundation

/// The key of an end-to-end encrypted account: 256 random bits made on the account's first
/// device, never sent; every device that syncs the account holds the same one. The server
/// only ever sees values sealed with it (`seal`) and a verifier (`verifier`) that lets it
/// refuse a device holding another key before anything of that device is stored.
public struct AccountKey: Equatable, Sendable {
    public let bytes: [UInt8]
    /// The sub-keys that seal values and make their nonces, derived and made ready once: a push
    /// seals every field of every event, and an HKDF, a `SymmetricKey` or an HMAC key schedule
    /// per field cost more than the sealing.
    private let sealing: SealingKeys
    /// The sub-key of keyed ids (bytes, not `SymmetricKey`, which is not `Sendable`).
    private let idsKeyBytes: [UInt8]
    private var idsKey: SymmetricKey { SymmetricKey(data: idsKeyBytes) }

    public static func == (a: AccountKey, b: AccountKey) -> Bool { a.bytes == b.bytes }

    public static let byteCount = 32

    /// A new key from the system's secure random source.
    public static func random() -> AccountKey {
        AccountKey(validated: SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
    }

    private init(validated bytes: [UInt8]) {
        self.bytes = bytes
        sealing = SealingKeys(values: Self.derived("values", from: bytes), nonces: Self.derived("nonces", from: bytes))
        idsKeyBytes = Self.derived("ids", from: bytes).withUnsafeBytes { Array($0) }
    }

    /// The key these 32 bytes are; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.init(validated: bytes)
    }

    /// The key a recovery phrase spells (`RecoveryPhrase.decode`).
    public init(phrase: String) throws(RecoveryPhrase.Problem) {
        self.init(validated: try RecoveryPhrase.decode(phrase))
    }

    /// The 24 words that spell this key, for the lifter to write down.
    public var phrase: [String] { RecoveryPhrase.encode(bytes) }

    /// A key for one purpose, derived with HKDF-SHA256, so the sealing key, the verifier and
    /// the keyed ids never share bits a leak of one would give away.
    private func derived(_ purpose: String) -> SymmetricKey { Self.derived(purpose, from: bytes) }

    private static func derived(_ purpose: String, from bytes: [UInt8]) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: bytes), salt: Data("gymlog account key".utf8),
                               info: Data(purpose.utf8), outputByteCount: 32)
    }

    /// What the server keeps to recognise the key without learning it: an HMAC of a fixed
    /// label under a derived key (hex). Safe to store because the key is random, not a password
    /// a server could guess offline.
    public var verifier: String {
        hex(HMAC<SHA256>.authenticationCode(for: Data("gymlog verifier v1".utf8), using: derived("verifier")))
    }

    /// The keyed form of a content-derived id (`derivedID`: an exercise's name, an imported
    /// row), so the server cannot test guesses against it: the first 16 bytes of an HMAC of
    /// the plain derived id under a derived key, as a UUID of version 8 (custom) and RFC 4122
    /// variant. A function of the plain id rather than of the content, so a database's
    /// existing derived ids can be keyed without knowing what they were derived from, and two
    /// devices keying the same name get the same id.
    public func keyedID(_ derived: UUID) -> UUID {
        let code = withUnsafeBytes(of: derived.uuid) { HMAC<SHA256>.authenticationCode(for: $0, using: idsKey) }
        var b = Array(code.prefix(16))
        b[6] = (b[6] & 0x0F) | 0x80
        b[8] = (b[8] & 0x3F) | 0x80
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    /// Where a sealed value belongs and the write it came from. Bound to the value as associated
    /// data, so a server that moves a value to another account, row or field, or serves it
    /// under another write's clock (an old note under a newer clock: a rollback), gets one no
    /// device will open.
    public struct Place: Equatable, Sendable {
        public var account: String
        public var entity: String
        public var rowID: String
        public var field: String
        /// The write's clock as the wire spells it (`HLC.description`).
        public var clock: String

        public init(account: String, entity: String, rowID: String, field: String, clock: String) {
            self.account = account; self.entity = entity; self.rowID = rowID; self.field = field; self.clock = clock
        }

        /// Each part length-prefixed, so no two places give the same bytes.
        var associatedData: [UInt8] {
            var data = Self.associatedData(account: account, entity: entity, rowID: rowID)
            Self.appendPart(field, to: &data)
            Self.appendPart(clock, to: &data)
            return data
        }

        /// The associated data of a place up to its field: the same for every field of an
        /// event, so `ValueSeal` makes it once per event and adds each field's name and clock
        /// (`appendPart`) in the same buffer.
        static func associatedData(account: String, entity: String, rowID: String, format: SealFormat = .current) -> [UInt8] {
            var data: [UInt8] = []
            let label = format.label
            data.reserveCapacity(label.count + 20 + account.utf8.count + entity.utf8.count + rowID.utf8.count + 64)
            data += label
            appendPart(account, to: &data)
            appendPart(entity, to: &data)
            appendPart(rowID, to: &data)
            return data
        }

        /// One part: its UTF-8 length as 4 bytes big-endian, then its UTF-8.
        static func appendPart(_ part: String, to data: inout [UInt8]) {
            let count = UInt32(part.utf8.count)
            data.append(UInt8(count >> 24))
            data.append(UInt8(count >> 16 & 0xFF))
            data.append(UInt8(count >> 8 & 0xFF))
            data.append(UInt8(count & 0xFF))
            data += part.utf8
        }
    }

    /// The versions of the sealed form. `s2:` (since 0.12.0) binds the write's clock and pads
    /// the plaintext; `s1:` bound neither, so a server could serve an old value under a newer
    /// clock and the value's length showed. Devices write `s2:` only and open `s1:` only under
    /// clocks from before they first ran 0.12.0 (`ValueSeal.unboundUntil`).
    public enum SealFormat: Sendable {
        case v1, v2
        public static let current = SealFormat.v2

        public var prefix: String { self == .v1 ? "s1:" : "s2:" }
        var label: [UInt8] { self == .v1 ? Array("gymlog sealed v1".utf8) : Array("gymlog sealed v2".utf8) }

        /// The format of a value on the wire, by its prefix.
        public init?(of text: String) {
            if text.hasPrefix("s2:") { self = .v2 } else if text.hasPrefix("s1:") { self = .v1 } else { return nil }
        }
    }

    /// The prefix of a sealed value this version writes: a version, so the format can change.
    public static let sealedPrefix = SealFormat.current.prefix

    /// How many bytes `plaintextBytes` are padded to before sealing: 32 for every value up to
    /// 31 bytes (every number, null, and any short text: an exercise name of 3 bytes and one of
    /// 17 seal alike), then the next power of two. A byte 0x80 ends the plaintext, zeros follow
    /// (ISO/IEC 7816-4), so the padding is read back unambiguously.
    static func paddedLength(ofPlaintextBytes plaintextBytes: Int) -> Int {
        let needed = plaintextBytes + 1
        guard needed > 32 else { return 32 }
        var length = 64
        while length < needed { length <<= 1 }
        return length
    }

    /// `plaintext` sealed for `place` with ChaCha20-Poly1305 under a derived key: `s2:` and
    /// the base64 of nonce, ciphertext and tag. The plaintext is padded first
    /// (`paddedLength`), and the place, its clock included, is the associated data.
    ///
    /// The nonce is an HMAC of the write's clock, the place and the padded plaintext, not
    /// random: an event re-sent after a lost answer must carry the same bytes, or the server
    /// would refuse it as another event under a used key, and a write re-sent after a rebase
    /// should not look like a new value. Two different plaintexts (or places, or clocks) get
    /// different nonces, so a nonce never repeats under one key with other content (the
    /// synthetic-IV construction); equal values written at different times do not look equal.
    /// All determinism shows is that one write was sent twice, which its clock shows anyway.
    public func seal(_ plaintext: Data, for place: Place) -> String {
        var out = ""
        plaintext.withUnsafeBytes { appendSealed($0, associatedData: place.associatedData, clock: place.clock, to: &out) }
        return out
    }

    /// `seal` on bytes, for associated data already made (`Place.associatedData`, the clock
    /// its last part), the sealed value appended to `out`: `ValueSeal` seals every value of an
    /// event into one string.
    func appendSealed(_ plaintext: UnsafeRawBufferPointer, associatedData: [UInt8], clock: String, to out: inout String) {
        let padded = Self.paddedLength(ofPlaintextBytes: plaintext.count)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: padded) { buffer in
            if plaintext.count > 0 { UnsafeMutableRawBufferPointer(buffer).copyMemory(from: plaintext) }
            buffer[plaintext.count] = 0x80
            for i in (plaintext.count + 1)..<padded { buffer[i] = 0 }
            let paddedBytes = UnsafeRawBufferPointer(buffer)
            // The nonce: HMAC of clock, place and padded plaintext, one after the other.
            var clock = clock
            let code = clock.withUTF8 { clock in
                associatedData.withUnsafeBytes { sealing.nonces.code(UnsafeRawBufferPointer(clock), $0, paddedBytes) }
            }
            // Neither throws: the nonce is 12 bytes and the key 32, the sizes ChaChaPoly takes.
            let nonce = code.withUnsafeBytes { try! ChaChaPoly.Nonce(data: UnsafeRawBufferPointer(rebasing: $0.prefix(12))) }
            let box = try! ChaChaPoly.seal(paddedBytes, using: sealing.values, nonce: nonce, authenticating: associatedData)
            box.combined.withUnsafeBytes { combined in
                // The prefix and the base64 written into one string; Foundation's encoder makes a
                // string of its own per value, then it is copied once more.
                let base64 = (combined.count + 2) / 3 * 4
                out += String(unsafeUninitializedCapacity: Self.sealedPrefix.utf8.count + base64) { buffer in
                    var i = 0
                    for byte in Self.sealedPrefix.utf8 { buffer[i] = byte; i += 1 }
                    return i + writeBase64(combined, to: UnsafeMutableBufferPointer(rebasing: buffer[i...]))
                }
            }
        }
    }

    /// Whether `text` has the shape of a sealed value (`s1:` or `s2:` and base64), without
    /// opening it: what a server that cannot open values checks of an encrypted account's push.
    public static func looksSealed(_ text: String) -> Bool {
        let u = text.utf8
        guard u.count >= 3 + 40, SealFormat(of: text) != nil else { return false }
        return u.dropFirst(3).allSatisfy {
            ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 43 || $0 == 47 || $0 == 61
        }
    }

    /// The length of the sealed form of `plaintextBytes` bytes, padded, for the server's size limit.
    public static func sealedLength(ofPlaintextBytes plaintextBytes: Int) -> Int {
        sealedPrefix.utf8.count + (12 + paddedLength(ofPlaintextBytes: plaintextBytes) + 16 + 2) / 3 * 4
    }

    /// Why a sealed value did not open.
    public enum OpenFailure: Error, Equatable, Sendable {
        /// Not a sealed value of a format this version reads.
        case notSealed
        /// Sealed with another key, for another place or clock, or changed on the way.
        case wrongKeyOrPlace
        /// Sealed in the `s1:` format, which does not bind the write's clock, under a clock the
        /// caller does not accept it for.
        case unboundClock
    }

    /// The plaintext of a value `seal` made for `place` with this key. An `s1:` value opens
    /// only when `acceptsUnbound` (its clock is one the caller trusts without a binding).
    public func open(_ sealed: String, for place: Place, acceptsUnbound: Bool = false) throws(OpenFailure) -> Data {
        guard let format = SealFormat(of: sealed) else { throw .notSealed }
        var data = Place.associatedData(account: place.account, entity: place.entity, rowID: place.rowID, format: format)
        Place.appendPart(place.field, to: &data)
        if format == .v2 { Place.appendPart(place.clock, to: &data) }
        return try open(sealed, format: format, associatedData: data, acceptsUnbound: acceptsUnbound)
    }

    /// `open` for associated data already made for `format` (`Place.associatedData`).
    func open(_ sealed: String, format: SealFormat, associatedData: [UInt8], acceptsUnbound: Bool) throws(OpenFailure) -> Data {
        guard let combined = Data(base64Encoded: String(sealed.dropFirst(3))),
              let box = try? ChaChaPoly.SealedBox(combined: combined) else { throw .notSealed }
        if format == .v1 && !acceptsUnbound { throw .unboundClock }
        guard let plaintext = try? ChaChaPoly.open(box, using: sealing.values, authenticating: associatedData) else {
            throw .wrongKeyOrPlace
        }
        guard format == .v2 else { return plaintext }
        // The padding: zeros after a 0x80 that ends the value. Authentic values always have it.
        guard let end = plaintext.lastIndex(where: { $0 != 0 }), plaintext[end] == 0x80 else { throw .wrongKeyOrPlace }
        return plaintext[plaintext.startIndex..<end]
    }
}

/// The sub-keys of `seal` and `open` in the forms swift-crypto computes with: the values' key,
/// and the nonces' HMAC with its key states already hashed.
///
/// `@unchecked Sendable` because swift-crypto does not mark `SymmetricKey` or `SHA256`
/// `Sendable`, though both are values: nothing here changes after `init`. `NonceMAC.code`
/// updates copies of the prepared hashers, and a copy's first update copies the hash state
/// (swift-crypto's hashers are copy-on-write), so the prepared ones are only ever read, from
/// any thread.
private final class SealingKeys: @unchecked Sendable {
    let values: SymmetricKey
    let nonces: NonceMAC

    init(values: SymmetricKey, nonces: SymmetricKey) {
        self.values = values
        self.nonces = NonceMAC(key: nonces)
    }
}

/// HMAC-SHA256 (RFC 2104) under one key, its inner and outer key blocks hashed once. What
/// `HMAC<SHA256>` computes (`AccountKeyTests` pins the nonces against another implementation's
/// HMAC), over `SHA256`'s concrete methods: `HMAC` takes its data through generic
/// `DataProtocol` calls, and their metadata look-ups cost more than hashing a value's few bytes.
private struct NonceMAC {
    private var inner = SHA256(), outer = SHA256()

    /// `key` is at most one SHA-256 block (64 bytes); the derived keys are 32.
    init(key: SymmetricKey) {
        var block = [UInt8](repeating: 0, count: 64)
        key.withUnsafeBytes { precondition($0.count <= 64); block.replaceSubrange(0..<$0.count, with: $0) }
        block.map { $0 ^ 0x36 }.withUnsafeBytes { inner.update(bufferPointer: $0) }
        block.map { $0 ^ 0x5C }.withUnsafeBytes { outer.update(bufferPointer: $0) }
    }

    /// The HMAC of the three parts one after the other.
    func code(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, _ c: UnsafeRawBufferPointer) -> SHA256Digest {
        var inner = self.inner, outer = self.outer
        inner.update(bufferPointer: a)
        inner.update(bufferPointer: b)
        inner.update(bufferPointer: c)
        inner.finalize().withUnsafeBytes { outer.update(bufferPointer: $0) }
        return outer.finalize()
    }
}

/// Writes `bytes` as standard base64 with padding (what `Data.base64EncodedString()` writes)
/// into `out`, which holds at least `(bytes.count + 2) / 3 * 4` bytes; returns how many it wrote.
func writeBase64(_ bytes: UnsafeRawBufferPointer, to out: UnsafeMutableBufferPointer<UInt8>) -> Int {
    let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    return alphabet.withUTF8Buffer { table in
        var i = 0, o = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out[o] = table[Int(n >> 18)]; out[o + 1] = table[Int(n >> 12 & 63)]
            out[o + 2] = table[Int(n >> 6 & 63)]; out[o + 3] = table[Int(n & 63)]
            i += 3; o += 4
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out[o] = table[Int(n >> 18)]; out[o + 1] = table[Int(n >> 12 & 63)]
            out[o + 2] = rest == 2 ? table[Int(n >> 6 & 63)] : UInt8(ascii: "=")
            out[o + 3] = UInt8(ascii: "=")
            o += 4
        }
        return o
    }
}

private func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 {
    bytes.map { String(format: "%02x", $0) }.joined()
}

private func hex(_ code: HashedAuthenticationCode<SHA256>) -> String { hex(Array(code)) }

/// A 256-bit key as 24 words of the BIP39 English list (`RecoveryWords.swift`): the 256 bits,
/// then the first 8 bits of their SHA-256 as a checksum, read 11 bits to a word. A word may
/// be typed by its first four letters (they are unique in the list), in any case.
public enum RecoveryPhrase {
    public static let wordCount = 24

    /// The words for 32 bytes.
    public static func encode(_ bytes: [UInt8]) -> [String] {
        precondition(bytes.count == AccountKey.byteCount)
        let bits = bytes + [Array(SHA256.hash(data: bytes))[0]]
        return (0..<wordCount).map { i in
            var index = 0
            for bit in (i * 11)..<(i * 11 + 11) { index = index << 1 | Int(bits[bit / 8] >> (7 - bit % 8) & 1) }
            return String(words[index])
        }
    }

    /// Why a phrase was refused, in words a lifter can act on.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case wordCount(Int)
        /// The word at this position (1-based) is in no entry of the list.
        case unknownWord(position: Int, word: String)
        /// Every word is in the list, but they do not spell a key (a wrong or swapped word).
        case checksum

        public var description: String {
            switch self {
            case .wordCount(let n):
                "the recovery phrase has \(n) word\(n == 1 ? "" : "s"); it has \(RecoveryPhrase.wordCount). Type all of them, in order, separated by spaces."
            case .unknownWord(let position, let word):
                "word \(position), '\(word)', is not a recovery word; check it against what you wrote down (the first four letters are enough)."
            case .checksum:
                "the recovery phrase's words are all real words, but they do not spell a key: one is wrong, or two are swapped. Check them against what you wrote down."
            }
        }
    }

    /// The words of a typed phrase, as `decode` reads them.
    static func typedWords(_ phrase: String) -> [Substring] {
        phrase.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "," || $0 == "-" })
    }

    /// The phrase with its word at `position` (1-based, as `Problem.unknownWord` counts)
    /// typed again: what a terminal asks for instead of the whole phrase.
    public static func replacingWord(_ position: Int, in phrase: String, with word: String) -> String {
        var words = typedWords(phrase).map(String.init)
        guard words.indices.contains(position - 1) else { return phrase }
        words[position - 1] = word.trimmingCharacters(in: .whitespaces)
        return words.joined(separator: " ")
    }

    /// The 32 bytes a phrase spells.
    public static func decode(_ phrase: String) throws(Problem) -> [UInt8] {
        let typed = typedWords(phrase)
        guard typed.count == wordCount else { throw .wordCount(typed.count) }
        var bits: [UInt8] = Array(repeating: 0, count: 33)
        for (i, word) in typed.enumerated() {
            guard let index = Self.index(of: word) else { throw .unknownWord(position: i + 1, word: String(word)) }
            for b in 0..<11 where index >> (10 - b) & 1 == 1 {
                let bit = i * 11 + b
                bits[bit / 8] |= 1 << (7 - bit % 8)
            }
        }
        let bytes = Array(bits.prefix(32))
        guard Array(SHA256.hash(data: bytes))[0] == bits[32] else { throw .checksum }
        return bytes
    }

    /// A word's index: the word itself, or its first four letters (or more) when only one
    /// word of the list starts with them.
    static func index(of typed: Substring) -> Int? {
        if let exact = wordIndexes[typed] { return exact }
        guard typed.count >= 4 else { return nil }
        let matches = words.indices.filter { words[$0].hasPrefix(typed) }
        return matches.count == 1 ? matches[0] : nil
    }

    private static let wordIndexes: [Substring: Int] = Dictionary(uniqueKeysWithValues: words.enumerated().map { ($1, $0) })
}
