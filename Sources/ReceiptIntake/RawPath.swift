import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file path kept as the bytes the file system gave, so names that are not UTF-8 still open.
package struct RawPath: Hashable, Sendable, CustomStringConvertible {
    package let bytes: [UInt8]

    package init(_ bytes: [UInt8]) { self.bytes = bytes }
    package init(_ string: String) { self.bytes = Array(string.utf8) }

    /// The path for people: UTF-8 where it is, `\xNN` for bytes that are not, control characters escaped.
    package var description: String {
        if let text = String(validating: bytes, as: UTF8.self) { return text.escapingControlCharacters }
        var text = ""
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                text += String(Unicode.Scalar(byte)).escapingControlCharacters
            } else {
                text += "\\x" + String(byte, radix: 16, uppercase: true)
            }
            index += 1
        }
        return text
    }

    /// The last component.
    package var name: RawPath {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return self }
        return RawPath(Array(bytes[(slash + 1)...]))
    }

    package func appending(_ component: [UInt8]) -> RawPath {
        var joined = bytes
        if joined.last != UInt8(ascii: "/") { joined.append(UInt8(ascii: "/")) }
        return RawPath(joined + component)
    }

    /// Calls `body` with a NUL-terminated C string of the path.
    package func withCString<T>(_ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }
}
