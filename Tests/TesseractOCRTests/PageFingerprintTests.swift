import Foundation
import PipelineCore
import ReceiptBench
import TestSupport
import Testing

@testable import ReceiptImage

/// The perceptual hash the pipeline computes where it decodes a page: a copy of a receipt saved again stays within
/// `PageFingerprint.similarPageDistance` bits; different receipts may lie as close (one shop's layout), and then
/// their totals or dates tell them apart. Measured on every shipped receipt, with a second photo (turned 2.5°,
/// framed 4% tighter) beside it (`docs/review.md`, "Duplicates").
@Suite struct PageFingerprintTests {
    static func fingerprint(_ bytes: Data, _ name: String) throws -> PageFingerprint {
        let page = try LeptonicaImageLoader(options: TestEngines.defaultOptions).load(bytes, file: name)
        return try #require(page.fingerprint, "\(name)")
    }

    /// The receipt saved again, smaller (80%), as a new JPEG.
    static func reencoded(_ bytes: Data, _ name: String) throws -> Data {
        let decoded = try ReceiptPixelDecoder.decode(bytes, file: name, options: TestEngines.defaultOptions)
        let longSide = max(decoded.pixels.width, decoded.pixels.height) * 4 / 5
        return try Thumbnail.jpeg(bytes, file: name, longSide: longSide, options: TestEngines.defaultOptions)
    }

    /// A second photo: turned 2.5°, framed 4% tighter on every side, saved as BMP.
    static func rephotographed(_ bytes: Data, _ name: String) throws -> Data {
        let decoded = try ReceiptPixelDecoder.decode(bytes, file: name, options: TestEngines.defaultOptions)
        return ReceiptCopies.rephotographed(decoded.pixels)
    }

