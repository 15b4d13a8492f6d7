import JSONRepair
import Testing
import VisionLLM

/// The prompt and schema sent to the vision model.
@Suite struct ExtractionPromptTests {
    @Test func theSchemaIsStrictAndPutsItemsBeforeTotals() throws {
        let schema = ExtractionPrompt.schema
        let properties = try #require(schema["properties"]?.members).map(\.key)
        let required = try #require(schema["required"]?.elements).compactMap(\.stringValue)
        #expect(required == properties)
        #expect(schema["additionalProperties"] == .bool(false))
        let itemsIndex = try #require(properties.firstIndex(of: "items"))
        for total in ["subtotal", "discounts", "fees", "tip", "taxAmount", "itemsTotal", "amount"] {
            #expect(try #require(properties.firstIndex(of: total)) > itemsIndex, "\(total)")
        }
        let item = try #require(schema["properties"]?["items"]?["items"])
        #expect(item["additionalProperties"] == .bool(false))
        #expect(ExtractionPrompt.userText(ocrText: "TOTAL 9.99").hasSuffix("OCR text:\nTOTAL 9.99"))
    }
}
