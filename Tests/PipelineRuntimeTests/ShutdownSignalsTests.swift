import Dispatch
import Foundation
import PipelineRuntime
import Testing

/// `pipeline serve` has two handlers of SIGTERM: its page's (swift-service-lifecycle, a dispatch signal source) and
/// its worker slots' (`ShutdownSignals`). Installing the second must not take the signal from the first, and each
/// gets it. SIGUSR2 stands in for SIGTERM here, so the test process is never asked to stop.
@Suite struct ShutdownSignalsTests {
    @Test func aSecondHandlerOfASignalLeavesTheFirstItsSignal() async throws {
        let (received, receiver) = AsyncStream.makeStream(of: String.self)
        let page = DispatchSource.makeSignalSource(signal: SIGUSR2, queue: .global())
        page.setEventHandler { receiver.yield("page") }
        await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
            page.setRegistrationHandler { registered.resume() }
            page.resume()
        }
        let slots = await ShutdownSignals([SIGUSR2]) { _ in receiver.yield("slots") }
        defer {
            slots.cancel()
            page.cancel()
        }
        // A bound on the wait, not a measure of it: a signal that is dropped ends the stream empty-handed.
        let bound = Task {
            try await Task.sleep(for: .seconds(20))
            receiver.finish()
        }
        defer { bound.cancel() }

        kill(getpid(), SIGUSR2)

        var handlers = Set<String>()
        for await handler in received {
            handlers.insert(handler)
            if handlers.count == 2 { break }
        }
        #expect(handlers == ["page", "slots"])
    }
}
