import Foundation

/// Images built byte by byte in the tests: valid small PNGs, PNG decompression bombs, JPEGs with EXIF orientation.
enum GeneratedImages {
    /// An 8-bit grayscale PNG whose pixels are `pixel(x, y)`, stored uncompressed.
    static func grayPNG(width: Int, height: Int, pixel: (Int, Int) -> UInt8) -> Data {
        var raw: [UInt8] = []
        raw.reserveCapacity((width + 1) * height)
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width { raw.append(pixel(x, y)) }
        }
        var deflate: [UInt8] = []
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let isFinal: UInt8 = offset + count == raw.count ? 1 : 0
            deflate += [
                isFinal, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF),
            ]
            deflate += raw[offset..<offset + count]
            offset += count
        } while offset < raw.count
        return png(width: width, height: height, zlibBody: deflate, adler: adler32(raw))
    }

    /// A PNG that declares `width`×`height` all-black gray pixels in a tiny file: every row after the first byte is
    /// a run of 258-byte back-references (fixed Huffman), so 20000×20000 (400 MB of pixels) fits in ~2.5 MB.
    static func bombPNG(width: Int, height: Int) -> Data {
        let rawCount = (width + 1) * height
        var bits = BitWriter()
        bits.write(1, count: 1)  // final block
        bits.write(1, count: 2)  // fixed Huffman codes
        bits.writeHuffman(0x30, length: 8)  // literal 0
        var remaining = rawCount - 1
        while remaining >= 258 {
            bits.writeHuffman(0xC5, length: 8)  // length 258 (symbol 285)
            bits.writeHuffman(0, length: 5)  // distance 1
            remaining -= 258
        }
        for _ in 0..<remaining { bits.writeHuffman(0x30, length: 8) }
        bits.writeHuffman(0, length: 7)  // end of block
        // Adler-32 of `rawCount` zero bytes: a stays 1, b grows by 1 per byte.
        let adler = UInt32(rawCount % 65_521) << 16 | 1
        return png(width: width, height: height, zlibBody: bits.flushed, adler: adler)
    }

    /// `jpeg` with an EXIF block carrying `orientation` inserted right after the start-of-image marker.
    static func withExifOrientation(_ jpeg: Data, orientation: UInt16) -> Data {
        var tiff: [UInt8] = Array("MM".utf8) + [0x00, 0x2A, 0, 0, 0, 8]
        tiff += [0, 1]  // one entry
        tiff += [0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1, UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0, 0]
        tiff += [0, 0, 0, 0]  // no next directory
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        var result = Data(jpeg.prefix(2))
        result += [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        result += jpeg.dropFirst(2)
        return result
    }

    /// `png` with a `tEXt` chunk after the header whose checksum is wrong (an ancillary chunk: readers skip it).
    static func withDamagedTextChunk(_ png: Data) -> Data {
        var chunk = chunk("tEXt", Array("Comment".utf8) + [0] + Array("scanner 7".utf8))
        chunk[chunk.count - 1] ^= 0xFF
        return png.prefix(33) + chunk + png.dropFirst(33)
    }

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ png: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](png.prefix(24))
        guard bytes.count == 24 else { return nil }
        func integer(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (integer(16), integer(20))
    }

    private static func png(width: Int, height: Int, zlibBody: [UInt8], adler: UInt32) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 0, 0, 0, 0]  // 8-bit gray
        data += chunk("IHDR", header)
        data += chunk("IDAT", [0x78, 0x01] + zlibBody + bigEndian(adler))
        data += chunk("IEND", [])
        return data
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(UInt32.max) { crcTable[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}

/// Packs a deflate bit stream: plain values least-significant bit first, Huffman codes most-significant first.
private struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var current: UInt8 = 0
    private var used = 0

    mutating func write(_ value: Int, count: Int) {
        for index in 0..<count { append(bit: (value >> index) & 1) }
    }

    mutating func writeHuffman(_ code: Int, length: Int) {
        for index in stride(from: length - 1, through: 0, by: -1) { append(bit: (code >> index) & 1) }
    }

    private mutating func append(bit: Int) {
        current |= UInt8(bit) << used
        used += 1
        if used == 8 {
            bytes.append(current)
            current = 0
            used = 0
        }
    }

    /// The bytes written so far, with a partly filled last byte flushed.
    var flushed: [UInt8] { used == 0 ? bytes : bytes + [current] }
}
