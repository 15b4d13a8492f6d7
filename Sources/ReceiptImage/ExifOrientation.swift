/// The EXIF orientation of a photo: how to turn the stored pixels so the picture stands upright.
public enum ExifOrientation: Int, Sendable, Equatable, CaseIterable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// Clockwise quarter turns to apply after the optional mirroring.
    public var clockwiseQuarterTurns: Int {
        switch self {
        case .up, .upMirrored: 0
        case .right, .rightMirrored: 1
        case .down, .downMirrored: 2
        case .left, .leftMirrored: 3
        }
    }

    /// Whether the stored pixels must be mirrored left-right before turning.
    public var isMirrored: Bool {
        switch self {
        case .upMirrored, .downMirrored, .leftMirrored, .rightMirrored: true
        case .up, .down, .left, .right: false
        }
    }

    /// True when applying it swaps width and height.
    public var swapsSides: Bool { clockwiseQuarterTurns % 2 == 1 }

    /// Reads the orientation tag (0x0112) of a JPEG's EXIF block.
    ///
    /// Pure and bounds-checked: damaged or absent EXIF data gives `.up`. Stops at the first scan.
    /// - Parameter jpeg: the whole JPEG file.
    public static func read(fromJPEG jpeg: some RandomAccessCollection<UInt8>) -> ExifOrientation {
        let bytes = Array(jpeg.prefix(256 * 1024))
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .up }
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF {
            let marker = bytes[position + 1]
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard length >= 2, position + 2 + length <= bytes.count else { break }
            if marker == 0xE1, let orientation = orientation(inAPP1: bytes[(position + 4)..<(position + 2 + length)]) {
                return orientation
            }
            position += 2 + length
        }
        return .up
    }

    /// The orientation inside an APP1 payload (`Exif\0\0` + TIFF structure), if present.
    private static func orientation(inAPP1 payload: ArraySlice<UInt8>) -> ExifOrientation? {
        let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
        guard payload.count > 14, Array(payload.prefix(6)) == exifHeader else { return nil }
        let tiff = Array(payload.dropFirst(6))
        let isLittleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): isLittleEndian = true
        case (0x4D, 0x4D): isLittleEndian = false
        default: return nil
        }
        func integer(at offset: Int, size: Int) -> Int? {
            guard offset >= 0, offset + size <= tiff.count else { return nil }
            var value = 0
            for index in 0..<size {
                let byte = Int(tiff[offset + (isLittleEndian ? size - 1 - index : index)])
                value = value << 8 | byte
            }
            return value
        }
        guard let firstDirectory = integer(at: 4, size: 4), let entryCount = integer(at: firstDirectory, size: 2)
        else { return nil }
        for entry in 0..<min(entryCount, 512) {
            let entryOffset = firstDirectory + 2 + entry * 12
            guard let tag = integer(at: entryOffset, size: 2) else { return nil }
            if tag == 0x0112 {
                return integer(at: entryOffset + 8, size: 2).flatMap(ExifOrientation.init(rawValue:))
            }
        }
        return nil
    }
}
