import Foundation

/// Runs async work from a synchronous command (ArgumentParser commands here are synchronous
/// so the REPL can call them) and waits for it.
///
/// The work runs on a thread of its own, not on Swift's cooperative pool or a dispatch queue.
/// A caller that blocks while the work needs a pool thread deadlocks whenever every pool thread
/// is blocked the same way (two on a two-core machine): the test suite hit exactly that when a
/// REPL `sync` waited behind tests blocked in process waits. Dispatch queues are no way out
/// either: on Linux their shared workers are also one per core, and a blocked pool gets a new
/// one only after a one-second stall check. Nonisolated async code and default actors follow the
/// task's executor preference, so the whole sync cycle stays on this thread.
public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let executor = ThreadTaskExecutor(name: "gymlog.run-blocking")
    Task(executorPreference: executor) {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    executor.finish()
    return try box.result!.get()
}

private final class ResultBox<T>: @unchecked Sendable { var result: Result<T, Error>? }

/// A task executor that runs jobs one at a time, in order, on one dedicated thread. The thread
/// ends once `finish()` was called and every job already enqueued has run.
final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finishing = false

    init(name: String) {
        let thread = Thread { [self] in runJobs() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finishing = true
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty && !finishing { condition.wait() }
            if jobs.isEmpty { condition.unlock(); return }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}
