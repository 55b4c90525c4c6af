import Foundation

// The real `gymlog-server` as a child process, and a minimal blocking HTTP/1.1 client for
// the throughput measurements (`gymlog-bench sync`). The client does as little as possible
// (one keep-alive connection, bodies encoded before the clock starts), so what is timed is
// the server; the end-to-end figures use the product's own `HTTPSyncTransport` instead.

/// A running `gymlog-server serve --db sqlite:PATH --port 0`.
final class ServerProcess {
    let pid: pid_t
    let host: String
    let port: Int
    let binary: String
    let database: String

    var baseURL: String { "http://\(host):\(port)" }

    /// Starts the server and waits for its `listening on http://HOST:PORT` line on stdout.
    init(binary: String, database: String, logPath: String, environment: [String]) throws {
        self.binary = binary
        self.database = database
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw BenchError("pipe failed: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = [binary, "serve", "--db", "sqlite:" + database, "--host", "127.0.0.1", "--port", "0"]
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, binary, &actions, nil, cArgs, cEnv)
        close(fds[1])
        guard rc == 0 else { close(fds[0]); throw BenchError("cannot start \(binary): \(String(cString: strerror(rc)))") }
        self.pid = pid

        // Read stdout until the listening line (or EOF: the server failed to start).
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 512)
        var found: (String, Int)?
        let deadline = monotonicNanos() + 30_000_000_000
        while found == nil, monotonicNanos() < deadline {
            let n = read(fds[0], &buffer, buffer.count)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            text += String(decoding: buffer[0..<n], as: UTF8.self)
            for line in text.split(separator: "\n") where line.hasPrefix("listening on http://") {
                let address = line.dropFirst("listening on http://".count)
                if let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]) {
                    found = (String(address[..<colon]), port)
                }
            }
        }
        close(fds[0])
        guard let found else {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            throw BenchError("gymlog-server did not say where it listens; its log: \(log.suffix(800))")
        }
        host = found.0
        port = found.1
    }

    /// Peak resident set size so far (`VmHWM` in /proc/PID/status), in KiB.
    func peakRSSKiB() -> Int? {
        statusField("VmHWM")
    }

    /// Current resident set size (`VmRSS`), in KiB.
    func currentRSSKiB() -> Int? {
        statusField("VmRSS")
    }

    private func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }

    /// SIGTERM (graceful shutdown), then reap.
    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}

/// `gymlog-server user add NAME --db sqlite:PATH`; returns the token (the last line).
func addServerUser(binary: String, database: String, name: String, directory: String, environment: [String]) throws -> String {
    let out = directory + "/user-add.out"
    _ = try spawnAndWait([binary, "user", "add", name, "--db", "sqlite:" + database], environment: environment,
                         stdoutPath: out, stderrPath: directory + "/user-add.err")
    let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    guard let token = text.split(separator: "\n").last.map(String.init), token.hasPrefix("glt_") else {
        throw BenchError("`gymlog-server user add` printed no token: \(text.prefix(300))")
    }
    return token
}

/// One keep-alive HTTP/1.1 connection with blocking sockets.
final class MiniHTTPClient {
    private let fd: Int32
    private var buffer: [UInt8] = []

    struct Response {
        var status: Int
        var body: [UInt8]
    }

    init(host: String, port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket failed: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { close(fd); throw BenchError("\(host) is not an IPv4 address") }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { close(fd); throw BenchError("cannot connect to \(host):\(port): \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    /// Sends one request and reads the whole answer (Content-Length or chunked).
    func send(_ method: String, _ target: String, token: String?, body: [UInt8]? = nil) throws -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if let body { bytes += body }
        try writeAll(bytes)
        return try readResponse()
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw BenchError("send failed: \(String(cString: strerror(errno)))")
            }
            sent += n
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0, errno == EINTR { continue }
            if n < 0 { throw BenchError("recv failed: \(String(cString: strerror(errno)))") }
            if n == 0 { throw BenchError("the server closed the connection") }
            buffer.append(contentsOf: chunk[0..<n])
            return
        }
    }

    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }

    private func readResponse() throws -> Response {
        var end = headerEnd()
        while end == nil { try fill(); end = headerEnd() }
        let head = String(decoding: buffer[0..<end!], as: UTF8.self)
        buffer.removeFirst(end! + 4)
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.split(separator: " ").count >= 2,
              let status = Int(statusLine.split(separator: " ")[1]) else { throw BenchError("bad status line: \(head.prefix(100))") }
        var length: Int?
        var chunked = false
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].lowercased(), value = parts[1].trimmingCharacters(in: .whitespaces)
            if name == "content-length" { length = Int(value) }
            if name == "transfer-encoding", value.lowercased().contains("chunked") { chunked = true }
        }
        if chunked {
            var body: [UInt8] = []
            while true {
                var lineEnd = crlf(from: 0)
                while lineEnd == nil { try fill(); lineEnd = crlf(from: 0) }
                let sizeText = String(decoding: buffer[0..<lineEnd!], as: UTF8.self).split(separator: ";").first ?? ""
                guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { throw BenchError("bad chunk size") }
                buffer.removeFirst(lineEnd! + 2)
                while buffer.count < size + 2 { try fill() }
                body += buffer[0..<size]
                buffer.removeFirst(size + 2)
                if size == 0 { return Response(status: status, body: body) }
            }
        }
        let n = length ?? 0
        while buffer.count < n { try fill() }
        let body = Array(buffer[0..<n])
        buffer.removeFirst(n)
        return Response(status: status, body: body)
    }

    private func crlf(from start: Int) -> Int? {
        guard buffer.count >= start + 2 else { return nil }
        for i in start...(buffer.count - 2) where buffer[i] == 13 && buffer[i + 1] == 10 { return i }
        return nil
    }
}
