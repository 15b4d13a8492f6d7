/// Image formats, identified by magic bytes.
public enum ImageFormat: String, Sendable, CaseIterable, Equatable {
    case jpeg, png, tiff, webp, bmp, gif
    /// HEIC/HEIF and AVIF photos, decoded by libheif.
    case heic, avif
    /// PDF documents: the text layer of born-digital pages, scanned pages rendered (docs/inputs.md).
    case pdf

    /// File name extensions of the formats, for folders of fixtures (ingest goes by content, not by name).
    public static let fileExtensions: Set<String> = [
        "jpg", "jpeg", "png", "tif", "tiff", "webp", "bmp", "gif", "heic", "heif", "avif", "pdf",
    ]

    /// Whether browsers show the format in an `<img>`; the review page shows the others as the rendered page.
    public var isShownByBrowsers: Bool {
        switch self {
        case .jpeg, .png, .webp, .bmp, .gif: true
        case .tiff, .heic, .avif, .pdf: false
        }
    }

    /// The name an operator knows the format by.
    public var displayName: String {
        switch self {
        case .heic: "HEIC/HEIF"
        default: rawValue.uppercased()
        }
    }
}

/// How a PDF of several pages becomes receipts (`ingest.pdfPages`).
public enum PDFPageGrouping: String, Sendable, CaseIterable, Equatable {
    /// By what each page holds (`ReceiptPageGrouping`): a page with its own merchant, date and total starts a
    /// receipt, any other page continues the one before.
    case content
    /// The whole file is one receipt, its pages read in order as one page.
    case file
    /// Each page is a receipt of its own (a scanner batch of many receipts).
    case perPage
}
