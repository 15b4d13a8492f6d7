/// The OCR engine: PP-OCR (ONNX Runtime), Tesseract, or both (PP-OCR's lines, then Tesseract's).
public enum OCREngineChoice: String, Sendable, CaseIterable, Equatable, Codable {
    case ppocr, tesseract, both
}
