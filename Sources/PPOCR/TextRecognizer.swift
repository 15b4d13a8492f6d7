import Foundation
import PipelineCore

/// One recognized text region: its place on the page and its characters with where each was read.
struct RecognizedText {
    /// The region, rectified: `origin` is the corner where reading starts, `across` runs along the text,
    /// `down` from its top to its bottom edge (page pixels).
    let origin: Point
    let across: Point
    let down: Point
    /// Characters read, each with its probability and its position along the text (0–1).
    let characters: [(character: String, probability: Float, start: Double, end: Double)]
    /// Mean probability of the characters (0–1).
    let score: Double
}

/// PP-OCR's text recognizer (SVTR + CTC): reads each detected region.
///
/// Each region is cut out of the page with an affine warp to 48 px height (as wide as its aspect ratio makes it),
/// read at its own width rounded up to the model's column step (regions of the same rounded width share a batch),
/// and each output is decoded greedily (best class per time step, repeats merged, blanks dropped).
///
/// The model's cost grows with the input columns and hardly with the batch size, so padding a region out to a
/// batch's widest (or to the reference pipeline's 320 px minimum) is paid for in full: on 60 dev receipts that
/// padding was about 40% of the columns read (`docs/ocr-engines.md`).
struct TextRecognizer {
    static let inputHeight = 48
    /// Input columns per output time step: widths are rounded up to a multiple of it, so a region is padded by
    /// less than one step.
    static let columnStep = 8
    /// The narrowest input read (a lone character is about this wide at 48 px height).
    static let minimumWidth = 2 * columnStep
    static let batchSize = 6
    /// A batch holds at most this many input columns in all (batch × width): the output is 18,710 floats per
    /// 8 columns of every item, so six wide lines would take hundreds of MB; wide lines go in smaller batches.
    static let batchColumns = 6 * 640

    let session: ONNXSession
    /// Class 0 is the CTC blank; then the model's characters; the last class is a space.
    let alphabet: [String]

