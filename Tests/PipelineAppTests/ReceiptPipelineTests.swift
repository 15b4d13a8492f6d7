import DatabaseTestSupport
import Foundation
import JSONRepair
import Logging
import PipelineApp
import PipelineCore
import ReceiptBench
import ReceiptImage
import ReceiptReading
import TesseractOCR
import TestSupport
import Testing
import VisionLLM

/// The receipt pipeline's logic over the ports' fakes: pages Tesseract recorded from shipped receipts
/// (`RecordedOCREngine`), receipts in memory, a fixed clock, and the fake LLM server. No engine runs.
@Suite struct ReceiptPipelineTests {
    private static let now = Date(timeIntervalSince1970: 1_750_000_000)

    private static func receipt(
        _ name: String = "sroie_006.jpg", id: Int64 = 7, llmCallsUsed: Int = 0, keptPage: KeptPage? = nil
    ) throws -> StoredReceipt {
        try StoredReceipt.shipped(name, id: id, llmCallsUsed: llmCallsUsed, keptPage: keptPage)
    }

    /// A pipeline over the recorded pages answered as PP-OCR's (the default engine's), as `pipeline bench` builds it;
    /// with `worker`, as `pipeline work` builds it over them answered as Tesseract's (the receipt's call budget).
    private static func pipeline(
        ocr: (any OCREngine)? = nil, llm baseURL: URL? = nil, retries: Int = 0, worker: Bool = false
    ) throws -> ReceiptPipeline {
        var configuration = PipelineConfiguration()
        if let baseURL {
            configuration.llm.provider = .openai
            configuration.llm.baseURL = baseURL.absoluteString
            configuration.llm.retries = retries
        }
        let vision = try VisionModelFactory.makeVisionModel(
            configuration: configuration.llm, environment: ["OPENAI_API_KEY": "sk-test-not-a-secret"],
            logger: Logger(label: "test"))
        return ReceiptPipeline(
            ocr: try ocr
                ?? RecordedOCREngine.shipped(
                    RecordedOCREngine.recordedReceipts, readsWith: worker ? .tesseract : .ppocr, clock: .fixed(now)),
            vision: vision, reconciler: Reconciler(configuration: configuration.validation),
            categorizer: Categorizer(rules: [CategoryRule(.keyword(.shopping), pattern: "machinery")]),
            clock: .fixed(now), llmCallBudget: worker ? LLMCallBudget(retries: retries) : nil)
    }

