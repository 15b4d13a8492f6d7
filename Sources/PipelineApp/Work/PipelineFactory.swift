import PipelineCore

/// Builds the receipt pipeline from the configuration: the one place `work` and `bench` (and any later runner over
/// stored receipts, such as a reprocess or a replay) get their stages from. Callers differ only in what they pass:
/// the OCR stage (the engines, or the bench's page cache in front of them), the vision model, and what the database
/// adds (category rules, merchant names people taught).
enum PipelineFactory {
    /// The stages as `pipeline.yaml` sets them: validation tolerances, the trust budget, the LLM's call budget per receipt
    /// (`llm.retries + 1` over all attempts).
    /// - Parameters:
    ///   - categoryRules: the stored rules, applied before item keywords; none outside the database.
    ///   - learnedMerchants: merchant names learned from corrections; nil outside the database.
    ///   - categoryHistory: the categories of a merchant's earlier accepted expenses; nil outside the database.
    static func makePipeline(
        configuration: PipelineConfiguration, ocr: any OCREngine, vision: (any VisionModel)?,
        categoryRules: [CategoryRule] = [], learnedMerchants: (any LearnedMerchants)? = nil,
        categoryHistory: (any CategoryHistory)? = nil
    ) -> ReceiptPipeline {
        var pipeline = ReceiptPipeline(
            ocr: ocr, vision: vision, reconciler: Reconciler(configuration: configuration.validation),
            categorizer: Categorizer(rules: categoryRules),
            llmCallBudget: LLMCallBudget(retries: configuration.llm.retries),
            learnedMerchants: learnedMerchants,
            categoryHistory: categoryHistory)
        pipeline.maxSilentPer100 = configuration.acceptance.maxSilentPer100
        return pipeline
    }
}
