import CTesseract
import Foundation
import PipelineCore
import TesseractOCR
import Testing

@testable import ReceiptImage

/// Issue 14 item 6: CMYK and YCCK JPEGs (print workflows, scanners' "CMYK" setting) decode to the same gray page
/// as the RGB original, whichever ink convention they use. The files are made by `Images/make-images.py`.
@Suite("Four-channel JPEGs")
struct FourChannelJPEGTests {
    private static func image(_ name: String) throws -> Data {
        try Data(contentsOf: Bundle.module.resourceURL!.appendingPathComponent("Images/\(name)"))
    }

    /// The mean gray level (0 black … 255 white) of the decoded, upright page.
    private static func meanGray(_ name: String) throws -> Float {
        let page = try LeptonicaImageLoader(options: TestEngines.defaultOptions).load(try image(name), file: name)
        var mean: Float = -1
        #expect(pixGetAverageMasked(page.upright.pointer, nil, 0, 0, 1, l_int32(L_MEAN_ABSVAL), &mean) == 0)
        return mean
    }

    @Test(arguments: ["cmyk-adobe.jpg", "cmyk-plain.jpg", "ycck.jpg"])
    func decodesToTheGrayOfTheRGBOriginal(name: String) throws {
        let original = try Self.meanGray("rgb.jpg")
        let fourChannel = try Self.meanGray(name)
        #expect(abs(fourChannel - original) < 4, "\(name): mean gray \(fourChannel), RGB original \(original)")
    }

    @Test(arguments: ["cmyk-adobe.jpg", "cmyk-plain.jpg", "ycck.jpg"])
    func readsTheMerchant(name: String) async throws {
        let text = try await TestEngines.withEngine { engine in
            try await engine.process(try Self.image(name), file: name).page.text
        }
        #expect(text.contains("SOON HUAT MACHINERY"), "\(name): \(text)")
    }
}