    @Test("A stored receipt is loaded, then every stage runs in order on the engine's page, stamped by the clock")
    func runsEveryStageInOrder() async throws {
        let source = InMemoryReceiptSource([try Self.receipt(id: 7)])
        let run = try await Self.pipeline().run(receipt: 7, from: source, attempt: .only)

        #expect(
            run.record.timings.map(\.stage) == [
                .load, .decode, .normalize, .ocr, .compress, .extract, .reconcile, .categorize,
            ])
        #expect(run.record.timings.allSatisfy { $0.startedAt == Self.now && $0.outcome == .ok })
        #expect(run.record.claimedAt == Self.now)
        #expect(run.record.receiptID == 7)
        #expect(run.record.ocrText == (try RecordedOCREngine.recordedPage("sroie_006.jpg")).text)
        let label = try FixtureLabel.decode(Data(contentsOf: TestEnvironment.receipt("sroie_006.json")))
        #expect(run.record.result.draft.total?.value == label.total.flatMap { Decimal(string: $0) })
        #expect(run.record.extractionSource == .rules)
        #expect(run.record.categorization.expense == .shopping, "the rule's keyword is on the page")
        #expect(run.record.categorization.expenseRule?.pattern == "machinery")
    }

    @Test("A page the engine read turned is told in a note that holds nothing; its layout is on the image as it came")
    func aTurnedReadingIsToldAndItsLayoutTurnedBack() async throws {
        let name = "sroie_006.jpg"
        var page = try RecordedOCREngine.recordedPage(name)
        page.quarterTurns = 1
        let engine = RecordedOCREngine(
            [try Data(contentsOf: TestEnvironment.receipt(name)): .page(page)], readsWith: .ppocr,
            clock: .fixed(Self.now))

        let record = try await Self.pipeline(ocr: engine).run(try Self.receipt(name), attempt: .only).record
        let upright = try await Self.pipeline().run(try Self.receipt(name), attempt: .only).record

        let note = try #require(record.notes.first { $0.code == .pageTurned })
        #expect(note.message.contains("a quarter turn clockwise"), "\(note.message)")
        #expect(!upright.notes.contains { $0.code == .pageTurned })
        #expect(ReviewPolicy.decide(record).reasons == ReviewPolicy.decide(upright).reasons)
        #expect(record.result.draft.total?.value == upright.result.draft.total?.value)
        let layout = try #require(record.ocrLayout)
        #expect((layout.width, layout.height) == (page.height, page.width))
        #expect(layout.lineBoxes.first?.width == page.lines.first?.box.height)
    }

    @Test("A page is weighed by the trust models of the engine that read it, and kept as that engine's")
    func theReadersTrustModelsWeighItsPages() async throws {
        let receipt = try Self.receipt(id: 7)
        let tesseractRun = try await Self.pipeline(worker: true).run(receipt, attempt: .only)
        let ppocrRun = try await Self.pipeline().run(receipt, attempt: .only)
        let tesseract = tesseractRun.record

        #expect(tesseract.result.draft.evidence?.reader == .tesseract)
        #expect(ppocrRun.record.result.draft.evidence?.reader == .ppocr)
        #expect(tesseractRun.trace.newPage?.madeBy == .tesseract && ppocrRun.trace.newPage?.madeBy == .ppocr)
        let merchant = try #require(ReviewPolicy.decide(tesseract).acceptance[.merchant])
        #expect(merchant.threshold == ExtractionModel.fitted.trust.tesseract.merchant.threshold)
    }

    /// Names a person gave: every header gets `name`, confirmed `confirmations` times.
    private struct PersonsNames: LearnedMerchants {
        var name: String
        var confirmations: Int
        func learnedMerchant(ocrText: String, merchantLines: [Int], receiptID: Int64) -> LearnedMerchant? {
            LearnedMerchant(id: nil, name: name)
        }
        func knownMerchants() -> [KnownMerchant] {
            [KnownMerchant(name: name, readings: [], confirmations: confirmations)]
        }
    }

    @Test("A name a person gave the header it was read from keeps that reading's evidence, as a known merchant")
    func aPersonsNameForTheHeaderKeepsTheReadingsEvidence() async throws {
        let receipt = try Self.receipt("sroie_035.jpg", id: 2)
        var pipeline = try Self.pipeline(
            ocr: RecordedOCREngine(
                [Data(receipt.bytes): .page(OCRPage(text: ReviewSeed.balancedText))], readsWith: .ppocr))
        let read = try await pipeline.run(receipt, attempt: .only).record.result.draft
        pipeline.learnedMerchants = PersonsNames(name: "Hillside Produce", confirmations: 3)
        let named = try await pipeline.run(receipt, attempt: .only).record

        let decision = ReviewPolicy.decide(named).acceptance
        #expect(named.result.draft.merchant?.value == "Hillside Produce" && read.merchant?.value != "Hillside Produce")
        #expect(named.result.draft.evidence?.merchantValue == "Hillside Produce")
        #expect(named.result.draft.evidence?.merchant?.features[.knownMerchant] == 1)
        #expect(named.result.draft.evidence?.merchant?.features[.knownConfirmations] == 0.6)
        #expect((decision[.merchant]?.probability ?? 0) > 0, "the reading's evidence still vouches for the name")
    }

    /// At the other budgets the page is kept as an optional item check.
    @Test(
        "The reconciled reading decides review: a page that does not add up waits, named by its reason, where the budget holds it"
    )
    func reconciliationDecidesReview() async throws {
        let (held, passed) = (try Self.receipt("sroie_030.jpg", id: 1), try Self.receipt("sroie_035.jpg", id: 2))
        let pipeline = try Self.pipeline(
            ocr: RecordedOCREngine(
                [
                    Data(held.bytes): .page(OCRPage(text: ReviewSeed.unbalancedText)),
                    Data(passed.bytes): .page(OCRPage(text: ReviewSeed.balancedText)),
                ], readsWith: .ppocr))
        let unbalanced = try await pipeline.run(held, attempt: .only)
        let balanced = try await pipeline.run(passed, attempt: .only)

        #expect(unbalanced.record.result.outcome == .unbalanced)
        let reader = unbalanced.record.result.draft.evidence?.reader ?? .ppocr
        let points = ExtractionModel.fitted.trust[reader].budgets
        #expect(!points.isEmpty)
        for point in points {
            var atBudget = unbalanced.record
            atBudget.maxSilentPer100 = point.maxSilentPer100
            let decision = ReviewPolicy.decide(atBudget)
            let holds = point.holds.contains(.unbalanced)
            #expect(decision.reasons.contains(.unbalanced) == holds, "budget \(point.maxSilentPer100)")
            #expect(!holds || decision.status == .needsReview, "budget \(point.maxSilentPer100)")
            #expect(
                decision.findings.contains { ReviewPolicy.reason(for: $0) == .unbalanced }, "the item check is kept")
        }
        #expect(balanced.record.result.outcome == .balanced)
        #expect(!ReviewPolicy.decide(balanced.record).reasons.contains(.unbalanced))
    }

    @Test("A receipt no longer stored fails at load, finally, without reading any image")
    func missingReceiptFailsAtLoad() async throws {
        let engine = try RecordedOCREngine.shipped(["sroie_006.jpg"], readsWith: .ppocr)
        let error = await #expect(throws: FailedRun.self) {
            try await Self.pipeline(ocr: engine).run(
                receipt: 9, from: InMemoryReceiptSource(), attempt: JobAttempt(number: 1, maxAttempts: 5))
        }
        let failed = try #require(error)
        #expect(failed.failure.stage == .load && failed.failure.isFinal && !failed.failure.isRetryable)
        #expect(failed.description.hasPrefix("receipt 9: load: the receipt is no longer stored"))
        #expect(failed.jobFailure.stage == .pipeline(.load) && failed.jobFailure.isPermanent)
        #expect(Set(failed.timings.map(\.stage)) == [.load] && failed.timings.last?.outcome == .failed)
        #expect(await engine.log.files.isEmpty)
    }

    @Test("A store that fails while loading is retried while attempts remain, and named")
    func loadErrorIsRetried() async throws {
        struct ConnectionLost: Error, CustomStringConvertible {
            var description: String { "the connection to the database was lost" }
        }
        let source = InMemoryReceiptSource([try Self.receipt(id: 3)])
        await source.failLoads(with: ConnectionLost())
        let error = await #expect(throws: FailedRun.self) {
            try await Self.pipeline().run(receipt: 3, from: source, attempt: JobAttempt(number: 1, maxAttempts: 3))
        }
        let failed = try #require(error)
        #expect(failed.failure.stage == .load && failed.failure.isRetryable && !failed.failure.isFinal)
        #expect(
            failed.description == "receipt 3: load: the connection to the database was lost — the job will be retried")
        #expect(failed.timings.last?.stage == .load && failed.timings.last?.outcome == .retry)

        await source.failLoads(with: nil)
        let run = try await Self.pipeline().run(
            receipt: 3, from: source, attempt: JobAttempt(number: 2, maxAttempts: 3))
        #expect(run.record.receiptID == 3)
    }

    @Test("An engine's failure keeps the engine's stage: a bad image is dead at once, a slow read is retried")
    func engineFailuresKeepTheirStage() async throws {
        let bytes = try Data(contentsOf: TestEnvironment.receipt("sroie_030.jpg"))
        let receipt = try Self.receipt("sroie_030.jpg", id: 4)
        let corrupt = RecordedOCREngine(
            [bytes: .failure(.corrupt(file: receipt.displayName, format: .jpeg, detail: "the data ends early"))],
            readsWith: .ppocr)
        let slow = RecordedOCREngine(
            [bytes: .failure(.ocrTimedOut(file: receipt.displayName, deadline: .seconds(30)))], readsWith: .ppocr)

        let dead = await #expect(throws: FailedRun.self) {
            try await Self.pipeline(ocr: corrupt).run(receipt, attempt: JobAttempt(number: 1, maxAttempts: 5))
        }
        let early = await #expect(throws: FailedRun.self) {
            try await Self.pipeline(ocr: slow).run(receipt, attempt: JobAttempt(number: 1, maxAttempts: 2))
        }
        let last = await #expect(throws: FailedRun.self) {
            try await Self.pipeline(ocr: slow).run(receipt, attempt: JobAttempt(number: 2, maxAttempts: 2))
        }

        let decode = try #require(dead)
        #expect(decode.failure.stage == .decode && decode.failure.isFinal && decode.failure.severity == .error)
        #expect(decode.description.hasPrefix("receipt 4 (sroie_030.jpg): decode: "))
        #expect(decode.description.contains("the data ends early"))
        #expect(decode.timings.last?.stage == .decode && decode.timings.last?.outcome == .failed)
        let retried = try #require(early)
        #expect(retried.failure.stage == .ocr && !retried.failure.isFinal && retried.failure.severity == .warning)
        #expect(retried.timings.last?.stage == .ocr && retried.timings.last?.outcome == .retry)
        let final = try #require(last)
        #expect(final.failure.isFinal && final.failure.outcome.contains("pipeline retry --all"))
    }

    @Test("A failing LLM retries the job while attempts remain, then the rules' reading goes on to review")
    func llmFailureRetriesThenFallsBack() async throws {
        let server = try FakeProviderServer()
        let early = JobAttempt(number: 1, maxAttempts: 2)
        let error = await #expect(throws: FailedRun.self) {
            try await Self.pipeline(llm: server.baseURL("server-error")).run(Self.receipt(), attempt: early)
        }
        let failed = try #require(error)
        #expect(failed.failure.stage == .llm && failed.failure.isRetryable && !failed.failure.isFinal)
        #expect(failed.failure.outcome == "the job will be retried")
        #expect(failed.timings.last?.stage == .llm && failed.timings.last?.outcome == .retry)
        #expect(failed.trace.llmCalls?.outcome == .failed(.server))

        let last = JobAttempt(number: 2, maxAttempts: 2)
        let run = try await Self.pipeline(llm: server.baseURL("server-error")).run(Self.receipt(), attempt: last)
        #expect(ReviewPolicy.decide(run.record).status == .needsReview)
        #expect(ReviewPolicy.decide(run.record).reasons.contains(.llmFailed))
        #expect(run.record.extraFindings.contains { $0.code == .llmNotUsed })
        #expect(run.record.result.draft == run.rulesDraft)
    }

    @Test("A refused key never retries the job: the rules' reading goes on at once, with the reason")
    func refusedKeyFallsBackAtOnce() async throws {
        let server = try FakeProviderServer()
        let run = try await Self.pipeline(llm: server.baseURL("unauthorized")).run(
            Self.receipt(), attempt: JobAttempt(number: 1, maxAttempts: 5))
        #expect(run.record.extraFindings.contains { $0.code == .llmNotUsed })
        #expect(run.record.llmUsage == nil)
        #expect(run.trace.llmCalls?.outcome == .failed(.authentication))
    }

    @Test("With an LLM, its reply is read, repaired and merged, and its category is offered to the categorizer")
    func llmReadingIsMerged() async throws {
        let server = try FakeProviderServer()
        let run = try await Self.pipeline(llm: server.baseURL("recorded-sroie_006.right")).run(
            Self.receipt(), attempt: .only)
        #expect(
            run.record.timings.map(\.stage) == [
                .decode, .normalize, .ocr, .compress, .extract, .llm, .repair, .reconcile, .categorize,
            ])
        // The model agrees with the rules' reading of this scan: the rules' fields and evidence lines stay.
        #expect(run.record.result.draft.total == run.rulesDraft.total && run.record.extractionSource == .rules)
        #expect(run.merged.llmCategory == "Shopping")
        #expect(run.record.llmUsage?.calls == 1)
        #expect(run.trace.llmCalls == .answered(calls: 1))
    }

    @Test("A receipt whose LLM calls are spent skips the model: no request, the rules' reading, how to reset")
    func spentBudgetSkipsTheModel() async throws {
        let server = try FakeProviderServer()
        let baseURL = server.baseURL("good")
        let run = try await Self.pipeline(llm: baseURL, retries: 1, worker: true).run(
            Self.receipt(llmCallsUsed: 2), attempt: JobAttempt(number: 2, maxAttempts: 5))
        #expect(try await server.requests(at: baseURL).isEmpty)
        #expect(run.record.result.draft == run.rulesDraft)
        #expect(run.record.extraFindings.contains { $0.message.contains("pipeline reprocess --llm-failed") })
        #expect(run.trace.llmCalls == nil)

        // One call left: the request may make only that one, though llm.retries allows a retry.
        let failing = server.baseURL("server-error")
        let last = try await Self.pipeline(llm: failing, retries: 1, worker: true).run(
            Self.receipt(llmCallsUsed: 1), attempt: JobAttempt(number: 2, maxAttempts: 5))
        #expect(try await server.requests(at: failing).count == 1)
        #expect(
            last.trace.llmCalls
                == LLMCallOutcome(calls: 1, outcome: .failed(.server), message: last.trace.llmCalls?.message))
        #expect(last.record.extraFindings.contains { $0.code == .llmNotUsed })
    }

    @Test("A page kept by the same engine is read again without the engine; another engine's page is not")
    func keptPageIsReusedOnlyFromTheSameEngine() async throws {
        let server = try FakeProviderServer()
        let baseURL = server.baseURL("good")
        let engine = try RecordedOCREngine.shipped(["sroie_006.jpg"], readsWith: .tesseract)
        let pipeline = try Self.pipeline(ocr: engine, llm: baseURL, worker: true)

        let first = try await pipeline.run(Self.receipt(), attempt: .only)
        let kept = try #require(first.trace.newPage)
        let again = try await pipeline.run(Self.receipt(keptPage: kept), attempt: .only)
        #expect(await engine.log.files.count == 1, "the kept page stood in for the engine")
        var other = kept
        other.madeBy = .ppocr
        let otherEngine = try await pipeline.run(Self.receipt(keptPage: other), attempt: .only)
        // Kept while no model was configured: the model's copy of the image must be made afresh.
        var withoutImage = kept
        withoutImage.llmImage = nil
        let imageless = try await pipeline.run(Self.receipt(keptPage: withoutImage), attempt: .only)
        #expect(await engine.log.files.count == 3)

        #expect(first.trace.newPage?.madeBy == .tesseract)
        #expect(first.trace.newPage?.llmImage == first.image.compressedJPEG)
        #expect(again.record.timings.map(\.stage) == [.ocr, .extract, .llm, .repair, .reconcile, .categorize])
        #expect(again.record.timings.first?.detail?.hasPrefix("reused the page") == true)
        #expect(again.trace.newPage == nil)
        #expect(again.record.ocrText == first.record.ocrText)
        #expect(again.record.result.draft == first.record.result.draft)
        // The model was sent the same image and text both times.
        let bodies = try await server.requests(at: baseURL).map { $0["body"] }
        #expect(bodies.count == 4 && bodies[0] == bodies[1])
        #expect(otherEngine.record.timings.map(\.stage).prefix(4) == [.decode, .normalize, .ocr, .compress])
        #expect(otherEngine.trace.newPage?.madeBy == .tesseract)
        #expect(imageless.record.timings.map(\.stage).prefix(4) == [.decode, .normalize, .ocr, .compress])
    }

    @Test("A person's category for the merchant decides a later receipt's; without it the page's evidence does")
    func categoryHistoryDecidesAfterTheRules() async throws {
        let page = KeptPage(
            page: OCRPage(text: "GREEN LEAF TRADING\nDate: 2024-05-20\nWidget 2.40\nTOTAL 2.40"),
            madeBy: .tesseract, llmImage: nil)
        let history = InMemoryCategoryHistory()
        var pipeline = try Self.pipeline(worker: true)
        pipeline.categoryHistory = history
        let before = try await pipeline.run(Self.receipt(keptPage: page), attempt: .only)
        let merchant = try #require(before.record.result.draft.merchant?.value)
        await history.record(merchant: merchant, receiptID: 1, category: .travel)
        let after = try await pipeline.run(Self.receipt(keptPage: page), attempt: .only)

        #expect(before.record.categorization.source != .history)
        #expect(after.record.categorization.expense == .travel && after.record.categorization.source == .history)
        #expect(!after.record.notes.contains { $0.code == .categoryNotSure })
    }
}

