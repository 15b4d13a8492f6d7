import Foundation

/// The receipt pipeline (docs/behaviour.md): image stages → extract → LLM + repair → merge → reconcile → categorize, with
/// typed boundaries between the stages and each stage timed.
///
/// One chain for every caller: the worker commits its `ExpenseRecord` with the job's acknowledgement (a
/// `pipeline reprocess` job replaces the stored expense with it), and `pipeline bench` scores it. The stages are
/// injected (`OCREngine`, `VisionModel`), so the bench runs the same chain over cached OCR pages.
///
/// Across the attempts of one receipt, the pipeline decides here: how many LLM calls are left of its budget (none:
/// the model is skipped), and whether the page read before (the scanned pages ingest read to split a PDF, or the
/// page an earlier attempt kept) is reused instead of running OCR; the attempt's `AttemptTrace` says what to keep
/// for the next one.
public struct ReceiptPipeline: Sendable {
    public var ocr: any OCREngine
    /// The vision LLM, when `llm.provider` is not `none`.
    public var vision: (any VisionModel)?
    public var reconciler: Reconciler
    public var categorizer: Categorizer
    public var clock: PipelineClock
    /// The receipt's LLM calls over all its attempts; nil: each run gets the client's own retries (the bench).
    public var llmCallBudget: LLMCallBudget?
    /// Merchant names learned from corrections, applied before categorization; nil: none.
    public var learnedMerchants: (any LearnedMerchants)?
    /// Categories people chose for a merchant, asked after the rules; nil: none (the bench).
    public var categoryHistory: (any CategoryHistory)?
    /// The trust budget each record is decided at (`acceptance.maxSilentPer100`).
    public var maxSilentPer100 = AutoAcceptance.defaultMaxSilentPer100

    public init(
        ocr: any OCREngine, vision: (any VisionModel)?, reconciler: Reconciler, categorizer: Categorizer,
        clock: PipelineClock = .system, llmCallBudget: LLMCallBudget? = nil,
        learnedMerchants: (any LearnedMerchants)? = nil, categoryHistory: (any CategoryHistory)? = nil
    ) {
        self.ocr = ocr
        self.vision = vision
        self.reconciler = reconciler
        self.categorizer = categorizer
        self.clock = clock
        self.llmCallBudget = llmCallBudget
        self.learnedMerchants = learnedMerchants
        self.categoryHistory = categoryHistory
    }

    /// Everything one run produced: the record to commit and the intermediate values, for the bench and tests.
    public struct Run: Sendable {
        public var image: ProcessedImage
        /// The rules' reading of the OCR page.
        public var rulesDraft: ExpenseDraft
        /// The rules draft merged with the LLM's reading (the rules draft alone without an LLM).
        public var merged: MergedDraft
        public var record: ExpenseRecord
        /// The LLM calls made and the page read afresh, for the caller to keep with the record.
        public var trace: AttemptTrace
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
        var trace = AttemptTrace()
        let startedAt = clock.now()
        var running = Stage.decode
        do {
            let image = try await readImage(receipt, &stages, &trace)
            running = .extract
            let known = try await learnedMerchants?.knownMerchants() ?? []
            // The page's lines are read once: the merge checks the model's values against the same lines.
            let (page, rulesDraft) = await stages.measure(.extract) {
                let page = ReceiptPage(
                    image.page, reader: PageReader(engine: image.readBy, source: image.pageSource))
                return (page, ReceiptExtractor.extract(page, known: known))
            }
            running = .llm
            let reading = try await readWithLLM(
                image, page: page, rules: rulesDraft, receipt: receipt, attempt: attempt, &stages, &trace)
            running = .reconcile
            var result = await stages.measure(.reconcile) { reconciler.reconcile(reading.merged.draft) }
            var findings = reading.merged.findings
            if image.pageCount > ReceiptPageGrouping.maximumPagesPerReceipt {
                findings.append(ReceiptPageGrouping.tooManyPagesFinding(pages: image.pageCount))
            }
            running = .categorize
            // A name a person gave decides the category, not the machine's reading of it.
            var notes = result.draft.notes + reading.merged.notes + [image.page.turnedNote].compactMap { $0 }
            let learned = try await applyLearnedMerchant(
                to: &result.draft, notes: &notes, page: image.page, known: known, receipt)
            if learned != nil {
                // The name a person gave is the merchant whose layout the total and date are compared with.
                notes.removeAll { $0.code == .knownLayout }
                notes += LayoutAgreement.apply(to: &result.draft, lines: page.lines, known: known)
            }
            let personsCategory = try await learnedCategory(for: result.draft, receipt)
            let categorization = await stages.measure(.categorize) {
                categorizer.categorize(
                    result.draft, receiptText: image.page.text, suggestedBy: reading.merged, learned: personsCategory)
            }
            if let note = categorization.uncertaintyNote { notes.append(note) }
            findings += PageTotals.findings(
                page: image.page, pageStarts: image.pageStarts, reader: page.reader, total: result.draft.total?.value)
            var record = ExpenseRecord(
                receiptID: receipt.id, result: result, categorization: categorization,
                extractionSource: reading.merged.usedLLM ? .merged : .rules, extraFindings: findings,
                notes: notes, ocrText: image.page.text, ocrConfidence: image.page.meanConfidence,
                llmUsage: reading.usage,
                claimedAt: startedAt, timings: stages.timings)
            record.ocrLayout = OCRLayout(page: image.page)
            record.pageSource = image.pageSource
            if !image.format.isShownByBrowsers, !image.compressedJPEG.isEmpty {
                record.renderedPage = image.compressedJPEG
            }
            record.learnedMerchant = learned
            record.pageFingerprint = image.fingerprint
            record.maxSilentPer100 = maxSilentPer100
            return Run(image: image, rulesDraft: rulesDraft, merged: reading.merged, record: record, trace: trace)
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            if let error = error as? VisionModelError { trace.llmCalls = LLMCallOutcome(failure: error) }
            throw failure(
                error, stage: running, receipt: receipt.displayName, attempt: attempt, stages: stages, trace: trace)
        }
    }

