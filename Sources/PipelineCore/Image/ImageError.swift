/// Why an image could not be decoded, read or compressed: names the file, the stage, the problem and the remedy.
///
/// `isRetryable` classifies it for the queue: permanent errors (the bytes themselves are bad) send the job to
/// `dead` at once; retryable ones (a deadline under load, a failed engine) back off and try again.
public struct ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The small closed set of failures.
    public enum Code: String, Sendable, CaseIterable {
        case empty
        case unrecognizedFormat = "unrecognized_format"
        case disallowedFormat = "disallowed_format"
        case tooManyPixels = "too_many_pixels"
        case encrypted
        case tooManyPages = "too_many_pages"
        case pageTooLarge = "page_too_large"
        case pageTimedOut = "page_timed_out"
        case pdfUnavailable = "pdf_unavailable"
        case tooSmall = "too_small"
        case corrupt
        case encodeFailed = "encode_failed"
        case ocrFailed = "ocr_failed"
        case ocrTimedOut = "ocr_timed_out"
        case engineUnavailable = "engine_unavailable"
    }

    public let code: Code
    /// The stage that failed: `decode`, `ocr` or `compress`.
    public let stage: Stage
    /// The file (or receipt) the image came from, as the operator knows it.
    public let file: String
    /// What was wrong, in one clause.
    public let problem: String
    /// What the operator can do about it.
    public let remedy: String

    public init(_ code: Code, stage: Stage, file: String, problem: String, remedy: String) {
        self.code = code
        self.stage = stage
        self.file = file
        self.problem = problem
        self.remedy = remedy
    }

    /// True when trying again later may succeed; false when the image itself is the problem.
    public var isRetryable: Bool {
        switch code {
        case .ocrTimedOut, .ocrFailed, .engineUnavailable, .encodeFailed, .pdfUnavailable: true
        case .empty, .unrecognizedFormat, .disallowedFormat, .tooManyPixels, .tooSmall, .corrupt, .encrypted,
            .tooManyPages, .pageTooLarge, .pageTimedOut:
            false
        }
    }

    /// True when the image will never be readable as it is.
    public var isPermanent: Bool { !isRetryable }

    public var description: String { "\(file): \(stage.rawValue) failed: \(problem). \(remedy)" }
}

extension ImageError {
    /// The file has no bytes.
    public static func empty(file: String) -> ImageError {
        ImageError(
            .empty, stage: .decode, file: file, problem: "the file is empty (0 bytes)",
            remedy: "Check the scanner or upload that produced it and ingest the image again.")
    }

    /// The bytes start with no known image signature. The problem says in words what the file looks like (text,
    /// with its first words quoted; an archive or office document; or unknown bytes), never the bytes in hex. Only
    /// the first 64 bytes are read.
    public static func unrecognizedFormat(file: String, leadingBytes: some Collection<UInt8>) -> ImageError {
        ImageError(
            .unrecognizedFormat, stage: .decode, file: file,
            problem:
                "not an image: \(describeUnknownContent(Array(leadingBytes.prefix(64)))); it is none of JPEG, "
                + "PNG, TIFF, WebP, BMP, GIF, HEIC, AVIF or PDF",
            remedy: "Make sure the file is a receipt image; the extension does not matter, the content does.")
    }

