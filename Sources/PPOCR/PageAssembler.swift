import Foundation
import PipelineCore

/// Turns recognized regions into an `OCRPage`: words with boxes and confidences, grouped into lines in reading
/// order even on a skewed photo.
enum PageAssembler {
    /// Regions read with a lower mean probability are dropped (the reference pipeline's text score).
    static let minimumScore = 0.5

    /// One region's words, with where the region sits on the page.
    private struct Segment {
        let words: [OCRWord]
        /// Center of the region's middle line, its ends' x, its slope (dy/dx along the text) and its height.
        let center: Point
        let left: Double
        let right: Double
        let slope: Double
        let height: Double
        /// Center height once the page's overall skew is undone, for reading order.
        let order: Double
    }

    static func page(_ regions: [RecognizedText], width: Int, height: Int) -> OCRPage {
        let kept = regions.filter { $0.score >= minimumScore }
        let skew = skewAngle(kept)
        let segments: [Segment] = kept.compactMap { region in
            let words = self.words(region)
            guard !words.isEmpty else { return nil }
            let start = region.origin + region.down * 0.5
            let end = start + region.across
            let center = (start + end) * 0.5
            let slope = abs(region.across.x) > 1e-6 ? region.across.y / region.across.x : 0
            return Segment(
                words: words, center: center, left: min(start.x, end.x), right: max(start.x, end.x),
                slope: max(-1, min(1, slope)), height: region.down.length,
                order: center.y * cos(skew) - center.x * sin(skew))
        }
        var lines: [[Segment]] = []
        for segment in segments.sorted(by: { $0.order < $1.order }) {
            // Joins the line it continues: following the slope of the line's nearest region (and its own) from
            // there to its center lands within half a text height, and it overlaps none of the line's regions (a
            // price beside its item name, even on a curved or skewed photo); otherwise it starts a line.
            var best: (index: Int, miss: Double)?
            for (index, line) in lines.enumerated() {
                let overlaps = line.contains { other in
                    min(other.right, segment.right) - max(other.left, segment.left)
                        > 0.3 * min(other.right - other.left, segment.right - segment.left)
                }
                guard !overlaps, let nearest = line.min(by: { gap($0, segment) < gap($1, segment) }) else { continue }
                let slope = (nearest.slope + segment.slope) / 2
                let expected = nearest.center.y + (segment.center.x - nearest.center.x) * slope
                let miss = abs(segment.center.y - expected)
                if miss < 0.5 * min(nearest.height, segment.height), miss < best?.miss ?? .infinity {
                    best = (index, miss)
                }
            }
            if let best {
                lines[best.index].append(segment)
            } else {
                lines.append([segment])
            }
        }
        let ocrLines = lines.sorted { meanOrder($0) < meanOrder($1) }.map { line -> OCRLine in
            let words = line.sorted { $0.center.x < $1.center.x }.flatMap(\.words)
            return OCRLine(words: words, box: BoundingBox(enclosing: words.map(\.box)))
        }
        let confidences = ocrLines.flatMap(\.words).map(\.confidence)
        let mean = confidences.isEmpty ? 0 : confidences.reduce(0, +) / Double(confidences.count)
        return OCRPage(lines: ocrLines, width: width, height: height, meanConfidence: mean)
    }

    /// Horizontal distance between two regions (0 when they overlap).
    private static func gap(_ a: Segment, _ b: Segment) -> Double {
        max(0, max(a.left, b.left) - min(a.right, b.right))
    }

    private static func meanOrder(_ line: [Segment]) -> Double {
        line.map(\.order).reduce(0, +) / Double(line.count)
    }

    /// The page's skew: the median angle of regions clearly wider than tall (radians, clockwise positive).
    static func skewAngle(_ regions: [RecognizedText]) -> Double {
        let angles = regions.filter { $0.across.length > 2 * $0.down.length }.map { atan2($0.across.y, $0.across.x) }
            .filter { abs($0) < .pi / 4 }.sorted()
        return angles.isEmpty ? 0 : angles[angles.count / 2]
    }

    /// A region's characters split at spaces into words, each boxed by the part of the region it was read from.
    static func words(_ region: RecognizedText) -> [OCRWord] {
        var words: [OCRWord] = []
        var current: [(character: String, probability: Float, start: Double, end: Double)] = []
        func flush() {
            defer { current.removeAll() }
            guard let first = current.first, let last = current.last else { return }
            let text = current.map(\.character).joined()
            let confidence = Double(current.map(\.probability).reduce(0, +)) / Double(current.count) * 100
            let corners = [
                region.origin + region.across * first.start, region.origin + region.across * last.end,
                region.origin + region.across * first.start + region.down,
                region.origin + region.across * last.end + region.down,
            ]
            let left = Int(corners.map(\.x).min()!.rounded(.down))
            let top = Int(corners.map(\.y).min()!.rounded(.down))
            let right = Int(corners.map(\.x).max()!.rounded(.up))
            let bottom = Int(corners.map(\.y).max()!.rounded(.up))
            words.append(
                OCRWord(
                    text: text, confidence: confidence,
                    box: BoundingBox(left: left, top: top, width: right - left, height: bottom - top)))
        }
        for character in region.characters {
            if character.character.allSatisfy(\.isWhitespace) {
                flush()
            } else {
                current.append(character)
            }
        }
        flush()
        return words
    }
}
