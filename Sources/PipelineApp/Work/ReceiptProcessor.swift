import Foundation
import Logging
import PipelineCore
import PostgresStore

/// The queue's job handler: runs the receipt pipeline on the job's receipt and hands its record to the queue,
/// which commits it (expense, items, stage timings) in the transaction that completes the job.
///
/// An attempt's LLM calls are charged to the receipt's budget before its result is handed on, so a result dropped
/// with a lost lease does not give the next attempt those calls again. A failed attempt still records its stage
/// timings, its calls and the page it read (reused by the next attempt); the failure is classified by
/// `StageFailure`. Validation problems are not failures: the expense goes to review. A `reprocess` job rewrites the
/// receipt's expense instead of keeping it.
struct ReceiptProcessor: Sendable {
    let pipeline: ReceiptPipeline
    /// Where the job's receipt is loaded from (`PostgresReceiptSource` for the worker).
    let source: any ReceiptSource
    /// Records attempts' LLM calls and failed attempts' timings; separate from the queue's connections.
    let attempts: AttemptStore
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
            var trace = run.trace
            if let calls = trace.llmCalls, await charge(calls, of: job, receiptID: receiptID) {
                trace.llmCalls = nil
            }
            return .receipt(record, trace: trace, receiptID: receiptID, job: job, replacing: job.kind == .reprocess)
        } catch let failed as FailedRun {
            await record(failed, of: job, receiptID: receiptID)
            switch failed.failure.severity {
            case .warning: logger.warning("\(failed.failure)")
            case .error: logger.error("\(failed.failure)")
            }
            throw failed
        }
    }

    /// Charges a completed run's calls at once; false when that failed, and the result's settlement records them.
    private func charge(_ calls: LLMCallOutcome, of job: ClaimedJob, receiptID: Int64) async -> Bool {
        do {
            try await attempts.record(calls, receiptID: receiptID, jobID: job.id, attempt: job.attempt)
            return true
        } catch {
            logger.warning(
                "receipt \(receiptID): could not record the attempt's \(calls.calls) LLM call(s) yet; they are recorded with its result: \(error)"
            )
            return false
        }
    }

    private func record(_ failed: FailedRun, of job: ClaimedJob, receiptID: Int64) async {
        do {
            try await attempts.record(failed, receiptID: receiptID, jobID: job.id, attempt: job.attempt)
        } catch {
            logger.warning("receipt \(receiptID): could not record the failed attempt's timings and calls: \(error)")
        }
    }
}
