import Foundation
import PipelineCore
import ReceiptImage
import TesseractOCR
import TestSupport
import Testing

/// docs/behaviour.md: every bad image gives a typed, permanent error naming the file, without crashing or decoding bombs.
@Suite("Bad images")
struct BadImageTests {
    /// Processes `bytes` named `file` and returns the error it must throw.
    private func failure(_ bytes: Data, file: String) async throws -> ImageError {
        try await TestEngines.withEngine { engine in
            do {
                _ = try await engine.process(bytes, file: file)
                Issue.record("\(file) was accepted")
                throw CancellationError()
            } catch let error as ImageError {
                return error
            }
        }
    }

    private func expectPermanent(_ error: ImageError, _ code: ImageError.Code, naming file: String) {
        #expect(error.code == code)
        #expect(error.isPermanent)
        #expect(error.stage == .decode)
        #expect(error.description.hasPrefix(file + ":"))
    }

    private var receiptJPEG: Data { get throws { try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg")) } }

    @Test("An empty file")
    func empty() async throws {
        let error = try await failure(Data(), file: "empty.jpg")
        expectPermanent(error, .empty, naming: "empty.jpg")
        #expect(error.description.contains("empty"))
    }

    @Test("A JPEG cut in half")
    func truncatedJPEG() async throws {
        let whole = try receiptJPEG
        let error = try await failure(whole.prefix(whole.count / 2), file: "cut.jpg")
        expectPermanent(error, .corrupt, naming: "cut.jpg")
        #expect(error.description.contains("JPEG"))
    }

    @Test("A PNG cut in half")
    func truncatedPNG() async throws {
        let whole = GeneratedImages.grayPNG(width: 400, height: 300) { x, y in UInt8((x * y) % 256) }
        let error = try await failure(whole.prefix(whole.count / 2), file: "cut.png")
        expectPermanent(error, .corrupt, naming: "cut.png")
        #expect(error.description.contains("PNG"))
    }

    @Test("A PNG whose pixel data fails its checksum")
    func damagedPNG() async throws {
        var png = GeneratedImages.grayPNG(width: 400, height: 300) { x, y in UInt8((x + y) % 256) }
        png[png.count / 2] ^= 0xFF
        let error = try await failure(png, file: "damaged.png")
        expectPermanent(error, .corrupt, naming: "damaged.png")
    }

    @Test("A text file named .jpg")
    func textNamedJPEG() async throws {
        let error = try await failure(Data("TOTAL 12.00\nThank you!\n".utf8), file: "notes.jpg")
        expectPermanent(error, .unrecognizedFormat, naming: "notes.jpg")
        #expect(error.description.contains("not an image"))
    }

    @Test(
        "Damaged HEIC and PDF files are refused as damaged, naming the format",
        arguments: [
            ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 200), "IMG_0001.HEIC", "HEIC"),
            (Array("%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n".utf8), "invoice.pdf", "PDF"),
        ] as [([UInt8], String, String)])
    func damagedHEICAndPDF(_ bytes: [UInt8], _ file: String, _ formatName: String) async throws {
        let error = try await failure(Data(bytes), file: file)
        expectPermanent(error, .corrupt, naming: file)
        #expect(error.description.contains(formatName))
    }

    @Test("A 1×1 image is too small to read")
    func onePixel() async throws {
        let error = try await failure(GeneratedImages.grayPNG(width: 1, height: 1) { _, _ in 255 }, file: "dot.png")
        expectPermanent(error, .tooSmall, naming: "dot.png")
        #expect(error.description.contains("1×1"))
    }

    @Test("A 20000×20000 PNG bomb is refused from its header, before decoding")
    func bomb() async throws {
        let bomb = GeneratedImages.bombPNG(width: 20_000, height: 20_000)
        #expect(bomb.count < 3_000_000)
        let before = try #require(residentMegabytes())
        let error = try await failure(bomb, file: "bomb.png")
        expectPermanent(error, .tooManyPixels, naming: "bomb.png")
        #expect(error.description.contains("20000×20000"))
        // Had it been decoded, 400 MB of pixels would have been allocated. Other suites run in this process at
        // the same time, so compare the growth, not the total.
        let after = try #require(residentMegabytes())
        #expect(after - before < 300)
    }

    @Test("Random bytes")
    func randomBytes() async throws {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[0] = 0x00  // never a JPEG/PNG/TIFF/GIF/BMP/WebP/PDF signature by chance
        let error = try await failure(Data(bytes), file: "noise.jpg")
        expectPermanent(error, .unrecognizedFormat, naming: "noise.jpg")
    }

    @Test("Random bytes behind a valid JPEG signature")
    func randomJPEGBody() async throws {
        var generator = SystemRandomNumberGenerator()
        let body = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let error = try await failure(Data([0xFF, 0xD8, 0xFF, 0xE0] + body + [0xFF, 0xD9]), file: "garbage.jpg")
        // libjpeg skips garbage up to the next marker: a random frame header may declare any size first.
        #expect([.corrupt, .tooManyPixels, .tooSmall].contains(error.code))
        #expect(error.isPermanent)
        #expect(error.description.hasPrefix("garbage.jpg:"))
    }

    /// Current resident memory (VmRSS) of the test process in MB.
    private func residentMegabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes / 1024
    }
}
