import Foundation
import PipelineCore

/// A second photo of a receipt as a person takes it: the page turned a little and framed a little tighter, saved in
/// another format — other bytes, the same receipt. Made from the decoded pixels of a shipped receipt.
public enum ReceiptCopies {
    /// The same JPEG saved again: a comment segment (`comment`) after the start marker makes other bytes of the same
    /// pixels.
    public static func resaved(_ jpeg: Data, comment: String) -> Data {
        let text = Data(comment.utf8)
        return Data([0xFF, 0xD8, 0xFF, 0xFE, 0, UInt8(text.count + 2)]) + text + jpeg.dropFirst(2)
    }

    /// `pixels` turned by `degrees` about the centre (paper white where the turn brings in nothing), with `cut` of
    /// the width and height cut off every side, as a 24-bit BMP file.
    public static func rephotographed(_ pixels: PixelImage, degrees: Double = 2.5, cut: Double = 0.04) -> Data {
        let left = Int(Double(pixels.width) * cut)
        let top = Int(Double(pixels.height) * cut)
        let width = pixels.width - 2 * left
        let height = pixels.height - 2 * top
        let (sine, cosine) = (sin(degrees * .pi / 180), cos(degrees * .pi / 180))
        let (centreX, centreY) = (Double(pixels.width) / 2, Double(pixels.height) / 2)
        var rgb = [UInt8](repeating: 255, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                // The source pixel that lands here, nearest neighbour.
                let dx = Double(x + left) - centreX
                let dy = Double(y + top) - centreY
                let sourceX = Int((cosine * dx + sine * dy + centreX).rounded())
                let sourceY = Int((-sine * dx + cosine * dy + centreY).rounded())
                guard (0..<pixels.width).contains(sourceX), (0..<pixels.height).contains(sourceY) else { continue }
                let source = (sourceY * pixels.width + sourceX) * pixels.channels
                for channel in 0..<3 {
                    rgb[(y * width + x) * 3 + channel] = pixels.bytes[source + (pixels.channels == 3 ? channel : 0)]
                }
            }
        }
        return bmp(width: width, height: height, rgb: rgb)
    }

    /// A bottom-up 24-bit BMP (BITMAPINFOHEADER) of packed RGB rows.
    static func bmp(width: Int, height: Int, rgb: [UInt8]) -> Data {
        let rowBytes = (width * 3 + 3) / 4 * 4
        let imageBytes = rowBytes * height
        var data = Data()
        func append(_ value: Int, bytes: Int) {
            for index in 0..<bytes { data.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
        }
        data.append(contentsOf: Array("BM".utf8))
        append(54 + imageBytes, bytes: 4)
        append(0, bytes: 4)
        append(54, bytes: 4)
        append(40, bytes: 4)
        append(width, bytes: 4)
        append(height, bytes: 4)
        append(1, bytes: 2)
        append(24, bytes: 2)
        append(0, bytes: 4)
        append(imageBytes, bytes: 4)
        append(2835, bytes: 4)
        append(2835, bytes: 4)
        append(0, bytes: 8)
        for y in stride(from: height - 1, through: 0, by: -1) {
            var row = [UInt8](repeating: 0, count: rowBytes)
            for x in 0..<width {
                let pixel = (y * width + x) * 3
                row[x * 3] = rgb[pixel + 2]
                row[x * 3 + 1] = rgb[pixel + 1]
                row[x * 3 + 2] = rgb[pixel]
            }
            data.append(contentsOf: row)
        }
        return data
    }
}
