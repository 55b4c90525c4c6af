import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket listening on a free loopback port: what the tests' hand-made servers accept
/// on. Returns the descriptor (the caller closes it) and the port.
public func loopbackListener(backlog: Int32 = 16) throws -> (fd: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EMFILE) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound, listen(fd, backlog) == 0 else { close(fd); throw POSIXError(.EADDRNOTAVAIL) }
    return (fd, UInt16(bigEndian: address.sin_port))
}