    /// The image stages' result: the page read before (at ingest, or by an earlier attempt) when it can stand in
    /// (one `ocr` timing says so), else the engine's reading, which the trace offers for keeping.
    private func readImage(_ receipt: StoredReceipt, _ stages: inout StageClock, _ trace: inout AttemptTrace)
        async throws -> ProcessedImage
    {
        if let kept = reusablePage(of: receipt) {
            let image: ProcessedImage
            if receipt.format == .pdf {
                // Decoded again, not read: the page layout, the review copy and the fingerprint come from the file.
                image = try await ocr.decode(Data(receipt.bytes), file: receipt.displayName, page: kept.page)
                stages.record(image.timings.stages)
                // A text layer is read instead, as always: the kept page stood in for nothing.
                guard image.pageSource == .ocr else { return image }
            } else {
                image = ProcessedImage(
                    format: receipt.format, originalWidth: 0, originalHeight: 0,
                    page: kept.page, compressedJPEG: kept.llmImage ?? Data(), originalBytes: receipt.bytes.count,
                    timings: ImageStageTimings(), readBy: kept.madeBy)
            }
            stages.record([
                StageTiming(
                    stage: .ocr, startedAt: clock.now(), duration: .zero,
                    detail: "reused the page read before (\(kept.madeBy.rawValue))")
            ])
            return image
        }
        let image = try await ocr.process(Data(receipt.bytes), file: receipt.displayName)
        stages.record(image.timings.stages)
        // A PDF's text layer is read again at no cost: only what the engine read is kept.
        if image.pageSource == .ocr {
            trace.newPage = KeptPage(
                page: image.page, madeBy: image.readBy, llmImage: vision == nil ? nil : image.compressedJPEG)
        }
        return image
    }

    /// The page read before that stands in for OCR: when this pipeline's engine made it and, for an image with a
    /// vision model, the model's copy of the image was kept with it (a PDF's copy is made again as it is decoded).
    private func reusablePage(of receipt: StoredReceipt) -> KeptPage? {
        guard let kept = receipt.keptPage, kept.madeBy == ocr.readsWith,
            receipt.format == .pdf || vision == nil || kept.llmImage != nil
        else { return nil }
        return kept
    }

    /// Puts the merchant name a person gave (`LearnedMerchants`) into the draft when it differs from the reading,
    /// with a note saying what was read. The lines the name was read from are a header a person confirmed, so the
    /// ranking's evidence for those lines still vouches for the name, as an exact reading of a known merchant
    /// (`knownMerchant` 1, with its confirmations): the person's spelling of a line is not a value from nowhere.
    /// - Returns: the name applied, nil when none was.
    private func applyLearnedMerchant(
        to draft: inout ExpenseDraft, notes: inout [Finding], page: OCRPage, known: [KnownMerchant],
        _ receipt: StoredReceipt
    ) async throws -> LearnedMerchant? {
        guard let learnedMerchants,
            let learned = try await learnedMerchants.learnedMerchant(
                ocrText: page.text, merchantLines: draft.merchant?.sourceLines ?? [], receiptID: receipt.id)
        else { return nil }
        // Extraction may have read the name already, offered among the known merchants: the lesson was used all
        // the same (counted), nothing changes, and the ranking's evidence still vouches for the name.
        guard learned.name != draft.merchant?.value else { return learned }
        let read = draft.merchant.map { "read as \($0.value)" } ?? "none read"
        notes.append(
            Finding(
                .learnedMerchant, field: .merchant,
                "merchant \(learned.name): the name a person gave this receipt's header (\(read))"))
        if let read = draft.merchant, draft.evidence?.merchantValue == read.value, !read.sourceLines.isEmpty {
            draft.evidence?.merchantValue = learned.name
            draft.evidence?.merchant?.features[.knownMerchant] = 1
            let confirmed = known.first { $0.name == learned.name }
            draft.evidence?.merchant?.features[.knownConfirmations] =
                confirmed?.confirmationsFeature ?? KnownMerchant(name: learned.name, readings: []).confirmationsFeature
        }
        draft.merchant = ExtractedField(
            value: learned.name, confidence: draft.merchant?.confidence ?? 1,
            sourceLines: draft.merchant?.sourceLines ?? [])
        return learned
    }

