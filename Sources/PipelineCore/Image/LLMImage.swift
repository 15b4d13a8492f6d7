import Foundation

/// Which bytes of a receipt image go to the vision model.
public enum LLMImage {
    /// The compressed copy, unless it is not smaller than the original and providers take the original's format
    /// (JPEG, PNG, WebP, GIF): a "compressed" copy larger than the photo costs tokens and detail for nothing.
    public static func choose(original: Data, compressed: Data) -> Data {
        guard compressed.count >= original.count else { return compressed }
        switch detectImageFormat(leadingBytes: original) {
        case .supported(.jpeg), .supported(.png), .supported(.webp), .supported(.gif): return original
        default: return compressed
        }
    }
}