    /// What a file that is no image looks like, from its first bytes, in words.
    static func describeUnknownContent(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return "the file is a ZIP archive (or a Word, Excel or OpenDocument file)"
        }
        // Text: valid UTF-8 (a character cut at the end allowed) with no control or format characters (an escape,
        // a bidirectional override) but line breaks and tabs, which the quote turns into spaces.
        var text = String(decoding: bytes, as: UTF8.self)
        while text.last == "\u{FFFD}" { text.removeLast() }
        let isText =
            !text.isEmpty && !text.contains("\u{FFFD}")
            && text.unicodeScalars.allSatisfy { scalar in
                ["\n", "\r", "\t"].contains(scalar)
                    || ![.control, .format].contains(scalar.properties.generalCategory)
            }
        guard isText else { return "its first bytes match no file format this pipeline reads" }
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return "the file holds text, starting “\(words.count > 24 ? String(words.prefix(24)) + "…" : words)”"
    }

    /// A supported format that the configuration does not accept.
    public static func disallowedFormat(file: String, format: ImageFormat) -> ImageError {
        ImageError(
            .disallowedFormat, stage: .decode, file: file,
            problem: "\(format.displayName) files are not enabled by `ingest.formats`",
            remedy: "Add \(format.rawValue) to `ingest.formats` or convert the image to JPEG.")
    }

    /// The header declares more pixels than the budget (a decompression bomb or an absurd scan).
    public static func tooManyPixels(file: String, width: Int, height: Int, limit: Int) -> ImageError {
        ImageError(
            .tooManyPixels, stage: .decode, file: file,
            problem:
                "the image declares \(width)×\(height) pixels (\(width * height / 1_000_000) MP), over the "
                + "\(limit / 1_000_000) MP limit; it was not decoded",
            remedy: "Rescan at 300 dpi or less, or raise `image.maxPixels` if such images are expected.")
    }

    /// The image is too small to hold readable text.
    public static func tooSmall(file: String, width: Int, height: Int, minimumSide: Int) -> ImageError {
        ImageError(
            .tooSmall, stage: .decode, file: file,
            problem:
                "the image is \(width)×\(height) pixels; a side under \(minimumSide) px cannot hold readable text",
            remedy: "Ingest the full-resolution photo or scan, not a thumbnail.")
    }

    /// The decoder rejected the bytes: truncated or damaged.
    public static func corrupt(file: String, format: ImageFormat, detail: String) -> ImageError {
        ImageError(
            .corrupt, stage: .decode, file: file,
            problem:
                "the \(format.rawValue.uppercased()) data could not be decoded (\(detail)); the file is "
                + "truncated or damaged",
            remedy: "Copy or export the image again from its source and re-ingest it.")
    }

    /// JPEG encoding of the normalized page failed.
    public static func encodeFailed(file: String) -> ImageError {
        ImageError(
            .encodeFailed, stage: .compress, file: file, problem: "JPEG encoding of the decoded image failed",
            remedy: "Usually memory pressure; if it keeps happening, report the image.")
    }

    /// Tesseract returned an error.
    public static func ocrFailed(file: String, detail: String) -> ImageError {
        ImageError(
            .ocrFailed, stage: .ocr, file: file, problem: "Tesseract could not recognize the page (\(detail))",
            remedy: "If it keeps happening, check the Tesseract installation and the image.")
    }

    /// OCR ran past its deadline and was stopped inside Tesseract.
    public static func ocrTimedOut(file: String, deadline: Duration) -> ImageError {
        ImageError(
            .ocrTimedOut, stage: .ocr, file: file,
            problem: "OCR did not finish within \(deadline.milliseconds) ms",
            remedy:
                "If the machine is not overloaded, raise `ocr.timeout` or lower `ocr.targetLongSide`."
        )
    }

    /// The Tesseract engine could not start (language data missing or unreadable).
    public static func engineUnavailable(detail: String) -> ImageError {
        ImageError(
            .engineUnavailable, stage: .ocr, file: "(engine)", problem: "Tesseract could not start: \(detail)",
            remedy:
                "Install the language data (`apt-get install tesseract-ocr-eng`) or fix `ocr.tessdata` / "
                + "`ocr.language`."
        )
    }

    /// The PDF asks for a password.
    public static func encrypted(file: String) -> ImageError {
        ImageError(
            .encrypted, stage: .decode, file: file, problem: "the PDF is encrypted (it asks for a password)",
            remedy:
                "Save an unprotected copy (e.g. `qpdf --decrypt --password=… in.pdf out.pdf`) and ingest that file.")
    }

    /// The PDF has more pages than `pdf.maxPages`.
    public static func tooManyPages(file: String, pages: Int, limit: Int) -> ImageError {
        ImageError(
            .tooManyPages, stage: .decode, file: file,
            problem: "the PDF has \(pages) pages, over the limit of \(limit); it was not read",
            remedy: "Split it (e.g. `qpdf --split-pages`), or raise `pdf.maxPages` if such files are expected.")
    }

    /// A PDF page larger than `pdf.maxPageSide`.
    public static func pdfPageTooLarge(file: String, page: Int, width: Double, height: Double, limit: Int)
        -> ImageError
    {
        ImageError(
            .pageTooLarge, stage: .decode, file: file,
            problem:
                "page \(page) is \(Int(width.rounded()))×\(Int(height.rounded())) pt, over the limit of \(limit) pt "
                + "a side; it was not rendered",
            remedy: "Export the receipt at its real size, or raise `pdf.maxPageSide` if such pages are expected.")
    }

    /// Rendering a PDF page ran past `pdf.pageTimeout`.
    public static func pdfPageTimedOut(file: String, page: Int, limit: Duration) -> ImageError {
        ImageError(
            .pageTimedOut, stage: .decode, file: file,
            problem: "page \(page) did not render within \(limit.milliseconds) ms",
            remedy: "Print it to a simpler PDF or an image and ingest that, or raise `pdf.pageTimeout`.")
    }

    /// PDFium could not be opened.
    public static func pdfUnavailable(file: String, detail: String) -> ImageError {
        ImageError(
            .pdfUnavailable, stage: .decode, file: file, problem: "PDFium cannot be loaded: \(detail)",
            remedy: "Run `scripts/install-pdfium` or point `pdf.library` at libpdfium.so; the job is retried.")
    }
}
