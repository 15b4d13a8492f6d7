import Foundation
import Logging
import PipelineCore

/// How a settlement ended for one job.
enum SettledAs: Sendable {
    case done, retried, dead, released, lost
    /// The database stayed unreachable for a whole lease: nothing recorded; the job will be rescued.
    case unrecorded
}

/// Gathers finished attempts and settles them in batches: while one batch commits, the next one fills.
///
/// At low load every settlement commits at once; under load many share one transaction. A failed commit
/// (the database restarting) is retried with back-off for up to one lease; each caller hears back only after
/// its job's outcome committed.
actor SettlementBatcher<Queue: WorkQueue> {
    private let queue: Queue
    private let owner: UUID
    private let retryWindow: Duration
    private let logger: Logger
    private var pending: [(JobSettlement<Queue.Writes>, CheckedContinuation<SettledAs, Never>)] = []
    private var isFlushing = false

    init(queue: Queue, owner: UUID, retryWindow: Duration, logger: Logger) {
        self.queue = queue
        self.owner = owner
        self.retryWindow = retryWindow
        self.logger = logger
    }

    /// Records one settlement; returns once it committed (or was given up on).
    func submit(_ settlement: JobSettlement<Queue.Writes>) async -> SettledAs {
        await withCheckedContinuation { continuation in
            pending.append((settlement, continuation))
            if !isFlushing {
                isFlushing = true
                Task { await flush() }
            }
        }
    }

    private func flush() async {
        while !pending.isEmpty {
            let batch = pending
            pending.removeAll(keepingCapacity: true)
            let outcomes = await settleRetrying(batch.map(\.0))
            for (settlement, continuation) in batch {
                continuation.resume(returning: outcomes[settlement.job.id] ?? .unrecorded)
            }
        }
        isFlushing = false
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
