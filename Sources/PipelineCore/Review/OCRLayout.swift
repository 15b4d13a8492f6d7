/// Where each OCR line sits on the page, stored with the expense so the review page can outline a field's evidence.
///
/// Boxes are in the coordinates of the page OCR read (scaled, orientation applied); divided by `width` and `height`
/// they give fractions of the image as a browser shows it.
public struct OCRLayout: Sendable, Equatable, Codable {
    public var width: Int
    public var height: Int
    /// One box per line of the OCR text, in the same order.
    public var lineBoxes: [BoundingBox]

    public init(width: Int, height: Int, lineBoxes: [BoundingBox]) {
        self.width = width
        self.height = height
        self.lineBoxes = lineBoxes
    }

    /// The layout of a page's lines (the ones its `text` joins).
    public init(page: OCRPage) {
        self.init(width: page.width, height: page.height, lineBoxes: page.lines.map(\.box))
    }
}
