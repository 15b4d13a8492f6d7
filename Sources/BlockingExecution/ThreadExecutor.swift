import Foundation

/// A serial executor that runs every job on one dedicated thread.
///
/// Blocking C calls (libpq, Tesseract, Leptonica) must never run on Swift's cooperative pool, which has one
/// thread per core. An actor whose `unownedExecutor` is a `ThreadExecutor` runs all its methods on that thread,
/// so it may block freely while the pool stays responsive. It also serves as a `TaskExecutor` preference for
/// stateless blocking work. Linux has no `DispatchSerialQueue`, hence this small hand-written executor.
public final class ThreadExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    // @unchecked Sendable: `jobs` and `isStopped` are only touched while holding `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var isStopped = false

    /// Starts the thread.
    /// - Parameter name: the thread's name, shown by debuggers and `top -H`.
    public init(name: String) {
        let thread = Thread { [self] in
            Thread.current.name = name
            run()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    public func enqueue(_ job: UnownedJob) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Lets the thread finish the jobs already queued, then exit. Call it only when nothing will be enqueued again:
    /// a job enqueued after the thread has exited never runs.
    public func shutdown() {
        condition.lock()
        isStopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !isStopped {
                condition.wait()
            }
            if jobs.isEmpty && isStopped {
                condition.unlock()
                return
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch {
                job.runSynchronously(
                    isolatedTo: asUnownedSerialExecutor(),
                    taskExecutor: asUnownedTaskExecutor()
                )
            }
        }
    }
}
