import Foundation

/// Receipt files made at test time from the shipped receipts with Debian tools `scripts/install-dependencies`
/// installs: `img2pdf` (a JPEG wrapped in a PDF, as a scanner writes it), `heif-enc` (HEIC), `qpdf` (encryption).
public enum TestFiles {
    /// A tool that failed, with what it said.
    public struct ToolFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `tool` with `arguments` (`INPUT` and `OUTPUT` stand for scratch files), `input` written to `INPUT` under
    /// `inputName`; returns what it wrote to `OUTPUT`.
    public static func convert(_ input: Data, named inputName: String, with tool: String, _ arguments: [String])
        throws -> Data
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("test-files-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent(inputName)
        let output = folder.appendingPathComponent("output")
        try input.write(to: source)
        let process = Process()
        let errors = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [tool] + arguments.map { $0 == "INPUT" ? source.path : $0 == "OUTPUT" ? output.path : $0 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(
                description:
                    "\(tool) failed (\(String(decoding: said, as: UTF8.self))); run scripts/install-dependencies")
        }
        return try Data(contentsOf: output)
    }

    /// Shipped receipt `name` wrapped in a PDF as a scanner would (the JPEG embedded as it is).
    public static func scannedPDF(_ name: String) throws -> Data {
        try convert(
            try Data(contentsOf: TestEnvironment.receipt(name)), named: name, with: "img2pdf",
            ["INPUT", "-o", "OUTPUT"])
    }

    /// Shipped receipts `names` as one PDF of a page each, in order, as a scanner's batch (img2pdf reads the shipped
    /// files where they are).
    public static func scannedPDF(pages names: [String]) throws -> Data {
        try convert(
            Data(), named: "unused", with: "img2pdf", names.map { TestEnvironment.receipt($0).path } + ["-o", "OUTPUT"])
    }

    /// Shipped receipt `name` as a HEIC photo.
    public static func heic(_ name: String) throws -> Data {
        try convert(
            try Data(contentsOf: TestEnvironment.receipt(name)), named: name, with: "heif-enc",
            ["-q", "90", "INPUT", "-o", "OUTPUT"])
    }

    /// `pdf` encrypted with a user password, as `qpdf` writes it.
    public static func encrypted(_ pdf: Data) throws -> Data {
        try convert(
            pdf, named: "plain.pdf", with: "qpdf", ["--encrypt", "secret", "owner", "256", "--", "INPUT", "OUTPUT"])
    }
}
