import Synchronization

/// A one-waiter wake-up signal with a deadline: signals before the wait are not lost (one is remembered).
final class Wakeup: Sendable {
    private struct State {
        var isSignaled = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Wakes the waiter, or the next wait when none is waiting.
    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.isSignaled = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when signalled or at `deadline`, whichever comes first.
    func wait(until deadline: ContinuousClock.Instant) async {
        let timer = Task { [weak self] in
            // A cancelled timer (the wait ended early) must not signal: that would end the next wait at once.
            guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
            self?.signal()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.isSignaled {
                    state.isSignaled = false
                    return true
                }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
        timer.cancel()
    }
}
