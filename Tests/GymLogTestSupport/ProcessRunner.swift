import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The folder holding the built products (`.build/debug`): the test bundle sits next to them.
public var builtProducts: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }

/// What a finished process printed and how it ended.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Ended by a signal (a kill, a crash), not by exiting.
    public var signalled: Bool
    /// Killed by the runner because it outlived its timeout.
    public var timedOut: Bool
    /// Ended by the runner's SIGKILL (a timeout or `RunningProcess.kill()`); a process already
    /// exiting when the signal came was not killed.
    public var killed: Bool

    public init(status: Int32, stdout: String, stderr: String, signalled: Bool = false, timedOut: Bool = false,
                killed: Bool = false) {
        self.status = status; self.stdout = stdout; self.stderr = stderr; self.signalled = signalled
        self.timedOut = timedOut; self.killed = killed
    }
}

/// Reads a pipe to its end on another thread, so the child never blocks on a full pipe.
public final class DrainedPipe: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    public init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything the pipe carried, once its writer closed it.
    public func wait() -> String { done.wait(); return String(decoding: data, as: UTF8.self) }
}

/// A started process whose stdin the caller feeds and which it may kill; stdout and stderr
/// are drained meanwhile.
public final class RunningProcess: @unchecked Sendable {
    public let process: Process
    public let input: FileHandle
    private let output: DrainedPipe, error: DrainedPipe
    private let exited: DispatchSemaphore
    private var killedByUs = false

    /// Starts `executable args`; `environment` nil inherits the runner's.
    public init(_ executable: URL, _ args: [String], environment: [String: String]? = nil, currentDirectory: String? = nil) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = args
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin; process.standardOutput = stdout; process.standardError = stderr
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        self.process = process
        self.exited = exited
        input = stdin.fileHandleForWriting
        output = DrainedPipe(stdout.fileHandleForReading)
        error = DrainedPipe(stderr.fileHandleForReading)
    }

    /// Writes `data` to stdin on another thread (a large input never blocks the caller), then
    /// closes it when `close` is set; a child that died meanwhile is not an error.
    public func feed(_ data: Data, close: Bool) {
        // A write to the stdin of a process that died must fail, not kill the runner.
        signal(SIGPIPE, SIG_IGN)
        if data.isEmpty {
            if close { try? input.close() }
            return
        }
        let input = self.input
        let written = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? input.write(contentsOf: data)
            if close { try? input.close() }
            written.signal()
        }
        // Small inputs fit the pipe buffer: wait for them so the caller knows they were sent.
        if data.count < 60_000 { written.wait() }
    }

    /// SIGKILLs the process unless it already exited.
    public func kill() {
        guard process.isRunning else { return }
        killedByUs = true
        Glibc.kill(process.processIdentifier, SIGKILL)
    }

    /// Whether the process is still running after `seconds`.
    public func isRunning(after seconds: TimeInterval) -> Bool {
        guard exited.wait(timeout: .now() + seconds) == .success else { return true }
        exited.signal()  // keep the exit visible to `wait`
        return false
    }

    /// Waits for the end (killing it after `timeout` seconds, if given) and collects its output.
    public func wait(timeout: TimeInterval? = nil) -> ProcessResult {
        var timedOut = false
        if let timeout, exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill()
            exited.wait()
        } else if timeout == nil {
            exited.wait()
        }
        exited.signal()  // later waits return at once
        process.waitUntilExit()
        try? input.close()
        let signalled = process.terminationReason == .uncaughtSignal
        return ProcessResult(status: process.terminationStatus, stdout: output.wait(), stderr: error.wait(),
                             signalled: signalled, timedOut: timedOut, killed: killedByUs && signalled)
    }
}

/// Runs processes to completion: the one way tests start a binary.
public enum ProcessRunner {
    /// Runs `executable args` with `stdin` (then closed), waits for it, and returns what it printed.
    /// After `timeout` seconds it is SIGKILLed and the result says `timedOut`.
    public static func run(_ executable: URL, _ args: [String], stdin: Data = Data(), environment: [String: String]? = nil,
                           currentDirectory: String? = nil, timeout: TimeInterval? = nil) throws -> ProcessResult {
        let running = try RunningProcess(executable, args, environment: environment, currentDirectory: currentDirectory)
        running.feed(stdin, close: true)
        return running.wait(timeout: timeout)
    }

    /// Runs a built product (`gymlog`, `gymlog-server`, ...) by name.
    public static func runProduct(_ name: String, _ args: [String], stdin: String = "", environment: [String: String]? = nil,
                                  currentDirectory: String? = nil, timeout: TimeInterval? = nil) throws -> ProcessResult {
        try run(builtProducts.appendingPathComponent(name), args, stdin: Data(stdin.utf8), environment: environment,
                currentDirectory: currentDirectory, timeout: timeout)
    }
}
