import CTesseract
import Foundation
import PipelineCore

/// Reads the words of a finished recognition into an `OCRPage`: lines in Tesseract's reading order.
enum TesseractPageReader {
    /// Walks the result iterator word by word, starting a new line at each text-line boundary.
    ///
    /// Blocks briefly; call it on the engine's thread right after `TessBaseAPIRecognize` succeeded.
    /// - Parameter origin: where the recognized image's top-left corner lies on the page; boxes are moved by it.
    static func page(from api: OpaquePointer, width: Int, height: Int, origin: (left: Int, top: Int) = (0, 0))
        -> OCRPage
    {
        guard let iterator = TessBaseAPIGetIterator(api) else {
            return OCRPage(lines: [], width: width, height: height, meanConfidence: 0)
        }
        defer { TessResultIteratorDelete(iterator) }
        let pageIterator = TessResultIteratorGetPageIteratorConst(iterator)
        var lines: [[OCRWord]] = []
        repeat {
            guard let box = boundingBox(pageIterator, RIL_WORD, origin: origin),
                let textPointer = TessResultIteratorGetUTF8Text(iterator, RIL_WORD)
            else { continue }
            let text = String(cString: textPointer).trimmingCharacters(in: .whitespacesAndNewlines)
            TessDeleteText(textPointer)
            guard !text.isEmpty else { continue }
            if lines.isEmpty || TessPageIteratorIsAtBeginningOf(pageIterator, RIL_TEXTLINE) != 0 {
                lines.append([])
            }
            let confidence = Double(TessResultIteratorConfidence(iterator, RIL_WORD))
            lines[lines.count - 1].append(OCRWord(text: text, confidence: confidence, box: box))
        } while TessResultIteratorNext(iterator, RIL_WORD) != 0
        let ocrLines = lines.filter { !$0.isEmpty }.map {
            OCRLine(words: $0, box: BoundingBox(enclosing: $0.map(\.box)))
        }
        let confidences = ocrLines.flatMap(\.words).map(\.confidence)
        let mean = confidences.isEmpty ? 0 : confidences.reduce(0, +) / Double(confidences.count)
        return OCRPage(lines: ocrLines, width: width, height: height, meanConfidence: mean)
    }

    private static func boundingBox(
        _ iterator: OpaquePointer?, _ level: TessPageIteratorLevel, origin: (left: Int, top: Int)
    ) -> BoundingBox? {
        var (left, top, right, bottom): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        guard TessPageIteratorBoundingBox(iterator, level, &left, &top, &right, &bottom) != 0 else { return nil }
        return BoundingBox(
            left: origin.left + Int(left), top: origin.top + Int(top), width: Int(right - left),
            height: Int(bottom - top))
    }
}
