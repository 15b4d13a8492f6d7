import Foundation
import Logging
import PipelineCore
import PostgresStore

/// The queue's job handler: runs the receipt pipeline on the job's receipt and hands its record to the queue,
/// which commits it (expense, items, stage timings) in the transaction that completes the job.
///
/// A failed attempt still records its stage timings; the failure is classified by `StageFailure`.
/// Validation problems are not failures: the expense goes to review.
struct ReceiptProcessor: Sendable {
    let pipeline: ReceiptPipeline
    let source: PostgresReceiptSource
    /// Records the timings of failed attempts; separate from the queue's connections.
    let recorder: PostgresConnection
    let logger: Logger

    @Sendable func handle(_ job: ClaimedJob) async throws -> PostgresJobCompletion {
        guard let receiptID = job.receiptID else {
            throw JobFailure.permanent(stage: Stage.load.rawValue, "job \(job.id) names no receipt; it cannot run")
        }
        var logger = logger
        logger[metadataKey: "receipt.id"] = "\(receiptID)"
        logger[metadataKey: "attempt"] = "\(job.attempt)"
        let attempt = JobAttempt(number: job.attempt, maxAttempts: job.maxAttempts)
        do {
            let record = try await pipeline.run(receipt: receiptID, from: source, attempt: attempt).record
            logger.debug(
                "receipt processed: \(record.result.outcome.rawValue), total \(record.result.draft.total?.value.description ?? "none")"
            )
            return PostgresJobCompletion(writes: { connection in
                try ExpenseStore.commit(record, jobID: job.id, attempt: job.attempt, in: connection)
            })
        } catch let failed as FailedRun {
            await record(failed.timings, of: job, receiptID: receiptID)
            switch failed.failure.severity {
            case .warning: logger.warning("\(failed.failure)")
            case .error: logger.error("\(failed.failure)")
            }
            throw failed
        }
    }

    private func record(_ timings: [StageTiming], of job: ClaimedJob, receiptID: Int64) async {
        do {
            try await recorder.transaction { connection in
                try ExpenseStore.insertTimings(
                    timings, receiptID: receiptID, jobID: job.id, attempt: job.attempt, in: connection)
            }
        } catch {
            logger.warning("receipt \(receiptID): could not record the failed attempt's timings: \(error)")
        }
    }
}
