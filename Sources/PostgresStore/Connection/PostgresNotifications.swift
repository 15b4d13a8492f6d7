import CLibPQ
import Foundation
import PipelineCore

/// A NOTIFY received on a channel this connection listens to.
public struct PostgresNotification: Sendable, Equatable {
    public let channel: String
    public let payload: String
}

extension PostgresConnection {
    /// Waits up to `timeout` for notifications (after `LISTEN channel`), polling the socket so no thread spins.
    ///
    /// Returns at once with any already buffered, otherwise when one arrives or the time is up (then empty).
    /// Blocks the connection's own thread only.
    /// - Throws: `PostgresError` `.connectionLost` when the server went away.
    public func waitForNotifications(timeout: Duration) throws(PostgresError) -> [PostgresNotification] {
        guard let handle else {
            throw PostgresError(code: .connectionLost, message: "the connection to \(target) is closed")
        }
        var received = drainNotifications(handle)
        guard received.isEmpty else { return received }
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw lostError(handle) }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: timeout.milliseconds)
        let ready = poll(&descriptor, 1, milliseconds)
        if ready < 0 && errno != EINTR { throw lostError(handle) }
        guard ready > 0 else { return [] }
        guard PQconsumeInput(handle) == 1 else { throw lostError(handle) }
        received = drainNotifications(handle)
        return received
    }

    private func drainNotifications(_ handle: OpaquePointer) -> [PostgresNotification] {
        var notifications = [PostgresNotification]()
        while let notification = PQnotifies(handle) {
            notifications.append(
                PostgresNotification(
                    channel: String(cString: notification.pointee.relname),
                    payload: String(cString: notification.pointee.extra)))
            PQfreemem(notification)
        }
        return notifications
    }

    private func lostError(_ handle: OpaquePointer) -> PostgresError {
        let reason = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
        return PostgresError(
            code: .connectionLost, message: "lost the connection to \(target) while listening: \(reason)")
    }
}
