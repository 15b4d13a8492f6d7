import Foundation

// Writes a Swift file holding each given `NNNN_name.sql` file's text as a raw string literal:
//   MigrationEmbedder OUTPUT.swift migrations/0001_schema.sql migrations/0003_seed.sql …
// Run by the EmbedMigrations build plugin; not part of the product.

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: MigrationEmbedder OUTPUT.swift FILE.sql...\n".utf8))
    exit(2)
}

/// A raw string literal whose delimiter carries more `#` than any run of `#` in the text, so nothing ends it early.
func rawLiteral(_ text: String) -> String {
    var longestRun = 0
    var run = 0
    for character in text {
        run = character == "#" ? run + 1 : 0
        longestRun = max(longestRun, run)
    }
    let hashes = String(repeating: "#", count: longestRun + 1)
    return hashes + "\"\"\"\n" + text + "\n\"\"\"" + hashes
}

var source = """
    // Generated at build time by MigrationEmbedder (the EmbedMigrations plugin) from migrations/*.sql: do not edit.

    extension Migration {
        /// The migrations compiled into this binary, in name order.
        static let embedded: [Migration] = [

    """
for path in arguments.dropFirst().sorted() {
    let url = URL(fileURLWithPath: path)
    let text: String
    do {
        text = try String(contentsOf: url, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("error: cannot read \(path) as UTF-8 text: \(error)\n".utf8))
        exit(1)
    }
    source += "Migration(name: \"\(url.lastPathComponent)\", sql: \(rawLiteral(text))),\n"
}
source += "]\n}\n"
do {
    try source.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("error: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
