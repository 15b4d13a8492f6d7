import PipelineCore

/// PP-OCR's text detector (DB): finds text regions as rotated rectangles in page coordinates.
///
/// The page is resized so its long side is at most `longSide`, but its short side not below `minimumAcross` (a long
/// receipt) within `maximumAreaInLongSides`, never enlarged (both sides rounded to multiples of 32, as the network
/// needs), normalized to [-1, 1] in B, G, R order, and run; the probability map is then thresholded and
/// each connected region becomes a box (smallest rotated rectangle, scored by the mean probability inside it,
/// grown by the DB unclip distance) — the post-processing of the PP-OCR reference pipeline, in Swift.
struct TextDetector {
    /// Map pixels above this probability are text.
    static let threshold: Float = 0.3
    /// Boxes whose mean probability is lower are dropped.
    static let boxThreshold: Double = 0.5
    /// How far a box grows: its area × ratio / perimeter on every side.
    static let unclipRatio = 1.6
    /// Boxes with a shorter side (map pixels) are dropped.
    static let minimumSide = 3.0
    /// The pixels the map keeps across a page's short side however long the page: a long receipt shrunk by its long
    /// side alone (a 1080 × 4581 scan to 226 px across) had text a few pixels high, and nothing was found on it
    /// (docs/ocr-engines.md, "Long receipts").
    static let minimumAcross = 480.0
    /// The most map pixels a long receipt is read with, in squares of `longSide` (twice a 960 × 960 map, 2.7 times a
    /// 4:3 page's): past it, a page longer than 8 to 1 is read with less across, not with more memory.
    static let maximumAreaInLongSides = 2.0

    /// A closer look is taken only when it sees the text at least this many times larger.
    static let closerZoom = 1.5
    /// The most looks a page gets: the first, at the whole page, and closer ones.
    static let maximumLooks = 3
    /// Fewer boxes than this on the first look do not say where the text is: the closer look is at the whole page
    /// (and the boxes it finds, however few, say where to look next).
    static let fewBoxes = 5
    /// The window of a closer look is the found text's bounding rectangle grown by this share of its size on every
    /// side (text too small to be found on the first look often lies around the text that was).
    static let windowMargin = 0.25

    let session: ONNXSession
    let longSide: Int

    /// The text boxes on `image`, in its pixel coordinates.
    ///
    /// A page shrunk for the map whose text turns out to lie in a small part of it (a receipt photographed on a
    /// table, filling a third of a 12-megapixel frame), or on which little text was found at all, is looked at again
    /// closer: the found text's window (or the whole page) with as many map pixels as a long receipt gets, up to
    /// `maximumLooks` in all while each look finds at least as many boxes as the one before (docs/ocr-engines.md,
    /// "Receipts that do not fill the photo").
    func detect(_ image: PixelImage, stop: RunStop) throws(ONNXRuntimeError) -> [Quad] {
        let page = BoundingBox(left: 0, top: 0, width: image.width, height: image.height)
        let first = Self.mapRatio(page, longSide: longSide)
        var (boxes, ratio) = (try detect(image, in: page, ratio: first, stop: stop), first)
        for look in 1..<Self.maximumLooks {
            guard
                let closer = Self.closerLook(
                    at: boxes, on: page, firstRatio: first, isFirst: look == 1, longSide: longSide),
                closer.ratio > ratio
            else { break }
            let found = try detect(image, in: closer.window, ratio: closer.ratio, stop: stop)
            guard found.count >= boxes.count else { break }
            (boxes, ratio) = (found, closer.ratio)
        }
        return boxes
    }

    /// The map's scale for `window`: its long side at most `longSide`, but its short side not below `minimumAcross`
    /// within `maximumAreaInLongSides`, never enlarged.
    static func mapRatio(_ window: BoundingBox, longSide: Int) -> Double {
        let byLongSide = Double(longSide) / Double(max(window.width, window.height))
        let byAcross = min(
            minimumAcross / Double(min(window.width, window.height)),
            (mapBudget(longSide: longSide) / window.area).squareRoot())
        return min(1, max(byLongSide, byAcross))
    }

    /// The most map pixels any look takes.
    private static func mapBudget(longSide: Int) -> Double { maximumAreaInLongSides * Double(longSide * longSide) }

