import CPDFium
import Foundation
import PipelineCore

/// PDFium, opened from `pdf.library` on first use and then shared by the whole process under one lock: PDFium is not
/// thread-safe, so every call into it runs inside `withLibrary`.
///
/// Blocks while PDFium works: call it on an engine's thread, never on the cooperative pool.
enum PDFium {
    private static let lock = NSLock()
    // nonisolated(unsafe): read and written only while holding `lock`.
    nonisolated(unsafe) private static var opened: [String: PDFiumAPI] = [:]

    /// Runs `body` with the library at `path`, holding the process-wide lock.
    /// - Throws: `ImageError.pdfUnavailable` when the library cannot be opened, or what `body` throws.
    static func withLibrary<T>(at path: String, file: String, _ body: (PDFiumAPI) throws(ImageError) -> T)
        throws(ImageError) -> T
    {
        lock.lock()
        defer { lock.unlock() }
        if let api = opened[path] { return try body(api) }
        var api = PDFiumAPI()
        var reason: UnsafePointer<CChar>?
        guard pdfium_open(path, &api, &reason) == 0 else {
            throw .pdfUnavailable(file: file, detail: reason.map { String(cString: $0) } ?? "dlopen failed")
        }
        opened[path] = api
        return try body(api)
    }
}

/// One open PDF document; closed when released. Lives only inside `PDFium.withLibrary`.
final class PDFDocumentHandle {
    let api: PDFiumAPI
    let pointer: FPDF_DOCUMENT
    /// The bytes PDFium reads from: they must outlive the document.
    private let bytes: Data

    /// Opens `bytes`; an encrypted or damaged file throws the error that names it.
    init(_ bytes: Data, api: PDFiumAPI, file: String) throws(ImageError) {
        self.api = api
        self.bytes = bytes
        let opened = bytes.withUnsafeBytes { api.LoadMemDocument64($0.baseAddress, $0.count, nil) }
        guard let opened else {
            switch Int(api.GetLastError()) {
            case PDFIUM_ERR_PASSWORD, PDFIUM_ERR_SECURITY: throw .encrypted(file: file)
            default: throw .corrupt(file: file, format: .pdf, detail: "PDFium could not parse it")
            }
        }
        pointer = opened
    }

    deinit { api.CloseDocument(pointer) }

    var pageCount: Int { Int(api.GetPageCount(pointer)) }

    /// The size of page `index` in points (1/72 inch), as displayed (rotation applied); nil when unreadable.
    func pageSize(_ index: Int) -> (width: Double, height: Double)? {
        var width = 0.0
        var height = 0.0
        guard api.GetPageSizeByIndex(pointer, Int32(index), &width, &height) != 0, width > 0, height > 0 else {
            return nil
        }
        return (width, height)
    }
}
