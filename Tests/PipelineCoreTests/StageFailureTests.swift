import Foundation
import PipelineCore
import Testing

@Suite struct StageFailureTests {
    private let middle = JobAttempt(number: 2, maxAttempts: 5)
    private let last = JobAttempt(number: 5, maxAttempts: 5)

    @Test("An image error keeps its own stage; a bad image is permanent and dead at once")
    func imageErrorsKeepTheirStage() {
        let failure = StageFailure(
            classifying: ImageError.tooSmall(file: "receipt 3 (a.jpg)", width: 10, height: 10, minimumSide: 100),
            stage: .load, receipt: "receipt 3 (a.jpg)", attempt: middle)
        #expect(failure.stage == .decode)
        #expect(!failure.isRetryable && failure.isFinal && failure.severity == .error)
        #expect(failure.jobFailure.isPermanent && failure.jobFailure.stage == .pipeline(.decode))
        #expect(failure.description.hasPrefix("receipt 3 (a.jpg): decode: the image is 10×10 pixels"))
    }

    @Test("A retryable failure says it will be retried, except on the last attempt, where it says the job is dead")
    func lastAttemptSaysDead() {
        let timeout = ImageError.ocrTimedOut(file: "receipt 3 (a.jpg)", deadline: .seconds(20))
        let early = StageFailure(classifying: timeout, stage: .ocr, receipt: "receipt 3", attempt: middle)
        #expect(early.isRetryable && !early.isFinal && early.severity == .warning)
        #expect(early.jobFailure.message.hasSuffix("— the job will be retried"))

        let final = StageFailure(classifying: timeout, stage: .ocr, receipt: "receipt 3", attempt: last)
        #expect(final.isFinal && final.severity == .error)
        #expect(!final.jobFailure.message.contains("will be retried"))
        #expect(final.jobFailure.message.contains("the job is dead after its last attempt"))
        #expect(final.jobFailure.message.contains("pipeline retry"))
    }

    @Test("LLM errors are classified by their code; other errors are retryable and take the running stage")
    func otherErrors() {
        let refused = StageFailure(
            classifying: VisionModelError(.authentication, "the key was refused"), stage: .llm, receipt: "r",
            attempt: middle)
        #expect(!refused.isRetryable && refused.stage == .llm && refused.message == "the key was refused")

        struct Hiccup: Error {}
        let other = StageFailure(classifying: Hiccup(), stage: .load, receipt: "r", attempt: middle)
        #expect(other.isRetryable && other.stage == .load)
    }
}
