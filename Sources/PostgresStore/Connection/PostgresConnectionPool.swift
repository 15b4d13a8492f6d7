import Foundation
import Logging

/// Where statements run: one connection (a command's), or a pool that lends one per call (a server's pages).
public protocol PostgresSessions: Sendable {
    /// Runs `body` with a connection that no other caller uses meanwhile.
    func withConnection<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T
}

extension PostgresConnection: PostgresSessions {
    /// Runs `body` with this connection (callers take turns on it, as on any actor).
    public nonisolated func withConnection<T: Sendable>(
        _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await body(self)
    }
}

/// A bounded set of connections shared by a server's pages and uploads.
///
/// At most `size` connections are open; a caller beyond them waits its turn, in arrival order, up to `waitLimit`,
/// so a burst of requests queues instead of failing. A connection is opened on first need, checked with a ping
/// when it has sat idle (a database restart leaves idle connections dead), and dropped when a call on it fails
/// for the connection's sake, so the pool reconnects after a restart or failover without the server restarting.
public actor PostgresConnectionPool: PostgresSessions {
    public nonisolated let target: PostgresTarget
    public nonisolated let size: Int
    public nonisolated let waitLimit: Duration
    private let label: String
    private let logger: Logger
    private var idle: [(connection: PostgresConnection, since: ContinuousClock.Instant)] = []
    /// Connections open or being opened, idle or lent.
    private var opened = 0
    private var waiters: [(id: Int, turn: CheckedContinuation<Bool, Never>)] = []
    private var nextWaiter = 0

    /// An idle connection older than this is pinged before it is lent.
    static let pingAfter: Duration = .seconds(2)

    public init(
        target: PostgresTarget, size: Int, waitLimit: Duration = .seconds(30), label: String,
        logger: Logger = Logger(label: "postgres")
    ) {
        self.target = target
        self.size = max(1, size)
        self.waitLimit = waitLimit
        self.label = label
        self.logger = logger
    }

    public func withConnection<T: Sendable>(
        _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let connection = try await acquire()
        do {
            let value = try await body(connection)
            release(connection, broken: false)
            return value
        } catch let error as PostgresError where error.meansDatabaseUnreachable {
            release(connection, broken: true)
            throw error
        } catch {
            release(connection, broken: false)
            throw error
        }
    }

    /// Closes every idle connection: for the end of the pool's life, when no call is running.
    public func close() async {
        let closing = idle.map(\.connection)
        idle.removeAll()
        opened -= closing.count
        for connection in closing { await connection.close() }
    }

    private func acquire() async throws -> PostgresConnection {
        let deadline = ContinuousClock.now + waitLimit
        while true {
            if let lent = idle.popLast() {
                let connection = lent.connection
                if ContinuousClock.now - lent.since < Self.pingAfter { return connection }
                if (try? await connection.query("SELECT 1")) != nil { return connection }
                logger.info("database connection '\(label)' was lost while idle; reconnecting")
                opened -= 1
                Task { await connection.close() }
                continue
            }
            if opened < size {
                opened += 1
                do {
                    return try await PostgresConnection.connect(to: target, label: label, logger: logger)
                } catch {
                    opened -= 1
                    wakeOne()
                    throw error
                }
            }
            let id = nextWaiter
            nextWaiter += 1
            let gotTurn = await withCheckedContinuation { turn in
                waiters.append((id, turn))
                Task { [weak self] in
                    try? await Task.sleep(until: deadline)
                    await self?.giveUp(id)
                }
            }
            guard gotTurn else {
                throw PostgresError(
                    code: .connectionFailed,
                    message: "all \(size) database connections of '\(label)' stayed busy for \(waitLimit)",
                    hint: "the server is overloaded; try again in a moment")
            }
        }
    }

    private func release(_ connection: PostgresConnection, broken: Bool) {
        if broken {
            opened -= 1
            Task { await connection.close() }
        } else {
            idle.append((connection, ContinuousClock.now))
        }
        wakeOne()
    }

    private func wakeOne() {
        guard !waiters.isEmpty else { return }
        waiters.removeFirst().turn.resume(returning: true)
    }

    private func giveUp(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).turn.resume(returning: false)
    }
}
