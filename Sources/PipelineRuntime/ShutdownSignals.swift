import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into calls of a handler (instead of the default: die at once).
///
/// Keep the value alive as long as the signals should be handled; `cancel()` restores nothing (the process is
/// about to exit). Other handlers of the same signals keep theirs (`pipeline serve`'s page, through swift-service-
/// lifecycle): on Linux a dispatch signal source catches its signal with a handler Dispatch installs once per
/// signal, and setting the signal to be ignored after that — as this did on every platform — made the kernel drop
/// it for every source, so a SIGTERM now and then stopped nothing. Only Darwin, whose sources watch signals through
/// kqueue, needs the default action ignored.
public final class ShutdownSignals: @unchecked Sendable {
    // @unchecked Sendable: `sources` is written once in init and only read after.
    private let sources: [any DispatchSourceSignal]

    /// Installs the handler; it runs on a global queue, once per signal received. Returns once Dispatch catches the
    /// signals (it registers a source asynchronously), so one sent right after is not missed.
    public init(_ signals: [Int32] = [SIGINT, SIGTERM], handler: @escaping @Sendable (Int32) -> Void) async {
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            #if canImport(Darwin)
                signal(number, SIG_IGN)
            #endif
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
                source.setRegistrationHandler { registered.resume() }
                source.resume()
            }
            sources.append(source)
        }
        self.sources = sources
    }

    /// Stops delivering signals to the handler.
    public func cancel() {
        sources.forEach { $0.cancel() }
    }
}
