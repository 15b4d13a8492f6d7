import Foundation

/// The receipt pipeline (SPEC §4): image stages → extract → LLM + repair → merge → reconcile → categorize, with
/// typed boundaries between the stages and each stage timed.
///
/// One chain for every caller: the worker commits its `ExpenseRecord` with the job's acknowledgement,
/// `pipeline reprocess` replaces a stored expense with it, and `pipeline bench` scores it. The stages are injected
/// (`OCREngine`, `VisionModel`), so the bench runs the same chain over cached OCR pages.
public struct ReceiptPipeline: Sendable {
    public var ocr: any OCREngine
    /// The vision LLM, when `llm.provider` is not `none`.
    public var vision: (any VisionModel)?
    public var reconciler: Reconciler
    public var categorizer: Categorizer
    public var clock: PipelineClock

    public init(
        ocr: any OCREngine, vision: (any VisionModel)?, reconciler: Reconciler, categorizer: Categorizer,
        clock: PipelineClock = .system
    ) {
        self.ocr = ocr
        self.vision = vision
        self.reconciler = reconciler
        self.categorizer = categorizer
        self.clock = clock
    }

    /// Everything one run produced: the record to commit and the intermediate values, for the bench and tests.
    public struct Run: Sendable {
        public var image: ProcessedImage
        /// The rules' reading of the OCR page.
        public var rulesDraft: ExpenseDraft
        /// The rules draft merged with the LLM's reading (the rules draft alone without an LLM).
        public var merged: MergedDraft
        public var record: ExpenseRecord
    }

    /// Loads receipt `id` from `source` and runs every stage on it.
    /// - Throws: `StageFailure` (classified), or `CancellationError` when the task is cancelled.
    public func run(receipt id: Int64, from source: any ReceiptSource, attempt: JobAttempt) async throws -> Run {
        var stages = StageClock(clock: clock)
        let receipt: StoredReceipt
        do {
            let loaded = try await stages.measure(.load) { try await source.receipt(id) }
            guard let loaded else {
                throw StageFailure(
                    stage: .load, receipt: "receipt \(id)", message: "the receipt is no longer stored; nothing to do",
                    disposition: .permanent, isFinal: true)
            }
            receipt = loaded
        } catch {
            // Whatever a cancelled call threw, the attempt was given up (shutdown, a lost lease), not failed.
            if Task.isCancelled { throw CancellationError() }
            throw failure(error, stage: .load, receipt: "receipt \(id)", attempt: attempt, stages: stages)
        }
        return try await run(receipt, attempt: attempt, stages: stages)
    }

    /// Runs every stage on a receipt already in memory.
    /// - Throws: `StageFailure` (classified), or `CancellationError` when the task is cancelled.
    public func run(_ receipt: StoredReceipt, attempt: JobAttempt) async throws -> Run {
        try await run(receipt, attempt: attempt, stages: StageClock(clock: clock))
    }

    private func run(_ receipt: StoredReceipt, attempt: JobAttempt, stages: StageClock) async throws -> Run {
        var stages = stages
        let startedAt = clock.now()
        var running = Stage.decode
        do {
            let image = try await ocr.process(Data(receipt.bytes), file: receipt.displayName)
            stages.record(image.timings.stages)
            running = .extract
            let rulesDraft = await stages.measure(.extract) { ReceiptExtractor.extract(image.page) }
            running = .llm
            let reading = try await readWithLLM(image, rules: rulesDraft, receipt: receipt, attempt: attempt, &stages)
            running = .reconcile
            let result = await stages.measure(.reconcile) { reconciler.reconcile(reading.merged.draft) }
            running = .categorize
            let categorization = await stages.measure(.categorize) {
                categorizer.categorize(result.draft, receiptText: image.page.text, suggestedBy: reading.merged)
            }
            var record = ExpenseRecord(
                receiptID: receipt.id, result: result, categorization: categorization,
                extractionSource: reading.merged.usedLLM ? "merged" : "rules", extraFindings: reading.merged.findings,
                notes: reading.merged.notes, ocrText: image.page.text, ocrConfidence: image.page.meanConfidence,
                llmUsage: reading.usage,
                claimedAt: startedAt, timings: stages.timings)
            record.ocrLayout = OCRLayout(page: image.page)
            return Run(image: image, rulesDraft: rulesDraft, merged: reading.merged, record: record)
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw failure(error, stage: running, receipt: receipt.displayName, attempt: attempt, stages: stages)
        }
    }

    /// The LLM's reading merged into the rules draft; the rules draft alone when no LLM is configured.
    ///
    /// A retryable LLM failure fails the attempt while attempts remain; after that, or for a permanent failure
    /// (a refused key, an exhausted quota), the rules draft goes on with a finding, so the receipt reaches review
    /// instead of being lost.
    private func readWithLLM(
        _ image: ProcessedImage, rules: ExpenseDraft, receipt: StoredReceipt, attempt: JobAttempt,
        _ stages: inout StageClock
    ) async throws -> (merged: MergedDraft, usage: LLMUsageRecord?) {
        let rulesOnly = MergedDraft(rulesOnly: rules)
        guard let vision else { return (rulesOnly, nil) }
        let request = VisionRequest(
            receipt: receipt.displayName,
            image: LLMImage.choose(original: Data(receipt.bytes), compressed: image.compressedJPEG),
            ocrText: image.page.text,
            hint: ReceiptLocaleHint(rules: rules))
        do {
            let reply = try await stages.measure(.llm) { try await vision.readReceipt(request) }
            let usage = LLMUsageRecord(
                model: reply.model, calls: reply.calls, inputTokens: reply.usage.inputTokens,
                outputTokens: reply.usage.outputTokens)
            let extraction = await stages.measure(.repair) {
                LLMExtraction(
                    replyText: reply.text, providerReportedTruncation: reply.wasTruncated, ocrText: image.page.text)
            }
            return (DraftMerge.merge(rules: rules, llm: extraction, page: image.page, reconciler: reconciler), usage)
        } catch let error as VisionModelError where !(error.isRetryable && !attempt.isLast) {
            var fallback = rulesOnly
            fallback.findings.append("the LLM was not used: \(error.description)")
            return (fallback, nil)
        }
    }

    /// Classifies `error` and marks the failed stage in the attempt's timings, which the failure carries so the
    /// caller can record them.
    private func failure(
        _ error: any Error, stage: Stage, receipt: String, attempt: JobAttempt, stages: StageClock
    ) -> FailedRun {
        let failure = StageFailure(classifying: error, stage: stage, receipt: receipt, attempt: attempt)
        var timings = stages.timings
        if timings.last?.outcome != .failed {
            timings.append(StageTiming(stage: failure.stage, startedAt: clock.now(), duration: .zero, outcome: .failed))
        }
        let outcome: StageOutcome = failure.isFinal ? .failed : .retry
        timings = timings.map { timing in
            var timing = timing
            if timing.outcome == .failed {
                timing.outcome = outcome
                timing.detail = failure.message
            }
            return timing
        }
        return FailedRun(failure: failure, timings: timings)
    }
}

/// A run that failed: the classified failure and the timings of the stages that ran, the failed one marked.
public struct FailedRun: Error, Sendable, CustomStringConvertible, JobFailureConvertible {
    public var failure: StageFailure
    public var timings: [StageTiming]

    public var description: String { failure.description }
    public var jobFailure: JobFailure { failure.jobFailure }
}