/// The receipt pipeline on a real scan through the real Tesseract engine: what is about the engine's image stages.
@Suite struct ReceiptPipelineOnTesseractTests {
    private static func withPipeline<T>(_ body: (ReceiptPipeline) async throws -> T) async throws -> T {
        let configuration = PipelineConfiguration()
        let engines = try await TesseractEnginePool.make(count: 1, options: ImageProcessingOptions(configuration))
        let pipeline = ReceiptPipeline(
            ocr: engines, vision: nil, reconciler: Reconciler(configuration: configuration.validation),
            categorizer: Categorizer(rules: []))
        return try await withShutdown(engines, shutdown: { await $0.shutdown() }) { _ in try await body(pipeline) }
    }

    @Test("Every image stage runs on a real scan, timed in order, and its page is read")
    func runsTheImageStages() async throws {
        let run = try await Self.withPipeline {
            try await $0.run(StoredReceipt.shipped("sroie_006.jpg", id: 7), attempt: .only)
        }
        #expect(
            run.record.timings.map(\.stage) == [
                .decode, .normalize, .ocr, .compress, .extract, .reconcile, .categorize,
            ])
        let timings = run.record.timings
        #expect(zip(timings, timings.dropFirst()).allSatisfy { $0.startedAt <= $1.startedAt })
        #expect(timings.allSatisfy { $0.outcome == .ok })
        let label = try FixtureLabel.decode(Data(contentsOf: TestEnvironment.receipt("sroie_006.json")))
        #expect(run.record.result.draft.total?.value == label.total.flatMap { Decimal(string: $0) })
        #expect(run.record.ocrText == run.image.page.text && !run.record.ocrText.isEmpty)
        #expect(run.record.pageFingerprint != nil, "the decoded page is fingerprinted")
    }

    @Test("A scanned PDF's kept page stands in for OCR as the PDF is decoded; a born-digital PDF's text is not kept")
    func aScannedPDFsKeptPageIsDecodedNotRead() async throws {
        var configuration = PipelineConfiguration()
        configuration.ocr.engine = .tesseract
        let reader = try await ReceiptImageReader.make(configuration: configuration, count: 1)
        let pipeline = ReceiptPipeline(
            ocr: reader, vision: nil, reconciler: Reconciler(configuration: configuration.validation),
            categorizer: Categorizer(rules: []))
        func receipt(_ bytes: Data, keptPage: KeptPage? = nil) -> StoredReceipt {
            StoredReceipt(
                id: 7, sha256: "", originalName: "scan.pdf", format: .pdf, bytes: Array(bytes), ingestedAt: Date(),
                keptPage: keptPage)
        }
        let scan = try TestFiles.scannedPDF("sroie_006.jpg")
        let text = TestPDF.document([
            TestPDF.receiptPage(merchant: "CORNER BAKERY", lines: [("Date: 24/11/2026", "10:42"), ("TOTAL", "4.20")])
        ])
        let (first, second, born) = try await withShutdown(reader, shutdown: { await $0.shutdown() }) { _ in
            let first = try await pipeline.run(receipt(scan), attempt: .only)
            let kept = try #require(first.trace.newPage, "the page OCR read is kept")
            return (
                first, try await pipeline.run(receipt(scan, keptPage: kept), attempt: .only),
                try await pipeline.run(receipt(text), attempt: .only)
            )
        }

        let stages = second.record.timings.map(\.stage)
        #expect(Array(stages.prefix(4)) == [.decode, .normalize, .compress, .ocr], "decoded, not read")
        #expect(second.record.timings[3].detail == "reused the page read before (tesseract)")
        #expect(second.trace.newPage == nil)
        #expect(second.record.result.draft == first.record.result.draft)
        #expect(second.image.pageCount == 1 && second.record.pageSource == .ocr)
        #expect(second.record.renderedPage != nil, "the review copy is made from the PDF")
        #expect(second.record.pageFingerprint == first.record.pageFingerprint)
        #expect(born.record.pageSource == .pdfText && born.trace.newPage == nil, "a text layer is read again, free")
    }

    @Test("A damaged image is a permanent decode failure: named, final, its stage marked failed in the timings")
    func damagedImageFailsPermanently() async throws {
        let whole = try StoredReceipt.shipped("sroie_006.jpg", id: 7)
        let truncated = StoredReceipt(
            id: 7, sha256: "", originalName: "cut.jpg", format: .jpeg,
            bytes: Array(whole.bytes.prefix(whole.bytes.count / 3)),
            ingestedAt: Date())
        let error = await #expect(throws: FailedRun.self) {
            try await Self.withPipeline { try await $0.run(truncated, attempt: JobAttempt(number: 1, maxAttempts: 5)) }
        }
        let failed = try #require(error)
        #expect(failed.failure.stage == .decode)
        #expect(!failed.failure.isRetryable && failed.failure.isFinal && failed.failure.severity == .error)
        #expect(failed.description.hasPrefix("receipt 7 (cut.jpg): decode: "))
        #expect(failed.description.contains("the job is dead"))
        #expect(failed.timings.last?.stage == .decode && failed.timings.last?.outcome == .failed)
        #expect(failed.jobFailure.isPermanent)
    }
}
