import PipelineCore
import Testing

@Suite("Image format detection")
struct ImageFormatDetectionTests {
    @Test(
        "Signatures are recognized by content",
        arguments: [
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], DetectedImageFormat.supported(.jpeg)),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], .supported(.png)),
            ([0x49, 0x49, 0x2A, 0x00, 8, 0], .supported(.tiff)),
            ([0x4D, 0x4D, 0x00, 0x2A, 0, 8], .supported(.tiff)),
            (Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WEBPVP8 ".utf8), .supported(.webp)),
            (Array("GIF89a".utf8) + [1, 0, 1, 0], .supported(.gif)),
            (Array("BM".utf8) + [UInt8](repeating: 0, count: 14), .supported(.bmp)),
            (Array("%PDF-1.7\n".utf8), .supported(.pdf)),
            ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0], .supported(.heic)),
            ([0, 0, 0, 0x18] + Array("ftypmif1".utf8) + [0, 0, 0, 0], .supported(.heic)),
            ([0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0], .supported(.avif)),
            ([0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 0, 0], .unknown),
            (Array("Total 12.00\n".utf8), .unknown),
            ([], .unknown),
            ([0xFF, 0xD8], .unknown),
            (Array("BM".utf8), .unknown),
        ] as [([UInt8], DetectedImageFormat)])
    func detects(_ bytes: [UInt8], _ expected: DetectedImageFormat) {
        #expect(detectImageFormat(leadingBytes: bytes) == expected)
    }

    @Test("Only the leading bytes matter: a long file detects like its first 16 bytes")
    func leadingBytesOnly() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0xFF, count: 10_000)
        #expect(detectImageFormat(leadingBytes: png) == .supported(.png))
        #expect(detectImageFormat(leadingBytes: png.prefix(imageSignatureLength)) == .supported(.png))
    }
}

@Suite("Unrecognized content in words")
struct UnrecognizedContentTests {
    @Test(
        "A file that is no image is described in words, never as hex bytes",
        arguments: [
            (
                Array("<!doctype html><html><head><title>Order".utf8),
                "the file holds text, starting “<!doctype html><html><he…”"
            ),
            (Array("Total 12.00\nThank you\n".utf8), "the file holds text, starting “Total 12.00 Thank you”"),
            (
                [0x50, 0x4B, 0x03, 0x04, 0x14, 0, 6, 0],
                "the file is a ZIP archive (or a Word, Excel or OpenDocument file)"
            ),
            ([0, 0, 0, 0x18] + Array("ftypisom".utf8), "its first bytes match no file format this pipeline reads"),
            ([0xC3, 0xA9, 0x74, 0xC3], "the file holds text, starting “ét”"),
            (Array("Total\u{1B}[2J 12.00".utf8), "its first bytes match no file format this pipeline reads"),
            (Array("Total \u{202E}00.21".utf8), "its first bytes match no file format this pipeline reads"),
        ] as [([UInt8], String)])
    func describes(_ bytes: [UInt8], _ words: String) {
        let error = ImageError.unrecognizedFormat(file: "inbox/x.jpg", leadingBytes: bytes)
        #expect(
            error.problem == "not an image: \(words); it is none of JPEG, PNG, TIFF, WebP, BMP, GIF, HEIC, AVIF or PDF")
        #expect(error.problem.firstMatch(of: /\b[0-9a-f]{2} [0-9a-f]{2}\b/) == nil, "no hex bytes")
    }
}