    /// The category a person gave earlier receipts of the draft's merchant; nil without a history or a merchant.
    private func learnedCategory(for draft: ExpenseDraft, _ receipt: StoredReceipt) async throws -> ExpenseCategory? {
        guard let categoryHistory, let merchant = draft.merchant?.value else { return nil }
        return try await categoryHistory.learnedCategory(merchant: merchant, receiptID: receipt.id)
    }

    /// The LLM's reading merged into the rules draft; the rules draft alone when no LLM is configured.
    ///
    /// The model is called with what is left of the receipt's call budget and skipped when nothing is left. A
    /// retryable LLM failure fails the attempt while attempts and calls remain; after that, or for a permanent
    /// failure (a refused key, an exhausted quota), the rules draft goes on with a finding, so the receipt reaches
    /// review instead of being lost.
    private func readWithLLM(
        _ image: ProcessedImage, page: ReceiptPage, rules: ExpenseDraft, receipt: StoredReceipt, attempt: JobAttempt,
        _ stages: inout StageClock, _ trace: inout AttemptTrace
    ) async throws -> (merged: MergedDraft, usage: LLMUsageRecord?) {
        let rulesOnly = MergedDraft(rulesOnly: rules)
        guard let vision else { return (rulesOnly, nil) }
        let callLimit = llmCallBudget?.remaining(afterUsing: receipt.llmCallsUsed)
        if let llmCallBudget, callLimit == 0 {
            var fallback = rulesOnly
            fallback.findings.append(llmCallBudget.spentFinding(used: receipt.llmCallsUsed))
            return (fallback, nil)
        }
        let request = VisionRequest(
            receipt: receipt.displayName,
            image: LLMImage.choose(original: Data(receipt.bytes), compressed: image.compressedJPEG),
            ocrText: image.page.text,
            hint: ReceiptLocaleHint(rules: rules), callLimit: callLimit)
        do {
            let reply = try await stages.measure(.llm) { try await vision.readReceipt(request) }
            trace.llmCalls = .answered(calls: reply.calls)
            let usage = LLMUsageRecord(
                model: reply.model, calls: reply.calls, inputTokens: reply.usage.inputTokens,
                outputTokens: reply.usage.outputTokens)
            let evidence = PageEvidence(page: page, rules: rules)
            let extraction = await stages.measure(.repair) {
                LLMExtraction(replyText: reply.text, providerReportedTruncation: reply.wasTruncated)
            }
            return (DraftMerge.merge(rules: rules, llm: extraction, evidence: evidence, reconciler: reconciler), usage)
        } catch let error as VisionModelError {
            let callsLeft = callLimit.map { $0 - error.calls } ?? 1
            if error.isRetryable && !attempt.isLast && callsLeft > 0 { throw error }
            trace.llmCalls = LLMCallOutcome(failure: error)
            var fallback = rulesOnly
            fallback.findings.append(LLMCallOutcome.notUsedFinding(error.description))
            return (fallback, nil)
        }
    }

    /// Classifies `error` and marks the failed stage in the attempt's timings, which the failure carries so the
    /// caller can record them.
    private func failure(
        _ error: any Error, stage: Stage, receipt: String, attempt: JobAttempt, stages: StageClock,
        trace: AttemptTrace = AttemptTrace()
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
        return FailedRun(failure: failure, timings: timings, trace: trace)
    }
}

/// A run that failed: the classified failure and the timings of the stages that ran, the failed one marked.
public struct FailedRun: Error, Sendable, CustomStringConvertible, JobFailureConvertible {
    public var failure: StageFailure
    public var timings: [StageTiming]
    /// The LLM calls made and the page read before the failure, kept for later attempts.
    public var trace: AttemptTrace

    public var description: String { failure.description }
    public var jobFailure: JobFailure { failure.jobFailure }
}
