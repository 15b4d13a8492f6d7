import ArgumentParser
import Foundation
import JSONRepair
import PipelineCore

/// `pipeline repair [FILE] [--truncated]`: repairs a model reply the way the pipeline does and shows what changed.
struct RepairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair", abstract: "Repair a model reply and print the JSON (diagnostic).",
        discussion: """
            Reads the reply from FILE (or standard input), prints the repaired JSON on standard output and, on \
            standard error, every value dropped, fixed or flagged, then the receipt fields refused. \
            Exit 1 when nothing usable (an object with at least one member) was recovered.
            Example: pipeline repair reply.txt --truncated
            """)

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("The model reply (default: standard input).", valueName: "file"))
    var file: String?

    @Flag(help: "The provider said the reply was cut off (finish_reason: length / stop_reason: max_tokens).")
    var truncated = false

    func run() throws {
        let reply = try readReply()
        let result = JSONRepairer.repair(reply, providerReportedTruncation: truncated)
        for note in result.notes { printError(note.description) }
        guard let value = result.value, result.isUsable else {
            printError("error: \(source): nothing usable recovered (no JSON object with at least one member)")
            throw ExitCode(1)
        }
        print(value.jsonText(indent: 2))
        let (_, issues) = LLMReceiptReader.read(value)
        for issue in issues { printError("refused \(issue)") }
        if result.wasTruncated { printError("note: the reply was truncated; only complete values were kept") }
    }

    private var source: String { file ?? "standard input" }

    private func readReply() throws -> String {
        let data: Data
        if let file {
            guard let contents = FileManager.default.contents(atPath: file) else {
                printError("error: cannot read '\(file)': no such file or not readable")
                throw ExitCode(2)
            }
            data = contents
        } else {
            data = FileHandle.standardInput.readDataToEndOfFile()
        }
        return String(decoding: data, as: UTF8.self)
    }
}
