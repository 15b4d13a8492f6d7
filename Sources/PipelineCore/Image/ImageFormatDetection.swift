/// What the first bytes of a file say it is.
public enum DetectedImageFormat: Sendable, Equatable {
    /// A format the pipeline decodes.
    case supported(ImageFormat)
    /// No known signature: not an image or PDF, or damaged at the start.
    case unknown
}

/// How many leading bytes `detectImageFormat(leadingBytes:)` looks at; fewer are fine for short files.
public let imageSignatureLength = 16

/// Identifies an image format by its magic bytes, never by the file name.
///
/// Pure and cheap: ingest calls it on the first `imageSignatureLength` bytes of a file, decode on the whole buffer.
/// - Parameter leadingBytes: the start of the file (at least `imageSignatureLength` bytes when available).
/// - Returns: the format, or `.unknown`.
public func detectImageFormat(leadingBytes: some Collection<UInt8>) -> DetectedImageFormat {
    let bytes = Array(leadingBytes.prefix(imageSignatureLength))
    func starts(with signature: [UInt8], at offset: Int = 0) -> Bool {
        bytes.count >= offset + signature.count && Array(bytes[offset..<offset + signature.count]) == signature
    }
    if starts(with: [0xFF, 0xD8, 0xFF]) { return .supported(.jpeg) }
    if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .supported(.png) }
    if starts(with: [0x49, 0x49, 0x2A, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .supported(.tiff) }
    if starts(with: Array("RIFF".utf8)) && starts(with: Array("WEBP".utf8), at: 8) { return .supported(.webp) }
    if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) { return .supported(.gif) }
    if starts(with: Array("BM".utf8)) && bytes.count >= 14 { return .supported(.bmp) }
    if starts(with: Array("%PDF-".utf8)) { return .supported(.pdf) }
    if starts(with: Array("ftyp".utf8), at: 4), bytes.count >= 12 {
        let brand = String(decoding: bytes[8..<12], as: UTF8.self)
        if ["avif", "avis"].contains(brand) { return .supported(.avif) }
        if ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].contains(brand) {
            return .supported(.heic)
        }
    }
    return .unknown
}