    /// Where to look again and at which scale, or nil when the first look was close enough: the window of the
    /// found boxes grown by `windowMargin` (nil when that is the whole page) — but the whole page when the first
    /// look found fewer than `fewBoxes` — with up to `mapBudget(longSide:)` map pixels, never enlarged, and only
    /// when that sees the text at least `closerZoom` times larger than the first look.
    static func closerLook(at boxes: [Quad], on page: BoundingBox, firstRatio: Double, isFirst: Bool, longSide: Int)
        -> (window: BoundingBox, ratio: Double)?
    {
        guard firstRatio < 1 else { return nil }
        var window = page
        if !isFirst || boxes.count >= fewBoxes {
            guard !boxes.isEmpty else { return nil }
            let points = boxes.flatMap(\.corners)
            let (left, right) = (points.map(\.x).min()!, points.map(\.x).max()!)
            let (top, bottom) = (points.map(\.y).min()!, points.map(\.y).max()!)
            let (marginX, marginY) = ((right - left) * windowMargin, (bottom - top) * windowMargin)
            window = BoundingBox(
                from: Point(x: left - marginX, y: top - marginY), to: Point(x: right + marginX, y: bottom + marginY),
                within: page)
            guard window != page else { return nil }
        }
        let closer = min(1, (mapBudget(longSide: longSide) / window.area).squareRoot())
        return closer >= closerZoom * firstRatio ? (window, closer) : nil
    }

    /// The text boxes in `window` of `image`, found on a map of the window scaled by `ratio`, in image coordinates.
    private func detect(_ image: PixelImage, in window: BoundingBox, ratio: Double, stop: RunStop)
        throws(ONNXRuntimeError) -> [Quad]
    {
        let mapWidth = max(32, Int((Double(Int(Double(window.width) * ratio)) / 32).rounded()) * 32)
        let mapHeight = max(32, Int((Double(Int(Double(window.height) * ratio)) / 32).rounded()) * 32)
        var input = Self.normalizedPlanes(image, window: window, width: mapWidth, height: mapHeight)
        let boxes = try session.run(&input, shape: [1, 3, mapHeight, mapWidth], stop: stop) {
            output throws(ONNXRuntimeError) in
            guard output.shape.count == 4, output.shape[2] == mapHeight, output.shape[3] == mapWidth else {
                throw ONNXRuntimeError(call: "detector", message: "unexpected output shape \(output.shape)")
            }
            return Self.boxes(probabilities: output.values, width: mapWidth, height: mapHeight)
        }
        let scaleX = Double(window.width) / Double(mapWidth)
        let scaleY = Double(window.height) / Double(mapHeight)
        let origin = Point(x: Double(window.left), y: Double(window.top))
        return boxes.compactMap { box in
            let quad = Quad(ordering: box.corners).scaled(x: scaleX, y: scaleY).moved(by: origin)
            let clipped = Quad(
                topLeft: clip(quad.topLeft, image), topRight: clip(quad.topRight, image),
                bottomRight: clip(quad.bottomRight, image), bottomLeft: clip(quad.bottomLeft, image))
            let width = (clipped.topRight - clipped.topLeft).length
            let height = (clipped.bottomLeft - clipped.topLeft).length
            return width.rounded(.down) > 3 && height.rounded(.down) > 3 ? clipped : nil
        }
    }

    private func clip(_ point: Point, _ image: PixelImage) -> Point {
        Point(
            x: min(max(point.x.rounded(), 0), Double(image.width - 1)),
            y: min(max(point.y.rounded(), 0), Double(image.height - 1)))
    }

    /// `window` of the image resized (bilinear) to `width` × `height` as three float planes B, G, R scaled to
    /// [-1, 1].
    static func normalizedPlanes(_ image: PixelImage, window: BoundingBox, width: Int, height: Int) -> [Float] {
        let plane = width * height
        var output = [Float](repeating: 0, count: 3 * plane)
        let scaleX = Double(window.width) / Double(width)
        let scaleY = Double(window.height) / Double(height)
        let (lastX, lastY) = (Double(window.right - 1), Double(window.bottom - 1))
        let channels = image.channels
        let sourceWidth = image.width
        // Per-column source positions are the same for every row: compute them once.
        var columns = [(Int, Int, Float)](repeating: (0, 0, 0), count: width)
        for x in 0..<width {
            let sourceX = min(max(Double(window.left) + (Double(x) + 0.5) * scaleX - 0.5, Double(window.left)), lastX)
            let left = Int(sourceX)
            columns[x] = (left, min(left + 1, Int(lastX)), Float(sourceX - Double(left)))
        }
        image.bytes.withUnsafeBufferPointer { pixels in
            output.withUnsafeMutableBufferPointer { planes in
                for y in 0..<height {
                    let sourceY = min(
                        max(Double(window.top) + (Double(y) + 0.5) * scaleY - 0.5, Double(window.top)), lastY)
                    let top = Int(sourceY)
                    let bottom = min(top + 1, Int(lastY))
                    let fy = Float(sourceY - Double(top))
                    let topRow = top * sourceWidth * channels
                    let bottomRow = bottom * sourceWidth * channels
                    for x in 0..<width {
                        let (left, right, fx) = columns[x]
                        for channel in 0..<3 {
                            let c = channels == 3 ? channel : 0
                            let a = Float(pixels[topRow + left * channels + c])
                            let b = Float(pixels[topRow + right * channels + c])
                            let d = Float(pixels[bottomRow + left * channels + c])
                            let e = Float(pixels[bottomRow + right * channels + c])
                            let upper = a + (b - a) * fx
                            let lower = d + (e - d) * fx
                            let value = upper + (lower - upper) * fy
                            // Planes in B, G, R order: the models were trained on OpenCV's BGR images.
                            planes[(2 - channel) * plane + y * width + x] = value / 127.5 - 1
                        }
                    }
                }
            }
        }
        return output
    }

