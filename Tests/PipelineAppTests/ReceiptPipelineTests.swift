import Foundation
import Logging
import PipelineCore
import ReceiptBench
import ReceiptImage
import TesseractOCR
import TestSupport
import Testing
import VisionLLM

/// The one receipt pipeline on real receipts, the real Tesseract engine and the fake LLM server.
@Suite struct ReceiptPipelineTests {
    private static func receipt(
        _ name: String, bytes: [UInt8]? = nil, llmCallsUsed: Int = 0, keptPage: KeptPage? = nil
    ) throws -> StoredReceipt {
        StoredReceipt(
            id: 7, sha256: "", originalName: name, format: .jpeg,
            bytes: try bytes ?? Array(Data(contentsOf: TestEnvironment.receipt(name))), ingestedAt: Date(),
            llmCallsUsed: llmCallsUsed, keptPage: keptPage)
    }

    /// A pipeline as `pipeline work` builds it: with the receipt's call budget and its kept pages.
    private static func withWorkerPipeline<T>(
        llm baseURL: URL? = nil, retries: Int = 0, _ body: (ReceiptPipeline) async throws -> T
    ) async throws -> T {
        try await withPipeline(llm: baseURL, retries: retries) { pipeline in
            var pipeline = pipeline
            pipeline.llmCallBudget = LLMCallBudget(retries: retries)
            pipeline.pageMaker = OCREngineChoice.tesseract
            return try await body(pipeline)
        }
    }

    private static func withPipeline<T>(
        llm baseURL: URL? = nil, retries: Int = 0, _ body: (ReceiptPipeline) async throws -> T
    ) async throws -> T {
        var configuration = PipelineConfiguration()
        if let baseURL {
            configuration.llm.provider = .openai
            configuration.llm.baseURL = baseURL.absoluteString
            configuration.llm.retries = retries
        }
        let vision = try VisionModelFactory.makeVisionModel(
            configuration: configuration.llm, environment: ["OPENAI_API_KEY": "sk-test-not-a-secret"],
            logger: Logger(label: "test"))
        let engines = try await TesseractEnginePool.make(count: 1, options: ImageProcessingOptions(configuration))
        let pipeline = ReceiptPipeline(
            ocr: engines, vision: vision, reconciler: Reconciler(configuration: configuration.validation),
            categorizer: Categorizer(rules: [CategoryRule(target: .keyword, pattern: "hardware", category: "Shopping")])
        )
        return try await withShutdown(engines, shutdown: { await $0.shutdown() }) { _ in try await body(pipeline) }
    }

