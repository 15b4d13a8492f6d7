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

    /// This image turned `quarterTurns` quarter turns clockwise (negative: counter-clockwise); sides swap on an odd
    /// count.
    public func turnedClockwise(quarterTurns: Int) -> PixelImage {
        let turns = (quarterTurns % 4 + 4) % 4
        guard turns != 0 else { return self }
        let (turnedWidth, turnedHeight) = turns == 2 ? (width, height) : (height, width)
        var turned = [UInt8](repeating: 0, count: bytes.count)
        bytes.withUnsafeBufferPointer { source in
            turned.withUnsafeMutableBufferPointer { target in
                for y in 0..<turnedHeight {
                    for x in 0..<turnedWidth {
                        // The source pixel that lands at (x, y).
                        let (sourceX, sourceY) =
                            switch turns {
                            case 1: (y, height - 1 - x)
                            case 2: (width - 1 - x, height - 1 - y)
                            default: (width - 1 - y, x)
                            }
                        let from = (sourceY * width + sourceX) * channels
                        let to = (y * turnedWidth + x) * channels
                        for channel in 0..<channels { target[to + channel] = source[from + channel] }
                    }
                }
            }
        }
        return PixelImage(unchecked: turnedWidth, height: turnedHeight, channels: channels, bytes: turned)
    }

    private init(unchecked width: Int, height: Int, channels: Int, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.channels = channels
        self.bytes = bytes
    }
}
