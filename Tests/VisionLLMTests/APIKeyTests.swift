import Foundation
import PipelineCore
import Testing
import VisionLLM

@Suite struct APIKeyTests {
    @Test func theKeyNeverPrints() {
        let key = APIKey("sk-very-secret")
        #expect(!"\(key)".contains("secret"))
        #expect(!String(reflecting: key).contains("secret"))
        var dumped = ""
        dump(key, to: &dumped)
        #expect(!dumped.contains("secret"))
    }
}
