/// Where each OCR line sits on the page, stored with the expense so the review page can outline a field's evidence.
///
/// Boxes are in the coordinates of the page OCR read (scaled, EXIF orientation applied; a page read turned has them
/// turned back); divided by `width` and `height` they give fractions of the image as a browser shows it.
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

    /// The layout of a page's lines (the ones its `text` joins), on the image as it came: a page read turned
    /// (`OCRPage.quarterTurns`) has its boxes turned back.
    public init(page: OCRPage) {
        let sidesSwap = page.quarterTurns % 2 != 0
        self.init(
            width: sidesSwap ? page.height : page.width, height: sidesSwap ? page.width : page.height,
            lineBoxes: page.lines.map {
                $0.box.turnedBack(quarterTurns: page.quarterTurns, turnedWidth: page.width, turnedHeight: page.height)
            })
    }
}
