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
/// (the database restarting) is retried with back-off for up to one lease. `run` does the committing in the
/// caller's task (a child of the worker's task group) and hands each committed batch to its callback, so the
/// worker frees that batch's slots at once (and claims for them together).
final class SettlementBatcher<Queue: WorkQueue>: Sendable {
    /// One settlement of a committed batch with how it ended.
    typealias Settled = (settlement: JobSettlement<Queue.Writes>, settledAs: SettledAs, failure: JobFailure?)

    private let queue: Queue
    private let owner: UUID
    private let retryWindow: Duration
    private let logger: Logger
    private let pending = Mutex([JobSettlement<Queue.Writes>]())
    private let flushRequests: AsyncStream<Void>
    private let requestFlush: AsyncStream<Void>.Continuation

    init(queue: Queue, owner: UUID, retryWindow: Duration, logger: Logger) {
        self.queue = queue
        self.owner = owner
        self.retryWindow = retryWindow
        self.logger = logger
        (flushRequests, requestFlush) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Records one settlement; `run` commits it with whatever else is pending.
    func submit(_ settlement: JobSettlement<Queue.Writes>) {
        pending.withLock { $0.append(settlement) }
        requestFlush.yield()
    }

    /// Commits pending settlements, batch after batch, until the calling task is cancelled; `committed` gets every
    /// batch after it committed (or was given up on), in order. Call it once.
    func run(_ committed: @Sendable ([Settled]) async -> Void) async {
        for await _ in flushRequests {
            while let batch = nextBatch() {
                let outcomes = await settleRetrying(batch)
                await committed(
                    batch.map { settlement in
                        let outcome = outcomes[settlement.job.id]
                        return (settlement, outcome?.settledAs ?? .unrecorded, outcome?.failure)
                    })
            }
        }
    }

    /// Takes everything pending; nil when nothing is.
    private func nextBatch() -> [JobSettlement<Queue.Writes>]? {
        pending.withLock { pending in
            guard !pending.isEmpty else { return nil }
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
    }

    private func settleRetrying(_ settlements: [JobSettlement<Queue.Writes>]) async
        -> [Int64: (settledAs: SettledAs, failure: JobFailure?)]
    {
        let deadline = ContinuousClock.now + retryWindow
        var delay: Duration = .milliseconds(50)
        while true {
            do {
                let report = try await queue.settle(settlements, owner: owner)
                var outcomes = [Int64: (settledAs: SettledAs, failure: JobFailure?)](minimumCapacity: settlements.count)
                for id in report.done { outcomes[id] = (.done, nil) }
                for id in report.retried { outcomes[id] = (.retried, report.failures[id]) }
                for id in report.dead { outcomes[id] = (.dead, report.failures[id]) }
                for id in report.released { outcomes[id] = (.released, nil) }
                for id in report.lost { outcomes[id] = (.lost, nil) }
                return outcomes
            } catch {
                guard ContinuousClock.now + delay < deadline, !Task.isCancelled else {
                    logger.error(
                        "could not record \(settlements.count) finished job(s): \(error); they will be rescued after their lease"
                    )
                    return [:]
                }
                logger.warning("recording \(settlements.count) finished job(s) failed, retrying in \(delay): \(error)")
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(2))
            }
        }
    }
}
