import Testing

@testable import PPOCR

@Suite("PP-OCR recognizer batches")
struct TextRecognizerBatchTests {
    /// Short words, a lone character, seven regions of one width, and wide lines that must be split by columns.
    static let aspects =
        [0.2, 1.0, 2.3, 2.5] + Array(repeating: 2.5, count: 6) + [6.7, 12.0] + Array(repeating: 30.0, count: 5)

    @Test("A region is read at its own width, padded by less than one column step")
    func ownWidth() {
        for aspect in Self.aspects {
            let drawn = TextRecognizer.drawnWidth(aspect: aspect)
            let input = TextRecognizer.inputWidth(aspect: aspect)
            #expect(drawn >= TextRecognizer.minimumWidth)
            #expect(input % TextRecognizer.columnStep == 0, "aspect \(aspect): width \(input)")
            #expect(
                input >= drawn && input - drawn < TextRecognizer.columnStep, "aspect \(aspect): \(drawn) → \(input)")
        }
    }

    @Test("Every region is read once; a batch holds one width, at most six regions and the column cap")
    func batchesHoldOneWidth() {
        let widths = Self.aspects.map(TextRecognizer.inputWidth(aspect:))
        let batches = TextRecognizer.batches(widths: widths)
        #expect(batches.flatMap { $0 }.sorted() == Array(widths.indices))
        for batch in batches {
            let width = widths[batch[0]]
            #expect(batch.allSatisfy { widths[$0] == width }, "\(batch.map { widths[$0] })")
            #expect(batch.count <= TextRecognizer.batchSize)
            #expect(batch.count * width <= TextRecognizer.batchColumns, "\(batch.count) × \(width)")
        }
        // Seven regions of one width need two batches; five 1,440-column lines need three under the cap.
        #expect(batches.filter { widths[$0[0]] == TextRecognizer.inputWidth(aspect: 2.5) }.map(\.count) == [6, 1])
        #expect(batches.filter { widths[$0[0]] == TextRecognizer.inputWidth(aspect: 30) }.map(\.count) == [2, 2, 1])
    }
}
