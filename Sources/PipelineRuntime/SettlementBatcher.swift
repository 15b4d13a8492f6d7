import Foundation
import Logging
import PipelineCore
import Synchronization

/// How a settlement ended for one job.
enum SettledAs: Sendable {
    case done, retried, dead, released, lost
    /// The database stayed unreachable for a whole lease: nothing recorded; the job will be rescued.
    case unrecorded
}

/// Gathers finished attempts and settles them in batches: while one batch commits, the next one fills.
///
/// At low load every settlement commits at once; under load many share one transaction. A failed commit
/// (the database restarting) is retried with back-off for up to one lease. Outcomes come out of `settled`, one
/// element per committed batch, so the worker frees that batch's slots at once (and claims for them together).
final class SettlementBatcher<Queue: WorkQueue>: Sendable {
    /// The jobs of one committed batch with their outcomes.
    typealias Batch = [(job: ClaimedJob, settledAs: SettledAs)]

    /// Every batch after it committed (or was given up on), in order.
    let settled: AsyncStream<Batch>

    private struct State {
        var pending: [JobSettlement<Queue.Writes>] = []
        var isFlushing = false
    }

    private let queue: Queue
    private let owner: UUID
    private let retryWindow: Duration
    private let logger: Logger
    private let state = Mutex(State())
    private let output: AsyncStream<Batch>.Continuation

    init(queue: Queue, owner: UUID, retryWindow: Duration, logger: Logger) {
        self.queue = queue
        self.owner = owner
        self.retryWindow = retryWindow
        self.logger = logger
        (settled, output) = AsyncStream.makeStream(of: Batch.self)
    }

    /// Records one settlement; its outcome comes out of `settled` once its batch committed.
    func submit(_ settlement: JobSettlement<Queue.Writes>) {
        let startsFlush = state.withLock { state in
            state.pending.append(settlement)
            let wasFlushing = state.isFlushing
            state.isFlushing = true
            return !wasFlushing
        }
        if startsFlush { Task { await flush() } }
    }

    private func flush() async {
        while let batch = nextBatch() {
            let outcomes = await settleRetrying(batch)
            output.yield(batch.map { ($0.job, outcomes[$0.job.id] ?? .unrecorded) })
        }
    }

    /// Takes everything pending; nil (and no longer flushing) when nothing is.
    private func nextBatch() -> [JobSettlement<Queue.Writes>]? {
        state.withLock { state in
            guard !state.pending.isEmpty else {
                state.isFlushing = false
                return nil
            }
            defer { state.pending.removeAll(keepingCapacity: true) }
            return state.pending
        }
    }

    private func settleRetrying(_ settlements: [JobSettlement<Queue.Writes>]) async -> [Int64: SettledAs] {
        let deadline = ContinuousClock.now + retryWindow
        var delay: Duration = .milliseconds(50)
        while true {
            do {
                let report = try await queue.settle(settlements, owner: owner)
                var outcomes = [Int64: SettledAs](minimumCapacity: settlements.count)
                for id in report.done { outcomes[id] = .done }
                for id in report.retried { outcomes[id] = .retried }
                for id in report.dead { outcomes[id] = .dead }
                for id in report.released { outcomes[id] = .released }
                for id in report.lost { outcomes[id] = .lost }
                return outcomes
            } catch {
                guard ContinuousClock.now + delay < deadline else {
                    logger.error("could not record \(settlements.count) finished job(s): \(error); they will be rescued after their lease")
                    return [:]
                }
                logger.warning("recording \(settlements.count) finished job(s) failed, retrying in \(delay): \(error)")
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(2))
            }
        }
    }
}
