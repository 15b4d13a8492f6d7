import Foundation
import TestSupport
import Testing

@testable import PipelineApp

/// A stored file's identity (`receipts.sha256`) is its SHA-256 as `sha256sum` prints it.
@Suite struct SHA256DigestTests {
    /// FIPS 180-2's one- and two-block examples, and the empty input.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func knownVectors(input: String, digest: String) {
        #expect(sha256Hex(Array(input.utf8)) == digest)
    }

    /// FIPS 180-2's long example: a million "a".
    @Test func aMillionBytes() {
        let input = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(sha256Hex(input) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func aShippedReceiptHashesAsSha256sumPrintsIt() throws {
        let file = TestEnvironment.receipt("sroie_006.jpg")
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", file.path]
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "sha256sum \(file.path) failed: \(printed)")
        let expected = try #require(printed.split(separator: " ").first.map(String.init))
        try #require(expected.count == 64, "sha256sum printed no digest: \(printed)")
        #expect(sha256Hex(try Data(contentsOf: file)) == expected)
    }
}
