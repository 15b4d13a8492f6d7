import Foundation
import Logging
import PipelineCore
import PostgresStore

/// The queue's job handler: runs the receipt pipeline on the job's receipt and hands its record to the queue,
/// which commits it (expense, items, stage timings) in the transaction that completes the job.
///
/// A failed attempt still records its stage timings, its LLM calls (charged to the receipt's budget) and the page
/// it read (reused by the next attempt); the failure is classified by `StageFailure`. Validation problems are not
/// failures: the expense goes to review. A `reprocess` job rewrites the receipt's expense instead of keeping it.
struct ReceiptProcessor: Sendable {
    let pipeline: ReceiptPipeline
    /// Where the job's receipt is loaded from (`PostgresReceiptSource` for the worker).
    let source: any ReceiptSource
    /// Records the timings and calls of failed attempts; separate from the queue's connections.
    let failedAttempts: FailedAttemptStore
    let logger: Logger

    @Sendable func handle(_ job: ClaimedJob) async throws -> PostgresJobCompletion {
        guard let receiptID = job.receiptID else {
            throw JobFailure.permanent(stage: .pipeline(.load), "job \(job.id) names no receipt; it cannot run")
        }
        var logger = logger
        logger[metadataKey: "receipt.id"] = "\(receiptID)"
        logger[metadataKey: "attempt"] = "\(job.attempt)"
        let attempt = JobAttempt(number: job.attempt, maxAttempts: job.maxAttempts)
        do {
            let run = try await pipeline.run(receipt: receiptID, from: source, attempt: attempt)
            let record = run.record
            logger.debug(
                "receipt processed: \(record.result.outcome.rawValue), total \(record.result.draft.total?.value.description ?? "none")"
            )
            return .receipt(
                record, trace: run.trace, receiptID: receiptID, job: job, replacing: job.kind == .reprocess)
        } catch let failed as FailedRun {
            await record(failed, of: job, receiptID: receiptID)
            switch failed.failure.severity {
            case .warning: logger.warning("\(failed.failure)")
            case .error: logger.error("\(failed.failure)")
            }
            throw failed
        }
    }

    private func record(_ failed: FailedRun, of job: ClaimedJob, receiptID: Int64) async {
        do {
            try await failedAttempts.record(failed, receiptID: receiptID, jobID: job.id, attempt: job.attempt)
        } catch {
            logger.warning("receipt \(receiptID): could not record the failed attempt's timings and calls: \(error)")
        }
    }
}