    /// DB post-processing of a probability map: boxes in map coordinates.
    static func boxes(probabilities: UnsafeBufferPointer<Float>, width: Int, height: Int) -> [RotatedRectangle] {
        // Threshold, then dilate by a 2×2 square (each pixel also takes its left, upper and upper-left neighbours).
        var mask = [Bool](repeating: false, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                var on = probabilities[index] > threshold
                if !on, x > 0 { on = probabilities[index - 1] > threshold }
                if !on, y > 0 { on = probabilities[index - width] > threshold }
                if !on, x > 0, y > 0 { on = probabilities[index - width - 1] > threshold }
                mask[index] = on
            }
        }
        var boxes: [RotatedRectangle] = []
        for region in connectedRegions(mask, width: width, height: height) {
            guard let rectangle = RotatedRectangle.minimumArea(around: region), rectangle.shortSide >= minimumSide
            else { continue }
            let score = meanProbability(probabilities, width: width, height: height, inside: rectangle)
            guard score >= boxThreshold else { continue }
            let area = rectangle.extent.along * rectangle.extent.across
            let perimeter = 2 * (rectangle.extent.along + rectangle.extent.across)
            let grown = rectangle.expanded(by: area * unclipRatio / perimeter)
            guard grown.shortSide >= minimumSide + 2 else { continue }
            boxes.append(grown)
        }
        return boxes
    }

    /// The 8-connected regions of `mask`, each as the first and last pixel center of every row it spans
    /// (enough for its convex hull).
    static func connectedRegions(_ mask: [Bool], width: Int, height: Int) -> [[Point]] {
        var visited = mask.map { !$0 }
        var regions: [[Point]] = []
        var stack: [Int] = []
        var rowExtremes: [Int: (Int, Int)] = [:]
        for start in 0..<mask.count where !visited[start] {
            visited[start] = true
            stack.append(start)
            rowExtremes.removeAll(keepingCapacity: true)
            while let index = stack.popLast() {
                let x = index % width
                let y = index / width
                if let (low, high) = rowExtremes[y] {
                    rowExtremes[y] = (min(low, x), max(high, x))
                } else {
                    rowExtremes[y] = (x, x)
                }
                for dy in -1...1 {
                    let ny = y + dy
                    guard ny >= 0, ny < height else { continue }
                    for dx in -1...1 {
                        let nx = x + dx
                        guard nx >= 0, nx < width else { continue }
                        let neighbour = ny * width + nx
                        if !visited[neighbour] {
                            visited[neighbour] = true
                            stack.append(neighbour)
                        }
                    }
                }
            }
            var points: [Point] = []
            points.reserveCapacity(rowExtremes.count * 2)
            for (y, (low, high)) in rowExtremes {
                points.append(Point(x: Double(low), y: Double(y)))
                if high != low { points.append(Point(x: Double(high), y: Double(y))) }
            }
            regions.append(points)
        }
        return regions
    }

    /// The mean map value over the pixels inside `rectangle` (the DB "fast" box score).
    static func meanProbability(
        _ map: UnsafeBufferPointer<Float>, width: Int, height: Int, inside rectangle: RotatedRectangle
    ) -> Double {
        let quad = Quad(ordering: rectangle.corners)
        let corners = quad.corners
        let minX = max(0, Int(corners.map(\.x).min()!.rounded(.down)))
        let maxX = min(width - 1, Int(corners.map(\.x).max()!.rounded(.up)))
        let minY = max(0, Int(corners.map(\.y).min()!.rounded(.down)))
        let maxY = min(height - 1, Int(corners.map(\.y).max()!.rounded(.up)))
        guard minX <= maxX, minY <= maxY else { return 0 }
        // Inside or within half a pixel of every edge (the corners run clockwise on screen).
        let edges = (0..<4).map { index -> (start: Point, direction: Point) in
            let edge = corners[(index + 1) % 4] - corners[index]
            return (corners[index], edge.length > 0 ? edge * (1 / edge.length) : Point(x: 0, y: 0))
        }
        var sum = 0.0
        var count = 0
        for y in minY...maxY {
            for x in minX...maxX {
                let inside = edges.allSatisfy { edge in
                    edge.direction.x * (Double(y) - edge.start.y) - edge.direction.y * (Double(x) - edge.start.x)
                        >= -0.5
                }
                if inside {
                    sum += Double(map[y * width + x])
                    count += 1
                }
            }
        }
        return count == 0 ? 0 : sum / Double(count)
    }
}
