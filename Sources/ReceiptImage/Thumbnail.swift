import Foundation
import PipelineCore

/// Small previews of receipt images, for reports.
public enum Thumbnail {
    /// The image upright and gray, its long side at most `longSide`, as JPEG. Blocks while Leptonica decodes.
    /// - Throws: `ImageError` for images the pipeline itself would refuse.
    public static func jpeg(_ bytes: Data, file: String, longSide: Int, options: ImageProcessingOptions)
        throws(ImageError)
        -> Data
    {
        let page = try LeptonicaImageLoader(options: options).load(bytes, file: file)
        guard let small = page.upright.scaled(toLongSide: min(longSide, page.upright.longSide)),
            let jpeg = small.jpeg(quality: 70)
        else { throw .corrupt(file: file, format: page.format, detail: "the preview could not be encoded") }
        return Data(jpeg)
    }
}
