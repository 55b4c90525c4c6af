import NIOCore
import GymLogServerCore

/// The address a request's log line and per-address limits name: the peer's, or, when the
/// peer is a reverse proxy the operator trusts (`--trusted-proxy`), the client it forwards
/// for. `X-Forwarded-For` is believed only from such a proxy: anyone else can write it.
enum ClientAddress {
    /// The client behind `peer`: `peer` itself unless it is trusted; otherwise the rightmost
    /// `X-Forwarded-For` entry that is not a trusted proxy (each proxy appends the address it
    /// saw, so entries left of it may be the client's own inventions). A list that holds no
    /// such entry, or an entry that is not an IP address, leaves `peer`.
    static func resolve(peer: String, forwardedFor: [String], trusted: Set<String>) -> String {
        guard trusted.contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            guard let address = normalized(hop) else { return peer }
            if !trusted.contains(address) { return address }
        }
        return peer
    }

    /// An IP address in the form `SocketAddress.ipAddress` gives a peer (`::1`, `10.0.0.1`),
    /// or nil for anything else (a host name, a port, junk).
    static func normalized(_ text: String) -> String? {
        guard !text.isEmpty, text.utf8.count <= 64, let address = try? SocketAddress(ipAddress: text, port: 0) else { return nil }
        return address.ipAddress
    }
}
