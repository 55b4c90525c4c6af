// BoringSSL as swift-crypto builds it: the one C library the sealing loop calls directly
// (`SealingKeys`). Not one of swift-crypto's products, so not declared in Package.swift; it is
// built for `Crypto` and found through it, and a swift-crypto without it fails the build here.
import CCryptoBoringSSL
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
            var part = part
            part.withUTF8 { appendPart(UnsafeRawBufferPointer($0), to: &data) }
        }

        /// `appendPart` for UTF-8 bytes already in hand (a name or clock as the payload spells it).
        static func appendPart(_ part: UnsafeRawBufferPointer, to data: inout [UInt8]) {
            let count = UInt32(part.count)
            data.append(UInt8(count >> 24))
            data.append(UInt8(count >> 16 & 0xFF))
            data.append(UInt8(count >> 8 & 0xFF))
            data.append(UInt8(count & 0xFF))
            data.append(contentsOf: part)
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
        var out: [UInt8] = []
        var clock = place.clock
        plaintext.withUnsafeBytes { plaintext in
            clock.withUTF8 { appendSealed(plaintext, associatedData: place.associatedData, clock: UnsafeRawBufferPointer($0), to: &out) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `seal` on bytes, for associated data already made (`Place.associatedData`, the clock
    /// its last part), the sealed value's text appended to `out` as UTF-8: `ValueSeal` writes
    /// every value of an event into one buffer.
    func appendSealed(_ plaintext: UnsafeRawBufferPointer, associatedData: [UInt8], clock: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        let padded = Self.paddedLength(ofPlaintextBytes: plaintext.count)
        // One buffer: the padded plaintext, then the sealed form (nonce, ciphertext, tag).
        let sealedCount = SealingKeys.nonceCount + padded + SealingKeys.tagCount
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: padded + sealedCount) { buffer in
            let plain = UnsafeMutableBufferPointer(rebasing: buffer[0..<padded])
            let sealed = UnsafeMutableBufferPointer(rebasing: buffer[padded...])
            if plaintext.count > 0 { UnsafeMutableRawBufferPointer(plain).copyMemory(from: plaintext) }
            plain[plaintext.count] = 0x80
            for i in (plaintext.count + 1)..<padded { plain[i] = 0 }
            associatedData.withUnsafeBytes { associatedData in
                sealing.seal(UnsafeRawBufferPointer(plain), clock: clock, associatedData: associatedData, into: sealed)
            }
            out.append(contentsOf: Self.sealedPrefix.utf8)
            let start = out.count
            out.append(contentsOf: repeatElement(0, count: (sealedCount + 2) / 3 * 4))
            out.withUnsafeMutableBufferPointer { out in
                _ = writeBase64(UnsafeRawBufferPointer(sealed), to: UnsafeMutableBufferPointer(rebasing: out[start...]))
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
              combined.count >= SealingKeys.nonceCount + SealingKeys.tagCount else { throw .notSealed }
        if format == .v1 && !acceptsUnbound { throw .unboundClock }
        guard let plaintext = sealing.open(combined, associatedData: associatedData) else { throw .wrongKeyOrPlace }
        guard format == .v2 else { return plaintext }
        // The padding: zeros after a 0x80 that ends the value. Authentic values always have it.
        guard let end = plaintext.lastIndex(where: { $0 != 0 }), plaintext[end] == 0x80 else { throw .wrongKeyOrPlace }
        return plaintext[plaintext.startIndex..<end]
    }
}

/// The sub-keys of `seal` and `open`, made ready once: the values' ChaCha20-Poly1305 key set
/// up in a BoringSSL context, and the nonces' HMAC with its key blocks already hashed.
///
/// These call BoringSSL (swift-crypto's copy, `CCryptoBoringSSL`) directly rather than through
/// `ChaChaPoly` and `SHA256`: a push seals every field of every event (8,500 values for 500
/// sets), and swift-crypto makes a new AEAD context, three heap buffers and a combined `Data`
/// per call: 5.7 us a value against 0.5 us for the same cipher on a context made once
/// (BENCHMARKS.md, "Encryption"). The bytes are the same: `AccountKeyTests` opens these seals
/// with `ChaChaPoly` and pins the nonces against `HMAC<SHA256>`.
///
/// `@unchecked Sendable`: nothing changes after `init`. BoringSSL's seal and open take the
/// context `const` (one context serves every thread), and each HMAC hashes copies of the
/// prepared states.
private final class SealingKeys: @unchecked Sendable {
    static let nonceCount = 12
    static let tagCount = 16

    private let values: UnsafeMutablePointer<EVP_AEAD_CTX>
    private let nonces: NonceMAC

    init(values: SymmetricKey, nonces: SymmetricKey) {
        // Never nil: the key is 32 bytes, what ChaCha20-Poly1305 takes, and only memory runs out.
        self.values = values.withUnsafeBytes { key in
            CCryptoBoringSSL_EVP_AEAD_CTX_new(CCryptoBoringSSL_EVP_aead_chacha20_poly1305(),
                                              key.baseAddress!.assumingMemoryBound(to: UInt8.self), key.count, Self.tagCount)
        }!
        self.nonces = NonceMAC(key: nonces)
    }

    deinit { CCryptoBoringSSL_EVP_AEAD_CTX_free(values) }

    /// `plaintext` (padded) sealed into `out` (nonce, ciphertext and tag: `nonceCount +
    /// plaintext.count + tagCount` bytes, swift-crypto's `SealedBox.combined`), its nonce
    /// the HMAC of clock, associated data and plaintext, one after the other.
    func seal(_ plaintext: UnsafeRawBufferPointer, clock: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer,
              into out: UnsafeMutableBufferPointer<UInt8>) {
        precondition(out.count == Self.nonceCount + plaintext.count + Self.tagCount)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { code in
            nonces.code(clock, associatedData, plaintext, into: code.baseAddress!)
            for i in 0..<Self.nonceCount { out[i] = code[i] }
        }
        var written = 0
        let ok = CCryptoBoringSSL_EVP_AEAD_CTX_seal(values, out.baseAddress! + Self.nonceCount, &written, out.count - Self.nonceCount,
                                                    out.baseAddress!, Self.nonceCount,
                                                    plaintext.baseAddress!.assumingMemoryBound(to: UInt8.self), plaintext.count,
                                                    associatedData.baseAddress?.assumingMemoryBound(to: UInt8.self), associatedData.count)
        // Sealing fails only on sizes, and these are right by construction.
        precondition(ok == 1 && written == out.count - Self.nonceCount)
    }

    /// The plaintext of `combined` (nonce, ciphertext, tag), or nil when it does not
    /// authenticate under this key and `associatedData`.
    func open(_ combined: Data, associatedData: [UInt8]) -> Data? {
        let count = combined.count - Self.nonceCount - Self.tagCount
        guard count >= 0 else { return nil }
        var plaintext = Data(count: count)
        let ok = combined.withUnsafeBytes { combined in
            associatedData.withUnsafeBufferPointer { associatedData in
                plaintext.withUnsafeMutableBytes { out in
                    var written = 0
                    let bytes = combined.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    // A buffer of no bytes may have no address; BoringSSL needs one.
                    var none: UInt8 = 0
                    return withUnsafeMutablePointer(to: &none) { none in
                        CCryptoBoringSSL_EVP_AEAD_CTX_open(values, out.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? none, &written, count,
                                                           bytes, Self.nonceCount, bytes + Self.nonceCount, combined.count - Self.nonceCount,
                                                           associatedData.baseAddress, associatedData.count) == 1 && written == count
                    }
                }
            }
        }
        return ok ? plaintext : nil
    }
}

/// HMAC-SHA256 (RFC 2104) under one key, its inner and outer key blocks hashed once: each
/// code starts from copies of those two states (plain C structs, so a copy is a copy).
private struct NonceMAC {
    private var inner = SHA256_CTX(), outer = SHA256_CTX()

    /// `key` is at most one SHA-256 block (64 bytes); the derived keys are 32.
    init(key: SymmetricKey) {
        var block = [UInt8](repeating: 0, count: 64)
        key.withUnsafeBytes { precondition($0.count <= 64); block.replaceSubrange(0..<$0.count, with: $0) }
        CCryptoBoringSSL_SHA256_Init(&inner)
        CCryptoBoringSSL_SHA256_Init(&outer)
        CCryptoBoringSSL_SHA256_Update(&inner, block.map { $0 ^ 0x36 }, 64)
        CCryptoBoringSSL_SHA256_Update(&outer, block.map { $0 ^ 0x5C }, 64)
    }

    /// The HMAC of the three parts one after the other, its 32 bytes written to `out`.
    func code(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, _ c: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>) {
        var inner = self.inner, outer = self.outer
        // Three calls, not a loop over an array: that array would be a heap allocation a value.
        if a.count > 0 { CCryptoBoringSSL_SHA256_Update(&inner, a.baseAddress, a.count) }
        if b.count > 0 { CCryptoBoringSSL_SHA256_Update(&inner, b.baseAddress, b.count) }
        if c.count > 0 { CCryptoBoringSSL_SHA256_Update(&inner, c.baseAddress, c.count) }
        CCryptoBoringSSL_SHA256_Final(out, &inner)
        CCryptoBoringSSL_SHA256_Update(&outer, out, 32)
        CCryptoBoringSSL_SHA256_Final(out, &outer)
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