    @Test func copiesOfAReceiptAreCloseAndDifferentReceiptsAreNot() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: TestEnvironment.receiptsFolder.path)
            .filter { !$0.hasSuffix(".json") }.sorted()
        var originals: [(String, PageFingerprint)] = []
        var copies: [(String, Int, Int)] = []
        for name in names {
            let bytes = try Data(contentsOf: TestEnvironment.receipt(name))
            let original = try Self.fingerprint(bytes, name)
            let reencoded = try Self.fingerprint(try Self.reencoded(bytes, name), name)
            let rephotographed = try Self.fingerprint(try Self.rephotographed(bytes, name), name)
            originals.append((name, original))
            copies.append((name, original.distance(to: reencoded), original.distance(to: rephotographed)))
        }
        var distinct: [(String, Int)] = []
        for (index, (name, fingerprint)) in originals.enumerated() {
            for (other, otherFingerprint) in originals[(index + 1)...] {
                distinct.append(("\(name)–\(other)", fingerprint.distance(to: otherFingerprint)))
                guard fingerprint.isSimilarPage(to: otherFingerprint) else { continue }
                // Similar pages: the commit needs a total or date read the same on both, and neither differing.
                let labels = try [name, other].map { image in
                    let label = TestEnvironment.receipt(image).deletingPathExtension().appendingPathExtension("json")
                    return try FixtureLabel.decode(try Data(contentsOf: label))
                }
                #expect(
                    labels[0].total != labels[1].total || labels[0].date != labels[1].date,
                    "\(name) and \(other) have similar pages and the same total and date")
            }
        }
        let sameMax = copies.map(\.1).max() ?? 0
        print(
            "PageFingerprintTests: copies (re-encoded, re-photographed): "
                + copies.map { "\($0.0) \($0.1)/\($0.2)" }.joined(separator: ", "))
        print(
            "PageFingerprintTests: distinct receipts, closest: "
                + distinct.sorted { $0.1 < $1.1 }.prefix(8).map { "\($0.0) \($0.1)" }.joined(separator: ", "))
        #expect(sameMax <= PageFingerprint.similarPageDistance, "a copy saved again is further than the threshold")
    }

    /// Benchmark, with `PAGE_FINGERPRINT_FIXTURES=DIR[:DIR…]` (skipped without): every image under the folders is
    /// fingerprinted, and the bits between every two different receipts are counted against the threshold; every
    /// `PAGE_FINGERPRINT_COPY_STEP`-th image (default 10) is also saved again and re-photographed as above.
    /// `PAGE_FINGERPRINT_FIXTURES=../shared/fixtures/train:../shared/fixtures/receipts scripts/test --filter
    /// PageFingerprintTests` prints the table of `docs/review.md`, "Duplicates".
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PAGE_FINGERPRINT_FIXTURES"] != nil))
    func fixtureSetsBenchmark() throws {
        let environment = ProcessInfo.processInfo.environment
        let folders = (environment["PAGE_FINGERPRINT_FIXTURES"] ?? "").split(separator: ":").map {
            URL(fileURLWithPath: String($0))
        }
        let step = Int(environment["PAGE_FINGERPRINT_COPY_STEP"] ?? "") ?? 10
        var images: [URL] = []
        for folder in folders {
            let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                if ["jpg", "jpeg", "png"].contains(url.pathExtension.lowercased()) { images.append(url) }
            }
        }
        images.sort { $0.path < $1.path }
        var originals: [(String, PageFingerprint)] = []
        var reencodedBits: [Int] = []
        var rephotographedBits: [Int] = []
        for (index, url) in images.enumerated() {
            let bytes = try Data(contentsOf: url)
            let name = url.lastPathComponent
            let original = try Self.fingerprint(bytes, name)
            originals.append((name, original))
            guard index % step == 0 else { continue }
            reencodedBits.append(original.distance(to: try Self.fingerprint(try Self.reencoded(bytes, name), name)))
            rephotographedBits.append(
                original.distance(to: try Self.fingerprint(try Self.rephotographed(bytes, name), name)))
        }
        var distinctBits = [Int](repeating: 0, count: 65)
        var closest: [(String, Int)] = []
        for (index, (name, fingerprint)) in originals.enumerated() {
            for (other, otherFingerprint) in originals[(index + 1)...] {
                let bits = fingerprint.distance(to: otherFingerprint)
                distinctBits[bits] += 1
                if bits <= 4 { closest.append(("\(name)–\(other)", bits)) }
            }
        }
        func histogram(_ values: [Int]) -> String {
            Dictionary(grouping: values, by: { $0 }).sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.count)" }
                .joined(separator: ", ")
        }
        print("PageFingerprintTests: \(originals.count) receipts under \(folders.map(\.path))")
        print("PageFingerprintTests: saved again, bits apart (\(reencodedBits.count)): \(histogram(reencodedBits))")
        print(
            "PageFingerprintTests: re-photographed, bits apart (\(rephotographedBits.count)): "
                + histogram(rephotographedBits))
        print(
            "PageFingerprintTests: different files, pairs by bits apart (0…24): "
                + (0...24).map { "\($0): \(distinctBits[$0])" }.joined(separator: ", "))
        print(
            "PageFingerprintTests: different files within 4 bits: "
                + closest.sorted { $0.1 < $1.1 }.map { "\($0.0) \($0.1)" }.joined(separator: ", "))
        #expect(originals.count > 1, "no images under \(folders.map(\.path))")
    }

    /// The color and gray decodes (PP-OCR's and Tesseract's) give one receipt the same fingerprint.
    @Test func bothDecodesAgree() throws {
        for name in ["sroie_006.jpg", "wr_58_20.jpeg"] {
            let bytes = try Data(contentsOf: TestEnvironment.receipt(name))
            let color = try ReceiptPixelDecoder.decode(bytes, file: name, options: TestEngines.defaultOptions)
            let gray = try Self.fingerprint(bytes, name)
            let fromColor = try #require(color.fingerprint)
            #expect(fromColor.distance(to: gray) <= 2, "\(name): \(fromColor) vs \(gray)")
        }
    }
}
