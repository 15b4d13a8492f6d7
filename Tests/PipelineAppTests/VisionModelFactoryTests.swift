import Foundation
import Logging
import PipelineApp
import PipelineCore
import Testing
import VisionLLM

@Suite("Vision model factory")
struct VisionModelFactoryTests {
    @Test func aMissingKeyIsAStartupErrorNamingTheVariable() {
        var configuration = PipelineConfiguration().llm
        configuration.provider = .openai
        configuration.apiKeyEnvironmentVariable = "RECEIPTS_LLM_KEY"
        #expect {
            _ = try VisionModelFactory.makeVisionModel(
                configuration: configuration, environment: ["OTHER": "x"], logger: Logger(label: "test"))
        } throws: { error in
            let failure = error as? VisionModelError
            return failure?.code == .missingAPIKey && "\(error)".contains("RECEIPTS_LLM_KEY")
        }
    }

    @Test func noProviderMeansNoModel() throws {
        let model = try VisionModelFactory.makeVisionModel(
            configuration: PipelineConfiguration().llm, environment: [:], logger: Logger(label: "test"))
        #expect(model == nil)
    }

    @Test(arguments: [LLMProvider.openai, .anthropic])
    func buildsTheConfiguredClient(provider: LLMProvider) throws {
        var configuration = PipelineConfiguration().llm
        configuration.provider = provider
        let model = try VisionModelFactory.makeVisionModel(
            configuration: configuration, environment: ["OPENAI_API_KEY": "sk-x"], logger: Logger(label: "test"))
        #expect((model is OpenAICompatibleClient) == (provider == .openai))
        #expect((model is AnthropicClient) == (provider == .anthropic))
    }
}
