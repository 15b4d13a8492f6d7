import Logging
import PipelineCore
import PostgresStore

extension ReceiptPipeline {
    /// The worker's pipeline (`pipeline work`, the replay bench): category rules and learned merchants read through
    /// `reader`, the LLM call budget and kept pages as configured.
    static func worker(
        configuration: PipelineConfiguration, ocr: any OCREngine, vision: (any VisionModel)?,
        reader: PostgresConnection
    ) async throws -> ReceiptPipeline {
        let rules = try await CategoryRuleStore.load(from: reader)
        return ReceiptPipeline(
            ocr: ocr, vision: vision, reconciler: Reconciler(configuration: configuration.validation),
            categorizer: Categorizer(rules: rules), llmCallBudget: LLMCallBudget(retries: configuration.llm.retries),
            pageMaker: configuration.ocr.engine.pageMaker,
            learnedMerchants: PostgresLearnedMerchants(connection: reader))
    }
}

extension PostgresWorkQueue {
    /// The work queue with the configured retry policy.
    static func worker(configuration: PipelineConfiguration, target: PostgresTarget, logger: Logger)
        -> PostgresWorkQueue
    {
        PostgresWorkQueue(
            target: target,
            retryPolicy: RetryPolicy(
                base: configuration.queue.backoffBase, cap: configuration.queue.backoffCap,
                maxAttempts: configuration.queue.maxAttempts),
            logger: logger)
    }
}
