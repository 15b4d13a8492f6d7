import Foundation
import PipelineCore

/// One labeled image of a fixture folder: `NAME.jpg` (or another image or PDF extension) with `NAME.json` beside it.
package struct BenchFixture: Sendable {
    package var image: URL
    package var label: FixtureLabel
    /// Path relative to the fixture folder (`sroie/sroie_006.jpg`): the name in reports and the OCR cache key.
    package var name: String

    /// Every image under `folder` (recursively) that has a label beside it, sorted by name.
    /// - Throws: `BenchError` when the folder cannot be read or a label is not valid JSON of the fixture schema.
    package static func load(from folder: URL) throws -> [BenchFixture] {
        let base = folder.standardizedFileURL.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: base, isDirectory: &isFolder), isFolder.boolValue else {
            throw BenchError(
                message:
                    "the fixture folder \(folder.path) does not exist; pass a folder of labeled images to --fixtures")
        }
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            throw BenchError(
                message: "cannot read the fixture folder \(folder.path); pass an existing folder to --fixtures")
        }
        var fixtures: [BenchFixture] = []
        for case let url as URL in enumerator where ImageFormat.fileExtensions.contains(url.pathExtension.lowercased())
        {
            let labelURL = url.deletingPathExtension().appendingPathExtension("json")
            guard FileManager.default.fileExists(atPath: labelURL.path) else { continue }
            let label: FixtureLabel
            do {
                label = try FixtureLabel.decode(Data(contentsOf: labelURL))
            } catch {
                throw BenchError(
                    message:
                        "label \(labelURL.path) is not a fixture label (docs/behaviour.md, Fixture labels and scoring): \(error); fix or remove it"
                )
            }
            var name = url.standardizedFileURL.path
            if name.hasPrefix(base + "/") { name.removeFirst(base.count + 1) }
            fixtures.append(BenchFixture(image: url, label: label, name: name))
        }
        guard !fixtures.isEmpty else {
            throw BenchError(message: "no labeled images (NAME.jpg with NAME.json beside it) under \(folder.path)")
        }
        return fixtures.sorted { $0.name < $1.name }
    }
}

/// A bench failure that stops the run (bad folder, bad label); the message says what to do.
package struct BenchError: Error, CustomStringConvertible {
    package var message: String
    package var description: String { message }

    package init(message: String) { self.message = message }
}
