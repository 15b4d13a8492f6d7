import Foundation

/// A JPEG's width and height, read from its header.
public enum JPEGSize {
    /// Width and height from a JPEG's first start-of-frame marker; nil when there is none.
    public static func of(_ jpeg: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](jpeg)
        var position = 2
        while position + 9 < bytes.count, bytes[position] == 0xFF {
            let marker = bytes[position + 1]
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            if (0xC0...0xC3).contains(marker) {
                let height = Int(bytes[position + 5]) << 8 | Int(bytes[position + 6])
                let width = Int(bytes[position + 7]) << 8 | Int(bytes[position + 8])
                return (width, height)
            }
            position += 2 + length
        }
        return nil
    }
}
