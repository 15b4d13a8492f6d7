import Foundation
import Logging
import PipelineCore
import PostgresStore
import TesseractOCR

/// The receipt job handler: load → decode → OCR → compress → extract → reconcile → categorize, then hands the
/// commit (expense, items, stage timings) to the queue, which runs it in the transaction that completes the job.
///
/// A failed attempt still records its stage timings; its error is classified for the queue (bad images are
/// permanent, database hiccups retried). Validation problems are not failures: the expense goes to review.
struct ReceiptProcessor: Sendable {
    let engines: TesseractEnginePool
    /// Loads images and records failed attempts; separate from the queue's connections.
    let reader: PostgresConnection
    let reconciler: Reconciler
    let categorizer: Categorizer
    /// The vision LLM, when `llm.provider` is not `none`.
    let vision: (any VisionModel)?
    let logger: Logger

    @Sendable func handle(_ job: ClaimedJob) async throws -> PostgresJobCompletion {
        let claimedAt = Date()
        var clock = StageClock()
        guard let receiptID = job.receiptID else {
            throw JobFailure.permanent(stage: Stage.load.rawValue, "job \(job.id) names no receipt; it cannot run")
        }
        var logger = logger
        logger[metadataKey: "receipt.id"] = "\(receiptID)"
        logger[metadataKey: "attempt"] = "\(job.attempt)"
        do {
            let receipt = try await clock.measure(.load) { try await loadReceipt(receiptID) }
            let file = "receipt \(receiptID) (\(receipt.originalName))"
            let imageStart = Date()
            let processed = try await engines.process(Data(receipt.bytes), file: file)
            recordImageStages(processed.timings, startingAt: imageStart, in: &clock)
            let rulesDraft = await clock.measure(.extract) { ReceiptExtractor.extract(processed.page) }
            let reading = try await readWithLLM(processed, rules: rulesDraft, job: job, clock: &clock)
            let result = await clock.measure(.reconcile) { reconciler.reconcile(reading.merged.draft) }
            var categorization = await clock.measure(.categorize) {
                categorizer.categorize(result.draft, receiptText: processed.page.text)
            }
            if categorization.expense == .other, let category = reading.merged.llmCategory.flatMap(ExpenseCategory.init) {
                categorization.expense = category
            }
            for (index, category) in reading.merged.llmItemCategories.enumerated()
            where index < categorization.items.count && categorization.items[index] == .other {
                categorization.items[index] = category.flatMap(ItemCategory.init) ?? .other
            }
            let record = ExpenseRecord(
                receiptID: receiptID, result: result, categorization: categorization,
                extractionSource: reading.merged.usedLLM ? "merged" : "rules", extraFindings: reading.merged.findings,
                notes: reading.merged.notes,
                ocrText: processed.page.text, ocrConfidence: processed.page.meanConfidence, llmUsage: reading.usage,
                claimedAt: claimedAt, timings: clock.timings)
            logger.debug("receipt processed: \(result.outcome.rawValue), total \(result.draft.total?.value.description ?? "none")")
            return PostgresJobCompletion(writes: { connection in
                try ExpenseStore.commit(record, jobID: job.id, attempt: job.attempt, in: connection)
            })
        } catch {
            let failure = JobFailure(classifying: error, stage: clock.timings.last?.stage.rawValue ?? "load")
            await recordFailedAttempt(job, receiptID: receiptID, clock: clock, failure: failure)
            logger.warning("receipt \(receiptID): \(failure.stage): \(failure.message)")
            throw failure
        }
    }

    /// The LLM's reading merged into the rules draft; the rules draft alone when no LLM is configured.
    ///
    /// A retryable LLM failure retries the job while attempts remain; after that, or for a permanent failure
    /// (bad key, exhausted quota), the rules draft is committed with a finding, so the receipt goes to review
    /// instead of being lost.
    private func readWithLLM(
        _ processed: ProcessedImage, rules: ExpenseDraft, job: ClaimedJob, clock: inout StageClock
    ) async throws -> (merged: MergedDraft, usage: LLMUsageRecord?) {
        let unmerged = MergedDraft(rulesOnly: rules)
        guard let vision else { return (unmerged, nil) }
        let request = VisionRequest(
            receipt: "\(job.receiptID ?? 0)", image: processed.compressedJPEG, ocrText: processed.page.text,
            hint: ReceiptLocaleHint(rules: rules))
        do {
            let reply = try await clock.measure(.llm) { try await vision.readReceipt(request) }
            let usage = LLMUsageRecord(
                model: reply.model, calls: reply.calls, inputTokens: reply.usage.inputTokens,
                outputTokens: reply.usage.outputTokens)
            let extraction = await clock.measure(.repair) {
                LLMExtraction(
                    replyText: reply.text, providerReportedTruncation: reply.wasTruncated, ocrText: processed.page.text)
            }
            let merged = DraftMerge.merge(rules: rules, llm: extraction, page: processed.page, reconciler: reconciler)
            return (merged, usage)
        } catch let error as VisionModelError {
            if error.isRetryable && job.attempt < job.maxAttempts {
                throw JobFailure.retryable(stage: Stage.llm.rawValue, error.description)
            }
            var fallback = unmerged
            fallback.findings.append("the LLM was not used: \(error.description)")
            return (fallback, nil)
        }
    }

    private func loadReceipt(_ id: Int64) async throws -> StoredReceipt {
        do {
            guard let receipt = try await ReceiptStore.load(id, from: reader) else {
                throw JobFailure.permanent(stage: Stage.load.rawValue, "receipt \(id) is no longer stored; nothing to do")
            }
            return receipt
        } catch let error as PostgresError where error.isTransient {
            try? await reader.reset()
            throw error
        }
    }

    /// The image stages are timed inside the engine; lay them end to end from the moment the call started.
    private func recordImageStages(_ timings: ImageStageTimings, startingAt start: Date, in clock: inout StageClock) {
        var startedAt = start
        for (stage, duration) in [(Stage.decode, timings.decode), (.normalize, timings.normalize), (.ocr, timings.ocr),
                                  (.compress, timings.compress)] {
            clock.record(StageTiming(stage: stage, startedAt: startedAt, duration: duration))
            startedAt += Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
    }

    private func recordFailedAttempt(_ job: ClaimedJob, receiptID: Int64, clock: StageClock, failure: JobFailure) async {
        var timings = clock.timings
        // A stage that failed inside the OCR engine (or the LLM call) has no timing of its own yet: mark it.
        if timings.last?.outcome != .failed, let stage = Stage(rawValue: failure.stage) {
            timings.append(StageTiming(stage: stage, startedAt: Date(), duration: .zero, outcome: .failed, detail: failure.message))
        }
        let outcome: StageOutcome = failure.isPermanent ? .failed : .retry
        timings = timings.map { timing in
            var timing = timing
            if timing.outcome == .failed { timing.outcome = outcome; timing.detail = failure.message }
            return timing
        }
        let finalTimings = timings
        do {
            try await reader.transaction { connection in
                try ExpenseStore.insertTimings(
                    finalTimings, receiptID: receiptID, jobID: job.id, attempt: job.attempt, in: connection)
            }
        } catch {
            logger.warning("receipt \(receiptID): could not record the failed attempt's timings: \(error)")
        }
    }
}
