import Foundation

/// A 64-bit perceptual hash of a decoded page (a DCT hash): two photos or scans of one receipt have different
/// bytes but nearly the same fingerprint, so a re-scan or a second photo is found as a possible duplicate.
///
/// Made from the upright gray page shrunk to `side` × `side` (averaging): the 8 × 8 lowest frequencies of its
/// discrete cosine transform, each bit set when the coefficient is above their median (the constant term left out).
/// Low frequencies describe the page's layout — where the text blocks and margins lie — which re-encoding, resizing
/// and a slightly different framing leave in place.
public struct PageFingerprint: Sendable, Hashable, Codable, CustomStringConvertible {
    public var bits: UInt64

    public init(bits: UInt64) {
        self.bits = bits
    }

    /// The side of the square gray thumbnail a fingerprint is computed from.
    public static let side = 32

    /// Fingerprints at most this many bits apart are taken for the same receipt when a total or date read from both
    /// is the same and neither differs: a fingerprint describes a layout, which a shop's receipts share. Fitted on
    /// the 772 train and dev receipts (`docs/review.md`, "Duplicates"): with that condition no two different
    /// receipts match up to 20 bits (the first at 22; on the page alone, 29 pairs within 4), and within 16 lie 76 of
    /// 78 copies saved again and 58 of 78 second photos turned 2.5° and framed 4% tighter.
    public static let similarPageDistance = 16

    /// The fingerprint of a `side` × `side` gray thumbnail (one byte per pixel, rows top to bottom); nil for
    /// another size.
    public init?(thumbnail: PixelImage) {
        let side = Self.side
        guard thumbnail.width == side, thumbnail.height == side, thumbnail.channels == 1 else { return nil }
        let pixels = thumbnail.bytes.map(Double.init)
        let cosines = (0..<8).map { frequency in
            (0..<side).map { x in cos(Double((2 * x + 1) * frequency) * Double.pi / Double(2 * side)) }
        }
        // Rows first, then columns, keeping only the 8 lowest frequencies of each.
        var rows = [Double](repeating: 0, count: side * 8)
        for y in 0..<side {
            for u in 0..<8 {
                var sum = 0.0
                for x in 0..<side { sum += pixels[y * side + x] * cosines[u][x] }
                rows[y * 8 + u] = sum
            }
        }
        var coefficients = [Double](repeating: 0, count: 64)
        for v in 0..<8 {
            for u in 0..<8 {
                var sum = 0.0
                for y in 0..<side { sum += rows[y * 8 + u] * cosines[v][y] }
                coefficients[v * 8 + u] = sum
            }
        }
        let median = coefficients.dropFirst().sorted()[31]
        var bits: UInt64 = 0
        for (index, coefficient) in coefficients.enumerated() where index > 0 && coefficient > median {
            bits |= 1 << UInt64(index)
        }
        self.bits = bits
    }

    /// How many bits differ.
    public func distance(to other: PageFingerprint) -> Int {
        (bits ^ other.bits).nonzeroBitCount
    }

    /// Whether the two pages look alike: the same layout, which is the same receipt only when what was read from
    /// them agrees too (`similarPageDistance`).
    public func isSimilarPage(to other: PageFingerprint) -> Bool {
        distance(to: other) <= Self.similarPageDistance
    }

    /// As stored: a signed 64-bit integer with the same bits (PostgreSQL `bigint`).
    public var storedValue: Int64 { Int64(bitPattern: bits) }

    /// The fingerprint stored as `storedValue`.
    public init(storedValue: Int64) {
        self.bits = UInt64(bitPattern: storedValue)
    }

    public var description: String { String(bits, radix: 16) }
}
