/// A rectangle in page pixels (origin top-left), as Tesseract reports it.
public struct BoundingBox: Sendable, Equatable, Hashable, Codable {
    public var left: Int
    public var top: Int
    public var width: Int
    public var height: Int

    public init(left: Int, top: Int, width: Int, height: Int) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
    }

    public var right: Int { left + width }
    public var bottom: Int { top + height }

    /// This box of an image turned `quarterTurns` clockwise (`turnedWidth` × `turnedHeight`, as turned) where it is
    /// on the image before the turn.
    public func turnedBack(quarterTurns: Int, turnedWidth: Int, turnedHeight: Int) -> BoundingBox {
        switch (quarterTurns % 4 + 4) % 4 {
        case 1: BoundingBox(left: top, top: turnedWidth - right, width: height, height: width)
        case 2: BoundingBox(left: turnedWidth - right, top: turnedHeight - bottom, width: width, height: height)
        case 3: BoundingBox(left: turnedHeight - bottom, top: left, width: height, height: width)
        default: self
        }
    }

    /// The smallest box around all of `boxes` (a line's box around its words); an empty list gives the zero box.
    public init(enclosing boxes: [BoundingBox]) {
        let left = boxes.map(\.left).min() ?? 0
        let top = boxes.map(\.top).min() ?? 0
        let right = boxes.map(\.right).max() ?? 0
        let bottom = boxes.map(\.bottom).max() ?? 0
        self.init(left: left, top: top, width: right - left, height: bottom - top)
    }
}

/// One recognized word.
public struct OCRWord: Sendable, Equatable, Codable {
    public var text: String
    /// Tesseract's confidence, 0–100.
    public var confidence: Double
    public var box: BoundingBox

    public init(text: String, confidence: Double, box: BoundingBox) {
        self.text = text
        self.confidence = confidence
        self.box = box
    }
}

/// One text line: its words left to right.
public struct OCRLine: Sendable, Equatable, Codable {
    public var words: [OCRWord]
    public var box: BoundingBox

    public init(words: [OCRWord], box: BoundingBox) {
        self.words = words
        self.box = box
    }

    /// The words joined by single spaces.
    public var text: String { words.map(\.text).joined(separator: " ") }
}

/// The OCR result of one page: lines in reading order (top to bottom).
public struct OCRPage: Sendable, Equatable, Codable {
    public var lines: [OCRLine]
    /// A second reading of the top of the page, in page coordinates, made for the merchant's name (logos and large
    /// type) of small photos; empty for other pages and when the header pass is off. Not part of `text`.
    public var headerLines: [OCRLine]
    /// Width and height of the image Tesseract read (after scaling), for relating boxes to the page.
    public var width: Int
    public var height: Int
    /// Mean word confidence, 0–100.
    public var meanConfidence: Double
    /// Clockwise quarter turns (0–3) the image was given to be read upright: a page photographed or scanned sideways
    /// or upside down (`PageOrientation` in the PP-OCR engine). Boxes are in the turned image's coordinates.
    public var quarterTurns: Int

    public init(
        lines: [OCRLine], headerLines: [OCRLine] = [], width: Int, height: Int, meanConfidence: Double,
        quarterTurns: Int = 0
    ) {
        self.lines = lines
        self.headerLines = headerLines
        self.width = width
        self.height = height
        self.meanConfidence = meanConfidence
        self.quarterTurns = quarterTurns
    }

    /// Reads pages stored before the header pass or the turned reading existed (no `headerLines`, no `quarterTurns`)
    /// as pages without one, read as they came.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        lines = try container.decode([OCRLine].self, forKey: .lines)
        headerLines = try container.decodeIfPresent([OCRLine].self, forKey: .headerLines) ?? []
        width = try container.decode(Int.self, forKey: .width)
        height = try container.decode(Int.self, forKey: .height)
        meanConfidence = try container.decode(Double.self, forKey: .meanConfidence)
        quarterTurns = try container.decodeIfPresent(Int.self, forKey: .quarterTurns) ?? 0
    }

    /// A note that the page was read turned (`quarterTurns`), in words; nil for a page read as it came.
    public var turnedNote: Finding? {
        let turn =
            switch quarterTurns % 4 {
            case 1: "a quarter turn clockwise"
            case 2: "upside down"
            case 3: "a quarter turn counter-clockwise"
            default: ""
            }
        guard !turn.isEmpty else { return nil }
        return Finding(
            .pageTurned,
            "the page was read turned \(turn), the way round it was scanned or photographed; the image is shown as "
                + "it came")
    }

    /// All lines joined by newlines.
    public var text: String { lines.map(\.text).joined(separator: "\n") }

    /// Builds a page from plain text, one line per text line (no boxes): for tests and text-only inputs.
    public init(text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
            let words = line.split(separator: " ").map {
                OCRWord(
                    text: String($0), confidence: 90, box: BoundingBox(left: 0, top: index * 20, width: 0, height: 16))
            }
            return OCRLine(words: words, box: BoundingBox(left: 0, top: index * 20, width: 0, height: 16))
        }
        self.init(lines: lines, width: 0, height: lines.count * 20, meanConfidence: 90)
    }
}
