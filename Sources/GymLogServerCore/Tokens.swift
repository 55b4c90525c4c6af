import Crypto
import Foundation

/// Bearer tokens: 32 random bytes, base64url, prefixed `glt_`. Only the SHA-256 is stored.
public enum Tokens {
    /// A new token; show it once, store only `hash(_:)`.
    public static func generate() -> String {
        var rng = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 32)
        for i in bytes.indices { bytes[i] = UInt8.random(in: .min ... .max, using: &rng) }
        let base64url = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "glt_" + base64url
    }

    /// The lowercase hex SHA-256 of the token, as stored in `users.token_hash`; also of an
    /// account key's verifier, as stored in `users.key_verifier` (a device sends the verifier,
    /// the server keeps only its hash).
    public static func hash(_ token: String) -> String {
        lowercaseHex(SHA256.hash(data: Data(token.utf8)))
    }

    /// Whether two hashes are equal, in a time that does not depend on where they differ.
    public static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}

/// Bytes as lowercase hex, two digits each (token hashes, event digests).
func lowercaseHex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(64)
    for byte in bytes {
        out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 0xf)])
    }
    return String(decoding: out, as: UTF8.self)
}