    @Test("Every stage runs in order on a real scan, timed, and the record carries the reading and its category")
    func runsEveryStage() async throws {
        let run = try await Self.withPipeline { try await $0.run(Self.receipt("sroie_006.jpg"), attempt: .only) }
        #expect(
            run.record.timings.map(\.stage) == [
                .decode, .normalize, .ocr, .compress, .extract, .reconcile, .categorize,
            ])
        let timings = run.record.timings
        #expect(zip(timings, timings.dropFirst()).allSatisfy { $0.startedAt <= $1.startedAt })
        #expect(timings.allSatisfy { $0.outcome == .ok })
        let label = try FixtureLabel.decode(Data(contentsOf: TestEnvironment.receipt("sroie_006.json")))
        #expect(run.record.result.draft.total?.value == label.total.flatMap { Decimal(string: $0) })
        #expect(run.record.extractionSource == .rules)
        #expect(run.record.ocrText == run.image.page.text && !run.record.ocrText.isEmpty)
    }

    @Test("A damaged image is a permanent decode failure: named, final, its stage marked failed in the timings")
    func damagedImageFailsPermanently() async throws {
        let whole = Array(try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg")))
        let truncated = Array(whole.prefix(whole.count / 3))
        let attempt = JobAttempt(number: 1, maxAttempts: 5)
        let error = await #expect(throws: FailedRun.self) {
            try await Self.withPipeline {
                try await $0.run(Self.receipt("cut.jpg", bytes: truncated), attempt: attempt)
            }
        }
        let failed = try #require(error)
        #expect(failed.failure.stage == .decode)
        #expect(!failed.failure.isRetryable && failed.failure.isFinal && failed.failure.severity == .error)
        #expect(failed.description.hasPrefix("receipt 7 (cut.jpg): decode: "))
        #expect(failed.description.contains("the job is dead"))
        #expect(failed.timings.last?.stage == .decode && failed.timings.last?.outcome == .failed)
        #expect(failed.jobFailure.isPermanent)
    }

    @Test("A failing LLM retries the job while attempts remain, then the rules' reading goes on to review")
    func llmFailureRetriesThenFallsBack() async throws {
        let server = try FakeProviderServer()
        let early = JobAttempt(number: 1, maxAttempts: 2)
        let error = await #expect(throws: FailedRun.self) {
            try await Self.withPipeline(llm: server.baseURL("server-error")) {
                try await $0.run(Self.receipt("sroie_006.jpg"), attempt: early)
            }
        }
        let failed = try #require(error)
        #expect(failed.failure.stage == .llm && failed.failure.isRetryable && !failed.failure.isFinal)
        #expect(failed.failure.outcome == "the job will be retried")
        #expect(failed.timings.last?.stage == .llm && failed.timings.last?.outcome == .retry)

        let last = JobAttempt(number: 2, maxAttempts: 2)
        let run = try await Self.withPipeline(llm: server.baseURL("server-error")) {
            try await $0.run(Self.receipt("sroie_006.jpg"), attempt: last)
        }
        #expect(ReviewPolicy.decide(run.record).status == .needsReview)
        #expect(run.record.extraFindings.contains { $0.code == .llmNotUsed })
        #expect(run.record.result.draft == run.rulesDraft)
    }

    @Test("A refused key never retries the job: the rules' reading goes on at once, with the reason")
    func refusedKeyFallsBackAtOnce() async throws {
        let server = try FakeProviderServer()
        let run = try await Self.withPipeline(llm: server.baseURL("unauthorized")) {
            try await $0.run(Self.receipt("sroie_006.jpg"), attempt: JobAttempt(number: 1, maxAttempts: 5))
        }
        #expect(run.record.extraFindings.contains { $0.code == .llmNotUsed })
        #expect(run.record.llmUsage == nil)
    }

    @Test("With an LLM, its reply is read, repaired and merged, and its category is offered to the categorizer")
    func llmReadingIsMerged() async throws {
        let server = try FakeProviderServer()
        let run = try await Self.withPipeline(llm: server.baseURL("recorded-sroie_006.right")) {
            try await $0.run(Self.receipt("sroie_006.jpg"), attempt: .only)
        }
        #expect(
            run.record.timings.map(\.stage) == [
                .decode, .normalize, .ocr, .compress, .extract, .llm, .repair, .reconcile, .categorize,
            ])
        // The model agrees with the rules' reading of this scan: the rules' fields and evidence lines stay.
        #expect(run.record.result.draft.total == run.rulesDraft.total && run.record.extractionSource == .rules)
        #expect(run.merged.llmCategory == "Shopping")
        #expect(run.record.llmUsage?.calls == 1)
    }

    @Test("A receipt whose LLM calls are spent skips the model: no request, the rules' reading, how to reset")
    func spentBudgetSkipsTheModel() async throws {
        let server = try FakeProviderServer()
        let baseURL = server.baseURL("good")
        let run = try await Self.withWorkerPipeline(llm: baseURL, retries: 1) {
            try await $0.run(
                Self.receipt("sroie_006.jpg", llmCallsUsed: 2), attempt: JobAttempt(number: 2, maxAttempts: 5))
        }
        #expect(try await server.requests(at: baseURL).isEmpty)
        #expect(run.record.result.draft == run.rulesDraft)
        #expect(run.record.extraFindings.contains { $0.message.contains("pipeline reprocess --llm-failed") })
        #expect(run.trace.llmCalls == nil)

        // One call left: the request may make only that one, though llm.retries allows a retry.
        let failing = server.baseURL("server-error")
        let last = try await Self.withWorkerPipeline(llm: failing, retries: 1) {
            try await $0.run(
                Self.receipt("sroie_006.jpg", llmCallsUsed: 1), attempt: JobAttempt(number: 2, maxAttempts: 5))
        }
        #expect(try await server.requests(at: failing).count == 1)
        #expect(
            last.trace.llmCalls == LLMCallOutcome(calls: 1, outcome: "server", message: last.trace.llmCalls?.message))
        #expect(last.record.extraFindings.contains { $0.code == .llmNotUsed })
    }

    @Test("A page kept by the same engine is read again without any image stage; another engine's page is not")
    func keptPageIsReusedOnlyFromTheSameEngine() async throws {
        let server = try FakeProviderServer()
        let baseURL = server.baseURL("good")
        let (first, again, otherEngine) = try await Self.withWorkerPipeline(llm: baseURL) { pipeline in
            let first = try await pipeline.run(Self.receipt("sroie_006.jpg"), attempt: .only)
            let kept = try #require(first.trace.newPage)
            let again = try await pipeline.run(Self.receipt("sroie_006.jpg", keptPage: kept), attempt: .only)
            var other = kept
            other.madeBy = OCREngineChoice.ppocr
            let otherEngine = try await pipeline.run(Self.receipt("sroie_006.jpg", keptPage: other), attempt: .only)
            // Kept while no model was configured: the model's copy of the image must be made afresh.
            var withoutImage = kept
            withoutImage.llmImage = nil
            let imageless = try await pipeline.run(
                Self.receipt("sroie_006.jpg", keptPage: withoutImage), attempt: .only)
            #expect(imageless.record.timings.map(\.stage).prefix(4) == [.decode, .normalize, .ocr, .compress])
            return (first, again, otherEngine)
        }
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
    }

    @Test("A person's category for the merchant decides a later receipt's; without it the page's evidence does")
    func categoryHistoryDecidesAfterTheRules() async throws {
        let page = KeptPage(
            page: OCRPage(text: "GREEN LEAF TRADING\nDate: 2024-05-20\nWidget 2.40\nTOTAL 2.40"),
            madeBy: .tesseract, llmImage: nil)
        let history = InMemoryCategoryHistory()
        let (before, after) = try await Self.withWorkerPipeline { pipeline in
            var pipeline = pipeline
            pipeline.categoryHistory = history
            let before = try await pipeline.run(Self.receipt("sroie_006.jpg", keptPage: page), attempt: .only)
            let merchant = try #require(before.record.result.draft.merchant?.value)
            await history.record(merchant: merchant, receiptID: 1, category: .travel)
            let after = try await pipeline.run(Self.receipt("sroie_006.jpg", keptPage: page), attempt: .only)
            return (before, after)
        }
        #expect(before.record.categorization.source != .history)
        #expect(after.record.categorization.expense == .travel && after.record.categorization.source == .history)
        #expect(!after.record.notes.contains { $0.code == .categoryNotSure })
    }
}
