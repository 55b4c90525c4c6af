import Foundation
@testable import GymLogCLI
import GymLogTestSupport
import Testing

/// The detached process a shell command leaves behind begins only once the command has ended
/// (issue 28: its start-up took the command's CPU). Here this test holds the gate that the
/// command's end would close, so "not yet" is a state to look at, not a race.
@Suite struct DetachedProcessTests {
    /// Whether `pid` sleeps reading a pipe (the kernel's wait channel, "pipe_read" or
    /// "anon_pipe_read" depending on its version).
    private func readsAPipe(_ pid: pid_t) -> Bool {
        let channel = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
        return channel.hasSuffix("pipe_read")
    }

    @Test func aProcessBehindAGateBeginsOnlyOnceTheGateCloses() throws {
        // Given a gate whose write end this test holds, as a command holds it until it ends
        let folder = try temporaryDirectory("gymlog-gate")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        // No child of another test may inherit an end and hold the gate open.
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let mark = folder + "/began"

        // When a process that leaves a mark as it begins is started behind it
        let pid = try #require(DetachedProcess.start("/bin/sh", ["-c", "echo began > \"$0\"", mark], gate: ends[0]))
        close(ends[0])

        // Then it waits on the gate, and has not begun
        #expect(eventually(within: 20) { readsAPipe(pid) }, "the process did not wait on its gate")
        #expect(!FileManager.default.fileExists(atPath: mark), "the process began while its gate was open")
        // And it will run as background work, yielding the CPU to what the user runs next
        errno = 0
        #expect(getpriority(DetachedProcess.processPriority, id_t(pid)) == DetachedProcess.gatedNiceness && errno == 0)

        // When the gate closes, as it does when the command that holds it ends
        close(ends[1])

        // Then it begins and ends, collected here like any child, leaving no zombie
        var status: Int32 = -1
        #expect(waitpid(pid, &status, 0) == pid && status == 0)
        #expect(FileManager.default.fileExists(atPath: mark))
    }
}
