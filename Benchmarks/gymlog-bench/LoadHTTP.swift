import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking HTTP/1.1 keep-alive client over one loopback socket, for the load benchmark:
/// one per simulated device and thread, so the client costs little next to the server.
final class LoadHTTPConnection {
    struct Response {
        var status: Int
        var body: [UInt8]
    }

    private let fd: Int32
    private let host: String
    private var buffer: [UInt8] = []

    init(host: String, port: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket() failed: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { close(fd); throw BenchError("cannot connect to \(host):\(port): errno \(errno)") }
        self.fd = fd
        self.host = "\(host):\(port)"
    }

    deinit { close(fd) }

    /// Sends one request and reads its whole answer (Content-Length framed).
    func send(_ method: String, _ target: String, token: String, body: [UInt8]? = nil) throws -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\nAuthorization: Bearer \(token)\r\n"
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        head += "\r\n"
        try writeAll(Array(head.utf8) + (body ?? []))
        return try readResponse()
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw BenchError("write failed: errno \(errno)") }
            offset += n
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { throw BenchError("the server closed the connection") }
        buffer.append(contentsOf: chunk[0..<n])
    }

    private func readResponse() throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        while headerEnd == nil {
            if buffer.count >= 4 {
                for i in 0...(buffer.count - 4) where buffer[i] == 13 && Array(buffer[i..<(i + 4)]) == separator { headerEnd = i; break }
            }
            if headerEnd == nil { try fill() }
        }
        let header = String(decoding: buffer[0..<headerEnd!], as: UTF8.self)
        let lines = header.split(separator: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var length = 0
        for line in lines.dropFirst() where line.lowercased().hasPrefix("content-length:") {
            length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        let start = headerEnd! + 4
        while buffer.count < start + length { try fill() }
        let body = Array(buffer[start..<(start + length)])
        buffer.removeFirst(start + length)
        return Response(status: status, body: body)
    }
}
