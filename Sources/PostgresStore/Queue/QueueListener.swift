import Foundation
import Logging

/// Listens on the queue's NOTIFY channel with its own connection and turns notifications into wake-ups.
///
/// Waits with `poll()` on the socket (on the connection's thread), reconnects with back-off after a failure, and
/// yields a wake-up after every (re)connect because notifications sent meanwhile are lost.
struct QueueListener: Sendable {
    let target: PostgresTarget
    let channel: String
    let logger: Logger

    /// How long one wait blocks, so cancellation is noticed promptly.
    private static let waitSlice: Duration = .milliseconds(200)

    /// Wake-ups until the stream's consumer goes away.
    func wakeups() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let task = Task { await listen(continuation) }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func listen(_ continuation: AsyncStream<Void>.Continuation) async {
        var retryDelay: Duration = .milliseconds(50)
        while !Task.isCancelled {
            var connection: PostgresConnection?
            do {
                let opened = try await PostgresConnection.connect(to: target, label: "pipeline-listen", logger: logger)
                connection = opened
                try await opened.execute(script: "LISTEN \(channel)")
                continuation.yield()
                retryDelay = .milliseconds(50)
                while !Task.isCancelled {
                    if try await !opened.waitForNotifications(timeout: Self.waitSlice).isEmpty {
                        continuation.yield()
                    }
                }
            } catch {
                logger.debug("queue listener lost its connection, reconnecting in \(retryDelay): \(error)")
                continuation.yield()
                try? await Task.sleep(for: retryDelay)
                retryDelay = min(retryDelay * 2, .seconds(2))
            }
            await connection?.close()
        }
        continuation.finish()
    }
}
