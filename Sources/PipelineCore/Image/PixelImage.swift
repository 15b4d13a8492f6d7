/// Decoded pixels of an upright page: rows top to bottom, each pixel `channels` bytes (1 = gray, 3 = R, G, B).
public struct PixelImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// 1 (gray) or 3 (RGB).
    public let channels: Int
    /// `width × height × channels` bytes, packed without row padding.
    public let bytes: [UInt8]

    /// Wraps packed pixels; nil when the sizes do not match or `channels` is not 1 or 3.
    public init?(width: Int, height: Int, channels: Int, bytes: [UInt8]) {
        guard width > 0, height > 0, channels == 1 || channels == 3, bytes.count == width * height * channels
        else { return nil }
        self.width = width
        self.height = height
        self.channels = channels
        self.bytes = bytes
    }

    /// The longer side in pixels.
    public var longSide: Int { max(width, height) }
}
