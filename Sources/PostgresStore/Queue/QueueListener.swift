import Foundation
import Logging

/// Listens on the queue's NOTIFY channel with its own connection and turns notifications into wake-ups.
///
/// Runs in the caller's task until it is cancelled: waits with `poll()` on the socket (on the connection's thread),
/// reconnects with back-off after a failure, and wakes after every (re)connect because notifications sent meanwhile
/// are lost. The connection is closed before `listen` returns.
struct QueueListener: Sendable {
    let target: PostgresTarget
    let channel: String
    let logger: Logger

    /// How long one wait blocks, so cancellation is noticed promptly.
    private static let waitSlice: Duration = .milliseconds(200)

    func listen(_ wake: @Sendable () async -> Void) async {
        var retryDelay: Duration = .milliseconds(50)
        while !Task.isCancelled {
            var connection: PostgresConnection?
            do {
                let opened = try await PostgresConnection.connect(to: target, label: "pipeline-listen", logger: logger)
                connection = opened
                try await opened.execute(script: "LISTEN \(channel)")
                await wake()
                retryDelay = .milliseconds(50)
                while !Task.isCancelled {
                    if try await !opened.waitForNotifications(timeout: Self.waitSlice).isEmpty {
                        await wake()
                    }
                }
            } catch {
                if !Task.isCancelled {
                    logger.debug("queue listener lost its connection, reconnecting in \(retryDelay): \(error)")
                    await wake()
                    try? await Task.sleep(for: retryDelay)
                    retryDelay = min(retryDelay * 2, .seconds(2))
                }
            }
            await connection?.close()
        }
    }
}
