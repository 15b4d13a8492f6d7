import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into calls of a handler (instead of the default: die at once).
///
/// Keep the value alive as long as the signals should be handled; `cancel()` restores nothing (the process is
/// about to exit).
public final class ShutdownSignals: @unchecked Sendable {
    // @unchecked Sendable: `sources` is written once in init and only read after.
    private let sources: [any DispatchSourceSignal]

    /// Installs the handler; it runs on a global queue, once per signal received.
    public init(_ signals: [Int32] = [SIGINT, SIGTERM], handler: @escaping @Sendable (Int32) -> Void) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    /// Stops delivering signals to the handler.
    public func cancel() {
        sources.forEach { $0.cancel() }
    }
}