    /// Reads the dictionary from the model's metadata key `character` (one character per line).
    init(session: ONNXSession) throws(ONNXRuntimeError) {
        guard let list = try session.metadata("character"), !list.isEmpty else {
            throw ONNXRuntimeError(call: "recognizer", message: "the model has no `character` metadata")
        }
        self.session = session
        let characters = list.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.hasSuffix("\r") ? $0.dropLast() : $0)
        }
        alphabet = ["blank"] + characters + [" "]
    }

    func recognize(_ regions: [Quad], in image: PixelImage, stop: RunStop) throws(ONNXRuntimeError)
        -> [RecognizedText]
    {
        let frames = regions.map(Self.frame)
        var results = [RecognizedText?](repeating: nil, count: frames.count)
        for batch in Self.batches(widths: frames.map { Self.inputWidth(aspect: $0.aspect) }) {
            let inputWidth = Self.inputWidth(aspect: frames[batch[0]].aspect)
            let plane = Self.inputHeight * inputWidth
            var input = [Float](repeating: 0, count: batch.count * 3 * plane)
            var drawnWidths: [Int] = []
            input.withUnsafeMutableBufferPointer { buffer in
                for (slot, index) in batch.enumerated() {
                    let drawn = Self.drawnWidth(aspect: frames[index].aspect)
                    drawnWidths.append(drawn)
                    Self.draw(
                        frames[index], from: image, width: drawn, into: buffer, offset: slot * 3 * plane,
                        rowLength: inputWidth)
                }
            }
            try session.run(&input, shape: [batch.count, 3, Self.inputHeight, inputWidth], stop: stop) {
                output throws(ONNXRuntimeError) in
                guard output.shape.count == 3, output.shape[0] == batch.count, output.shape[2] == alphabet.count else {
                    throw ONNXRuntimeError(call: "recognizer", message: "unexpected output shape \(output.shape)")
                }
                let steps = output.shape[1]
                for (slot, index) in batch.enumerated() {
                    let frame = frames[index]
                    // A time step covers inputWidth / steps input columns; the region covers drawnWidths[slot].
                    let stepShare = Double(inputWidth) / Double(steps) / Double(drawnWidths[slot])
                    let characters = decode(output.values, item: slot, steps: steps, stepShare: stepShare)
                    let score =
                        characters.isEmpty
                        ? 0 : Double(characters.map(\.probability).reduce(0, +)) / Double(characters.count)
                    results[index] = RecognizedText(
                        origin: frame.origin, across: frame.across, down: frame.down, characters: characters,
                        score: score)
                }
            }
        }
        return results.compactMap { $0 }
    }

    /// The columns a region of this aspect ratio fills at 48 px height.
    static func drawnWidth(aspect: Double) -> Int {
        max(minimumWidth, Int((Double(inputHeight) * aspect).rounded(.up)))
    }

    /// The model input width for a region: its drawn width rounded up to a whole column step.
    static func inputWidth(aspect: Double) -> Int {
        (drawnWidth(aspect: aspect) + columnStep - 1) / columnStep * columnStep
    }

    /// Groups regions (by index) whose input widths are equal into batches of up to `batchSize`, each within
    /// `batchColumns`; narrowest first.
    static func batches(widths: [Int]) -> [[Int]] {
        var batches: [[Int]] = []
        let byWidth = Dictionary(grouping: widths.indices) { widths[$0] }.sorted { $0.key < $1.key }
        for (width, indices) in byWidth {
            let perBatch = max(1, min(batchSize, batchColumns / width))
            for start in stride(from: 0, to: indices.count, by: perBatch) {
                batches.append(Array(indices[start..<min(start + perBatch, indices.count)]))
            }
        }
        return batches
    }

    /// Greedy CTC decoding of one batch item.
    private func decode(_ buffer: UnsafeBufferPointer<Float>, item: Int, steps: Int, stepShare: Double)
        -> [(character: String, probability: Float, start: Double, end: Double)]
    {
        let classes = alphabet.count
        var characters: [(character: String, probability: Float, start: Double, end: Double)] = []
        var previous = -1
        for step in 0..<steps {
            let row = (item * steps + step) * classes
            var best = 0
            var bestValue = buffer[row]
            for index in 1..<classes {
                let value = buffer[row + index]
                if value > bestValue {
                    best = index
                    bestValue = value
                }
            }
            defer { previous = best }
            guard best != 0 else { continue }
            if best == previous, !characters.isEmpty {
                // The same character held over several steps: extend it, keep its first probability.
                characters[characters.count - 1].end = min(1, Double(step + 1) * stepShare)
                continue
            }
            characters.append(
                (alphabet[best], bestValue, min(1, Double(step) * stepShare), min(1, Double(step + 1) * stepShare)))
        }
        return characters
    }

    /// How a region is read: origin and axes on the page, and its width-to-height ratio once upright.
    struct Frame {
        let origin: Point
        let across: Point
        let down: Point
        var aspect: Double { across.length / max(down.length, 1) }
    }

    /// The reading frame of a detected box; boxes at least 1.5 times taller than wide are read turned a quarter
    /// counter-clockwise (vertical text), as the reference pipeline does.
    static func frame(_ quad: Quad) -> Frame {
        let width = Double(Int(quad.width))
        let height = Double(Int(quad.height))
        let alongTop = quad.topRight - quad.topLeft
        let alongLeft = quad.bottomLeft - quad.topLeft
        let across = alongTop * (width / max(alongTop.length, 1))
        let down = alongLeft * (height / max(alongLeft.length, 1))
        if height / max(width, 1) >= 1.5 {
            return Frame(origin: quad.topLeft + across, across: down, down: across * -1)
        }
        return Frame(origin: quad.topLeft, across: across, down: down)
    }

    /// Samples `frame` from the page into `width` × 48 pixels of the three B, G, R planes at `offset` (rows of
    /// `rowLength`; the rest stays 0, the padding), normalized to [-1, 1]. Shrinking by more than 1.5× averages
    /// several samples per pixel.
    static func draw(
        _ frame: Frame, from image: PixelImage, width: Int, into buffer: UnsafeMutableBufferPointer<Float>,
        offset: Int, rowLength: Int
    ) {
        let height = inputHeight
        let plane = height * rowLength
        let shrink = max(frame.down.length / Double(height), frame.across.length / Double(max(width, 1)))
        let samples = min(4, max(1, Int(shrink.rounded(.up)) - (shrink < 1.5 ? 1 : 0)))
        let weight = Float(1) / Float(samples * samples)
        let channels = image.channels
        image.bytes.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    var sums: (Float, Float, Float) = (0, 0, 0)
                    for sy in 0..<samples {
                        let v = (Double(y) + (Double(sy) + 0.5) / Double(samples)) / Double(height)
                        for sx in 0..<samples {
                            let u = (Double(x) + (Double(sx) + 0.5) / Double(samples)) / Double(width)
                            let point = frame.origin + frame.across * u + frame.down * v
                            let sample = bilinear(pixels, image, channels, x: point.x - 0.5, y: point.y - 0.5)
                            sums.0 += sample.0
                            sums.1 += sample.1
                            sums.2 += sample.2
                        }
                    }
                    let index = offset + y * rowLength + x
                    // B, G, R planes (see TextDetector.normalizedPlanes).
                    buffer[index] = sums.2 * weight / 127.5 - 1
                    buffer[index + plane] = sums.1 * weight / 127.5 - 1
                    buffer[index + 2 * plane] = sums.0 * weight / 127.5 - 1
                }
            }
        }
    }

    /// The R, G, B value at a fractional position, edges repeated outwards.
    @inline(__always)
    private static func bilinear(
        _ pixels: UnsafeBufferPointer<UInt8>, _ image: PixelImage, _ channels: Int, x: Double, y: Double
    ) -> (Float, Float, Float) {
        let cx = min(max(x, 0), Double(image.width - 1))
        let cy = min(max(y, 0), Double(image.height - 1))
        let left = Int(cx)
        let top = Int(cy)
        let right = min(left + 1, image.width - 1)
        let bottom = min(top + 1, image.height - 1)
        let fx = Float(cx - Double(left))
        let fy = Float(cy - Double(top))
        func value(_ px: Int, _ py: Int, _ channel: Int) -> Float {
            Float(pixels[(py * image.width + px) * channels + (channels == 3 ? channel : 0)])
        }
        func channel(_ c: Int) -> Float {
            let upper = value(left, top, c) + (value(right, top, c) - value(left, top, c)) * fx
            let lower = value(left, bottom, c) + (value(right, bottom, c) - value(left, bottom, c)) * fx
            return upper + (lower - upper) * fy
        }
        return (channel(0), channel(1), channel(2))
    }
}
